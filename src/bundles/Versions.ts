/**
 * The use cases of version history: a file's versions, one version's content, restoring a file or the whole bundle to an earlier moment (as new versions: history is never rewritten), the bundle's version events.
 */
import { Effect, Schema } from "effect"
import type { Actor } from "../auth/CurrentActor.js"
import { apiKeyIdOf } from "../auth/CurrentActor.js"
import { rowsOf } from "../db/Query.js"
import { NotFound, ValidationFailed } from "../domain/Errors.js"
import { type BundleId, type FileId, VersionId } from "../domain/Ids.js"
import { countedRowsOf } from "../limits/RateLimiter.js"
import { type Page, paginate } from "../http/Pagination.js"
import type { ArtifactBundle, FileRecord, FileVersion } from "./Schemas.js"
import { BundleRows, bundleColumns, FileRow, type NewVersion, toEvent, toVersion, VersionRow, VersionRows, versionColumns } from "./Store.js"
import { BundleAccess, conflictOnDuplicate } from "./Access.js"

const encodeCursor = (n: number) => Buffer.from(`v:${n}`).toString("base64url")
const decodeCursor = (cursor: string) =>
  Effect.gen(function*() {
    const text = Buffer.from(cursor, "base64url").toString("utf8")
    const match = /^v:(\d{1,10})$/.exec(text)
    if (!match) return yield* ValidationFailed.at("cursor", "is not a cursor this list returned")
    return Number(match[1])
  })
const CountedActiveFile = countedRowsOf("active file", FileRow.pick("id"))
const VersionContentRows = rowsOf("file version with content", Schema.Struct({ ...VersionRow.fields, content: Schema.String }))
/** a file as it is and as it was right after a bundle version (`target*`: its version then, if it had one) */
const RestorableRows = rowsOf("restorable file", Schema.Struct({
  ...FileRow.pick("id", "path", "status", "latestVersionNumber").fields,
  createdBundleVersionNumber: Schema.Number,
  deletedBundleVersionNumber: Schema.NullOr(Schema.Number),
  latestVersionId: VersionId,
  targetId: Schema.NullOr(VersionId),
  targetVersionNumber: Schema.NullOr(Schema.Number),
  targetContentHash: Schema.NullOr(Schema.String),
  targetSizeBytes: Schema.NullOr(Schema.Number),
  targetMediaType: Schema.NullOr(Schema.String),
  targetDetectedLanguage: Schema.NullOr(Schema.String)
}))

/** Where a page of a history starts: before a cursor's version number, or at the page's offset. */
const keysetPage = (cursor: string | undefined, page: Page) =>
  Effect.map(cursor === undefined ? Effect.succeed(undefined) : decodeCursor(cursor), (before) => ({
    before,
    offset: before === undefined ? page.offset : 0
  }))

/**
 * Inside the bundle lock: the bundle's files as they are and as they were right after event
 * `versionNumber` (active ones, and those deleted since that existed then), by path.
 */
const restorableFiles = ({ store, sql }: BundleAccess, bundleId: BundleId, versionNumber: number) =>
  store.run(RestorableRows, sql`
    SELECT f.id, f.path, f.status, f.created_bundle_version_number, f.deleted_bundle_version_number,
           f.latest_version_number, lv.id AS latest_version_id,
           t.id AS target_id, t.version_number AS target_version_number, t.content_hash AS target_content_hash,
           t.size_bytes AS target_size_bytes, t.media_type AS target_media_type,
           t.detected_language AS target_detected_language
    FROM bundle_files f
    JOIN file_versions lv ON lv.file_id = f.id AND lv.version_number = f.latest_version_number
    LEFT JOIN LATERAL (
      SELECT v.id, v.version_number, v.content_hash, v.size_bytes, v.media_type, v.detected_language
      FROM file_versions v
      WHERE v.file_id = f.id AND v.artifact_bundle_version_number <= ${versionNumber}
      ORDER BY v.version_number DESC LIMIT 1
    ) t ON true
    WHERE f.artifact_bundle_id = ${bundleId}
      AND (f.status = 'active'
           OR (f.created_bundle_version_number <= ${versionNumber}
               AND f.deleted_bundle_version_number >= ${versionNumber}))
    ORDER BY f.path, f.created_bundle_version_number`)

/** What a caller reads of the history: a file's versions, one version's content, the bundle's version events. */
const makeHistoryReads = ({ store, sql, guarded, owned }: BundleAccess) => {
  /** Active file of the caller's bundle, or 404. Version routes of deleted files are 404 too. */
  const activeFileOf = (actor: Actor, bundleId: BundleId, fileId: FileId) =>
    Effect.gen(function*() {
      const row = yield* guarded(
        bundleId,
        CountedActiveFile,
        sql`SELECT f.id FROM bundle_files f JOIN artifact_bundles b ON b.id = f.artifact_bundle_id
            WHERE f.id = ${fileId} AND f.artifact_bundle_id = ${bundleId} AND b.user_id = ${actor.userId}
              AND f.status = 'active'`
      )
      if (!row) return yield* NotFound.of("File")
    })

  const listOfFile = Effect.fn("Versions.listFile")(function*(
    actor: Actor,
    bundleId: BundleId,
    fileId: FileId,
    page: Page,
    cursor: string | undefined
  ) {
    const { before, offset } = yield* keysetPage(cursor, page)
    yield* activeFileOf(actor, bundleId, fileId)
    const rows = yield* store.run(VersionRows, sql`
      SELECT ${sql.literal(versionColumns)} FROM file_versions v
      WHERE v.file_id = ${fileId} ${before === undefined ? sql`` : sql`AND v.version_number < ${before}`}
      ORDER BY v.version_number DESC
      LIMIT ${page.limit + 1} OFFSET ${offset}`).pipe(Effect.orDie)
    const { items, pagination } = paginate(rows, { limit: page.limit, offset }, (last) => encodeCursor(last.versionNumber))
    return { versions: items.map(toVersion), pagination }
  })

  const getOfFile = Effect.fn("Versions.getFile")(function*(
    actor: Actor,
    bundleId: BundleId,
    fileId: FileId,
    versionNumber: number
  ) {
    yield* activeFileOf(actor, bundleId, fileId)
    const [row] = yield* store.run(VersionContentRows, sql`
      SELECT ${sql.literal(versionColumns)}, c.content FROM file_versions v
      JOIN file_contents c ON c.artifact_bundle_id = v.artifact_bundle_id AND c.content_hash = v.content_hash
      WHERE v.file_id = ${fileId} AND v.version_number = ${versionNumber}`).pipe(Effect.orDie)
    if (!row) return yield* NotFound.of("File version")
    return { version: toVersion(row), content: row.content }
  })

  const listOfBundle = Effect.fn("Versions.listBundle")(function*(
    actor: Actor,
    bundleId: BundleId,
    page: Page,
    cursor: string | undefined
  ) {
    const { before, offset } = yield* keysetPage(cursor, page)
    yield* owned(actor, bundleId)
    const rows = yield* store.run(VersionRows, sql`
      SELECT ${sql.literal(versionColumns)} FROM file_versions v
      WHERE v.artifact_bundle_id = ${bundleId}
        ${before === undefined ? sql`` : sql`AND v.artifact_bundle_version_number < ${before}`}
      ORDER BY v.artifact_bundle_version_number DESC
      LIMIT ${page.limit + 1} OFFSET ${offset}`).pipe(Effect.orDie)
    const { items, pagination } = paginate(
      rows,
      { limit: page.limit, offset },
      (last) => encodeCursor(last.artifactBundleVersionNumber)
    )
    return { versions: items.map(toEvent), pagination }
  })

  return { listOfFile, getOfFile, listOfBundle } as const
}

/** Restores, as new versions (history is never rewritten): one file, or the whole bundle. */
const makeRestores = (access: BundleAccess) => {
  const { store, sql, owned, lockWritable, refresh, fileWithVersions, appendToFile } = access

  const restoreFile = Effect.fn("Versions.restoreFile")(function*(
    actor: Actor,
    bundleId: BundleId,
    fileId: FileId,
    versionNumber: number,
    message: string | undefined
  ) {
    yield* owned(actor, bundleId)
    return yield* Effect.gen(function*() {
      const bundle = yield* lockWritable(actor, bundleId)
      return yield* appendToFile(apiKeyIdOf(actor), bundle, fileId, () =>
        Effect.gen(function*() {
          const [target] = yield* store.run(VersionRows, sql`
            SELECT ${sql.literal(versionColumns)} FROM file_versions v
            WHERE v.file_id = ${fileId} AND v.version_number = ${versionNumber}`).pipe(Effect.orDie)
          if (!target) return yield* NotFound.of("File version")
          return {
            source: "restore",
            contentHash: target.contentHash,
            sizeBytes: target.sizeBytes,
            restoredFromVersionId: target.id,
            message: message ?? `Restored from version ${versionNumber}`,
            mediaType: target.mediaType,
            detectedLanguage: target.detectedLanguage
          }
        }))
    }).pipe(sql.withTransaction, conflictOnDuplicate("A concurrent change conflicted with this one; retry."))
  })

  /**
   * Restores the bundle to the state right after event `versionNumber`: every file that existed then
   * and is still active gets a new `restore` version with its content of that moment. Files created
   * after it, and files deleted since, are reported in skippedFiles (file_missing_or_deleted).
   */
  const restoreBundle = Effect.fn("Versions.restoreBundle")(function*(
    actor: Actor,
    bundleId: BundleId,
    versionNumber: number,
    message: string | undefined
  ) {
    yield* owned(actor, bundleId)
    return yield* Effect.gen(function*() {
      const bundle = yield* lockWritable(actor, bundleId)
      if (versionNumber > bundle.versionCount) return yield* NotFound.of("Bundle version")
      const rows = yield* restorableFiles(access, bundleId, versionNumber)
      const existed = (r: typeof rows[number]) =>
        r.targetId !== null && r.createdBundleVersionNumber <= versionNumber &&
        (r.deletedBundleVersionNumber === null || r.deletedBundleVersionNumber >= versionNumber)
      const toRestore = rows.filter((r) => r.status === "active" && existed(r))
      const skippedFiles = rows
        .filter((r) => !(r.status === "active" && existed(r)))
        .map((r) => ({ fileId: r.id, path: r.path, reason: "file_missing_or_deleted" }))
      let restoredFiles: Array<{ file: FileRecord; version: FileVersion }> = []
      if (toRestore.length > 0) {
        const versionIds = yield* store.appendVersions(
          bundleId,
          bundle.versionCount,
          toRestore.map((r): NewVersion => ({
            fileId: r.id,
            versionNumber: r.latestVersionNumber + 1,
            path: r.path,
            source: "restore",
            contentHash: r.targetContentHash!,
            sizeBytes: r.targetSizeBytes!,
            parentVersionId: r.latestVersionId,
            restoredFromVersionId: r.targetId,
            message: message ?? `Restored bundle to version ${versionNumber}`,
            mediaType: r.targetMediaType!,
            detectedLanguage: r.targetDetectedLanguage!
          })),
          apiKeyIdOf(actor)
        )
        yield* refresh(bundleId)
        restoredFiles = yield* fileWithVersions(bundleId, toRestore.map((r) => r.id), versionIds)
      }
      const [row] = yield* store.run(BundleRows, sql`SELECT ${sql.literal(bundleColumns)} FROM artifact_bundles b WHERE b.id = ${bundleId}`)
      const [artifactBundle] = yield* store.hydrate([row])
      return {
        artifactBundle: artifactBundle as ArtifactBundle,
        restoredFiles,
        skippedFiles,
        restoredFromArtifactBundleVersionNumber: versionNumber
      }
    }).pipe(sql.withTransaction, conflictOnDuplicate("A concurrent change conflicted with this one; retry."))
  })

  return { restoreFile, restoreBundle } as const
}

export class Versions extends Effect.Service<Versions>()("rubr/Versions", {
  dependencies: [BundleAccess.Default],
  effect: Effect.gen(function*() {
    const access = yield* BundleAccess
    return { ...makeHistoryReads(access), ...makeRestores(access) } as const
  })
}) {}
