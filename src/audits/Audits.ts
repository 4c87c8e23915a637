/**
 * The audit use cases. The estimate route and the start route share `prepare` (one estimate function);
 * start writes the run, its job, the debit and the graphile-worker job in one transaction.
 */
import { errorAnswerOf } from "../jobs/RunRow.js"
import { ruleIdOfLegacyFinding } from "../review/rules/Rules.js"
import type { AuditReviewOptions } from "./Records.js"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Schema } from "effect"
import type { Actor } from "../auth/CurrentActor.js"
import { AppConfig, type AppConfigShape } from "../config/AppConfig.js"
import { creditCostOf as creditCostFor } from "../credits/Estimate.js"
import { Conflict } from "../domain/Errors.js"
import { RunRecords } from "../jobs/RunRecords.js"
import { runReads, startedData } from "../jobs/RunUseCases.js"
import { RunStarter, runInsert } from "../jobs/Start.js"
import { Files } from "../bundles/Files.js"
import { resolveRubric } from "../review/rubrics/Registry.js"
import type { ArtifactType } from "../domain/Artifact.js"
import { dominantArtifactType, targetDescription, Targets } from "../targets/Targets.js"
import { type AuditRequest, StartAuditData } from "./Api.js"
import { AUDIT_MODEL_TIER, AUDIT_REASONING_EFFORT, type Estimate, estimateAudit } from "./Estimate.js"
import { AuditKind } from "./Kind.js"
import { AuditRunRow, AuditRunRows, type AuditSummaryJson, NewAuditRunRows } from "./Records.js"
import { PgPool, pgArray } from "../db/Database.js"
import { makeRows, type Rows, rowsOf } from "../db/Query.js"
import { type BundleId, type FileId, type RunId, VersionId } from "../domain/Ids.js"
export { AuditRunRow, runColumns, type StoredImprovedFile, type StoredResult } from "./Records.js"
import { runColumns } from "./Records.js"

export const creditCostOf = (estimate: Estimate) => creditCostFor(estimate, AuditKind.debitReason)

export const toAuditRunJson = (run: AuditRunRow) => ({
  id: run.id,
  artifactBundleId: run.artifactBundleId,
  jobId: run.jobId,
  targetFileVersionId: run.targetFileVersionId,
  requestedByApiKeyId: run.requestedByApiKeyId,
  status: run.status,
  rubricKey: run.rubricKey,
  rubricVersion: run.rubricVersion,
  artifactType: run.artifactType,
  summary: {
    estimate: run.summary.estimate,
    target: run.summary.target,
    creditCost: { ...run.summary.creditCost, finalChargedCredits: run.finalChargedCredits },
    rubricTitle: run.summary.rubricTitle
  },
  overallScore: run.result?.overallScore ?? null,
  createdAt: run.createdAt,
  updatedAt: run.updatedAt,
  completedAt: run.completedAt
})

const severityRank: Record<string, number> = { critical: 0, major: 1, minor: 2, info: 3 }

export const toAuditRunDetail = (run: AuditRunRow) => ({
  ...toAuditRunJson(run),
  scores: run.result?.scores ?? [],
  // runs stored before rule ids get theirs from the finding's id (criterion.code:path:line)
  findings: (run.result?.findings ?? []).map((f) => ({ ...f, ruleId: f.ruleId || ruleIdOfLegacyFinding(f) })).sort((a, b) =>
    (severityRank[a.severity] ?? 9) - (severityRank[b.severity] ?? 9) || String(a.filePath).localeCompare(String(b.filePath)) ||
    a.lineStart - b.lineStart
  ),
  improvedVersion: run.result?.improvedVersion ?? null,
  improvedFiles: run.result?.improvedFiles ?? [],
  evalKit: run.result?.evalKit ?? null,
  targetVersionIds: { targetFileVersionId: run.targetFileVersionId, inputVersionIds: run.inputVersionIds },
  error: errorAnswerOf(run),
  resultMetadata: run.result?.metadata ?? null,
  estimatedCredits: run.estimatedCredits,
  finalChargedCredits: run.finalChargedCredits,
  usage: run.usage,
  reconciliation: run.reconciliation,
  appliedAt: run.appliedAt
})

const IdenticalRunRows = rowsOf("identical audit run", Schema.Struct({
  id: AuditRunRow.fields.id,
  status: Schema.Literal("queued", "running", "completed")
}))
const AppliedRunRows = rowsOf("applied audit run", AuditRunRow.pick("id"))
const LatestVersionRows = rowsOf("latest file version", Schema.Struct({ id: VersionId, status: Schema.String }))

/** Target, rubric and estimate: the one computation behind both the estimate and the start route. */
const makePrepare = (config: AppConfigShape, targets: Targets) =>
  Effect.fn("Audits.prepare")(function*(actor: Actor, bundleId: BundleId, request: AuditRequest) {
    const resolved = yield* targets.resolve(actor.userId, bundleId, request, { verb: "audited" })
    const artifactType: ArtifactType = request.artifactType ??
      (resolved.target ? (resolved.target.artifactType as ArtifactType) : dominantArtifactType(resolved.files))
    const rubric = yield* resolveRubric({
      artifactType,
      rubricKey: request.rubricKey,
      customRubric: resolved.bundle.customRubric,
      settings: resolved.bundle.settings
    })
    const estimate = estimateAudit({
      files: resolved.files.map((f) => ({ path: f.path, content: f.content, underReview: f.underReview })),
      rubric,
      modelTier: request.modelTier ?? AUDIT_MODEL_TIER,
      reasoningEffort: request.reasoningEffort ?? AUDIT_REASONING_EFFORT,
      mode: config.credits.auditMode,
      flatCredits: config.credits.auditRunCredits
    })
    const disabled = resolved.bundle.settings["disabledRules"]
    const bundleRules = Array.isArray(disabled) ? disabled.filter((r): r is string => typeof r === "string") : []
    const review: AuditReviewOptions = {
      bundleName: resolved.bundle.name,
      ...(request.folderName !== undefined ? { folderName: request.folderName } : {}),
      // the request's rules on top of the bundle's; without request rules the set is the bundle's as stored
      disabledRules: request.disabledRules === undefined ? bundleRules : [...new Set([...bundleRules, ...request.disabledRules])].sort()
    }
    return { resolved, artifactType, rubric, estimate, creditCost: creditCostOf(estimate), target: targetDescription(resolved), review }
  })

/** The estimate and the start: both prepare, and both look for an identical audit first. */
const makeEstimateAndStart = (
  sql: PgClient.PgClient,
  rows: Rows,
  records: RunRecords,
  starter: RunStarter,
  prepare: ReturnType<typeof makePrepare>
) => {
  /** The identical audit a start would reuse: same inputs, rubric and review options, not failed or cancelled. */
  const findIdentical = (bundleId: BundleId, prepared: Effect.Effect.Success<ReturnType<typeof prepare>>) =>
    rows(IdenticalRunRows, sql`
      SELECT id, status FROM audit_runs
      WHERE artifact_bundle_id = ${bundleId} AND input_hash = ${prepared.resolved.inputHash}
        AND target_mode = ${prepared.resolved.mode}
        AND rubric_key = ${prepared.rubric.key} AND rubric_version = ${prepared.rubric.version}
        AND summary -> 'estimate' ->> 'modelTier' = ${prepared.estimate.modelTier}
        AND summary -> 'estimate' ->> 'reasoningEffort' = ${prepared.estimate.reasoningEffort}
        AND summary -> 'review' IS NOT DISTINCT FROM ${JSON.stringify(prepared.review)}::jsonb
        AND status IN ('queued', 'running', 'completed')
      ORDER BY created_at DESC LIMIT 1`).pipe(Effect.orDie, Effect.map((found) => found[0] ?? null))

  const estimate = Effect.fn("Audits.estimate")(function*(actor: Actor, bundleId: BundleId, request: AuditRequest) {
    // ownership first: another user's bundle is a 404 and counts nothing against its rate limit
    yield* records.guardBundle(actor.userId, bundleId)
    const prepared = yield* prepare(actor, bundleId, request)
    const identical = request.force ? null : yield* findIdentical(bundleId, prepared)
    return { estimate: prepared.estimate, creditCost: prepared.creditCost, target: prepared.target, identicalAuditRun: identical }
  })

  const start = Effect.fn("Audits.start")(function*(
    actor: Actor,
    bundleId: BundleId,
    request: AuditRequest,
    idempotencyKey: string | undefined
  ) {
    return yield* starter.start({
      kind: AuditKind,
      actor,
      bundleId,
      route: `POST /artifact-bundles/${bundleId}/audits`,
      idempotencyKey,
      request,
      prepare: Effect.gen(function*() {
        const prepared = yield* prepare(actor, bundleId, request)
        if (!request.force) {
          const same = yield* findIdentical(bundleId, prepared)
          if (same) {
            return yield* new Conflict({
              message: `An identical audit (same input versions, mode, rubric, tier and effort) is already ${same.status}: ${same.id}. Send "force": true to run it again.`,
              details: [{ auditRunId: same.id, status: same.status }]
            })
          }
        }
        return prepared
      }),
      credits: (prepared) => prepared.estimate.estimatedCredits,
      insertRun: ({ resolved, rubric, estimate, target, creditCost, artifactType, review }, ids) => {
        const summary: AuditSummaryJson = { estimate, target, creditCost, rubricTitle: rubric.title, rubric, review }
        // one statement with the job's insert (RunStarter)
        return runInsert(NewAuditRunRows, sql`
          INSERT INTO audit_runs (id, artifact_bundle_id, user_id, job_id, requested_by_api_key_id, target_mode,
            target_file_id, target_file_version_id, artifact_bundle_version_number, input_version_ids, input_hash,
            rubric_key, rubric_version, artifact_type, summary, estimated_credits)
          VALUES (${ids.runId}, ${bundleId}, ${actor.userId}, ${ids.jobId}, ${ids.apiKeyId}, ${resolved.mode},
            ${resolved.target?.fileId ?? null}, ${resolved.target?.fileVersionId ?? null}, ${resolved.artifactBundleVersionNumber},
            ${pgArray(resolved.inputVersionIds)}::uuid[], ${resolved.inputHash}, ${rubric.key}, ${rubric.version},
            ${artifactType}, ${JSON.stringify(summary)}::jsonb, ${estimate.estimatedCredits})
          RETURNING ${sql.literal(runColumns)}`)
      },
      respond: startedData(StartAuditData, "auditRun", toAuditRunJson)
    })
  })

  return { estimate, start } as const
}

/** The reads of audit runs (src/jobs/RunUseCases.ts). */
const auditRunReads = (records: RunRecords) =>
  runReads(records, {
    name: "Audits",
    kind: AuditKind,
    rows: AuditRunRows,
    columns: runColumns,
    what: "Audit run",
    listKey: "auditRuns",
    toJson: toAuditRunJson,
    toDetail: toAuditRunDetail
  })

/** One new version per rewritten file, all or nothing; a run applies once. */
const makeApply = (
  sql: PgClient.PgClient,
  rows: Rows,
  records: RunRecords,
  bundleFiles: Files,
  findRun: ReturnType<typeof auditRunReads>["findRun"]
) =>
  Effect.fn("Audits.apply")(function*(actor: Actor, bundleId: BundleId, runId: RunId) {
    yield* records.requireOwnedBundle(actor.userId, bundleId)
    return yield* Effect.gen(function*() {
      const run = yield* findRun(actor.userId, bundleId, runId)
      if (run.status !== "completed" || !run.result) {
        return yield* new Conflict({ message: `This audit run is ${run.status}; only completed runs can be applied.`, details: [{ status: run.status }] })
      }
      const [claimed] = yield* rows(AppliedRunRows, sql`
        UPDATE audit_runs SET applied_at = now(), updated_at = now()
        WHERE id = ${runId} AND applied_at IS NULL RETURNING id`).pipe(Effect.orDie)
      if (!claimed) {
        return yield* new Conflict({ message: "This audit run was already applied.", details: [{ appliedAt: run.appliedAt }] })
      }
      const improved = run.result.improvedVersion ? [run.result.improvedVersion] : run.result.improvedFiles
      const files: Array<{ fileId: FileId; path: string; versionNumber: number }> = []
      for (const file of improved) {
        const [latest] = yield* rows(LatestVersionRows, sql`
          SELECT v.id, f.status FROM bundle_files f
          JOIN file_versions v ON v.file_id = f.id AND v.version_number = f.latest_version_number
          WHERE f.id = ${file.fileId}`).pipe(Effect.orDie)
        if (!latest || latest.status !== "active" || latest.id !== file.baseFileVersionId) {
          return yield* new Conflict({
            message: `${file.path} changed or was deleted after this audit; re-run the audit before applying.`,
            details: [{ fileId: file.fileId, path: file.path }]
          })
        }
        const written = yield* bundleFiles.write(actor, bundleId, file.fileId, file.content, {
          source: "audit_improvement",
          message: `Applied audit ${runId}`
        })
        files.push({ fileId: file.fileId, path: file.path, versionNumber: written.version.versionNumber })
      }
      return { appliedCount: files.length, files }
    }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))
  })

export class Audits extends Effect.Service<Audits>()("rubr/Audits", {
  effect: Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const rows = makeRows(yield* PgPool)
    const config = yield* AppConfig
    const targets = yield* Targets
    const starter = yield* RunStarter
    const records = yield* RunRecords
    const bundleFiles = yield* Files

    const prepare = makePrepare(config, targets)
    const { estimate, start } = makeEstimateAndStart(sql, rows, records, starter, prepare)
    const { findRun, list, get } = auditRunReads(records)
    const apply = makeApply(sql, rows, records, bundleFiles, findRun)
    return { prepare, estimate, start, list, get, apply, findRun } as const
  })
}) {}
