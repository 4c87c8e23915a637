/**
 * What every use case over a user's bundle shares: the bundle the caller owns (404 otherwise, counted
 * against the bundle's rate limit), its lock for a change (archived bundles are read-only), the
 * bundle's derived columns after a change, and appending a file's next version. Bundles.ts, Files.ts
 * and Versions.ts are the use cases; every change runs in one transaction that first locks the bundle row.
 */
import * as SqlError from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import { Effect } from "effect"
import type { Actor } from "../auth/CurrentActor.js"
import { AppConfig, type AppConfigShape } from "../config/AppConfig.js"
import { pgArray } from "../db/Database.js"
import { rowsOf } from "../db/Query.js"
import { Conflict, NotFound, type RateLimitExceeded } from "../domain/Errors.js"
import type { BundleId, FileId, VersionId } from "../domain/Ids.js"
import { countedRowsOf, type CountedRows, countedSelect } from "../limits/RateLimiter.js"
import {
  choosePrimary,
  
  
  
  inferType,
  
  
  
  skillFoldersOf
} from "./Detect.js"
import { BundleRow, bundleColumns, BundleStore, FileRow, type NewVersion, toFile, toVersion, type VersionRow, VersionRows, versionColumns } from "./Store.js"
import { buildTree } from "./Tree.js"

const isUniqueViolation = (error: unknown) =>
  error instanceof SqlError.SqlError && (error.cause as { code?: string } | undefined)?.code === "23505"

/** A unique violation inside `effect` is a 409; any other database failure is a defect. */
export const conflictOnDuplicate = (message: string) =>
<A, E, R>(effect: Effect.Effect<A, E | SqlError.SqlError, R>): Effect.Effect<A, Exclude<E, SqlError.SqlError> | Conflict, R> =>
  effect.pipe(
    Effect.catchIf(isUniqueViolation, () => Effect.fail(new Conflict({ message, details: [] }))),
    Effect.catchIf(
      (e): e is SqlError.SqlError => e instanceof SqlError.SqlError,
      (e) => Effect.die(e)
    )
  ) as any

const CountedBundleRows = countedRowsOf("counted bundle", BundleRow)
const ActivePathRows = rowsOf("active path", FileRow.pick("id", "path", "artifactType"))

/** Who may read or change a bundle: its owner, within the bundle's rate limit; a change only while it is active. */
const makeGuards = (store: BundleStore, limits: AppConfigShape["limits"]) => {
  const sql = store.sql
  const rows = store.run

  /** `select` (the caller's bundle or file), counted against the bundle's rate limit in the same statement. */
  const guarded = <A extends object>(
    bundleId: BundleId,
    counted: CountedRows<A>,
    select: Statement.Fragment
  ): Effect.Effect<A | undefined, RateLimitExceeded> =>
    countedSelect(sql, rows, counted, { key: `bundle:${bundleId}`, limit: limits.rateLimitBundlePerMinute, label: "bundle" }, select)

  /** The caller's bundle (404 otherwise), counted against the bundle's rate limit. */
  const owned = (actor: Actor, bundleId: BundleId) =>
    Effect.gen(function*() {
      const row = yield* guarded(
        bundleId,
        CountedBundleRows,
        sql`SELECT ${sql.literal(bundleColumns)} FROM artifact_bundles b WHERE b.id = ${bundleId} AND b.user_id = ${actor.userId}`
      )
      if (!row) return yield* NotFound.of("Artifact bundle")
      return row
    })

  /** Inside a transaction: lock the caller's bundle; archived bundles are read-only (409). */
  const lockWritable = (actor: Actor, bundleId: BundleId) =>
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

  return { guarded, owned, lockWritable } as const
}

/** What a change does under the bundle lock (derived columns, a file's next version) and what it answers. */
const makeChanges = (store: BundleStore) => {
  const sql = store.sql
  const rows = store.run

  /** Inside the bundle lock: artifact types, primary file and fileCount from the current active paths. */
  const refresh = (bundleId: BundleId) =>
    Effect.gen(function*() {
      const active = yield* rows(ActivePathRows, sql`
        SELECT id, path, artifact_type FROM bundle_files WHERE artifact_bundle_id = ${bundleId} AND status = 'active'`)
      const skillFolders = skillFoldersOf(active.map((r) => r.path))
      const changed = active.flatMap((r) => {
        const type = inferType(r.path, skillFolders)
        return type === r.artifactType ? [] : [{ id: r.id, type }]
      })
      if (changed.length > 0) {
        yield* sql`
          UPDATE bundle_files f SET artifact_type = t.type
          FROM unnest(${pgArray(changed.map((c) => c.id))}::uuid[], ${pgArray(changed.map((c) => c.type))}::text[]) AS t(id, type)
          WHERE f.id = t.id`
      }
      const primary = choosePrimary(active)
      yield* sql`UPDATE artifact_bundles SET file_count = ${active.length}, primary_file_id = ${primary?.id ?? null},
                 updated_at = clock_timestamp() WHERE id = ${bundleId}`
    })

  const detailOf = (userId: string, bundleId: BundleId) =>
    Effect.gen(function*() {
      const row = yield* store.findBundle(userId, bundleId)
      const [bundle] = yield* store.hydrate([row!])
      const files = (yield* store.activeFiles(bundleId)).map(toFile)
      return { artifactBundle: bundle, files, tree: buildTree(files) }
    })

  const fileWithVersions = (bundleId: BundleId, fileIds: ReadonlyArray<FileId>, versionIds: ReadonlyArray<VersionId>) =>
    Effect.gen(function*() {
      const files = new Map((yield* store.filesByIds(bundleId, fileIds)).map((f) => [f.id, toFile(f)]))
      const versions = new Map((yield* store.versionsByIds(versionIds)).map((v) => [v.id, toVersion(v)]))
      return fileIds.map((id, i) => ({ file: files.get(id)!, version: versions.get(versionIds[i])! }))
    })

  /** Appends a version to an active file; the caller holds the bundle lock. */
  const appendToFile = (
    apiKeyId: string | null,
    bundle: BundleRow,
    fileId: FileId,
    next: (latest: VersionRow) => Effect.Effect<Omit<NewVersion, "fileId" | "versionNumber" | "path" | "parentVersionId">, NotFound>
  ) =>
    Effect.gen(function*() {
      const [latest] = yield* rows(VersionRows, sql`
        SELECT ${sql.literal(versionColumns)} FROM bundle_files f
        JOIN file_versions v ON v.file_id = f.id AND v.version_number = f.latest_version_number
        WHERE f.id = ${fileId} AND f.artifact_bundle_id = ${bundle.id} AND f.status = 'active'`)
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

  return { refresh, detailOf, fileWithVersions, appendToFile } as const
}

export class BundleAccess extends Effect.Service<BundleAccess>()("rubr/BundleAccess", {
  dependencies: [BundleStore.Default],
  effect: Effect.gen(function*() {
    const store = yield* BundleStore
    const sql = store.sql
    const limits = (yield* AppConfig).limits
    return { store, sql, limits, ...makeGuards(store, limits), ...makeChanges(store) } as const
  })
}) {}
