/** Handlers of the bundle, file and version routes: decode, call the use case, wrap in the envelope. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Effect, Layer } from "effect"
import { CurrentActor } from "../auth/CurrentActor.js"
import { ValidationFailed } from "../domain/Errors.js"
import { BundleId, FileId } from "../domain/Ids.js"
import { RubrApi } from "../Api.js"
import { directJson } from "../http/DirectJson.js"
import { ok } from "../http/Envelope.js"
import { isInvalidUtf8 } from "../http/Body.js"
import { resolvePage } from "../http/Pagination.js"
import { Bundles } from "./Bundles.js"
import { Files } from "./Files.js"
import { Versions } from "./Versions.js"
import { FileContent, FileVersionPage, FileWithVersion, UploadedFiles } from "./Schemas.js"

// the two hottest reads (API-key pulls, history pages) skip the re-encode of what they just built
const fileContentJson = directJson(FileContent)
const versionPageJson = directJson(FileVersionPage)
// the writes answer with what they just wrote: an upload's 100 files are ~30% of its allocation when encoded
const uploadedJson = directJson(UploadedFiles, { status: 201 })
const writtenJson = directJson(FileWithVersion)

/** File content must arrive as UTF-8: a body that is not is refused before it is decoded. */
const requireUtf8Body = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (request.headers["content-length"] === undefined) return
  const text = yield* Effect.orDie(request.text)
  if (isInvalidUtf8(text, request.headers["content-length"])) return yield* ValidationFailed.at("body", "is not valid UTF-8")
})

const BundlesGroupHttp = HttpApiBuilder.group(RubrApi, "artifactBundles", (handlers) =>
  Effect.gen(function*() {
    const bundles = yield* Bundles
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          const page = yield* resolvePage(urlParams)
          return yield* ok(yield* bundles.list(actor, urlParams.status ?? "all", page))
        }))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok({ artifactBundle: yield* bundles.create(actor, payload) })
        }))
      .handle("get", ({ path }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok(yield* bundles.get(actor, BundleId.make(path.artifactBundleId)))
        }))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok(yield* bundles.update(actor, BundleId.make(path.artifactBundleId), payload))
        }))
      .handle("archive", ({ path }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok({ artifactBundle: yield* bundles.archive(actor, BundleId.make(path.artifactBundleId)) })
        }))
      .handle("unarchive", ({ path }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok({ artifactBundle: yield* bundles.unarchive(actor, BundleId.make(path.artifactBundleId)) })
        }))
      .handle("deletePermanently", ({ path }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok({ artifactBundle: yield* bundles.deletePermanently(actor, BundleId.make(path.artifactBundleId)) })
        }))
  }))

const FilesGroupHttp = HttpApiBuilder.group(RubrApi, "files", (handlers) =>
  Effect.gen(function*() {
    const bundleFiles = yield* Files
    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          const page = yield* resolvePage(urlParams)
          return yield* ok(yield* bundleFiles.list(actor, BundleId.make(path.artifactBundleId), page))
        }))
      .handle("upload", ({ path, payload }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          yield* requireUtf8Body
          return yield* uploadedJson({ files: yield* bundleFiles.upload(actor, BundleId.make(path.artifactBundleId), payload.files) })
        }))
      .handle("get", ({ path }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* fileContentJson(yield* bundleFiles.get(actor, BundleId.make(path.artifactBundleId), FileId.make(path.fileId)))
        }))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          yield* requireUtf8Body
          return yield* writtenJson(
            yield* bundleFiles.write(actor, BundleId.make(path.artifactBundleId), FileId.make(path.fileId), payload.content, {
              mediaType: payload.mediaType,
              message: payload.message
            })
          )
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok({ file: yield* bundleFiles.remove(actor, BundleId.make(path.artifactBundleId), FileId.make(path.fileId)) })
        }))
  }))

const VersionsGroupHttp = HttpApiBuilder.group(RubrApi, "versions", (handlers) =>
  Effect.gen(function*() {
    const bundleVersions = yield* Versions
    return handlers
      .handle("listBundleVersions", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          const page = yield* resolvePage(urlParams)
          return yield* ok(yield* bundleVersions.listOfBundle(actor, BundleId.make(path.artifactBundleId), page, urlParams.cursor))
        }))
      .handle("restoreBundle", ({ path, payload }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok(
            yield* bundleVersions.restoreBundle(actor, BundleId.make(path.artifactBundleId), payload.versionNumber, payload.message)
          )
        }))
      .handle("listFileVersions", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          const page = yield* resolvePage(urlParams)
          return yield* versionPageJson(
            yield* bundleVersions.listOfFile(actor, BundleId.make(path.artifactBundleId), FileId.make(path.fileId), page, urlParams.cursor)
          )
        }))
      .handle("getFileVersion", ({ path }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok(
            yield* bundleVersions.getOfFile(actor, BundleId.make(path.artifactBundleId), FileId.make(path.fileId), path.versionNumber)
          )
        }))
      .handle("restoreFileVersion", ({ path, payload }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok(
            yield* bundleVersions.restoreFile(
              actor,
              BundleId.make(path.artifactBundleId),
              FileId.make(path.fileId),
              path.versionNumber,
              payload?.message
            )
          )
        }))
  }))

export const BundlesHttp = Layer.mergeAll(BundlesGroupHttp, FilesGroupHttp, VersionsGroupHttp)
