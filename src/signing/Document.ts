/**
 * Signing export documents (proof reports). The format, canonical JSON and verification are in
 * Verify.ts (pure, browser-safe: the dashboard checks signatures with it), re-exported here.
 */
import * as jose from "jose"
import { sha256Tag } from "../domain/ContentHash.js"
import {
  canonicalJson,
  CanonicalJsonError,
  CANONICALIZATION,
  type ExportDocument,
  EXPORT_FORMAT,
  isLowS,
  type JsonObject,
  JWS_TYPE,
  P256_ORDER,
  type SigningAlg,
  toBigInt
} from "./Verify.js"

export * from "./Verify.js"

const encoder = new TextEncoder()

/** the low-s twin of an ES256 signature (see Verify.ts: verification accepts only that one) */
const lowS = (signature: Uint8Array): Uint8Array => {
  if (signature.length !== 64 || isLowS(signature)) return signature
  const s = P256_ORDER - toBigInt(signature.subarray(32))
  const out = new Uint8Array(64)
  out.set(signature.subarray(0, 32))
  out.set(Buffer.from(s.toString(16).padStart(64, "0"), "hex"), 32)
  return out
}

export interface SigningKeyInput {
  readonly kid: string
  readonly alg: SigningAlg
  readonly privateKey: jose.CryptoKey | jose.KeyObject | jose.JWK
}

/**
 * Signs the payload's canonical bytes. The document's `payload` is the canonical form parsed back
 * (pure JSON data: Dates are ISO strings, undefined members gone), so serializing the document and
 * verifying it always agree. Rejects with CanonicalJsonError when the payload is not JSON data.
 */
export const signPayload = async (payload: JsonObject, key: SigningKeyInput): Promise<ExportDocument> => {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw new CanonicalJsonError({ path: "$", problem: "the payload must be a JSON object", message: "$: the payload must be a JSON object" })
  }
  const canonical = canonicalJson(payload)
  const bytes = encoder.encode(canonical)
  const compact = await new jose.CompactSign(bytes)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: JWS_TYPE })
    .sign(key.privateKey)
  const [header, , rawSignature] = compact.split(".")
  const signature = key.alg === "ES256" ? jose.base64url.encode(lowS(jose.base64url.decode(rawSignature))) : rawSignature
  return {
    format: EXPORT_FORMAT,
    payload: JSON.parse(canonical) as JsonObject,
    signature: {
      alg: key.alg,
      kid: key.kid,
      canonicalization: CANONICALIZATION,
      payloadSha256: sha256Tag(bytes),
      jws: `${header}..${signature}`
    }
  }
}

