/** Loading the skills the harness measures: the visible corpus (when present) and the samples in quality/samples. */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { Skill } from "./Damage.js"

const here = path.dirname(fileURLToPath(import.meta.url))
export const SAMPLES_DIR = path.join(here, "samples")

/** The corpus: $QUALITY_CORPUS_DIR, else ../shared/corpus/skills beside the repository, else /work/shared/corpus/skills. */
export const corpusDir = (): string | undefined =>
  [process.env.QUALITY_CORPUS_DIR, path.resolve(here, "../../shared/corpus/skills"), "/work/shared/corpus/skills"]
    .filter((d): d is string => d !== undefined && d !== "")
    .find((d) => fs.existsSync(d))

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
  fs
    .readdirSync(root)
    .filter((d) => fs.existsSync(path.join(root, d, "SKILL.md")))
    .sort()
    .map((d) => path.join(root, d))

export type SkillSource = "corpus" | "sample"

export interface SourcedSkill {
  readonly skill: Skill
  readonly source: SkillSource
}

export const loadSamples = (): Array<Skill> => skillFolders(SAMPLES_DIR).map(loadSkillDir)

export const loadAllSkills = (): Array<SourcedSkill> => {
  const corpus = corpusDir()
  return [
    ...(corpus ? skillFolders(corpus).map((d) => ({ skill: loadSkillDir(d), source: "corpus" as const })) : []),
    ...loadSamples().map((skill) => ({ skill, source: "sample" as const }))
  ]
}
