/**
 * Users and their identities. The first accepted login token of a new `sub` creates the user, its
 * identity and the signup grant in one transaction; an advisory lock on the identity serialises
 * concurrent first requests, and the ledger's idempotency key makes a second grant impossible anyway.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Schema } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import { PgPool } from "../db/Database.js"
import { makeRows, rowsOf } from "../db/Query.js"
import { Ledger } from "../credits/Ledger.js"
import type { LoginClaims } from "./LoginClaims.js"

export const IDENTITY_PROVIDER = "firebase"

export const UserRow = Schema.Struct({
  id: Schema.String,
  email: Schema.NullOr(Schema.String),
  status: Schema.String,
  planKey: Schema.String,
  displayName: Schema.NullOr(Schema.String),
  avatarUrl: Schema.NullOr(Schema.String),
  emailVerifiedAt: Schema.NullOr(Schema.DateFromSelf),
  lastSeenAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type UserRow = typeof UserRow.Type
const UserRows = rowsOf("user", UserRow)

export const IdentityRow = Schema.Struct({
  provider: Schema.String,
  providerUserId: Schema.String,
  signInProvider: Schema.String,
  email: Schema.NullOr(Schema.String),
  emailVerified: Schema.Boolean,
  lastAuthenticatedAt: Schema.DateFromSelf
})
export type IdentityRow = typeof IdentityRow.Type
const IdentityRows = rowsOf("identity", IdentityRow)

/** what sign-in reads of a known identity */
const KnownIdentityRows = rowsOf("known identity", Schema.Struct({
  userId: Schema.String,
  ...IdentityRow.pick("lastAuthenticatedAt", "signInProvider", "email").fields
}))
const NewUserRows = rowsOf("new user", UserRow.pick("id"))

const providerLabels: Record<string, string> = {
  "google.com": "Google",
  "github.com": "GitHub",
  "microsoft.com": "Microsoft",
  oidc: "OpenID Connect"
}
export const signInProviderLabel = (provider: string) => providerLabels[provider] ?? provider

export class Users extends Effect.Service<Users>()("rubr/Users", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = makeRows(yield* PgPool)
    const ledger = yield* Ledger
    const { signupCredits } = (yield* AppConfig).credits

    const findIdentity = (sub: string) =>
      rows(KnownIdentityRows, sql`
        SELECT user_id, last_authenticated_at, sign_in_provider, email FROM identities
        WHERE provider = ${IDENTITY_PROVIDER} AND provider_user_id = ${sub}`)

    const createUser = (claims: LoginClaims) =>
      Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`identity:${IDENTITY_PROVIDER}:${claims.sub}`}, 0))`
        const [again] = yield* findIdentity(claims.sub)
        if (again) return again.userId
        const [user] = yield* rows(NewUserRows, sql`
          INSERT INTO users (email, display_name, avatar_url, email_verified_at, last_seen_at)
          VALUES (${claims.email}, ${claims.name}, ${claims.picture}, ${claims.emailVerified ? new Date() : null}, now())
          RETURNING id`)
        yield* sql`
          INSERT INTO identities (user_id, provider, provider_user_id, sign_in_provider, email, email_verified)
          VALUES (${user.id}, ${IDENTITY_PROVIDER}, ${claims.sub}, ${claims.signInProvider}, ${claims.email}, ${claims.emailVerified})`
        yield* ledger.append({
          userId: user.id,
          type: "grant",
          amount: signupCredits,
          reason: "signup_grant",
          resourceType: "user",
          resourceId: user.id,
          idempotencyKey: `signup_grant:${user.id}`
        }).pipe(Effect.catchTag("CreditLimitExceeded", Effect.die))
        return user.id
      }).pipe(sql.withTransaction)

    /** Maps a verified login token to its user, creating it on first sign-in. */
    const signIn = Effect.fn("Users.signIn")(function*(claims: LoginClaims) {
      const [identity] = yield* findIdentity(claims.sub)
      if (!identity) return yield* createUser(claims)
      // Refresh what the provider says at most once a minute, or at once when it changed.
      const stale = Date.now() - identity.lastAuthenticatedAt.getTime() > 60_000
      if (stale || identity.signInProvider !== claims.signInProvider || identity.email !== claims.email) {
        yield* sql`
          UPDATE identities SET last_authenticated_at = now(), sign_in_provider = ${claims.signInProvider},
            email = ${claims.email}, email_verified = ${claims.emailVerified}, updated_at = now()
          WHERE provider = ${IDENTITY_PROVIDER} AND provider_user_id = ${claims.sub}`
        yield* sql`
          UPDATE users SET last_seen_at = now(), updated_at = now(),
            email = COALESCE(${claims.email}, email),
            display_name = COALESCE(${claims.name}, display_name),
            avatar_url = COALESCE(${claims.picture}, avatar_url),
            email_verified_at = CASE WHEN ${claims.emailVerified} THEN COALESCE(email_verified_at, now()) ELSE email_verified_at END
          WHERE id = ${identity.userId}`
      }
      return identity.userId
    }, Effect.orDie)

    const touch = (userId: string) =>
      sql`UPDATE users SET last_seen_at = now() WHERE id = ${userId}
          AND (last_seen_at IS NULL OR last_seen_at < now() - interval '1 minute')`.pipe(Effect.orDie)

    const get = Effect.fn("Users.get")(function*(userId: string) {
      const [user] = yield* rows(UserRows, sql`SELECT * FROM users WHERE id = ${userId}`)
      return user
    }, Effect.orDie)

    const identities = Effect.fn("Users.identities")(function*(userId: string) {
      return yield* rows(IdentityRows, sql`
        SELECT provider, provider_user_id, sign_in_provider, email, email_verified, last_authenticated_at
        FROM identities WHERE user_id = ${userId} ORDER BY created_at`)
    }, Effect.orDie)

    return { signIn, get, identities, touch } as const
  })
}) {}
