/**
 * What a user's credits look like: the balance and its totals, the latest ledger entries, the free
 * grants, and the limits that apply to spending (with today's spend). One use case behind every door
 * that shows it (REST's GET /credits; the dashboard reads that).
 */
import { Effect, Option } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import { Ledger } from "./Ledger.js"
import { Spend } from "./Spend.js"

export class CreditsOverview extends Effect.Service<CreditsOverview>()("rubr/CreditsOverview", {
  effect: Effect.gen(function*() {
    const ledger = yield* Ledger
    const spend = yield* Spend
    const config = yield* AppConfig

    /** The overview with the `limit` latest ledger entries (a page the door resolved: http/Pagination). */
    const of = Effect.fn("CreditsOverview.of")(function*(userId: string, limit: number) {
      const balance = yield* ledger.balance(userId)
      return {
        balance: balance.balance,
        totals: { granted: balance.granted, debited: balance.debited, refunded: balance.refunded },
        ledger: yield* ledger.recent(userId, limit),
        freeGrants: { signupCredits: config.credits.signupCredits },
        limits: {
          auditCreditMode: config.credits.auditMode,
          auditRunCredits: config.credits.auditRunCredits,
          usageCapUserCreditsPerDay: Option.getOrNull(config.limits.usageCapUserCreditsPerDay),
          usageCapBundleCreditsPerDay: Option.getOrNull(config.limits.usageCapBundleCreditsPerDay),
          spentTodayCredits: yield* spend.userToday(userId),
          rateLimitUserPerMinute: config.limits.rateLimitUserPerMinute,
          rateLimitKeyPerMinute: config.limits.rateLimitKeyPerMinute,
          rateLimitBundlePerMinute: config.limits.rateLimitBundlePerMinute
        }
      }
    })

    return { of }
  })
}) {}
