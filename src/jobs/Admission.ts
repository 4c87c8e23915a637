/**
 * Admission control for credit-spending work, in the contract's order and before any provider call:
 * (authorization and per-user/per-key rate limits ran in the middleware) → per-bundle rate limit
 * (RunRecords.guardBundle, with the ownership check) →
 * usage caps (429 usage_limit_exceeded) → credits (402, the debit itself, under the balance row lock) →
 * circuit breaker (503). Runs inside the start transaction: any refusal rolls back the run, the job and
 * the debit together.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Option, Schema } from "effect"
import { PgPool } from "../db/Database.js"
import { makeRows, rowsOf } from "../db/Query.js"
import { AppConfig } from "../config/AppConfig.js"
import { Ledger } from "../credits/Ledger.js"
import { Spend } from "../credits/Spend.js"
import { AiCircuitBreakerOpen, UsageLimitExceeded } from "../domain/Errors.js"
import type { BundleId, RunId } from "../domain/Ids.js"

export const CIRCUIT_BREAKER_SETTING = "ai_circuit_breaker"

/** the operator's breaker setting (a JSON value; only its `state` is read) */
const BreakerSettingRows = rowsOf("circuit breaker setting", Schema.Struct({
  value: Schema.NullOr(Schema.Struct({ state: Schema.optional(Schema.String) }))
}))

export class Admission extends Effect.Service<Admission>()("rubr/Admission", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = makeRows(yield* PgPool)
    const config = yield* AppConfig
    const ledger = yield* Ledger
    const spend = yield* Spend

    const usageCaps = Effect.fn("Admission.usageCaps")(function*(userId: string, bundleId: BundleId, credits: number) {
      const userCap = config.limits.usageCapUserCreditsPerDay
      if (Option.isSome(userCap)) {
        const spent = yield* spend.userToday(userId)
        if (spent + credits > userCap.value) {
          return yield* new UsageLimitExceeded({
            message: `This needs ${credits} credits; your daily AI usage cap is ${userCap.value} and ${spent} are spent today.`,
            details: [{ scope: "user", cap: userCap.value, spentToday: spent, required: credits }]
          })
        }
      }
      const bundleCap = config.limits.usageCapBundleCreditsPerDay
      if (Option.isSome(bundleCap)) {
        const spent = yield* spend.bundleToday(bundleId)
        if (spent + credits > bundleCap.value) {
          return yield* new UsageLimitExceeded({
            message: `This needs ${credits} credits; the bundle's daily AI usage cap is ${bundleCap.value} and ${spent} are spent today.`,
            details: [{ scope: "bundle", cap: bundleCap.value, spentToday: spent, required: credits }]
          })
        }
      }
    })

    /** Open by environment override, by the database setting, or when today's AI spend reached the budget. */
    const breakerState = Effect.gen(function*() {
      const override = config.ai.circuitBreakerOverride
      if (Option.isSome(override)) return { open: override.value === "open", reason: "environment override" }
      const [setting] = yield* rows(BreakerSettingRows, sql`
        SELECT value FROM service_settings WHERE key = ${CIRCUIT_BREAKER_SETTING}`).pipe(Effect.orDie)
      if (setting?.value?.state === "open") return { open: true, reason: "operator setting" }
      const budget = config.ai.dailyBudgetCredits
      if (Option.isSome(budget)) {
        const spent = yield* spend.allToday
        if (spent >= budget.value) return { open: true, reason: "daily AI budget reached" }
      }
      return { open: false, reason: "closed" }
    })

    /** Usage caps, the debit (402 when the balance cannot cover it), the breaker: call inside the start transaction. */
    const admit = Effect.fn("Admission.admit")(function*(request: {
      readonly userId: string
      readonly bundleId: BundleId
      readonly credits: number
      readonly resourceType: string
      readonly resourceId: RunId
      readonly reason: string
    }) {
      yield* usageCaps(request.userId, request.bundleId, request.credits)
      // read the breaker before this debit counts towards today's budget; report it after the credit check
      const breaker = yield* breakerState
      if (request.credits > 0) {
        yield* ledger.append({
          userId: request.userId,
          type: "debit",
          amount: request.credits,
          reason: request.reason,
          resourceType: request.resourceType,
          resourceId: request.resourceId,
          idempotencyKey: `debit:${request.resourceType}:${request.resourceId}`,
          aiSpendBundleId: request.bundleId
          // the run was created in this transaction: no other can be debiting it (one statement)
        }, { fresh: true })
      } else {
        // still take the balance row lock so free runs serialise with paid ones the same way
        yield* sql`SELECT 1 FROM credit_balances WHERE user_id = ${request.userId} FOR UPDATE`.pipe(Effect.orDie)
      }
      if (breaker.open) {
        return yield* new AiCircuitBreakerOpen({
          message: "New AI work is paused for now; reads and edits keep working. Try again later.",
          details: [{ reason: breaker.reason }]
        })
      }
    })

    return { usageCaps, admit, breakerState } as const
  })
}) {}
