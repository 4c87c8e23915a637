/** `rubr bundles list|create|show|archive`. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import { run } from "../Run.js"
import { globalOptions } from "../Settings.js"
import { date, described, integerOption, table, withBundle, withRemote } from "../Shared.js"

const bundleArg = Args.text({ name: "BUNDLE" }).pipe(Args.withDescription("The bundle, by name or id."))

const list = Command.make("list", {
  ...globalOptions,
  status: Options.choice("status", ["active", "archived", "all"]).pipe(Options.withDescription("Which bundles to list: active, archived or all."), Options.withDefault("active" as const)),
  limit: integerOption("limit", { min: 1 }).pipe(Options.withDescription("How many to list (1 or more; the service caps a page, 200 by default)."), Options.withDefault(50))
}, (flags) =>
  run("bundles list", flags, (context) =>
    Effect.gen(function*() {
      const remote = yield* withRemote(context)
      const { data } = yield* remote.call("artifactBundles", "list", { urlParams: { status: flags.status, limit: flags.limit } })
      return {
        json: () => data,
        text: () =>
          data.artifactBundles.length === 0
            ? "No bundles."
            : table([
              ["ID", "NAME", "STATUS", "FILES", "VERSIONS", "UPDATED"],
              ...data.artifactBundles.map((b) => [b.id, b.name, b.status, String(b.fileCount), String(b.versionCount), date(b.updatedAt)])
            ])
      }
    }))).pipe(Command.withDescription(described("List your bundles, newest first.", "rubr bundles list --status all --limit 100")))

const create = Command.make("create", {
  ...globalOptions,
  name: Args.text({ name: "NAME" }).pipe(Args.withDescription("The new bundle's name, 1-200 characters.")),
  description: Options.text("description").pipe(Options.withDescription("What the bundle holds, up to 2000 characters."), Options.optional)
}, (flags) =>
  run("bundles create", flags, (context) =>
    Effect.gen(function*() {
      const remote = yield* withRemote(context)
      const payload = { name: flags.name, ...(Option.isSome(flags.description) ? { description: flags.description.value } : {}) }
      const { data } = yield* remote.call("artifactBundles", "create", { payload })
      return { json: () => data, text: () => `Created bundle ${data.artifactBundle.name} ${data.artifactBundle.id}` }
    }))).pipe(Command.withDescription(described("Create a bundle.", "rubr bundles create release-notes --description \"Release notes skill\"")))

const show = Command.make("show", { ...globalOptions, bundle: bundleArg }, (flags) =>
  run("bundles show", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      const { data } = yield* remote.call("artifactBundles", "get", { path: { artifactBundleId: bundle.id } })
      const b = data.artifactBundle
      return {
        json: () => data,
        text: () =>
          [
            `${b.name} ${context.output.colors.dim(b.id)}`,
            `status ${b.status} · ${b.fileCount} files · ${b.versionCount} versions · updated ${date(b.updatedAt)}`,
            b.description ? b.description : "",
            "",
            table([
              ["PATH", "TYPE", "VERSION", "BYTES", ""],
              ...data.files.map((f) => [f.path, f.artifactType, `v${f.latestVersionNumber}`, String(f.sizeBytes), f.isPrimary ? "main" : ""])
            ])
          ].filter((l, i) => l !== "" || i === 3).join("\n")
      }
    }))).pipe(Command.withDescription(described("Show a bundle and its files.", "rubr bundles show release-notes")))

const archive = Command.make("archive", { ...globalOptions, bundle: bundleArg }, (flags) =>
  run("bundles archive", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      const { data } = yield* remote.call("artifactBundles", "archive", { path: { artifactBundleId: bundle.id } })
      return { json: () => data, text: () => `Archived ${data.artifactBundle.name} ${data.artifactBundle.id} (readable, no longer writable).` }
    }))).pipe(Command.withDescription(described("Archive a bundle: it stays readable and takes no more writes.", "rubr bundles archive release-notes")))

export const bundles = Command.make("bundles").pipe(
  Command.withDescription(described("List, create, show and archive bundles.", "rubr bundles list", "rubr bundles show release-notes")),
  Command.withSubcommands([list, create, show, archive])
)
