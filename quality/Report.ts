/** The harness's numbers as markdown tables, per kind of damage and per skill, with the goals. */
import type { DamageSeverity } from "./Damage.js"
import type { HarnessReport, VariantResult } from "./Harness.js"

/** The issue's goals, for every kind. */
export const GOALS = { pairwise: 0.95, rises: 0.9, risesWhenChanged: 1, frontmatter: 1, deterministic: 1 } as const

/**
 * Kinds whose damage the apply cannot repair: it cannot write the part of a skill that was cut off.
 * The issue sets their apply goal apart: "apply rises in at least 90% for each kind the apply can fix
 * (a truncated body it cannot restore keeps its finding and never scores lower)". For these, the goal
 * is that no apply scores lower than the damaged skill; the share that rises is still shown.
 */
export const UNREPAIRABLE: ReadonlySet<string> = new Set(["truncated"])

export interface KindSummary {
  readonly id: string
  readonly title: string
  readonly severity: DamageSeverity
  readonly variants: number
  readonly notApplicable: number
  readonly pairwise: number
  readonly rises: number
  /** the share of variants whose apply (when there is one) scores no lower than the damaged skill */
  readonly neverLower: number
  /** of the variants the apply changed: the share whose score rose (the issue's "scores higher whenever it changed something") */
  readonly risesWhenChanged: number
  readonly frontmatter: number
  readonly deterministic: number
  readonly meanDrop: number
  readonly errors: number
  /** the goals this kind misses (empty when all are met) */
  readonly missed: ReadonlyArray<string>
}

const share = (xs: ReadonlyArray<VariantResult>, f: (v: VariantResult) => boolean): number =>
  xs.length === 0 ? 0 : xs.filter(f).length / xs.length

/** Among variants the apply changed; 1 when it changed none (nothing to rise). */
const changedShare = (xs: ReadonlyArray<VariantResult>): number => {
  const made = xs.filter((v) => v.applyMade)
  return made.length === 0 ? 1 : share(made, (v) => v.rises)
}

const neverLower = (v: VariantResult) => v.applied === null || (v.damaged !== null && v.applied >= v.damaged)

const goalsMissed = (kind: string, xs: ReadonlyArray<VariantResult>): Array<string> => {
  if (xs.length === 0) return ["no variants"]
  const missed: Array<string> = []
  if (share(xs, (v) => v.pairwise) < GOALS.pairwise) missed.push("pairwise")
  if (UNREPAIRABLE.has(kind) ? share(xs, neverLower) < 1 : share(xs, (v) => v.rises) < GOALS.rises) missed.push("apply")
  if (changedShare(xs) < GOALS.risesWhenChanged) missed.push("apply changed")
  if (share(xs, (v) => v.frontmatterPreserved) < GOALS.frontmatter) missed.push("frontmatter")
  if (share(xs, (v) => v.deterministic) < GOALS.deterministic) missed.push("determinism")
  return missed
}

const meanDrop = (xs: ReadonlyArray<VariantResult>): number => {
  const scored = xs.filter((v) => v.clean !== null && v.damaged !== null)
  return scored.length === 0 ? 0 : scored.reduce((s, v) => s + (v.clean! - v.damaged!), 0) / scored.length
}

export const summarizeKinds = (report: HarnessReport): Array<KindSummary> =>
  report.kinds.map((k) => {
    const xs = report.variants.filter((v) => v.kind === k.id)
    return {
      id: k.id,
      title: k.title,
      severity: k.severity,
      variants: xs.length,
      notApplicable: report.notApplicable.filter((n) => n.kind === k.id).length,
      pairwise: share(xs, (v) => v.pairwise),
      rises: share(xs, (v) => v.rises),
      neverLower: share(xs, neverLower),
      risesWhenChanged: changedShare(xs),
      frontmatter: share(xs, (v) => v.frontmatterPreserved),
      deterministic: share(xs, (v) => v.deterministic),
      meanDrop: meanDrop(xs),
      errors: xs.filter((v) => v.error !== null).length,
      missed: goalsMissed(k.id, xs)
    }
  })

/** Every kind meets every goal, pooled and in each source on its own. */
export const allGoalsMet = (report: HarnessReport): boolean => !summarizeKinds(report).some((k) => missesAGoal(report, k))

const pct = (x: number): string => `${(Math.round(x * 1000) / 10).toString()}%`
const num = (x: number): string => (Math.round(x * 10) / 10).toFixed(1)

/** The sources of the report's skills, in the order they were loaded. */
const sourcesOf = (report: HarnessReport): Array<string> => [...new Set(report.skills.map((s) => s.source))]

/** Each source's variants of a kind, with the goals they miss on their own. */
const perSource = (report: HarnessReport, kind: string) =>
  sourcesOf(report).map((source) => {
    const xs = report.variants.filter((v) => v.kind === kind && v.source === source)
    return { source, xs, missed: xs.length === 0 ? [] : goalsMissed(kind, xs) }
  })

/** A kind misses a goal pooled, or in one source on its own. */
const missesAGoal = (report: HarnessReport, k: KindSummary): boolean =>
  k.missed.length > 0 || perSource(report, k.id).some((p) => p.missed.length > 0)

/**
 * The goals hold on every corpus, not only pooled: the public corpora are what the held-out sets
 * resemble, the samples were each written in a layout the rules had not met, so the pooled share can
 * hide a source that misses. The kinds that miss a goal pooled or in one source, per source.
 */
const bySource = (report: HarnessReport, kinds: ReadonlyArray<KindSummary>): Array<string> => {
  const sources = sourcesOf(report)
  const missing = kinds.filter((k) => missesAGoal(report, k))
  if (missing.length === 0) return [`Every kind meets every goal in each source on its own (${sources.join(", ")}).`, ""]
  const out = [
    "The kinds that miss a goal, pooled or in a source (pairwise / apply rises, variants; ✗ the goals that source misses):",
    "",
    `| kind | ${sources.join(" | ")} |`,
    `|---|${sources.map(() => "---:").join("|")}|`
  ]
  for (const k of missing) {
    const cells = perSource(report, k.id).map(({ xs, missed }) =>
      xs.length === 0 ? "" : `${pct(share(xs, (v) => v.pairwise))} / ${pct(share(xs, (v) => v.rises))} (${xs.length})${missed.length === 0 ? "" : ` ✗ ${missed.join(", ")}`}`
    )
    out.push(`| \`${k.id}\` | ${cells.join(" | ")} |`)
  }
  return [...out, ""]
}

/** Markdown: the per-kind table, the overall line, the kinds missed by source, the per-skill table and any crash. */
export const renderMarkdown = (report: HarnessReport): string => {
  const kinds = summarizeKinds(report)
  const all = report.variants
  const cleanScores = report.skills.filter((s) => s.clean !== null)
  const mean = cleanScores.reduce((s, x) => s + x.clean!, 0) / Math.max(1, cleanScores.length)
  const lowest = [...cleanScores].sort((a, b) => a.clean! - b.clean! || (a.skill < b.skill ? -1 : 1))[0]
  const sources = sourcesOf(report)
    .map((src) => `${report.skills.filter((s) => s.source === src).length} ${src}`)
    .join(" + ")
  const out: Array<string> = []
  out.push(
    `${report.skills.length} skills (${sources}), ${report.kinds.length} kinds of damage, ${all.length} damaged variants ` +
      `(${report.notApplicable.length} skill/kind pairs where the kind does not apply). ` +
      `Goals: pairwise ≥ ${pct(GOALS.pairwise)}, apply rises ≥ ${pct(GOALS.rises)}, rises when changed ${pct(GOALS.risesWhenChanged)}, frontmatter kept ${pct(GOALS.frontmatter)}, ` +
      `deterministic ${pct(GOALS.deterministic)}.`,
    "",
    "| kind | severity | variants | n/a | pairwise | apply rises | rises when changed | frontmatter kept | deterministic | mean drop | goals |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  )
  for (const k of kinds) {
    out.push(
      `| \`${k.id}\` | ${k.severity} | ${k.variants} | ${k.notApplicable} | ${pct(k.pairwise)} | ${pct(k.rises)}${UNREPAIRABLE.has(k.id) ? "†" : ""} | ${pct(k.risesWhenChanged)} | ` +
        `${pct(k.frontmatter)} | ${pct(k.deterministic)} | ${num(k.meanDrop)} | ` +
        `${k.missed.length === 0 ? "✓" : `✗ ${k.missed.join(", ")}`} |`
    )
  }
  const met = kinds.filter((k) => k.missed.length === 0).length
  out.push(
    `| **all** | | ${all.length} | ${report.notApplicable.length} | ${pct(share(all, (v) => v.pairwise))} | ` +
      `${pct(share(all, (v) => v.rises))} | ${pct(changedShare(all))} | ${pct(share(all, (v) => v.frontmatterPreserved))} | ` +
      `${pct(share(all, (v) => v.deterministic))} | ${num(meanDrop(all))} | ${met}/${kinds.length} kinds meet every goal |`,
    ""
  )
  const unrepairable = kinds.filter((k) => UNREPAIRABLE.has(k.id))
  if (unrepairable.length > 0) {
    out.push(
      `† The apply cannot write what was cut: for ${unrepairable.map((k) => `\`${k.id}\``).join(", ")} the goal is that an apply never scores lower than the damaged skill (${unrepairable.map((k) => `${pct(k.neverLower)}`).join(", ")}); the share that rises is shown.`,
      ""
    )
  }
  out.push(...bySource(report, kinds))
  const blind = kinds.filter((k) => k.variants > 0 && k.pairwise === 0).map((k) => `\`${k.id}\``)
  if (blind.length > 0) out.push(`Not seen at all (pairwise 0%): ${blind.join(", ")}.`, "")
  out.push(
    `Clean scores: mean ${num(mean)}, minimum ${lowest ? `${num(lowest.clean!)} (${lowest.skill})` : "n/a"}.`,
    "",
    "| skill | source | clean score | variants | pairwise | apply rises | damage not seen (clean ≤ damaged) |",
    "|---|---|---:|---:|---:|---:|---|"
  )
  for (const s of report.skills) {
    const xs = all.filter((v) => v.skill === s.skill)
    const missed = xs.filter((v) => !v.pairwise).map((v) => v.kind)
    out.push(
      `| ${s.skill} | ${s.source} | ${s.clean === null ? "crash" : num(s.clean)} | ${xs.length} | ${pct(share(xs, (v) => v.pairwise))} | ` +
        `${pct(share(xs, (v) => v.rises))} | ${missed.length === 0 ? "" : missed.join(", ")} |`
    )
  }
  const crashes = [
    ...report.skills.filter((s) => s.error !== null).map((s) => `${s.skill} (clean): ${s.error}`),
    ...all.filter((v) => v.error !== null).map((v) => `${v.skill} / ${v.kind}: ${v.error}`)
  ]
  if (crashes.length > 0) out.push("", "Crashes:", "", ...crashes.map((c) => `- ${c}`))
  const fm = all.filter((v) => v.frontmatterProblem !== null)
  if (fm.length > 0) out.push("", "Frontmatter not kept by apply:", "", ...fm.map((v) => `- ${v.skill} / ${v.kind}: ${v.frontmatterProblem}`))
  return out.join("\n") + "\n"
}
