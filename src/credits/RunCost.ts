/**
 * The cost columns of a credit-spending run's table (audit_runs, conversions, eval_runs): what it
 * was estimated, charged and used. Credits own them (reconciliation compares usage with the
 * estimate); the job machinery's shared columns are in jobs/RunRow.ts, and each kind spreads both.
 */
import { chargeFields, usageFields } from "./Schemas.js"

/** stored as a run's detail answers them */
export const runCostFields = { ...chargeFields, ...usageFields }

/** A run's cost as its answer shows it: the summary it was admitted with, its final charge filled in. */
export const costAnswerOf = <E, T, C extends object>(row: {
  readonly summary: { readonly estimate: E; readonly target: T; readonly creditCost: C }
  readonly estimatedCredits: number
  readonly finalChargedCredits: number | null
}) => ({
  summary: {
    estimate: row.summary.estimate,
    target: row.summary.target,
    creditCost: { ...row.summary.creditCost, finalChargedCredits: row.finalChargedCredits }
  },
  estimatedCredits: row.estimatedCredits,
  finalChargedCredits: row.finalChargedCredits
})
