import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { CurrentActor } from "../auth/CurrentActor.js"

import { RubrApi } from "../Api.js"
import { ok } from "../http/Envelope.js"
import { ApiKeys } from "./ApiKeys.js"
import { signInProviderLabel, Users } from "./Users.js"
import { Redacted } from "effect"

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
        }))
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

