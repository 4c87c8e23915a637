/**
 * Where exports (signed proof-report documents) are written besides the database: the `ObjectStore`
 * tag and its layers. SERVICE_EXPORT_STORAGE picks one:
 * - `filesystem` (default): under $SERVICE_DATA_DIR/exports (./Filesystem.ts)
 * - `s3`: any S3-compatible store, SERVICE_S3_* settings (./S3.ts)
 * - `none`: every put fails with reason "disabled" (./Disabled.ts)
 *
 * Keys are relative paths like `proof-reports/<bundleId>/<id>.json` (rules: Common.ts validateKey).
 * Failures are a StorageError with a safe message and a reason: unavailable | not_found | disabled |
 * invalid_key. The caller decides what a failure means (a proof report records an export failure note).
 */
import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import type { ObjectStoreShape } from "./Common.js"
import { makeDisabledStore } from "./Disabled.js"
import { makeFilesystemStore } from "./Filesystem.js"
import { defaultS3Timeouts, makeS3StoreScoped, type S3StoreConfig, type S3Timeouts } from "./S3.js"

export { type ObjectStoreShape, StorageError, type StorageProvider, type StoredObject, validateKey } from "./Common.js"
export type { S3StoreConfig, S3Timeouts } from "./S3.js"

export class ObjectStore extends Context.Tag("rubr/ObjectStore")<ObjectStore, ObjectStoreShape>() {
  /** files under `dir` (created on demand) */
  static readonly filesystem = (dir: string) => Layer.sync(ObjectStore, () => makeFilesystemStore(dir))

  /** an S3-compatible bucket (created on first write if missing); the client closes with the layer */
  static readonly s3 = (config: S3StoreConfig, timeouts: S3Timeouts = defaultS3Timeouts) =>
    Layer.scoped(ObjectStore, makeS3StoreScoped(config, timeouts))

  /** storage off: put and get fail with reason "disabled" */
  static readonly none = Layer.sync(ObjectStore, makeDisabledStore)
}

/** The store SERVICE_EXPORT_STORAGE names (needs AppConfig). */
export const ObjectStoreLive = Layer.unwrapEffect(
  Effect.map(AppConfig, ({ exports }) => {
    switch (exports.storage) {
      case "s3":
        return ObjectStore.s3(exports.s3)
      case "none":
        return ObjectStore.none
      default:
        return ObjectStore.filesystem(exports.dir)
    }
  })
)
