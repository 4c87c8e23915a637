/**
 * The deterministic mock reviewer (SERVICE_AI_ENABLED=false): rule-based scoring against the
 * rubric, findings that point at lines, an improved version with the safe fixes, and an eval kit.
 * Same input, byte-identical output: no clock, no randomness, stable ordering everywhere.
 */
import { Effect, Layer, Option } from "effect"
import * as Crypto from "node:crypto"
import { AiReviewer } from "../AiReviewer.js"
import { AiProviderError } from "../../ai/ProviderError.js"
import { type CriterionKey, isCriterionKey } from "../rubrics/Criteria.js"
import type { CriterionScore, Finding, ImprovedFile, ReviewFile, ReviewInput, ReviewResult } from "../Types.js"
import { extname } from "../../markdown/Paths.js"
import { CHECKS, type CheckContext, type CheckOutcome, type Issue } from "./Checks.js"
import { asScoredBy } from "./checks/Common.js"
import { getRubric } from "../rubrics/Registry.js"
import { analyzeDoc, BundleIndex, type Doc, isInstructionFile } from "../../markdown/Document.js"
import { buildEvalKit } from "../EvalKit.js"
import { LENGTH_BUDGETS } from "./checks/Layout.js"
import { improveDoc } from "./Improve.js"
import { getField } from "../../markdown/Frontmatter.js"
import { ruleIdFor } from "../rules/Rules.js"
import { shownScore, unroundedScoreOf, weightShareOf } from "../Score.js"

export const MOCK_PROVIDER = "mock"
export const MOCK_MODEL = "rubr-mock-1"

/** Criteria scored by what is absent (no contradiction, no hazard): not judged on a thin document. */
const JUDGED_BY_ABSENCE: ReadonlySet<CriterionKey> = new Set(["consistency", "safety"])

const SEVERITY_RANK = { critical: 0, major: 1, minor: 2, info: 3 } as const
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const scoreOf = (o: CheckOutcome) => Math.max(0, Math.min(100, Math.round(10 * (100 - o.deductions.reduce((s, d) => s + d.points, 0))) / 10))

const rationaleOf = (o: CheckOutcome): string => {
  const ded = o.deductions.map((d) => `-${d.points} ${d.reason}`)
  const parts = [...ded, ...o.notes]
  return parts.length === 0 ? "no issues found" : parts.join("; ")
}

/** What one review reads: every file (sorted by path), the documents reviewed, the criteria the mock knows, and a check's context. */
const subjectOf = (input: ReviewInput) => {
  const fileMode = input.mode === "file" && input.target !== null
  const all: Array<ReviewFile> = [...input.files]
  if (input.target && !all.some((f) => f.path === input.target!.path)) all.push(input.target)
  all.sort((a, b) => cmp(a.path, b.path))
  const bundle = new BundleIndex(all.map((f) => f.path))
  const byPath = new Map(all.map((f) => [f.path, f] as const))
  const cache = new Map<string, Doc>()
  const docAt = (path: string): Doc | undefined => {
    const hit = cache.get(path)
    if (hit) return hit
    const f = byPath.get(path)
    if (!f || !isInstructionFile(path)) return undefined
    const d = analyzeDoc(f)
    cache.set(path, d)
    return d
  }
  let reviewed: Array<Doc>
  if (fileMode) {
    const t = input.target!
    const d = analyzeDoc(t)
    cache.set(t.path, d)
    reviewed = [d]
  } else {
    reviewed = all.filter((f) => isInstructionFile(f.path)).map((f) => docAt(f.path)!)
    if (reviewed.length === 0) reviewed = all.map(analyzeDoc)
  }
  const rootDir = fileMode ? reviewed[0]!.dir : ""
  const known = input.rubric.criteria.filter((c) => isCriterionKey(c.key))
  const criteriaSet = new Set<CriterionKey>(known.map((c) => c.key as CriterionKey))
  const disabledRules = new Set(input.disabledRules ?? [])
  // a built-in version is scored as it was when it shipped (custom rubrics get all of coverage)
  const builtIn = Option.isSome(getRubric(input.rubric.key, input.rubric.version)) ? input.rubric.version : null
  const weightShare = (key: CriterionKey): number => weightShareOf(input.rubric.criteria, key)
  const ctxFor = (doc: Doc): CheckContext => ({
    doc,
    bundle,
    artifactType: input.artifactType,
    mode: fileMode ? "file" : "bundle",
    rootDir,
    docAt,
    bundleName: input.bundleName,
    folderName: input.folderName,
    disabledRules,
    weightShare
  })
  return { fileMode, all, bundle, reviewed, known, criteriaSet, ctxFor, builtIn } as const
}
type Subject = ReturnType<typeof subjectOf>

/** An issue with the path of the file it was found in. */
interface LocatedIssue {
  readonly issue: Issue
  readonly path: string
}
/** One check's outcome on one document, with its score. */
interface Scored {
  readonly d: Doc
  o: CheckOutcome
  s: number
}

/** Every check on every reviewed document first (a thin document's absence criteria need the others); their issues go to `issues`. */
const runChecks = ({ known, reviewed, ctxFor, builtIn }: Subject, issues: Array<LocatedIssue>) => {
  const outcomesOf = new Map<CriterionKey, Array<Scored>>()
  for (const c of known) {
    const check = CHECKS[c.key as CriterionKey]
    const outcomes = reviewed.map((d) => {
      const o = builtIn === null ? check(ctxFor(d)) : asScoredBy(check(ctxFor(d)), builtIn)
      return { d, o, s: scoreOf(o) }
    })
    for (const { d, o } of outcomes) for (const issue of o.issues) issues.push({ issue, path: d.path })
    outcomesOf.set(c.key as CriterionKey, outcomes)
  }
  return outcomesOf
}

/**
 * "No contradiction, nothing unsafe" proves little in a text too short to hold either: on a thin
 * document these criteria take the mean of its other scores, so they neither lift nor sink it.
 */
const scoreThinByOthers = (outcomesOf: ReadonlyMap<CriterionKey, Array<Scored>>, reviewed: ReadonlyArray<Doc>, artifactType: ReviewInput["artifactType"]) => {
  const thin = new Set(reviewed.filter((d) => d.words < LENGTH_BUDGETS[artifactType].minWords))
  const ownMean = (d: Doc) => {
    const others = [...outcomesOf].filter(([k]) => !JUDGED_BY_ABSENCE.has(k)).map(([, os]) => os.find((x) => x.d === d)!.s)
    return others.length === 0 ? 100 : Math.round((10 * others.reduce((a, x) => a + x, 0)) / others.length) / 10
  }
  for (const [k, outcomes] of outcomesOf) {
    if (!JUDGED_BY_ABSENCE.has(k)) continue
    for (const x of outcomes) {
      if (!thin.has(x.d) || x.o.deductions.length > 0) continue
      x.s = ownMean(x.d)
      x.o = { ...x.o, notes: [`too little text to judge (${x.d.words} words): scored as the mean of the other criteria`] }
    }
  }
}

/** A criterion's score over the reviewed documents: the one document's, or the mean with the worst named. */
const criterionScoreOf = (outcomes: ReadonlyArray<Scored>) => {
  if (outcomes.length === 1) return { score: outcomes[0]!.s, rationale: rationaleOf(outcomes[0]!.o) }
  const score = Math.round((10 * outcomes.reduce((s, x) => s + x.s, 0)) / Math.max(1, outcomes.length)) / 10
  const worst = outcomes
    .filter((x) => x.s < 100)
    .sort((a, b) => a.s - b.s || cmp(a.d.path, b.d.path))
  const rationale = `mean over ${outcomes.length} files` +
    (worst.length === 0
      ? "; no issues found"
      : `; ${worst.slice(0, 5).map((x) => `${x.d.path} ${x.s} (${x.o.deductions.map((d) => `-${d.points} ${d.reason}`).join(", ") || x.o.notes.join(", ")})`).join("; ")}${worst.length > 5 ? `; ${worst.length - 5} more below 100` : ""}`)
  return { score, rationale }
}

/** Data files in a bundle review: a JSON file must parse; one that does not is a formatting issue. */
const invalidJsonOf = (files: ReadonlyArray<ReviewFile>): Array<LocatedIssue> =>
  files.filter((x) => extname(x.path) === ".json").flatMap((f) => {
    try {
      JSON.parse(f.content)
      return []
    } catch (e) {
      const pos = Number((String(e).match(/position (\d+)/) ?? [])[1] ?? NaN)
      const line = Number.isNaN(pos) ? 1 : f.content.slice(0, pos).split("\n").length
      return [{
        path: f.path,
        issue: {
          criterion: "formatting",
          code: "invalid_json",
          severity: "major",
          line,
          lineEnd: line,
          message: "This JSON file does not parse",
          suggestion: "Fix the JSON syntax (a trailing comma, a missing quote or bracket)."
        }
      }]
    }
  })

/** Every criterion of the rubric scored; one the mock has no rule for takes the mean of the others. */
const criterionScores = (input: ReviewInput, { fileMode, all, known }: Subject, outcomesOf: ReadonlyMap<CriterionKey, ReadonlyArray<Scored>>, issues: Array<LocatedIssue>) => {
  const computed = new Map<string, { score: number; rationale: string }>()
  for (const c of known) {
    let { score, rationale } = criterionScoreOf(outcomesOf.get(c.key as CriterionKey)!)
    if (c.key === "formatting" && !fileMode) {
      for (const invalid of invalidJsonOf(all)) {
        issues.push(invalid)
        score = Math.max(0, score - 15)
        rationale += `; -15 ${invalid.path} is invalid JSON`
      }
    }
    computed.set(c.key, { score, rationale })
  }
  const knownScores = [...computed.values()].map((v) => v.score)
  const fallback = knownScores.length === 0 ? 100 : Math.round((10 * knownScores.reduce((s, x) => s + x, 0)) / knownScores.length) / 10
  return input.rubric.criteria.map((c): CriterionScore => {
    const v = computed.get(c.key)
    return {
      key: c.key,
      label: c.label,
      weight: c.weight,
      score: v ? v.score : fallback,
      rationale: v
        ? v.rationale
        : `the mock reviewer has no rule for '${c.key}'; scored as the mean of the other criteria so it does not move the overall score`
    }
  })
}

/** The issues as findings, in a stable order (severity, path, line, ...), each with an id unique in the review. */
const findingsOf = (issues: Array<LocatedIssue>): Array<Finding> => {
  issues.sort(
    (a, b) =>
      SEVERITY_RANK[a.issue.severity] - SEVERITY_RANK[b.issue.severity] ||
      cmp(a.path, b.path) ||
      a.issue.line - b.issue.line ||
      cmp(a.issue.criterion, b.issue.criterion) ||
      cmp(a.issue.code, b.issue.code) ||
      cmp(a.issue.message, b.issue.message)
  )
  const ids = new Map<string, number>()
  return issues.map(({ issue, path }) => {
    const base = `${issue.criterion}.${issue.code}:${path}:${issue.line}`
    const n = (ids.get(base) ?? 0) + 1
    ids.set(base, n)
    return {
      id: n === 1 ? base : `${base}#${n}`,
      ruleId: ruleIdFor(issue.criterion, issue.code),
      criterionKey: issue.criterion,
      severity: issue.severity,
      filePath: path,
      lineStart: issue.line,
      lineEnd: issue.lineEnd,
      message: issue.message,
      suggestion: issue.suggestion
    }
  })
}

/** The improved version (a file review) or the improved files (a bundle review), with the safe fixes. */
const improvementsOf = ({ fileMode, reviewed, criteriaSet, ctxFor }: Subject, findings: ReadonlyArray<Finding>, outcomesOf: ReadonlyMap<CriterionKey, Array<Scored>>, scoredBefore: number) => {
  let improvedVersion: ImprovedFile | null = null
  const improvedFiles: Array<ImprovedFile> = []
  if (fileMode) {
    const target = reviewed[0]!
    // the apply repairs what costs: an info note is a remark, and a change for it would raise nothing
    // and what a criterion is short of (a worked example the skill may not need): shown, it scores higher
    const foundHere = new Set(findings.filter((f) => f.filePath === target.path && f.severity !== "info").map((f) => f.ruleId))
    for (const [key, outcomes] of outcomesOf) for (const code of outcomes.find((x) => x.d === target)?.o.shortfalls ?? []) foundHere.add(ruleIdFor(key, code))
    const imp = improveDoc({ ...ctxFor(target), scoredBefore }, criteriaSet, true, (id) => foundHere.has(id))
    if (imp) improvedVersion = { path: reviewed[0]!.path, content: imp.content, changes: imp.changes }
  } else {
    for (const d of reviewed) {
      const imp = improveDoc(ctxFor(d), criteriaSet, false)
      if (imp) improvedFiles.push({ path: d.path, content: imp.content, changes: imp.changes })
    }
  }
  return { improvedVersion, improvedFiles }
}

export const reviewWithMock = (input: ReviewInput): ReviewResult => {
  const subject = subjectOf(input)
  const { fileMode, reviewed } = subject
  const issues: Array<LocatedIssue> = []
  const outcomesOf = runChecks(subject, issues)
  scoreThinByOthers(outcomesOf, reviewed, input.artifactType)
  const scores = criterionScores(input, subject, outcomesOf, issues)
  const findings = findingsOf(issues)
  // the apply is told the score before rounding: a repair that pays only in sum is made when the shown score rises
  const unrounded = scores.length === 0 ? 100 : unroundedScoreOf(scores, findings)
  const { improvedVersion, improvedFiles } = improvementsOf(subject, findings, outcomesOf, unrounded)

  const lead = fileMode
    ? reviewed[0]
    : reviewed.find((d) => d.fm.closed && getField(d.fm, "description")) ??
      [...reviewed].sort((a, b) => b.words - a.words || cmp(a.path, b.path))[0]
  const cases = buildEvalKit(lead, input.artifactType, subject.bundle.paths)

  return {
    // an empty rubric scores 100: nothing asked, nothing missed
    overallScore: shownScore(unrounded),
    scores,
    findings,
    improvedVersion,
    improvedFiles,
    evalKit: { cases },
    usage: null,
    provider: {
      provider: MOCK_PROVIDER,
      model: MOCK_MODEL,
      modelTier: input.modelTier,
      reasoningEffort: input.reasoningEffort
    }
  }
}

/** Freezes a value and everything it holds, so a result shared by the memo cannot be changed by a caller. */
const deepFreeze = <A>(value: A): A => {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/**
 * The mock's results by a hash of their input, per process: the mock is a pure function of its input
 * (same input, byte-identical output), so a repeated review (an audit re-run with `force`, the same
 * files in CI) answers from here instead of scoring again (~9 ms of CPU for a 10 KiB SKILL.md). Bounded:
 * at most `capacity` results, the least recently used goes first. Results are frozen (shared).
 */
export class MockReviewMemo {
  private readonly entries = new Map<string, ReviewResult>()
  hits = 0
  misses = 0

  constructor(readonly capacity = 128, private readonly review: (input: ReviewInput) => ReviewResult = reviewWithMock) {}

  /**
   * sha256 of the whole input as JSON: every field the mock reads is in it. A target that is one of the
   * files (the same object, as the audit passes it) is named by its place instead of written twice.
   */
  static keyOf(input: ReviewInput): string {
    const at = input.target === null ? -1 : input.files.indexOf(input.target)
    const keyed = at >= 0 ? { ...input, target: { fileAt: at } } : input
    return Crypto.createHash("sha256").update(JSON.stringify(keyed), "utf8").digest("base64")
  }

  get size(): number {
    return this.entries.size
  }

  reviewOf(input: ReviewInput): ReviewResult {
    const key = MockReviewMemo.keyOf(input)
    const hit = this.entries.get(key)
    if (hit !== undefined) {
      this.hits++
      // most recently used last
      this.entries.delete(key)
      this.entries.set(key, hit)
      return hit
    }
    this.misses++
    const result = deepFreeze(this.review(input))
    this.entries.set(key, result)
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!)
    return result
  }
}

/** The mock reviewer with a memo of its own (one per layer build, i.e. per process). */
export const makeMockReviewer = (memo = new MockReviewMemo()) =>
  AiReviewer.of({
    review: (input) =>
      Effect.try({
        try: () => memo.reviewOf(input),
        catch: () =>
          new AiProviderError({
            code: "provider_error",
            message: "The mock reviewer could not review this input",
            workDone: false
          })
      }).pipe(Effect.withSpan("MockReviewer.review", { attributes: { mode: input.mode, artifactType: input.artifactType } }))
  })

export const MockReviewerLive = Layer.sync(AiReviewer, () => makeMockReviewer())
