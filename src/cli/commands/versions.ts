/** `rubr versions list|restore`: a bundle's version events, or one file's versions; restores as new versions. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import { usage } from "../Failure.js"
import type { Remote } from "../Remote.js"
import { run } from "../Run.js"
import { globalOptions } from "../Settings.js"
import { bundleOption, date, described, integerOption, table, withBundle } from "../Shared.js"

const fileOption = Options.text("file").pipe(Options.withDescription("A file's path in the bundle: act on its versions instead of the bundle's."), Options.optional)

const fileIdOf = (remote: Remote, bundleId: string, path: string) =>
  Effect.gen(function*() {
    const { listFiles } = yield* Effect.promise(() => import("../Sync.js"))
    const found = (yield* listFiles(remote, bundleId)).find((f) => f.path === path)
    if (found) return found.id
    if (remote.dryRun) return (yield* Effect.promise(() => import("../DryRun.js"))).placeholderId()
    return yield* Effect.fail(usage(`The bundle has no file ${path}.`))
  })

const list = Command.make("list", { ...globalOptions, bundle: bundleOption, file: fileOption, limit: integerOption("limit", { min: 1 }).pipe(Options.withDescription("How many versions to list (1 or more; the service caps a page, 200 by default)."), Options.withDefault(50)) }, (flags) =>
  run("versions list", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      if (Option.isSome(flags.file)) {
        const fileId = yield* fileIdOf(remote, bundle.id, flags.file.value)
        const { data } = yield* remote.call("versions", "listFileVersions", { path: { artifactBundleId: bundle.id, fileId }, urlParams: { limit: flags.limit } })
        return {
          json: () => data,
          text: () => table([["VERSION", "SOURCE", "HASH", "CREATED", "MESSAGE"], ...data.versions.map((v) => [`v${v.versionNumber}`, v.source, v.contentHash.slice(0, 19), date(v.createdAt), v.message ?? ""])])
        }
      }
      const { data } = yield* remote.call("versions", "listBundleVersions", { path: { artifactBundleId: bundle.id }, urlParams: { limit: flags.limit } })
      return {
        json: () => data,
        text: () =>
          table([
            ["BUNDLE VERSION", "FILE", "FILE VERSION", "SOURCE", "CREATED", "MESSAGE"],
            ...data.versions.map((v) => [String(v.artifactBundleVersionNumber), v.filePath, `v${v.fileVersionNumber}`, v.source, date(v.createdAt), v.message ?? ""])
          ])
      }
    }))).pipe(Command.withDescription(described("List a bundle's version events, or a file's versions with --file.", "rubr versions list --bundle release-notes --file SKILL.md")))

const restore = Command.make("restore", {
  ...globalOptions,
  bundle: bundleOption,
  file: fileOption,
  version: Args.integer({ name: "VERSION" }).pipe(Args.withDescription("The bundle version number to restore, or with --file the file's version number.")),
  message: Options.text("message").pipe(Options.withDescription("The message recorded with the restored versions."), Options.optional)
}, (flags) =>
  run("versions restore", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      const message = Option.getOrUndefined(flags.message)
      if (Option.isSome(flags.file)) {
        const fileId = yield* fileIdOf(remote, bundle.id, flags.file.value)
        const { data } = yield* remote.call(
          "versions",
          "restoreFileVersion",
          { path: { artifactBundleId: bundle.id, fileId, versionNumber: flags.version }, payload: message === undefined ? {} : { message } }
        )
        return { json: () => data, text: () => `${data.file.path}: v${flags.version} restored as v${data.version.versionNumber}` }
      }
      const { data } = yield* remote.call(
        "versions",
        "restoreBundle",
        { path: { artifactBundleId: bundle.id }, payload: { versionNumber: flags.version, ...(message === undefined ? {} : { message }) } }
      )
      return {
        json: () => data,
        text: () =>
          [
            `Restored ${data.restoredFiles.length} file${data.restoredFiles.length === 1 ? "" : "s"} as of bundle version ${data.restoredFromArtifactBundleVersionNumber}`,
            ...data.restoredFiles.map((f) => `  ~ ${f.file.path} → v${f.version.versionNumber}`),
            ...data.skippedFiles.map((f) => `  skipped ${f.path}: ${f.reason}`)
          ].join("\n")
      }
    }))).pipe(Command.withDescription(described("Restore a bundle version (or a file version with --file) as new versions; history is never rewritten.", "rubr versions restore 3 --bundle release-notes")))

export const versions = Command.make("versions").pipe(
  Command.withDescription(described("List and restore versions.", "rubr versions list --bundle release-notes")),
  Command.withSubcommands([list, restore])
)
