/** GET /credits: balance, totals, recent ledger events, free grants and limits. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Authentication } from "../auth/Authentication.js"
import { Access, access } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"
import { Envelope, Timestamp } from "../http/Envelope.js"
import { IntFromString } from "../http/PageParams.js"

export const LedgerEvent = Schema.Struct({
  id: Schema.UUID,
  type: Schema.Literal("grant", "debit", "refund"),
  amount: Schema.Number,
  reason: Schema.String,
  resourceType: Schema.NullOr(Schema.String),
  resourceId: Schema.NullOr(Schema.UUID),
  balanceAfter: Schema.Number,
  createdAt: Timestamp
}).annotations({ identifier: "LedgerEvent" })

export const Credits = Schema.Struct({
  balance: Schema.Number,
  totals: Schema.Struct({ granted: Schema.Number, debited: Schema.Number, refunded: Schema.Number }),
  ledger: Schema.Array(LedgerEvent).annotations({ description: "recent events, newest first" }),
  freeGrants: Schema.Struct({ signupCredits: Schema.Number }),
  limits: Schema.Struct({
    auditCreditMode: Schema.String,
    auditRunCredits: Schema.Number,
    usageCapUserCreditsPerDay: Schema.NullOr(Schema.Number),
    usageCapBundleCreditsPerDay: Schema.NullOr(Schema.Number),
    spentTodayCredits: Schema.Number,
    rateLimitUserPerMinute: Schema.Number,
    rateLimitKeyPerMinute: Schema.Number,
    rateLimitBundlePerMinute: Schema.Number
  })
}).annotations({ identifier: "Credits" })

export class CreditsApi extends HttpApiGroup.make("credits")
  .add(
    HttpApiEndpoint.get("getCredits", "/credits")
      .setUrlParams(Schema.Struct({
        limit: Schema.optional(IntFromString.annotations({ description: "ledger events, 1..200 (default 50)" }))
      }))
      .addSuccess(Envelope(Credits))
      .pipe(statuses(400, 401, 403))
      .annotate(Access, access.scopes({ anyOf: ["credits:read"] }))
      .annotate(OpenApi.Summary, "Get credits")
      .annotate(
        OpenApi.Description,
        "The balance, derived from the append-only ledger (grants + refunds - debits), account totals, recent ledger events (newest first, `limit` of them), the configured free grants and the limits in force."
      )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Credits")
  .annotate(
    OpenApi.Description,
    "Credits are tracked in an immutable ledger: grants and refunds add, debits subtract, and the balance never goes below zero. " +
      "Costs can be previewed with the estimate routes before a run."
  )
{}
