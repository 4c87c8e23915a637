/**
 * The cost columns of a credit-spending run's table (audit_runs, conversions, eval_runs): what it
 * was estimated, charged and used. Credits own them (reconciliation compares usage with the
 * estimate); the job machinery's shared columns are in jobs/RunRow.ts, and each kind spreads both.
 */
import { Schema } from "effect"
import type { Usage } from "../ai/Usage.js"
import { storedJson } from "../db/Query.js"
import type { Reconciliation } from "./Reconcile.js"

export const runCostFields = {
  estimatedCredits: Schema.Number,
  finalChargedCredits: Schema.NullOr(Schema.Number),
  usage: Schema.NullOr(storedJson<Usage>("Usage")),
  reconciliation: Schema.NullOr(storedJson<Reconciliation>("Reconciliation"))
}
