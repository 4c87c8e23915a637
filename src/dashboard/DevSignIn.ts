/**
 * "Continue as a local developer": out of the box (`npm start` with the service's own development
 * JWKS, listening on loopback) the service mints a login token itself, so a new user signs in to the
 * dashboard without copying tokens. With any other identity set-up, or on a non-loopback address, the
 * route does not exist: it answers the router's own 404.
 */
import { Effect, Option } from "effect"
import * as Path from "node:path"
import { ensureDevKey, mintToken } from "../auth/DevTokens.js"
import { AppConfig, type AppConfigShape } from "../config/AppConfig.js"
import { NotFound } from "../domain/Errors.js"

export const DEV_SIGN_IN_PATH = "/api/v1/dev/sign-in"

/** The login tokens it mints live an hour; the dashboard asks for a new one before that. */
export const DEV_TOKEN_TTL_SECONDS = 3600

export const LOCAL_DEVELOPER = { sub: "local-developer", email: "developer@localhost.localdomain", name: "Local developer" } as const

/** 127.0.0.0/8, ::1 and localhost: a listener no other machine can reach. */
export const isLoopbackHost = (host: string) => {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, "")
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h) || h === "::ffff:127.0.0.1"
}

/** Why the route exists or not, for the log line and the tests. */
export const devSignInAvailable = (config: Pick<AppConfigShape, "host" | "auth">) =>
  config.auth.usesDevJwks && isLoopbackHost(config.host)

export class DevSignIn extends Effect.Service<DevSignIn>()("rubr/DevSignIn", {
  effect: Effect.gen(function*() {
    const config = yield* AppConfig
    const available = devSignInAvailable(config)
    const jwksFile = Option.getOrElse(config.auth.jwksFile, () => Path.join(config.database.dataDir, "dev-jwks.json"))
    // the token must pass the service's own checks: the first accepted provider, at the configured claim
    const provider = config.auth.allowedProviders[0] ?? "google.com"

    const signIn = Effect.fn("DevSignIn.signIn")(function*() {
      if (!available) return yield* new NotFound({ message: `No route for POST ${DEV_SIGN_IN_PATH}.`, details: [] })
      const key = yield* Effect.promise(() => ensureDevKey(jwksFile))
      const now = Math.floor(Date.now() / 1000)
      const token = yield* Effect.promise(() =>
        mintToken(key, {
          issuer: config.auth.issuer,
          audience: config.auth.audience,
          sub: LOCAL_DEVELOPER.sub,
          email: LOCAL_DEVELOPER.email,
          name: LOCAL_DEVELOPER.name,
          signInProvider: provider,
          providerClaim: config.auth.providerClaim,
          nowSeconds: now,
          ttlSeconds: DEV_TOKEN_TTL_SECONDS
        })
      )
      return { token, tokenType: "Bearer" as const, expiresAt: new Date((now + DEV_TOKEN_TTL_SECONDS) * 1000) }
    })

    return { available, signIn } as const
  })
}) {}
