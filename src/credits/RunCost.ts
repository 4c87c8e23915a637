/**
 * The cost columns of a credit-spending run's table (audit_runs, conversions, eval_runs): what it
 * was estimated, charged and used. Credits own them (reconciliation compares usage with the
 * estimate); the job machinery's shared columns are in jobs/RunRow.ts, and each kind spreads both.
 */
import { chargeFields, usageFields } from "./Schemas.js"

/** stored as a run's detail answers them */
export const runCostFields = { ...chargeFields, ...usageFields }
