/** SERVICE_EXPORT_STORAGE=none: nothing is stored; the caller records an export failure note. */
import { Effect } from "effect"
import { type ObjectStoreShape, StorageError, validateKey } from "./Common.js"

export const makeDisabledStore = (): ObjectStoreShape => ({
  provider: "none",
  put: (key) =>
    Effect.zipRight(
      validateKey(key),
      Effect.fail(new StorageError({ reason: "disabled", message: "export storage is disabled (SERVICE_EXPORT_STORAGE=none)" }))
    ),
  get: (key) =>
    Effect.zipRight(
      validateKey(key),
      Effect.fail(new StorageError({ reason: "disabled", message: "export storage is disabled (SERVICE_EXPORT_STORAGE=none)" }))
    )
})
