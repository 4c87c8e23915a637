/** GET /me and the API-key routes (login tokens only). */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "../auth/Authentication.js"
import { Access, access, Scope } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"
import { Envelope, NullableTimestamp, Timestamp } from "../http/Envelope.js"

export const User = Schema.Struct({
  id: Schema.UUID,
  email: Schema.NullOr(Schema.String),
  status: Schema.String,
  planKey: Schema.String,
  displayName: Schema.NullOr(Schema.String),
  avatarUrl: Schema.NullOr(Schema.String),
  emailVerifiedAt: NullableTimestamp,
  lastSeenAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations({ identifier: "User" })

export const Identity = Schema.Struct({
  provider: Schema.String,
  providerUserId: Schema.String,
  signInProvider: Schema.String,
  signInProviderLabel: Schema.String,
  emailVerified: Schema.Boolean,
  email: Schema.NullOr(Schema.String),
  lastAuthenticatedAt: Timestamp
}).annotations({ identifier: "Identity" })

export const ApiKey = Schema.Struct({
  id: Schema.UUID,
  name: Schema.String,
  prefix: Schema.String,
  scopes: Schema.Array(Schema.String),
  status: Schema.String,
  lastUsedAt: NullableTimestamp,
  expiresAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations({ identifier: "ApiKey" })

export const CreateApiKey = Schema.Struct({
  name: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
    description: "1-100 characters"
  }),
  scopes: Schema.Array(Scope).pipe(Schema.minItems(1)).annotations({ description: "a non-empty subset of the 13 scopes" }),
  expiresAt: Schema.optional(Schema.NullOr(Schema.Date.pipe(
    Schema.filter((d) => d.getTime() > Date.now() || "expiresAt must be in the future")
  )))
}).annotations({ parseOptions: { errors: "all" } })

const KeyIdParam = Schema.Struct({ keyId: Schema.UUID })

export class IdentityApi extends HttpApiGroup.make("identity")
  .add(
    HttpApiEndpoint.get("me", "/me")
      .addSuccess(Envelope(Schema.Struct({
        user: User,
        identities: Schema.optional(Schema.Array(Identity)),
        apiKey: Schema.optional(ApiKey)
      })))
      .pipe(statuses(401, 403))
      .annotate(Access, access.scopes({}))
      .annotate(OpenApi.Description, "The caller: identities for login tokens, the key record for API-key callers.")
  )
  .add(
    HttpApiEndpoint.get("listApiKeys", "/api-keys")
      .addSuccess(Envelope(Schema.Struct({ apiKeys: Schema.Array(ApiKey) })))
      .pipe(statuses(401, 403))
      .annotate(Access, access.loginOnly)
  )
  .add(
    HttpApiEndpoint.post("createApiKey", "/api-keys")
      .setPayload(CreateApiKey)
      .addSuccess(
        Envelope(Schema.Struct({ apiKey: ApiKey, rawApiKey: Schema.String })),
        { status: 201 }
      )
      .pipe(statuses(400, 401, 403))
      .annotate(Access, access.loginOnly)
      .annotate(OpenApi.Description, "Creates a key. `rawApiKey` is shown here once and never again.")
  )
  .add(
    HttpApiEndpoint.del("revokeApiKey", "/api-keys/:keyId")
      .setPath(KeyIdParam)
      .addSuccess(Envelope(Schema.Struct({ apiKey: ApiKey })))
      .pipe(statuses(400, 401, 403, 404))
      .annotate(Access, access.loginOnly)
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Identity and keys")
{}

