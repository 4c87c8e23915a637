/**
 * Use cases of bundles, files and versions. Ownership is checked here (another user's bundle is a 404),
 * the per-bundle rate limit is counted here once the caller is known to own the bundle, and every
 * change to a bundle's files runs in one transaction that first locks the bundle row.
 */
import * as SqlError from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import { Effect } from "effect"
import type { Actor } from "../auth/CurrentActor.js"
import { apiKeyIdOf } from "../auth/CurrentActor.js"
import { AppConfig } from "../config/AppConfig.js"
import { PgPool, pgArray } from "../db/Database.js"
import { makeRows } from "../db/Query.js"
import { Conflict, type ErrorDetail, NotFound, type RateLimitExceeded, ValidationFailed } from "../domain/Errors.js"
import { type Page, paginate } from "../http/Pagination.js"
import { countedSelect } from "../limits/RateLimiter.js"
import {
  choosePrimary,
  contentProblem,
  detectLanguage,
  digest,
  inferType,
  mediaTypeFor,
  mediaTypeProblem,
  pathProblem,
  skillFoldersOf
} from "./Detect.js"
import type { ArtifactBundle, FileRecord, FileVersion } from "./Schemas.js"
import {
  type BundleRow,
  bundleColumns,
  BundleStore,
  type FileRow,
  fileColumns,
  fileFrom,
  type NewVersion,
  toEvent,
  toFile,
  toVersion,
  type VersionRow,
  versionColumns
} from "./Store.js"
import { buildTree } from "./Tree.js"

export interface UploadInput {
  readonly path: string
  readonly content: string
  readonly mediaType?: string | undefined
  readonly message?: string | undefined
}

export interface WriteOptions {
  readonly source?: string
  readonly message?: string | undefined
  readonly mediaType?: string | undefined
}

const isUniqueViolation = (error: unknown) =>
  error instanceof SqlError.SqlError && (error.cause as { code?: string } | undefined)?.code === "23505"

/** A unique violation inside `effect` is a 409; any other database failure is a defect. */
const conflictOnDuplicate = (message: string) =>
<A, E, R>(effect: Effect.Effect<A, E | SqlError.SqlError, R>): Effect.Effect<A, Exclude<E, SqlError.SqlError> | Conflict, R> =>
  effect.pipe(
    Effect.catchIf(isUniqueViolation, () => Effect.fail(new Conflict({ message, details: [] }))),
    Effect.catchIf(
      (e): e is SqlError.SqlError => e instanceof SqlError.SqlError,
      (e) => Effect.die(e)
    )
  ) as any

const encodeCursor = (n: number) => Buffer.from(`v:${n}`).toString("base64url")
const decodeCursor = (cursor: string) =>
  Effect.gen(function*() {
    const text = Buffer.from(cursor, "base64url").toString("utf8")
    const match = /^v:(\d{1,10})$/.exec(text)
    if (!match) return yield* ValidationFailed.at("cursor", "is not a cursor this list returned")
    return Number(match[1])
  })

export class Bundles extends Effect.Service<Bundles>()("rubr/Bundles", {
  dependencies: [BundleStore.Default],
  effect: Effect.gen(function*() {
    const store = yield* BundleStore
    const sql = store.sql
    const rows = makeRows(yield* PgPool)
    const limits = (yield* AppConfig).limits

    /** `select` (the caller's bundle or file), counted against the bundle's rate limit in the same statement. */
    const guarded = <A extends object>(bundleId: string, select: Statement.Fragment): Effect.Effect<A | undefined, RateLimitExceeded> =>
      countedSelect<A>(sql, rows, { key: `bundle:${bundleId}`, limit: limits.rateLimitBundlePerMinute, label: "bundle" }, select)

    /** The caller's bundle (404 otherwise), counted against the bundle's rate limit. */
    const owned = (actor: Actor, bundleId: string) =>
      Effect.gen(function*() {
        const row = yield* guarded<BundleRow>(
          bundleId,
          sql`SELECT ${sql.literal(bundleColumns)} FROM artifact_bundles b WHERE b.id = ${bundleId} AND b.user_id = ${actor.userId}`
        )
        if (!row) return yield* NotFound.of("Artifact bundle")
        return row
      })

    /** Inside a transaction: lock the caller's bundle; archived bundles are read-only (409). */
    const lockWritable = (actor: Actor, bundleId: string) =>
      Effect.gen(function*() {
        const row = yield* store.lockBundle(actor.userId, bundleId)
        if (!row) return yield* NotFound.of("Artifact bundle")
        if (row.status === "archived") {
          return yield* new Conflict({
            message: "This artifact bundle is archived; archived bundles are read-only.",
            details: [{ artifactBundleId: bundleId, status: "archived" }]
          })
        }
        return row
      })

    /** Inside the bundle lock: artifact types, primary file and fileCount from the current active paths. */
    const refresh = (bundleId: string) =>
      Effect.gen(function*() {
        const rows = yield* sql<{ id: string; path: string; artifactType: string }>`
          SELECT id, path, artifact_type FROM bundle_files WHERE artifact_bundle_id = ${bundleId} AND status = 'active'`
        const skillFolders = skillFoldersOf(rows.map((r) => r.path))
        const changed = rows.flatMap((r) => {
          const type = inferType(r.path, skillFolders)
          return type === r.artifactType ? [] : [{ id: r.id, type }]
        })
        if (changed.length > 0) {
          yield* sql`
            UPDATE bundle_files f SET artifact_type = t.type
            FROM unnest(${pgArray(changed.map((c) => c.id))}::uuid[], ${pgArray(changed.map((c) => c.type))}::text[]) AS t(id, type)
            WHERE f.id = t.id`
        }
        const primary = choosePrimary(rows)
        yield* sql`UPDATE artifact_bundles SET file_count = ${rows.length}, primary_file_id = ${primary?.id ?? null},
                   updated_at = clock_timestamp() WHERE id = ${bundleId}`
      })

    const detailOf = (userId: string, bundleId: string) =>
      Effect.gen(function*() {
        const row = yield* store.findBundle(userId, bundleId)
        const [bundle] = yield* store.hydrate([row!])
        const files = (yield* store.activeFiles(bundleId)).map(toFile)
        return { artifactBundle: bundle, files, tree: buildTree(files) }
      })

    const fileWithVersions = (bundleId: string, fileIds: ReadonlyArray<string>, versionIds: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const files = new Map((yield* store.filesByIds(bundleId, fileIds)).map((f) => [f.id, toFile(f)]))
        const versions = new Map((yield* store.versionsByIds(versionIds)).map((v) => [v.id, toVersion(v)]))
        return fileIds.map((id, i) => ({ file: files.get(id)!, version: versions.get(versionIds[i])! }))
      })

    // ---- bundles ---------------------------------------------------------------------------------

    const create = Effect.fn("Bundles.create")(function*(
      actor: Actor,
      input: { readonly name: string; readonly description?: string | null | undefined; readonly settings?: object | undefined }
    ) {
      const [row] = yield* sql<BundleRow>`
        INSERT INTO artifact_bundles AS b (user_id, name, description, settings)
        VALUES (${actor.userId}, ${input.name}, ${input.description ?? null}, ${JSON.stringify(input.settings ?? {})}::jsonb)
        RETURNING ${sql.literal(bundleColumns)}`
      const [bundle] = yield* store.hydrate([row])
      return bundle
    }, Effect.orDie)

    const list = Effect.fn("Bundles.list")(function*(actor: Actor, status: "active" | "archived" | "all", page: Page) {
      const rows = yield* sql<BundleRow>`
        SELECT ${sql.literal(bundleColumns)} FROM artifact_bundles b
        WHERE b.user_id = ${actor.userId} ${status === "all" ? sql`` : sql`AND b.status = ${status}`}
        ORDER BY b.created_at DESC, b.id DESC
        LIMIT ${page.limit + 1} OFFSET ${page.offset}`
      const { items, pagination } = paginate(rows, page)
      return { artifactBundles: yield* store.hydrate(items), pagination }
    }, Effect.orDie)

    const get = Effect.fn("Bundles.get")(function*(actor: Actor, bundleId: string) {
      yield* owned(actor, bundleId)
      return yield* detailOf(actor.userId, bundleId).pipe(Effect.orDie)
    })

    const update = Effect.fn("Bundles.update")(function*(
      actor: Actor,
      bundleId: string,
      input: { readonly name?: string | undefined; readonly description?: string | null | undefined }
    ) {
      yield* owned(actor, bundleId)
      return yield* Effect.gen(function*() {
        yield* lockWritable(actor, bundleId)
        yield* sql`
          UPDATE artifact_bundles SET
            name = ${input.name === undefined ? sql`name` : input.name},
            description = ${input.description === undefined ? sql`description` : input.description},
            updated_at = clock_timestamp()
          WHERE id = ${bundleId}`
        return yield* detailOf(actor.userId, bundleId)
      }).pipe(sql.withTransaction, conflictOnDuplicate("conflicting update"))
    })

    /** Idempotent: archiving an archived bundle answers it unchanged. */
    const archive = Effect.fn("Bundles.archive")(function*(actor: Actor, bundleId: string) {
      yield* owned(actor, bundleId)
      yield* sql`UPDATE artifact_bundles SET status = 'archived', archived_at = clock_timestamp(), updated_at = clock_timestamp()
                 WHERE id = ${bundleId} AND user_id = ${actor.userId} AND status = 'active'`.pipe(Effect.orDie)
      const row = yield* store.findBundle(actor.userId, bundleId).pipe(Effect.orDie)
      if (!row) return yield* NotFound.of("Artifact bundle")
      const [bundle] = yield* store.hydrate([row]).pipe(Effect.orDie)
      return bundle
    })

    /** Idempotent: unarchiving an active bundle answers it unchanged; its files and versions are as they were. */
    const unarchive = Effect.fn("Bundles.unarchive")(function*(actor: Actor, bundleId: string) {
      yield* owned(actor, bundleId)
      yield* sql`UPDATE artifact_bundles SET status = 'active', archived_at = NULL, updated_at = clock_timestamp()
                 WHERE id = ${bundleId} AND user_id = ${actor.userId} AND status = 'archived'`.pipe(Effect.orDie)
      const row = yield* store.findBundle(actor.userId, bundleId).pipe(Effect.orDie)
      if (!row) return yield* NotFound.of("Artifact bundle")
      const [bundle] = yield* store.hydrate([row]).pipe(Effect.orDie)
      return bundle
    })

    /** Only an archived bundle; the cascade removes files, versions, contents and any run history. */
    const deletePermanently = Effect.fn("Bundles.deletePermanently")(function*(actor: Actor, bundleId: string) {
      yield* owned(actor, bundleId)
      return yield* Effect.gen(function*() {
        const row = yield* store.lockBundle(actor.userId, bundleId)
        if (!row) return yield* NotFound.of("Artifact bundle")
        if (row.status !== "archived") {
          return yield* new Conflict({
            message: "Archive the artifact bundle (DELETE /artifact-bundles/{artifactBundleId}) before deleting it permanently.",
            details: [{ artifactBundleId: bundleId, status: row.status }]
          })
        }
        yield* sql`DELETE FROM artifact_bundles WHERE id = ${bundleId}`
        return { id: bundleId, deleted: true }
      }).pipe(sql.withTransaction, conflictOnDuplicate("conflicting delete"))
    })

    // ---- files -----------------------------------------------------------------------------------

    const prepareFile = (file: UploadInput) => {
      const language = detectLanguage(file.path)
      return { ...file, ...digest(file.content), language, mediaType: file.mediaType ?? mediaTypeFor(language) }
    }

    const checkMediaType = (mediaType: string | undefined, at: string): Array<ErrorDetail> => {
      if (mediaType === undefined) return []
      const problem = mediaTypeProblem(mediaType)
      return problem ? [{ path: at, message: problem }] : []
    }

    const validationError = (details: ReadonlyArray<ErrorDetail>) =>
      new ValidationFailed({
        message: "The request is invalid: " + details.map((d) => `${d.path}: ${d.message}`).join("; "),
        details
      })

    const listFiles = Effect.fn("Files.list")(function*(actor: Actor, bundleId: string, page: Page) {
      yield* owned(actor, bundleId)
      const all = (yield* store.activeFiles(bundleId).pipe(Effect.orDie)).map(toFile)
      const { items, pagination } = paginate(all.slice(page.offset, page.offset + page.limit + 1), page)
      return { files: items, tree: buildTree(all), pagination }
    })

    /** All files of one request land as version 1 in one transaction, or none does. */
    const upload = Effect.fn("Files.upload")(function*(actor: Actor, bundleId: string, files: ReadonlyArray<UploadInput>) {
      const details: Array<ErrorDetail> = []
      if (files.length > limits.maxFilesPerUpload) {
        details.push({ path: "files", message: `at most ${limits.maxFilesPerUpload} files per upload (got ${files.length})` })
      }
      const seen = new Map<string, number>()
      files.forEach((file, i) => {
        const pathIssue = pathProblem(file.path)
        if (pathIssue) details.push({ path: `files.${i}.path`, message: pathIssue })
        else if (seen.has(file.path)) {
          details.push({ path: `files.${i}.path`, message: `duplicates files.${seen.get(file.path)}.path in this upload` })
        } else seen.set(file.path, i)
        const contentIssue = contentProblem(file.content, limits.maxFileBytes)
        if (contentIssue) details.push({ path: `files.${i}.content`, message: contentIssue })
        details.push(...checkMediaType(file.mediaType, `files.${i}.mediaType`))
      })
      if (details.length > 0) return yield* validationError(details)

      yield* owned(actor, bundleId)
      const prepared = files.map(prepareFile)
      const paths = prepared.map((f) => f.path)
      return yield* Effect.gen(function*() {
        const bundle = yield* lockWritable(actor, bundleId)
        const taken = yield* sql<{ path: string }>`
          SELECT path FROM bundle_files
          WHERE artifact_bundle_id = ${bundleId} AND status = 'active' AND path = ANY(${pgArray(paths)}::text[])
          ORDER BY path`
        if (taken.length > 0) {
          return yield* new Conflict({
            message: `An active file already has ${taken.length === 1 ? "this path" : "these paths"}: ${taken.map((t) => t.path).join(", ")}. Use PUT to add a version.`,
            details: taken.map((t) => ({ path: t.path }))
          })
        }
        return yield* createFiles(bundle, prepared, "upload", apiKeyIdOf(actor))
      }).pipe(
        sql.withTransaction,
        conflictOnDuplicate("An active file with one of these paths was just created by another request.")
      )
    })

    /**
     * Inside the bundle lock: new files at free paths, each as version 1 from `source`, in one batch; the
     * bundle's file limit holds.
     */
    const createFiles = (
      bundle: BundleRow,
      prepared: ReadonlyArray<ReturnType<typeof prepareFile>>,
      source: string,
      apiKeyId: string | null
    ) =>
      Effect.gen(function*() {
        const bundleId = bundle.id
        const paths = prepared.map((f) => f.path)
        if (bundle.fileCount + prepared.length > limits.maxFilesPerBundle) {
          return yield* ValidationFailed.at(
            "files",
            `a bundle holds at most ${limits.maxFilesPerBundle} active files (it has ${bundle.fileCount}; this upload adds ${prepared.length})`
          )
        }
        yield* store.putContents(bundleId, prepared)
        const skillFolders = skillFoldersOf(paths)
        const inserted = yield* sql<{ id: string; path: string }>`
          INSERT INTO bundle_files (artifact_bundle_id, path, artifact_type, latest_version_number, created_bundle_version_number)
          SELECT ${bundleId}, t.path, t.type, 0, t.n
          FROM unnest(${pgArray(paths)}::text[], ${pgArray(paths.map((p) => inferType(p, skillFolders)))}::text[],
                      ${pgArray(paths.map((_, i) => bundle.versionCount + i + 1))}::int[]) AS t(path, type, n)
          RETURNING id, path`
        const idByPath = new Map(inserted.map((r) => [r.path, r.id]))
        const fileIds = paths.map((p) => idByPath.get(p)!)
        const versionIds = yield* store.appendVersions(
          bundleId,
          bundle.versionCount,
          prepared.map((f, i): NewVersion => ({
            fileId: fileIds[i],
            versionNumber: 1,
            path: f.path,
            source,
            contentHash: f.contentHash,
            sizeBytes: f.sizeBytes,
            parentVersionId: null,
            restoredFromVersionId: null,
            message: f.message ?? null,
            mediaType: f.mediaType,
            detectedLanguage: f.language
          })),
          apiKeyId
        )
        yield* refresh(bundleId)
        return yield* fileWithVersions(bundleId, fileIds, versionIds)
      })

    /**
     * Work output written by a worker for the bundle's owner (no request, no rate limit): a new version
     * of the active file at `path`, or the file's version 1 when no active file has that path. The bundle
     * must still be writable (archived: 409). Joins the caller's transaction when there is one.
     */
    const writeGenerated = Effect.fn("Files.writeGenerated")(function*(
      owner: { readonly userId: string; readonly apiKeyId: string | null },
      bundleId: string,
      path: string,
      content: string,
      options: { readonly source: string; readonly message: string }
    ) {
      const problem = pathProblem(path) ?? contentProblem(content, limits.maxFileBytes)
      if (problem) return yield* ValidationFailed.at("content", problem)
      const file = prepareFile({ path, content, message: options.message })
      const bundle = yield* store.lockBundle(owner.userId, bundleId)
      if (!bundle) return yield* NotFound.of("Artifact bundle")
      if (bundle.status === "archived") {
        return yield* new Conflict({
          message: "This artifact bundle was archived meanwhile; archived bundles are read-only.",
          details: [{ artifactBundleId: bundleId, status: "archived" }]
        })
      }
      const [existing] = yield* sql<{ id: string }>`
        SELECT id FROM bundle_files WHERE artifact_bundle_id = ${bundleId} AND path = ${path} AND status = 'active'`
      if (!existing) {
        const [created] = yield* createFiles(bundle, [file], options.source, owner.apiKeyId)
        return created!
      }
      yield* store.putContents(bundleId, [file])
      return yield* appendToFile(owner.apiKeyId, bundle, existing.id, (latest) =>
        Effect.succeed({
          source: options.source,
          contentHash: file.contentHash,
          sizeBytes: file.sizeBytes,
          restoredFromVersionId: null,
          message: options.message,
          mediaType: latest.mediaType,
          detectedLanguage: latest.detectedLanguage
        }))
    }, (effect) => sql.withTransaction(effect), Effect.catchTag("SqlError", Effect.die))

    /**
     * One statement and no transaction, on the hottest route (API-key pulls): no span of its own, the
     * request span (with its route) is this use case's (docs/decisions.md, "Logging and tracing").
     */
    const getFile = Effect.fnUntraced(function*(actor: Actor, bundleId: string, fileId: string) {
      const row = yield* guarded<FileRow & VersionRow & { versionId: string; content: string }>(
        bundleId,
        sql`SELECT ${sql.literal(fileColumns)}, lv.id AS version_id, lv.version_number, lv.artifact_bundle_version_number,
                   lv.file_path, lv.source, lv.parent_version_id, lv.restored_from_version_id, lv.message,
                   lv.created_at AS version_created_at, c.content
            FROM ${sql.literal(fileFrom)}
            JOIN file_contents c ON c.artifact_bundle_id = lv.artifact_bundle_id AND c.content_hash = lv.content_hash
            WHERE f.id = ${fileId} AND f.artifact_bundle_id = ${bundleId} AND b.user_id = ${actor.userId}
              AND f.status = 'active'`
      )
      if (!row) return yield* NotFound.of("File")
      const r = row as any
      const version: FileVersion = toVersion({
        ...row,
        id: r.versionId,
        fileId: row.id,
        createdAt: r.versionCreatedAt
      })
      return { file: toFile(row), version, content: row.content }
    })

    /** Appends a version to an active file; the caller holds the bundle lock. */
    const appendToFile = (
      apiKeyId: string | null,
      bundle: BundleRow,
      fileId: string,
      next: (latest: VersionRow) => Effect.Effect<Omit<NewVersion, "fileId" | "versionNumber" | "path" | "parentVersionId">, NotFound>
    ) =>
      Effect.gen(function*() {
        const [latest] = yield* sql<VersionRow>`
          SELECT ${sql.literal(versionColumns)} FROM bundle_files f
          JOIN file_versions v ON v.file_id = f.id AND v.version_number = f.latest_version_number
          WHERE f.id = ${fileId} AND f.artifact_bundle_id = ${bundle.id} AND f.status = 'active'`
        if (!latest) return yield* NotFound.of("File")
        const fields = yield* next(latest)
        const [versionId] = yield* store.appendVersions(bundle.id, bundle.versionCount, [{
          ...fields,
          fileId,
          versionNumber: latest.versionNumber + 1,
          path: latest.filePath,
          parentVersionId: latest.id
        }], apiKeyId)
        const [result] = yield* fileWithVersions(bundle.id, [fileId], [versionId])
        return result
      })

    /** PUT: the content as the next version (mediaType carries over unless given). */
    const writeFile = Effect.fn("Files.write")(function*(
      actor: Actor,
      bundleId: string,
      fileId: string,
      content: string,
      options: WriteOptions = {}
    ) {
      const details: Array<ErrorDetail> = []
      const issue = contentProblem(content, limits.maxFileBytes)
      if (issue) details.push({ path: "content", message: issue })
      details.push(...checkMediaType(options.mediaType, "mediaType"))
      if (details.length > 0) return yield* validationError(details)
      yield* owned(actor, bundleId)
      const { contentHash, sizeBytes } = digest(content)
      return yield* Effect.gen(function*() {
        const bundle = yield* lockWritable(actor, bundleId)
        return yield* appendToFile(apiKeyIdOf(actor), bundle, fileId, (latest) =>
          Effect.as(store.putContents(bundleId, [{ contentHash, sizeBytes, content }]).pipe(Effect.orDie), {
            source: options.source ?? "edit",
            contentHash,
            sizeBytes,
            restoredFromVersionId: null,
            message: options.message ?? null,
            mediaType: options.mediaType ?? latest.mediaType,
            detectedLanguage: latest.detectedLanguage
          }))
      }).pipe(sql.withTransaction, conflictOnDuplicate("A concurrent change conflicted with this one; retry."))
    })

    /** Soft delete: the path is free again; the versions stay as history. */
    const deleteFile = Effect.fn("Files.delete")(function*(actor: Actor, bundleId: string, fileId: string) {
      yield* owned(actor, bundleId)
      return yield* Effect.gen(function*() {
        const bundle = yield* lockWritable(actor, bundleId)
        const deleted = yield* sql`
          UPDATE bundle_files SET status = 'deleted', deleted_at = clock_timestamp(), updated_at = clock_timestamp(),
                 deleted_bundle_version_number = ${bundle.versionCount}
          WHERE id = ${fileId} AND artifact_bundle_id = ${bundleId} AND status = 'active'
          RETURNING id`
        if (deleted.length === 0) return yield* NotFound.of("File")
        yield* refresh(bundleId)
        const [file] = yield* store.filesByIds(bundleId, [fileId])
        return toFile(file)
      }).pipe(sql.withTransaction, conflictOnDuplicate("A concurrent change conflicted with this one; retry."))
    })

    // ---- versions --------------------------------------------------------------------------------

    /** Active file of the caller's bundle, or 404. Version routes of deleted files are 404 too. */
    const activeFileOf = (actor: Actor, bundleId: string, fileId: string) =>
      Effect.gen(function*() {
        const row = yield* guarded<{ id: string }>(
          bundleId,
          sql`SELECT f.id FROM bundle_files f JOIN artifact_bundles b ON b.id = f.artifact_bundle_id
              WHERE f.id = ${fileId} AND f.artifact_bundle_id = ${bundleId} AND b.user_id = ${actor.userId}
                AND f.status = 'active'`
        )
        if (!row) return yield* NotFound.of("File")
      })

    const keysetPage = (cursor: string | undefined, page: Page) =>
      Effect.map(cursor === undefined ? Effect.succeed(undefined) : decodeCursor(cursor), (before) => ({
        before,
        offset: before === undefined ? page.offset : 0
      }))

    const listFileVersions = Effect.fn("Versions.listFile")(function*(
      actor: Actor,
      bundleId: string,
      fileId: string,
      page: Page,
      cursor: string | undefined
    ) {
      const { before, offset } = yield* keysetPage(cursor, page)
      yield* activeFileOf(actor, bundleId, fileId)
      const rows = yield* sql<VersionRow>`
        SELECT ${sql.literal(versionColumns)} FROM file_versions v
        WHERE v.file_id = ${fileId} ${before === undefined ? sql`` : sql`AND v.version_number < ${before}`}
        ORDER BY v.version_number DESC
        LIMIT ${page.limit + 1} OFFSET ${offset}`.pipe(Effect.orDie)
      const { items, pagination } = paginate(rows, { limit: page.limit, offset }, (last) => encodeCursor(last.versionNumber))
      return { versions: items.map(toVersion), pagination }
    })

    const getFileVersion = Effect.fn("Versions.getFile")(function*(
      actor: Actor,
      bundleId: string,
      fileId: string,
      versionNumber: number
    ) {
      yield* activeFileOf(actor, bundleId, fileId)
      const [row] = yield* sql<VersionRow & { content: string }>`
        SELECT ${sql.literal(versionColumns)}, c.content FROM file_versions v
        JOIN file_contents c ON c.artifact_bundle_id = v.artifact_bundle_id AND c.content_hash = v.content_hash
        WHERE v.file_id = ${fileId} AND v.version_number = ${versionNumber}`.pipe(Effect.orDie)
      if (!row) return yield* NotFound.of("File version")
      return { version: toVersion(row), content: row.content }
    })

    const restoreFileVersion = Effect.fn("Versions.restoreFile")(function*(
      actor: Actor,
      bundleId: string,
      fileId: string,
      versionNumber: number,
      message: string | undefined
    ) {
      yield* owned(actor, bundleId)
      return yield* Effect.gen(function*() {
        const bundle = yield* lockWritable(actor, bundleId)
        return yield* appendToFile(apiKeyIdOf(actor), bundle, fileId, () =>
          Effect.gen(function*() {
            const [target] = yield* sql<VersionRow>`
              SELECT ${sql.literal(versionColumns)} FROM file_versions v
              WHERE v.file_id = ${fileId} AND v.version_number = ${versionNumber}`.pipe(Effect.orDie)
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

    const listBundleVersions = Effect.fn("Versions.listBundle")(function*(
      actor: Actor,
      bundleId: string,
      page: Page,
      cursor: string | undefined
    ) {
      const { before, offset } = yield* keysetPage(cursor, page)
      yield* owned(actor, bundleId)
      const rows = yield* sql<VersionRow>`
        SELECT ${sql.literal(versionColumns)} FROM file_versions v
        WHERE v.artifact_bundle_id = ${bundleId}
          ${before === undefined ? sql`` : sql`AND v.artifact_bundle_version_number < ${before}`}
        ORDER BY v.artifact_bundle_version_number DESC
        LIMIT ${page.limit + 1} OFFSET ${offset}`.pipe(Effect.orDie)
      const { items, pagination } = paginate(
        rows,
        { limit: page.limit, offset },
        (last) => encodeCursor(last.artifactBundleVersionNumber)
      )
      return { versions: items.map(toEvent), pagination }
    })

    /**
     * Restores the bundle to the state right after event `versionNumber`: every file that existed then
     * and is still active gets a new `restore` version with its content of that moment. Files created
     * after it, and files deleted since, are reported in skippedFiles (file_missing_or_deleted).
     */
    const restoreBundle = Effect.fn("Versions.restoreBundle")(function*(
      actor: Actor,
      bundleId: string,
      versionNumber: number,
      message: string | undefined
    ) {
      yield* owned(actor, bundleId)
      return yield* Effect.gen(function*() {
        const bundle = yield* lockWritable(actor, bundleId)
        if (versionNumber > bundle.versionCount) return yield* NotFound.of("Bundle version")
        const rows = yield* sql<{
          id: string
          path: string
          status: string
          createdBundleVersionNumber: number
          deletedBundleVersionNumber: number | null
          latestVersionNumber: number
          latestVersionId: string
          targetId: string | null
          targetVersionNumber: number | null
          targetContentHash: string | null
          targetSizeBytes: number | null
          targetMediaType: string | null
          targetDetectedLanguage: string | null
        }>`
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
          ORDER BY f.path, f.created_bundle_version_number`
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
        const [row] = yield* sql<BundleRow>`SELECT ${sql.literal(bundleColumns)} FROM artifact_bundles b WHERE b.id = ${bundleId}`
        const [artifactBundle] = yield* store.hydrate([row])
        return {
          artifactBundle: artifactBundle as ArtifactBundle,
          restoredFiles,
          skippedFiles,
          restoredFromArtifactBundleVersionNumber: versionNumber
        }
      }).pipe(sql.withTransaction, conflictOnDuplicate("A concurrent change conflicted with this one; retry."))
    })

    return {
      create,
      list,
      get,
      update,
      archive,
      unarchive,
      deletePermanently,
      listFiles,
      upload,
      getFile,
      writeFile,
      writeGenerated,
      deleteFile,
      listFileVersions,
      getFileVersion,
      restoreFileVersion,
      listBundleVersions,
      restoreBundle
    } as const
  })
}) {}
