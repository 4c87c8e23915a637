/**
 * The columns every run table has (audit_runs, conversions, eval_runs, proof_reports), as their row
 * schemas read them: each kind spreads these beside its own columns, so the shared part is said once.
 */
import { Schema } from "effect"
import type { Usage } from "../ai/Usage.js"
import type { Reconciliation } from "../credits/Reconcile.js"
import { storedJson } from "../db/Query.js"
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

/** what a credit-spending run was estimated, charged and used (proof reports spend nothing) */
export const runCostFields = {
  estimatedCredits: Schema.Number,
  finalChargedCredits: Schema.NullOr(Schema.Number),
  usage: Schema.NullOr(storedJson<Usage>("Usage")),
  reconciliation: Schema.NullOr(storedJson<Reconciliation>("Reconciliation"))
}

/** how it ended, and when */
export const runEndFields = {
  errorCode: Schema.NullOr(Schema.String),
  errorMessage: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  completedAt: Schema.NullOr(Schema.DateFromSelf)
}
