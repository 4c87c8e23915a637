/**
 * The composition root: which layers a process runs for its role, and the domain services they share.
 *
 *   config -> database (embedded or DATABASE_URL, migrations) -> domain services -> HTTP API | worker
 */
import * as Etag from "@effect/platform/Etag"
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpPlatform from "@effect/platform/HttpPlatform"
import * as HttpServer from "@effect/platform/HttpServer"
import * as Path from "@effect/platform/Path"
import { Duration, Effect, Layer, Schedule } from "effect"
import { recoverStaleJobs } from "./jobs/Runner.js"
import { IdempotencyKeySweeper } from "./http/Idempotency.js"
import { TracingLive } from "./telemetry/Tracing.js"
import { LoginTokens } from "./auth/LoginTokens.js"
import { Actors } from "./auth/Actors.js"
import { Mcp } from "./mcp/Mcp.js"
import { AppConfig, type Role } from "./config/AppConfig.js"
import { Ledger } from "./credits/Ledger.js"
import { Bundles } from "./bundles/Bundles.js"
import { Files } from "./bundles/Files.js"
import { Versions } from "./bundles/Versions.js"
import { DatabaseLive } from "./db/Database.js"
import { describeDatabaseError, isDatabaseUnavailable } from "./db/Availability.js"
import { EmailServicesLive } from "./email/Layer.js"
import { Mailer } from "./email/Mailer.js"
import { HttpAppLive, LogBaseUrl, NodeServerLive } from "./Http.js"
import { ApiKeys } from "./identity/ApiKeys.js"
import { Users } from "./identity/Users.js"
import { WorkerLive, WorkerTasks } from "./jobs/Worker.js"
import { Jobs } from "./jobs/Jobs.js"
import { Admission } from "./jobs/Admission.js"
import { RunKinds } from "./jobs/RunKind.js"
import { RunStarter } from "./jobs/Start.js"
import { RunRecords } from "./jobs/RunRecords.js"
import { CreditsOverview } from "./credits/Overview.js"
import { Spend } from "./credits/Spend.js"
import { Audits } from "./audits/Audits.js"
import { AuditKind } from "./audits/Kind.js"
import { emailTasks } from "./email/Delivery.js"
import { Targets } from "./targets/Targets.js"
import { Conversions } from "./conversions/Conversions.js"
import { RubrFlowConverter } from "./conversions/Converter.js"
import { ConversionKind } from "./conversions/Kind.js"
import { MockConverterLive } from "./conversions/mock/MockConverter.js"
import { Evals } from "./evals/Evals.js"
import { Evaluator } from "./evals/Evaluator.js"
import { EvalKind } from "./evals/Kind.js"
import { MockEvaluatorLive } from "./evals/mock/MockEvaluator.js"
import { ProofReportKind } from "./proofs/Kind.js"
import { ProofReports } from "./proofs/ProofReports.js"
import { SigningKeys } from "./signing/SigningKeys.js"
import { ObjectStoreLive } from "./storage/ObjectStore.js"
import { MockReviewerLive } from "./review/mock/MockReviewer.js"
import { AiReviewer } from "./review/AiReviewer.js"
import { RateLimiter, RateLimitSweeper } from "./limits/RateLimiter.js"

/** SERVICE_MOCK_REVIEW_DELAY_MS: latency added to every mock AI call (demos of progress and cancellation). */
const delayed = <A, E, R>(delayMs: number, effect: Effect.Effect<A, E, R>) =>
  delayMs === 0 ? effect : Effect.zipRight(Effect.sleep(Duration.millis(delayMs)), effect)

const mockReviewer = (delayMs: number) =>
  delayMs === 0 ? MockReviewerLive : Layer.effect(
    AiReviewer,
    Effect.map(AiReviewer, (mock) => ({ review: (input: Parameters<typeof mock.review>[0]) => delayed(delayMs, mock.review(input)) }))
  ).pipe(Layer.provide(MockReviewerLive))

const mockConverter = (delayMs: number) =>
  delayMs === 0 ? MockConverterLive : Layer.effect(
    RubrFlowConverter,
    Effect.map(RubrFlowConverter, (mock) =>
      RubrFlowConverter.of({
        generate: (input, analysis, plan) => delayed(delayMs, mock.generate(input, analysis, plan)),
        repair: (input, analysis, draft, issues) => delayed(delayMs, mock.repair(input, analysis, draft, issues))
      }))
  ).pipe(Layer.provide(MockConverterLive))

/**
 * The OpenAI-compatible providers are imported only when SERVICE_AI_ENABLED=true: their client brings
 * the OpenAI API's generated schemas (a 1.4 MB module and the thousands of schema objects it builds
 * at load) that a process on the mock never uses (docs/performance.md, "Memory").
 */
const lazily = <A, E, R>(load: () => Promise<Layer.Layer<A, E, R>>) => Layer.unwrapEffect(Effect.promise(load))

/** The AI provider behind audits: the deterministic mock unless SERVICE_AI_ENABLED=true. */
export const AiReviewerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => (config.ai.enabled ? lazily(() => import("./review/openai/index.js").then((m) => m.OpenAiReviewerLive)) : mockReviewer(config.ai.mockDelayMs)))
)

/** The AI provider behind conversions: the deterministic mock unless SERVICE_AI_ENABLED=true. */
export const ConverterLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => (config.ai.enabled ? lazily(() => import("./conversions/openai/OpenAiConverter.js").then((m) => m.OpenAiConverterLive)) : mockConverter(config.ai.mockDelayMs)))
)

const mockEvaluator = (delayMs: number) =>
  delayMs === 0 ? MockEvaluatorLive : Layer.effect(
    Evaluator,
    Effect.map(Evaluator, (mock) => Evaluator.of({ ...mock, evaluateCase: (input) => delayed(delayMs, mock.evaluateCase(input)) }))
  ).pipe(Layer.provide(MockEvaluatorLive))

/** The AI provider behind evals: the deterministic mock unless SERVICE_AI_ENABLED=true. */
export const EvaluatorLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => (config.ai.enabled ? lazily(() => import("./evals/openai/OpenAiEvaluator.js").then((m) => m.OpenAiEvaluatorLive)) : mockEvaluator(config.ai.mockDelayMs)))
)

/**
 * The services at the process's edge, each an outside system: the AI providers, object storage and
 * the mailer. `roleLayer` takes them as one layer, so a test can state a failure path by replacing
 * one of them (`makeTestLayer`, test/edge-failures.test.ts).
 */
export const EdgeServicesLive = Layer.mergeAll(AiReviewerLive, ConverterLive, EvaluatorLive, ObjectStoreLive, Mailer.Default)
export type EdgeServices = Layer.Layer.Success<typeof EdgeServicesLive>
/** an edge as roleLayer takes it: what EdgeServicesLive provides, from what it needs */
export type EdgeLayer = Layer.Layer<EdgeServices, Layer.Layer.Error<typeof EdgeServicesLive>, Layer.Layer.Context<typeof EdgeServicesLive>>

/** Domain services over the SqlClient, lower ones first. */
const FoundationServicesLive = Layer.mergeAll(
  Users.Default,
  ApiKeys.Default,
  LoginTokens.Default,
  RateLimiter.Default,
  Bundles.Default,
  Files.Default,
  Versions.Default,
  EmailServicesLive,
  Spend.Default,
  Targets.Default,
  SigningKeys.Default
).pipe(Layer.provideMerge(Ledger.Default))

/**
 * The kinds of run this service knows. The shared pipeline (start, jobs, runner, worker, stale
 * recovery) reads them from this registry; registering a kind here is all it takes to plug one in.
 */
const RunKindsLive = RunKinds.layer(AuditKind, ConversionKind, EvalKind, ProofReportKind)

/** The run pipeline every kind shares: admission, the one-transaction start, jobs. */
const RunPipelineLive = RunStarter.Default.pipe(
  Layer.provideMerge(RunRecords.Default),
  Layer.provideMerge(Admission.Default),
  Layer.provideMerge(Jobs.Default),
  Layer.provideMerge(RunKindsLive)
)

/** The domain services over a given edge (EdgeServicesLive, or a test's replacement of part of it). */
const servicesOver = (edge: EdgeLayer) =>
  Layer.mergeAll(Audits.Default, Conversions.Default, ProofReports.Default, Actors.Default, CreditsOverview.Default).pipe(
    Layer.provideMerge(Evals.Default),
    Layer.provideMerge(RunPipelineLive),
    Layer.provideMerge(FoundationServicesLive),
    Layer.provideMerge(edge)
  )

/** Plain worker tasks (not kinds of run): email delivery. */
const WorkerTasksLive = Layer.effect(WorkerTasks, emailTasks)

const apiLayers = Layer.mergeAll(
  HttpAppLive.pipe(Layer.provide(Mcp.Default)),
  LogBaseUrl,
  Layer.scopedDiscard(RateLimitSweeper),
  Layer.scopedDiscard(IdempotencyKeySweeper)
)
/** Any worker hands jobs of a dead worker (no heartbeat) back to the queue, or fails them with a refund. */
const StaleJobRecovery = Layer.scopedDiscard(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const staleAfter = Duration.millis(config.worker.staleJobAfterMs)
    yield* recoverStaleJobs(staleAfter).pipe(
      // the database away: one short line a pass (the next pass tries again); anything else with its cause
      Effect.catchAllCause((cause) =>
        isDatabaseUnavailable(cause)
          ? Effect.logWarning("stale job recovery skipped: the database is unreachable").pipe(Effect.annotateLogs({ reason: describeDatabaseError(cause) }))
          : Effect.logWarning("stale job recovery failed", cause)
      ),
      Effect.repeat(Schedule.spaced(Duration.millis(Math.max(500, config.worker.staleJobAfterMs / 4)))),
      Effect.forkScoped
    )
  })
)

const workerLayers = Layer.mergeAll(WorkerLive.pipe(Layer.provide(WorkerTasksLive)), StaleJobRecovery)

/** The process for a role, minus config and the listening socket (tests bring their own). */
export const roleLayer = <E, R>(
  role: Role,
  server: Layer.Layer<HttpServer.HttpServer | HttpPlatform.HttpPlatform | Etag.Generator | FileSystem.FileSystem | Path.Path, E, R>,
  edge: EdgeLayer = EdgeServicesLive
) => {
  const api = apiLayers.pipe(Layer.provideMerge(server))
  const parts = role === "api" ? api : role === "worker" ? workerLayers : Layer.mergeAll(api, workerLayers)
  return parts.pipe(Layer.provide(servicesOver(edge)), Layer.provideMerge(DatabaseLive))
}

/** The whole service for the configured role: `npm start` runs this. */
export const MainLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => roleLayer(config.role, NodeServerLive))
).pipe(Layer.provide(TracingLive))
