/**
 * What `rubr check` finds in a repository: every artifact under the paths it is given, each the bundle
 * it maps to. Pure file-system reading, no network (`rubr check --list` prints it and makes no request).
 *
 * - A folder holding a `SKILL.md` is one skill: the folder is the bundle, its files (but those of skill
 *   folders nested in it, which are skills of their own) are the bundle's files.
 * - Outside skill folders, each of these files is an artifact of its own: agent instructions
 *   (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, `.github/copilot-instructions.md`), commands (`*.md` under a
 *   `commands/` folder of a tool's dot-folder, `.claude/commands/`, or of a plugin), prompts
 *   (`*.prompt.md`, and `*.md` under a `prompts/` folder) and rubr_flow files (`*.rubr_flow`).
 * - `.git`, `node_modules` and whatever the repository's `.gitignore` files ignore (at any depth, as
 *   git reads them) are never walked; the configuration's include and exclude globs narrow the rest.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import ignore, { type Ignore } from "ignore"
import type { RepoConfig } from "./Config.js"

export type ArtifactKind = "skill" | "agent-instructions" | "command" | "prompt" | "rubr_flow"

export interface Artifact {
  readonly kind: ArtifactKind
  /** repository-relative, `/`-separated: the skill's folder, or the file itself */
  readonly path: string
  /** the file the audit reviews: the skill's SKILL.md, or the file itself */
  readonly main: string
  /** the files of its bundle, repository-relative; for a skill, its folder's files minus nested skills' */
  readonly files: ReadonlyArray<string>
  /** the bundle it maps to (the configuration's prefix and the path) */
  readonly bundleName: string
}

export interface Discovery {
  /** the repository root every path is relative to */
  readonly root: string
  readonly artifacts: ReadonlyArray<Artifact>
}

/** Never walked, whatever .gitignore says: version control and dependencies. */
const NEVER_WALKED = new Set([".git", ".hg", ".svn", "node_modules"])

const AGENT_INSTRUCTIONS = new Set(["AGENTS.md", "CLAUDE.md", "GEMINI.md"])

export const toPosix = (p: string) => p.split(Path.sep).join("/")

/** The kind of a file outside skill folders, or undefined when it is no artifact. */
export const singleFileKind = (relPath: string): Exclude<ArtifactKind, "skill"> | undefined => {
  const segments = relPath.split("/")
  const name = segments[segments.length - 1]!
  const parents = segments.slice(0, -1)
  if (AGENT_INSTRUCTIONS.has(name) || relPath.endsWith(".github/copilot-instructions.md") && parents.at(-1) === ".github") return "agent-instructions"
  if (name.endsWith(".rubr_flow")) return "rubr_flow"
  if (!name.endsWith(".md")) return undefined
  if (name.endsWith(".prompt.md")) return "prompt"
  const commands = parents.lastIndexOf("commands")
  // a tool's commands (.claude/commands/deploy.md) or a plugin's (plugins/web/commands/deploy.md)
  if (commands > 0 && (parents[commands - 1]!.startsWith(".") || parents[commands - 2] === "plugins")) return "command"
  if (commands === 0) return undefined
  if (parents.includes("prompts")) return "prompt"
  return undefined
}

/**
 * The bundle a path maps to: `prefix` and the path, as a name the service accepts (1-100 characters).
 * A path outside the repository (`../other/skill`) is named from its own part (`other/skill`).
 */
export const bundleNameFor = (prefix: string, relPath: string, rootName: string) => {
  const own = relPath.replace(/^(\.\.\/)+/, "")
  const name = `${prefix}${own === "" || own === ".." ? rootName : own}`
  return name.length <= 100 ? name : `${name.slice(0, 45)}…${name.slice(-54)}`
}

interface IgnoreFrame {
  /** repository-relative folder the rules were read in ("" at the root) */
  readonly base: string
  readonly rules: Ignore
}

const readGitignore = (dir: string): Ignore | undefined => {
  try {
    return ignore().add(Fs.readFileSync(Path.join(dir, ".gitignore"), "utf8"))
  } catch {
    return undefined
  }
}

const ignoredBy = (frames: ReadonlyArray<IgnoreFrame>, relPath: string, isDir: boolean) =>
  frames.some(({ base, rules }) => {
    const inside = base === "" ? relPath : relPath.slice(base.length + 1)
    return rules.ignores(isDir ? `${inside}/` : inside)
  })

interface Walked {
  /** folders holding a SKILL.md */
  readonly skillDirs: Array<string>
  /** every file not ignored */
  readonly files: Array<string>
}

/** Every file under `start` (repository-relative) that git would not ignore, and the skill folders. */
const walk = (root: string, start: string, frames: ReadonlyArray<IgnoreFrame>, into: Walked) => {
  let entries: Array<Fs.Dirent>
  try {
    entries = Fs.readdirSync(Path.join(root, start), { withFileTypes: true })
  } catch {
    return
  }
  // read only where the listing shows one: most folders have none
  const own = entries.some((e) => e.name === ".gitignore") ? readGitignore(Path.join(root, start)) : undefined
  const here = own ? [...frames, { base: start, rules: own }] : frames
  for (const entry of entries) {
    const rel = start === "" ? entry.name : `${start}/${entry.name}`
    if (entry.isDirectory()) {
      if (NEVER_WALKED.has(entry.name) || ignoredBy(here, rel, true)) continue
      walk(root, rel, here, into)
    } else if (entry.isFile() && !ignoredBy(here, rel, false)) {
      into.files.push(rel)
      if (entry.name === "SKILL.md") into.skillDirs.push(start)
    }
  }
}

/** The .gitignore frames that apply to `start`: the root's and every folder's on the way down. */
const framesAbove = (root: string, start: string): Array<IgnoreFrame> => {
  const frames: Array<IgnoreFrame> = []
  const segments = start === "" ? [] : start.split("/")
  for (let i = 0; i <= segments.length - 1; i++) {
    const base = segments.slice(0, i).join("/")
    const rules = readGitignore(Path.join(root, base))
    if (rules) frames.push({ base, rules })
  }
  return frames
}


/**
 * The artifacts under `paths` (repository-relative, "" for the root), as the configuration narrows
 * them. Deterministic: sorted by path.
 */
export const discover = (root: string, paths: ReadonlyArray<string>, config: RepoConfig): Discovery => {
  const walked: Walked = { skillDirs: [], files: [] }
  for (const start of paths) {
    const stat = Fs.statSync(Path.join(root, start))
    // a skill's SKILL.md named on its own stands for its folder
    const folder = stat.isDirectory() ? start : Path.posix.basename(start) === "SKILL.md" ? Path.posix.dirname(start).replace(/^\.$/, "") : undefined
    if (folder !== undefined) walk(root, folder, framesAbove(root, folder), walked)
    else walked.files.push(start)
  }
  const files = [...new Set(walked.files)].filter((f) => config.selects(f)).sort()
  const skillDirs = [...new Set(walked.skillDirs)].filter((d) => config.selects(d === "" ? "SKILL.md" : `${d}/SKILL.md`)).sort()
  // a skill's files are those whose closest skill folder is it (nested skills own theirs): the
  // file's folders from the nearest up, looked up in a set (a 1,000-skill tree stays linear)
  const skillSet = new Set(skillDirs)
  const owner = (file: string) => {
    for (let end = file.lastIndexOf("/"); end > 0; end = file.lastIndexOf("/", end - 1)) {
      const dir = file.slice(0, end)
      if (skillSet.has(dir)) return dir
    }
    return skillSet.has("") ? "" : undefined
  }
  const bySkill = new Map<string, Array<string>>(skillDirs.map((d) => [d, []]))
  const artifacts: Array<Artifact> = []
  const rootName = Path.basename(root)
  for (const file of files) {
    const skill = owner(file)
    if (skill !== undefined) {
      bySkill.get(skill)!.push(file)
      continue
    }
    const kind = singleFileKind(file)
    if (kind) artifacts.push({ kind, path: file, main: file, files: [file], bundleName: bundleNameFor(config.bundlePrefix, file, rootName) })
  }
  for (const [dir, own] of bySkill) {
    artifacts.push({
      kind: "skill",
      path: dir,
      main: dir === "" ? "SKILL.md" : `${dir}/SKILL.md`,
      files: own,
      bundleName: bundleNameFor(config.bundlePrefix, dir, rootName)
    })
  }
  artifacts.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return { root, artifacts }
}
