/**
 * The seeded-defect harness: every skill, clean and with each kind of damage, reviewed by the mock
 * reviewer the way a user's audit runs it (file mode, the skill's whole folder as context, the
 * built-in `skill` rubric), then the improved version applied and reviewed again.
 */
import { Option } from "effect"
import { reviewWithMock } from "../src/review/mock/MockReviewer.js"
import { getRubric } from "../src/review/rubrics/Registry.js"
import { type FrontmatterField, parseFrontmatter } from "../src/markdown/Frontmatter.js"
import type { ReviewFile, ReviewInput, ReviewResult, Rubric } from "../src/review/Types.js"
import { DAMAGE_KINDS, type DamageKind, type DamageSeverity, type Skill, SKILL_MD, skillMd, withSkillMd } from "./Damage.js"
import { fingerprints } from "./Labels.js"
import { loadAllSkills, type SkillSource, type SourcedSkill } from "./Skills.js"

export interface VariantResult {
  readonly skill: string
  readonly source: SkillSource
  readonly kind: string
  readonly severity: DamageSeverity
  readonly clean: number | null
  /** null when the review crashed */
  readonly damaged: number | null
  /** the score after applying the improved version; null when there was none (or a crash) */
  readonly applied: number | null
  /** clean strictly above damaged (a tie is a miss) */
  readonly pairwise: boolean
  readonly applyMade: boolean
  /** applied strictly above damaged */
  readonly rises: boolean
  readonly frontmatterPreserved: boolean
  readonly frontmatterProblem: string | null
  /** clean, damaged and applied reviews each byte-identical when run twice */
  readonly deterministic: boolean
  readonly changes: ReadonlyArray<string>
  readonly error: string | null
}

/** A finding at minor or above on a clean skill, with the fingerprint its label is keyed by. */
export interface CleanFinding {
  readonly key: string
  readonly ruleId: string
  readonly severity: "critical" | "major" | "minor"
  readonly filePath: string
  readonly line: number
  readonly message: string
}

export interface SkillResult {
  readonly skill: string
  readonly source: SkillSource
  readonly clean: number | null
  readonly error: string | null
  /** the clean review's findings at minor or above */
  readonly findings: ReadonlyArray<CleanFinding>
  /** the clean review's info notes (counted, never judged) */
  readonly infoNotes: number
}

export interface HarnessReport {
  readonly kinds: ReadonlyArray<DamageKind>
  readonly skills: ReadonlyArray<SkillResult>
  readonly variants: ReadonlyArray<VariantResult>
  /** skill/kind pairs where the kind did not apply (apply returned null) */
  readonly notApplicable: ReadonlyArray<{ readonly skill: string; readonly kind: string }>
}

const SKILL_RUBRIC: Rubric = Option.getOrThrow(getRubric("skill"))

/** The review a user's audit of this folder would run: file mode on SKILL.md, every bundle file as context. */
export const reviewInput = (skill: Skill): ReviewInput => {
  const files: Array<ReviewFile> = skill.files.map((f) => ({
    path: f.path,
    content: f.content,
    fileVersionId: `fv-${f.path}`,
    isPrimary: f.path === SKILL_MD
  }))
  const target = files.find((f) => f.path === SKILL_MD)
  if (!target) throw new Error(`${skill.folder}: no ${SKILL_MD}`)
  return {
    mode: "file",
    artifactType: "skill",
    rubric: SKILL_RUBRIC,
    target,
    files,
    modelTier: "cheap",
    reasoningEffort: "low",
    bundleName: skill.folder,
    // as `rubr check DIR` sends it: the folder the skill's files were read from
    folderName: skill.folder
  }
}

type Reviewed = { readonly result: ReviewResult; readonly deterministic: boolean } | { readonly error: string }

/** Reviews twice: a crash is recorded, not thrown, and the two JSON texts must be identical. */
const review = (skill: Skill): Reviewed => {
  try {
    const input = reviewInput(skill)
    const first = reviewWithMock(input)
    const second = reviewWithMock(input)
    return { result: first, deterministic: JSON.stringify(first) === JSON.stringify(second) }
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }
  }
}

const sameField = (a: FrontmatterField, b: FrontmatterField): string | null => {
  if (a.kind === "map") {
    if (b.kind !== "map") return `${a.key} is no longer a map`
    for (const child of a.children) {
      const other = b.children.find((c) => c.key === child.key)
      if (!other) return `${a.key}.${child.key} was dropped`
      const diff = sameField(child, other)
      if (diff) return `${a.key}.${diff}`
    }
    return null
  }
  if (a.kind === "list") return a.items.join("\u0000") === b.items.join("\u0000") ? null : `${a.key}: the list changed`
  return a.value === b.value ? null : `${a.key} changed from ${JSON.stringify(a.value)} to ${JSON.stringify(b.value)}`
}

/**
 * The keys of a frontmatter that was opened and never closed: the `key: value` lines up to the first
 * heading or the first blank line not followed by more YAML, read by closing the block there.
 */
const unclosedFields = (text: string): ReadonlyArray<FrontmatterField> => {
  const lines = text.split(/\r?\n/)
  let end = 1
  while (end < lines.length) {
    const l = lines[end]!
    if (/^#{1,6}\s/.test(l)) break
    if (l.trim() === "") {
      const next = lines.slice(end + 1).find((x) => x.trim() !== "")
      if (next === undefined || !(/^[\w.-]+\s*:/.test(next) || /^\s/.test(next))) break
    }
    end++
  }
  return parseFrontmatter([...lines.slice(0, end), "---", ...lines.slice(end)].join("\n")).fields
}

/**
 * Every frontmatter key of the damaged SKILL.md keeps its value after apply, except `name` and
 * `description` when the changes say they were changed; an unclosed block must come back closed.
 */
export const frontmatterKept = (damaged: string, applied: string, changes: ReadonlyArray<string>): string | null => {
  const before = parseFrontmatter(damaged)
  const after = parseFrontmatter(applied)
  const unclosed = before.present && !before.closed
  if (unclosed && !after.closed) return "the frontmatter is still not closed"
  const fields = unclosed ? unclosedFields(damaged) : before.fields
  for (const f of fields) {
    if ((f.key === "name" || f.key === "description") && changes.some((c) => new RegExp(`\\b${f.key}\\b`, "i").test(c))) continue
    const g = after.fields.find((x) => x.key === f.key)
    if (!g) return `${f.key} was dropped`
    const diff = sameField(f, g)
    if (diff) return diff
  }
  return null
}

const variantOf = (sourced: SourcedSkill, kind: DamageKind, damagedSkill: Skill, clean: Reviewed): VariantResult => {
  const { skill, source } = sourced
  const base = { skill: skill.folder, source, kind: kind.id, severity: kind.severity }
  const cleanScore = "error" in clean ? null : clean.result.overallScore
  const damaged = review(damagedSkill)
  if ("error" in damaged || "error" in clean) {
    return {
      ...base,
      clean: cleanScore,
      damaged: "error" in damaged ? null : damaged.result.overallScore,
      applied: null,
      pairwise: false,
      applyMade: false,
      rises: false,
      frontmatterPreserved: false,
      frontmatterProblem: null,
      deterministic: false,
      changes: [],
      error: "error" in damaged ? `damaged: ${damaged.error}` : `clean: ${(clean as { error: string }).error}`
    }
  }
  const improved = damaged.result.improvedVersion
  let applied: Reviewed | null = null
  let fmProblem: string | null = null
  if (improved) {
    applied = review(withSkillMd(damagedSkill, improved.content))
    fmProblem = frontmatterKept(skillMd(damagedSkill)!, improved.content, improved.changes)
  }
  const appliedScore = applied && !("error" in applied) ? applied.result.overallScore : null
  return {
    ...base,
    clean: cleanScore,
    damaged: damaged.result.overallScore,
    applied: appliedScore,
    pairwise: cleanScore !== null && cleanScore > damaged.result.overallScore,
    applyMade: improved !== null,
    rises: appliedScore !== null && appliedScore > damaged.result.overallScore,
    frontmatterPreserved: fmProblem === null,
    frontmatterProblem: fmProblem,
    deterministic: clean.deterministic && damaged.deterministic && (applied === null || ("deterministic" in applied && applied.deterministic)),
    changes: improved?.changes ?? [],
    error: applied && "error" in applied ? `applied: ${applied.error}` : null
  }
}

export const runHarness = (
  skills: ReadonlyArray<SourcedSkill> = loadAllSkills(),
  kinds: ReadonlyArray<DamageKind> = DAMAGE_KINDS
): HarnessReport => {
  const skillResults: Array<SkillResult> = []
  const variants: Array<VariantResult> = []
  const notApplicable: Array<{ skill: string; kind: string }> = []
  for (const sourced of skills) {
    const clean = review(sourced.skill)
    const found = "error" in clean ? [] : clean.result.findings
    const contentOf = (p: string) => sourced.skill.files.find((f) => f.path === p)?.content
    skillResults.push({
      skill: sourced.skill.folder,
      source: sourced.source,
      clean: "error" in clean ? null : clean.result.overallScore,
      error: "error" in clean ? clean.error : null,
      findings: fingerprints(sourced.skill.folder, found, contentOf).map(({ key, finding: f }) => ({
        key,
        ruleId: f.ruleId,
        severity: f.severity as CleanFinding["severity"],
        filePath: f.filePath,
        line: f.lineStart,
        message: f.message
      })),
      infoNotes: found.filter((f) => f.severity === "info").length
    })
    for (const kind of kinds) {
      const damaged = kind.apply(sourced.skill)
      if (damaged === null) notApplicable.push({ skill: sourced.skill.folder, kind: kind.id })
      else variants.push(variantOf(sourced, kind, damaged, clean))
    }
  }
  return { kinds, skills: skillResults, variants, notApplicable }
}
