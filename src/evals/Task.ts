/**
 * The eval work on a worker:
 *
 *   preparing   read exactly the admitted source and candidate versions (immutable)
 *   evaluating  one case at a time: the evaluator judges both sides against the case's passCriteria;
 *               each result is stored as soon as it is known, so a failure keeps the cases already
 *               judged as evidence and a retry resumes after them
 *   comparing   the run's counts, the score delta and the diff of the two versions
 *   saving      the aggregate and the reconciliation, written with the job's completion
 *
 * A failed eval keeps its evidence and is refunded for the work not done: everything but what its
 * provider calls cost (the mock's calls cost nothing).
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Schema } from "effect"
import { PgPool } from "../db/Database.js"
import { makeRows, type Rows, rowsOf } from "../db/Query.js"
import { creditsForUsage } from "../credits/Estimate.js"
import { reconcileUsage } from "../credits/Reconcile.js"
import { type JobContext, JobFailure } from "../jobs/Job.js"
import { addUsage, type Usage } from "../ai/Usage.js"
import { diffVersions } from "./Diff.js"
import { Evaluator, type EvaluatorShape } from "./Evaluator.js"
import {
  type CaseResultJson,
  comparisonOf,
  type EvalAggregateJson,
  evalColumns,
  type EvalRunRow,
  EvalRunRows,
  type EvalSideRow,
  EvalSideRows
} from "./Records.js"

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

const usageOf = (results: ReadonlyArray<CaseResultJson>): Usage | null =>
  results.flatMap((r) => r.calls).reduce<Usage | null>((total, call) => addUsage(total, call.usage), null)

const PathRows = rowsOf("active path", Schema.Struct({ path: Schema.String }))

/** What every pass of one eval reads: the job, its run record and the services it works with. */
interface EvalPass {
  readonly ctx: JobContext
  readonly run: EvalRunRow
  readonly sql: PgClient.PgClient
  readonly query: Rows
  readonly evaluator: EvaluatorShape
}
type EvalSide = typeof EvalSideRow.Type
/** The two compared versions and the paths of the bundle's active files. */
interface Sides {
  readonly source: EvalSide
  readonly candidate: EvalSide
  readonly bundlePaths: ReadonlyArray<string>
}

/** preparing: reads exactly the admitted source and candidate versions (immutable), and the bundle's paths. */
const prepare = ({ ctx, run, sql, query }: EvalPass) =>
  Effect.gen(function*() {
    const versions = yield* query(EvalSideRows, sql`
      SELECT v.file_id, v.file_path AS path, v.id AS file_version_id, v.version_number, v.content_hash, c.content, f.artifact_type
      FROM file_versions v
      JOIN bundle_files f ON f.id = v.file_id
      JOIN file_contents c ON c.artifact_bundle_id = v.artifact_bundle_id AND c.content_hash = v.content_hash
      WHERE v.id IN (${run.sourceFileVersionId}, ${run.candidateFileVersionId})`).pipe(Effect.orDie)
    const source = versions.find((v) => v.fileVersionId === run.sourceFileVersionId)
    const candidate = versions.find((v) => v.fileVersionId === run.candidateFileVersionId)
    if (!source || !candidate) {
      return yield* new JobFailure({ code: "versions_missing", message: "A compared file version no longer exists." })
    }
    const bundlePaths = (yield* query(PathRows, sql`
      SELECT path FROM bundle_files WHERE artifact_bundle_id = ${run.artifactBundleId} AND status = 'active' ORDER BY path`).pipe(Effect.orDie))
      .map((r) => r.path)
    yield* ctx.phase(
      "preparing",
      `Comparing ${source.path} v${source.versionNumber} with ${candidate.path} v${candidate.versionNumber} on ${plural(run.caseCount, "case")}.`
    )
    return { source, candidate, bundlePaths } satisfies Sides
  })

/**
 * evaluating: one case at a time, each result stored as soon as it is known (a retry resumes after the
 * cases already judged). A failure keeps them as evidence and keeps the credits their calls cost.
 */
const evaluate = ({ ctx, run, sql, evaluator }: EvalPass, { source, candidate, bundlePaths }: Sides) =>
  Effect.gen(function*() {
    const estimate = run.summary.estimate
    const results: Array<CaseResultJson> = [...run.results]
    const done = new Set(results.map((r) => r.caseId))
    const keepFor = () => {
      const usage = usageOf(results)
      return usage === null ? 0 : Math.min(run.estimatedCredits, creditsForUsage(usage, estimate.modelTier, estimate.reasoningEffort))
    }
    for (const [i, evalCase] of run.cases.entries()) {
      if (done.has(evalCase.id)) continue
      yield* ctx.progress("evaluating", 15 + Math.floor((70 * i) / run.caseCount), `Case ${i + 1}/${run.caseCount}: ${evalCase.name}.`)
      const judged = yield* evaluator.evaluateCase({
        source,
        candidate,
        case: evalCase,
        bundlePaths,
        modelTier: estimate.modelTier,
        reasoningEffort: estimate.reasoningEffort
      }).pipe(
        Effect.mapError((error) =>
          new JobFailure({
            code: error.code,
            message: `${error.message} The ${plural(results.length, "case")} judged before it are kept as evidence.`,
            keepCredits: keepFor()
          })
        )
      )
      const result: CaseResultJson = {
        caseId: evalCase.id,
        name: evalCase.name,
        type: evalCase.type,
        input: evalCase.input,
        expectedBehavior: evalCase.expectedBehavior,
        passCriteria: evalCase.passCriteria,
        source: judged.source,
        candidate: judged.candidate,
        scoreDelta: judged.scoreDelta,
        verdict: judged.verdict,
        calls: judged.calls
      }
      results.push(result)
      const usage = usageOf(results)
      yield* sql`
        UPDATE eval_runs SET results = results || ${JSON.stringify([result])}::jsonb,
          usage = ${usage === null ? null : JSON.stringify(usage)}::jsonb, updated_at = now()
        WHERE id = ${run.id}`.pipe(Effect.orDie)
    }
    return results
  })

/** comparing: the run's counts, the score delta and the diff of the two versions, as the run's aggregate. */
const compare = ({ ctx, run, evaluator }: EvalPass, { source, candidate }: Sides, results: ReadonlyArray<CaseResultJson>, started: number) =>
  Effect.gen(function*() {
    const estimate = run.summary.estimate
    const comparison = comparisonOf(results)
    yield* ctx.phase(
      "comparing",
      `Candidate passed ${comparison.candidatePassCount}/${results.length} (source ${comparison.sourcePassCount}/${results.length}); ` +
        `${comparison.improvedCount} improved, ${comparison.regressedCount} regressed, score delta ${comparison.scoreDelta >= 0 ? "+" : ""}${comparison.scoreDelta}.`
    )
    const diff = diffVersions(source, candidate)
    const calls = results.flatMap((r) => r.calls)
    const provider = calls[0] ?? null
    const aggregate: EvalAggregateJson = {
      comparison,
      diff,
      metadata: {
        evaluatorVersion: run.evaluatorVersion,
        provider: provider?.provider ?? "mock",
        model: provider?.model ?? "rubr-mock-evaluator",
        modelTier: estimate.modelTier,
        reasoningEffort: estimate.reasoningEffort,
        calls: calls.length,
        durationMs: Date.now() - started
      },
      knownLimitations: evaluator.limitations
    }
    return aggregate
  })

/** saving: the aggregate and the usage reconciliation, written with the job's completion. */
const save = ({ ctx, run, sql }: EvalPass, results: ReadonlyArray<CaseResultJson>, aggregate: EvalAggregateJson) =>
  Effect.gen(function*() {
    const { comparison, diff } = aggregate
    yield* ctx.phase("saving", `Saving ${plural(results.length, "case result")} and the diff (+${diff.linesAdded} −${diff.linesRemoved}).`)
    const usage = usageOf(results)
    return yield* ctx.complete(Effect.gen(function*() {
      const { reconciliation, refunded } = yield* reconcileUsage({
        userId: run.userId,
        bundleId: run.artifactBundleId,
        resourceType: ctx.job.resourceType,
        resourceId: run.id,
        reason: "eval_usage_reconciliation",
        estimate: run.summary.estimate,
        chargedCredits: run.estimatedCredits,
        usage
      })
      yield* sql`
        UPDATE eval_runs SET aggregate = ${JSON.stringify(aggregate)}::jsonb,
          usage = ${usage === null ? null : JSON.stringify(usage)}::jsonb,
          reconciliation = ${JSON.stringify(reconciliation)}::jsonb,
          final_charged_credits = ${run.estimatedCredits - refunded},
          completed_at = now(), updated_at = now()
        WHERE id = ${run.id}`.pipe(Effect.orDie)
      return {
        evalRunId: run.id,
        scenarioCount: results.length,
        passCount: comparison.candidatePassCount,
        failCount: comparison.candidateFailCount,
        scoreDelta: comparison.scoreDelta,
        improvedCount: comparison.improvedCount,
        regressedCount: comparison.regressedCount
      }
    }))
  })

export const evalWork = (ctx: JobContext) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const query = makeRows(yield* PgPool)
    const evaluator = yield* Evaluator
    const [run] = yield* query(EvalRunRows, sql`
      SELECT ${sql.literal(evalColumns)} FROM eval_runs WHERE id = ${ctx.job.resourceId}`).pipe(Effect.orDie)
    if (!run) return yield* new JobFailure({ code: "run_missing", message: "The eval run no longer exists." })
    const started = Date.now()
    const pass: EvalPass = { ctx, run, sql, query, evaluator }
    const sides = yield* prepare(pass)
    const results = yield* evaluate(pass, sides)
    const aggregate = yield* compare(pass, sides, results, started)
    return yield* save(pass, results, aggregate)
  })
