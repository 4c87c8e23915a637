/**
 * The use cases of a bundle's files: list, upload (all or none), read, write the next version, write a run's output, delete. Every version is immutable; a change appends one.
 */
import { Effect, Schema } from "effect"
import type { Actor } from "../auth/CurrentActor.js"
import { apiKeyIdOf } from "../auth/CurrentActor.js"
import { pgArray } from "../db/Database.js"
import { rowsOf } from "../db/Query.js"
import { type BundleId, FileId } from "../domain/Ids.js"
import { countedRowsOf } from "../limits/RateLimiter.js"
import { Conflict, type ErrorDetail, NotFound, ValidationFailed } from "../domain/Errors.js"
import { type Page, paginate } from "../http/Pagination.js"
import {
  
  contentProblem,
  detectLanguage,
  digest,
  inferType,
  mediaTypeFor,
  mediaTypeProblem,
  pathProblem,
  skillFoldersOf
} from "./Detect.js"
import type { FileVersion } from "./Schemas.js"
import { type BundleRow, fileColumns, fileFrom, FileRow, type NewVersion, toFile, toVersion, VersionRow } from "./Store.js"
import { buildTree } from "./Tree.js"
import { BundleAccess, conflictOnDuplicate } from "./Access.js"

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

const TakenPathRows = rowsOf("taken path", FileRow.pick("path"))
const NewFileRows = rowsOf("new file", FileRow.pick("id", "path"))
const FileIdRows = rowsOf("file id", FileRow.pick("id"))
/** a file, its latest version (the version's own id and timestamp beside the file's) and its content */
const CountedFileContent = countedRowsOf("file with content", Schema.Struct({
  ...FileRow.fields,
  ...VersionRow.pick("versionNumber", "artifactBundleVersionNumber", "filePath", "source", "parentVersionId", "restoredFromVersionId", "message").fields,
  versionId: VersionRow.fields.id,
  versionCreatedAt: Schema.DateFromSelf,
  content: Schema.String
}))

/** A file ready to store: its digest, language and media type (the given one, or the language's). */
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

/**
 * Inside the bundle lock: new files at free paths, each as version 1 from `source`, in one batch; the
 * bundle's file limit holds. Shared by an upload and a worker's output at a new path.
 */
const createFiles = (
  { store, sql, limits, refresh, fileWithVersions }: BundleAccess,
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
    const inserted = yield* store.run(NewFileRows, sql`
      INSERT INTO bundle_files (artifact_bundle_id, path, artifact_type, latest_version_number, created_bundle_version_number)
      SELECT ${bundleId}, t.path, t.type, 0, t.n
      FROM unnest(${pgArray(paths)}::text[], ${pgArray(paths.map((p) => inferType(p, skillFolders)))}::text[],
                  ${pgArray(paths.map((_, i) => bundle.versionCount + i + 1))}::int[]) AS t(path, type, n)
      RETURNING id, path`)
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

/** What a caller reads: the bundle's files (with their tree) and one file with its content. */
const makeFileReads = ({ store, sql, guarded, owned }: BundleAccess) => {
  const list = Effect.fn("Files.list")(function*(actor: Actor, bundleId: BundleId, page: Page) {
    yield* owned(actor, bundleId)
    const all = (yield* store.activeFiles(bundleId).pipe(Effect.orDie)).map(toFile)
    const { items, pagination } = paginate(all.slice(page.offset, page.offset + page.limit + 1), page)
    return { files: items, tree: buildTree(all), pagination }
  })

  /**
   * One statement and no transaction, on the hottest route (API-key pulls): no span of its own, the
   * request span (with its route) is this use case's (docs/decisions.md, "Logging and tracing").
   */
  const get = Effect.fnUntraced(function*(actor: Actor, bundleId: BundleId, fileId: FileId) {
    const row = yield* guarded(
      bundleId,
      CountedFileContent,
      sql`SELECT ${sql.literal(fileColumns)}, lv.id AS version_id, lv.version_number, lv.artifact_bundle_version_number,
                 lv.file_path, lv.source, lv.parent_version_id, lv.restored_from_version_id, lv.message,
                 lv.created_at AS version_created_at, c.content
          FROM ${sql.literal(fileFrom)}
          JOIN file_contents c ON c.artifact_bundle_id = lv.artifact_bundle_id AND c.content_hash = lv.content_hash
          WHERE f.id = ${fileId} AND f.artifact_bundle_id = ${bundleId} AND b.user_id = ${actor.userId}
            AND f.status = 'active'`
    )
    if (!row) return yield* NotFound.of("File")
    const version: FileVersion = toVersion({
      ...row,
      id: row.versionId,
      fileId: row.id,
      createdAt: row.versionCreatedAt
    })
    return { file: toFile(row), version, content: row.content }
  })

  return { list, get } as const
}

/** What a caller changes: upload new files, write a file's next version, delete a file. */
const makeFileWrites = (access: BundleAccess) => {
  const { store, sql, limits, owned, lockWritable, refresh, appendToFile } = access

  /** All files of one request land as version 1 in one transaction, or none does. */
  const upload = Effect.fn("Files.upload")(function*(actor: Actor, bundleId: BundleId, files: ReadonlyArray<UploadInput>) {
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
      const taken = yield* store.run(TakenPathRows, sql`
        SELECT path FROM bundle_files
        WHERE artifact_bundle_id = ${bundleId} AND status = 'active' AND path = ANY(${pgArray(paths)}::text[])
        ORDER BY path`)
      if (taken.length > 0) {
        return yield* new Conflict({
          message: `An active file already has ${taken.length === 1 ? "this path" : "these paths"}: ${taken.map((t) => t.path).join(", ")}. Use PUT to add a version.`,
          details: taken.map((t) => ({ path: t.path }))
        })
      }
      return yield* createFiles(access, bundle, prepared, "upload", apiKeyIdOf(actor))
    }).pipe(
      sql.withTransaction,
      conflictOnDuplicate("An active file with one of these paths was just created by another request.")
    )
  })
  /** PUT: the content as the next version (mediaType carries over unless given). */
  const write = Effect.fn("Files.write")(function*(
    actor: Actor,
    bundleId: BundleId,
    fileId: FileId,
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
  const remove = Effect.fn("Files.delete")(function*(actor: Actor, bundleId: BundleId, fileId: FileId) {
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

  return { upload, write, remove } as const
}

/** What a worker writes for the bundle's owner: a run's output. */
const makeGeneratedWrites = (access: BundleAccess) => {
  const { store, sql, limits, appendToFile } = access

  /**
   * Work output written by a worker for the bundle's owner (no request, no rate limit): a new version
   * of the active file at `path`, or the file's version 1 when no active file has that path. The bundle
   * must still be writable (archived: 409). Joins the caller's transaction when there is one.
   */
  const writeGenerated = Effect.fn("Files.writeGenerated")(function*(
    owner: { readonly userId: string; readonly apiKeyId: string | null },
    bundleId: BundleId,
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
    const [existing] = yield* store.run(FileIdRows, sql`
      SELECT id FROM bundle_files WHERE artifact_bundle_id = ${bundleId} AND path = ${path} AND status = 'active'`)
    if (!existing) {
      const [created] = yield* createFiles(access, bundle, [file], options.source, owner.apiKeyId)
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

  return { writeGenerated } as const
}

export class Files extends Effect.Service<Files>()("rubr/Files", {
  dependencies: [BundleAccess.Default],
  effect: Effect.gen(function*() {
    const access = yield* BundleAccess
    return { ...makeFileReads(access), ...makeFileWrites(access), ...makeGeneratedWrites(access) } as const
  })
}) {}
