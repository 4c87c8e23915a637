/**
 * Resolves the bearer token to an actor, enforces the endpoint's declared access rule, then counts the
 * request against the per-user and per-key rate limits. Ownership is the use cases' job (404).
 */
import { HttpRouter } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import { Forbidden, Unauthorized } from "../domain/Errors.js"
import { accessRuleFor } from "../http/Routes.js"
import { ApiKeys, KEY_PREFIX } from "../identity/ApiKeys.js"
import { Users } from "../identity/Users.js"
import { checkCounters, RateLimiter } from "../limits/RateLimiter.js"
import { Authentication } from "./Authentication.js"
import type { Actor } from "./CurrentActor.js"
import { LoginTokens } from "./LoginTokens.js"
import { describeRule, keySatisfies } from "./Scopes.js"

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const tokens = yield* LoginTokens
    const keys = yield* ApiKeys
    const users = yield* Users
    const limiter = yield* RateLimiter
    const limits = (yield* AppConfig).limits

    const authenticate = Effect.fn("Authentication.authenticate")(function*(token: Redacted.Redacted<string>) {
      const { route } = yield* HttpRouter.RouteContext
      const rule = accessRuleFor(route.method, route.path)
      const value = Redacted.value(token).trim()
      if (value.length === 0) {
        return yield* new Unauthorized({ message: "Missing credentials: send Authorization: Bearer <token>.", details: [] })
      }
      let actor: Actor
      if (value.startsWith(KEY_PREFIX)) {
        // one statement: key lookup, key/user rate-limit counting and lastUsedAt
        const key = yield* keys.authenticateCounting(Redacted.make(value))
        const scopes = new Set(key.scopes)
        if (rule === undefined || !keySatisfies(rule, scopes)) {
          return yield* new Forbidden({
            message: rule?.kind === "loginOnly"
              ? "This route accepts login tokens only, not API keys."
              : `This API key lacks the scope this route requires (${rule ? describeRule(rule) : "unknown route"}).`,
            details: rule?.kind === "scoped" ? [{ anyOf: rule.anyOf, allOf: rule.allOf, granted: key.scopes }] : []
          })
        }
        actor = { kind: "apiKey", userId: key.userId, apiKeyId: key.id, scopes }
        yield* checkCounters([
          { key: `key:${key.id}`, limit: limits.rateLimitKeyPerMinute, label: "API key" },
          { key: `user:${key.userId}`, limit: limits.rateLimitUserPerMinute, label: "user" }
        ], key.counters)
      } else {
        const claims = yield* tokens.verify(Redacted.make(value))
        const userId = yield* users.signIn(claims)
        actor = {
          kind: "login",
          userId,
          identity: { provider: "firebase", providerUserId: claims.sub, signInProvider: claims.signInProvider }
        }
        yield* limiter.hit([{ key: `user:${actor.userId}`, limit: limits.rateLimitUserPerMinute, label: "user" }])
      }
      yield* Effect.annotateCurrentSpan({ "rubr.user_id": actor.userId, "rubr.actor": actor.kind })
      return actor
    })

    return { bearer: authenticate }
  })
)
