/**
 * The service's signing key and the JWKS of every key it ever signed with.
 *
 * Live (`SigningKeys.Default`, needs AppConfig and SqlClient): the key is SERVICE_SIGNING_KEY_FILE's
 * private JWK when set, else `$SERVICE_DATA_DIR/signing-key.json`, generated on first start and kept
 * (./KeyFile.ts). A bad key stops the start with a ConfigError naming the variable (main.ts prints it
 * on one line, exit 2). At start the active public key is registered in `signing_keys`
 * (append-only, sql/0009_signing_keys.sql); the JWKS is that table, the active key first.
 *
 * Tests: `SigningKeys.Test` (a fixed in-memory Ed25519 key, no database), `SigningKeys.fromKey(key)`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { ConfigError, Effect, Layer, Option, Schema } from "effect"
import type * as jose from "jose"
import { AppConfig } from "../config/AppConfig.js"
import { decodeRows, rowsOf } from "../db/Query.js"
import { type ExportDocument, type JsonObject, signPayload, type SigningAlg } from "./Document.js"
import { ensureGeneratedKey, readKeyFile } from "./KeyFile.js"
import { deterministicPrivateJwk, fromPrivateJwk, type SigningKey } from "./Keys.js"

export interface Jwks {
  readonly keys: ReadonlyArray<jose.JWK>
}

export interface SigningKeysShape {
  readonly activeKid: string
  readonly alg: SigningAlg
  /** the active public JWK (kid, alg, use: "sig") */
  readonly publicJwk: jose.JWK
  /** Signs an export payload (a JSON object; a value JSON cannot carry is a defect). */
  readonly sign: (payload: JsonObject) => Effect.Effect<ExportDocument>
  /** Public keys only: every key ever registered, the active one first. */
  readonly jwks: Effect.Effect<Jwks>
}

const signWith = (key: SigningKey) => (payload: JsonObject) =>
  Effect.tryPromise({
    try: () => signPayload(payload, key),
    catch: (error) => error
  }).pipe(Effect.orDie, Effect.withSpan("SigningKeys.sign", { attributes: { kid: key.kid } }))

/** An in-memory signer: the JWKS is the key itself plus `others` (e.g. retired keys in a test). */
const fromKey = (key: SigningKey, others: ReadonlyArray<jose.JWK> = []): SigningKeysShape => ({
  activeKid: key.kid,
  alg: key.alg,
  publicJwk: key.publicJwk,
  sign: signWith(key),
  jwks: Effect.succeed({ keys: [key.publicJwk, ...others.filter((jwk) => jwk.kid !== key.kid)] })
})

/** The active key: the configured file, or the generated one. Errors name the variable to fix. */
export const loadActiveKey = Effect.gen(function*() {
  const config = yield* AppConfig
  if (Option.isSome(config.signing.keyFile)) {
    const path = config.signing.keyFile.value
    const key = yield* Effect.tryPromise({
      try: () => readKeyFile(path),
      catch: (error) =>
        ConfigError.InvalidData(["SERVICE_SIGNING_KEY_FILE"], `not a usable signing key: ${error instanceof Error ? error.message : String(error)}`)
    })
    return { key, source: "file" as const, path, created: false }
  }
  const dataDir = config.database.dataDir
  const generated = yield* Effect.tryPromise({
    try: () => ensureGeneratedKey(dataDir),
    catch: (error) =>
      ConfigError.InvalidData(
        ["SERVICE_DATA_DIR"],
        `the generated signing key (set SERVICE_SIGNING_KEY_FILE to use another): ${error instanceof Error ? error.message : String(error)}`
      )
  })
  return { key: generated.key, source: "generated" as const, path: generated.path, created: generated.created }
})

/** a published key's public JWK, as text (parsed into the JWKS) */
const PublicKeyRows = rowsOf("public signing key", Schema.Struct({ jwk: Schema.String }))

export class SigningKeys extends Effect.Service<SigningKeys>()("rubr/SigningKeys", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { key, source, path, created } = yield* loadActiveKey
    yield* sql`
      INSERT INTO signing_keys (kid, alg, public_jwk)
      VALUES (${key.kid}, ${key.alg}, ${JSON.stringify(key.publicJwk)}::jsonb)
      ON CONFLICT (kid) DO NOTHING`
    yield* Effect.logInfo(created ? "signing key generated" : "signing key loaded").pipe(
      Effect.annotateLogs({ kid: key.kid, alg: key.alg, source, path })
    )
    const jwks = sql`
      SELECT public_jwk::text AS jwk FROM signing_keys
      ORDER BY (kid = ${key.kid}) DESC, created_at DESC, kid`.pipe(
      Effect.flatMap(decodeRows(PublicKeyRows)),
      Effect.map((rows): Jwks => ({ keys: rows.map((row) => JSON.parse(row.jwk) as jose.JWK) })),
      Effect.orDie,
      Effect.withSpan("SigningKeys.jwks")
    )
    return { ...fromKey(key), jwks } satisfies SigningKeysShape
  })
}) {
  /** An in-memory signer over a loaded key (no database). */
  static fromKey(key: SigningKey, others: ReadonlyArray<jose.JWK> = []): SigningKeys {
    return SigningKeys.make(fromKey(key, others))
  }

  /** A signer over a private JWK (e.g. `deterministicPrivateJwk("x")`); no database. */
  static layerFromJwk(privateJwk: jose.JWK, others: ReadonlyArray<jose.JWK> = []) {
    return Layer.effect(
      SigningKeys,
      Effect.map(Effect.promise(() => fromPrivateJwk(privateJwk)), (key) => SigningKeys.fromKey(key, others))
    )
  }

  /** A fixed Ed25519 key (the same kid in every run), in memory: for other features' tests. */
  static readonly Test = SigningKeys.layerFromJwk(deterministicPrivateJwk("SigningKeys.Test"))
}
