/** The wire shapes of bundles, files, file versions, bundle version events and the file tree. */
import { Schema } from "effect"
import { NullableTimestamp, Pagination, Timestamp } from "../http/Envelope.js"

export const FileMetadata = Schema.Struct({
  mediaType: Schema.String,
  detectedLanguage: Schema.String,
  storageProvider: Schema.String
}).annotations({ identifier: "FileMetadata" })

export const FileRecord = Schema.Struct({
  id: Schema.UUID,
  artifactBundleId: Schema.UUID,
  path: Schema.String,
  artifactType: Schema.String,
  status: Schema.String,
  isPrimary: Schema.Boolean,
  sizeBytes: Schema.Int,
  contentHash: Schema.String,
  latestVersionNumber: Schema.Int,
  metadata: FileMetadata,
  deletedAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations({ identifier: "FileRecord" })
export type FileRecord = typeof FileRecord.Type

export const FileVersion = Schema.Struct({
  id: Schema.UUID,
  fileId: Schema.UUID,
  artifactBundleId: Schema.UUID,
  versionNumber: Schema.Int,
  artifactBundleVersionNumber: Schema.Int,
  path: Schema.String,
  source: Schema.String,
  contentHash: Schema.String,
  sizeBytes: Schema.Int,
  parentVersionId: Schema.NullOr(Schema.UUID),
  restoredFromVersionId: Schema.NullOr(Schema.UUID),
  message: Schema.NullOr(Schema.String),
  metadata: FileMetadata,
  createdAt: Timestamp
}).annotations({ identifier: "FileVersion" })
export type FileVersion = typeof FileVersion.Type

/** A file with its latest version and that version's content (the file read). */
export const FileContent = Schema.Struct({ file: FileRecord, version: FileVersion, content: Schema.String })

/** One page of a file's versions, newest first. */
export const FileVersionPage = Schema.Struct({ versions: Schema.Array(FileVersion), pagination: Pagination })

export const BundleVersionEvent = Schema.Struct({
  id: Schema.UUID,
  artifactBundleId: Schema.UUID,
  artifactBundleVersionNumber: Schema.Int,
  fileId: Schema.UUID,
  filePath: Schema.String,
  fileVersionNumber: Schema.Int,
  source: Schema.String,
  contentHash: Schema.String,
  sizeBytes: Schema.Int,
  parentVersionId: Schema.NullOr(Schema.UUID),
  message: Schema.NullOr(Schema.String),
  createdAt: Timestamp
}).annotations({ identifier: "BundleVersionEvent" })
export type BundleVersionEvent = typeof BundleVersionEvent.Type

export const ArtifactBundle = Schema.Struct({
  id: Schema.UUID,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  status: Schema.Literal("active", "archived"),
  activeVersionNumber: Schema.Int,
  customRubric: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  settings: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  primaryFile: Schema.NullOr(FileRecord),
  fileCount: Schema.Int,
  versionCount: Schema.Int,
  latestVersion: Schema.NullOr(BundleVersionEvent),
  archivedAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations({ identifier: "ArtifactBundle" })
export type ArtifactBundle = typeof ArtifactBundle.Type

export interface TreeNodeEncoded {
  readonly type: string
  readonly name: string
  readonly path: string
  readonly children?: ReadonlyArray<TreeNodeEncoded>
  readonly id?: string
  readonly artifactBundleId?: string
  readonly artifactType?: string
  readonly status?: string
  readonly language?: string
  readonly isPrimary?: boolean
  readonly sizeBytes?: number
}

export const TreeNode: Schema.Schema<TreeNodeEncoded> = Schema.Struct({
  type: Schema.String.annotations({ description: "folder or file" }),
  name: Schema.String,
  path: Schema.String,
  children: Schema.optional(Schema.Array(Schema.suspend((): Schema.Schema<TreeNodeEncoded> => TreeNode))),
  id: Schema.optional(Schema.UUID),
  artifactBundleId: Schema.optional(Schema.UUID),
  artifactType: Schema.optional(Schema.String),
  status: Schema.optional(Schema.String),
  language: Schema.optional(Schema.String),
  isPrimary: Schema.optional(Schema.Boolean),
  sizeBytes: Schema.optional(Schema.Int)
}).annotations({ identifier: "FileTreeNode" })

export const SkippedFile = Schema.Struct({
  fileId: Schema.UUID,
  path: Schema.String,
  reason: Schema.String
}).annotations({ identifier: "SkippedFile" })

export const FileWithVersion = Schema.Struct({ file: FileRecord, version: FileVersion })
export const UploadedFiles = Schema.Struct({ files: Schema.Array(FileWithVersion) })
