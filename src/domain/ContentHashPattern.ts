/**
 * The written form of a content hash, `sha256:` and 64 lowercase hex digits. Apart from
 * ContentHash.ts (which hashes with Node) so the browser's signature check can use it too.
 */
export const CONTENT_HASH = /^sha256:[0-9a-f]{64}$/

/** The written form of a SHA-256 digest given as lowercase hex (Node and WebCrypto hash; this names). */
export const contentHashOfHex = (hex: string): string => `sha256:${hex}`
