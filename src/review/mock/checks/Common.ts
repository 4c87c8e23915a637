/**
 * Shared types and helpers of the mock reviewer's checks: findings (`Issue`), deductions, the
 * per-check accumulator `Out`, and small text helpers.
 */
import type { CriterionKey } from "../../rubrics/Criteria.js"
import type { ArtifactType } from "../../../domain/Artifact.js"
import type { Severity } from "../../Types.js"
import { ruleIdFor } from "../../rules/Rules.js"
import { COVERAGE_SINCE } from "../../rubrics/Rubrics.js"
import type { BundleIndex, Doc } from "../../../markdown/Document.js"

export interface Issue {
  readonly criterion: CriterionKey
  readonly code: string
  readonly severity: Severity
  readonly line: number
  readonly lineEnd: number
  readonly message: string
  readonly suggestion: string
}

export interface Deduction {
  readonly points: number
  readonly reason: string
  /** a coverage shortfall (`Out.short`), not the cost of a finding: the rubric version that first asked for it */
  readonly shortfall?: string
  /**
   * a shortfall whose cost changed: the points the versions before each `version` gave it, oldest
   * first (a run pinned before the first entry's version pays the first entry's points)
   */
  readonly before?: ReadonlyArray<{ readonly version: string; readonly points: number }>
}

export interface CheckOutcome {
  readonly issues: ReadonlyArray<Issue>
  readonly deductions: ReadonlyArray<Deduction>
  readonly notes: ReadonlyArray<string>
  /** the rule codes of the criterion's shortfalls (see `Out.short`): the apply acts on them as on findings */
  readonly shortfalls: ReadonlyArray<string>
}

export interface CheckContext {
  readonly doc: Doc
  readonly bundle: BundleIndex
  readonly artifactType: ArtifactType
  readonly mode: "file" | "bundle"
  /** the artifact's folder: link targets written from the skill root resolve against it */
  readonly rootDir: string
  /** the analysed instruction document at a bundle path (analysed lazily, cached) */
  readonly docAt: (path: string) => Doc | undefined
  /** the bundle's name (a SKILL.md at the bundle root takes it as its folder when no folder is known) */
  readonly bundleName?: string | undefined
  /** the folder the bundle's files came from, when the client said (`rubr check DIR`) */
  readonly folderName?: string | undefined
  /** rule ids the bundle turned off */
  readonly disabledRules: ReadonlySet<string>
  /** how far a point of the criterion moves the overall score: its weight's share of the rubric's */
  readonly weightShare: (key: CriterionKey) => number
  /**
   * for the apply: the overall score of the review it follows, before rounding, so a repair whose worth
   * is its score (a heading that shortens the sections) is made only when the score as shown rises
   */
  readonly scoredBefore?: number | undefined
}

const RANK: Readonly<Record<Severity, number>> = { info: 0, minor: 1, major: 2, critical: 3 }

/**
 * One check's findings and deductions. A deduction belongs to a rule: the one named, else the rule of
 * the last finding made. A rule the bundle turned off (`settings.disabledRules`) makes no finding and
 * costs nothing. Neither does a rule whose findings are all info notes: the score falls with the
 * severity of what is wrong, never with the number of remarks.
 */
export class Out {
  readonly issues: Array<Issue> = []
  readonly deductions: Array<Deduction> = []
  readonly notes: Array<string> = []
  readonly shortfalls: Array<string> = []
  private current: string | null = null
  /** the highest severity found so far per rule code */
  private readonly worst = new Map<string, Severity>()
  constructor(readonly criterion: CriterionKey, private readonly disabledRules: ReadonlySet<string> = new Set()) {}
  /** whether the bundle turned this rule of the criterion off */
  isDisabled(code: string) {
    return this.disabledRules.size > 0 && this.disabledRules.has(ruleIdFor(this.criterion, code))
  }
  issue(code: string, severity: Severity, line: number, message: string, suggestion: string, lineEnd = line) {
    this.current = code
    if (this.isDisabled(code)) return
    const was = this.worst.get(code)
    if (was === undefined || RANK[severity] > RANK[was]) this.worst.set(code, severity)
    this.issues.push({ criterion: this.criterion, code, severity, line, lineEnd: Math.max(line, lineEnd), message, suggestion })
  }
  deduct(points: number, reason: string, code: string | null = this.current) {
    if (code !== null && (this.isDisabled(code) || this.worst.get(code) === "info")) return
    // to a tenth of a point, so a small deduction (a saturating one near its cap) is not rounded away
    if (points > 0) this.deductions.push({ points: Math.max(0.1, Math.round(points * 10) / 10), reason })
  }
  /** `each` points per item, at most `cap` in all. */
  deductEach(count: number, each: number, cap: number, reason: string, code: string | null = this.current) {
    if (count > 0) this.deduct(Math.min(cap, count * each), count > 1 ? `${reason} (x${count})` : reason, code)
  }
  note(text: string) {
    this.notes.push(text)
  }
  /**
   * Coverage: the text shows less of what the criterion asks for, though nothing in it is wrong (a
   * skill that needs no worked example and has none). No finding, so nothing to label; a few points
   * off this criterion alone, named in its rationale, so a skill that shows the part outscores the same
   * skill without it. Never on a criterion that already lost points: its findings say it.
   */
  short(code: string, points: number, reason: string, since: string = COVERAGE_SINCE, before?: Deduction["before"]) {
    if (this.isDisabled(code) || this.deductions.length > 0) return
    this.shortfalls.push(code)
    this.deductions.push({ points, reason: `short: ${reason}`, shortfall: since, ...(before === undefined ? {} : { before }) })
  }
  done(): CheckOutcome {
    return { issues: this.issues, deductions: this.deductions, notes: this.notes, shortfalls: this.shortfalls }
  }
}

/**
 * The outcome as a built-in rubric `version` scored it: without the shortfalls coverage asked for only
 * later (every one, before coverage), and at the cost it gave those whose cost changed since, so a
 * stored run stays explainable.
 */
export const asScoredBy = (o: CheckOutcome, version: string): CheckOutcome => {
  // a criterion has one shortfall at most (`short` adds none after a deduction)
  if (o.deductions.some((d) => d.shortfall !== undefined && d.shortfall > version)) {
    return { ...o, deductions: o.deductions.filter((d) => d.shortfall === undefined), shortfalls: [] }
  }
  const then = (d: Deduction) => d.before?.find((b) => version < b.version)
  return o.deductions.some((d) => then(d) !== undefined)
    ? { ...o, deductions: o.deductions.map((d) => ({ ...d, points: then(d)?.points ?? d.points })) }
    : o
}

export const decodeURIComponentSafe = (s: string) => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}
export const lastLine = (doc: Doc) => Math.max(1, doc.split.lines.length)
/** The first non-blank line of the body (where whole-document findings point). */
export const bodyStart = (doc: Doc) => {
  const lines = doc.split.lines
  for (let n = doc.md.bodyStartLine; n <= lines.length; n++) if (lines[n - 1]!.trim() !== "") return n
  return Math.min(doc.md.bodyStartLine, Math.max(1, lines.length))
}
export const quote = (s: string, max = 60) => JSON.stringify(s.length > max ? `${s.slice(0, max - 1)}…` : s)

export const proseMatches = (doc: Doc, re: RegExp): Array<number> =>
  doc.prose.filter(([, text]) => re.test(text)).map(([n]) => n)

/** A heading's words without its emoji ("## 🐞 When It Does Nothing" is headed "When It Does Nothing"). */
const withoutEmoji = (text: string): string => text.replace(/[\p{Extended_Pictographic}\uFE0F\u200D]/gu, "").trim()
export const headingMatches = (doc: Doc, re: RegExp) => doc.md.headings.filter((h) => re.test(withoutEmoji(h.text)))

/** The heading a line sits under: the last one above it (none before the first heading). */
export const headingAbove = (doc: Doc, line: number) => [...doc.md.headings].reverse().find((h) => h.line < line)

/** The line after the section under `heading`, its subsections included: the next heading of its level or above. */
export const sectionEnd = (doc: Doc, heading: { readonly line: number; readonly level: number }): number =>
  doc.md.headings.find((x) => x.line > heading.line && x.level <= heading.level)?.line ?? doc.split.lines.length + 1

/** Whether a line of the section under `heading` (its subsections included), outside code, matches `re`. */
export const sectionHas = (doc: Doc, heading: { readonly line: number; readonly level: number }, re: RegExp): boolean => {
  const end = sectionEnd(doc, heading)
  for (let n = heading.line + 1; n < end; n++) if (!doc.md.inCode[n] && re.test(doc.split.lines[n - 1] ?? "")) return true
  return false
}

/** For a frontmatter opened and never closed: its last YAML line (key lines and their continuations). */
export const unclosedFrontmatterEnd = (doc: Doc): number | undefined => {
  if (!doc.fm.present || doc.fm.closed) return undefined
  const lines = doc.split.lines
  let end = 1
  for (let n = 2; n <= lines.length; n++) {
    const l = lines[n - 1]!
    if (/^[A-Za-z0-9_][\w.-]*\s*:/.test(l) || (/^\s+\S/.test(l) && end === n - 1) || (/^\s*-\s/.test(l) && end === n - 1)) end = n
    else break
  }
  return end
}
