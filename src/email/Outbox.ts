/**
 * The outbox: every outbound email is a row of email_outbox, written by `enqueue` inside the caller's
 * transaction. With SERVICE_EMAIL_SEND_ENABLED=false the row is `held` and stays there; with true it is
 * `pending` and a rubr_email_send job (queued in the same transaction) delivers it over SMTP.
 *
 * `render` turns a row into the message as delivered: for an optional category it mints the one-click
 * unsubscribe token then (only its hash is stored) and puts the link into the body.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Schema } from "effect"
import { decodeRows, rowsOf } from "../db/Query.js"
import { AppConfig } from "../config/AppConfig.js"
import { categoryOf } from "./Categories.js"
import type { EmailDraft } from "./Templates.js"
import { withUnsubscribeLink } from "./Templates.js"
import { UnsubscribeTokens } from "./UnsubscribeTokens.js"

export const SEND_TASK = "rubr_email_send"
export const MAX_SEND_ATTEMPTS = 10

export const OutboxStatus = Schema.Literal("held", "pending", "sent", "failed", "suppressed")
export type OutboxStatus = typeof OutboxStatus.Type

export const OutboxRow = Schema.Struct({
  id: Schema.String,
  seq: Schema.Number,
  recipient: Schema.String,
  category: Schema.String,
  kind: Schema.String,
  subject: Schema.String,
  bodyText: Schema.String,
  status: OutboxStatus,
  attempts: Schema.Number,
  lastError: Schema.NullOr(Schema.String),
  messageId: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  sentAt: Schema.NullOr(Schema.DateFromSelf)
})
export type OutboxRow = typeof OutboxRow.Type
const OutboxRows = rowsOf("email outbox", OutboxRow)
const EnqueuedRows = rowsOf("enqueued email", OutboxRow.pick("id", "status"))

export interface RenderedEmail {
  readonly id: string
  readonly to: string
  readonly category: string
  readonly subject: string
  readonly text: string
  /** The one-click link (optional categories only); also the List-Unsubscribe target. */
  readonly unsubscribeUrl: string | null
}

export class Outbox extends Effect.Service<Outbox>()("rubr/Outbox", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { sendEnabled } = (yield* AppConfig).email
    const tokens = yield* UnsubscribeTokens

    /**
     * Writes one email to the outbox; call it inside the transaction of the change that causes it.
     * An optional-category email to an address that has the category off is written as `suppressed`
     * (never sent). The work is the same either way, so callers' timing does not depend on it.
     */
    const enqueue = Effect.fn("Outbox.enqueue")(function*(draft: EmailDraft) {
      const category = categoryOf(draft.category)
      if (category === undefined) return yield* Effect.dieMessage(`unknown email category ${draft.category}`)
      const [row] = yield* sql`
        INSERT INTO email_outbox (recipient, category, kind, subject, body_text, status)
        SELECT ${draft.to}, ${draft.category}, ${draft.kind}, ${draft.subject}, ${draft.text},
          CASE WHEN ${category.canDisable}::boolean AND NOT EXISTS (
                 SELECT 1 FROM email_preferences
                 WHERE email = ${draft.to} AND category = ${draft.category} AND enabled)
               THEN 'suppressed' ELSE ${sendEnabled ? "pending" : "held"} END
        RETURNING id, status`.pipe(Effect.flatMap(decodeRows(EnqueuedRows)))
      if (sendEnabled) {
        yield* sql`SELECT graphile_worker.add_job(${SEND_TASK}, json_build_object('outboxId', ${row.id}::text),
                     max_attempts := ${MAX_SEND_ATTEMPTS})`
      }
      return row
    }, Effect.orDie)

    const get = Effect.fn("Outbox.get")(function*(id: string, options: { readonly lock?: boolean } = {}) {
      const [row] = yield* sql`
        SELECT * FROM email_outbox WHERE id = ${id} ${sql.literal(options.lock ? "FOR UPDATE" : "")}`.pipe(
        Effect.flatMap(decodeRows(OutboxRows))
      )
      return row
    }, Effect.orDie)

    const recent = Effect.fn("Outbox.recent")(function*(options: { readonly limit: number; readonly recipient?: string }) {
      return yield* sql`
        SELECT * FROM email_outbox
        ${options.recipient ? sql`WHERE recipient = ${options.recipient}` : sql``}
        ORDER BY seq DESC LIMIT ${options.limit}`.pipe(Effect.flatMap(decodeRows(OutboxRows)))
    }, Effect.orDie)

    /** The message as delivered; mints its unsubscribe token (optional categories). */
    const render = Effect.fn("Outbox.render")(function*(row: OutboxRow) {
      const category = categoryOf(row.category)
      const unsubscribeUrl = category?.canDisable
        ? yield* tokens.mint({ outboxId: row.id, email: row.recipient, category: row.category })
        : null
      const rendered: RenderedEmail = {
        id: row.id,
        to: row.recipient,
        category: row.category,
        subject: row.subject,
        text: unsubscribeUrl === null ? row.bodyText : withUnsubscribeLink(row.bodyText, unsubscribeUrl, category!.label),
        unsubscribeUrl
      }
      return rendered
    })

    const markStatus = Effect.fn("Outbox.markStatus")(function*(
      id: string,
      status: OutboxStatus,
      extra: { readonly lastError?: string | null; readonly messageId?: string | null; readonly attempted?: boolean } = {}
    ) {
      yield* sql`
        UPDATE email_outbox SET status = ${status},
          attempts = attempts + ${extra.attempted ? 1 : 0},
          last_error = ${extra.lastError ?? null},
          message_id = COALESCE(${extra.messageId ?? null}, message_id),
          sent_at = CASE WHEN ${status} = 'sent' THEN clock_timestamp() ELSE sent_at END,
          updated_at = clock_timestamp()
        WHERE id = ${id}`
    }, Effect.orDie)

    return { enqueue, get, recent, render, markStatus } as const
  })
}) {}
