/**
 * The audit work on a worker: loads exactly the admitted input versions, asks the AiReviewer (mock or
 * real) for a review, reconciles provider usage against the estimate, and stores the result. Idempotent
 * on the run id: a retry after the result was stored does not review or refund again.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect } from "effect"
import { reconcileUsage } from "../credits/Reconcile.js"
import { type JobContext, JobFailure } from "../jobs/Runner.js"
import { AiReviewer } from "../review/AiReviewer.js"
import type { ReviewInput } from "../review/Types.js"
import { Targets } from "../targets/Targets.js"
import { type AuditRunRow, runColumns, type StoredImprovedFile, type StoredResult } from "./Records.js"

export const auditWork = (ctx: JobContext) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const targets = yield* Targets
    const reviewer = yield* AiReviewer
    const [run] = yield* sql<AuditRunRow>`
      SELECT ${sql.literal(runColumns)} FROM audit_runs WHERE id = ${ctx.job.resourceId}`.pipe(Effect.orDie)
    if (!run) return yield* new JobFailure({ code: "run_missing", message: "The audit run no longer exists." })
    if (run.result) return resultMetadata(run, run.result) // already done by an earlier attempt

    yield* ctx.progress("preparing_context", 10, `Loading ${run.inputVersionIds.length} input file version(s).`)
    const rows = yield* targets.loadVersions(run.artifactBundleId, run.inputVersionIds)
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

    return yield* ctx.complete(Effect.gen(function*() {
      const { reconciliation, refunded } = yield* reconcileUsage({
        userId: run.userId,
        bundleId: run.artifactBundleId,
        resourceType: ctx.job.resourceType,
        resourceId: run.id,
        reason: "audit_usage_reconciliation",
        estimate,
        chargedCredits: run.estimatedCredits,
        usage: review.usage
      })
      yield* sql`
        UPDATE audit_runs SET result = ${JSON.stringify(result)}::jsonb,
          usage = ${review.usage === null ? null : JSON.stringify(review.usage)}::jsonb,
          reconciliation = ${JSON.stringify(reconciliation)}::jsonb,
          final_charged_credits = ${run.estimatedCredits - refunded},
          completed_at = now(), updated_at = now()
        WHERE id = ${run.id} AND result IS NULL`.pipe(Effect.orDie)
      return resultMetadata(run, result)
    }))
  })

const resultMetadata = (run: AuditRunRow, result: StoredResult) => ({
  auditRunId: run.id,
  overallScore: result.overallScore,
  findingCount: result.findings.length,
  improvedFileCount: result.improvedVersion ? 1 : result.improvedFiles.length
})
