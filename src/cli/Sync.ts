/**
 * The remote side of a local folder: the bundle a command names (by id, or by name, created when
 * asked), and a folder's text files made the bundle's files: new paths uploaded, changed content
 * written as a new version, unchanged files left alone (so a second run writes nothing), and with
 * `prune` the bundle's files the folder no longer has deleted.
 */
import { Effect } from "effect"
import * as Path from "node:path"
import { type CliFailure, usage } from "./Failure.js"
import { readText, walk } from "./Files.js"
import type { Output } from "./Output.js"
import type { Remote } from "./Remote.js"
import { sha256Tag } from "../domain/ContentHash.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isUuid = (s: string) => UUID.test(s)

/** The service's content hash: sha256 of the UTF-8 bytes. */
/** The hash the service gives a file version: the local side compares its own with it. */
export const contentHash = sha256Tag

export interface BundleRef {
  readonly id: string
  readonly name: string
  readonly created: boolean
}

const PAGE = 200

/** A bundle by id, or the newest active bundle of that name; created when `create` and none exists. */
export const resolveBundle = (remote: Remote, ref: string, options: { readonly create: boolean }): Effect.Effect<BundleRef, CliFailure> =>
  Effect.gen(function*() {
    if (isUuid(ref)) {
      const { data } = yield* remote.call("artifactBundles", "get", { path: { artifactBundleId: ref } })
      return { id: data.artifactBundle.id, name: data.artifactBundle.name, created: false }
    }
    // a dry run cannot know whether the bundle exists: a named one is shown as found
    if (remote.dryRun && !options.create) {
      yield* remote.call("artifactBundles", "list", { urlParams: { status: "active", limit: PAGE, offset: 0 } })
      return { id: (yield* Effect.promise(() => import("./DryRun.js"))).placeholderId(), name: ref, created: false }
    }
    for (let offset = 0; ; offset += PAGE) {
      const { data } = yield* remote.call(
        "artifactBundles",
        "list",
        { urlParams: { status: "active", limit: PAGE, offset } }
      )
      const found = data.artifactBundles.find((b) => b.name === ref)
      if (found) return { id: found.id, name: found.name, created: false }
      if (data.pagination.nextOffset === null) break
    }
    if (!options.create) return yield* Effect.fail(usage(`No active bundle is named ${JSON.stringify(ref)}; \`rubr bundles list\` shows yours.`))
    const { data } = yield* remote.call(
      "artifactBundles",
      "create",
      { payload: { name: ref } }
    )
    return { id: data.artifactBundle.id, name: data.artifactBundle.name, created: true }
  })

export interface RemoteFile {
  readonly id: string
  readonly path: string
  readonly contentHash: string
  readonly latestVersionNumber: number
  readonly isPrimary: boolean
}

/** Every active file of a bundle. */
export const listFiles = (remote: Remote, bundleId: string): Effect.Effect<Array<RemoteFile>, CliFailure> =>
  Effect.gen(function*() {
    const files: Array<RemoteFile> = []
    for (let offset = 0; ; offset += PAGE) {
      const { data } = yield* remote.call(
        "files",
        "list",
        { path: { artifactBundleId: bundleId }, urlParams: { limit: PAGE, offset } }
      )
      files.push(...data.files.map((f) => ({ id: f.id, path: f.path, contentHash: f.contentHash, latestVersionNumber: f.latestVersionNumber, isPrimary: f.isPrimary })))
      if (data.pagination.nextOffset === null || data.files.length === 0) return files
    }
  })

export interface LocalFile {
  readonly path: string
  readonly content: string
}

export interface LocalFolder {
  readonly files: ReadonlyArray<LocalFile>
  /** not sent: binary, or over the size limit */
  readonly skipped: ReadonlyArray<{ readonly path: string; readonly reason: string }>
}

/** The text files a folder holds, as the bundle will name them. */
export const readFolder = (dir: string, maxBytes: number): LocalFolder => {
  const files: Array<LocalFile> = []
  const skipped: Array<{ path: string; reason: string }> = []
  for (const path of walk(dir)) {
    const text = readText(Path.join(dir, path))
    if (text === null) skipped.push({ path, reason: "not a text file" })
    else if (Buffer.byteLength(text, "utf8") > maxBytes) skipped.push({ path, reason: `larger than ${Math.round(maxBytes / 1024)} KiB` })
    else files.push({ path, content: text })
  }
  return { files, skipped }
}

export interface SyncSummary {
  readonly uploaded: ReadonlyArray<string>
  readonly updated: ReadonlyArray<string>
  readonly unchanged: ReadonlyArray<string>
  readonly removed: ReadonlyArray<string>
  readonly skipped: ReadonlyArray<{ readonly path: string; readonly reason: string }>
  /** the bundle's files after the sync */
  readonly files: ReadonlyArray<RemoteFile>
}

/** Uploads go in batches the service takes: 100 files and a few MiB a request. */
const batches = (files: ReadonlyArray<LocalFile>) => {
  const out: Array<Array<LocalFile>> = []
  let current: Array<LocalFile> = []
  let bytes = 0
  for (const f of files) {
    const size = Buffer.byteLength(f.content, "utf8")
    if (current.length === 100 || (current.length > 0 && bytes + size > 6 * 1024 * 1024)) {
      out.push(current)
      current = []
      bytes = 0
    }
    current.push(f)
    bytes += size
  }
  if (current.length > 0) out.push(current)
  return out
}

export const syncFolder = (
  remote: Remote,
  output: Output,
  bundleId: string,
  folder: LocalFolder,
  options: { readonly prune: boolean; readonly message: string }
): Effect.Effect<SyncSummary, CliFailure> =>
  Effect.gen(function*() {
    const existing = yield* listFiles(remote, bundleId)
    const byPath = new Map(existing.map((f) => [f.path, f]))
    const fresh = folder.files.filter((f) => !byPath.has(f.path))
    const changed = folder.files.filter((f) => byPath.has(f.path) && byPath.get(f.path)!.contentHash !== contentHash(f.content))
    const unchanged = folder.files.filter((f) => byPath.get(f.path)?.contentHash === contentHash(f.content))
    const local = new Set(folder.files.map((f) => f.path))
    const gone = options.prune ? existing.filter((f) => !local.has(f.path)) : []
    const after = new Map(byPath)

    for (const batch of batches(fresh)) {
      output.progress(`uploading ${batch.length} new file${batch.length === 1 ? "" : "s"}`)
      const { data } = yield* remote.call(
        "files",
        "upload",
        { path: { artifactBundleId: bundleId }, payload: { files: batch.map((f) => ({ path: f.path, content: f.content, message: options.message })) } }
      )
      for (const { file } of data.files) after.set(file.path, { id: file.id, path: file.path, contentHash: file.contentHash, latestVersionNumber: file.latestVersionNumber, isPrimary: file.isPrimary })
    }
    yield* Effect.forEach(changed, (f) =>
      Effect.gen(function*() {
        output.progress(`updating ${f.path}`)
        const id = byPath.get(f.path)!.id
        const { data } = yield* remote.call(
          "files",
          "update",
          { path: { artifactBundleId: bundleId, fileId: id }, payload: { content: f.content, message: options.message } }
        )
        after.set(f.path, { id: data.file.id, path: data.file.path, contentHash: data.file.contentHash, latestVersionNumber: data.file.latestVersionNumber, isPrimary: data.file.isPrimary })
      }), { concurrency: remote.dryRun ? 1 : 4 })
    for (const f of gone) {
      output.progress(`removing ${f.path}`)
      yield* remote.call("files", "delete", { path: { artifactBundleId: bundleId, fileId: f.id } })
      after.delete(f.path)
    }
    output.endProgress()
    return {
      uploaded: fresh.map((f) => f.path),
      updated: changed.map((f) => f.path),
      unchanged: unchanged.map((f) => f.path),
      removed: gone.map((f) => f.path),
      skipped: folder.skipped,
      files: [...after.values()]
    }
  })
