/**
 * How rubr names the hash of some bytes: `sha256:` and 64 lowercase hex digits. File versions, a run's
 * inputs, rubr_flow source mappings, stored exports and proof-report signatures all use it; a text is
 * hashed as its UTF-8 bytes.
 */
import * as Crypto from "node:crypto"

import { contentHashOfHex } from "./ContentHashPattern.js"

export { CONTENT_HASH } from "./ContentHashPattern.js"

export const sha256Tag = (content: string | Uint8Array): string =>
  contentHashOfHex(Crypto.createHash("sha256").update(content).digest("hex"))
