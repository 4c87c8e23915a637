/**
 * How rubr names the hash of some bytes: `sha256:` and 64 lowercase hex digits. File versions, a run's
 * inputs, rubr_flow source mappings, stored exports and proof-report signatures all use it; a text is
 * hashed as its UTF-8 bytes.
 */
import * as Crypto from "node:crypto"

export const CONTENT_HASH = /^sha256:[0-9a-f]{64}$/

export const sha256Tag = (content: string | Uint8Array): string =>
  `sha256:${Crypto.createHash("sha256").update(content).digest("hex")}`
