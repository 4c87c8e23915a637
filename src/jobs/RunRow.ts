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
