/**
 * One-click unsubscribe tokens: 256 random bits (base64url, 43 characters), stored only as their
 * SHA-256, bound to one address and one optional category. Consuming one is a single conditional
 * UPDATE (its row lock decides between concurrent consumers) chained to the preference change.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Option, Schema } from "effect"
import { decodeRows, rowsOf } from "../db/Query.js"
import * as Crypto from "node:crypto"
import { AppConfig } from "../config/AppConfig.js"
import { resolvePublicBaseUrl } from "../config/PublicUrl.js"
import { isOptional } from "./Categories.js"

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/

export const generateToken = (): string => Crypto.randomBytes(32).toString("base64url")

export const hashToken = (raw: string): Buffer => Crypto.createHash("sha256").update(raw, "utf8").digest()

export const isWellFormedToken = (raw: string): boolean => TOKEN_FORMAT.test(raw)

const UnsubscribedRows = rowsOf("unsubscribed category", Schema.Struct({ category: Schema.String }))

export class UnsubscribeTokens extends Effect.Service<UnsubscribeTokens>()("rubr/UnsubscribeTokens", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig

    // resolved per link: the API process may have started (or moved) after this one
    const urlFor = (raw: string) => `${resolvePublicBaseUrl(config)}/api/v1/email/unsubscribe-tokens/${raw}/consume`

    /** Stores the hash of a new token for (email, category) and returns the link; the raw token is not kept. */
    const mint = Effect.fn("UnsubscribeTokens.mint")(function*(input: {
      readonly outboxId: string | null
      readonly email: string
      readonly category: string
    }) {
      if (!isOptional(input.category)) return yield* Effect.dieMessage(`must-receive category ${input.category} gets no unsubscribe token`)
      const raw = generateToken()
      yield* sql`
        INSERT INTO email_unsubscribe_tokens (token_hash, outbox_id, email, category)
        VALUES (${hashToken(raw)}, ${input.outboxId}, ${input.email}, ${input.category})`.pipe(Effect.orDie)
      return urlFor(raw)
    })

    /**
     * Spends the token and turns its category off for its address, in one statement. None when the
     * token is unknown or already spent: then nothing changed.
     */
    const consume = Effect.fn("UnsubscribeTokens.consume")(function*(raw: string) {
      if (!isWellFormedToken(raw)) return Option.none<string>()
      const rows = yield* sql`
        WITH spent AS (
          UPDATE email_unsubscribe_tokens SET consumed_at = now()
          WHERE token_hash = ${hashToken(raw)} AND consumed_at IS NULL
          RETURNING email, category
        )
        INSERT INTO email_preferences AS p (email, category, enabled, source, updated_at)
        SELECT email, category, false, 'unsubscribe_token', now() FROM spent
        ON CONFLICT (email, category) DO UPDATE
          SET enabled = false, source = 'unsubscribe_token', updated_at = now()
        RETURNING category`.pipe(Effect.orDie, Effect.flatMap(decodeRows(UnsubscribedRows)))
      return rows.length === 1 ? Option.some(rows[0].category) : Option.none<string>()
    })

    return { mint, consume, urlFor } as const
  })
}) {}
