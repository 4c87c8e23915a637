import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect, Redacted } from "effect"
import { RubrApi } from "../Api.js"
import { CurrentActor } from "../auth/CurrentActor.js"
import { Unauthorized } from "../domain/Errors.js"
import { ok } from "../http/Envelope.js"
import { ApiKeys } from "./ApiKeys.js"
import { signInProviderLabel, Users } from "./Users.js"

export const IdentityHttp = HttpApiBuilder.group(RubrApi, "identity", (handlers) =>
  Effect.gen(function*() {
    const users = yield* Users
    const keys = yield* ApiKeys
    return handlers
      .handle("me", () =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          const user = yield* users.get(actor.userId)
          if (actor.kind === "apiKey") {
            return yield* ok({ user, apiKey: yield* keys.get(actor.userId, actor.apiKeyId) })
          }
          const identities = (yield* users.identities(actor.userId)).map((i) => ({
            ...i,
            signInProviderLabel: signInProviderLabel(i.signInProvider)
          }))
          return yield* ok({ user, identities })
        }).pipe(
          // the user or key authentication just resolved was deleted meanwhile: the credentials are gone
          Effect.catchTag("NotFound", () => new Unauthorized({ message: "These credentials no longer belong to an account.", details: [] }))
        ))
      .handle("listApiKeys", () =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok({ apiKeys: yield* keys.list(actor.userId) })
        }))
      .handle("createApiKey", ({ payload }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          const created = yield* keys.create(actor.userId, {
            name: payload.name,
            scopes: payload.scopes,
            expiresAt: payload.expiresAt ?? null
          })
          return yield* ok({ apiKey: created.apiKey, rawApiKey: Redacted.value(created.rawApiKey) })
        }))
      .handle("revokeApiKey", ({ path }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok({ apiKey: yield* keys.revoke(actor.userId, path.keyId) })
        }))
  }))

