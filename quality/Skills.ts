/**
 * Loading the skills the harness measures: every visible corpus folder that exists (the six real
 * skills, the 40 extra ones), the samples in quality/samples and the checked-in fixtures (real MIT
 * skills copied from the extra corpus, so CI measures skills by another author when the corpus is absent).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { Skill } from "./Damage.js"

const here = path.dirname(fileURLToPath(import.meta.url))
export const SAMPLES_DIR = path.join(here, "samples")
export const FIXTURES_DIR = path.join(here, "fixtures")

/** The visible corpora, by the folder name the reports use. */
export const CORPUS_NAMES = ["skills", "skills-extra"] as const

/**
 * The corpus folders: `$QUALITY_CORPUS_DIRS` (a `:`-separated list), else `$QUALITY_CORPUS_DIR`, else
 * each of ../shared/corpus/{skills,skills-extra} beside the repository (or under /work/shared) that exists.
 */
export const corpusDirs = (): Array<string> => {
  const env = process.env.QUALITY_CORPUS_DIRS ?? process.env.QUALITY_CORPUS_DIR
  if (env !== undefined && env.trim() !== "") return env.split(":").filter((d) => d !== "" && fs.existsSync(d))
  return CORPUS_NAMES.flatMap((name) => {
    const found = [path.resolve(here, "../../shared/corpus", name), path.join("/work/shared/corpus", name)].find((d) => fs.existsSync(d))
    return found ? [found] : []
  })
}

const walk = (dir: string): Array<string> =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))

/** A skill folder as a bundle: every text file, paths relative to the folder, in a stable order. */
export const loadSkillDir = (dir: string): Skill => ({
  folder: path.basename(dir),
  files: walk(dir)
    .map((p) => ({ path: path.relative(dir, p).split(path.sep).join("/"), content: fs.readFileSync(p, "utf8") }))
    .filter((f) => !f.content.includes("\u0000"))
})

const skillFolders = (root: string): Array<string> =>
  fs.existsSync(root)
    ? fs
      .readdirSync(root)
      .filter((d) => fs.existsSync(path.join(root, d, "SKILL.md")))
      .sort()
      .map((d) => path.join(root, d))
    : []

/** Where a skill comes from: a corpus folder's name (`skills`, `skills-extra`), `sample` or `fixture`. */
export type SkillSource = string

export interface SourcedSkill {
  readonly skill: Skill
  readonly source: SkillSource
}

export const loadSamples = (): Array<Skill> => skillFolders(SAMPLES_DIR).map(loadSkillDir)

/** The checked-in copies of real skills (quality/fixtures/<folder>, with their license). */
export const loadFixtures = (): Array<Skill> => skillFolders(FIXTURES_DIR).map(loadSkillDir)

/**
 * Every skill, each once: the corpora first, then the samples, then the fixtures whose folder no
 * corpus already gave (with the extra corpus present, a fixture is its copy and is skipped).
 */
export const loadAllSkills = (dirs: ReadonlyArray<string> = corpusDirs()): Array<SourcedSkill> => {
  const out: Array<SourcedSkill> = []
  for (const dir of dirs) for (const d of skillFolders(dir)) out.push({ skill: loadSkillDir(d), source: path.basename(dir) })
  for (const skill of loadSamples()) out.push({ skill, source: "sample" })
  const seen = new Set(out.map((s) => s.skill.folder))
  for (const skill of loadFixtures()) if (!seen.has(skill.folder)) out.push({ skill, source: "fixture" })
  return out
}

/** The skills CI always has: the samples and the fixtures. */
export const loadCheckedIn = (): Array<SourcedSkill> => loadAllSkills([])
