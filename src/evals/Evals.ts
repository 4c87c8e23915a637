/**
 * The eval use cases. Version selection (each side: a version id, or a file id with a version
 * number; a side left out defaults relative to the other side's file; nothing at all: version 1
 * against the latest version of the main artifact), cases (./Cases.ts), the estimate, and the start
 * on the run pipeline (src/jobs/Start.ts).
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Option, Schema } from "effect"
import { PgPool } from "../db/Database.js"
import { makeRows, type Rows, rowsOf } from "../db/Query.js"
import { type BundleId, FileId, type JobId, RunId, VersionId } from "../domain/Ids.js"
import type { Actor } from "../auth/CurrentActor.js"
import { creditCostOf, type Estimate, estimateWork } from "../credits/Estimate.js"
import { Conflict, NotFound, ValidationFailed } from "../domain/Errors.js"
import { RunRecords } from "../jobs/RunRecords.js"
import { runEstimate, runReads, startedData } from "../jobs/RunUseCases.js"
import { RunStarter } from "../jobs/Start.js"
import { getRubric, resolveRubric } from "../review/rubrics/Registry.js"
import { estimateTokens } from "../ai/Tokens.js"
import type { ModelTier, ReasoningEffort } from "../ai/Usage.js"
import type { ArtifactType } from "../domain/Artifact.js"
import type { EvalCase } from "../domain/EvalCase.js"
import { DEFAULT_MAX_CASES, type EvalRequest, StartEvalData } from "./Api.js"
import { generateCases, isEvalCase, normalizeCases, type ResolvedCases } from "./Cases.js"
import { Evaluator, type EvaluatorShape } from "./Evaluator.js"
import { EvalKind } from "./Kind.js"
import { evalColumns, EvalRunRows, EvalSideRow, type EvalSummaryJson, type EvalTargetJson, toEvalRunDetail, toEvalRunJson } from "./Records.js"
import type { EvalSide } from "./Types.js"

export const EVAL_MODEL_TIER: ModelTier = "standard"
export const EVAL_REASONING_EFFORT: ReasoningEffort = "low"
/** Per case: each version answers the input (one call each), then a pairwise judge runs twice, positions swapped. */
export const RUN_PROMPT_TOKENS = 150
export const ANSWER_TOKENS = 400
export const JUDGE_PROMPT_TOKENS = 350
export const JUDGE_OUTPUT_TOKENS = 250

/** The eval estimate: the dynamic formula per case, times the number of cases (evals are always dynamic). */
export const estimateEval = (source: EvalSide, candidate: EvalSide, cases: ReadonlyArray<EvalCase>): Estimate & { readonly caseCount: number } => {
  const caseTokens = cases.reduce((n, c) => n + estimateTokens(c.input + c.expectedBehavior + c.passCriteria), 0) /
    Math.max(1, cases.length)
  const estimate = estimateWork({
    files: [
      { path: `${source.path}@v${source.versionNumber}`, content: source.content, role: "artifact" },
      { path: `${candidate.path}@v${candidate.versionNumber}`, content: candidate.content, role: "artifact" }
    ],
    inputOverheadTokens: Math.ceil(2 * RUN_PROMPT_TOKENS + 2 * (2 * ANSWER_TOKENS + JUDGE_PROMPT_TOKENS) + 4 * caseTokens),
    outputTokens: () => 2 * ANSWER_TOKENS + 2 * JUDGE_OUTPUT_TOKENS,
    modelTier: EVAL_MODEL_TIER,
    reasoningEffort: EVAL_REASONING_EFFORT,
    mode: "dynamic",
    flatCredits: 0,
    rubricCount: 1,
    units: cases.length
  })
  return { ...estimate, caseCount: cases.length }
}

/** a side's version, and whether its file is still active */
const SideVersionRows = rowsOf("eval side version", Schema.Struct({ ...EvalSideRow.fields, fileStatus: Schema.String }))
const EvalBundleRows = rowsOf("eval bundle", Schema.Struct({
  status: Schema.String,
  primaryFileId: Schema.NullOr(FileId),
  settingsJson: Schema.String,
  customRubricJson: Schema.String
}))
const PathRows = rowsOf("active path", Schema.Struct({ path: Schema.String }))
const AuditEvalKitRows = rowsOf("audit eval kit", Schema.Struct({ id: RunId, evalKit: Schema.Unknown }))

type SideSelector =
  | { readonly kind: "version"; readonly versionId: VersionId }
  | { readonly kind: "file"; readonly fileId: FileId; readonly versionNumber: number | "first" | "latest" }

/** One side's selector from the body (its ids branded here), or undefined when the body says nothing about it. */
const selectorOf = (
  side: "source" | "candidate",
  versionId: string | undefined,
  fileId: string | undefined,
  versionNumber: number | undefined
) =>
  Effect.gen(function*() {
    if (versionNumber !== undefined && fileId === undefined) {
      return yield* ValidationFailed.at(`${side}VersionNumber`, `needs ${side}FileId`)
    }
    if (versionId !== undefined && fileId !== undefined) {
      return yield* ValidationFailed.of(
        `Select the ${side} either by ${side}FileVersionId or by ${side}FileId (+ ${side}VersionNumber), not both.`,
        [{ path: `${side}FileVersionId`, message: `cannot be combined with ${side}FileId` }]
      )
    }
    if (versionId !== undefined) return { kind: "version", versionId: VersionId.make(versionId) } as SideSelector
    if (fileId !== undefined) {
      return { kind: "file", fileId: FileId.make(fileId), versionNumber: versionNumber ?? (side === "source" ? "first" : "latest") } as SideSelector
    }
    return undefined
  })

/** The reads a prepare makes: the two sides' versions (the module comment's selection) and the cases. */
const makeEvalInputs = (sql: PgClient.PgClient, query: Rows) => {
  const versionRow = (bundleId: BundleId, selector: SideSelector) =>
    Effect.gen(function*() {
      const where = selector.kind === "version"
        ? sql`v.id = ${selector.versionId}`
        : selector.versionNumber === "latest"
        ? sql`v.file_id = ${selector.fileId} AND v.version_number = f.latest_version_number`
        : sql`v.file_id = ${selector.fileId} AND v.version_number = ${selector.versionNumber === "first" ? 1 : selector.versionNumber}`
      const [row] = yield* query(SideVersionRows, sql`
        SELECT v.file_id, v.file_path AS path, v.id AS file_version_id, v.version_number, v.content_hash, c.content,
               f.artifact_type, f.status AS file_status
        FROM file_versions v
        JOIN bundle_files f ON f.id = v.file_id
        JOIN file_contents c ON c.artifact_bundle_id = v.artifact_bundle_id AND c.content_hash = v.content_hash
        WHERE v.artifact_bundle_id = ${bundleId} AND ${where}`).pipe(Effect.orDie)
      // a version of another bundle is not found here: 404, like any id the caller cannot see
      if (!row) return yield* NotFound.of(selector.kind === "version" ? "File version" : "File version")
      if (row.fileStatus !== "active") return yield* NotFound.of("File")
      // branded here: the next selection reads this side's file by id (the evaluator's EvalSide is plain)
      const side: EvalSide & { readonly fileId: FileId; readonly fileVersionId: VersionId } = {
        fileId: row.fileId,
        path: row.path,
        fileVersionId: row.fileVersionId,
        versionNumber: row.versionNumber,
        contentHash: row.contentHash,
        content: row.content,
        artifactType: row.artifactType
      }
      return side
    })

  /** The two sides: as the request selects them, defaulting relative to each other or to the main artifact. */
  const selectSides = (bundleId: BundleId, primaryFileId: FileId | null, request: EvalRequest) =>
    Effect.gen(function*() {
      let sourceSel = yield* selectorOf("source", request.sourceFileVersionId, request.sourceFileId, request.sourceVersionNumber)
      let candidateSel = yield* selectorOf("candidate", request.candidateFileVersionId, request.candidateFileId, request.candidateVersionNumber)
      if (sourceSel === undefined && candidateSel === undefined) {
        if (primaryFileId === null) {
          return yield* ValidationFailed.of(
            "This bundle has no main artifact: select the two versions (sourceFileVersionId and candidateFileVersionId, or sourceFileId/sourceVersionNumber and candidateFileId/candidateVersionNumber).",
            [{ path: "sourceFileVersionId", message: "required when the bundle has no main artifact" }]
          )
        }
        sourceSel = { kind: "file", fileId: primaryFileId, versionNumber: "first" }
        candidateSel = { kind: "file", fileId: primaryFileId, versionNumber: "latest" }
      }
      // a side left out: the first (source) or latest (candidate) version of the other side's file
      const source = sourceSel !== undefined ? yield* versionRow(bundleId, sourceSel) : undefined
      const candidate = candidateSel !== undefined
        ? yield* versionRow(bundleId, candidateSel)
        : yield* versionRow(bundleId, { kind: "file", fileId: source!.fileId, versionNumber: "latest" })
      const sourceSide = source ?? (yield* versionRow(bundleId, { kind: "file", fileId: candidate.fileId, versionNumber: "first" }))
      return { source: sourceSide, candidate }
    })

  const resolveCases = (bundleId: BundleId, source: EvalSide, request: EvalRequest, bundlePaths: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      if (request.testCases !== undefined) {
        const normalized = normalizeCases(request.testCases)
        if (!Array.isArray(normalized)) {
          const duplicate = (normalized as { readonly duplicate: string }).duplicate
          return yield* ValidationFailed.at("testCases", `two cases have the id ${duplicate}; ids must be unique`)
        }
        const cases = normalized.slice(0, request.maxCases ?? normalized.length)
        return { cases, source: "request", auditRunId: null } satisfies ResolvedCases
      }
      const max = request.maxCases ?? DEFAULT_MAX_CASES
      const [audit] = yield* query(AuditEvalKitRows, sql`
        SELECT id, result -> 'evalKit' -> 'cases' AS eval_kit FROM audit_runs
        WHERE artifact_bundle_id = ${bundleId} AND target_file_version_id = ${source.fileVersionId}
          AND status = 'completed' AND jsonb_array_length(COALESCE(result -> 'evalKit' -> 'cases', '[]'::jsonb)) > 0
        ORDER BY completed_at DESC, id DESC LIMIT 1`).pipe(Effect.orDie)
      const kit = Array.isArray(audit?.evalKit) ? audit.evalKit.filter(isEvalCase) : []
      if (audit && kit.length > 0) return { cases: kit.slice(0, max), source: "audit_eval_kit", auditRunId: audit.id } satisfies ResolvedCases
      const generated = generateCases(source, source.artifactType, bundlePaths).slice(0, max)
      if (generated.length === 0) {
        return yield* ValidationFailed.at("testCases", "no cases could be generated from the source; give testCases")
      }
      return { cases: generated, source: "generated", auditRunId: null } satisfies ResolvedCases
    })

  return { selectSides, resolveCases } as const
}

/** The bundle (404, archived 409), the two versions, the cases, the rubric and the estimate. */
const makePrepare = (sql: PgClient.PgClient, query: Rows, { selectSides, resolveCases }: ReturnType<typeof makeEvalInputs>) =>
  Effect.fn("Evals.prepare")(function*(actor: Actor, bundleId: BundleId, request: EvalRequest) {
    const [bundle] = yield* query(EvalBundleRows, sql`
      SELECT status, primary_file_id, settings::text AS settings_json, custom_rubric::text AS custom_rubric_json
      FROM artifact_bundles WHERE id = ${bundleId} AND user_id = ${actor.userId}`).pipe(Effect.orDie)
    if (!bundle) return yield* NotFound.of("Artifact bundle")
    if (bundle.status === "archived") {
      return yield* new Conflict({
        message: "This artifact bundle is archived; archived bundles cannot be evaluated.",
        details: [{ artifactBundleId: bundleId, status: "archived" }]
      })
    }
    const { source: sourceSide, candidate } = yield* selectSides(bundleId, bundle.primaryFileId, request)

    const bundlePaths = (yield* query(PathRows, sql`
      SELECT path FROM bundle_files WHERE artifact_bundle_id = ${bundleId} AND status = 'active' ORDER BY path`).pipe(Effect.orDie))
      .map((r) => r.path)
    const cases = yield* resolveCases(bundleId, sourceSide, request, bundlePaths)

    const artifactType = (["skill", "agent", "prompt", "command", "workflow", "rubr_flow"].includes(sourceSide.artifactType)
      ? sourceSide.artifactType
      : "prompt") as ArtifactType
    const rubric = yield* resolveRubric({
      artifactType,
      rubricKey: undefined,
      customRubric: JSON.parse(bundle.customRubricJson),
      settings: JSON.parse(bundle.settingsJson)
    })
    if (request.rubricVersion !== undefined && request.rubricVersion !== rubric.version) {
      const pinned = getRubric(rubric.key, request.rubricVersion)
      if (Option.isNone(pinned)) {
        return yield* ValidationFailed.at("rubricVersion", `is not a version of the rubric ${rubric.key} (its version is ${rubric.version})`)
      }
    }
    const estimate = estimateEval(sourceSide, candidate, cases.cases)
    const target: EvalTargetJson = {
      artifactBundleId: bundleId,
      sourceFileId: sourceSide.fileId,
      sourceFilePath: sourceSide.path,
      sourceFileVersionId: sourceSide.fileVersionId,
      sourceFileVersionNumber: sourceSide.versionNumber,
      sourceHash: sourceSide.contentHash,
      candidateFileId: candidate.fileId,
      candidateFilePath: candidate.path,
      candidateFileVersionId: candidate.fileVersionId,
      candidateFileVersionNumber: candidate.versionNumber,
      candidateHash: candidate.contentHash,
      caseCount: cases.cases.length,
      casesSource: cases.source,
      auditRunId: cases.auditRunId
    }
    return {
      source: sourceSide,
      candidate,
      cases,
      rubric: { key: rubric.key, version: request.rubricVersion ?? rubric.version },
      estimate,
      target,
      creditCost: creditCostOf(estimate, EvalKind.debitReason)
    }
  })

/** The start on the run pipeline (src/jobs/Start.ts), and its options. */
const makeEvalStart = (
  sql: PgClient.PgClient,
  query: Rows,
  starter: RunStarter,
  evaluator: EvaluatorShape,
  prepare: ReturnType<typeof makePrepare>
) => {
  /** Everything of a start but the transaction: proof reports compose it with their own start. */
  const startOptions = (actor: Actor, bundleId: BundleId, request: EvalRequest, idempotencyKey: string | undefined) => ({
    kind: EvalKind,
    actor,
    bundleId,
    route: `POST /artifact-bundles/${bundleId}/evals`,
    idempotencyKey,
    request,
    prepare: prepare(actor, bundleId, request),
    credits: (prepared: Effect.Effect.Success<ReturnType<typeof prepare>>) => prepared.estimate.estimatedCredits,
    insertRun: (prepared: Effect.Effect.Success<ReturnType<typeof prepare>>, ids: { runId: RunId; jobId: JobId; apiKeyId: string | null }) => {
      const summary: EvalSummaryJson = { estimate: prepared.estimate, target: prepared.target, creditCost: prepared.creditCost }
      return query(EvalRunRows, sql`
        INSERT INTO eval_runs (id, artifact_bundle_id, user_id, job_id, requested_by_api_key_id, source_file_id,
          source_file_version_id, candidate_file_id, candidate_file_version_id, audit_run_id, mode, rubric_key, rubric_version,
          evaluator_version, cases, cases_source, case_count, summary, estimated_credits)
        VALUES (${ids.runId}, ${bundleId}, ${actor.userId}, ${ids.jobId}, ${ids.apiKeyId}, ${prepared.source.fileId},
          ${prepared.source.fileVersionId}, ${prepared.candidate.fileId}, ${prepared.candidate.fileVersionId},
          ${prepared.cases.auditRunId}, ${request.mode ?? "standard"}, ${prepared.rubric.key}, ${prepared.rubric.version},
          ${evaluator.version}, ${JSON.stringify(prepared.cases.cases)}::jsonb, ${prepared.cases.source},
          ${prepared.cases.cases.length}, ${JSON.stringify(summary)}::jsonb, ${prepared.estimate.estimatedCredits})
        RETURNING ${sql.literal(evalColumns)}`).pipe(Effect.orDie, Effect.map((rows) => rows[0]!))
    },
    respond: startedData(StartEvalData, "evalRun", toEvalRunJson)
  })

  const start = Effect.fn("Evals.start")(function*(
    actor: Actor,
    bundleId: BundleId,
    request: EvalRequest,
    idempotencyKey: string | undefined
  ) {
    return yield* starter.start(startOptions(actor, bundleId, request, idempotencyKey))
  })

  return { start, startOptions } as const
}

export class Evals extends Effect.Service<Evals>()("rubr/Evals", {
  effect: Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const query = makeRows(yield* PgPool)
    const starter = yield* RunStarter
    const records = yield* RunRecords
    const evaluator = yield* Evaluator

    const prepare = makePrepare(sql, query, makeEvalInputs(sql, query))
    const estimate = runEstimate(records, "Evals", prepare)
    const { start, startOptions } = makeEvalStart(sql, query, starter, evaluator, prepare)
    const { findRun, list, get } = runReads(records, {
      name: "Evals",
      kind: EvalKind,
      rows: EvalRunRows,
      columns: evalColumns,
      what: "Eval run",
      listKey: "evalRuns",
      toJson: toEvalRunJson,
      toDetail: toEvalRunDetail
    })

    return { prepare, estimate, start, startOptions, list, get, findRun } as const
  })
}) {}
