/**
 * Usage reconciliation, the same for every kind of AI work: when provider usage is known and the mode
 * is dynamic, lower actual usage is refunded once (a fixed idempotency key per resource); higher usage
 * is recorded for calibration and never charged afterwards. Call inside the transaction that stores
 * the result.
 */
import { Effect } from "effect"
import type { Usage } from "../ai/Usage.js"
import { creditsForUsage, type Estimate } from "./Estimate.js"
import { Ledger } from "./Ledger.js"
import type { Reconciliation as ReconciliationSchema } from "./Schemas.js"
import type { BundleId } from "../domain/Ids.js"

export type Reconciliation = typeof ReconciliationSchema.Type

export interface ReconcileRequest {
  readonly userId: string
  readonly bundleId: BundleId
  readonly resourceType: string
  readonly resourceId: string
  /** ledger reason of the refund, e.g. `audit_usage_reconciliation` */
  readonly reason: string
  readonly estimate: Estimate
  /** what the start debited */
  readonly chargedCredits: number
  /** provider usage of the whole run; null when no provider was called (the mock) */
  readonly usage: Usage | null
}

/** The reconciliation of work without provider usage (the mock): the estimate is the charge. */
export const notApplicable = (chargedCredits: number): Reconciliation => ({
  status: "not_applicable",
  estimatedCredits: chargedCredits,
  actualCredits: null,
  refundedCredits: 0,
  overageCredits: 0,
  note: "No provider usage (mock provider); the estimate is the charge."
})

export const reconcileUsage = Effect.fn("Credits.reconcileUsage")(function*(request: ReconcileRequest) {
  const ledger = yield* Ledger
  const charged = request.chargedCredits
  if (request.usage === null) return { reconciliation: notApplicable(charged), refunded: 0 }
  const actual = creditsForUsage(request.usage, request.estimate.modelTier, request.estimate.reasoningEffort)
  let refunded = 0
  if (request.estimate.mode === "dynamic" && actual < charged) {
    refunded = charged - actual
    yield* ledger.append({
      userId: request.userId,
      type: "refund",
      amount: refunded,
      reason: request.reason,
      resourceType: request.resourceType,
      resourceId: request.resourceId,
      idempotencyKey: `refund_reconcile:${request.resourceType}:${request.resourceId}`,
      aiSpendBundleId: request.bundleId
    }).pipe(Effect.catchTag("CreditLimitExceeded", Effect.die))
  }
  const reconciliation: Reconciliation = {
    status: refunded > 0 ? "refunded" : actual > charged ? "overage_recorded" : "matched",
    estimatedCredits: charged,
    actualCredits: actual,
    refundedCredits: refunded,
    overageCredits: Math.max(0, actual - charged),
    note: refunded > 0
      ? "Actual provider usage was lower than the estimate; the difference was refunded."
      : actual > charged
      ? "Actual provider usage was higher than the estimate; recorded for calibration, not charged."
      : request.estimate.mode === "dynamic"
      ? "Actual provider usage matched the estimate."
      : `Credit mode ${request.estimate.mode}: the charge is fixed; usage recorded for calibration.`
  }
  return { reconciliation, refunded }
})
