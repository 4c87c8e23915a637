/**
 * Exports on the local disk, under SERVICE_DATA_DIR/exports (created on demand). A write is atomic:
 * the bytes go to a hidden temp file beside the target, are flushed, then renamed over it, so a reader
 * sees the old object or the new one, never a part.
 */
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs/promises"
import * as Path from "node:path"
import { describeBytes, type ObjectStoreShape, StorageError, toBytes, validateKey } from "./Common.js"

const code = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : "error"

export const makeFilesystemStore = (root: string): ObjectStoreShape => {
  const base = Path.resolve(root)

  const pathOf = (key: string) =>
    Effect.flatMap(validateKey(key), (valid) => {
      const path = Path.resolve(base, valid)
      // validateKey already forbids escaping; this is the belt to its braces
      return path.startsWith(base + Path.sep)
        ? Effect.succeed(path)
        : Effect.fail(new StorageError({ reason: "invalid_key", message: `invalid object key ${JSON.stringify(key)}: it leaves the store` }))
    })

  const put: ObjectStoreShape["put"] = (key, body, _contentType) =>
    Effect.gen(function*() {
      const path = yield* pathOf(key)
      const bytes = toBytes(body)
      yield* Effect.tryPromise({
        try: async () => {
          await Fs.mkdir(Path.dirname(path), { recursive: true })
          const temp = Path.join(Path.dirname(path), `.${Path.basename(path)}.${Crypto.randomUUID()}.tmp`)
          try {
            const handle = await Fs.open(temp, "wx", 0o644)
            try {
              await handle.writeFile(bytes)
              await handle.sync()
            } finally {
              await handle.close()
            }
            await Fs.rename(temp, path)
          } catch (error) {
            await Fs.unlink(temp).catch(() => undefined)
            throw error
          }
        },
        catch: (error) => new StorageError({ reason: "unavailable", message: `export storage (filesystem) cannot write ${key}: ${code(error)}` })
      })
      return { provider: "filesystem" as const, key, bucket: null, ...describeBytes(bytes) }
    }).pipe(Effect.withSpan("ObjectStore.put", { attributes: { provider: "filesystem", key } }))

  const get: ObjectStoreShape["get"] = (key) =>
    Effect.gen(function*() {
      const path = yield* pathOf(key)
      const buffer = yield* Effect.tryPromise({
        try: () => Fs.readFile(path),
        catch: (error) =>
          code(error) === "ENOENT" || code(error) === "ENOTDIR" || code(error) === "EISDIR"
            ? new StorageError({ reason: "not_found", message: `no stored object ${key}` })
            : new StorageError({ reason: "unavailable", message: `export storage (filesystem) cannot read ${key}: ${code(error)}` })
      })
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    }).pipe(Effect.withSpan("ObjectStore.get", { attributes: { provider: "filesystem", key } }))

  return { provider: "filesystem", put, get }
}
