/**
 * The rubr_email_send worker task: delivers one `pending` outbox row over SMTP. graphile-worker retries
 * a failed attempt with backoff up to MAX_SEND_ATTEMPTS; the last failure marks the row `failed`.
 * Delivery is at least once: a crash between the SMTP acceptance and the `sent` mark resends.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Schema } from "effect"
import { decodeRows, rowsOf } from "../db/Query.js"
import type { EffectTask } from "../jobs/Worker.js"
import { isOptional } from "./Categories.js"
import { Mailer } from "./Mailer.js"
import { Outbox, SEND_TASK } from "./Outbox.js"

const Payload = Schema.Struct({ outboxId: Schema.UUID })

const PreferenceRows = rowsOf("email preference", Schema.Struct({ enabled: Schema.Boolean }))

export const deliver = Effect.fn("Email.deliver")(function*(outboxId: string, attempt: number, maxAttempts: number) {
  const sql = yield* SqlClient.SqlClient
  const outbox = yield* Outbox
  const mailer = yield* Mailer
  // Decide and mint the token in a committed transaction first, so the link works when the mail lands.
  const message = yield* Effect.gen(function*() {
    const row = yield* outbox.get(outboxId, { lock: true })
    if (row === undefined || row.status !== "pending") return null
    if (isOptional(row.category)) {
      const [pref] = yield* sql`
        SELECT enabled FROM email_preferences WHERE email = ${row.recipient} AND category = ${row.category}`.pipe(
        Effect.flatMap(decodeRows(PreferenceRows))
      )
      if (pref?.enabled !== true) {
        yield* outbox.markStatus(row.id, "suppressed")
        return null
      }
    }
    return yield* outbox.render(row)
  }).pipe(sql.withTransaction, Effect.orDie)
  if (message === null) return
  yield* mailer.send(message).pipe(
    Effect.tapError((error) =>
      outbox.markStatus(outboxId, attempt >= maxAttempts ? "failed" : "pending", {
        lastError: error.message.slice(0, 1000),
        attempted: true
      })
    ),
    Effect.flatMap((info) => outbox.markStatus(outboxId, "sent", { messageId: info.messageId, attempted: true }))
  )
})

/** The email tasks for the worker's task record; they need nothing from the runtime. */
export const emailTasks = Effect.gen(function*() {
  const context = yield* Effect.context<SqlClient.SqlClient | Outbox | Mailer>()
  const send: EffectTask<never> = (payload, helpers) =>
    Schema.decodeUnknown(Payload)(payload).pipe(
      Effect.matchEffect({
        // A malformed payload can never succeed: log it and drop the job instead of retrying it.
        onFailure: (error) => Effect.logError("rubr_email_send: malformed payload", error),
        onSuccess: ({ outboxId }) => deliver(outboxId, helpers.job.attempts, helpers.job.max_attempts)
      }),
      Effect.provide(context)
    )
  return { [SEND_TASK]: send } as Record<string, EffectTask<never>>
})
