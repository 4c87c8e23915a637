/**
 * The first step of `rubr check`: what to check, worked out from the local files alone (no request).
 * The paths on the command line become artifacts (repo/Discovery.ts), narrowed by the repository's
 * configuration and `--changed-since`; each artifact gets its bundle, its gates and, unless only
 * listing, its files read. Every problem with the input (a path that does not exist, a file that
 * cannot be read, a bad configuration, `--fix` over a file with conflict markers) is a usage error
 * naming the file, raised here, before anything is sent.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import type { ArtifactType } from "../../domain/Artifact.js"
import { CliFailure, Exit, usage } from "../Failure.js"
import { readText, walk } from "../Files.js"
import { ConfigProblem, findRoot, loadConfig, type RepoConfig } from "../repo/Config.js"
import { type ArtifactKind, bundleNameFor, discover, toPosix } from "../repo/Discovery.js"
import type { FailOn } from "../reports/Model.js"
import { changedSince } from "./Git.js"

/** The service's default limit of one file; larger files are skipped and listed, never sent. */
export const MAX_FILE_BYTES = 1024 * 1024

export type PlannedKind = ArtifactKind | "folder"

export interface PlannedFile {
  /** as the bundle names it (relative to the artifact's folder) */
  readonly path: string
  /** repository-relative, `/`-separated */
  readonly local: string
  readonly content: string
}

export interface PlannedArtifact {
  readonly kind: PlannedKind
  /** repository-relative, `/`-separated; "" for the root folder */
  readonly path: string
  /** the folder the bundle's paths are relative to (absolute): the skill's folder, or the file's */
  readonly dir: string
  readonly bundleName: string
  /** a skill's folder name: a root SKILL.md must be named after it */
  readonly folderName: string | undefined
  /** sent with the audit for single files, whose names say less than a SKILL.md */
  readonly artifactType: ArtifactType | undefined
  /** repository-relative paths of the bundle's files */
  readonly paths: ReadonlyArray<string>
  /** the files read (empty when only listing) */
  readonly files: ReadonlyArray<PlannedFile>
  /** not sent: binary, or over the size limit */
  readonly skipped: ReadonlyArray<{ readonly path: string; readonly reason: string }>
  readonly minScore: number
  readonly failOn: FailOn
}

export interface Plan {
  /** the repository root (absolute) */
  readonly root: string
  readonly config: RepoConfig
  readonly artifacts: ReadonlyArray<PlannedArtifact>
  /** one PATH naming one artifact: `rubr check` behaves as for one folder (its report, --bundle, --baseline) */
  readonly single: boolean
  /** artifacts found but left out by --changed-since */
  readonly unchanged: number
}

export interface PlanInput {
  readonly paths: ReadonlyArray<string>
  readonly cwd: string
  readonly bundle: string | undefined
  readonly minScore: number | undefined
  readonly failOn: FailOn | undefined
  readonly changedSince: string | undefined
  /** read the files (not for --list) */
  readonly read: boolean
  /** --fix: a file with conflict markers is refused before anything is sent */
  readonly fix: boolean
}

const TYPES: Record<PlannedKind, ArtifactType | undefined> = {
  skill: undefined,
  folder: undefined,
  "agent-instructions": "agent",
  command: "command",
  prompt: "prompt",
  rubr_flow: "rubr_flow"
}

const isInside = (folder: string, path: string) => folder === "" || path === folder || path.startsWith(`${folder}/`)
const relativeTo = (folder: string, path: string) => (folder === "" ? path : path.slice(folder.length + 1))

/** Hidden files and folders, and caches, are not part of a skill (as `rubr files push` walks). */
const isHidden = (relPath: string) => relPath.split("/").some((s) => s.startsWith(".") || s === "__pycache__")

const CONFLICT = /^<{7} .*$[\s\S]*^>{7} /m

/**
 * The root: the repository around the working directory when every path is inside it (CI runs from
 * the root), else the one around the first path; paths are relative to it in every report.
 */
const rootFor = (cwd: string, absolutes: ReadonlyArray<string>) => {
  const around = findRoot(cwd)
  if (absolutes.every((p) => isInside(around, p) || p === around)) return around
  const first = absolutes[0]!
  return findRoot(Fs.statSync(first).isDirectory() ? first : Path.dirname(first))
}

export const plan = (input: PlanInput): Plan => {
  const absolutes = (input.paths.length === 0 ? ["."] : input.paths).map((p) => {
    const absolute = Path.resolve(input.cwd, p)
    const stat = Fs.statSync(absolute, { throwIfNoEntry: false })
    if (!stat) throw usage(`${p}: no such file or folder.`)
    if (!stat.isDirectory() && !stat.isFile()) throw usage(`${p}: neither a file nor a folder.`)
    return absolute
  })
  const root = rootFor(input.cwd, absolutes)
  let config: RepoConfig
  try {
    config = loadConfig(root)
  } catch (error) {
    // the message starts with the file's name: shown from where the command ran
    if (error instanceof ConfigProblem) throw usage(`${toPosix(Path.relative(input.cwd, root)) || "."}/${error.message}`.replace(/^\.\//, ""))
    throw error
  }
  const starts = absolutes.map((a) => toPosix(Path.relative(root, a)))
  const found = discover(root, starts, config).artifacts
  const rootName = Path.basename(root)

  let artifacts: Array<Omit<PlannedArtifact, "files" | "skipped" | "minScore" | "failOn">> = found.map((a) => {
    const folder = a.kind === "skill" ? a.path : Path.posix.dirname(a.path).replace(/^\.$/, "")
    return {
      kind: a.kind,
      path: a.path,
      dir: Path.join(root, folder),
      bundleName: a.bundleName,
      folderName: a.kind === "skill" ? Path.basename(Path.join(root, a.path)) : undefined,
      artifactType: TYPES[a.kind],
      paths: a.kind === "skill" ? a.files.filter((f) => !isHidden(relativeTo(a.path, f))) : a.files
    }
  })

  // one folder holding no artifact: its text files are one bundle, as `rubr check DIR` always did
  const onlyFolder = absolutes.length === 1 && Fs.statSync(absolutes[0]!).isDirectory() ? starts[0]! : undefined
  if (artifacts.length === 0 && onlyFolder !== undefined) {
    const dir = Path.join(root, onlyFolder)
    const paths = walk(dir).map((f) => (onlyFolder === "" ? f : `${onlyFolder}/${f}`)).filter((f) => config.selects(f))
    if (paths.length > 0) {
      artifacts = [{
        kind: "folder",
        path: onlyFolder,
        dir,
        bundleName: bundleNameFor(config.bundlePrefix, onlyFolder, rootName),
        folderName: Path.basename(dir),
        artifactType: undefined,
        paths
      }]
    }
  }
  const single = absolutes.length === 1 && artifacts.length === 1 && starts[0] === artifacts[0]!.path
  if (input.bundle !== undefined) {
    if (!single) throw usage(`--bundle names the bundle of one artifact, and ${input.paths.join(" ") || "."} holds ${artifacts.length}; use bundlePrefix in ${config.file ?? "rubr.config.json"} to name a repository's bundles.`)
    artifacts = [{ ...artifacts[0]!, bundleName: input.bundle }]
  }

  let unchanged = 0
  if (input.changedSince !== undefined) {
    const changed = changedSince(root, input.changedSince)
    const before = artifacts.length
    artifacts = artifacts.filter((a) =>
      a.paths.some((p) => changed.has(p)) ||
      // a file deleted from a skill's folder changes the skill too
      ((a.kind === "skill" || a.kind === "folder") && [...changed].some((c) => isInside(a.path, c) && !Fs.existsSync(Path.join(root, c))))
    )
    unchanged = before - artifacts.length
  }

  const planned = artifacts.map((a): PlannedArtifact => {
    const gates = config.gatesFor(a.kind === "skill" || a.kind === "folder" ? (a.path === "" ? "SKILL.md" : `${a.path}/SKILL.md`) : a.path)
    const base = {
      ...a,
      // the command line's gates over the configuration's: what was typed wins
      minScore: input.minScore ?? gates.minScore ?? 0,
      failOn: input.failOn ?? gates.failOn ?? "critical"
    }
    return input.read ? { ...base, ...readFiles(root, a.dir, a.paths, input.fix) } : { ...base, files: [], skipped: [] }
  })
  return { root, config, artifacts: planned, single, unchanged }
}

/** The artifact's text files; binary and oversized ones are skipped (and listed), unreadable ones stop the run. */
const readFiles = (root: string, dir: string, paths: ReadonlyArray<string>, fix: boolean) => {
  const files: Array<PlannedFile> = []
  const skipped: Array<{ path: string; reason: string }> = []
  const folder = toPosix(Path.relative(root, dir))
  for (const local of paths) {
    const absolute = Path.join(root, local)
    let text: string | null
    try {
      const size = Fs.statSync(absolute).size
      if (size > MAX_FILE_BYTES) {
        skipped.push({ path: local, reason: `larger than ${MAX_FILE_BYTES / 1024} KiB` })
        continue
      }
      text = readText(absolute)
    } catch (error) {
      throw new CliFailure({ exitCode: Exit.usage, message: `${local}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).` })
    }
    if (text === null) {
      skipped.push({ path: local, reason: "not a text file" })
      continue
    }
    if (fix && CONFLICT.test(text)) throw usage(`${local}: has git conflict markers; resolve them before --fix writes into it.`)
    files.push({ path: folder === "" ? local : relativeTo(folder, local), local, content: text })
  }
  return { files, skipped }
}

/** How an artifact is shown: its path, `.` for the root. */
export const label = (a: { readonly path: string }) => a.path === "" ? "." : a.path
