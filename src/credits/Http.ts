import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { CurrentActor } from "../auth/CurrentActor.js"
import { AppConfig } from "../config/AppConfig.js"
import { RubrApi } from "../Api.js"
import { ok } from "../http/Envelope.js"
import { resolvePage } from "../http/Pagination.js"
import { Ledger } from "./Ledger.js"
import { Spend } from "./Spend.js"

export const CreditsHttp = HttpApiBuilder.group(RubrApi, "credits", (handlers) =>
  Effect.gen(function*() {
    const ledger = yield* Ledger
    const spend = yield* Spend
    const config = yield* AppConfig
    yield* SqlClient.SqlClient
    return handlers.handle("getCredits", ({ urlParams }) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const page = yield* resolvePage({ limit: urlParams.limit })
        const balance = yield* ledger.balance(actor.userId)
        return yield* ok({
          balance: balance.balance,
          totals: { granted: balance.granted, debited: balance.debited, refunded: balance.refunded },
          ledger: yield* ledger.recent(actor.userId, page.limit),
          freeGrants: { signupCredits: config.credits.signupCredits },
          limits: {
            auditCreditMode: config.credits.auditMode,
            auditRunCredits: config.credits.auditRunCredits,
            usageCapUserCreditsPerDay: config.limits.usageCapUserCreditsPerDay._tag === "Some"
              ? config.limits.usageCapUserCreditsPerDay.value
              : null,
            usageCapBundleCreditsPerDay: config.limits.usageCapBundleCreditsPerDay._tag === "Some"
              ? config.limits.usageCapBundleCreditsPerDay.value
              : null,
            spentTodayCredits: yield* spend.userToday(actor.userId),
            rateLimitUserPerMinute: config.limits.rateLimitUserPerMinute,
            rateLimitKeyPerMinute: config.limits.rateLimitKeyPerMinute,
            rateLimitBundlePerMinute: config.limits.rateLimitBundlePerMinute
          }
        })
      }))
  }))
