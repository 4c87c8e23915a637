/**
 * API keys: `rubr_` + 40 base62 characters from the CSPRNG (~238 bits), stored only as a SHA-256
 * hash and looked up by it. The raw key leaves this module once, in the creation result.
 */
import { PgClient } from "@effect/sql-pg"
import { pgArray } from "../db/Database.js"
import { Effect, Redacted } from "effect"
import * as Crypto from "node:crypto"
import { NotFound, Unauthorized } from "../domain/Errors.js"

export interface ApiKeyRow {
  readonly id: string
  readonly userId: string
  readonly name: string
  readonly prefix: string
  readonly scopes: ReadonlyArray<string>
  readonly status: string
  readonly lastUsedAt: Date | null
  readonly expiresAt: Date | null
  readonly revokedAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

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

    const create = Effect.fn("ApiKeys.create")(function*(
      userId: string,
      input: { readonly name: string; readonly scopes: ReadonlyArray<string>; readonly expiresAt: Date | null }
    ) {
      const raw = generateRawKey()
      const [row] = yield* sql<ApiKeyRow>`
        INSERT INTO api_keys (user_id, name, prefix, key_hash, scopes, expires_at)
        VALUES (${userId}, ${input.name}, ${raw.slice(0, PREFIX_LENGTH)}, ${hashKey(raw)},
                ${pgArray([...new Set(input.scopes)])}, ${input.expiresAt})
        RETURNING ${sql.literal(columns)}`
      return { apiKey: row, rawApiKey: Redacted.make(raw) }
    }, Effect.orDie)

    const list = Effect.fn("ApiKeys.list")(function*(userId: string) {
      return yield* sql<ApiKeyRow>`
        SELECT ${sql.literal(columns)} FROM api_keys WHERE user_id = ${userId} ORDER BY created_at DESC, id`
    }, Effect.orDie)

    const get = Effect.fn("ApiKeys.get")(function*(userId: string, keyId: string) {
      const [row] = yield* sql<ApiKeyRow>`
        SELECT ${sql.literal(columns)} FROM api_keys WHERE id = ${keyId} AND user_id = ${userId}`.pipe(Effect.orDie)
      return row ?? (yield* NotFound.of("API key"))
    })

    /** Revoking is one-way and idempotent: revoking a revoked key answers it unchanged. */
    const revoke = Effect.fn("ApiKeys.revoke")(function*(userId: string, keyId: string) {
      const [row] = yield* sql<ApiKeyRow>`
        UPDATE api_keys SET status = 'revoked', revoked_at = now(), updated_at = now()
        WHERE id = ${keyId} AND user_id = ${userId} AND status = 'active'
        RETURNING ${sql.literal(columns)}`.pipe(Effect.orDie)
      return row ?? (yield* get(userId, keyId))
    })

    /** Resolves a raw key to its active record; `lastUsedAt` is written at most once a minute. */
    const authenticate = Effect.fn("ApiKeys.authenticate")(function*(raw: Redacted.Redacted<string>) {
      const value = Redacted.value(raw)
      const [row] = yield* sql<ApiKeyRow>`
        SELECT ${sql.literal(columns)} FROM api_keys WHERE key_hash = ${hashKey(value)}`.pipe(Effect.orDie)
      if (!row || row.status !== "active") {
        return yield* new Unauthorized({ message: row ? "This API key has been revoked." : "The API key is invalid.", details: [] })
      }
      if (row.expiresAt !== null && row.expiresAt.getTime() <= Date.now()) {
        return yield* new Unauthorized({ message: "This API key has expired.", details: [] })
      }
      if (row.lastUsedAt === null || Date.now() - row.lastUsedAt.getTime() >= 60_000) {
        yield* sql`UPDATE api_keys SET last_used_at = now()
                   WHERE id = ${row.id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`.pipe(
          Effect.orDie
        )
      }
      return row
    })

    return { create, list, get, revoke, authenticate } as const
  })
}) {}
