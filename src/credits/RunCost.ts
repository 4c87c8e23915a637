/**
 * The cost columns of a credit-spending run's table (audit_runs, conversions, eval_runs): what it
 * was estimated, charged and used. Credits own them (reconciliation compares usage with the
 * estimate); the job machinery's shared columns are in jobs/RunRow.ts, and each kind spreads both.
 * Usage and reconciliation are stored as the API answers them.
 */
import { Schema } from "effect"
import { Usage } from "../ai/Usage.js"
import { Reconciliation } from "./Schemas.js"

export const runCostFields = {
  estimatedCredits: Schema.Number,
  finalChargedCredits: Schema.NullOr(Schema.Number),
  usage: Schema.NullOr(Usage),
  reconciliation: Schema.NullOr(Reconciliation)
}
