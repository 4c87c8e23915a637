/**
 * Signed export documents (proof reports): the format, canonical JSON and offline verification. Pure:
 * no services, no I/O, nothing of Node (WebCrypto and jose only), so the same `verifyExport` runs in the
 * service, the CLI (offline, with the keys of a JWKS file) and the dashboard (in the browser, against
 * `GET /signing-keys`). Signing, which needs the private key, is in Document.ts.
 *
 * The document, exactly these members (a verifier refuses any other, since they would be unsigned):
 *
 *   {
 *     "format": "rubr.proof_report.v1",
 *     "payload": { ...the report... },
 *     "signature": {
 *       "alg": "EdDSA" | "ES256",
 *       "kid": "<RFC 7638 SHA-256 thumbprint of the public JWK>",
 *       "canonicalization": "JCS (RFC 8785)",
 *       "payloadSha256": "sha256:<lowercase hex of the canonical payload bytes>",
 *       "jws": "<protected header>..<signature>"
 *     }
 *   }
 *
 * The signature is a standard JWS (RFC 7515) in compact serialization with a *detached* payload
 * (RFC 7515 appendix F): the JWS payload is the UTF-8 bytes of the payload's JCS canonical form, and
 * its base64url part is removed from `jws`. To check it with any JWS library, canonicalize `payload`,
 * base64url it and put it between the two dots. (Not RFC 7797 `b64: false`: plain detached JWS works
 * with every library.) The protected header is exactly `{alg, kid, typ: "rubr.proof_report.v1+jws"}`.
 * One signature text per document: base64url must be canonical (no set unused bits), and ES256
 * signatures are emitted with a low s and verify only with it (the malleated (r, n - s) twin fails).
 *
 * Reformatting the document (whitespace, key order) keeps it valid: only the canonical form is signed.
 * Any changed value in `payload` (at any depth) or in `signature`, or any added member, makes it invalid.
 */
import { Data } from "effect"
import * as jose from "jose"
import { CONTENT_HASH, contentHashOfHex } from "../domain/ContentHashPattern.js"

export const EXPORT_FORMAT = "rubr.proof_report.v1"
export const CANONICALIZATION = "JCS (RFC 8785)"
/** the JWS `typ`: binds the signature to this document format */
export const JWS_TYPE = "rubr.proof_report.v1+jws"

export const SIGNING_ALGS = ["EdDSA", "ES256"] as const
export type SigningAlg = (typeof SIGNING_ALGS)[number]
export const isSigningAlg = (alg: unknown): alg is SigningAlg => alg === "EdDSA" || alg === "ES256"

// ---------------------------------------------------------------------------------------------------
// Canonical JSON (RFC 8785)
// ---------------------------------------------------------------------------------------------------

/** A value JSON cannot carry (or not unambiguously); `path` is where, e.g. `$.items[2].score`. */
export class CanonicalJsonError extends Data.TaggedError("CanonicalJsonError")<{
  readonly path: string
  readonly problem: string
  readonly message: string
}> {}

const fail = (path: string, problem: string): never => {
  throw new CanonicalJsonError({ path, problem, message: `${path}: ${problem}` })
}

// a high surrogate not followed by a low one, or a low one not preceded by a high one
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const memberPath = (path: string, key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`)

const serialize = (value: unknown, path: string, ancestors: Set<object>): string => {
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false"
    case "number":
      if (!Number.isFinite(value)) return fail(path, `${value} is not a JSON number`)
      // ECMAScript Number serialization, as RFC 8785 requires (-0 becomes 0)
      return JSON.stringify(value)
    case "string":
      if (loneSurrogate.test(value)) return fail(path, "string holds a lone UTF-16 surrogate (not valid Unicode)")
      // JSON.stringify escapes exactly as RFC 8785 does: \b \t \n \f \r \" \\ and \u00xx for other controls
      return JSON.stringify(value)
    case "undefined":
      return fail(path, "undefined is not a JSON value")
    case "object":
      break
    default:
      return fail(path, `a ${typeof value} is not a JSON value`)
  }
  if (value === null) return "null"
  const obj = value as object
  if (ancestors.has(obj)) return fail(path, "cycle: the value contains itself")
  if (typeof (obj as { toJSON?: unknown }).toJSON === "function") {
    // as JSON.stringify does (a Date becomes its ISO string)
    ancestors.add(obj)
    const out = serialize((obj as { toJSON: (key: string) => unknown }).toJSON(""), path, ancestors)
    ancestors.delete(obj)
    return out
  }
  ancestors.add(obj)
  let out: string
  if (Array.isArray(obj)) {
    const parts: Array<string> = []
    for (let i = 0; i < obj.length; i++) parts.push(serialize(obj[i], `${path}[${i}]`, ancestors))
    out = `[${parts.join(",")}]`
  } else {
    const proto = Object.getPrototypeOf(obj)
    if (proto !== Object.prototype && proto !== null) {
      fail(path, `a ${proto?.constructor?.name ?? "non-plain"} object is not a JSON value`)
    }
    // Array.prototype.sort compares UTF-16 code units: the order RFC 8785 prescribes
    const keys = Object.keys(obj).sort()
    const parts: Array<string> = []
    for (const key of keys) {
      const member = (obj as Record<string, unknown>)[key]
      // an undefined member is absent, as in JSON.stringify (optional fields)
      if (member === undefined) continue
      if (typeof member === "function" || typeof member === "symbol") {
        fail(memberPath(path, key), `a ${typeof member} is not a JSON value`)
      }
      if (loneSurrogate.test(key)) fail(memberPath(path, key), "member name holds a lone UTF-16 surrogate")
      parts.push(`${JSON.stringify(key)}:${serialize(member, memberPath(path, key), ancestors)}`)
    }
    out = `{${parts.join(",")}}`
  }
  ancestors.delete(obj)
  return out
}

/**
 * RFC 8785 (JCS) canonical JSON: members sorted by UTF-16 code units, no whitespace, numbers as
 * ECMAScript prints them, strings escaped as JSON.stringify does. Throws CanonicalJsonError for what
 * JSON cannot carry: undefined (in arrays or at the top), NaN, ±Infinity, functions, symbols, bigints,
 * cycles, lone surrogates, non-plain objects without toJSON (Map, Set, class instances). An object
 * member whose value is undefined is left out, as JSON.stringify does.
 */
export const canonicalJson = (value: unknown): string => serialize(value, "$", new Set())

const encoder = new TextEncoder()

/** the UTF-8 bytes of the canonical form */
export const canonicalBytes = (value: unknown): Uint8Array => encoder.encode(canonicalJson(value))

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/** `sha256:<hex>` of the bytes, by WebCrypto (Node and browsers alike) */
export const sha256TagOf = async (bytes: Uint8Array): Promise<string> =>
  contentHashOfHex(hex(new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>))))

// ECDSA signatures are malleable: (r, s) and (r, n - s) both verify. Signing emits the low s and
// verification demands it, so a document has exactly one valid signature text.
export const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n
export const toBigInt = (bytes: Uint8Array) => BigInt(`0x${hex(bytes) || "0"}`)
export const isLowS = (signature: Uint8Array) => signature.length === 64 && toBigInt(signature.subarray(32)) <= P256_ORDER / 2n

// ---------------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------------

export type JsonObject = { readonly [key: string]: unknown }

export interface ExportSignature {
  readonly alg: SigningAlg
  readonly kid: string
  readonly canonicalization: typeof CANONICALIZATION
  readonly payloadSha256: string
  readonly jws: string
}

export interface ExportDocument<P extends JsonObject = JsonObject> {
  readonly format: typeof EXPORT_FORMAT
  readonly payload: P
  readonly signature: ExportSignature
}

// ---------------------------------------------------------------------------------------------------
// Verification
// ---------------------------------------------------------------------------------------------------

export interface VerifyResult {
  readonly valid: boolean
  /** the document's key id, when it could be read */
  readonly kid: string | null
  readonly reason: string
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const exactMembers = (value: Record<string, unknown>, expected: ReadonlyArray<string>): string | undefined => {
  const extra = Object.keys(value).filter((key) => !expected.includes(key))
  if (extra.length > 0) return `unexpected member ${extra.map((k) => JSON.stringify(k)).join(", ")} (not covered by the signature)`
  const missing = expected.filter((key) => !(key in value))
  if (missing.length > 0) return `missing member ${missing.map((k) => JSON.stringify(k)).join(", ")}`
  return undefined
}

/** the key type and curve each algorithm signs with */
const keyShape: Record<SigningAlg, { kty: string; crv: string }> = {
  EdDSA: { kty: "OKP", crv: "Ed25519" },
  ES256: { kty: "EC", crv: "P-256" }
}

/** the public members of a JWK (a JWKS that wrongly carries private parts never signs here) */
export const publicPart = (jwk: jose.JWK): jose.JWK =>
  jwk.kty === "EC" ? { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } : { kty: jwk.kty, crv: jwk.crv, x: jwk.x }

const b64url = /^[A-Za-z0-9_-]+$/

/** one text per byte string: no set bits past the last byte (else a changed character could still verify) */
const isCanonicalB64url = (part: string): boolean => {
  try {
    return jose.base64url.encode(jose.base64url.decode(part)) === part
  } catch {
    return false
  }
}

const decodeHeader = (part: string): Record<string, unknown> | undefined => {
  try {
    const parsed: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(jose.base64url.decode(part)))
    return isPlainObject(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/**
 * Checks an export document against a JWKS, offline. Valid only when the shape is exact, the key id is
 * in the JWKS, the algorithm is the key's, the payload hash matches the canonical bytes and the
 * signature verifies. Never throws: every problem is `valid: false` with a reason.
 */
export const verifyExport = async (
  document: unknown,
  jwks: { readonly keys: ReadonlyArray<jose.JWK> }
): Promise<VerifyResult> => {
  let kid: string | null = null
  const invalid = (reason: string): VerifyResult => ({ valid: false, kid, reason })
  try {
    if (!isPlainObject(document)) return invalid("not an export document: expected a JSON object")
    if (document.format !== EXPORT_FORMAT) {
      return invalid(`unsupported format ${JSON.stringify(document.format ?? null)}: expected "${EXPORT_FORMAT}"`)
    }
    const topProblem = exactMembers(document, ["format", "payload", "signature"])
    if (topProblem) return invalid(`document: ${topProblem}`)
    const { payload, signature } = document
    if (!isPlainObject(signature)) return invalid("signature: expected an object")
    if (typeof signature.kid === "string" && signature.kid.length > 0) kid = signature.kid
    const signatureProblem = exactMembers(signature, ["alg", "kid", "canonicalization", "payloadSha256", "jws"])
    if (signatureProblem) return invalid(`signature: ${signatureProblem}`)
    if (kid === null) return invalid("signature.kid: expected a non-empty string")
    const alg = signature.alg
    if (!isSigningAlg(alg)) return invalid(`signature.alg: unsupported algorithm ${JSON.stringify(alg)} (expected EdDSA or ES256)`)
    if (signature.canonicalization !== CANONICALIZATION) {
      return invalid(`signature.canonicalization: expected "${CANONICALIZATION}"`)
    }
    if (typeof signature.payloadSha256 !== "string" || !CONTENT_HASH.test(signature.payloadSha256)) {
      return invalid("signature.payloadSha256: expected sha256:<64 lowercase hex digits>")
    }
    if (typeof signature.jws !== "string") return invalid("signature.jws: expected a string")
    const parts = signature.jws.split(".")
    if (parts.length !== 3 || parts[1] !== "" || !b64url.test(parts[0]) || !b64url.test(parts[2])) {
      return invalid("signature.jws: expected a detached compact JWS (<protected header>..<signature>)")
    }
    if (!isCanonicalB64url(parts[0]) || !isCanonicalB64url(parts[2])) {
      return invalid("signature.jws: not canonical base64url (unused bits set)")
    }
    const header = decodeHeader(parts[0])
    if (!header) return invalid("signature.jws: the protected header is not a base64url JSON object")
    const headerProblem = exactMembers(header, ["alg", "kid", "typ"])
    if (headerProblem) return invalid(`signature.jws protected header: ${headerProblem}`)
    if (header.typ !== JWS_TYPE) return invalid(`signature.jws protected header: typ must be "${JWS_TYPE}"`)
    if (header.alg !== alg) return invalid("signature.alg does not match the algorithm in the signed header")
    if (header.kid !== kid) return invalid("signature.kid does not match the key id in the signed header")
    if (!isPlainObject(payload)) return invalid("payload: expected a JSON object")

    if (typeof jwks !== "object" || jwks === null || !Array.isArray(jwks.keys)) return invalid("the JWKS has no \"keys\" array")
    const candidates = jwks.keys.filter((key) => typeof key === "object" && key !== null && key.kid === kid)
    if (candidates.length === 0) return invalid(`unknown key id ${kid}: it is not in the JWKS`)
    const shape = keyShape[alg]
    const jwk = candidates.find((key) => key.kty === shape.kty && key.crv === shape.crv)
    if (!jwk) {
      const key = candidates[0]
      return invalid(`algorithm ${alg} is not the algorithm of key ${kid} (${key.kty}${key.crv ? ` ${key.crv}` : ""})`)
    }
    if (jwk.alg !== undefined && jwk.alg !== alg) return invalid(`algorithm ${alg} is not the algorithm of key ${kid} (${jwk.alg})`)
    if (jwk.use !== undefined && jwk.use !== "sig") return invalid(`key ${kid} is not a signing key (use ${jwk.use})`)

    let bytes: Uint8Array
    try {
      bytes = canonicalBytes(payload)
    } catch (error) {
      return invalid(`payload cannot be canonicalized: ${error instanceof Error ? error.message : String(error)}`)
    }
    if ((await sha256TagOf(bytes)) !== signature.payloadSha256) {
      return invalid("payload hash mismatch: the payload is not the one that was signed")
    }
    let publicKey: jose.CryptoKey | Uint8Array
    try {
      publicKey = await jose.importJWK(publicPart(jwk), alg)
    } catch (error) {
      return invalid(`key ${kid} in the JWKS cannot be used: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (alg === "ES256" && !isLowS(jose.base64url.decode(parts[2]))) {
      return invalid("the signature does not verify: an ES256 signature must have a low s (not malleated)")
    }
    try {
      await jose.compactVerify(`${parts[0]}.${jose.base64url.encode(bytes)}.${parts[2]}`, publicKey, { algorithms: [alg] })
    } catch {
      return invalid(`the signature does not verify with key ${kid}`)
    }
    return { valid: true, kid, reason: `signature valid (key ${kid}, ${alg})` }
  } catch (error) {
    return invalid(`verification failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}
