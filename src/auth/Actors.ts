/**
 * From a bearer token to an actor, for every door (the REST middleware, the MCP endpoint): a login
 * token (verified, then signed in) or an API key (one statement: lookup, key/user rate-limit counting,
 * lastUsedAt), the access rule of what is being called, and the per-user/per-key rate limits.
 */
import { Effect, Redacted } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import { Forbidden, type RateLimitExceeded, Unauthorized } from "../domain/Errors.js"
import { ApiKeys, KEY_PREFIX } from "../identity/ApiKeys.js"
import { Users } from "../identity/Users.js"
import { checkCounters, RateLimiter } from "../limits/RateLimiter.js"
import { annotateSpan } from "../telemetry/Spans.js"
import type { Actor } from "./CurrentActor.js"
import { LoginTokens } from "./LoginTokens.js"
import { type AccessRule, describeRule, keySatisfies } from "./Scopes.js"

export class Actors extends Effect.Service<Actors>()("rubr/Actors", {
  effect: Effect.gen(function*() {
    const tokens = yield* LoginTokens
    const keys = yield* ApiKeys
    const users = yield* Users
    const limiter = yield* RateLimiter
    const limits = (yield* AppConfig).limits

    /**
     * API keys: one statement (lookup, key/user rate-limit counting, lastUsedAt) and a few checks. It runs
     * without a span of its own, inside the caller's span it annotates: on the hottest routes a span costs
     * more CPU than the checks it would time (docs/performance.md).
     */
    const viaApiKey = Effect.fnUntraced(function*(value: string, rule: AccessRule | undefined) {
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

    /**
     * The actor behind `token`, allowed by `rule` (login tokens pass every rule; an API key needs the
     * rule's scopes), counted against the rate limits. Missing or bad credentials: 401; a key without
     * the scope: 403; over a limit: 429.
     */
    const resolve = (
      token: Redacted.Redacted<string> | undefined,
      rule: AccessRule | undefined
    ): Effect.Effect<Actor, Unauthorized | Forbidden | RateLimitExceeded> => {
      const value = token === undefined ? "" : Redacted.value(token).trim()
      if (value.length === 0) {
        return Effect.fail(new Unauthorized({ message: "Missing credentials: send Authorization: Bearer <token>.", details: [] }))
      }
      return value.startsWith(KEY_PREFIX) ? viaApiKey(value, rule) : viaLoginToken(value)
    }

    return { resolve } as const
  })
}) {}
