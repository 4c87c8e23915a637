/**
 * The SQL of bundles, files and versions, and the mapping of rows to the wire shapes. Use cases
 * (Bundles.ts) decide ownership, locking and transactions; this module only speaks SQL.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Schema } from "effect"
import { pgArray, PgPool } from "../db/Database.js"
import { makeRows, type Rows, rowsOf } from "../db/Query.js"
import { BundleId, FileId, VersionId } from "../domain/Ids.js"
import type { ArtifactBundle, BundleVersionEvent, FileRecord, FileVersion } from "./Schemas.js"

export const BundleRow = Schema.Struct({
  id: BundleId,
  userId: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  status: Schema.Literal("active", "archived"),
  /** the JSON columns as text (parsed where the wire shape is built) */
  settingsJson: Schema.String,
  customRubricJson: Schema.String,
  primaryFileId: Schema.NullOr(FileId),
  fileCount: Schema.Number,
  versionCount: Schema.Number,
  archivedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type BundleRow = typeof BundleRow.Type
export const BundleRows = rowsOf("bundle", BundleRow)

/** A version's bytes as file_versions describes them; a file row shows its latest version's. */
const contentFields = {
  sizeBytes: Schema.Number,
  contentHash: Schema.String,
  mediaType: Schema.String,
  detectedLanguage: Schema.String,
  storageProvider: Schema.String
}

export const FileRow = Schema.Struct({
  id: FileId,
  artifactBundleId: BundleId,
  path: Schema.String,
  artifactType: Schema.String,
  status: Schema.String,
  isPrimary: Schema.Boolean,
  latestVersionNumber: Schema.Number,
  ...contentFields,
  deletedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type FileRow = typeof FileRow.Type
export const FileRows = rowsOf("file", FileRow)

export const VersionRow = Schema.Struct({
  id: VersionId,
  fileId: FileId,
  artifactBundleId: BundleId,
  versionNumber: Schema.Number,
  artifactBundleVersionNumber: Schema.Number,
  filePath: Schema.String,
  source: Schema.String,
  parentVersionId: Schema.NullOr(VersionId),
  restoredFromVersionId: Schema.NullOr(VersionId),
  message: Schema.NullOr(Schema.String),
  ...contentFields,
  createdAt: Schema.DateFromSelf
})
export type VersionRow = typeof VersionRow.Type
export const VersionRows = rowsOf("file version", VersionRow)

const AppendedVersionRows = rowsOf("appended version", VersionRow.pick("id", "fileId"))

export const bundleColumns = `b.id, b.user_id, b.name, b.description, b.status, b.settings::text AS settings_json,
  b.custom_rubric::text AS custom_rubric_json, b.primary_file_id, b.file_count, b.version_count, b.archived_at,
  b.created_at, b.updated_at`

export const fileColumns = `f.id, f.artifact_bundle_id, f.path, f.artifact_type, f.status,
  coalesce(b.primary_file_id = f.id, false) AS is_primary, f.latest_version_number, lv.size_bytes, lv.content_hash,
  lv.media_type, lv.detected_language, lv.storage_provider, f.deleted_at, f.created_at, f.updated_at`

export const fileFrom = `bundle_files f
  JOIN artifact_bundles b ON b.id = f.artifact_bundle_id
  JOIN file_versions lv ON lv.file_id = f.id AND lv.version_number = f.latest_version_number`

export const versionColumns = `v.id, v.file_id, v.artifact_bundle_id, v.version_number, v.artifact_bundle_version_number,
  v.file_path, v.source, v.content_hash, v.size_bytes, v.parent_version_id, v.restored_from_version_id, v.message,
  v.media_type, v.detected_language, v.storage_provider, v.created_at`

export const toFile = (row: FileRow): FileRecord => ({
  id: row.id,
  artifactBundleId: row.artifactBundleId,
  path: row.path,
  artifactType: row.artifactType,
  status: row.status,
  isPrimary: row.isPrimary,
  sizeBytes: row.sizeBytes,
  contentHash: row.contentHash,
  latestVersionNumber: row.latestVersionNumber,
  metadata: { mediaType: row.mediaType, detectedLanguage: row.detectedLanguage, storageProvider: row.storageProvider },
  deletedAt: row.deletedAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt
})

export const toVersion = (row: VersionRow): FileVersion => ({
  id: row.id,
  fileId: row.fileId,
  artifactBundleId: row.artifactBundleId,
  versionNumber: row.versionNumber,
  artifactBundleVersionNumber: row.artifactBundleVersionNumber,
  path: row.filePath,
  source: row.source,
  contentHash: row.contentHash,
  sizeBytes: row.sizeBytes,
  parentVersionId: row.parentVersionId,
  restoredFromVersionId: row.restoredFromVersionId,
  message: row.message,
  metadata: { mediaType: row.mediaType, detectedLanguage: row.detectedLanguage, storageProvider: row.storageProvider },
  createdAt: row.createdAt
})

export const toEvent = (row: VersionRow): BundleVersionEvent => ({
  id: row.id,
  artifactBundleId: row.artifactBundleId,
  artifactBundleVersionNumber: row.artifactBundleVersionNumber,
  fileId: row.fileId,
  filePath: row.filePath,
  fileVersionNumber: row.versionNumber,
  source: row.source,
  contentHash: row.contentHash,
  sizeBytes: row.sizeBytes,
  parentVersionId: row.parentVersionId,
  message: row.message,
  createdAt: row.createdAt
})

export interface NewVersion {
  readonly fileId: FileId
  readonly versionNumber: number
  readonly path: string
  readonly source: string
  readonly contentHash: string
  readonly sizeBytes: number
  readonly parentVersionId: VersionId | null
  readonly restoredFromVersionId: VersionId | null
  readonly message: string | null
  readonly mediaType: string
  readonly detectedLanguage: string
}

/** The reads: bundles as the wire shows them, a bundle row (or its lock), files and versions by id. */
const makeBundleReads = (sql: PgClient.PgClient, run: Rows) => {
  /** Bundle rows with their primary file and latest event, in the order given. */
  const hydrate = (rows: ReadonlyArray<BundleRow>) =>
    Effect.gen(function*() {
      if (rows.length === 0) return [] as Array<ArtifactBundle>
      const primaryIds = rows.flatMap((r) => (r.primaryFileId ? [r.primaryFileId] : []))
      const primaries = primaryIds.length === 0 ? [] : yield* run(FileRows, sql`
        SELECT ${sql.literal(fileColumns)} FROM ${sql.literal(fileFrom)}
        WHERE f.id = ANY(${pgArray(primaryIds)}::uuid[])`)
      const withVersions = rows.filter((r) => r.versionCount > 0)
      const latest = withVersions.length === 0 ? [] : yield* run(VersionRows, sql`
        SELECT ${sql.literal(versionColumns)}
        FROM unnest(${pgArray(withVersions.map((r) => r.id))}::uuid[], ${pgArray(withVersions.map((r) => r.versionCount))}::int[]) AS t(bundle_id, n)
        JOIN file_versions v ON v.artifact_bundle_id = t.bundle_id AND v.artifact_bundle_version_number = t.n`)
      const primaryById = new Map(primaries.map((f) => [f.id, toFile(f)]))
      const latestByBundle = new Map(latest.map((v) => [v.artifactBundleId, toEvent(v)]))
      return rows.map((row): ArtifactBundle => ({
        id: row.id,
        name: row.name,
        description: row.description,
        status: row.status,
        activeVersionNumber: row.versionCount,
        customRubric: JSON.parse(row.customRubricJson),
        settings: JSON.parse(row.settingsJson),
        primaryFile: (row.primaryFileId && primaryById.get(row.primaryFileId)) || null,
        fileCount: row.fileCount,
        versionCount: row.versionCount,
        latestVersion: latestByBundle.get(row.id) ?? null,
        archivedAt: row.archivedAt,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt
      }))
    })

  const findBundle = (userId: string, bundleId: BundleId) =>
    Effect.map(
      run(BundleRows, sql`SELECT ${sql.literal(bundleColumns)} FROM artifact_bundles b
                     WHERE b.id = ${bundleId} AND b.user_id = ${userId}`),
      (rows): BundleRow | undefined => rows[0]
    )

  /** The bundle row under FOR UPDATE: every change to a bundle's files serializes here. */
  const lockBundle = (userId: string, bundleId: BundleId) =>
    Effect.map(
      run(BundleRows, sql`SELECT ${sql.literal(bundleColumns)} FROM artifact_bundles b
                     WHERE b.id = ${bundleId} AND b.user_id = ${userId} FOR UPDATE`),
      (rows): BundleRow | undefined => rows[0]
    )

  const activeFiles = (bundleId: BundleId) =>
    run(FileRows, sql`SELECT ${sql.literal(fileColumns)} FROM ${sql.literal(fileFrom)}
                 WHERE f.artifact_bundle_id = ${bundleId} AND f.status = 'active' ORDER BY f.path`)

  const filesByIds = (bundleId: BundleId, ids: ReadonlyArray<FileId>) =>
    run(FileRows, sql`SELECT ${sql.literal(fileColumns)} FROM ${sql.literal(fileFrom)}
                 WHERE f.artifact_bundle_id = ${bundleId} AND f.id = ANY(${pgArray(ids)}::uuid[])`)

  const versionsByIds = (ids: ReadonlyArray<VersionId>) =>
    run(VersionRows, sql`SELECT ${sql.literal(versionColumns)} FROM file_versions v WHERE v.id = ANY(${pgArray(ids)}::uuid[])`)

  return { hydrate, findBundle, lockBundle, activeFiles, filesByIds, versionsByIds } as const
}

/** The writes a change makes under the bundle lock: its contents, then its versions. */
const makeBundleWrites = (sql: PgClient.PgClient, run: Rows) => {
  /** Stores each distinct content once per bundle. */
  const putContents = (
    bundleId: BundleId,
    contents: ReadonlyArray<{ readonly contentHash: string; readonly sizeBytes: number; readonly content: string }>
  ) => {
    const distinct = [...new Map(contents.map((c) => [c.contentHash, c])).values()]
    return sql`
      INSERT INTO file_contents (artifact_bundle_id, content_hash, size_bytes, content)
      SELECT ${bundleId}, h, s, c
      FROM unnest(${pgArray(distinct.map((c) => c.contentHash))}::text[], ${pgArray(distinct.map((c) => c.sizeBytes))}::int[],
                  ${pgArray(distinct.map((c) => c.content))}::text[]) AS t(h, s, c)
      ON CONFLICT DO NOTHING`
  }

  /**
   * Appends versions; each gets the next artifactBundleVersionNumber in input order (the caller holds
   * the bundle lock and passes the bundle's current count), and the bundle's count moves with them.
   */
  const appendVersions = (
    bundleId: BundleId,
    currentCount: number,
    versions: ReadonlyArray<NewVersion>,
    apiKeyId: string | null
  ) =>
    Effect.gen(function*() {
      const rows = yield* run(AppendedVersionRows, sql`
        INSERT INTO file_versions (file_id, artifact_bundle_id, version_number, artifact_bundle_version_number, file_path,
          source, content_hash, size_bytes, parent_version_id, restored_from_version_id, message, media_type,
          detected_language, storage_provider, created_by_api_key_id)
        SELECT t.file_id, ${bundleId}, t.version_number, t.bundle_version_number, t.path, t.source, t.content_hash,
               t.size_bytes, t.parent_version_id, t.restored_from_version_id, t.message, t.media_type,
               t.detected_language, 'postgres', ${apiKeyId}
        FROM unnest(
          ${pgArray(versions.map((v) => v.fileId))}::uuid[],
          ${pgArray(versions.map((v) => v.versionNumber))}::int[],
          ${pgArray(versions.map((_, i) => currentCount + i + 1))}::int[],
          ${pgArray(versions.map((v) => v.path))}::text[],
          ${pgArray(versions.map((v) => v.source))}::text[],
          ${pgArray(versions.map((v) => v.contentHash))}::text[],
          ${pgArray(versions.map((v) => v.sizeBytes))}::int[],
          ${pgArray(versions.map((v) => v.parentVersionId))}::uuid[],
          ${pgArray(versions.map((v) => v.restoredFromVersionId))}::uuid[],
          ${pgArray(versions.map((v) => v.message))}::text[],
          ${pgArray(versions.map((v) => v.mediaType))}::text[],
          ${pgArray(versions.map((v) => v.detectedLanguage))}::text[]
        ) WITH ORDINALITY AS t(file_id, version_number, bundle_version_number, path, source, content_hash, size_bytes,
                               parent_version_id, restored_from_version_id, message, media_type, detected_language, ord)
        ORDER BY t.ord
        RETURNING id, file_id`)
      yield* sql`
        UPDATE bundle_files f SET latest_version_number = t.n, updated_at = clock_timestamp()
        FROM unnest(${pgArray(versions.map((v) => v.fileId))}::uuid[], ${pgArray(versions.map((v) => v.versionNumber))}::int[]) AS t(id, n)
        WHERE f.id = t.id`
      yield* sql`UPDATE artifact_bundles SET version_count = version_count + ${versions.length}, updated_at = clock_timestamp()
                 WHERE id = ${bundleId}`
      const idByFile = new Map(rows.map((r) => [r.fileId, r.id]))
      return versions.map((v) => idByFile.get(v.fileId)!)
    })

  return { putContents, appendVersions } as const
}

export class BundleStore extends Effect.Service<BundleStore>()("rubr/BundleStore", {
  effect: Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const run = makeRows(yield* PgPool)
    return { sql, run, ...makeBundleReads(sql, run), ...makeBundleWrites(sql, run) } as const
  })
}) {}
