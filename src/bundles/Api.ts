/** The "Artifact bundles", "Files" and "Versions" routes of the contract. */
import { isRuleId } from "../review/rules/Rules.js"
import { IntFromString } from "../http/PageParams.js"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Authentication } from "../auth/Authentication.js"
import { Access, access } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"
import { Envelope, Pagination } from "../http/Envelope.js"
import { LimitOffsetParams } from "../http/PageParams.js"
import {
  ArtifactBundle,
  BundleVersionEvent,
  FileContent,
  FileRecord,
  FileVersion,
  FileVersionPage,
  FileWithVersion,
  SkippedFile,
  TreeNode,
  UploadedFiles
} from "./Schemas.js"

const strict = { parseOptions: { errors: "all", onExcessProperty: "error" } } as const


// ---- params ----------------------------------------------------------------------------------------

export const BundleIdParam = Schema.Struct({ artifactBundleId: Schema.UUID })
export const FileIdParams = Schema.Struct({ artifactBundleId: Schema.UUID, fileId: Schema.UUID })
export const VersionParams = Schema.Struct({
  artifactBundleId: Schema.UUID,
  fileId: Schema.UUID,
  versionNumber: IntFromString.pipe(Schema.greaterThanOrEqualTo(1)).annotations({ description: "a file version number, >= 1" })
})

export const BundleListParams = Schema.Struct({
  ...LimitOffsetParams.fields,
  status: Schema.optional(Schema.Literal("active", "archived", "all").annotations({
    description: "active, archived or all (default: all)"
  }))
})

export const KeysetParams = Schema.Struct({
  ...LimitOffsetParams.fields,
  cursor: Schema.optional(Schema.String.annotations({ description: "nextCursor of the previous page" }))
})

// ---- bodies ----------------------------------------------------------------------------------------

const Name = Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({ description: "1-200 characters" })
const Description = Schema.NullOr(Schema.String.pipe(Schema.maxLength(2000))).annotations({
  description: "up to 2000 characters; null clears it"
})
const Message = Schema.String.pipe(Schema.maxLength(2000)).annotations({ description: "up to 2000 characters" })

export const CreateBundle = Schema.Struct({
  name: Name,
  description: Schema.optional(Description),
  settings: Schema.optional(Schema.Struct({
    defaultRubricKey: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))),
    disabledRules: Schema.optional(
      Schema.Array(
        Schema.String.pipe(Schema.filter((id) => isRuleId(id) || `unknown rule id '${id}'; the rubrics guide lists them (SK-NAME-FOLDER, SK-CLAR-VAGUE, …)`))
      ).pipe(Schema.maxItems(200)).annotations({ description: "rule ids (SK-…) the mock reviewer does not report nor score for this bundle" })
    )
  }).annotations(strict))
}).annotations({ parseOptions: { errors: "all" } })

export const UpdateBundle = Schema.Struct({
  name: Schema.optional(Name),
  description: Schema.optional(Description)
}).annotations({
  ...strict,
  description: "Only name and description can change; any other field (status, primaryFile, settings, ...) is a 400."
})

export const UploadItem = Schema.Struct({
  path: Schema.String.annotations({ description: "relative POSIX path, 1-512 characters" }),
  content: Schema.String.annotations({ description: "UTF-8 text, at most 1 MiB" }),
  mediaType: Schema.optional(Schema.String),
  message: Schema.optional(Message)
}).annotations(strict)

export const UploadFiles = Schema.Struct({
  files: Schema.Array(UploadItem).pipe(Schema.minItems(1)).annotations({ description: "1-100 files" })
}).annotations(strict)

export const PutFile = Schema.Struct({
  content: Schema.String,
  mediaType: Schema.optional(Schema.String),
  message: Schema.optional(Message)
}).annotations(strict)

export const RestoreBundle = Schema.Struct({
  versionNumber: Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)).annotations({
    description: "the artifactBundleVersionNumber to restore"
  }),
  message: Schema.optional(Message)
}).annotations(strict)

export const RestoreFileVersion = Schema.NullOr(Schema.Struct({ message: Schema.optional(Message) }).annotations(strict))

// ---- groups ----------------------------------------------------------------------------------------

const bundleRead = access.scopes({ anyOf: ["artifact_bundles:read", "artifacts:pull"] })
const bundleWrite = access.scopes({ anyOf: ["artifact_bundles:write"] })
const fileRead = access.scopes({ anyOf: ["files:read", "artifacts:pull"] })
const fileWrite = access.scopes({ anyOf: ["files:write"] })

const BundleDetail = Schema.Struct({
  artifactBundle: ArtifactBundle,
  files: Schema.Array(FileRecord),
  tree: Schema.Array(TreeNode)
})

export class BundlesApi extends HttpApiGroup.make("artifactBundles")
  .add(
    HttpApiEndpoint.get("list", "/artifact-bundles")
      .setUrlParams(BundleListParams)
      .addSuccess(Envelope(Schema.Struct({ artifactBundles: Schema.Array(ArtifactBundle), pagination: Pagination })))
      .pipe(statuses(400, 401, 403, 429))
      .annotate(Access, bundleRead)
      .annotate(OpenApi.Summary, "List bundles")
      .annotate(
        OpenApi.Description,
        "The caller's bundles, newest first; only the owner can list them. `status` filters by `active`, `archived` or `all` (default `all`); " +
          "`limit` (default 50, 1-200) and `offset` page the list."
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/artifact-bundles")
      .setPayload(CreateBundle)
      .addSuccess(Envelope(Schema.Struct({ artifactBundle: ArtifactBundle })), { status: 201 })
      .pipe(statuses(400, 401, 403, 429))
      .annotate(Access, bundleWrite)
      .annotate(OpenApi.Summary, "Create a bundle")
      .annotate(
        OpenApi.Description,
        "Creates an active bundle owned by the caller, from `name` and optionally `description` and `settings`. " +
          "The main artifact (`primaryFile`) is detected by the service from uploaded files and cannot be set by a client."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/artifact-bundles/:artifactBundleId")
      .setPath(BundleIdParam)
      .addSuccess(Envelope(BundleDetail))
      .pipe(statuses(400, 401, 403, 404, 429))
      .annotate(Access, bundleRead)
      .annotate(OpenApi.Summary, "Get a bundle")
      .annotate(
        OpenApi.Description,
        "The bundle, its active files and their folder tree. Another user's bundle, like an unknown id, is 404."
      )
  )
  .add(
    HttpApiEndpoint.patch("update", "/artifact-bundles/:artifactBundleId")
      .setPath(BundleIdParam)
      .setPayload(UpdateBundle)
      .addSuccess(Envelope(BundleDetail))
      .pipe(statuses(400, 401, 403, 404, 409, 429))
      .annotate(Access, bundleWrite)
      .annotate(OpenApi.Summary, "Update a bundle")
      .annotate(
        OpenApi.Description,
        "Changes `name` and `description` only (`null` clears the description); any other field, such as `status`, `primaryFile` or `settings`, is 400. " +
          "An archived bundle rejects writes: 409."
      )
  )
  .add(
    HttpApiEndpoint.del("archive", "/artifact-bundles/:artifactBundleId")
      .setPath(BundleIdParam)
      .addSuccess(Envelope(Schema.Struct({ artifactBundle: ArtifactBundle })))
      .pipe(statuses(400, 401, 403, 404, 429))
      .annotate(Access, bundleWrite)
      .annotate(OpenApi.Summary, "Archive a bundle")
      .annotate(
        OpenApi.Description,
        "Archives the bundle (idempotent). Its files and versions stay stored and readable; an archived bundle rejects every write with 409. " +
          "`DELETE .../permanent` then removes it for good."
      )
  )
  .add(
    HttpApiEndpoint.post("unarchive", "/artifact-bundles/:artifactBundleId/unarchive")
      .setPath(BundleIdParam)
      .addSuccess(Envelope(Schema.Struct({ artifactBundle: ArtifactBundle })))
      .pipe(statuses(400, 401, 403, 404, 429))
      .annotate(Access, bundleWrite)
      .annotate(OpenApi.Summary, "Unarchive a bundle")
      .annotate(
        OpenApi.Description,
        "Makes an archived bundle active again (idempotent: an active bundle is answered unchanged), with its files and versions as they were; it accepts writes again."
      )
  )
  .add(
    HttpApiEndpoint.del("deletePermanently", "/artifact-bundles/:artifactBundleId/permanent")
      .setPath(BundleIdParam)
      .addSuccess(Envelope(Schema.Struct({
        artifactBundle: Schema.Struct({ id: Schema.UUID, deleted: Schema.Boolean })
      })))
      .pipe(statuses(400, 401, 403, 404, 409, 429))
      .annotate(Access, bundleWrite)
      .annotate(
        OpenApi.Description,
        "Removes an archived bundle with its files, versions and run history, irreversibly. 409 unless archived."
      )
      .annotate(OpenApi.Summary, "Delete an archived bundle permanently")
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Artifact bundles")
  .annotate(
    OpenApi.Description,
    "An artifact bundle is one artifact under review (a skill, agent, prompt, command, workflow or rubr_flow package) plus its related files: references, examples, tests, generated files and version history. " +
      "Bundles are scoped to their owner (another user's bundle is 404 `not_found`, never 403), `active` or `archived`; archived bundles reject writes."
  )
{}

export class FilesApi extends HttpApiGroup.make("files")
  .add(
    HttpApiEndpoint.get("list", "/artifact-bundles/:artifactBundleId/files")
      .setPath(BundleIdParam)
      .setUrlParams(LimitOffsetParams)
      .addSuccess(Envelope(Schema.Struct({
        files: Schema.Array(FileRecord),
        tree: Schema.Array(TreeNode),
        pagination: Pagination
      })))
      .pipe(statuses(400, 401, 403, 404, 429))
      .annotate(Access, fileRead)
      .annotate(OpenApi.Summary, "List files")
      .annotate(
        OpenApi.Description,
        "The bundle's active files by path (paged with `limit` and `offset`); the tree always covers every active file. " +
          "Soft-deleted files are not listed."
      )
  )
  .add(
    HttpApiEndpoint.post("upload", "/artifact-bundles/:artifactBundleId/files")
      .setPath(BundleIdParam)
      .setPayload(UploadFiles)
      .addSuccess(Envelope(UploadedFiles), { status: 201 })
      .pipe(statuses(400, 401, 403, 404, 409, 413, 429, 503))
      .annotate(Access, fileWrite)
      .annotate(OpenApi.Summary, "Upload files")
      .annotate(
        OpenApi.Description,
        "Uploads 1-100 new text files in one transaction: all land as version 1, or none does. A path already active, or an archived bundle, is a 409. " +
          "Size, content hash, media type and detected language are recorded. The main artifact is inferred from high-confidence file names " +
          "(SKILL.md, AGENTS.md, README.md, prompt.md, system.md, instructions.md, workflow.md, rubr_flow files); without a confident choice the bundle has none."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/artifact-bundles/:artifactBundleId/files/:fileId")
      .setPath(FileIdParams)
      .addSuccess(Envelope(FileContent))
      .pipe(statuses(400, 401, 403, 404, 429))
      .annotate(Access, fileRead)
      .annotate(OpenApi.Summary, "Read a file")
      .annotate(OpenApi.Description, "The active file's record, its latest version and its content.")
  )
  .add(
    HttpApiEndpoint.put("update", "/artifact-bundles/:artifactBundleId/files/:fileId")
      .setPath(FileIdParams)
      .setPayload(PutFile)
      .addSuccess(Envelope(FileWithVersion))
      .pipe(statuses(400, 401, 403, 404, 409, 413, 429, 503))
      .annotate(Access, fileWrite)
      .annotate(OpenApi.Summary, "Update a file")
      .annotate(
        OpenApi.Description,
        "Stores the content as the file's next version; earlier versions stay readable. An archived bundle is a 409."
      )
  )
  .add(
    HttpApiEndpoint.del("delete", "/artifact-bundles/:artifactBundleId/files/:fileId")
      .setPath(FileIdParams)
      .addSuccess(Envelope(Schema.Struct({ file: FileRecord })))
      .pipe(statuses(400, 401, 403, 404, 409, 429))
      .annotate(Access, fileWrite)
      .annotate(OpenApi.Summary, "Delete a file")
      .annotate(
        OpenApi.Description,
        "Soft-deletes the file: it disappears from lists, reads, audits and conversions, its path is free again, and its versions stay as history."
      )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Files")
  .annotate(
    OpenApi.Description,
    "The text files of a bundle. Every file keeps an immutable version history: an upload is version 1 and each change is the next version. " +
      "A path is unique among the bundle's active files and reusable after a soft delete. " +
      "The main artifact is chosen by the service, never by a client."
  )
{}

export class VersionsApi extends HttpApiGroup.make("versions")
  .add(
    HttpApiEndpoint.get("listBundleVersions", "/artifact-bundles/:artifactBundleId/versions")
      .setPath(BundleIdParam)
      .setUrlParams(KeysetParams)
      .addSuccess(Envelope(Schema.Struct({ versions: Schema.Array(BundleVersionEvent), pagination: Pagination })))
      .pipe(statuses(400, 401, 403, 404, 429))
      .annotate(Access, bundleRead)
      .annotate(OpenApi.Summary, "List bundle versions")
      .annotate(
        OpenApi.Description,
        "Bundle version events (one per file version written in the bundle), newest first; `cursor` takes the previous page's `nextCursor`."
      )
  )
  .add(
    HttpApiEndpoint.post("restoreBundle", "/artifact-bundles/:artifactBundleId/restore")
      .setPath(BundleIdParam)
      .setPayload(RestoreBundle)
      .addSuccess(Envelope(Schema.Struct({
        artifactBundle: ArtifactBundle,
        restoredFiles: Schema.Array(FileWithVersion),
        skippedFiles: Schema.Array(SkippedFile),
        restoredFromArtifactBundleVersionNumber: Schema.Int
      })))
      .pipe(statuses(400, 401, 403, 404, 409, 429, 503))
      .annotate(Access, access.scopes({ allOf: ["artifact_bundles:write", "files:write"] }))
      .annotate(OpenApi.Summary, "Restore a bundle version")
      .annotate(
        OpenApi.Description,
        "Writes a restore version of every file that existed at that bundle version and is still active; files created later or deleted since are skipped and reported in `skippedFiles`. " +
          "History is never rewritten."
      )
  )
  .add(
    HttpApiEndpoint.get("listFileVersions", "/artifact-bundles/:artifactBundleId/files/:fileId/versions")
      .setPath(FileIdParams)
      .setUrlParams(KeysetParams)
      .addSuccess(Envelope(FileVersionPage))
      .pipe(statuses(400, 401, 403, 404, 429))
      .annotate(Access, fileRead)
      .annotate(OpenApi.Description, "The file's versions, newest first (keyset pages through nextCursor).")
      .annotate(OpenApi.Summary, "List file versions")
  )
  .add(
    HttpApiEndpoint.get("getFileVersion", "/artifact-bundles/:artifactBundleId/files/:fileId/versions/:versionNumber")
      .setPath(VersionParams)
      .addSuccess(Envelope(Schema.Struct({ version: FileVersion, content: Schema.String })))
      .pipe(statuses(400, 401, 403, 404, 429))
      .annotate(Access, fileRead)
      .annotate(OpenApi.Summary, "Read a file version")
      .annotate(OpenApi.Description, "One immutable version of the file, with its content.")
  )
  .add(
    HttpApiEndpoint.post(
      "restoreFileVersion",
      "/artifact-bundles/:artifactBundleId/files/:fileId/versions/:versionNumber/restore"
    )
      .setPath(VersionParams)
      .setPayload(RestoreFileVersion)
      .addSuccess(Envelope(FileWithVersion))
      .pipe(statuses(400, 401, 403, 404, 409, 429, 503))
      .annotate(Access, fileWrite)
      .annotate(OpenApi.Description, "Writes that version's content as the file's new latest version; history is untouched.")
      .annotate(OpenApi.Summary, "Restore a file version")
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Versions")
  .annotate(
    OpenApi.Description,
    "The immutable history: file versions are numbered per file from 1, bundle version events by `artifactBundleVersionNumber`; restores add new versions and never rewrite history."
  )
{}
