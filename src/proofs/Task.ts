/**
 * The proof report work on a worker:
 *
 *   waiting_for_eval  a report created with eval selectors waits for its eval: while the eval is queued
 *                     or running the job is deferred (back to the queue, no attempt spent) and runs again
 *                     a little later; a failed or cancelled eval fails the report
 *   assembling        the payload from the completed eval run, the exact versions and the audit
 *   signing           the service's signing key signs the canonical payload
 *   exporting         the document is written to object storage; when the store is unavailable (or
 *                     disabled) the report still completes, with an export failure note
 *   saving            the document (the database copy the export route falls back to), with the job's
 *                     completion
 */
import { VERSION } from "../Version.js"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Schema } from "effect"
import { PgPool } from "../db/Database.js"
import { makeRows, type Rows, rowsOf } from "../db/Query.js"
import { evalColumns, type EvalRunRow, EvalRunRows } from "../evals/Records.js"
import { type JobContext, JobDeferred, JobFailure } from "../jobs/Job.js"
import { SigningKeys } from "../signing/SigningKeys.js"
import { ObjectStore, type ObjectStoreShape } from "../storage/ObjectStore.js"
import { type AuditFacts, buildPayload, type VersionFacts } from "./Payload.js"
import { type ExportFailureJson, type ExportMetadataJson, ProofReportRow } from "./Records.js"
import { FileId, RunId, VersionId } from "../domain/Ids.js"

/** How long a report waits for its eval before it gives up. */
export const EVAL_WAIT_LIMIT_MS = 60 * 60 * 1000

const SERVICE = { name: "rubr", version: VERSION }

const ReportToBuild = Schema.Struct({
  ...ProofReportRow.pick("id", "evalRunId", "auditRunId", "artifactBundleId", "createdAt").fields,
  bundleName: Schema.String
})
type ReportToBuild = typeof ReportToBuild.Type
const ReportRows = rowsOf("proof report to build", ReportToBuild)
const VersionFactRows = rowsOf("compared version", Schema.Struct({
  fileId: FileId,
  path: Schema.String,
  fileVersionId: VersionId,
  versionNumber: Schema.Number,
  contentHash: Schema.String,
  sizeBytes: Schema.Number
}))
/** the audit's facts; of its stored result only the score and the number of findings are read */
const AuditFactRows = rowsOf("audit facts", Schema.Struct({
  id: RunId,
  rubricKey: Schema.String,
  rubricVersion: Schema.String,
  targetFileVersionId: Schema.NullOr(VersionId),
  completedAt: Schema.NullOr(Schema.DateFromSelf),
  result: Schema.NullOr(Schema.Struct({
    overallScore: Schema.optional(Schema.Number),
    findings: Schema.optional(Schema.Array(Schema.Unknown))
  }))
}))

/**
 * waiting_for_eval: the report's eval run once it completed. While it is queued or running the job is
 * deferred (polled quickly at first, then less often); a failed or cancelled eval fails the report.
 */
const completedEval = (sql: PgClient.PgClient, query: Rows, report: ReportToBuild) =>
  Effect.gen(function*() {
    const [evalRun] = yield* query(EvalRunRows, sql`
      SELECT ${sql.literal(evalColumns)} FROM eval_runs WHERE id = ${report.evalRunId}`).pipe(Effect.orDie)
    if (!evalRun) return yield* new JobFailure({ code: "eval_missing", message: "The eval run of this report no longer exists." })
    if (evalRun.status === "queued" || evalRun.status === "running") {
      const waited = Date.now() - report.createdAt.getTime()
      if (waited > EVAL_WAIT_LIMIT_MS) {
        return yield* new JobFailure({ code: "eval_timeout", message: `The eval run ${evalRun.id} did not complete within an hour.` })
      }
      // poll quickly at first, then back off: an eval takes from milliseconds (mock) to minutes
      const seconds = waited < 10_000 ? 0.25 : waited < 60_000 ? 2 : 10
      return yield* new JobDeferred({ seconds, message: `Waiting for the eval run ${evalRun.id} (${evalRun.status}).` })
    }
    if (evalRun.status !== "completed" || evalRun.aggregate === null) {
      return yield* new JobFailure({
        code: "eval_failed",
        message: `The eval run ${evalRun.id} is ${evalRun.status}${evalRun.errorMessage ? `: ${evalRun.errorMessage}` : ""}; there is nothing to prove.`
      })
    }
    return evalRun
  })

/** assembling: the payload from the completed eval run, the exact versions it compared and the audit (if any). */
const assemble = (ctx: JobContext, sql: PgClient.PgClient, query: Rows, report: ReportToBuild, evalRun: EvalRunRow) =>
  Effect.gen(function*() {
    yield* ctx.phase("assembling", `Assembling the evidence of eval ${evalRun.id}: ${evalRun.caseCount} case(s).`)
    const versions: ReadonlyArray<VersionFacts> = yield* query(VersionFactRows, sql`
      SELECT file_id, file_path AS path, id AS file_version_id, version_number, content_hash, size_bytes
      FROM file_versions WHERE id IN (${evalRun.sourceFileVersionId}, ${evalRun.candidateFileVersionId})`).pipe(Effect.orDie)
    const source = versions.find((v) => v.fileVersionId === evalRun.sourceFileVersionId)
    const candidate = versions.find((v) => v.fileVersionId === evalRun.candidateFileVersionId)
    if (!source || !candidate) return yield* new JobFailure({ code: "versions_missing", message: "A compared file version no longer exists." })
    let audit: AuditFacts | null = null
    if (report.auditRunId !== null) {
      const [row] = yield* query(AuditFactRows, sql`
        SELECT id, rubric_key, rubric_version, target_file_version_id, completed_at, result
        FROM audit_runs WHERE id = ${report.auditRunId}`).pipe(Effect.orDie)
      if (row) {
        audit = {
          id: row.id,
          rubricKey: row.rubricKey,
          rubricVersion: row.rubricVersion,
          targetFileVersionId: row.targetFileVersionId,
          overallScore: row.result?.overallScore ?? null,
          findingCount: row.result?.findings?.length ?? 0,
          completedAt: row.completedAt
        }
      }
    }
    return buildPayload({
      reportId: report.id,
      bundle: { id: report.artifactBundleId, name: report.bundleName },
      generatedAt: new Date(),
      source: { ...source, sizeBytes: Number(source.sizeBytes) },
      candidate: { ...candidate, sizeBytes: Number(candidate.sizeBytes) },
      evalRun,
      audit,
      service: SERVICE
    })
  })

/** exporting: the signed document to object storage; a store that is unavailable (or disabled) leaves a failure note. */
const exportDocument = (ctx: JobContext, store: ObjectStoreShape, report: ReportToBuild, text: string) =>
  Effect.gen(function*() {
    const key = `proof-reports/${report.artifactBundleId}/${report.id}.json`
    yield* ctx.phase("exporting", store.provider === "none" ? "Export storage is disabled; the document stays in the database." : `Writing ${key} to ${store.provider} storage.`)
    return yield* store.put(key, text, "application/json").pipe(
      Effect.map((stored): { export: ExportMetadataJson | null; failure: ExportFailureJson | null } => ({
        export: {
          provider: stored.provider as "filesystem" | "s3",
          key: stored.key,
          bucket: stored.bucket,
          sizeBytes: stored.sizeBytes,
          sha256: stored.sha256,
          storedAt: new Date().toISOString()
        },
        failure: null
      })),
      Effect.catchAll((error) =>
        Effect.succeed({
          export: null,
          failure: { reason: error.reason, message: error.message, at: new Date().toISOString() }
        })
      )
    )
  })

export const proofReportWork = (ctx: JobContext) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const query = makeRows(yield* PgPool)
    const signing = yield* SigningKeys
    const store = yield* ObjectStore
    const [report] = yield* query(ReportRows, sql`
      SELECT p.id, p.eval_run_id, p.audit_run_id, p.artifact_bundle_id, b.name AS bundle_name, p.created_at
      FROM proof_reports p JOIN artifact_bundles b ON b.id = p.artifact_bundle_id
      WHERE p.id = ${ctx.job.resourceId}`).pipe(Effect.orDie)
    if (!report) return yield* new JobFailure({ code: "run_missing", message: "The proof report no longer exists." })
    const evalRun = yield* completedEval(sql, query, report)
    const payload = yield* assemble(ctx, sql, query, report, evalRun)

    // ---- signing ----------------------------------------------------------------------------------
    yield* ctx.phase("signing", `Signing with key ${signing.activeKid.slice(0, 12)}… (${signing.alg}).`)
    const document = yield* signing.sign(payload)
    const text = JSON.stringify(document, null, 2) + "\n"

    const exported = yield* exportDocument(ctx, store, report, text)

    // ---- saving -----------------------------------------------------------------------------------
    yield* ctx.phase(
      "saving",
      exported.export ? "Exported; saving the report." : `The export could not be stored (${exported.failure!.reason}); saving the report with a failure note.`
    )
    return yield* ctx.complete(
      sql`
        UPDATE proof_reports SET document = ${text}, signing_kid = ${document.signature.kid}, signing_alg = ${document.signature.alg},
          export = ${exported.export === null ? null : JSON.stringify(exported.export)}::jsonb,
          export_failure = ${exported.failure === null ? null : JSON.stringify(exported.failure)}::jsonb,
          completed_at = now(), updated_at = now()
        WHERE id = ${report.id}`.pipe(
        Effect.orDie,
        Effect.as({
          proofReportId: report.id,
          evalRunId: evalRun.id,
          kid: document.signature.kid,
          exported: exported.export !== null,
          exportFailure: exported.failure?.reason ?? null
        })
      )
    )
  })
