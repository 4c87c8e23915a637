/**
 * Signing keys as values: a private JWK checked and imported (Ed25519 → EdDSA, P-256 → ES256), its
 * public JWK and its key id (the RFC 7638 SHA-256 thumbprint; a `kid` written in the file is ignored).
 * No I/O here (./KeyFile.ts reads and writes key files).
 */
import * as Crypto from "node:crypto"
import { Data } from "effect"
import * as jose from "jose"
import { publicPart, type SigningAlg, type SigningKeyInput } from "./Document.js"

/** A key that cannot sign: wrong type, public only, halves that do not match, unreadable. */
export class SigningKeyError extends Data.TaggedError("SigningKeyError")<{ readonly message: string }> {}

export interface SigningKey extends SigningKeyInput {
  readonly kid: string
  readonly alg: SigningAlg
  readonly privateKey: jose.CryptoKey
  /** public members plus kid, alg and use: what the JWKS serves */
  readonly publicJwk: jose.JWK
}

const algFor = (jwk: Record<string, unknown>): SigningAlg | undefined =>
  jwk.kty === "OKP" && jwk.crv === "Ed25519" ? "EdDSA" : jwk.kty === "EC" && jwk.crv === "P-256" ? "ES256" : undefined

const isB64url = (value: unknown): value is string => typeof value === "string" && /^[A-Za-z0-9_-]+$/.test(value)

/** Checks and imports a private JWK (parsed JSON); fails with a reason a person can act on. */
export const fromPrivateJwk = async (value: unknown): Promise<SigningKey> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new SigningKeyError({ message: "expected a JSON object (a private JWK)" })
  }
  const jwk = value as Record<string, unknown>
  const alg = algFor(jwk)
  if (!alg) {
    throw new SigningKeyError({
      message: `unsupported key (kty ${JSON.stringify(jwk.kty ?? null)}, crv ${JSON.stringify(jwk.crv ?? null)}): expected an Ed25519 (kty OKP) or P-256 (kty EC) private JWK`
    })
  }
  if (jwk.alg !== undefined && jwk.alg !== alg && !(alg === "EdDSA" && jwk.alg === "Ed25519")) {
    throw new SigningKeyError({ message: `the key's alg ${JSON.stringify(jwk.alg)} does not fit its curve (${alg} expected)` })
  }
  if (jwk.d === undefined) throw new SigningKeyError({ message: "this is a public key: a private JWK (with \"d\") is needed" })
  if (!isB64url(jwk.d) || !isB64url(jwk.x) || (alg === "ES256" && !isB64url(jwk.y))) {
    throw new SigningKeyError({ message: "malformed key: d, x (and y for P-256) must be base64url strings" })
  }
  const pub = publicPart(jwk as jose.JWK)
  const privateJwk: jose.JWK = { ...pub, d: jwk.d }
  let privateKey: jose.CryptoKey
  let publicKey: jose.CryptoKey
  try {
    publicKey = (await jose.importJWK(pub, alg)) as jose.CryptoKey
  } catch (error) {
    throw new SigningKeyError({ message: `the public part (x, y) is not a valid ${alg} key: ${error instanceof Error ? error.message : String(error)}` })
  }
  try {
    privateKey = (await jose.importJWK(privateJwk, alg)) as jose.CryptoKey
  } catch (error) {
    // the runtime checks that d derives x (and y): a mismatch fails here
    throw new SigningKeyError({
      message: `the private part (d) does not match the public part (x, y), or is malformed: ${error instanceof Error ? error.message : String(error)}`
    })
  }
  // the private and public halves must belong together, or every signature would fail to verify
  const probe = new TextEncoder().encode("rubr signing key probe")
  try {
    const jws = await new jose.CompactSign(probe).setProtectedHeader({ alg }).sign(privateKey)
    await jose.compactVerify(jws, publicKey, { algorithms: [alg] })
  } catch {
    throw new SigningKeyError({ message: "the private part (d) does not match the public part (x, y)" })
  }
  const kid = await jose.calculateJwkThumbprint(pub, "sha256")
  return { kid, alg, privateKey, publicJwk: { ...pub, kid, alg, use: "sig" } }
}

/** A new private JWK: Ed25519 by default. */
export const generatePrivateJwk = async (alg: SigningAlg = "EdDSA"): Promise<jose.JWK> => {
  const { privateKey } = await jose.generateKeyPair(alg, { extractable: true, ...(alg === "EdDSA" ? { crv: "Ed25519" } : {}) })
  const jwk = await jose.exportJWK(privateKey)
  return { ...publicPart(jwk), d: jwk.d, alg }
}

// PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410)
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex")

/** A deterministic Ed25519 private JWK derived from a label: for tests only, never for the service. */
export const deterministicPrivateJwk = (label: string): jose.JWK => {
  const seed = Crypto.createHash("sha256").update(`rubr test signing key: ${label}`).digest()
  const key = Crypto.createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" })
  const jwk = key.export({ format: "jwk" }) as jose.JWK
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, d: jwk.d, alg: "EdDSA" }
}
