/**
 * From the model's text to a ReviewResult: JSON and Schema decoding, then the rules rubr enforces
 * whatever the model said: every rubric criterion scored (else the answer is invalid), scores clamped
 * to 0..100, the overall score computed here as the weighted mean, findings kept only when they name
 * a rubric criterion and a known file (line ranges clamped to the file), stable finding ids, improved
 * files limited to files under review with their frontmatter restored exactly.
 */
import { aiRuleId } from "../rules/Rules.js"
import { overallScoreOf } from "../Score.js"
import { Either, ParseResult, Schema } from "effect"
import { createHash } from "node:crypto"
import type { ProviderInfo, Usage } from "../../ai/Usage.js"
import type { CriterionScore, Finding, ImprovedFile, ReviewFile, ReviewInput, ReviewResult } from "../Types.js"
import type { EvalCase } from "../../domain/EvalCase.js"
import { RESTORED_NOTE, restoreFrontmatter } from "./Frontmatter.js"
import { partitionFiles, ProviderReview } from "./Prompt.js"

/** Why an answer was rejected: for logs and the retry prompt, never shown to users. */
export class InvalidAnswer {
  readonly _tag = "InvalidAnswer"
  constructor(readonly problem: string) {}
}

const decodeReview = Schema.decodeUnknownEither(ProviderReview, { errors: "all" })

/** A short account of what is wrong, with paths (no echo of the answer's text). */
const describeIssues = (error: ParseResult.ParseError): string => {
  const byPath = new Map<string, Array<string>>()
  for (const i of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const path = i.path.length > 0 ? i.path.join(".") : "(root)"
    const what = i._tag === "Missing"
      ? "is missing"
      : i._tag === "Unexpected"
      ? "is not allowed"
      : i.message.split(", actual")[0].slice(0, 200)
    const list = byPath.get(path) ?? []
    if (!list.includes(what)) list.push(what)
    byPath.set(path, list)
  }
  const entries = [...byPath.entries()]
  const shown = entries.slice(0, 8).map(([path, whats]) => `${path}: ${whats.join(" or ")}`)
  return shown.join("; ") + (entries.length > shown.length ? `; and ${entries.length - shown.length} more` : "")
}

const parseJson = (text: string): Either.Either<unknown, InvalidAnswer> => {
  try {
    return Either.right(JSON.parse(text))
  } catch {
    return Either.left(new InvalidAnswer("it is not valid JSON (one JSON object, nothing before or after it)"))
  }
}

/** Models sometimes wrap JSON in a code fence even when told not to. */
const unfence = (text: string): string => {
  const m = text.trim().match(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/)
  return m ? m[1] : text.trim()
}

export const lineCount = (content: string): number => {
  if (content.length === 0) return 1
  const lines = content.split(/\r?\n/)
  if (content.endsWith("\n")) lines.pop()
  return Math.max(lines.length, 1)
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n))

const round1 = (n: number) => Math.round(n * 10) / 10

const findingId = (f: Omit<Finding, "id">): string =>
  "f_" + createHash("sha256")
    .update([f.filePath, f.lineStart, f.lineEnd, f.criterionKey, f.severity, f.message].join("\u0000"))
    .digest("hex")
    .slice(0, 12)

const evalCaseId = (c: Omit<EvalCase, "id">): string =>
  "e_" + createHash("sha256").update([c.type, c.name, c.input].join("\u0000")).digest("hex").slice(0, 12)

const unique = (id: string, seen: Set<string>): string => {
  let candidate = id
  for (let n = 2; seen.has(candidate); n++) candidate = `${id}_${n}`
  seen.add(candidate)
  return candidate
}

export const toReviewResult = (
  input: ReviewInput,
  text: string,
  meta: { readonly usage: Usage | null; readonly provider: ProviderInfo }
): Either.Either<ReviewResult, InvalidAnswer> => {
  const json = parseJson(unfence(text))
  if (Either.isLeft(json)) return Either.left(json.left)
  const decoded = decodeReview(json.right)
  if (Either.isLeft(decoded)) {
    return Either.left(new InvalidAnswer("it does not match the required JSON shape: " + describeIssues(decoded.left)))
  }
  const answer = decoded.right
  const rubric = input.rubric

  // scores: every criterion, once, clamped
  const byKey = new Map<string, { score: number; rationale: string }>()
  for (const s of answer.scores) {
    if (!byKey.has(s.key) && Number.isFinite(s.score)) byKey.set(s.key, { score: s.score, rationale: s.rationale })
  }
  const missing = rubric.criteria.filter((c) => !byKey.has(c.key)).map((c) => c.key)
  if (missing.length > 0) {
    return Either.left(new InvalidAnswer(`scores are missing for the criteria: ${missing.join(", ")}`))
  }
  const scores: Array<CriterionScore> = rubric.criteria.map((c) => {
    const s = byKey.get(c.key)!
    return { key: c.key, label: c.label, weight: c.weight, score: round1(clamp(s.score, 0, 100)), rationale: s.rationale }
  })

  // findings: known criterion and file, lines within the file
  const known = new Map<string, ReviewFile>()
  for (const f of [...(input.target ? [input.target] : []), ...input.files]) if (!known.has(f.path)) known.set(f.path, f)
  const criterionKeys = new Set(rubric.criteria.map((c) => c.key))
  const findingIds = new Set<string>()
  const findings: Array<Finding> = []
  for (const f of answer.findings) {
    const file = known.get(f.filePath.replace(/^\.\//, ""))
    if (!file || !criterionKeys.has(f.criterionKey)) continue
    const max = lineCount(file.content)
    const lineStart = clamp(Math.min(f.lineStart, f.lineEnd), 1, max)
    const lineEnd = clamp(Math.max(f.lineStart, f.lineEnd), lineStart, max)
    const base = {
      ruleId: aiRuleId(f.criterionKey),
      criterionKey: f.criterionKey,
      severity: f.severity,
      filePath: file.path,
      lineStart,
      lineEnd,
      message: f.message,
      suggestion: f.suggestion
    }
    findings.push({ id: unique(findingId(base), findingIds), ...base })
  }

  // improved files: only files under review, changed, frontmatter restored
  const { underReview } = partitionFiles(input)
  const reviewed = new Map(underReview.map((f) => [f.path, f]))
  const improved: Array<ImprovedFile> = []
  for (const f of answer.improvedFiles) {
    const original = reviewed.get(f.path.replace(/^\.\//, ""))
    if (!original || improved.some((i) => i.path === original.path)) continue
    const { content, restored } = restoreFrontmatter(original.content, f.content)
    if (content === original.content) continue
    improved.push({ path: original.path, content, changes: restored ? [...f.changes, RESTORED_NOTE] : [...f.changes] })
  }

  const caseIds = new Set<string>()
  const cases: Array<EvalCase> = answer.evalCases.map((c) => ({ id: unique(evalCaseId(c), caseIds), ...c }))
  if (cases.length === 0) return Either.left(new InvalidAnswer("evalCases is empty; give at least one case"))

  return Either.right({
    overallScore: overallScoreOf(scores, findings),
    scores,
    findings,
    improvedVersion: input.mode === "file" ? (improved[0] ?? null) : null,
    improvedFiles: input.mode === "file" ? [] : improved,
    evalKit: { cases },
    usage: meta.usage,
    provider: meta.provider
  })
}

