/**
 * The audit work on a worker: loads exactly the admitted input versions, asks the AiReviewer (mock or
 * real) for a review, reconciles provider usage against the estimate, and stores the result. Idempotent
 * on the run id: a retry after the result was stored does not review or refund again.
 *
 * Round trips (issue 16): the run and its input versions come with the worker's claim of the job
 * (`auditClaimLoads`, in the claim's statement); the result, the run's status and the job's completion
 * (with its buffered progress events) are one more statement when there is no provider usage to
 * reconcile (the mock), or one transaction with the reconciliation otherwise.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect } from "effect"
import { notApplicable, reconcileUsage, type Reconciliation } from "../credits/Reconcile.js"
import { type JobContext, JobFailure } from "../jobs/Job.js"
import { AiReviewer } from "../review/AiReviewer.js"
import type { Usage } from "../ai/Usage.js"
import type { ReviewInput } from "../review/Types.js"
import type { SnapshotRow } from "../targets/Targets.js"
import type { AuditRunRow, StoredImprovedFile, StoredResult } from "./Records.js"

/** What the audit work reads of its run: the columns `auditClaimLoads` returns. */
type ClaimedRun = Pick<
  AuditRunRow,
  | "id" | "artifactBundleId" | "userId" | "targetMode" | "targetFileVersionId" | "inputVersionIds" | "artifactType"
  | "summary" | "estimatedCredits" | "result"
>

/**
 * The run and exactly the input versions it admitted (what Targets.loadVersions reads), in path order,
 * as one JSON value: the `claimLoads` of the audit kind, read by the worker's claim of job `j`.
 */
export const auditClaimLoads = `
  SELECT json_build_object(
    'run', json_build_object(
      'id', r.id, 'artifactBundleId', r.artifact_bundle_id, 'userId', r.user_id, 'targetMode', r.target_mode,
      'targetFileVersionId', r.target_file_version_id, 'inputVersionIds', r.input_version_ids,
      'artifactType', r.artifact_type, 'summary', r.summary, 'estimatedCredits', r.estimated_credits, 'result', r.result),
    'inputFiles', (
      SELECT COALESCE(json_agg(json_build_object(
               'fileId', v.file_id, 'path', v.file_path, 'artifactType', f.artifact_type, 'fileVersionId', v.id,
               'versionNumber', v.version_number, 'artifactBundleVersionNumber', v.artifact_bundle_version_number,
               'contentHash', v.content_hash, 'content', c.content) ORDER BY v.file_path), '[]'::json)
      FROM file_versions v
      JOIN bundle_files f ON f.id = v.file_id
      JOIN file_contents c ON c.artifact_bundle_id = v.artifact_bundle_id AND c.content_hash = v.content_hash
      WHERE v.artifact_bundle_id = r.artifact_bundle_id AND v.id = ANY(r.input_version_ids)))
  FROM audit_runs r WHERE r.id = j.resource_id`

export const auditWork = (ctx: JobContext) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const reviewer = yield* AiReviewer
    const loaded = ctx.loaded as { readonly run: ClaimedRun; readonly inputFiles: ReadonlyArray<SnapshotRow> } | null
    if (!loaded) return yield* new JobFailure({ code: "run_missing", message: "The audit run no longer exists." })
    const { inputFiles: rows, run } = loaded
    if (run.result) return resultMetadata(run, run.result) // already done by an earlier attempt

    yield* ctx.progress("preparing_context", 10, `Loading ${run.inputVersionIds.length} input file version(s).`)
    const files = rows.map((r) => ({
      path: r.path,
      content: r.content,
      fileVersionId: r.fileVersionId,
      isPrimary: r.fileVersionId === run.targetFileVersionId
    }))
    const byPath = new Map(rows.map((r) => [r.path, r]))
    const estimate = run.summary.estimate
    const input: ReviewInput = {
      mode: run.targetMode,
      artifactType: run.artifactType as ReviewInput["artifactType"],
      rubric: run.summary.rubric,
      target: run.targetFileVersionId ? files.find((f) => f.fileVersionId === run.targetFileVersionId) ?? null : null,
      files,
      modelTier: estimate.modelTier,
      reasoningEffort: estimate.reasoningEffort,
      bundleName: run.summary.review?.bundleName,
      folderName: run.summary.review?.folderName,
      disabledRules: run.summary.review?.disabledRules
    }

    yield* ctx.phase("scoring", `Scoring against ${run.summary.rubric.title} (${run.summary.rubric.criteria.length} criteria).`)
    const started = Date.now()
    const review = yield* reviewer.review(input).pipe(
      Effect.mapError((error) => new JobFailure({ code: error.code, message: error.message }))
    )
    const durationMs = Date.now() - started

    yield* ctx.phase("writing_results", `Scored ${review.overallScore}/100 with ${review.findings.length} finding(s); saving.`)
    const toStored = (file: { path: string; content: string; changes: ReadonlyArray<string> }): StoredImprovedFile | null => {
      const source = byPath.get(file.path)
      return source
        ? { fileId: source.fileId, path: file.path, baseFileVersionId: source.fileVersionId, content: file.content, changes: file.changes }
        : null
    }
    const result: StoredResult = {
      overallScore: review.overallScore,
      scores: review.scores,
      findings: review.findings,
      improvedVersion: review.improvedVersion ? toStored(review.improvedVersion) : null,
      improvedFiles: review.improvedFiles.map(toStored).filter((f): f is StoredImprovedFile => f !== null),
      evalKit: review.evalKit,
      metadata: { ...review.provider, durationMs }
    }

    const metadata = resultMetadata(run, result)
    // the result, the final charge and the run's status are written by the completion's statement
    const runSet = (reconciliation: Reconciliation, refunded: number, usage: Usage | null) =>
      sql`result = ${JSON.stringify(result)}::jsonb,
          usage = ${usage === null ? null : JSON.stringify(usage)}::jsonb,
          reconciliation = ${JSON.stringify(reconciliation)}::jsonb,
          final_charged_credits = ${run.estimatedCredits - refunded},
          completed_at = now()`
    if (review.usage === null) {
      // no provider usage (the mock): nothing to reconcile, one statement completes the run
      return yield* ctx.completeWith(metadata, runSet(notApplicable(run.estimatedCredits), 0, null))
    }
    const usage = review.usage
    return yield* ctx.complete(Effect.gen(function*() {
      const { reconciliation, refunded } = yield* reconcileUsage({
        userId: run.userId,
        bundleId: run.artifactBundleId,
        resourceType: ctx.job.resourceType,
        resourceId: run.id,
        reason: "audit_usage_reconciliation",
        estimate,
        chargedCredits: run.estimatedCredits,
        usage
      })
      yield* sql`UPDATE audit_runs SET ${runSet(reconciliation, refunded, usage)}, updated_at = now()
                 WHERE id = ${run.id} AND result IS NULL`.pipe(Effect.orDie)
      return metadata
    }))
  })

const resultMetadata = (run: ClaimedRun, result: StoredResult) => ({
  auditRunId: run.id,
  overallScore: result.overallScore,
  findingCount: result.findings.length,
  improvedFileCount: result.improvedVersion ? 1 : result.improvedFiles.length
})
