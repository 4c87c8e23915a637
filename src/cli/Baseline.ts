/**
 * `--baseline REF` (check, eval): the version of the main artifact to compare the current one with.
 * REF is a version number of the main artifact, a file version id, or a local file. A local file
 * whose content is already a version of the main artifact is that version; any other goes into the
 * bundle as `.rubr/baseline/<path>.baseline` (a name no artifact detection takes for a main artifact) for the eval, and the caller removes it from the current state
 * once the eval has started (the version itself stays, as every version does).
 */
import { Effect } from "effect"
import { type CliFailure, usage } from "./Failure.js"
import { readText } from "./Files.js"
import type { Remote } from "./Remote.js"
import { contentHash, isUuid, listFiles } from "./Sync.js"

export interface Baseline {
  readonly source: string
  readonly candidate: string
  /** the temporary file to delete after the eval started */
  readonly temporary: string | undefined
  readonly mainPath: string
}

export const isBaselineRef = (ref: string, exists: (path: string) => boolean) => /^\d+$/.test(ref) || isUuid(ref) || exists(ref)

export const resolveBaseline = (remote: Remote, bundleId: string, ref: string): Effect.Effect<Baseline, CliFailure> =>
  Effect.gen(function*() {
    const files = yield* listFiles(remote, bundleId)
    const main = files.find((f) => f.isPrimary) ??
      (remote.dryRun ? { id: (yield* Effect.promise(() => import("./DryRun.js"))).placeholderId(), path: "{main}", latestVersionNumber: 1, contentHash: "", isPrimary: true } : undefined)
    if (!main) return yield* Effect.fail(usage("The bundle has no main artifact (SKILL.md, AGENTS.md, prompt.md …), so a baseline has nothing to compare."))
    const versionOf = (n: number) =>
      Effect.map(
        remote.call(
          "versions",
          "getFileVersion",
          { path: { artifactBundleId: bundleId, fileId: main.id, versionNumber: n } }
        ),
        ({ data }) => data.version.id as string
      )
    const candidate = yield* versionOf(main.latestVersionNumber)
    if (/^\d+$/.test(ref)) return { source: yield* versionOf(Number(ref)), candidate, temporary: undefined, mainPath: main.path }
    if (isUuid(ref)) return { source: ref, candidate, temporary: undefined, mainPath: main.path }
    const text = readText(ref)
    if (text === null) return yield* Effect.fail(usage(`The baseline ${ref} is not a text file.`))
    const { data } = yield* remote.call(
      "versions",
      "listFileVersions",
      { path: { artifactBundleId: bundleId, fileId: main.id }, urlParams: { limit: 200 } }
    )
    const same = data.versions.find((v) => v.contentHash === contentHash(text))
    if (same) return { source: same.id, candidate, temporary: undefined, mainPath: main.path }
    const uploaded = yield* remote.call(
      "files",
      "upload",
      { path: { artifactBundleId: bundleId }, payload: { files: [{ path: `.rubr/baseline/${main.path}.baseline`, content: text, message: "baseline for an eval" }] } }
    )
    return { source: uploaded.data.files[0]!.version.id, candidate, temporary: uploaded.data.files[0]!.file.id, mainPath: main.path }
  })

/** Takes the temporary baseline file out of the bundle's current state. */
export const removeTemporary = (remote: Remote, bundleId: string, baseline: Baseline) =>
  baseline.temporary === undefined
    ? Effect.void
    : Effect.asVoid(remote.call("files", "delete", { path: { artifactBundleId: bundleId, fileId: baseline.temporary } }))
