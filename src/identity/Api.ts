/** GET /me and the API-key routes (login tokens only). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
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
      .annotate(OpenApi.Summary, "Get the caller")
      .annotate(
        OpenApi.Description,
        "The calling user (`data.user`), with its sign-in identities (`data.identities`) for a login token, or the key's record (`data.apiKey`) for an API-key caller. " +
          "The first accepted login token of a new identity creates the user and records its signup credit grant once."
      )
  )
  .add(
    HttpApiEndpoint.get("listApiKeys", "/api-keys")
      .addSuccess(Envelope(Schema.Struct({ apiKeys: Schema.Array(ApiKey) })))
      .pipe(statuses(401, 403))
      .annotate(Access, access.loginOnly)
      .annotate(OpenApi.Summary, "List API keys")
      .annotate(
        OpenApi.Description,
        "The caller's API keys, newest first, including revoked ones (reported by `status` and `revokedAt`). " +
          "The raw key and its hash are never returned."
      )
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
      .annotate(OpenApi.Summary, "Create an API key")
      .annotate(
        OpenApi.Description,
        "Creates a named key with a non-empty subset of the 13 scopes (an unknown scope is 400) and an optional future `expiresAt`. " +
          "`rawApiKey` is shown here once and never again: only its hash is stored."
      )
  )
  .add(
    HttpApiEndpoint.del("revokeApiKey", "/api-keys/:keyId")
      .setPath(KeyIdParam)
      .addSuccess(Envelope(Schema.Struct({ apiKey: ApiKey })))
      .pipe(statuses(400, 401, 403, 404))
      .annotate(Access, access.loginOnly)
      .annotate(OpenApi.Summary, "Revoke an API key")
      .annotate(
        OpenApi.Description,
        "Revokes one of the caller's keys: a revoked key cannot authenticate (401), and past records keep their reference to it. " +
          "Revoking a revoked key answers it unchanged; another user's key is 404."
      )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Identity and keys")
  .annotate(
    OpenApi.Description,
    "The caller's account (`GET /me`) and its API keys: named, scoped, revocable keys for scripts, integrations, MCP clients and the CLI, shown once at creation and stored only as hashes. " +
      "Key management accepts login tokens only."
  )
{}

