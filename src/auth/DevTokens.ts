/**
 * Development login tokens: a local signing key whose public half is the JWKS file the service reads
 * (SERVICE_AUTH_JWKS_FILE), and tokens in the Firebase ID-token shape. Used by `npm run dev:token`,
 * the tests and the benchmark; never by the running service.
 */
import * as jose from "jose"
import * as Fs from "node:fs"
import * as Path from "node:path"

export interface DevKey {
  readonly privateJwk: jose.JWK
  readonly kid: string
  readonly alg: "RS256" | "ES256"
}

export const privateKeyPathFor = (jwksFile: string) => jwksFile.replace(/\.json$/, "") + ".private.json"

export const generateDevKey = async (alg: "RS256" | "ES256" = "ES256"): Promise<{ key: DevKey; jwks: jose.JSONWebKeySet }> => {
  const { publicKey, privateKey } = await jose.generateKeyPair(alg, { extractable: true })
  const kid = `dev-${crypto.randomUUID().slice(0, 8)}`
  const publicJwk = { ...(await jose.exportJWK(publicKey)), kid, alg, use: "sig" }
  const privateJwk = { ...(await jose.exportJWK(privateKey)), kid, alg }
  return { key: { privateJwk, kid, alg }, jwks: { keys: [publicJwk] } }
}

/** Reuses the key beside the JWKS file, or creates both. */
export const ensureDevKey = async (jwksFile: string): Promise<DevKey> => {
  const privatePath = privateKeyPathFor(jwksFile)
  if (Fs.existsSync(privatePath) && Fs.existsSync(jwksFile)) {
    const privateJwk = JSON.parse(Fs.readFileSync(privatePath, "utf8")) as jose.JWK
    return { privateJwk, kid: privateJwk.kid!, alg: privateJwk.alg as DevKey["alg"] }
  }
  const { key, jwks } = await generateDevKey()
  Fs.mkdirSync(Path.dirname(jwksFile), { recursive: true })
  Fs.writeFileSync(privatePath, JSON.stringify(key.privateJwk, null, 2), { mode: 0o600 })
  Fs.writeFileSync(jwksFile, JSON.stringify(jwks, null, 2))
  return key
}

export interface TokenOptions {
  readonly issuer: string
  readonly audience: string
  readonly sub: string
  readonly email?: string
  readonly name?: string
  readonly signInProvider?: string
  readonly ttlSeconds?: number
  /** Shift iat/exp, for expired-token tests. */
  readonly nowSeconds?: number
  readonly extraClaims?: Record<string, unknown>
  /** where the provider goes: a dotted claim path (default `firebase.sign_in_provider`) */
  readonly providerClaim?: string
}

/** `{a: {b: value}}` for the path `a.b`. */
export const claimsAt = (path: string, value: unknown): Record<string, unknown> =>
  path.split(".").reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value as never)


export const mintToken = async (key: DevKey, options: TokenOptions): Promise<string> => {
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000)
  const privateKey = await jose.importJWK(key.privateJwk, key.alg)
  return new jose.SignJWT({
    email: options.email ?? `${options.sub}@example.com`,
    email_verified: true,
    name: options.name ?? options.sub,
    auth_time: now,
    ...claimsAt(options.providerClaim ?? "firebase.sign_in_provider", options.signInProvider ?? "google.com"),
    ...options.extraClaims
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "JWT" })
    .setIssuer(options.issuer)
    .setAudience(options.audience)
    .setSubject(options.sub)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.ttlSeconds ?? 3600))
    .sign(privateKey)
}
