/**
 * GET/PATCH /me/email-preferences. Optional categories are stored per address (the account's verified
 * email), so a newsletter subscription made through the public route, an unsubscribe link and these
 * preferences all act on the same row. Must-receive categories are always on and cannot be patched.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Schema } from "effect"
import { decodeRows, rowsOf } from "../db/Query.js"
import { type ErrorDetail, ValidationFailed } from "../domain/Errors.js"
import { usableAccountEmail } from "./Address.js"
import { type Category, categoryOf, mustReceiveCategories, NEWSLETTER, optionalCategories } from "./Categories.js"
import { Outbox } from "./Outbox.js"
import { newsletterSubscribed } from "./Templates.js"

export interface PreferenceItem {
  readonly key: string
  readonly label: string
  readonly description: string
  readonly enabled: boolean
  readonly canDisable: boolean
  readonly updatedAt: Date
}

export interface PreferenceChange {
  readonly category: string
  readonly enabled: boolean
}

const item = (category: Category, enabled: boolean, updatedAt: Date): PreferenceItem => ({
  key: category.key,
  label: category.label,
  description: category.description,
  enabled,
  canDisable: category.canDisable,
  updatedAt
})

/** Every problem of a PATCH body at once, each naming its entry; empty when it can be applied. */
export const checkChanges = (changes: ReadonlyArray<PreferenceChange>, hasAddress: boolean): Array<ErrorDetail> => {
  const details: Array<ErrorDetail> = []
  const seen = new Set<string>()
  changes.forEach((change, i) => {
    const path = `preferences.${i}.category`
    const category = categoryOf(change.category)
    if (category === undefined) {
      details.push({ path, message: `unknown email category '${change.category}'` })
    } else if (!category.canDisable) {
      details.push({ path, message: `'${change.category}' is a must-receive category and cannot be changed` })
    } else if (seen.has(change.category)) {
      details.push({ path, message: `'${change.category}' is listed more than once` })
    } else if (change.enabled && !hasAddress) {
      details.push({
        path: `preferences.${i}.enabled`,
        message: "this account has no verified email address to send to"
      })
    }
    seen.add(change.category)
  })
  return details
}

const AccountRows = rowsOf("account email", Schema.Struct({
  email: Schema.NullOr(Schema.String),
  emailVerifiedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf
}))
const PreferenceRows = rowsOf("email preference", Schema.Struct({
  category: Schema.String,
  enabled: Schema.Boolean,
  updatedAt: Schema.DateFromSelf
}))
const ChangedRows = rowsOf("changed email preference", Schema.Struct({ enabled: Schema.Boolean }))

export class EmailPreferences extends Effect.Service<EmailPreferences>()("rubr/EmailPreferences", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const outbox = yield* Outbox

    const account = (userId: string) =>
      Effect.gen(function*() {
        const [user] = yield* sql`
          SELECT email, email_verified_at, created_at FROM users WHERE id = ${userId}`.pipe(Effect.flatMap(decodeRows(AccountRows)))
        // Only an address the identity provider verified: otherwise anyone could read or change the
        // newsletter choice of an address they merely typed into their profile.
        return { address: user.emailVerifiedAt === null ? null : usableAccountEmail(user.email), createdAt: user.createdAt }
      })

    const get = Effect.fn("EmailPreferences.get")(function*(userId: string) {
      const { address, createdAt } = yield* account(userId)
      const rows = address === null ? [] : yield* sql`
        SELECT category, enabled, updated_at FROM email_preferences WHERE email = ${address}`.pipe(
        Effect.flatMap(decodeRows(PreferenceRows))
      )
      return {
        optional: optionalCategories.map((c) => {
          const row = rows.find((r) => r.category === c.key)
          return item(c, row?.enabled ?? false, row?.updatedAt ?? createdAt)
        }),
        mustReceive: mustReceiveCategories.map((c) => item(c, true, createdAt))
      }
    }, Effect.orDie)

    /** All or nothing: any bad entry rejects the whole body (400, one detail per entry) before a write. */
    const update = Effect.fn("EmailPreferences.update")(function*(userId: string, changes: ReadonlyArray<PreferenceChange>) {
      const { address } = yield* account(userId).pipe(Effect.orDie)
      const details = checkChanges(changes, address !== null)
      if (details.length > 0) {
        return yield* ValidationFailed.of(
          "Email preferences were not changed: " + details.map((d) => `${d.path}: ${d.message}`).join("; "),
          details
        )
      }
      if (address !== null && changes.length > 0) {
        yield* Effect.gen(function*() {
          for (const change of changes) {
            const changed = yield* sql`
              INSERT INTO email_preferences AS p (email, category, enabled, source, consent_at)
              VALUES (${address}, ${change.category}, ${change.enabled}, 'preferences',
                      CASE WHEN ${change.enabled}::boolean THEN now() END)
              ON CONFLICT (email, category) DO UPDATE
                SET enabled = EXCLUDED.enabled, source = EXCLUDED.source,
                    consent_at = COALESCE(EXCLUDED.consent_at, p.consent_at), updated_at = now()
                WHERE p.enabled IS DISTINCT FROM EXCLUDED.enabled
              RETURNING enabled`.pipe(Effect.flatMap(decodeRows(ChangedRows)))
            // Turning the newsletter on (not re-confirming it) sends the same confirmation as subscribing.
            if (change.category === NEWSLETTER && changed.length === 1 && changed[0].enabled) {
              yield* outbox.enqueue(newsletterSubscribed(address))
            }
          }
        }).pipe(sql.withTransaction, Effect.orDie)
      }
      return yield* get(userId)
    })

    return { get, update } as const
  })
}) {}
