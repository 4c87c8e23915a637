/**
 * `Idempotency-Key` for start routes. The key row is inserted in the same transaction as the work: a
 * concurrent request with the same key blocks on the primary key until the first commits, then replays
 * its stored response; if the first failed (rolled back), the second runs for real. The same key with
 * a different body is a 409 conflict.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as SqlClient from "@effect/sql/SqlClient"
import { Duration, Effect, Schedule, Schema } from "effect"
import * as Crypto from "node:crypto"
import { decodeRows, rowsOf } from "../db/Query.js"
import { Conflict, ValidationFailed } from "../domain/Errors.js"
import { currentRequestId } from "../domain/RequestId.js"

// the header's schema lives in IdempotencyKey.ts (no server imports: the SDK carries it to browsers)
import { IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_RULE } from "./IdempotencyKey.js"


/** a key's first request: its body's hash and the encoded data answered to it */
const StoredKeyRows = rowsOf("idempotency key", Schema.Struct({ requestHash: Schema.String, responseData: Schema.Unknown }))

export { IdempotencyHeaders } from "./IdempotencyKey.js"

export const requestHashOf = (value: unknown) =>
  Crypto.createHash("sha256").update(JSON.stringify(value ?? null), "utf8").digest("hex")

/**
 * Runs `work` once per (user, route, key). `work` must run inside the surrounding transaction and return
 * the start's encoded data (JSON), which the store keeps; a replay answers that data again and each
 * door wraps it in its own status and envelope.
 */
export const idempotent = <E, R>(
  options: { readonly userId: string; readonly route: string; readonly key: string | undefined; readonly request: unknown },
  work: Effect.Effect<unknown, E, R>
) =>
  Effect.gen(function*() {
    if (options.key === undefined) return { replayed: false as const, data: yield* work }
    if (!IDEMPOTENCY_KEY.test(options.key)) {
      return yield* ValidationFailed.at("Idempotency-Key", IDEMPOTENCY_KEY_RULE)
    }
    const sql = yield* SqlClient.SqlClient
    const requestHash = requestHashOf(options.request)
    const inserted = yield* sql`
      INSERT INTO idempotency_keys (user_id, route, key, request_hash, response_data)
      VALUES (${options.userId}, ${options.route}, ${options.key}, ${requestHash}, 'null'::jsonb)
      ON CONFLICT (user_id, route, key) DO NOTHING RETURNING 1`.pipe(Effect.orDie)
    if (inserted.length === 0) {
      const [stored] = yield* sql`
        SELECT request_hash, response_data FROM idempotency_keys
        WHERE user_id = ${options.userId} AND route = ${options.route} AND key = ${options.key}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeRows(StoredKeyRows))
      )
      if (stored.requestHash !== requestHash) {
        return yield* new Conflict({
          message: "This Idempotency-Key was already used with a different request body.",
          details: [{ path: "Idempotency-Key", message: "reused with a different body" }]
        })
      }
      return { replayed: true as const, data: stored.responseData }
    }
    const data = yield* work
    yield* sql`
      UPDATE idempotency_keys SET response_data = ${JSON.stringify(data)}::jsonb
      WHERE user_id = ${options.userId} AND route = ${options.route} AND key = ${options.key}`.pipe(Effect.orDie)
    return { replayed: false as const, data }
  })

/** REST's answer to a start: 202 with the data in the envelope, marked when it is a replay. */
export const startedResponse = (started: { readonly data: unknown; readonly replayed: boolean }) =>
  Effect.map(currentRequestId, (requestId) =>
    HttpServerResponse.unsafeJson({ data: started.data, requestId }, {
      status: 202,
      headers: started.replayed ? { "idempotent-replayed": "true" } : {}
    }))

/** Idempotency keys are kept for 24 hours; any API process sweeps older ones every few minutes. */
export const IdempotencyKeySweeper = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`.pipe(
    Effect.catchAllCause(() => Effect.void),
    Effect.repeat(Schedule.spaced(Duration.minutes(5))),
    Effect.forkScoped
  )
})
