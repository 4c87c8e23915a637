/**
 * API keys: `rubr_` + 40 base62 characters from the CSPRNG (~238 bits), stored only as a SHA-256
 * hash and looked up by it. The raw key leaves this module once, in the creation result.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { PgPool, pgArray } from "../db/Database.js"
import { makeRows, rowsOf } from "../db/Query.js"
import { Effect, Redacted, Schema } from "effect"
import * as Crypto from "node:crypto"
import { NotFound, Unauthorized } from "../domain/Errors.js"
import { Counter } from "../limits/RateLimiter.js"

export const ApiKeyRow = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  name: Schema.String,
  prefix: Schema.String,
  scopes: Schema.Array(Schema.String),
  status: Schema.String,
  lastUsedAt: Schema.NullOr(Schema.DateFromSelf),
  expiresAt: Schema.NullOr(Schema.DateFromSelf),
  revokedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type ApiKeyRow = typeof ApiKeyRow.Type

const ApiKeyRows = rowsOf("api key", ApiKeyRow)
/** the key and the rate-limit counters its request was counted in (the authentication statement) */
const CountedKeyRows = rowsOf("authenticated api key", Schema.Struct({ ...ApiKeyRow.fields, counters: Schema.Array(Counter) }))

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const KEY_BODY_LENGTH = 40
export const KEY_PREFIX = "rubr_"
const PREFIX_LENGTH = 12

/** Rejection sampling keeps every base62 character equally likely. */
export const generateRawKey = (): string => {
  let body = ""
  while (body.length < KEY_BODY_LENGTH) {
    for (const byte of Crypto.randomBytes(64)) {
      if (byte < 248 && body.length < KEY_BODY_LENGTH) body += BASE62[byte % 62]
    }
  }
  return KEY_PREFIX + body
}

export const hashKey = (raw: string): Buffer => Crypto.createHash("sha256").update(raw, "utf8").digest()

const columns = "id, user_id, name, prefix, scopes, status, last_used_at, expires_at, revoked_at, created_at, updated_at"

export class ApiKeys extends Effect.Service<ApiKeys>()("rubr/ApiKeys", {
  effect: Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const rows = makeRows(yield* PgPool)

    const create = Effect.fn("ApiKeys.create")(function*(
      userId: string,
      input: { readonly name: string; readonly scopes: ReadonlyArray<string>; readonly expiresAt: Date | null }
    ) {
      const raw = generateRawKey()
      const [row] = yield* rows(ApiKeyRows, sql`
        INSERT INTO api_keys (user_id, name, prefix, key_hash, scopes, expires_at)
        VALUES (${userId}, ${input.name}, ${raw.slice(0, PREFIX_LENGTH)}, ${hashKey(raw)},
                ${pgArray([...new Set(input.scopes)])}, ${input.expiresAt})
        RETURNING ${sql.literal(columns)}`)
      return { apiKey: row, rawApiKey: Redacted.make(raw) }
    }, Effect.orDie)

    const list = Effect.fn("ApiKeys.list")(function*(userId: string) {
      return yield* rows(ApiKeyRows, sql`
        SELECT ${sql.literal(columns)} FROM api_keys WHERE user_id = ${userId} ORDER BY created_at DESC, id`)
    }, Effect.orDie)

    const get = Effect.fn("ApiKeys.get")(function*(userId: string, keyId: string) {
      const [row] = yield* rows(ApiKeyRows, sql`
        SELECT ${sql.literal(columns)} FROM api_keys WHERE id = ${keyId} AND user_id = ${userId}`).pipe(Effect.orDie)
      return row ?? (yield* NotFound.of("API key"))
    })

    /** Revoking is one-way and idempotent: revoking a revoked key answers it unchanged. */
    const revoke = Effect.fn("ApiKeys.revoke")(function*(userId: string, keyId: string) {
      const [row] = yield* rows(ApiKeyRows, sql`
        UPDATE api_keys SET status = 'revoked', revoked_at = now(), updated_at = now()
        WHERE id = ${keyId} AND user_id = ${userId} AND status = 'active'
        RETURNING ${sql.literal(columns)}`).pipe(Effect.orDie)
      return row ?? (yield* get(userId, keyId))
    })

    /**
     * The hot path of every API-key request in one statement: resolve the key by hash, count the
     * request against the key's and the user's rate-limit windows (only for a live key), and refresh
     * `lastUsedAt` at most once a minute. The caller checks status, expiry, scope and the counters.
     * Untraced: it runs on every API-key request, inside the authentication span.
     */
    const authenticateCounting = Effect.fnUntraced(function*(raw: Redacted.Redacted<string>) {
      const [row] = yield* rows(CountedKeyRows, sql`
        WITH k AS (
          SELECT ${sql.literal(columns)} FROM api_keys WHERE key_hash = ${hashKey(Redacted.value(raw))}
        ), live AS (
          SELECT id, user_id FROM k WHERE status = 'active' AND (expires_at IS NULL OR expires_at > now())
        ), counted AS (
          INSERT INTO rate_limit_counters (bucket, window_start, hits)
          SELECT b.bucket, date_trunc('minute', now()), 1
          FROM live CROSS JOIN LATERAL (VALUES ('key:' || live.id::text), ('user:' || live.user_id::text)) AS b(bucket)
          ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
          RETURNING bucket, hits, ceil(extract(epoch FROM (window_start + interval '1 minute' - now())))::int AS reset_seconds
        ), touched AS (
          UPDATE api_keys SET last_used_at = now()
          WHERE id IN (SELECT id FROM live) AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
          RETURNING id
        )
        SELECT k.*,
          (SELECT COALESCE(json_agg(json_build_object('bucket', bucket, 'hits', hits, 'resetSeconds', reset_seconds)), '[]'::json)
           FROM counted) AS counters,
          (SELECT count(*) FROM touched) AS touched
        FROM k`).pipe(Effect.orDie)
      if (!row || row.status !== "active") {
        return yield* new Unauthorized({ message: row ? "This API key has been revoked." : "The API key is invalid.", details: [] })
      }
      if (row.expiresAt !== null && row.expiresAt.getTime() <= Date.now()) {
        return yield* new Unauthorized({ message: "This API key has expired.", details: [] })
      }
      return row
    })

    return { create, list, get, revoke, authenticateCounting } as const
  })
}) {}
