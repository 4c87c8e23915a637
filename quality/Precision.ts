/**
 * What the mock reviewer says about good skills: the labelled findings on every clean skill, per
 * rule and severity band, and how many findings a clean skill gets (noise). The goals are the issue's.
 */
import type { CleanFinding, HarnessReport, SkillResult } from "./Harness.js"
import type { Labels } from "./Labels.js"

export const PRECISION_GOALS = {
  /** share of findings at major or above labelled correct */
  majorOrAbove: 0.95,
  /** share of minor findings labelled correct */
  minor: 0.85,
  /** incorrect critical findings allowed */
  incorrectCritical: 0,
  /** the median count of findings at minor or above per clean skill, in every source */
  noiseMedian: 3,
  /** every clean skill scores at least this */
  cleanScore: 85
} as const

export type Band = "critical" | "major" | "minor"
export const BANDS: ReadonlyArray<Band> = ["critical", "major", "minor"]

export interface Tally {
  correct: number
  incorrect: number
  unlabeled: number
}

const tally = (): Tally => ({ correct: 0, incorrect: 0, unlabeled: 0 })

export interface RulePrecision {
  readonly ruleId: string
  readonly bands: Readonly<Record<Band, Tally>>
}

export interface Unlabeled {
  readonly skill: string
  readonly source: string
  readonly finding: CleanFinding
}

export interface PrecisionSummary {
  readonly rules: ReadonlyArray<RulePrecision>
  readonly majorOrAbove: Tally
  readonly minor: Tally
  readonly incorrectCritical: number
  readonly unlabeled: ReadonlyArray<Unlabeled>
  /** per source: the median count of findings at minor or above per skill, and the skills counted */
  readonly noise: ReadonlyArray<{ readonly source: string; readonly skills: number; readonly median: number; readonly max: number }>
  /** clean skills below the score goal */
  readonly lowScores: ReadonlyArray<{ readonly skill: string; readonly source: string; readonly score: number | null }>
  /** the goals missed (empty when all are met) */
  readonly missed: ReadonlyArray<string>
}

/** Labelled share; 1 with nothing labelled (no finding, nothing wrong). */
export const precisionOf = (t: Tally): number => (t.correct + t.incorrect === 0 ? 1 : t.correct / (t.correct + t.incorrect))

export const median = (xs: ReadonlyArray<number>): number => {
  if (xs.length === 0) return 0
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

const add = (t: Tally, verdict: "correct" | "incorrect" | undefined) => {
  if (verdict === undefined) t.unlabeled++
  else t[verdict]++
}

export const summarizePrecision = (skills: ReadonlyArray<SkillResult>, labels: Labels): PrecisionSummary => {
  const rules = new Map<string, Record<Band, Tally>>()
  const majorOrAbove = tally()
  const minor = tally()
  let incorrectCritical = 0
  const unlabeled: Array<Unlabeled> = []
  for (const s of skills) {
    for (const f of s.findings) {
      const verdict = labels.get(f.key)?.label
      const bands = rules.get(f.ruleId) ?? { critical: tally(), major: tally(), minor: tally() }
      rules.set(f.ruleId, bands)
      add(bands[f.severity], verdict)
      add(f.severity === "minor" ? minor : majorOrAbove, verdict)
      if (f.severity === "critical" && verdict === "incorrect") incorrectCritical++
      if (verdict === undefined) unlabeled.push({ skill: s.skill, source: s.source, finding: f })
    }
  }
  const sources = [...new Set(skills.map((s) => s.source))]
  const noise = sources.map((source) => {
    const counts = skills.filter((s) => s.source === source).map((s) => s.findings.length)
    return { source, skills: counts.length, median: median(counts), max: Math.max(0, ...counts) }
  })
  const lowScores = skills
    .filter((s) => s.clean === null || s.clean < PRECISION_GOALS.cleanScore)
    .map((s) => ({ skill: s.skill, source: s.source, score: s.clean }))
  const missed: Array<string> = []
  if (precisionOf(majorOrAbove) < PRECISION_GOALS.majorOrAbove) missed.push("precision at major or above")
  if (precisionOf(minor) < PRECISION_GOALS.minor) missed.push("precision at minor")
  if (incorrectCritical > PRECISION_GOALS.incorrectCritical) missed.push("an incorrect critical finding")
  if (noise.some((n) => n.median > PRECISION_GOALS.noiseMedian)) missed.push("noise")
  if (lowScores.length > 0) missed.push("clean score")
  if (unlabeled.length > 0) missed.push("unlabeled findings")
  return {
    rules: [...rules.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([ruleId, bands]) => ({ ruleId, bands })),
    majorOrAbove,
    minor,
    incorrectCritical,
    unlabeled,
    noise,
    lowScores,
    missed
  }
}

export const precisionGoalsMet = (report: HarnessReport, labels: Labels): boolean => summarizePrecision(report.skills, labels).missed.length === 0

const pct = (x: number): string => `${(Math.round(x * 1000) / 10).toString()}%`
const cell = (t: Tally): string =>
  t.correct + t.incorrect + t.unlabeled === 0 ? "" : `${t.correct}/${t.correct + t.incorrect}${t.unlabeled > 0 ? ` (+${t.unlabeled} unlabeled)` : ""}`
const judgedPct = (t: Tally): string => (t.correct + t.incorrect === 0 ? "–" : pct(precisionOf(t)))

/** Markdown: the goals line, the per-rule table (correct/judged per band), noise per source, and every unlabeled finding. */
export const renderPrecision = (report: HarnessReport, labels: Labels): string => {
  const p = summarizePrecision(report.skills, labels)
  const total = p.rules.reduce((n, r) => n + BANDS.reduce((m, b) => m + r.bands[b].correct + r.bands[b].incorrect + r.bands[b].unlabeled, 0), 0)
  const out: Array<string> = []
  out.push(
    `Findings at minor or above on the ${report.skills.length} clean skills: ${total}. ` +
      `Precision at major or above ${judgedPct(p.majorOrAbove)} (${cell(p.majorOrAbove) || "0/0"}; goal ≥ ${pct(PRECISION_GOALS.majorOrAbove)}), ` +
      `at minor ${judgedPct(p.minor)} (${cell(p.minor) || "0/0"}; goal ≥ ${pct(PRECISION_GOALS.minor)}), ` +
      `incorrect critical findings ${p.incorrectCritical} (goal 0). ` +
      `Noise, the median count of findings at minor or above per skill (goal ≤ ${PRECISION_GOALS.noiseMedian}): ` +
      `${p.noise.map((n) => `${n.source} ${n.median} (max ${n.max}, ${n.skills} skills)`).join(", ")}. ` +
      `Clean scores below ${PRECISION_GOALS.cleanScore}: ${p.lowScores.length === 0 ? "none" : p.lowScores.map((s) => `${s.skill} ${s.score ?? "crash"}`).join(", ")}. ` +
      `${p.missed.length === 0 ? "Every precision goal is met." : `Missed: ${p.missed.join(", ")}.`}`,
    "",
    "| rule | critical | major | minor | precision |",
    "|---|---:|---:|---:|---:|"
  )
  for (const r of p.rules) {
    const all = BANDS.reduce((t, b) => ({
      correct: t.correct + r.bands[b].correct,
      incorrect: t.incorrect + r.bands[b].incorrect,
      unlabeled: t.unlabeled + r.bands[b].unlabeled
    }), tally())
    out.push(`| \`${r.ruleId}\` | ${cell(r.bands.critical)} | ${cell(r.bands.major)} | ${cell(r.bands.minor)} | ${judgedPct(all)} |`)
  }
  out.push("", "Each cell is correct/judged; `+N unlabeled` counts findings with no label yet.")
  if (p.unlabeled.length > 0) {
    out.push("", `Unlabeled findings (${p.unlabeled.length}): add each to quality/labels/<corpus>.json with a verdict and a reason.`, "")
    for (const u of p.unlabeled) out.push(`- [${u.source}] ${u.finding.severity} \`${u.finding.key}\` (line ${u.finding.line}): ${u.finding.message}`)
  }
  return out.join("\n") + "\n"
}
