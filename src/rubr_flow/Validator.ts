/**
 * The rubr_flow validator: a `.rubr_flow` text → issues with stable codes, a line and a document path
 * each, written for the person editing the file (and for the converter's repair phase).
 *
 * Three passes, each as far as the previous one allows:
 *   1. reading (./Parse.ts): YAML syntax, duplicate keys, aliases, size and nesting limits;
 *   2. shape (./validate/Shape.ts): `RubrFlow` (./Format.ts) decoded with every error and no excess
 *      property, each schema error turned into an issue a person can act on;
 *   3. meaning (./validate/Meaning.ts): ids, references, step order, checks, guardrail
 *      contradictions, source mapping.
 *
 * Every code is documented in docs/rubr-flow.md. Pure and deterministic: no services, no I/O, no
 * clock. Bump `VALIDATOR_VERSION` whenever a rule changes.
 */
import type { RubrFlow } from "./Format.js"
import { makeLineOf, type ParsedText, parseFlowText, type PathSegment } from "./Parse.js"
import { asRec, field } from "./validate/Data.js"
import type { Draft } from "./validate/Drafts.js"
import { meaningIssues } from "./validate/Meaning.js"
import { isForeignVersion, shapeIssues, versionIssue } from "./validate/Shape.js"
import type { IssueSeverity, ValidateOptions, ValidationIssue, ValidationResult } from "./validate/Types.js"

export { type GuardrailGist, guardrailGist, guardrailSimilarity } from "./validate/meaning/Gist.js"
export type { IssueSeverity, SourceInfo, ValidateOptions, ValidationIssue, ValidationResult } from "./validate/Types.js"
export { lineCount } from "./Text.js"

export const VALIDATOR_VERSION = "1.0.0"

/**
 * Every issue code but `too_many_issues` (its severity is that of the issues it stands for), and how
 * serious it is: the reader and the passes say what they found, this table rates it. docs/rubr-flow.md
 * explains each code, in this order.
 */
const ISSUE_CODES: ReadonlyArray<{ readonly code: string; readonly severity: IssueSeverity }> = [
  { code: "too_large", severity: "error" },
  { code: "too_deep", severity: "error" },
  { code: "empty_document", severity: "error" },
  { code: "not_a_mapping", severity: "error" },
  { code: "yaml_syntax", severity: "error" },
  { code: "yaml_warning", severity: "warning" },
  { code: "multiple_documents", severity: "error" },
  { code: "duplicate_key", severity: "error" },
  { code: "invalid_key", severity: "error" },
  { code: "yaml_alias", severity: "error" },
  { code: "unsupported_version", severity: "error" },
  { code: "missing_field", severity: "error" },
  { code: "unknown_field", severity: "error" },
  { code: "invalid_type", severity: "error" },
  { code: "invalid_value", severity: "error" },
  { code: "duplicate_id", severity: "error" },
  { code: "ambiguous_id", severity: "error" },
  { code: "undefined_reference", severity: "error" },
  { code: "used_before_produced", severity: "warning" },
  { code: "no_steps", severity: "error" },
  { code: "empty_step", severity: "error" },
  { code: "missing_check", severity: "error" },
  { code: "check_restates_action", severity: "warning" },
  { code: "empty_text", severity: "error" },
  { code: "unproduced_output", severity: "error" },
  { code: "unused_input", severity: "warning" },
  { code: "contradictory_guardrails", severity: "error" },
  { code: "duplicate_guardrail", severity: "warning" },
  { code: "no_guardrails", severity: "warning" },
  { code: "no_failure_handling", severity: "warning" },
  { code: "unknown_source", severity: "error" },
  { code: "undeclared_source", severity: "warning" },
  { code: "source_range_outside", severity: "error" },
  { code: "duplicate_source", severity: "error" },
  { code: "source_lines_mismatch", severity: "error" },
  { code: "source_hash_mismatch", severity: "warning" },
  { code: "missing_source_mapping", severity: "warning" }
]

const SEVERITY: ReadonlyMap<string, IssueSeverity> = new Map(ISSUE_CODES.map((c) => [c.code, c.severity]))

/** The most issues reported; the rest are summed up in one `too_many_issues`. */
export const MAX_ISSUES = 500

const isPrefix = (prefix: ReadonlyArray<PathSegment>, path: ReadonlyArray<PathSegment>): boolean =>
  prefix.length <= path.length && prefix.every((s, i) => s === path[i])

/** The shape's and the meaning's drafts for a document that could be read, and the flow if its shape is right. */
const documentDrafts = (root: unknown, options: ValidateOptions | undefined): { readonly drafts: Array<Draft>; readonly flow: RubrFlow | null } => {
  const rootRec = asRec(root)
  // another major version: nothing else is checked
  if (rootRec !== undefined && isForeignVersion(field(rootRec, "rubr_flow"))) return { drafts: [versionIssue(rootRec)!], flow: null }
  const shape = shapeIssues(root)
  const drafts = [...shape.drafts]
  if (rootRec !== undefined) {
    // below a path the shape reported, the meaning would only repeat it
    const reported = shape.drafts.map((d) => d.path)
    for (const d of meaningIssues(rootRec, options)) {
      if (!reported.some((p) => p.length > 0 && isPrefix(p, d.path))) drafts.push(d)
    }
  }
  return { drafts, flow: shape.flow }
}

/** Drafts as issues, each once, on the line of the node (or the mapping) they point at. */
const locate = (drafts: ReadonlyArray<Draft>, parsed: ParsedText, lineOf: (offset: number) => number): Array<ValidationIssue> => {
  const issues: Array<ValidationIssue> = []
  const seen = new Set<string>()
  for (const d of drafts) {
    const path = d.path.join(".")
    const key = `${d.code}\u0000${path}\u0000${d.message}`
    if (seen.has(key)) continue
    seen.add(key)
    issues.push({ code: d.code, severity: SEVERITY.get(d.code)!, message: d.message, line: lineOf(parsed.offsetOf(d.path, d.anchor)), path })
  }
  return issues
}

const compareIssues = (a: ValidationIssue, b: ValidationIssue): number =>
  a.line - b.line ||
  (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
  (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
  (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)

/** Sorted issues, at most `MAX_ISSUES`: the last one sums up the rest. */
const capped = (issues: Array<ValidationIssue>): Array<ValidationIssue> => {
  if (issues.length <= MAX_ISSUES) return issues
  const reported = issues.slice(0, MAX_ISSUES - 1)
  const rest = issues.slice(MAX_ISSUES - 1)
  reported.push({
    code: "too_many_issues",
    severity: rest.some((i) => i.severity === "error") ? "error" : "warning",
    message: `${rest.length} more issues are not listed; fix the ones above and validate again.`,
    line: rest[0].line,
    path: ""
  })
  return reported.sort(compareIssues)
}

/** Validates the text of a `.rubr_flow` file. Never throws; the same text and options give the same result. */
export const validateText = (text: string, options?: ValidateOptions): ValidationResult => {
  const input = typeof text === "string" ? text : String(text)
  const parsed = parseFlowText(input)
  const lineOf = makeLineOf(input)
  const issues: Array<ValidationIssue> = parsed.problems.map((p) => ({
    code: p.code,
    severity: SEVERITY.get(p.code)!,
    message: p.message,
    line: lineOf(p.offset),
    path: p.path.join(".")
  }))
  let flow: RubrFlow | null = null
  if (!parsed.fatal) {
    const found = documentDrafts(parsed.value, options)
    flow = found.flow
    issues.push(...locate(found.drafts, parsed, lineOf))
  }
  issues.sort(compareIssues)
  return {
    valid: !issues.some((i) => i.severity === "error"),
    validatorVersion: VALIDATOR_VERSION,
    formatVersion: parsed.versionText,
    issues: capped(issues),
    flow
  }
}
