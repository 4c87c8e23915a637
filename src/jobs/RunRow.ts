/**
 * The columns every run table has (audit_runs, conversions, eval_runs, proof_reports), as their row
 * schemas read them: each kind spreads these beside its own columns, so the shared part is said once.
 * The cost columns of the kinds that spend credits are credits' own (credits/RunCost.ts).
 */
import { Schema } from "effect"
import { BundleId, JobId, RunId } from "../domain/Ids.js"
import { RunStatus } from "./Job.js"

/** whose run, of which bundle, on which job, and where it stands */
export const runHeadFields = {
  id: RunId,
  artifactBundleId: BundleId,
  userId: Schema.String,
  jobId: JobId,
  requestedByApiKeyId: Schema.NullOr(Schema.String),
  status: RunStatus
}

/** how it ended, and when */
export const runEndFields = {
  errorCode: Schema.NullOr(Schema.String),
  errorMessage: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  completedAt: Schema.NullOr(Schema.DateFromSelf)
}

/** The error a run or a job answers: its code and message, or null while it has none. */
export const errorAnswerOf = (row: { readonly errorCode: string | null; readonly errorMessage: string | null }) =>
  row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? "" } : null

/** How a run ended and when, as every run kind answers it (`runEndAnswerFields`). */
export const runEndAnswerOf = (row: Schema.Struct.Type<typeof runEndFields>) => ({
  error: errorAnswerOf(row),
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  completedAt: row.completedAt
})
