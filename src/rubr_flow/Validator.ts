/**
 * The rubr_flow validator: a `.rubr_flow` text → issues with stable codes, a line and a document path
 * each, written for the person editing the file (and for the converter's repair phase).
 *
 * Three passes, each as far as the previous one allows:
 *   1. reading (./Parse.ts): YAML syntax, duplicate keys, aliases, size and nesting limits;
 *   2. shape: `RubrFlow` (./Format.ts) decoded with every error and no excess property, each schema
 *      error turned into `missing_field`, `unknown_field` (with the likely key), `invalid_type`,
 *      `invalid_value` or `unsupported_version`;
 *   3. meaning: ids, references, step order, checks, guardrail contradictions, source mapping. These
 *      run on the plain data even when the shape has errors, skipping whatever is malformed.
 *
 * Every code is documented in docs/rubr-flow.md. Pure and deterministic: no services, no I/O, no
 * clock. Bump `VALIDATOR_VERSION` whenever a rule changes.
 */
import { Either, ParseResult, Schema } from "effect"
import { createHash } from "node:crypto"
import {
  FailureHandler,
  FlowEval,
  FlowInput,
  FlowOutput,
  FlowSource,
  FlowStep,
  FORMAT_VERSION,
  Guardrail,
  parseSourceRef,
  RubrFlow
} from "./Format.js"
import { type Anchor, makeLineOf, parseFlowText, type PathSegment } from "./Parse.js"

export const VALIDATOR_VERSION = "1.0.0"

export type IssueSeverity = "error" | "warning"

export interface ValidationIssue {
  readonly code: string
  readonly severity: IssueSeverity
  readonly message: string
  /** 1-based line in the validated text */
  readonly line: number
  /** dotted document path, e.g. `steps.2.check` (list indices 0-based; "" for the whole document) */
  readonly path: string
}

/** What the caller knows about a source file the flow names (for the `lines` and hash checks). */
export interface SourceInfo {
  readonly path: string
  readonly content?: string | undefined
  readonly lines?: number | undefined
  /** `sha256:<hex>`; computed from `content` when absent */
  readonly contentHash?: string | undefined
}

export interface ValidateOptions {
  readonly sources?: ReadonlyArray<SourceInfo> | undefined
}

export interface ValidationResult {
  /** no issue of severity "error" */
  readonly valid: boolean
  readonly validatorVersion: string
  /** the file's `rubr_flow` value when readable (as written, for a number) */
  readonly formatVersion: string | null
  /** sorted by line, then path, then code */
  readonly issues: ReadonlyArray<ValidationIssue>
  /** the decoded document when it passed the schema */
  readonly flow: RubrFlow | null
}

/**
 * Every issue code but \`too_many_issues\` (its severity is that of the issues it stands for), and how
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

/** The most issues reported; the rest are summed up in one `too_many_issues` warning. */
export const MAX_ISSUES = 500

/**
 * The number of lines of a source text as an editor shows them: line breaks are `\n`, `\r\n` or `\r`;
 * a trailing line break does not start another line; "" has 0 lines. Every `from` range and every
 * `sources[].lines` uses this rule.
 */
export const lineCount = (text: string): number => {
  const n = text.length
  if (n === 0) return 0
  let lines = 1
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === 10) lines++
    else if (c === 13) {
      lines++
      if (text.charCodeAt(i + 1) === 10) i++
    }
  }
  const last = text.charCodeAt(n - 1)
  return last === 10 || last === 13 ? lines - 1 : lines
}

// ---------------------------------------------------------------------------------------------------
// The document's vocabulary

type Section = "sources" | "inputs" | "steps" | "outputs" | "guardrails" | "failure_handling" | "evals"

const SECTION_NOUN: Record<Section, string> = {
  sources: "source",
  inputs: "input",
  steps: "step",
  outputs: "output",
  guardrails: "guardrail",
  failure_handling: "failure handler",
  evals: "eval case"
}

const isSection = (key: PathSegment | undefined): key is Section =>
  typeof key === "string" && Object.prototype.hasOwnProperty.call(SECTION_NOUN, key)

const ROOT_KEYS: ReadonlyArray<string> = Object.keys(RubrFlow.fields)

const SECTION_KEYS: Record<Section, ReadonlyArray<string>> = {
  sources: Object.keys(FlowSource.fields),
  inputs: Object.keys(FlowInput.fields),
  steps: Object.keys(FlowStep.fields),
  outputs: Object.keys(FlowOutput.fields),
  guardrails: ["id", "must", "never", "from"],
  failure_handling: Object.keys(FailureHandler.fields),
  evals: Object.keys(FlowEval.fields)
}

/** What each field holds, for messages about a missing field. */
const HINTS: Record<"root" | Section, Record<string, string>> = {
  root: {
    name: "a short name for the procedure",
    description: "what the procedure does, in one or two sentences",
    when_to_use: "when an agent should follow this procedure",
    steps: "the ordered list of steps, each with an id, title, action and check"
  },
  sources: { path: "the source file's path", lines: "the number of lines of the source file" },
  inputs: { id: "a stable id such as `repo`", description: "what the input is" },
  steps: {
    id: "a stable id such as `run-tests`",
    title: "a short imperative title",
    action: "what to do, precisely enough to follow without the source",
    check: "how to tell the step is done: an observable result"
  },
  outputs: { id: "a stable id such as `report`", description: "what the output is" },
  guardrails: {},
  failure_handling: {
    id: "a stable id such as `tests-fail`",
    when: "the failure or situation this entry handles",
    then: "what the agent does then"
  },
  evals: {
    id: "a stable id",
    name: "a short name",
    type: "`standard` or `scenario`",
    input: "the case's input",
    expected_behavior: "what the agent should do",
    pass_criteria: "how to tell the case passed"
  }
}

/** Likely intended keys that are not typos (frequent in model answers). */
const SYNONYMS: Record<string, Record<string, string>> = {
  root: {
    version: "rubr_flow",
    format: "rubr_flow",
    title: "name",
    summary: "description",
    purpose: "description",
    when: "when_to_use",
    usage: "when_to_use",
    trigger: "when_to_use",
    procedure: "steps",
    failures: "failure_handling",
    errors: "failure_handling",
    rules: "guardrails",
    constraints: "guardrails",
    tests: "evals"
  },
  steps: {
    name: "title",
    description: "action",
    do: "action",
    instructions: "action",
    verify: "check",
    verification: "check",
    validation: "check",
    expected: "check",
    inputs: "uses",
    outputs: "produces",
    source: "from",
    on_error: "on_failure"
  },
  inputs: { name: "id", source: "from" },
  outputs: { name: "id", source: "from" },
  guardrails: { always: "must", do: "must", dont: "never", do_not: "never", rule: "must", source: "from" },
  failure_handling: { if: "when", condition: "when", action: "then", do: "then", resume: "resume_at", source: "from" },
  sources: { file: "path", hash: "content_hash", sha256: "content_hash", line_count: "lines" },
  evals: { expected: "expected_behavior", criteria: "pass_criteria", source: "from" }
}

type Kind =
  | "document"
  | "version"
  | "name"
  | "text"
  | "id"
  | "idList"
  | "ref"
  | "boolean"
  | "count"
  | "hash"
  | "path"
  | "evalType"
  | "list"
  | "item"
  | "unknown"

const kindOf = (path: ReadonlyArray<PathSegment>): Kind => {
  const [top, index, key, sub] = path
  if (path.length === 0) return "document"
  if (path.length === 1) {
    if (top === "rubr_flow") return "version"
    if (top === "name") return "name"
    return isSection(top) ? "list" : ROOT_KEYS.includes(String(top)) ? "text" : "unknown"
  }
  if (!isSection(top) || typeof index !== "number") return "unknown"
  if (path.length === 2) return "item"
  if (path.length === 4) return (key === "uses" || key === "produces") && typeof sub === "number" ? "id" : "unknown"
  if (path.length !== 3) return "unknown"
  switch (key) {
    case "id":
    case "on_failure":
    case "resume_at":
      return "id"
    case "uses":
    case "produces":
      return "idList"
    case "from":
      return "ref"
    case "required":
      return "boolean"
    case "lines":
      return "count"
    case "content_hash":
      return "hash"
    case "path":
      return top === "sources" ? "path" : "text"
    case "type":
      return top === "evals" ? "evalType" : "text"
    default:
      return SECTION_KEYS[top].includes(String(key)) ? "text" : "unknown"
  }
}

const EXPECTED: Record<Kind, string> = {
  document: "a mapping of `key: value` lines starting with `rubr_flow: \"1.0\"`",
  version: "\"1.0\"",
  name: "a name of 1 to 100 characters",
  text: "text (use a block scalar `|` for several lines)",
  id: "an id: 1-80 characters of a-z, 0-9, '-' and '_', starting with a letter or digit (e.g. `run-tests`)",
  idList: "a list of ids, e.g. `[repo, pr]`",
  ref: "a source reference PATH:LINE or PATH:START-END (1-based), e.g. `SKILL.md:12-30`",
  boolean: "true or false",
  count: "a whole number, 0 or more",
  hash: "`sha256:` followed by 64 lower-case hex digits",
  path: "a non-empty file path",
  evalType: "`standard` or `scenario`",
  list: "a list of `- ` items",
  item: "a mapping of `key: value` lines",
  unknown: "a different value"
}

const BASE_TYPE: Record<Kind, "string" | "array" | "object" | "boolean" | "number" | "any"> = {
  document: "object",
  version: "string",
  name: "string",
  text: "string",
  id: "string",
  idList: "array",
  ref: "string",
  boolean: "boolean",
  count: "number",
  hash: "string",
  path: "string",
  evalType: "string",
  list: "array",
  item: "object",
  unknown: "any"
}

// ---------------------------------------------------------------------------------------------------
// Small helpers over untrusted data

type Rec = Record<string, unknown>

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k)
const asRec = (x: unknown): Rec | undefined =>
  x !== null && typeof x === "object" && !Array.isArray(x) ? (x as Rec) : undefined
const field = (o: Rec | undefined, k: string): unknown => (o !== undefined && hasOwn(o, k) ? o[k] : undefined)
const strField = (o: Rec | undefined, k: string): string | undefined => {
  const v = field(o, k)
  return typeof v === "string" ? v : undefined
}
const listField = (o: Rec | undefined, k: string): ReadonlyArray<unknown> => {
  const v = field(o, k)
  return Array.isArray(v) ? v : []
}

const valueAt = (root: unknown, path: ReadonlyArray<PathSegment>): unknown => {
  let v: unknown = root
  for (const s of path) {
    if (Array.isArray(v) && typeof s === "number") v = v[s]
    else {
      const r = asRec(v)
      if (r === undefined) return undefined
      v = field(r, String(s))
    }
  }
  return v
}

const clip = (s: string, max = 60): string => {
  const one = s.replace(/\s+/g, " ").trim()
  return one.length > max ? `${one.slice(0, max - 1)}…` : one
}

const code = (s: string): string => `\`${clip(s).replace(/`/g, "'")}\``

const describeValue = (v: unknown): string => {
  if (v === undefined) return "nothing"
  if (v === null) return "an empty value (null)"
  if (typeof v === "string") return v === "" ? "an empty text" : `the text ${code(v)}`
  if (typeof v === "number") return `the number ${v}`
  if (typeof v === "boolean") return `\`${v}\``
  if (Array.isArray(v)) return `a list of ${v.length} item${v.length === 1 ? "" : "s"}`
  if (typeof v === "object") return "a mapping"
  return `a ${typeof v}`
}

const typeMatches = (v: unknown, base: (typeof BASE_TYPE)[Kind]): boolean => {
  switch (base) {
    case "string":
      return typeof v === "string"
    case "array":
      return Array.isArray(v)
    case "object":
      return asRec(v) !== undefined
    case "boolean":
      return typeof v === "boolean"
    case "number":
      return typeof v === "number"
    case "any":
      return true
  }
}

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions). */
const editDistance = (a: string, b: string): number => {
  if (a === b) return 0
  const m = a.length
  const n = b.length
  if (m === 0) return n
  if (n === 0) return m
  let prev2: Array<number> = []
  let prev: Array<number> = Array.from({ length: n + 1 }, (_, j) => j)
  for (let i = 1; i <= m; i++) {
    const cur: Array<number> = [i]
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1)
      cur.push(d)
    }
    prev2 = prev
    prev = cur
  }
  return prev[n]
}

/** The candidate a person most likely meant, when `word` is close enough to one. */
const closest = (word: string, candidates: Iterable<string>): string | undefined => {
  const w = word.toLowerCase().replace(/[\s-]+/g, "_")
  if (w.length > 100) return undefined
  let best: string | undefined
  let bestDistance = Infinity
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase())
    if (d < bestDistance || (d === bestDistance && best !== undefined && c < best)) {
      best = c
      bestDistance = d
    }
  }
  if (best === undefined) return undefined
  const allowed = w.length <= 2 ? 0 : w.length <= 5 ? 1 : w.length <= 10 ? 2 : 3
  return bestDistance <= allowed ? best : undefined
}

// ---------------------------------------------------------------------------------------------------
// Issues before they get a line

interface Draft {
  readonly code: string
  readonly severity: IssueSeverity
  readonly message: string
  readonly path: ReadonlyArray<PathSegment>
  readonly anchor: Anchor
}

const error = (codeName: string, path: ReadonlyArray<PathSegment>, message: string, anchor: Anchor = "node"): Draft => ({
  code: codeName,
  severity: "error",
  message,
  path,
  anchor
})

const warning = (codeName: string, path: ReadonlyArray<PathSegment>, message: string, anchor: Anchor = "node"): Draft => ({
  code: codeName,
  severity: "warning",
  message,
  path,
  anchor
})

/** `step "build"` or `step #3`. */
const blockLabel = (root: unknown, section: Section, index: number): string => {
  const id = strField(asRec(valueAt(root, [section, index])), "id")
  const noun = SECTION_NOUN[section]
  return id !== undefined && id !== "" ? `${noun} "${clip(id, 40)}"` : `${noun} #${index + 1}`
}

/** How a path reads in a message: "`check` of step "build"", "`steps`", "item 2 of `uses` of step #1". */
const label = (root: unknown, path: ReadonlyArray<PathSegment>): string => {
  const [top, index, key, sub] = path
  if (path.length === 0) return "The document"
  if (path.length === 1 && top === "from") return "The identity's `from`"
  if (path.length === 1) return `\`${String(top)}\``
  if (isSection(top) && typeof index === "number") {
    const block = blockLabel(root, top, index)
    if (path.length === 2) return block.charAt(0).toUpperCase() + block.slice(1)
    if (path.length === 3) return `\`${String(key)}\` of ${block}`
    if (path.length === 4 && typeof sub === "number") return `Item ${sub + 1} of \`${String(key)}\` of ${block}`
  }
  return `\`${path.join(".")}\``
}

const sentence = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)

const slug = (s: string): string =>
  s.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^[-_]+|-+$/g, "").slice(0, 80)

// ---------------------------------------------------------------------------------------------------
// Pass 2: the shape

const decodeFlow = Schema.decodeUnknownEither(RubrFlow, { errors: "all", onExcessProperty: "error" })
const decodeGuardrailAs = {
  must: Schema.decodeUnknownEither(Guardrail.members[0], { errors: "all", onExcessProperty: "error" }),
  never: Schema.decodeUnknownEither(Guardrail.members[1], { errors: "all", onExcessProperty: "error" })
}

const versionIssue = (root: Rec): Draft | undefined => {
  if (!hasOwn(root, "rubr_flow")) {
    return error(
      "unsupported_version",
      ["rubr_flow"],
      `The file does not say its format version: add \`rubr_flow: "${FORMAT_VERSION}"\` as its first line.`,
      "container"
    )
  }
  const v = root["rubr_flow"]
  if (v === FORMAT_VERSION) return undefined
  if (typeof v === "number") {
    return error(
      "unsupported_version",
      ["rubr_flow"],
      `Write \`rubr_flow: "${FORMAT_VERSION}"\` with the quotes: unquoted, ${v} is read as a number, not as the version "${FORMAT_VERSION}".`
    )
  }
  if (typeof v === "string") {
    return error(
      "unsupported_version",
      ["rubr_flow"],
      `This validator reads rubr_flow ${FORMAT_VERSION}, and the file says ${JSON.stringify(clip(v, 20))}: write \`rubr_flow: "${FORMAT_VERSION}"\` if the file follows version ${FORMAT_VERSION}.`
    )
  }
  return error("unsupported_version", ["rubr_flow"], `Write \`rubr_flow: "${FORMAT_VERSION}"\` (found ${describeValue(v)}).`)
}

/** A version this validator does not read at all (another major version): nothing else is checked. */
const isForeignVersion = (v: unknown): boolean => typeof v === "string" && /^\s*v?(\d+)(\.\d+)*\s*$/.test(v) && !/^\s*v?1(\.|\s*$)/.test(v)

const unknownFieldIssue = (root: unknown, path: ReadonlyArray<PathSegment>): Draft => {
  const key = String(path[path.length - 1])
  const parentPath = path.slice(0, -1)
  const top = parentPath[0]
  const context: "root" | Section | undefined = parentPath.length === 0 ? "root" : parentPath.length === 2 && isSection(top) ? top : undefined
  const where = parentPath.length === 0 ? "at the top level" : `in ${label(root, parentPath).replace(/^./, (c) => c.toLowerCase())}`
  if (context === undefined) return error("unknown_field", path, `Unknown key ${code(key)} ${where}: remove it.`)
  const known = context === "root" ? ROOT_KEYS : SECTION_KEYS[context]
  const normalized = key.toLowerCase().replace(/[\s-]+/g, "_")
  const synonyms = SYNONYMS[context]
  const suggestion = known.includes(normalized)
    ? normalized
    : synonyms !== undefined && hasOwn(synonyms, normalized)
    ? synonyms[normalized]
    : closest(key, known)
  if (suggestion !== undefined && suggestion !== key) {
    return error("unknown_field", path, `Unknown key ${code(key)} ${where}: did you mean \`${suggestion}\`?`)
  }
  const elsewhere = [
    ...(ROOT_KEYS.includes(key) && context !== "root" ? ["at the top level"] : []),
    ...(Object.keys(SECTION_KEYS) as Array<Section>)
      .filter((s) => s !== context && SECTION_KEYS[s].includes(key) && key !== "id" && key !== "from")
      .map((s) => `in ${SECTION_NOUN[s] === "input" ? "an" : "a"} ${SECTION_NOUN[s]} (under \`${s}\`)`)
  ]
  if (elsewhere.length > 0) {
    return error("unknown_field", path, `Unknown key ${code(key)} ${where}: \`${key}\` belongs ${elsewhere[0]}.`)
  }
  return error("unknown_field", path, `Unknown key ${code(key)} ${where}: remove it; the keys here are ${known.join(", ")}.`)
}

const missingFieldIssue = (root: unknown, path: ReadonlyArray<PathSegment>): Draft => {
  const key = String(path[path.length - 1])
  const parentPath = path.slice(0, -1)
  const top = parentPath[0]
  const context: "root" | Section | undefined = parentPath.length === 0 ? "root" : parentPath.length === 2 && isSection(top) ? top : undefined
  const hint = context !== undefined ? HINTS[context][key] : undefined
  const owner = parentPath.length === 0 ? "The document" : label(root, parentPath)
  return error("missing_field", path, `${owner} has no \`${key}\`: add \`${key}:\`${hint !== undefined ? ` (${hint})` : ""}.`, "container")
}

const valueIssue = (root: unknown, path: ReadonlyArray<PathSegment>): Draft => {
  const kind = kindOf(path)
  const actual = valueAt(root, path)
  const where = label(root, path)
  const typeOk = typeMatches(actual, BASE_TYPE[kind])
  if (!typeOk) {
    if (kind === "document") {
      return error("not_a_mapping", path, `A rubr_flow file is a YAML mapping that starts with \`rubr_flow: "${FORMAT_VERSION}"\`; this file holds ${describeValue(actual)}.`)
    }
    if (kind === "idList" && typeof actual === "string") {
      return error("invalid_type", path, `${where} must be a list of ids: write \`[${clip(actual, 40)}]\`.`)
    }
    return error("invalid_type", path, `${where} must be ${EXPECTED[kind]}; found ${describeValue(actual)}.`)
  }
  switch (kind) {
    case "id": {
      const id = String(actual)
      const better = slug(id)
      return error(
        "invalid_value",
        path,
        `${where} is ${code(id)}, which is not a valid id: use 1-80 characters of a-z, 0-9, '-' and '_', starting with a letter or digit${better !== "" && /^[a-z0-9]/.test(better) ? ` (e.g. \`${better}\`)` : ""}.`
      )
    }
    case "ref":
      return error("invalid_value", path, `${where} is ${code(String(actual))}: write PATH:LINE or PATH:START-END with 1-based line numbers, e.g. \`SKILL.md:12-30\`.`)
    case "name":
      return error(
        "invalid_value",
        path,
        String(actual).length === 0 ? "`name` is empty: give the procedure a short name." : `\`name\` has ${String(actual).length} characters; keep it to 100.`
      )
    case "count":
      return error("invalid_value", path, `${where} is ${String(actual)}; it must be ${EXPECTED.count}.`)
    case "hash":
      return error("invalid_value", path, `${where} is ${code(String(actual))}; it must be ${EXPECTED.hash}.`)
    case "path":
      return error("invalid_value", path, `${where} is empty: give the source file's path.`)
    case "evalType":
      return error("invalid_value", path, `${where} is ${code(String(actual))}; it must be ${EXPECTED.evalType}.`)
    default:
      return error("invalid_value", path, `${where} must be ${EXPECTED[kind]}; found ${describeValue(actual)}.`)
  }
}

const toPath = (p: ReadonlyArray<PropertyKey>): Array<PathSegment> =>
  p.map((s) => (typeof s === "number" ? s : typeof s === "string" ? s : String(s)))

const fromFormatterIssues = (
  root: unknown,
  issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>,
  prefix: ReadonlyArray<PathSegment>,
  skip: (path: ReadonlyArray<PathSegment>) => boolean
): Array<Draft> => {
  const out: Array<Draft> = []
  for (const issue of issues) {
    // optional fields are unions with `undefined`: their second complaint is noise
    if (issue._tag === "Type" && issue.message.startsWith("Expected undefined")) continue
    const path = [...prefix, ...toPath(issue.path)]
    if (skip(path)) continue
    if (path.length === 1 && path[0] === "rubr_flow") continue // versionIssue
    if (issue._tag === "Missing") out.push(missingFieldIssue(root, path))
    else if (issue._tag === "Unexpected") out.push(unknownFieldIssue(root, path))
    else out.push(valueIssue(root, path))
  }
  return out
}

/** Guardrails are a union: each item is checked against the member it means (must or never). */
const guardrailIssues = (root: unknown, guardrails: ReadonlyArray<unknown>): Array<Draft> => {
  const out: Array<Draft> = []
  guardrails.forEach((item, i) => {
    const path: Array<PathSegment> = ["guardrails", i]
    const r = asRec(item)
    if (r === undefined) {
      out.push(error("invalid_type", path, `Guardrail #${i + 1} must be a mapping with \`must:\` or \`never:\`; found ${describeValue(item)}.`))
      return
    }
    const hasMust = hasOwn(r, "must")
    const hasNever = hasOwn(r, "never")
    if (hasMust && hasNever) {
      out.push(error("invalid_value", path, `${sentence(blockLabel(root, "guardrails", i))} has both \`must\` and \`never\`: a guardrail is one or the other; split it in two.`))
      return
    }
    if (!hasMust && !hasNever) {
      const typo = Object.keys(r).find((k) => k !== "id" && k !== "from" && closest(k, ["must", "never"]) !== undefined)
      out.push(
        error(
          "missing_field",
          [...path, "must"],
          `${sentence(blockLabel(root, "guardrails", i))} has neither \`must\` nor \`never\`: write \`must: <what the agent always does>\` or \`never: <what it never does>\`${typo !== undefined ? ` (is \`${typo}\` meant to be \`${closest(typo, ["must", "never"])}\`?)` : ""}.`,
          "container"
        )
      )
    }
    const result: Either.Either<unknown, ParseResult.ParseError> = hasNever ? decodeGuardrailAs.never(item) : decodeGuardrailAs.must(item)
    if (Either.isLeft(result)) {
      const issues = ParseResult.ArrayFormatter.formatErrorSync(result.left)
      out.push(
        ...fromFormatterIssues(root, issues, path, (p) =>
          // already reported above: the missing kind key
          !hasMust && !hasNever && p.length === 3 && (p[2] === "must" || p[2] === "never"))
      )
    }
  })
  return out
}

const shapeIssues = (root: unknown): { readonly drafts: Array<Draft>; readonly flow: RubrFlow | null } => {
  const result = decodeFlow(root)
  if (Either.isRight(result)) return { drafts: [], flow: result.right }
  const r = asRec(root)
  const drafts: Array<Draft> = []
  if (r === undefined) {
    drafts.push(valueIssue(root, []))
    return { drafts, flow: null }
  }
  const version = versionIssue(r)
  if (version !== undefined) drafts.push(version)
  const guardrails = field(r, "guardrails")
  const guardrailItems = Array.isArray(guardrails)
  const issues = ParseResult.ArrayFormatter.formatErrorSync(result.left)
  drafts.push(...fromFormatterIssues(root, issues, [], (p) => guardrailItems && p[0] === "guardrails" && p.length >= 2))
  if (guardrailItems) drafts.push(...guardrailIssues(root, guardrails))
  return { drafts, flow: null }
}

// ---------------------------------------------------------------------------------------------------
// Pass 3: the meaning

const PLACEHOLDER = /(?<!\$)\{\{\s*([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*\}\}/g

const placeholders = (text: string | undefined): Array<string> => {
  if (text === undefined || !text.includes("{{")) return []
  const out: Array<string> = []
  for (const m of text.matchAll(PLACEHOLDER)) {
    const name = m[1].split(".")[0]
    if (!out.includes(name)) out.push(name)
  }
  return out
}

/** Words that carry no content in a guardrail: function words, modal words and negations. */
const NOISE_WORDS = new Set(
  (
    "a an the to of in on at by for from with and or nor any all every each this that these those it its " +
    "is are be been being was were am you your yours yourself we our us they them their i me my he she his her " +
    "as into onto than then there so such please also only just very " +
    "always must never do does did done dont doesnt didnt not no should shouldnt shall ever cannot cant can " +
    "could couldnt will wont would wouldnt may might mustnt need needs ensure under circumstances"
  ).split(" ")
)

/** Words that, leading a `must`, make it a prohibition ("must: Never force-push" means never). */
const NEGATIONS = new Set("not never no dont doesnt cannot cant mustnt shouldnt wont avoid".split(" "))
/** Words that may come before that negation ("you must not", "the agent should never", "do not"). */
const LEAD_WORDS = new Set("you the agent we i must should shall will can always please do does".split(" "))

const stem = (word: string): string => {
  let w = word
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3)
  else if (w.length > 4 && w.endsWith("ied")) w = `${w.slice(0, -3)}y`
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2)
  else if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`
  else if (w.length > 4 && /(s|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2)
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1)
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1)
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1)
  return w
}

/** A guardrail reduced to what it is about: its content words in order, and whether it forbids. */
export interface GuardrailGist {
  /** content words (lower case, no markdown, punctuation or noise words, lightly stemmed), in order */
  readonly words: ReadonlyArray<string>
  /** true when the text itself is a prohibition (a negation word) */
  readonly negated: boolean
}

export const guardrailGist = (text: string): GuardrailGist => {
  const plain = text
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/['’`]/g, "")
    .replace(/\b(make|be) sure( that)?\b/g, " ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
  const words: Array<string> = []
  let negated = false
  let leading = true
  for (const w of plain.split(" ")) {
    if (w === "") continue
    // only a negation at the start counts ("use no more than 3 retries" is not a prohibition)
    if (leading && NEGATIONS.has(w)) negated = true
    if (!LEAD_WORDS.has(w)) leading = false
    if (NOISE_WORDS.has(w) || w === "avoid") continue
    const stemmed = stem(w)
    if (!words.includes(stemmed)) words.push(stemmed)
  }
  return { words, negated }
}

/** The longest common subsequence of two word lists (the words shared in the same order). */
const commonInOrder = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  let prev = new Array<number>(b.length + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(b.length + 1).fill(0)
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1])
    prev = cur
  }
  return prev[b.length]
}

/**
 * How far two guardrails are about the same thing, 0..1: the Jaccard index of their content words,
 * capped by the share of words they have in the same order ("run the tests before pushing" and "push
 * before running the tests" share every word, but not their order).
 */
export const guardrailSimilarity = (a: GuardrailGist, b: GuardrailGist): number => {
  if (a.words.length === 0 || b.words.length === 0) return a.words.length === b.words.length ? 1 : 0
  const set = new Set(a.words)
  let both = 0
  for (const w of b.words) if (set.has(w)) both++
  const union = a.words.length + b.words.length - both
  const ordered = commonInOrder(a.words, b.words) / Math.max(a.words.length, b.words.length)
  return Math.min(both / union, ordered)
}

/** The similarity from which a must and a never (or two of a kind) count as saying the same thing. */
const SAME_THING = 0.8

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029

/** Equal texts but for case and runs of white space (and not empty). Stops at the first difference. */
const sameText = (a: string, b: string): boolean => {
  let i = 0
  let j = 0
  let chars = 0
  const la = a.length
  const lb = b.length
  while (i < la && isSpace(a.charCodeAt(i))) i++
  while (j < lb && isSpace(b.charCodeAt(j))) j++
  for (;;) {
    if (i >= la || j >= lb) {
      while (i < la && isSpace(a.charCodeAt(i))) i++
      while (j < lb && isSpace(b.charCodeAt(j))) j++
      return i >= la && j >= lb && chars > 0
    }
    const ca = a.charCodeAt(i)
    const cb = b.charCodeAt(j)
    if (isSpace(ca) || isSpace(cb)) {
      if (!(isSpace(ca) && isSpace(cb))) {
        // trailing white space on one side only
        while (i < la && isSpace(a.charCodeAt(i))) i++
        while (j < lb && isSpace(b.charCodeAt(j))) j++
        if (i >= la && j >= lb) return chars > 0
        return false
      }
      while (i < la && isSpace(a.charCodeAt(i))) i++
      while (j < lb && isSpace(b.charCodeAt(j))) j++
      continue
    }
    if (ca !== cb && a[i].toLowerCase() !== b[j].toLowerCase()) return false
    chars++
    i++
    j++
  }
}

interface Block {
  readonly section: Section
  readonly index: number
  readonly value: Rec
}

const blocks = (root: Rec, section: Section): Array<Block> => {
  const out: Array<Block> = []
  listField(root, section).forEach((item, index) => {
    const value = asRec(item)
    if (value !== undefined) out.push({ section, index, value })
  })
  return out
}

const sha256 = (content: string): string => `sha256:${createHash("sha256").update(content, "utf8").digest("hex")}`

const meaningIssues = (root: Rec, options: ValidateOptions | undefined): Array<Draft> => {
  const out: Array<Draft> = []
  const steps = blocks(root, "steps")
  const inputs = blocks(root, "inputs")
  const outputs = blocks(root, "outputs")
  const failures = blocks(root, "failure_handling")
  const guardrails = blocks(root, "guardrails")
  const evals = blocks(root, "evals")
  const sources = blocks(root, "sources")

  // ids: unique per section; inputs and outputs share the `uses` namespace
  const idIndex = (section: Section, list: ReadonlyArray<Block>): Map<string, number> => {
    const first = new Map<string, number>()
    for (const b of list) {
      const id = strField(b.value, "id")
      if (id === undefined) continue
      const earlier = first.get(id)
      if (earlier !== undefined) {
        out.push(
          error(
            "duplicate_id",
            [section, b.index, "id"],
            `${sentence(SECTION_NOUN[section])} id ${code(id)} is already used by ${SECTION_NOUN[section]} #${earlier + 1} (${section}.${earlier}): ids must be unique among ${section}.`
          )
        )
      } else first.set(id, b.index)
    }
    return first
  }
  const stepIds = idIndex("steps", steps)
  const inputIds = idIndex("inputs", inputs)
  const outputIds = idIndex("outputs", outputs)
  const failureIds = idIndex("failure_handling", failures)
  idIndex("guardrails", guardrails)
  idIndex("evals", evals)
  for (const [id, index] of outputIds) {
    const inputIndex = inputIds.get(id)
    if (inputIndex !== undefined) {
      out.push(
        error(
          "ambiguous_id",
          ["outputs", index, "id"],
          `Output id ${code(id)} is also the id of input #${inputIndex + 1} (inputs.${inputIndex}): \`uses\` could mean either; rename one.`
        )
      )
    }
  }
  const usable = new Set<string>([...inputIds.keys(), ...outputIds.keys()])
  // a section that is there but malformed (the shape pass reported it) cannot be referred to reliably
  const readable = (section: Section): boolean => {
    const v = field(root, section)
    return v === undefined || Array.isArray(v)
  }
  const stepsReadable = Array.isArray(field(root, "steps"))
  const namesReadable = readable("inputs") && readable("outputs")

  // steps
  if (Array.isArray(field(root, "steps")) && listField(root, "steps").length === 0) {
    out.push(error("no_steps", ["steps"], "`steps` is empty: a procedure needs at least one step with an action and a check."))
  }
  const firstProducer = new Map<string, number>()
  for (const s of steps) {
    for (const id of listField(s.value, "produces")) {
      if (typeof id === "string" && !firstProducer.has(id)) firstProducer.set(id, s.index)
    }
  }
  const placeholderUses = new Set<string>()
  const sourcesDeclared = listField(root, "sources").length > 0
  for (const s of steps) {
    // messages only: built when an issue needs them
    const where = (): string => blockLabel(root, "steps", s.index)
    const action = strField(s.value, "action")
    const check = strField(s.value, "check")
    if (action !== undefined && action.trim() === "") {
      out.push(error("empty_step", ["steps", s.index, "action"], `${sentence(where())} has an empty \`action\`: say what to do.`))
    }
    if (check !== undefined && check.trim() === "") {
      out.push(error("missing_check", ["steps", s.index, "check"], `${sentence(where())} has an empty \`check\`: say how to tell the step is done (an observable result).`))
    } else if (action !== undefined && check !== undefined && sameText(action, check)) {
      out.push(
        warning(
          "check_restates_action",
          ["steps", s.index, "check"],
          `The \`check\` of ${where()} repeats its action: describe the observable result that shows the step worked (an output, a state, a passing command).`
        )
      )
    }
    listField(s.value, "uses").forEach((id, j) => {
      if (typeof id !== "string" || !namesReadable) return
      if (!usable.has(id)) {
        const guess = closest(id, usable)
        out.push(
          error(
            "undefined_reference",
            ["steps", s.index, "uses", j],
            `${sentence(where())} uses ${code(id)}, but no input or output has that id${guess !== undefined ? `: did you mean \`${guess}\`?` : ": declare it under `inputs` (or `outputs`), or fix the id."}`
          )
        )
        return
      }
      if (!inputIds.has(id)) {
        const producer = firstProducer.get(id)
        if (producer !== undefined && producer >= s.index) {
          out.push(
            warning(
              "used_before_produced",
              ["steps", s.index, "uses", j],
              producer === s.index
                ? `${sentence(where())} uses output ${code(id)}, which only this step produces: list it in \`produces\` only, or move the use to a later step.`
                : `${sentence(where())} uses output ${code(id)}, which is first produced by a later step, ${blockLabel(root, "steps", producer)} (steps.${producer}): reorder the steps or fix the reference.`
            )
          )
        }
      }
    })
    listField(s.value, "produces").forEach((id, j) => {
      if (typeof id === "string" && readable("outputs") && !outputIds.has(id)) {
        const guess = closest(id, outputIds.keys())
        out.push(
          error(
            "undefined_reference",
            ["steps", s.index, "produces", j],
            `${sentence(where())} produces ${code(id)}, but no output has that id${guess !== undefined ? `: did you mean \`${guess}\`?` : ": declare it under `outputs`."}`
          )
        )
      }
    })
    const onFailure = strField(s.value, "on_failure")
    if (onFailure !== undefined && readable("failure_handling") && !failureIds.has(onFailure)) {
      const guess = closest(onFailure, failureIds.keys())
      out.push(
        error(
          "undefined_reference",
          ["steps", s.index, "on_failure"],
          `${sentence(where())} has \`on_failure: ${clip(onFailure, 40)}\`, but no failure_handling entry has that id${guess !== undefined ? `: did you mean \`${guess}\`?` : "."}`
        )
      )
    }
    for (const key of ["action", "check"] as const) {
      for (const name of placeholders(strField(s.value, key))) {
        placeholderUses.add(name)
        if (namesReadable && !usable.has(name)) {
          out.push(
            error(
              "undefined_reference",
              ["steps", s.index, key],
              `The \`${key}\` of ${where()} mentions {{${name}}}, but no input or output has the id ${code(name)}: declare it, or write it without braces.`
            )
          )
        }
      }
    }
    for (const name of placeholders(strField(s.value, "title"))) placeholderUses.add(name)
    if (sourcesDeclared && !hasOwn(s.value, "from")) {
      out.push(warning("missing_source_mapping", ["steps", s.index], `${sentence(where())} has no \`from\`: say which source lines it comes from (PATH:START-END).`))
    }
  }

  // failure handling
  const failureList = field(root, "failure_handling")
  if (failureList === undefined || (Array.isArray(failureList) && failureList.length === 0)) {
    out.push(warning("no_failure_handling", ["failure_handling"], "The flow has no `failure_handling`: say what the agent does when a step fails (for example, when a command errors or a check does not pass)."))
  }
  for (const f of failures) {
    for (const key of ["when", "then"]) for (const name of placeholders(strField(f.value, key))) placeholderUses.add(name)
    const resume = strField(f.value, "resume_at")
    if (resume !== undefined && stepsReadable && !stepIds.has(resume)) {
      const guess = closest(resume, stepIds.keys())
      out.push(
        error(
          "undefined_reference",
          ["failure_handling", f.index, "resume_at"],
          `${sentence(blockLabel(root, "failure_handling", f.index))} resumes at ${code(resume)}, but no step has that id${guess !== undefined ? `: did you mean \`${guess}\`?` : "."}`
        )
      )
    }
  }

  // inputs and outputs
  const usedIds = new Set<string>(placeholderUses)
  for (const s of steps) for (const id of listField(s.value, "uses")) if (typeof id === "string") usedIds.add(id)
  for (const [id, index] of inputIds) {
    if (stepsReadable && !usedIds.has(id)) {
      out.push(warning("unused_input", ["inputs", index], `Input ${code(id)} is not used by any step: list it in a step's \`uses\` (or mention it as {{${clip(id, 40)}}}), or remove it.`))
    }
  }
  for (const [id, index] of outputIds) {
    if (stepsReadable && !firstProducer.has(id)) {
      out.push(error("unproduced_output", ["outputs", index], `Output ${code(id)} is not produced by any step: add it to the \`produces\` of the step that creates it.`))
    }
  }

  // guardrails
  const guardrailList = field(root, "guardrails")
  if (guardrailList === undefined || (Array.isArray(guardrailList) && guardrailList.length === 0)) {
    out.push(warning("no_guardrails", ["guardrails"], "The flow has no `guardrails`: list what the agent must always do (`must:`) and must never do (`never:`)."))
  }
  const rules: Array<{ readonly index: number; readonly kind: "must" | "never"; readonly forbids: boolean; readonly gist: GuardrailGist }> = []
  for (const g of guardrails) {
    const must = strField(g.value, "must")
    const never = strField(g.value, "never")
    if ((must === undefined) === (never === undefined)) continue
    const kind = must !== undefined ? "must" : "never"
    const gist = guardrailGist((must ?? never)!)
    // "must: Never X" forbids X like "never: X" does; "never: Do not X" is still a never
    const forbids = kind === "never" || gist.negated
    for (const other of rules) {
      if (gist.words.length === 0 || other.gist.words.length === 0) continue
      const similarity = guardrailSimilarity(gist, other.gist)
      if (other.forbids === forbids) {
        if (similarity === 1) {
          out.push(
            warning(
              "duplicate_guardrail",
              ["guardrails", g.index, kind],
              `This guardrail says the same as guardrails.${other.index}${other.kind !== kind ? ` (written as \`${other.kind}\`)` : ""}: keep one.`
            )
          )
        }
      } else if (gist.words.length >= 2 && other.gist.words.length >= 2 && similarity >= SAME_THING) {
        out.push(
          error(
            "contradictory_guardrails",
            ["guardrails", g.index, kind],
            `This guardrail ${forbids ? "forbids" : "requires"} what guardrails.${other.index} ${other.forbids ? "forbids" : "requires"}: they are about the same thing. Keep the one you mean, or make the difference explicit.`
          )
        )
      }
    }
    rules.push({ index: g.index, kind, forbids, gist })
  }

  // required texts
  const texts: Array<[Section | "root", ReadonlyArray<string>]> = [
    ["root", ["name", "description", "when_to_use"]],
    ["inputs", ["description"]],
    ["steps", ["title"]],
    ["outputs", ["description"]],
    ["guardrails", ["must", "never"]],
    ["failure_handling", ["when", "then"]],
    ["evals", ["name", "input", "expected_behavior", "pass_criteria"]]
  ]
  for (const [where, keys] of texts) {
    const list: ReadonlyArray<Block | { readonly section: "root"; readonly index: -1; readonly value: Rec }> =
      where === "root" ? [{ section: "root", index: -1, value: root }] : blocks(root, where)
    for (const b of list) {
      for (const key of keys) {
        const v = strField(b.value, key)
        if (v === undefined || v.trim() !== "") continue
        const path: Array<PathSegment> = b.section === "root" ? [key] : [b.section, b.index, key]
        out.push(error("empty_text", path, `${label(root, path)} is empty: write ${b.section === "root" ? HINTS.root[key] ?? "it" : HINTS[b.section][key] ?? "what it means"}.`))
      }
    }
  }

  // source mapping
  const declared = new Map<string, Block>()
  for (const src of sources) {
    const path = strField(src.value, "path")
    if (path === undefined) continue
    const earlier = declared.get(path)
    if (earlier !== undefined) {
      out.push(error("duplicate_source", ["sources", src.index, "path"], `The source ${code(path)} is listed twice (also sources.${earlier.index}): keep one.`))
    } else declared.set(path, src)
  }
  const given = new Map<string, SourceInfo>()
  for (const info of options?.sources ?? []) if (!given.has(info.path)) given.set(info.path, info)
  for (const [path, src] of declared) {
    const info = given.get(path)
    if (info === undefined) continue
    const declaredLines = field(src.value, "lines")
    const realLines = typeof info.lines === "number" ? info.lines : typeof info.content === "string" ? lineCount(info.content) : undefined
    if (typeof declaredLines === "number" && realLines !== undefined && declaredLines !== realLines) {
      out.push(
        error(
          "source_lines_mismatch",
          ["sources", src.index, "lines"],
          `The source ${code(path)} has ${realLines} line${realLines === 1 ? "" : "s"}, but \`lines\` says ${declaredLines}: write \`lines: ${realLines}\` and check the \`from\` ranges naming it.`
        )
      )
    }
    const declaredHash = strField(src.value, "content_hash")
    const realHash = info.contentHash ?? (typeof info.content === "string" ? sha256(info.content) : undefined)
    if (declaredHash !== undefined && realHash !== undefined && declaredHash !== realHash) {
      out.push(
        warning(
          "source_hash_mismatch",
          ["sources", src.index, "content_hash"],
          `The source ${code(path)} has changed since this flow was converted (its hash is ${clip(realHash, 24)}): check that the flow still matches it, then update \`content_hash\`.`
        )
      )
    }
  }
  const mapped: ReadonlyArray<Section> = ["inputs", "steps", "outputs", "guardrails", "failure_handling", "evals"]
  // the identity's `from` (at the root), then every block's
  const refs: Array<{ readonly ref: string | undefined; readonly path: Array<PathSegment> }> = [
    { ref: strField(root, "from"), path: ["from"] },
    ...mapped.flatMap((section) =>
      blocks(root, section).map((b) => ({ ref: strField(b.value, "from"), path: [section, b.index, "from"] as Array<PathSegment> }))
    )
  ]
  for (const { ref, path } of refs) {
    if (ref === undefined) continue
    const range = parseSourceRef(ref)
    if (range === undefined) continue // the shape pass reported it
    if (range.start > range.end) {
      out.push(error("source_range_outside", path, `${label(root, path)} is ${code(ref)}: the range starts after it ends; write PATH:START-END with START ≤ END.`))
      continue
    }
    const src = declared.get(range.path)
    if (src === undefined) {
      if (declared.size === 0) {
        out.push(
          warning(
            "undeclared_source",
            path,
            `${label(root, path)} names ${code(range.path)}, but the flow lists no \`sources\`: add \`sources: [{path: ${clip(range.path, 40)}, lines: N}]\` so the range can be checked.`
          )
        )
      } else {
        const guess = closest(range.path, declared.keys())
        out.push(
          error(
            "unknown_source",
            path,
            `${label(root, path)} names ${code(range.path)}, which is not listed in \`sources\`${guess !== undefined ? `: did you mean \`${guess}\`?` : `; the sources are ${[...declared.keys()].map((p) => code(p)).join(", ")}.`}`
          )
        )
      }
      continue
    }
    const lines = field(src.value, "lines")
    if (typeof lines === "number" && Number.isInteger(lines) && range.end > lines) {
      out.push(
        error(
          "source_range_outside",
          path,
          `${label(root, path)} is ${code(ref)}, but ${code(range.path)} has ${lines} line${lines === 1 ? "" : "s"}: the range must lie inside the source.`
        )
      )
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------------
// The entry point

const compareIssues = (a: ValidationIssue, b: ValidationIssue): number =>
  a.line - b.line ||
  (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
  (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
  (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)

const isPrefix = (prefix: ReadonlyArray<PathSegment>, path: ReadonlyArray<PathSegment>): boolean =>
  prefix.length <= path.length && prefix.every((s, i) => s === path[i])

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
    const root = parsed.value
    const drafts: Array<Draft> = []
    const rootRec = asRec(root)
    if (rootRec !== undefined && isForeignVersion(field(rootRec, "rubr_flow"))) {
      drafts.push(versionIssue(rootRec)!)
    } else {
      const shape = shapeIssues(root)
      flow = shape.flow
      drafts.push(...shape.drafts)
      if (rootRec !== undefined) {
        const reported = shape.drafts.map((d) => d.path)
        for (const d of meaningIssues(rootRec, options)) {
          if (!reported.some((p) => p.length > 0 && isPrefix(p, d.path))) drafts.push(d)
        }
      }
    }
    const seen = new Set<string>()
    for (const d of drafts) {
      const path = d.path.join(".")
      const key = `${d.code}\u0000${path}\u0000${d.message}`
      if (seen.has(key)) continue
      seen.add(key)
      issues.push({ code: d.code, severity: d.severity, message: d.message, line: lineOf(parsed.offsetOf(d.path, d.anchor)), path })
    }
  }
  issues.sort(compareIssues)
  let reported = issues
  if (issues.length > MAX_ISSUES) {
    reported = issues.slice(0, MAX_ISSUES - 1)
    const rest = issues.slice(MAX_ISSUES - 1)
    reported.push({
      code: "too_many_issues",
      severity: rest.some((i) => i.severity === "error") ? "error" : "warning",
      message: `${rest.length} more issues are not listed; fix the ones above and validate again.`,
      line: rest[0].line,
      path: ""
    })
    reported.sort(compareIssues)
  }
  return {
    valid: !issues.some((i) => i.severity === "error"),
    validatorVersion: VALIDATOR_VERSION,
    formatVersion: parsed.versionText,
    issues: reported,
    flow
  }
}
