/**
 * The `rubr_audit` worker task: loads exactly the admitted input versions, asks the AiReviewer (mock or
 * real) for a review, reconciles provider usage against the estimate, and stores the result. Idempotent on
 * the run id: a retry after the result was stored does not review or refund again.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Schema } from "effect"
import { Ledger } from "../credits/Ledger.js"
import { JobFailure, runTrackedJob } from "../jobs/Runner.js"
import { AiReviewer } from "../review/AiReviewer.js"
import type { ReviewInput } from "../review/Types.js"
import { AUDIT_RESOURCE, type AuditRunRow, runColumns, type StoredImprovedFile, type StoredResult } from "./Audits.js"
import { creditsForUsage } from "./Estimate.js"
import { Targets } from "./Target.js"

const Payload = Schema.Struct({ jobId: Schema.UUID })

export const auditTask = (payload: unknown, workerId: string) =>
  Effect.gen(function*() {
    const { jobId } = yield* Schema.decodeUnknown(Payload)(payload).pipe(Effect.orDie)
    yield* runTrackedJob(jobId, workerId, (ctx) =>
      Effect.gen(function*() {
        const sql = yield* PgClient.PgClient
        const targets = yield* Targets
        const reviewer = yield* AiReviewer
        const ledger = yield* Ledger
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
          reasoningEffort: estimate.reasoningEffort
        }

        yield* ctx.progress("scoring", 30, `Scoring against ${run.summary.rubric.title} (${run.summary.rubric.criteria.length} criteria).`)
        const started = Date.now()
        const review = yield* reviewer.review(input).pipe(
          Effect.mapError((error) => new JobFailure({ code: error.code, message: error.message }))
        )
        const durationMs = Date.now() - started

        yield* ctx.progress("writing_results", 85, `Scored ${review.overallScore}/100 with ${review.findings.length} finding(s); saving.`)
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

        yield* Effect.gen(function*() {
          // Reconcile: lower actual usage is refunded once (dynamic mode); higher is recorded, never charged.
          let refunded = 0
          let reconciliation
          if (review.usage === null) {
            reconciliation = {
              status: "not_applicable" as const,
              estimatedCredits: run.estimatedCredits,
              actualCredits: null,
              refundedCredits: 0,
              overageCredits: 0,
              note: "No provider usage (mock reviewer); the estimate is the charge."
            }
          } else {
            const actual = creditsForUsage(review.usage, estimate.modelTier, estimate.reasoningEffort)
            const charged = run.estimatedCredits
            if (estimate.mode === "dynamic" && actual < charged) {
              refunded = charged - actual
              yield* ledger.append({
                userId: run.userId,
                type: "refund",
                amount: refunded,
                reason: "audit_usage_reconciliation",
                resourceType: AUDIT_RESOURCE,
                resourceId: run.id,
                idempotencyKey: `refund_reconcile:${AUDIT_RESOURCE}:${run.id}`,
                aiSpendBundleId: run.artifactBundleId
              }).pipe(Effect.catchTag("CreditLimitExceeded", Effect.die))
            }
            reconciliation = {
              status: refunded > 0 ? "refunded" as const : actual > charged ? "overage_recorded" as const : "matched" as const,
              estimatedCredits: charged,
              actualCredits: actual,
              refundedCredits: refunded,
              overageCredits: Math.max(0, actual - charged),
              note: refunded > 0
                ? "Actual provider usage was lower than the estimate; the difference was refunded."
                : actual > charged
                ? "Actual provider usage was higher than the estimate; recorded for calibration, not charged."
                : estimate.mode === "dynamic"
                ? "Actual provider usage matched the estimate."
                : `Credit mode ${estimate.mode}: the charge is fixed; usage recorded for calibration.`
            }
          }
          yield* sql`
            UPDATE audit_runs SET result = ${JSON.stringify(result)}::jsonb,
              usage = ${review.usage === null ? null : JSON.stringify(review.usage)}::jsonb,
              reconciliation = ${JSON.stringify(reconciliation)}::jsonb,
              final_charged_credits = ${run.estimatedCredits - refunded},
              completed_at = now(), updated_at = now()
            WHERE id = ${run.id} AND result IS NULL`
        }).pipe(sql.withTransaction, Effect.orDie)
        return resultMetadata(run, result)
      }))
  })

const resultMetadata = (run: AuditRunRow, result: StoredResult) => ({
  auditRunId: run.id,
  overallScore: result.overallScore,
  findingCount: result.findings.length,
  improvedFileCount: result.improvedVersion ? 1 : result.improvedFiles.length
})

/** The audit tasks with their services captured, for the worker's task record. */
export const auditTasks = Effect.gen(function*() {
  const context = yield* Effect.context<PgClient.PgClient | Targets | AiReviewer | Ledger | import("../jobs/Jobs.js").Jobs>()
  return {
    rubr_audit: (payload: unknown, helpers: { readonly job: { readonly locked_by: string | null } }) =>
      auditTask(payload, helpers.job.locked_by ?? "unknown-worker").pipe(Effect.provide(context))
  }
})
