/**
 * The public newsletter routes. Answers never depend on whether the address belongs to a user or a
 * subscription, and both paths do the same database work (no enumeration by content or timing):
 *
 * - subscribe: records consent for the address and writes the confirmation (with its one-click link)
 *   to the outbox, every time.
 * - unsubscribe by email: changes no state (spec rule 3). It writes to the outbox an email carrying a
 *   one-click unsubscribe link; that email is `suppressed` (never sent) when the address is not
 *   subscribed. Only consuming a token turns the category off.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Option } from "effect"
import { ValidationFailed } from "../domain/Errors.js"
import { categoryOf, NEWSLETTER } from "./Categories.js"
import { Outbox } from "./Outbox.js"
import { newsletterSubscribed, newsletterUnsubscribeLink } from "./Templates.js"
import { UnsubscribeTokens } from "./UnsubscribeTokens.js"

export const messages = {
  subscribed: "Thank you. If this address can receive email, a confirmation with a one-click unsubscribe link is on its way.",
  unsubscribeRequested:
    "If this address is subscribed, we have emailed it a one-click unsubscribe link; nothing changes until that link is used.",
  invalidToken: "This unsubscribe link is invalid or has already been used."
} as const

export class Newsletter extends Effect.Service<Newsletter>()("rubr/Newsletter", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const outbox = yield* Outbox
    const tokens = yield* UnsubscribeTokens

    /** `email` is normalized and validated by the request schema; `consent` was true. */
    const subscribe = Effect.fn("Newsletter.subscribe")(function*(email: string) {
      yield* sql`
        INSERT INTO email_preferences AS p (email, category, enabled, source, consent_at)
        VALUES (${email}, ${NEWSLETTER}, true, 'newsletter_subscription', now())
        ON CONFLICT (email, category) DO UPDATE
          SET enabled = true, source = EXCLUDED.source, consent_at = EXCLUDED.consent_at, updated_at = now()`
      yield* outbox.enqueue(newsletterSubscribed(email))
      return { accepted: true, message: messages.subscribed }
    }, sql.withTransaction, Effect.orDie)

    const requestUnsubscribe = Effect.fn("Newsletter.requestUnsubscribe")(function*(email: string) {
      yield* outbox.enqueue(newsletterUnsubscribeLink(email))
      return { accepted: true, message: messages.unsubscribeRequested }
    }, sql.withTransaction, Effect.orDie)

    /** Spends the token and turns its category off; an unknown or spent token is a 400 and changes nothing. */
    const consume = Effect.fn("Newsletter.consume")(function*(token: string) {
      const category = yield* tokens.consume(token)
      if (Option.isNone(category)) {
        return yield* ValidationFailed.of(messages.invalidToken, [{ path: "token", message: "unknown or already used" }])
      }
      const label = categoryOf(category.value)?.label ?? category.value
      return {
        accepted: true,
        category: category.value,
        message: `Unsubscribed: this address will no longer receive "${label}" emails.`
      }
    })

    return { subscribe, requestUnsubscribe, consume } as const
  })
}) {}
