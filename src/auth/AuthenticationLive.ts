/**
 * Resolves the bearer token to an actor, enforces the endpoint's declared access rule, then counts the
 * request against the per-user and per-key rate limits. Ownership is the use cases' job (404).
 */
import { HttpRouter } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import { Forbidden, type RateLimitExceeded, Unauthorized } from "../domain/Errors.js"
import { accessRuleFor } from "../http/Routes.js"
import { ApiKeys, KEY_PREFIX } from "../identity/ApiKeys.js"
import { Users } from "../identity/Users.js"
import { checkCounters, RateLimiter } from "../limits/RateLimiter.js"
import { annotateSpan } from "../telemetry/Spans.js"
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

    /**
     * API keys: one statement (lookup, key/user rate-limit counting, lastUsedAt) and a few checks. It runs
     * without a span of its own, inside the request span it annotates: on the hottest routes a span costs
     * more CPU than the checks it would time (docs/performance.md).
     */
    const viaApiKey = Effect.fnUntraced(function*(value: string) {
      const { route } = yield* HttpRouter.RouteContext
      const rule = accessRuleFor(route.method, route.path)
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
      yield* checkCounters([
        { key: `key:${key.id}`, limit: limits.rateLimitKeyPerMinute, label: "API key" },
        { key: `user:${key.userId}`, limit: limits.rateLimitUserPerMinute, label: "user" }
      ], key.counters)
      yield* annotateSpan({ "rubr.user_id": key.userId, "rubr.actor": "apiKey", "rubr.api_key_id": key.id })
      const actor: Actor = { kind: "apiKey", userId: key.userId, apiKeyId: key.id, scopes }
      return actor
    })

    /** Login tokens: signature and claims checks, then sign-in (user upsert); traced as a use case. */
    const viaLoginToken = Effect.fn("Authentication.authenticate")(function*(value: string) {
      const claims = yield* tokens.verify(Redacted.make(value))
      const userId = yield* users.signIn(claims)
      yield* limiter.hit([{ key: `user:${userId}`, limit: limits.rateLimitUserPerMinute, label: "user" }])
      yield* annotateSpan({ "rubr.user_id": userId, "rubr.actor": "login" })
      const actor: Actor = {
        kind: "login",
        userId,
        identity: { provider: "firebase", providerUserId: claims.sub, signInProvider: claims.signInProvider }
      }
      return actor
    })

    const authenticate = (token: Redacted.Redacted<string>): Effect.Effect<Actor, Unauthorized | Forbidden | RateLimitExceeded, HttpRouter.RouteContext> => {
      const value = Redacted.value(token).trim()
      if (value.length === 0) {
        return Effect.fail(new Unauthorized({ message: "Missing credentials: send Authorization: Bearer <token>.", details: [] }))
      }
      return value.startsWith(KEY_PREFIX) ? viaApiKey(value) : viaLoginToken(value)
    }

    return { bearer: authenticate }
  })
)
