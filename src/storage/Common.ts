/**
 * What every object store shares: the stored-object record, the one error type, and the key rules.
 * (The tag and the layers are in ./ObjectStore.ts; each implementation imports only this module.)
 */
import { Effect, Schema } from "effect"
import { sha256Tag } from "../domain/ContentHash.js"

export type StorageProvider = "filesystem" | "s3" | "none"

export interface StoredObject {
  readonly provider: StorageProvider
  readonly key: string
  /** the S3 bucket; null on the filesystem */
  readonly bucket: string | null
  readonly sizeBytes: number
  /** `sha256:<hex>` of the stored bytes (domain/ContentHash) */
  readonly sha256: string
}

/**
 * A store that cannot do what was asked. `message` is safe to record and show: it never carries
 * credentials, secrets or raw provider messages.
 * - unavailable: the store cannot be reached, timed out, or refused (e.g. credentials, permissions, disk)
 * - not_found: no object under that key
 * - disabled: SERVICE_EXPORT_STORAGE=none
 * - invalid_key: the key breaks the key rules (see validateKey)
 */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  reason: Schema.Literal("unavailable", "not_found", "disabled", "invalid_key"),
  message: Schema.String
}) {}

export interface ObjectStoreShape {
  readonly provider: StorageProvider
  readonly put: (key: string, body: Uint8Array | string, contentType: string) => Effect.Effect<StoredObject, StorageError>
  readonly get: (key: string) => Effect.Effect<Uint8Array, StorageError>
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/
const MAX_KEY_LENGTH = 512
const MAX_SEGMENT_LENGTH = 200

/**
 * Keys are relative paths of plain segments, e.g. `proof-reports/<bundleId>/<id>.json`: each segment
 * starts with a letter or digit and holds only letters, digits, `.`, `_` and `-` (so no `..`, no hidden
 * names, no empty segments, no leading `/`, no backslashes, no spaces or control characters).
 */
export const validateKey = (key: string): Effect.Effect<string, StorageError> => {
  const problem = (() => {
    if (typeof key !== "string" || key.length === 0) return "is empty"
    if (key.length > MAX_KEY_LENGTH) return `is longer than ${MAX_KEY_LENGTH} characters`
    if (key.startsWith("/")) return "is absolute (keys are relative paths)"
    const segments = key.split("/")
    for (const segment of segments) {
      if (segment === "") return "has an empty path segment"
      if (segment === "." || segment === "..") return "has a '.' or '..' segment"
      if (segment.length > MAX_SEGMENT_LENGTH) return `has a segment longer than ${MAX_SEGMENT_LENGTH} characters`
      if (!SEGMENT.test(segment)) return "has characters outside A-Z a-z 0-9 . _ - (or a segment starting with . _ -)"
    }
    return undefined
  })()
  return problem === undefined
    ? Effect.succeed(key)
    : Effect.fail(new StorageError({ reason: "invalid_key", message: `invalid object key ${JSON.stringify(String(key).slice(0, 80))}: it ${problem}` }))
}

const encoder = new TextEncoder()

export const toBytes = (body: Uint8Array | string): Uint8Array => (typeof body === "string" ? encoder.encode(body) : body)

export const describeBytes = (bytes: Uint8Array) => ({ sizeBytes: bytes.byteLength, sha256: sha256Tag(bytes) })
