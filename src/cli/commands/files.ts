/** `rubr files list|push|pull`: a bundle's files, and a local folder synced up or down. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { usage } from "../Failure.js"
import { run } from "../Run.js"
import { globalOptions } from "../Settings.js"
import { bundleOption, described, table, withBundle } from "../Shared.js"

const MAX_FILE_BYTES = 1024 * 1024

const list = Command.make("list", { ...globalOptions, bundle: bundleOption }, (flags) =>
  run("files list", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      const { listFiles } = yield* Effect.promise(() => import("../Sync.js"))
      const files = yield* listFiles(remote, bundle.id)
      return {
        json: () => ({ artifactBundleId: bundle.id, files }),
        text: () =>
          files.length === 0 ? "No files." : table([["PATH", "VERSION", "HASH", ""], ...files.map((f) => [f.path, `v${f.latestVersionNumber}`, f.contentHash.slice(0, 19), f.isPrimary ? "main" : ""])])
      }
    }))).pipe(Command.withDescription(described("List a bundle's files.", "rubr files list --bundle release-notes")))

const push = Command.make("push", {
  ...globalOptions,
  dir: Args.directory({ name: "DIR", exists: "yes" }).pipe(Args.withDescription("The folder whose text files become the bundle's files.")),
  bundle: bundleOption.pipe(Options.withDescription("The bundle to push into, by name or id (default: the folder's name; created when missing)."), Options.optional),
  prune: Options.boolean("prune").pipe(Options.withDescription("Also delete the bundle files that the folder does not have (their history stays).")),
  message: Options.text("message").pipe(Options.withDescription("The message recorded with each new version."), Options.withDefault("rubr files push"))
}, (flags) =>
  run("files push", flags, (context) =>
    Effect.gen(function*() {
      const { makeRemote } = yield* Effect.promise(() => import("../Remote.js"))
      const { readFolder, resolveBundle, syncFolder } = yield* Effect.promise(() => import("../Sync.js"))
      const folder = readFolder(flags.dir, MAX_FILE_BYTES)
      for (const s of folder.skipped) context.output.note(context.output.colors.dim(`skipped ${s.path}: ${s.reason}`))
      const remote = yield* makeRemote(context.settings, context.output)
      const bundle = yield* resolveBundle(remote, Option.getOrElse(flags.bundle, () => Path.basename(Path.resolve(flags.dir))), { create: true })
      const sync = yield* syncFolder(remote, context.output, bundle.id, folder, { prune: flags.prune, message: flags.message })
      return {
        json: () => ({ artifactBundleId: bundle.id, created: bundle.created, ...sync, files: undefined }),
        text: () =>
          [
            `${bundle.created ? "Created" : "Synced"} bundle ${bundle.name} ${context.output.colors.dim(bundle.id)}`,
            ...sync.uploaded.map((p) => `  + ${p}`),
            ...sync.updated.map((p) => `  ~ ${p}`),
            ...sync.removed.map((p) => `  - ${p}`),
            `${sync.uploaded.length} uploaded, ${sync.updated.length} updated, ${sync.unchanged.length} unchanged${sync.removed.length > 0 ? `, ${sync.removed.length} removed` : ""}`
          ].join("\n")
      }
    }))).pipe(Command.withDescription(described("Make a bundle's files match a folder's text files: new versions only where content changed.", "rubr files push skills/release-notes --prune")))

/** A bundle path as a file under `dir`, or undefined when it would land outside it. */
const localPath = (dir: string, bundlePath: string) => {
  const target = Path.resolve(dir, ...bundlePath.split("/"))
  const root = Path.resolve(dir)
  return target.startsWith(root + Path.sep) ? target : undefined
}

const pull = Command.make("pull", {
  ...globalOptions,
  dir: Args.directory({ name: "DIR" }).pipe(Args.withDescription("The folder to write the bundle's current files into (created if missing).")),
  bundle: bundleOption
}, (flags) =>
  run("files pull", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      const { listFiles } = yield* Effect.promise(() => import("../Sync.js"))
      const files = yield* listFiles(remote, bundle.id)
      const written: Array<string> = []
      for (const f of files) {
        const target = localPath(flags.dir, f.path)
        if (target === undefined) return yield* Effect.fail(usage(`${f.path} would be written outside ${flags.dir}; nothing after it was written.`))
        context.output.progress(`pulling ${f.path}`)
        const { data } = yield* remote.call("files", "get", { path: { artifactBundleId: bundle.id, fileId: f.id } })
        if (!remote.dryRun) {
          Fs.mkdirSync(Path.dirname(target), { recursive: true })
          Fs.writeFileSync(target, data.content)
        }
        written.push(f.path)
      }
      context.output.endProgress()
      return {
        json: () => ({ artifactBundleId: bundle.id, directory: flags.dir, files: written }),
        text: () => `Wrote ${written.length} file${written.length === 1 ? "" : "s"} of ${bundle.name} to ${flags.dir}`
      }
    }))).pipe(Command.withDescription(described("Download a bundle's current files into a folder (works with an artifacts:pull key).", "rubr files pull ./release-notes --bundle release-notes")))

export const files = Command.make("files").pipe(
  Command.withDescription(described("List a bundle's files, push a folder into a bundle, pull a bundle into a folder.", "rubr files push skills/release-notes", "rubr files pull ./out --bundle release-notes")),
  Command.withSubcommands([list, push, pull])
)

