/**
 * Target selection, shared by audits and conversions: which file versions are the input.
 *
 *   targetFileId + targetVersionNumber  → that file version, with the bundle as it was at that version
 *   targetFileId alone                  → that file's latest version
 *   artifactBundleVersionNumber alone   → the file version of that bundle version event, with the bundle as it was then
 *   nothing                             → the current state: the primary file with the others as context, or,
 *                                         with no primary, every current file under review (bundle mode)
 *   targetMode "bundle"                 → every file under review (the current state, or the bundle as it was at
 *                                         artifactBundleVersionNumber), main artifact or not
 *   targetMode "file"                   → as nothing, but a bundle without a main artifact is a 409
 *
 * Soft-deleted files are never input (they disappear from audits and conversions); a deleted target is 404.
 * A kind may leave files of some artifact types out of its input (conversions never read rubr_flow
 * files: they are outputs): an excluded file named as the target is a 409, and an excluded primary
 * file makes the current state bundle mode over the remaining files.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Schema } from "effect"
import { PgPool } from "../db/Database.js"
import { makeRows, type Rows, rowsOf } from "../db/Query.js"
import { BundleId, FileId, VersionId } from "../domain/Ids.js"
import { Conflict, NotFound, ValidationFailed } from "../domain/Errors.js"
import type { ArtifactType } from "../domain/Artifact.js"
import { sha256Tag } from "../domain/ContentHash.js"

export interface TargetRequest {
  readonly targetFileId?: string | undefined
  readonly targetVersionNumber?: number | undefined
  readonly artifactBundleVersionNumber?: number | undefined
  readonly targetMode?: "file" | "bundle" | undefined
}

export interface InputFile extends SnapshotRow {
  readonly isPrimary: boolean
  readonly underReview: boolean
}

/** The bundle's columns a run reads, its JSON settings as text (parsed by `headOf`). */
const HeadRow = Schema.Struct({
  id: BundleId,
  name: Schema.String,
  userId: Schema.String,
  status: Schema.String,
  primaryFileId: Schema.NullOr(FileId),
  versionCount: Schema.Number,
  settingsJson: Schema.String,
  customRubricJson: Schema.String
})
type HeadRow = typeof HeadRow.Type
const HeadRows = rowsOf("bundle head", HeadRow)

export interface BundleHead extends Omit<HeadRow, "settingsJson" | "customRubricJson"> {
  readonly settings: Record<string, unknown>
  readonly customRubric: unknown
}

export interface ResolveOptions {
  /** how the refusal messages name the work: "audited", "converted" */
  readonly verb: string
  /** artifact types this kind never takes as input */
  readonly excludeTypes?: ReadonlyArray<string>
}

export interface ResolvedTarget {
  readonly bundle: BundleHead
  readonly mode: "file" | "bundle"
  readonly target: InputFile | null
  readonly files: ReadonlyArray<InputFile>
  readonly artifactBundleVersionNumber: number
  readonly inputVersionIds: ReadonlyArray<VersionId>
  readonly inputHash: string
}

/** The target as the estimate and start routes describe it. */
export const targetDescription = (resolved: ResolvedTarget) => ({
  artifactBundleId: resolved.bundle.id,
  targetMode: resolved.mode,
  targetFileId: resolved.target?.fileId ?? null,
  targetFilePath: resolved.target?.path ?? null,
  targetFileVersionId: resolved.target?.fileVersionId ?? null,
  targetFileVersionNumber: resolved.target?.versionNumber ?? null,
  artifactBundleVersionNumber: resolved.artifactBundleVersionNumber,
  inputVersionIds: [...resolved.inputVersionIds],
  inputHash: resolved.inputHash
})
export type TargetDescription = ReturnType<typeof targetDescription>

/** sha256 over the exact input versions: one `versionId:contentHash` line each, sorted. */
export const inputHashOf = (files: ReadonlyArray<{ fileVersionId: string; contentHash: string }>) =>
  sha256Tag(files.map((f) => `${f.fileVersionId}:${f.contentHash}`).sort().join("\n"))

const typePrecedence: ReadonlyArray<string> = ["skill", "agent", "rubr_flow", "workflow", "command", "prompt"]

/** Bundle mode has no single artifact: the most common file type wins, ties by precedence. */
export const dominantArtifactType = (files: ReadonlyArray<{ artifactType: string }>): ArtifactType => {
  const counts = new Map<string, number>()
  for (const f of files) if (typePrecedence.includes(f.artifactType)) counts.set(f.artifactType, (counts.get(f.artifactType) ?? 0) + 1)
  let best: string = "prompt"
  let bestCount = 0
  for (const type of typePrecedence) {
    const n = counts.get(type) ?? 0
    if (n > bestCount) {
      best = type
      bestCount = n
    }
  }
  return best as ArtifactType
}

/** One input file at one version, with its content: what a run reads (audits read theirs back by version id). */
export const SnapshotRow = Schema.Struct({
  fileId: FileId,
  path: Schema.String,
  artifactType: Schema.String,
  fileVersionId: VersionId,
  versionNumber: Schema.Number,
  artifactBundleVersionNumber: Schema.Number,
  contentHash: Schema.String,
  content: Schema.String
})
export type SnapshotRow = typeof SnapshotRow.Type
const SnapshotRows = rowsOf("input file", SnapshotRow)
/** the bundle with each current file beside it (the file's columns null when the bundle has none) */
const HeadWithCurrentRows = rowsOf("bundle head with file", Schema.Struct({
  ...HeadRow.fields,
  fileId: Schema.NullOr(FileId),
  path: Schema.NullOr(Schema.String),
  artifactType: Schema.NullOr(Schema.String),
  fileVersionId: Schema.NullOr(VersionId),
  versionNumber: Schema.NullOr(Schema.Number),
  artifactBundleVersionNumber: Schema.NullOr(Schema.Number),
  contentHash: Schema.NullOr(Schema.String),
  content: Schema.NullOr(Schema.String)
}))
const VersionAtRows = rowsOf("version at", Schema.Struct({
  ...SnapshotRow.pick("fileId", "versionNumber", "artifactBundleVersionNumber").fields,
  status: Schema.String
}))

const headOf = (row: HeadRow): BundleHead => ({
  id: row.id,
  name: row.name,
  userId: row.userId,
  status: row.status,
  primaryFileId: row.primaryFileId,
  versionCount: row.versionCount,
  settings: JSON.parse(row.settingsJson),
  customRubric: JSON.parse(row.customRubricJson)
})

/** What a request cannot combine, whatever the bundle holds. */
const checkRequest = (request: TargetRequest) =>
  Effect.gen(function*() {
    if (request.targetVersionNumber !== undefined && request.targetFileId === undefined) {
      return yield* ValidationFailed.at("targetVersionNumber", "needs targetFileId")
    }
    if (request.artifactBundleVersionNumber !== undefined && request.targetFileId !== undefined) {
      return yield* ValidationFailed.of(
        "Select the target either by targetFileId (+ targetVersionNumber) or by artifactBundleVersionNumber, not both.",
        [{ path: "artifactBundleVersionNumber", message: "cannot be combined with targetFileId" }]
      )
    }
    if (request.targetMode === "bundle" && request.targetFileId !== undefined) {
      return yield* ValidationFailed.of(
        "targetMode bundle puts every file under review; it cannot be combined with targetFileId.",
        [{ path: "targetMode", message: "cannot be bundle with targetFileId" }]
      )
    }
  })

/** The resolved target: `targetFileId` under review (null: every file), the other files beside it as context. */
const finish = (bundle: BundleHead, rows: ReadonlyArray<SnapshotRow>, targetFileId: FileId | null, n: number) => {
  const files: Array<InputFile> = rows.map((r) => ({
    ...r,
    isPrimary: r.fileId === bundle.primaryFileId,
    underReview: targetFileId === null || r.fileId === targetFileId
  }))
  const target = targetFileId === null ? null : files.find((f) => f.fileId === targetFileId) ?? null
  return {
    bundle,
    mode: targetFileId === null ? "bundle" as const : "file" as const,
    target,
    files,
    artifactBundleVersionNumber: n,
    inputVersionIds: files.map((f) => f.fileVersionId),
    inputHash: inputHashOf(files)
  } satisfies ResolvedTarget
}

/** The bundle head a run reads: alone, or with every current file beside it. */
const makeHeadReads = (sql: PgClient.PgClient, rows: Rows) => {
  /** The bundle's columns both reads select, its JSON settings as text (parsed by `headOf`). */
  const headColumns = sql.literal(`b.id, b.name, b.user_id, b.status, b.primary_file_id, b.version_count,
    b.settings::text AS settings_json, b.custom_rubric::text AS custom_rubric_json`)

  const bundleHead = (userId: string, bundleId: BundleId) =>
    rows(HeadRows, sql`SELECT ${headColumns} FROM artifact_bundles b WHERE b.id = ${bundleId} AND b.user_id = ${userId}`).pipe(
      Effect.orDie,
      Effect.map((rows) => (rows[0] ? headOf(rows[0]) : undefined))
    )

  /**
   * The bundle and every active file at its latest version, in one statement (the common start: no
   * version selected): a row per file with the bundle's columns beside it, or one row with no file
   * when the bundle has none; no row when it is not the user's.
   */
  const headWithCurrent = (userId: string, bundleId: BundleId) =>
    rows(HeadWithCurrentRows, sql`
      SELECT ${headColumns}, cur.file_id, cur.path, cur.artifact_type, cur.file_version_id, cur.version_number,
             cur.artifact_bundle_version_number, cur.content_hash, cur.content
      FROM artifact_bundles b
      LEFT JOIN LATERAL (
        SELECT f.id AS file_id, f.path, f.artifact_type, v.id AS file_version_id, v.version_number,
               v.artifact_bundle_version_number, v.content_hash, c.content
        FROM bundle_files f
        JOIN file_versions v ON v.file_id = f.id AND v.version_number = f.latest_version_number
        JOIN file_contents c ON c.artifact_bundle_id = v.artifact_bundle_id AND c.content_hash = v.content_hash
        WHERE f.artifact_bundle_id = b.id AND f.status = 'active'
      ) cur ON true
      WHERE b.id = ${bundleId} AND b.user_id = ${userId}
      ORDER BY cur.path`).pipe(
      Effect.orDie,
      Effect.map((rows) => {
        if (!rows[0]) return undefined
        const bundle = headOf(rows[0])
        const files: Array<SnapshotRow> = rows.filter((r) => r.fileId !== null).map((r) => ({
          fileId: r.fileId!,
          path: r.path!,
          artifactType: r.artifactType!,
          fileVersionId: r.fileVersionId!,
          versionNumber: r.versionNumber!,
          artifactBundleVersionNumber: r.artifactBundleVersionNumber!,
          contentHash: r.contentHash!,
          content: r.content!
        }))
        return { bundle, files }
      })
    )

  return { bundleHead, headWithCurrent } as const
}

/** File versions a run reads: the files as they were at a bundle version, one version, the admitted versions. */
const makeVersionReads = (sql: PgClient.PgClient, rows: Rows) => {
  /** The still-active files as they were at bundle version `n`. */
  const snapshot = (bundleId: BundleId, n: number) =>
    rows(SnapshotRows, sql`
      SELECT * FROM (
        SELECT DISTINCT ON (v.file_id) v.file_id, v.file_path AS path, f.artifact_type, v.id AS file_version_id,
               v.version_number, v.artifact_bundle_version_number, v.content_hash, c.content
        FROM file_versions v
        JOIN bundle_files f ON f.id = v.file_id AND f.status = 'active'
        JOIN file_contents c ON c.artifact_bundle_id = v.artifact_bundle_id AND c.content_hash = v.content_hash
        WHERE v.artifact_bundle_id = ${bundleId} AND v.artifact_bundle_version_number <= ${n}
        ORDER BY v.file_id, v.artifact_bundle_version_number DESC
      ) s ORDER BY path`).pipe(Effect.orDie)

  const versionOf = (bundleId: BundleId, where: { fileId: FileId; versionNumber: number } | { event: number }) =>
    ("event" in where
      ? rows(VersionAtRows, sql`
          SELECT v.file_id, v.version_number, v.artifact_bundle_version_number, f.status FROM file_versions v
          JOIN bundle_files f ON f.id = v.file_id
          WHERE v.artifact_bundle_id = ${bundleId} AND v.artifact_bundle_version_number = ${where.event}`)
      : rows(VersionAtRows, sql`
          SELECT v.file_id, v.version_number, v.artifact_bundle_version_number, f.status FROM file_versions v
          JOIN bundle_files f ON f.id = v.file_id
          WHERE v.artifact_bundle_id = ${bundleId} AND v.file_id = ${where.fileId} AND v.version_number = ${where.versionNumber}`)
    ).pipe(Effect.orDie, Effect.map((rows) => rows[0]))

  /** Reads input versions back by id (the worker re-reads exactly what was admitted). */
  const loadVersions = Effect.fn("Targets.loadVersions")(function*(bundleId: BundleId, versionIds: ReadonlyArray<VersionId>) {
    return yield* rows(SnapshotRows, sql`
      SELECT v.file_id, v.file_path AS path, f.artifact_type, v.id AS file_version_id, v.version_number,
             v.artifact_bundle_version_number, v.content_hash, c.content
      FROM file_versions v
      JOIN bundle_files f ON f.id = v.file_id
      JOIN file_contents c ON c.artifact_bundle_id = v.artifact_bundle_id AND c.content_hash = v.content_hash
      WHERE v.artifact_bundle_id = ${bundleId} AND v.id IN ${sql.in(versionIds)}
      ORDER BY v.file_path`).pipe(Effect.orDie)
  })

  return { snapshot, versionOf, loadVersions } as const
}

/** The target selection the module comment describes, over the bundle head and its file versions. */
const makeResolve = (
  { bundleHead, headWithCurrent }: ReturnType<typeof makeHeadReads>,
  { snapshot, versionOf }: ReturnType<typeof makeVersionReads>
) =>
  Effect.fn("Targets.resolve")(function*(
    userId: string,
    bundleId: BundleId,
    request: TargetRequest,
    options: ResolveOptions
  ) {
    const excluded = (row: { artifactType: string }) => options.excludeTypes?.includes(row.artifactType) ?? false
    const refuseExcluded = (row: { path: string; artifactType: string }) =>
      new Conflict({
        message: `${row.path} is a ${row.artifactType} file; it cannot be ${options.verb}. Select another file.`,
        details: [{ path: row.path, artifactType: row.artifactType }]
      })
    yield* checkRequest(request)
    const bundleMode = request.targetMode === "bundle"
    const selectsVersion = request.artifactBundleVersionNumber !== undefined || request.targetVersionNumber !== undefined
    // without a version selected, the bundle and its current files come in one statement
    const head = selectsVersion
      ? { bundle: yield* bundleHead(userId, bundleId), files: [] }
      : (yield* headWithCurrent(userId, bundleId)) ?? { bundle: undefined, files: [] }
    const bundle = head.bundle
    if (!bundle) return yield* NotFound.of("Artifact bundle")
    if (bundle.status === "archived") {
      return yield* new Conflict({
        message: `This artifact bundle is archived; archived bundles cannot be ${options.verb}.`,
        details: [{ artifactBundleId: bundleId, status: "archived" }]
      })
    }

    if (selectsVersion) {
      const where = request.artifactBundleVersionNumber !== undefined
        ? { event: request.artifactBundleVersionNumber }
        : { fileId: FileId.make(request.targetFileId!), versionNumber: request.targetVersionNumber! }
      const version = yield* versionOf(bundleId, where)
      if (!version) return yield* NotFound.of(request.artifactBundleVersionNumber !== undefined ? "Bundle version" : "File version")
      if (version.status !== "active") return yield* NotFound.of("File")
      const all = yield* snapshot(bundleId, version.artifactBundleVersionNumber)
      // the target is exactly the selected version, even if the file changed again at the same event count
      const targetRow = all.find((r) => r.fileId === version.fileId)
      if (!targetRow || targetRow.versionNumber !== version.versionNumber) return yield* NotFound.of("File version")
      if (bundleMode) return finish(bundle, all.filter((r) => !excluded(r)), null, version.artifactBundleVersionNumber)
      if (excluded(targetRow)) return yield* refuseExcluded(targetRow)
      return finish(bundle, all.filter((r) => !excluded(r)), version.fileId, version.artifactBundleVersionNumber)
    }

    const all = head.files
    const rows = all.filter((r) => !excluded(r))
    if (rows.length === 0) {
      return yield* new Conflict({
        message: all.length === 0
          ? `This artifact bundle has no files to be ${options.verb}; upload some first.`
          : `This artifact bundle has no files that can be ${options.verb} (only ${[...new Set(all.map((r) => r.artifactType))].join(", ")} files).`,
        details: []
      })
    }
    const n = Math.max(...all.map((r) => r.artifactBundleVersionNumber))
    if (request.targetFileId !== undefined) {
      const row = all.find((r) => r.fileId === request.targetFileId)
      if (!row) return yield* NotFound.of("File")
      if (excluded(row)) return yield* refuseExcluded(row)
      return finish(bundle, rows, row.fileId, n)
    }
    if (bundleMode) return finish(bundle, rows, null, n)
    const primary = bundle.primaryFileId && rows.some((r) => r.fileId === bundle.primaryFileId) ? bundle.primaryFileId : null
    if (primary === null && request.targetMode === "file") {
      return yield* new Conflict({
        message: `This artifact bundle has no main artifact to be ${options.verb}; name a file (targetFileId), or choose targetMode bundle.`,
        details: [{ targetMode: "file" }]
      })
    }
    return finish(bundle, rows, primary, n)
  })

export class Targets extends Effect.Service<Targets>()("rubr/Targets", {
  effect: Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const rows = makeRows(yield* PgPool)
    const heads = makeHeadReads(sql, rows)
    const versions = makeVersionReads(sql, rows)
    return { resolve: makeResolve(heads, versions), loadVersions: versions.loadVersions, bundleHead: heads.bundleHead } as const
  })
}) {}
