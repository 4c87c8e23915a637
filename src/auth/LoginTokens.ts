/**
 * Verifies identity-provider login tokens (Firebase ID-token shape) with jose against a JWKS from a
 * URL or a local file. The file is re-read when it changes, so `npm run dev:token` needs no restart.
 * The sign-in provider is read from the claim SERVICE_AUTH_PROVIDER_CLAIM names (a dotted path,
 * default `firebase.sign_in_provider`); a token without it (a generic OpenID provider's) has the
 * provider `oidc`, accepted only when SERVICE_AUTH_ALLOWED_PROVIDERS lists it.
 */
import { Effect, Option, Redacted } from "effect"
import * as jose from "jose"
import * as Fs from "node:fs"
import { AppConfig } from "../config/AppConfig.js"
import { Forbidden, Unauthorized } from "../domain/Errors.js"
import type { LoginClaims } from "../identity/LoginClaims.js"

const CLOCK_TOLERANCE_SECONDS = 60

type KeySet = (protectedHeader?: jose.JWSHeaderParameters, token?: jose.FlattenedJWSInput) => Promise<jose.CryptoKey>

const fileKeySet = (path: string): KeySet => {
  let cached: { mtimeMs: number; keys: KeySet } | undefined
  return (header, token) => {
    const stat = Fs.statSync(path, { throwIfNoEntry: false })
    if (!stat) return Promise.reject(new Error(`JWKS file ${path} does not exist`))
    if (!cached || cached.mtimeMs !== stat.mtimeMs) {
      cached = { mtimeMs: stat.mtimeMs, keys: jose.createLocalJWKSet(JSON.parse(Fs.readFileSync(path, "utf8"))) }
    }
    return cached.keys(header, token)
  }
}

const unauthorized = (message: string) => new Unauthorized({ message, details: [] })

/** The provider a token without the provider claim signs in with (generic OpenID providers send none). */
export const GENERIC_OIDC_PROVIDER = "oidc"

/** The value at a dotted claim path (`firebase.sign_in_provider`), or undefined. */
export const claimAt = (payload: Record<string, unknown>, path: string): unknown =>
  path.split(".").reduce<unknown>(
    (value, key) => (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined),
    payload
  )

export class LoginTokens extends Effect.Service<LoginTokens>()("rubr/LoginTokens", {
  effect: Effect.gen(function*() {
    const config = (yield* AppConfig).auth
    const keys: KeySet = Option.match(config.jwksUrl, {
      onSome: (url) => jose.createRemoteJWKSet(new URL(url)),
      onNone: () => fileKeySet(Option.getOrThrow(config.jwksFile))
    })
    const allowed = new Set(config.allowedProviders)

    const verify = Effect.fn("LoginTokens.verify")(function*(token: Redacted.Redacted<string>) {
      const { payload } = yield* Effect.tryPromise({
        try: () =>
          jose.jwtVerify(Redacted.value(token), keys, {
            issuer: config.issuer,
            audience: config.audience,
            algorithms: ["RS256", "ES256"],
            clockTolerance: CLOCK_TOLERANCE_SECONDS,
            requiredClaims: ["sub", "exp", "iat"]
          }),
        catch: (error) =>
          unauthorized(
            error instanceof jose.errors.JWTExpired
              ? "The login token has expired."
              : error instanceof jose.errors.JWTClaimValidationFailed
              ? `The login token was rejected: ${error.claim} claim check failed.`
              : "The login token is invalid."
          )
      })
      const now = Math.floor(Date.now() / 1000)
      if (typeof payload.iat !== "number" || payload.iat > now + CLOCK_TOLERANCE_SECONDS) {
        return yield* unauthorized("The login token was rejected: iat claim check failed.")
      }
      const claimed = claimAt(payload, config.providerClaim)
      const signInProvider = typeof claimed === "string" && claimed.length > 0 ? claimed : GENERIC_OIDC_PROVIDER
      if (!allowed.has(signInProvider)) {
        return yield* new Forbidden({
          message: `Sign-in provider '${signInProvider}' is not accepted for durable access.`,
          details: [{ signInProvider, allowedProviders: [...allowed] }]
        })
      }
      const str = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : null)
      return {
        sub: payload.sub!,
        email: str(payload["email"])?.toLowerCase() ?? null,
        emailVerified: payload["email_verified"] === true,
        name: str(payload["name"]),
        picture: str(payload["picture"]),
        signInProvider,
        authTime: typeof payload["auth_time"] === "number" ? new Date((payload["auth_time"] as number) * 1000) : null
      } satisfies LoginClaims
    })

    return { verify } as const
  })
}) {}
