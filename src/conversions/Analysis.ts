/**
 * The analysis and mapping phases of a rubr_flow conversion, shared by the mock converter, the AI
 * converter (as hints) and the pipeline (the report). Pure and deterministic: no clock, no I/O, and
 * every result is plain JSON (no Maps, no `undefined`).
 *
 * - `analyzeSources`: what each artifact source says, with 1-based line ranges: identity (frontmatter,
 *   H1, opening), outline, procedures (numbered lists, "Step N" / "1)" / "1.1" headings, workflow
 *   bullets, step-like sections, imperative sentences of a plain prompt), rules, inputs, examples,
 *   failure handling, outputs, bundle references.
 * - `planBlocks`: which source ranges become which rubr_flow blocks, in order, with proposed ids.
 * - `blockMappingOf`: the `from` fields of any (possibly malformed) document, for the report.
 * - `assessFlow`: the report notes every converter gets (missing requirements, remaining risks).
 */
import { isImperative, kebabCase } from "../review/mock/Checks.js"
import { analyzeDoc, BundleIndex, type Doc } from "../review/mock/Document.js"
import { getField } from "../review/text/Frontmatter.js"
import { maskInlineCode, plainText } from "../review/text/Markdown.js"
import { dirname } from "../review/text/Paths.js"
import { countWords } from "../review/text/Tokens.js"
import { isMap, isScalar, isSeq, LineCounter, type Node as YamlNode, parseDocument, type YAMLMap } from "yaml"
import { parseSourceRef } from "../rubr_flow/Format.js"
import type {
  BlockKind,
  BlockMappingEntry,
  ConversionInput,
  ConversionSource,
  MissingRequirement,
  RemainingRisk
} from "./Types.js"

// ====================================================================== types: analysis

export type SectionRole =
  | "overview"
  | "when_to_use"
  | "inputs"
  | "procedure"
  | "quick_start"
  | "rules"
  | "failure"
  | "verification"
  | "outputs"
  | "examples"
  | "reference"
  | "other"

export interface OutlineSection {
  readonly level: number
  readonly title: string
  readonly lineStart: number
  /** the last line of the section, subsections included (trailing blank lines left out) */
  readonly lineEnd: number
  readonly role: SectionRole
}

export type StepOrigin = "heading" | "ordered_list" | "bullet_list" | "section" | "checklist" | "sentence" | "yaml"

export interface AnalyzedStep {
  /** the number the source gives the step ("Step 2", "2)", "2."), null when unnumbered */
  readonly number: number | null
  readonly title: string
  readonly lineStart: number
  readonly lineEnd: number
  /**
   * The step as the source says it: the lead text, then its sub-items, paragraphs and short code
   * blocks, inline code kept. Lines that became failure handlers, stated checks or examples are left out.
   */
  readonly action: string
  readonly subItems: number
  /** a check the source states for this step ("Confirm: ...", "Ensure each ... is:", a checklist) */
  readonly statedCheck: string | null
  /** inline or fenced commands in the step, in order */
  readonly commands: ReadonlyArray<string>
  readonly origin: StepOrigin
}

export interface AnalyzedProcedure {
  readonly kind: StepOrigin
  /** the heading of the section holding it (null at the top level) */
  readonly section: string | null
  readonly lineStart: number
  readonly lineEnd: number
  readonly steps: ReadonlyArray<AnalyzedStep>
}

export interface AnalyzedRule {
  readonly polarity: "must" | "never"
  /** the rule as a guardrail text: the leading "Never"/"Do not"/"Always" removed for clear cases */
  readonly text: string
  /** the source sentence, markup removed */
  readonly source: string
  readonly lineStart: number
  readonly lineEnd: number
  readonly section: string | null
}

export interface AnalyzedInput {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly required: boolean
  readonly lineStart: number
  readonly lineEnd: number
  readonly kind: "list" | "arguments" | "placeholder" | "hint"
}

export interface AnalyzedExample {
  readonly kind: "section" | "good_bad" | "usage" | "code"
  readonly title: string
  readonly lineStart: number
  readonly lineEnd: number
  /** the code block's info string, "" otherwise */
  readonly info: string
  /** a short excerpt of the example (first prose lines, or the labels of a worked example) */
  readonly excerpt: string
  /** <Good>/<Bad> blocks: the caption under each block */
  readonly good: string | null
  readonly bad: string | null
}

export interface AnalyzedFailure {
  readonly id: string
  readonly when: string
  readonly then: string
  readonly lineStart: number
  readonly lineEnd: number
  readonly kind: "conditional" | "question" | "condition_list" | "table" | "section"
  /** the source says to continue at step N ("continue with Step 1", "Return to Review (Step 1)") */
  readonly resumeStepNumber: number | null
  /** the handler retries or continues the step it occurs in */
  readonly resumeSameStep: boolean
}

export interface AnalyzedOutput {
  readonly id: string
  readonly description: string
  readonly lineStart: number
  readonly lineEnd: number
  readonly kind: "section" | "step" | "description"
  /** the line of the step that produces it (null when no step was found) */
  readonly stepLine: number | null
}

export interface SourceReferenceInfo {
  readonly line: number
  readonly path: string
  /** the path resolves to a file of the conversion (artifact or context source) */
  readonly exists: boolean
}

export interface FileAnalysis {
  readonly path: string
  readonly artifactType: string
  readonly contentHash: string
  /** lines by the validator's rule: a trailing newline does not add a line */
  readonly lines: number
  readonly words: number
  readonly frontmatter: {
    readonly present: boolean
    readonly name: string | null
    readonly description: string | null
    readonly otherKeys: ReadonlyArray<string>
    /** the frontmatter block's lines (0-0 when absent) */
    readonly lineStart: number
    readonly lineEnd: number
    /** the description field's lines (0-0 when absent) */
    readonly descriptionLineStart: number
    readonly descriptionLineEnd: number
  }
  readonly title: { readonly text: string; readonly line: number } | null
  readonly opening: { readonly text: string; readonly lineStart: number; readonly lineEnd: number } | null
  readonly whenToUse: {
    readonly text: string
    readonly lineStart: number
    readonly lineEnd: number
    readonly origin: "description" | "section" | "opening"
  } | null
  readonly outline: ReadonlyArray<OutlineSection>
  readonly procedures: ReadonlyArray<AnalyzedProcedure>
  readonly rules: ReadonlyArray<AnalyzedRule>
  readonly inputs: ReadonlyArray<AnalyzedInput>
  readonly examples: ReadonlyArray<AnalyzedExample>
  readonly failures: ReadonlyArray<AnalyzedFailure>
  readonly outputs: ReadonlyArray<AnalyzedOutput>
  readonly references: ReadonlyArray<SourceReferenceInfo>
  /** content lines (non-blank, not headings or rules, outside frontmatter) */
  readonly contentLines: number
  /** the runs of content lines, for coverage */
  readonly contentRanges: ReadonlyArray<{ readonly lineStart: number; readonly lineEnd: number }>
}

export interface SourceSummaryFile {
  readonly path: string
  readonly lines: number
  readonly words: number
  readonly title: string | null
  readonly headings: number
  readonly steps: number
  readonly rules: number
  readonly examples: number
}

export interface SourceSummary {
  readonly mode: "file" | "bundle"
  readonly files: ReadonlyArray<SourceSummaryFile>
  readonly totals: {
    readonly files: number
    readonly lines: number
    readonly words: number
    readonly headings: number
    readonly steps: number
    readonly rules: number
    readonly examples: number
  }
}

export interface SourceAnalysis {
  readonly mode: "file" | "bundle"
  readonly bundleName: string
  /** the artifact sources, converted (file mode: the artifact; bundle mode: every artifact, path order) */
  readonly files: ReadonlyArray<FileAnalysis>
  /** every path of the conversion (artifacts and context), sorted: what references may point at */
  readonly knownPaths: ReadonlyArray<string>
  readonly sourceSummary: SourceSummary
}

// ====================================================================== text helpers

const HR = /^\s*([-*_])(\s*\1){2,}\s*$/
const indentOf = (line: string): number => line.replace(/\t/g, "    ").length - line.replace(/\t/g, "    ").trimStart().length
const isBlank = (s: string) => s.trim() === ""
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const CODE_SPAN = /(`+)(?:[^`]|[^`][\s\S]*?[^`])\1(?!`)/g
const HTML_TAG = /<\/?(?:good|bad|br|p|div|span|b|i|em|strong|details|summary|sup|sub|kbd|example|examples|u)\b[^<>]*>/gi

const cleanProse = (t: string): string =>
  t
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g, (_m, text: string, target: string) =>
      text.trim() === target ? target : `${text.trim()} (${target})`
    )
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/__([^_]+)__/g, "$1")
    .replace(/(^|[\s(])\*([^*\s][^*]*?)\*(?=[\s).,;:!?]|$)/g, "$1$2")
    .replace(/(^|[\s(])_([^_\s][^_]*?)_(?=[\s).,;:!?]|$)/g, "$1$2")
    .replace(/\*\*/g, "")
    .replace(HTML_TAG, "")
    .replace(/\p{Extended_Pictographic}\uFE0F?/gu, "")

/** Markdown emphasis, links, emoji and HTML-ish tags removed; inline code kept as written; whitespace collapsed. */
export const cleanInline = (s: string): string => {
  let out = ""
  let last = 0
  for (const m of s.matchAll(CODE_SPAN)) {
    out += cleanProse(s.slice(last, m.index))
    out += m[0]
    last = m.index! + m[0].length
  }
  out += cleanProse(s.slice(last))
  return out.replace(/\s+/g, " ").trim()
}

/** Splits text into sentences (line breaks end one; not inside inline code or parentheses, not after e.g./i.e./etc.). */
export const splitSentences = (text: string): Array<string> => text.split(/\n+/).flatMap(splitLineSentences)

const splitLineSentences = (s: string): Array<string> => {
  const masked = maskInlineCode(s).masked
  const out: Array<string> = []
  let start = 0
  let depth = 0
  for (let i = 0; i < masked.length; i++) {
    const c = masked[i]!
    if (c === "(") depth++
    else if (c === ")") depth = Math.max(0, depth - 1)
    else if ((c === "." || c === "!" || c === "?") && depth === 0) {
      const rest = masked.slice(i + 1)
      const next = rest.trimStart()[0]
      const endsHere = rest.trim() === "" || (/^\s/.test(rest) && next !== undefined && /[A-Z0-9"'`*(\[_]/.test(next))
      if (!endsHere) continue
      if (/\b(e\.g|i\.e|etc|vs|cf|approx|incl)\.$/i.test(masked.slice(Math.max(0, i - 7), i + 1))) continue
      const piece = s.slice(start, i + 1).trim()
      if (piece !== "") out.push(piece)
      start = i + 1
    }
  }
  const tail = s.slice(start).trim()
  if (tail !== "") out.push(tail)
  return out
}

const cap = (s: string): string => (s === "" ? s : s[0]!.toUpperCase() + s.slice(1))
const lowerFirst = (s: string): string =>
  s === "" || /^[A-Z]{2}/.test(s) ? s : s[0]!.toLowerCase() + s.slice(1)
const stripEnd = (s: string): string => s.replace(/[\s:;,.]+$/, "")
const sentence = (s: string): string => {
  const t = s.trim().replace(/[\s:;,]+$/, "")
  return t === "" ? t : /[.!?…]["'`)\]]*$/.test(t) ? t : `${t}.`
}
/** Sentence case for ALL-CAPS text ("NO PRODUCTION CODE" → "No production code"; "STOP executing" → "Stop executing"). */
const unshout = (s: string): string => {
  const letters = s.replace(/[^A-Za-z]/g, "")
  if (letters.length >= 6 && letters === letters.toUpperCase()) return cap(s.toLowerCase())
  return s.replace(/^(STOP|NEVER|ALWAYS|MUST|DO NOT|DON'T|NOTE|IMPORTANT|REQUIRED)\b/, (w) => cap(w.toLowerCase()))
}

const STOP_TAIL = new Set([
  "a", "an", "the", "and", "or", "to", "of", "for", "with", "in", "on", "at", "by", "from", "into", "is", "are", "be", "if",
  "when", "that", "this", "your", "its", "because", "so", "until", "while", "without", "as", "than", "then", "not"
])

/** A FlowId from free text: kebab-case, at most `maxWords` words, no dangling small words. */
export const idFrom = (text: string, maxWords = 6): string => {
  // brand words in PascalCase (GitHub, TypeScript) stay one word; camelCase identifiers split
  const flat = plainText(text).replace(/\([^)]*\)/g, " ").replace(/['’]/g, "").replace(/\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b/g, (w) => w.toLowerCase())
  const base = kebabCase(flat)
  let words = base.split("-").filter((w) => w !== "" && !/^(a|an|the)$/.test(w))
  const cut = words.findIndex((w, i) => i >= 2 && /^(with|using|via|from|in|by|for|to|into|on|before|after|so|when|if|until|because)$/.test(w))
  if (cut > 0) words = words.slice(0, cut)
  words = words.slice(0, maxWords)
  while (words.length > 1 && STOP_TAIL.has(words[words.length - 1]!)) words.pop()
  return words.join("-").slice(0, 80).replace(/-+$/, "")
}

const validId = (id: string, fallback: string): string => (/^[a-z0-9][a-z0-9_-]{0,79}$/.test(id) ? id : fallback)

// ====================================================================== section roles

/** "Step 2:", "Phase 1 -", "2)", "1.1", "3." at the start of a heading. */
const STEP_HEADING = /^(?:(?:step|phase|stage|part)\s*(\d+)[a-z]?\b\s*[:.)\-–—]?|(\d+)(?:\.\d+)*[.):]?(?=\s))\s*/i


const FAILURE_TITLE =
  /\b(stop|stuck|failures?|failure handling|failure modes|errors?|error handling|troubleshoot\w*|recover\w*|rollback|roll back|blockers?|blocked|revisit\w*|red flags?|problems|when things go wrong|when .{0,20}\bfails?|if .{0,30}\bfails?|fallbacks?|escalat\w*|edge cases?)\b/i
const WHEN_TITLE = /\b(when to use|when to (invoke|apply|trigger)|use (this|it) when|triggers?|use cases?|when should)\b/i
const INPUT_TITLE = /^(inputs?|parameters?|arguments?|args|variables?|prerequisites?|prereqs?|what you need|required (information|inputs?))\b/i
const VERIFY_TITLE = /\b(verif\w*|validat\w*|checklist|definition of done|done when|success criteria|acceptance criteria|self-check)\b/i
const REFERENCE_TITLE =
  /^(references?|resources?|bundled resources|reference files|see also|related|further reading|documentation|documentation library|keywords|license|credits|links|appendix)\b|\b(references and|reference files|documentation library)\b/i
const EXAMPLE_TITLE = /\b(examples?|samples?|demo|walkthrough|sample output|worked example)\b/i
const RULES_TITLE =
  /\b(rules?|laws?|constraints?|guardrails?|principles?|guidelines?|remember|don'?ts|dos and don'?ts|boundaries|restrictions|polic(y|ies)|conventions?|code style|style guide|must|never|pitfalls|anti-?patterns|rationali[sz]ations|important)\b/i
const OUTPUT_TITLE = /^(outputs?|output format|deliverables?|results?|response( format)?|report( format)?|returns?|format|what to return|expected output)\b/i
const PROCEDURE_TITLE =
  /\b(workflow|process|procedure|steps?|instructions|how to|how-to|usage|method|playbook|runbook|approach|tasks?|phases?)\b/i
const QUICK_TITLE = /\b(quick ?start|tl;?dr|summary|at a glance|cheat ?sheet|quick reference|in short|overview of steps)\b/i
const OVERVIEW_TITLE =
  /^(introduction|intro|about|purpose|background|context|description|core principle|goal|goals|what this (skill|does))\b|\b(overview|architecture|layout|(?:project|directory|folder|repository|repo|code) (?:structure|layout|map)|tech(?:nology)? stack|glossary|terminology)\b/i

export const sectionRole = (title: string): SectionRole => {
  const t = plainText(title).replace(/\p{Extended_Pictographic}\uFE0F?/gu, "").trim().replace(STEP_HEADING, "")
  if (WHEN_TITLE.test(t) && !FAILURE_TITLE.test(t)) return "when_to_use"
  if (FAILURE_TITLE.test(t)) return "failure"
  if (INPUT_TITLE.test(t)) return "inputs"
  if (VERIFY_TITLE.test(t)) return "verification"
  if (REFERENCE_TITLE.test(t)) return "reference"
  if (EXAMPLE_TITLE.test(t)) return "examples"
  if (OUTPUT_TITLE.test(t)) return "outputs"
  if (QUICK_TITLE.test(t)) return "quick_start"
  if (RULES_TITLE.test(t)) return "rules"
  if (PROCEDURE_TITLE.test(t)) return "procedure"
  if (OVERVIEW_TITLE.test(t)) return "overview"
  return "other"
}

// ====================================================================== failure and rule vocabulary

const FAILURE_WORDS =
  /\b(fail\w*|errors?|erroring|rejected|refused|denied|unauthenticated|unauthori[sz]ed|not (?:authenticated|logged in|connected|available|found|installed|running|reachable|configured|present|clear|sure|possible|supported)|unavailable|blocks?|blocked|missing|cannot|can'?t|unable|unclear|ambiguous|stuck|times? out|timed out|timeout|crash\w*|broken|breaks|invalid|empty|no (?:results?|matches?|access|response|output|answer)|doesn'?t|does not|don'?t (?:know|have|understand)|conflicts?|wrong|unexpected|goes wrong|not working|too (?:large|big|long)|unsure|in doubt|not sure|confused)\b/i
const RESUME_SAME = /\b(re-?run|retry|try again|re-?try|before proceeding|then (?:continue|proceed|resume)|and (?:continue|proceed|resume)|re-?check|fix\b|ask\b)/i
const STOP_WORDS_THEN = /\b(stop|abort|halt|give up|do not continue|don'?t continue)\b/i
const STEP_REF = /\b(?:step|phase)\s*(\d+)\b/i

const NEVER_LEAD =
  /^(?:you\s+|agents?\s+|the agent\s+|claude\s+)?(?:must never|should never|never ever|never|do not|don'?t|must not|mustn'?t|should not|shouldn'?t|may not|avoid|under no circumstances(?: should you)?)\b[\s,:]*/i
const MUST_LEAD =
  /^(?:you\s+|agents?\s+|the agent\s+|claude\s+)?(?:must always|should always|always|must|make sure (?:to|that)|be sure to|it is (?:important|essential|critical|required) (?:to|that)|it'?s (?:important|essential|critical) (?:to|that))\b[\s,:]*/i
const RULE_WORD = /\b(must|never|always|mandatory)\b|\b(?:is|are) required\b|\bunder no circumstances\b/i
const CLAUSE_NEGATION = /(?:^|[;:(]\s*|,\s*|\s[-–—]\s*)(?:do not|don'?t|avoid|never)\b/i
const RULE_LABEL = /^(?:\*\*)?\s*(important|critical|required|mandatory|note|warning|rule|must|never|always|stop)\b[^:*]{0,40}:?\s*(?:\*\*)?\s*:?\s*/i

// ====================================================================== per-file scanning

interface Sec {
  readonly level: number
  readonly title: string
  readonly line: number
  /** last line of the section (subsections included), trailing blanks trimmed */
  readonly end: number
  /** last line before the first subsection */
  readonly ownEnd: number
  readonly role: SectionRole
  readonly parent: number
}

interface Item {
  readonly line: number
  readonly indent: number
  readonly ordered: boolean
  readonly number: number
  readonly text: string
  readonly parent: number
  readonly list: number
  end: number
}

interface Scan {
  readonly doc: Doc
  readonly lines: ReadonlyArray<string>
  readonly path: string
  readonly bodyStart: number
  readonly secs: ReadonlyArray<Sec>
  /** index of the innermost section holding each line (-1 before the first heading) */
  readonly secAt: ReadonlyArray<number>
  readonly items: ReadonlyArray<Item>
  readonly itemAt: ReadonlyMap<number, number>
  readonly headingAt: ReadonlyMap<number, number>
  readonly tableLines: ReadonlySet<number>
  /** lines inside <Good>/<Bad> blocks (tags included) */
  readonly goodBadLines: ReadonlySet<number>
}

const lastContentLine = (lines: ReadonlyArray<string>, from: number, to: number): number => {
  let e = to
  while (e > from && (isBlank(lines[e - 1]!) || HR.test(lines[e - 1]!))) e--
  return e
}

const scanFile = (doc: Doc, path: string): Scan => {
  const lines = doc.split.lines
  const bodyStart = doc.md.bodyStartLine
  const total = lines.length
  const hs = doc.md.headings
  const secs: Array<Sec> = []
  const headingAt = new Map<number, number>()
  const stack: Array<number> = []
  for (let i = 0; i < hs.length; i++) {
    const h = hs[i]!
    let endRaw = total
    for (let j = i + 1; j < hs.length; j++) {
      if (hs[j]!.level <= h.level) {
        endRaw = hs[j]!.line - 1
        break
      }
    }
    const ownRaw = i + 1 < hs.length ? Math.min(endRaw, hs[i + 1]!.line - 1) : endRaw
    while (stack.length > 0 && secs[stack[stack.length - 1]!]!.level >= h.level) stack.pop()
    const parent = stack.length > 0 ? stack[stack.length - 1]! : -1
    // the document's title (its first heading, an H1) names the whole file, not a kind of section
    let role = i === 0 && h.level === 1 ? "other" : sectionRole(h.text)
    if (role === "other" && parent >= 0) {
      const pr = secs[parent]!.role
      if (pr === "reference" || pr === "examples" || pr === "rules" || pr === "failure" || pr === "when_to_use" || pr === "inputs") role = pr
    }
    if (parent >= 0 && secs[parent]!.role === "reference" && role !== "failure") role = "reference"
    if (parent >= 0 && secs[parent]!.role === "examples") role = "examples"
    secs.push({
      level: h.level,
      title: cleanInline(h.text),
      line: h.line,
      end: lastContentLine(lines, h.line, endRaw),
      ownEnd: lastContentLine(lines, h.line, ownRaw),
      role,
      parent
    })
    headingAt.set(h.line, i)
    stack.push(i)
  }
  const secAt: Array<number> = [-1]
  let cur = -1
  for (let n = 1; n <= total; n++) {
    if (headingAt.has(n)) cur = headingAt.get(n)!
    secAt.push(cur)
  }
  // tables and <Good>/<Bad> blocks
  const tableLines = new Set<number>()
  const goodBadLines = new Set<number>()
  let gb: number | null = null
  for (let n = bodyStart; n <= total; n++) {
    const t = lines[n - 1]!.trim()
    if (!doc.md.inCode[n] && /^\|.*\|/.test(t)) tableLines.add(n)
    if (!doc.md.inCode[n] && /^<(good|bad)\b[^>]*>\s*$/i.test(t)) gb = n
    if (gb !== null) goodBadLines.add(n)
    if (!doc.md.inCode[n] && /^<\/(good|bad)>\s*$/i.test(t)) gb = null
  }
  // list items as a tree
  const mdItems = new Map(doc.md.listItems.map((li) => [li.line, li] as const))
  const items: Array<Item> = []
  const itemAt = new Map<number, number>()
  let open: Array<number> = []
  let listId = 0
  let prevBlank = true
  const extend = (n: number) => {
    for (const i of open) items[i]!.end = n
  }
  const reset = () => {
    if (open.length > 0) listId++
    open = []
  }
  for (let n = bodyStart; n <= total; n++) {
    const raw = lines[n - 1]!
    if (headingAt.has(n)) {
      reset()
      prevBlank = false
      continue
    }
    if (doc.md.inCode[n]) {
      const cb = doc.md.codeBlocks.find((b) => b.startLine === n)
      if (cb) {
        const ind = indentOf(raw)
        while (open.length > 0 && items[open[open.length - 1]!]!.indent >= ind && (ind === 0 || prevBlank)) open.pop()
        if (open.length > 0) extend(cb.endLine)
        else reset()
        n = cb.endLine
        prevBlank = false
      }
      continue
    }
    if (isBlank(raw)) {
      prevBlank = true
      continue
    }
    const li = mdItems.get(n)
    if (li && !tableLines.has(n)) {
      while (open.length > 0 && items[open[open.length - 1]!]!.indent >= li.indent) open.pop()
      if (open.length === 0 && prevBlank === false && items.length > 0 && items[items.length - 1]!.end < n - 1) listId++
      const parent = open.length > 0 ? open[open.length - 1]! : -1
      items.push({ line: n, indent: li.indent, ordered: li.ordered, number: li.number, text: li.text, parent, list: listId, end: n })
      itemAt.set(n, items.length - 1)
      open.push(items.length - 1)
      extend(n)
    } else if (open.length > 0) {
      const ind = indentOf(raw)
      if (ind > items[open[open.length - 1]!]!.indent || !prevBlank) {
        extend(n)
      } else {
        while (open.length > 0 && items[open[open.length - 1]!]!.indent >= ind) open.pop()
        if (open.length > 0) extend(n)
        else reset()
      }
    } else {
      if (open.length === 0) listId++
    }
    prevBlank = false
  }
  return { doc, lines, path, bodyStart, secs, secAt, items, itemAt, headingAt, tableLines, goodBadLines }
}

const sectionOf = (s: Scan, n: number): Sec | null => (s.secAt[n]! >= 0 ? s.secs[s.secAt[n]!]! : null)
const roleAt = (s: Scan, n: number): SectionRole => sectionOf(s, n)?.role ?? "other"

/** The item's text with its continuation lines (lines of the item before its first child). */
const itemLead = (s: Scan, idx: number): { text: string; end: number } => {
  const it = s.items[idx]!
  const parts = [it.text]
  let end = it.line
  for (let n = it.line + 1; n <= it.end; n++) {
    if (s.itemAt.has(n) || s.doc.md.inCode[n] || isBlank(s.lines[n - 1]!)) break
    parts.push(s.lines[n - 1]!.trim())
    end = n
  }
  return { text: joinLines(parts), end }
}

/**
 * Source lines of one item or paragraph as text: wrapped prose flows into one line; a line break that
 * separates instructions (after ":", or before a capitalised line with no sentence end before it) stays.
 */
const joinLines = (parts: ReadonlyArray<string>): string =>
  parts
    .map(cleanInline)
    .filter((p) => p !== "")
    .reduce((acc, p) => {
      if (acc === "") return p
      const breaks = /:$/.test(acc) || (!/[.!?,;]$/.test(acc) && /^([A-Z<\[!|`]|\d+[.)]\s)/.test(p))
      return `${acc}${breaks ? "\n" : " "}${p}`
    }, "")

const childrenOf = (s: Scan, idx: number): Array<number> =>
  s.items.map((_, i) => i).filter((i) => s.items[i]!.parent === idx)

/** The paragraph starting at line n (consecutive non-blank prose lines, no list items or headings). */
const paragraphAt = (s: Scan, n: number): { text: string; end: number } => {
  const parts: Array<string> = []
  let end = n
  for (let k = n; k <= s.lines.length; k++) {
    const l = s.lines[k - 1]!
    if (isBlank(l) || s.headingAt.has(k) || s.doc.md.inCode[k] || (k > n && s.itemAt.has(k)) || s.tableLines.has(k) || HR.test(l)) break
    parts.push(l.trim())
    end = k
  }
  return { text: joinLines(parts), end }
}

// ---------------------------------------------------------------- failures

interface FailureFound extends Omit<AnalyzedFailure, "id"> {
  /** lines consumed by the handler (left out of step actions and rules) */
  readonly consumed: ReadonlyArray<number>
}

/** Some sentence of the text is an instruction (and the text does not open as a statement: "you don't know ..."). */
const looksImperative = (text: string): boolean => {
  const sentences = splitSentences(plainText(text))
  if (sentences.length === 0) return false
  return sentences.some((x) => isImperative(x) === true) || isImperative(sentences[0]!) === null
}

const resumeOf = (then: string, inStep: boolean): { resumeStepNumber: number | null; resumeSameStep: boolean } => {
  const ref = then.match(new RegExp(`\\b(?:continue|resume|return|go back|restart|start again)\\b[^.]*?${STEP_REF.source}`, "i"))
    ?? then.match(new RegExp(`\\(${STEP_REF.source}\\)`, "i"))
  if (ref) return { resumeStepNumber: Number(ref[1]), resumeSameStep: false }
  if (!inStep) return { resumeStepNumber: null, resumeSameStep: false }
  return { resumeStepNumber: null, resumeSameStep: RESUME_SAME.test(then) && !STOP_WORDS_THEN.test(then) }
}

/** "If X fails, do Y" / "When X: Y" / "On error, Y" / "Stop and ask when X is unclear." */
const conditionalOf = (sentenceText: string): { when: string; then: string } | null => {
  const plain = cleanInline(sentenceText)
  const masked = maskInlineCode(plain).masked
  const m = masked.match(/^(?:\*\*)?(if|when|whenever|in case|should|on)\b\s+/i)
  if (!m) {
    // the instruction first: "Stop and ask the user when the requirements are ambiguous."
    const r = masked.match(/^(.{3,80}?)\s+(?:when(?:ever)?|if|in case)\s+([^,;]{3,120}?)[.!]?$/i)
    if (!r || NEVER_LEAD.test(plain) || MUST_LEAD.test(plain) || !/^(stop|ask|escalate|pause|abort|report|tell|notify|roll ?back|revert|retry|re-?run|fall ?back|halt)\b/i.test(plain)) return null
    const cond = plain.slice(masked.length - r[0].length + r[0].indexOf(r[2]!, r[1]!.length), masked.length - r[0].length + r[0].indexOf(r[2]!, r[1]!.length) + r[2]!.length)
    if (!FAILURE_WORDS.test(maskInlineCode(cond).masked)) return null
    return { when: cap(stripEnd(cond)), then: sentence(cap(plain.slice(0, r[1]!.length))) }
  }
  const rest = masked.slice(m[0].length)
  const sep = rest.search(/,\s|:\s|\s+then\s|\s[-–—]\s/)
  if (sep < 0) return null
  const cond = plain.slice(m[0].length, m[0].length + sep).trim()
  const afterRaw = plain.slice(m[0].length + sep).replace(/^(,|:|\s+then|\s[-–—])\s*/, "").trim()
  if (!FAILURE_WORDS.test(maskInlineCode(cond).masked)) return null
  if (m[1]!.toLowerCase() === "on" && !/\b(error|failure|fail\w*)\b/i.test(cond)) return null
  if (afterRaw === "" || !looksImperative(afterRaw)) return null
  const lead = m[1]!.toLowerCase() === "on" ? "On " : ""
  return { when: sentence(cap(lead + cond)).replace(/\.$/, ""), then: sentence(cap(afterRaw)) }
}

const findFailures = (s: Scan): Array<FailureFound> => {
  const out: Array<FailureFound> = []
  const used = new Set<number>()
  const { lines, doc } = s
  const push = (f: FailureFound) => {
    for (const n of f.consumed) used.add(n)
    out.push(f)
  }
  const inStep = (n: number) => roleAt(s, n) !== "failure"
  // (1) headings that are failure conditions ("### 0) If any MCP call fails ..., pause and set it up:")
  for (const sec of s.secs) {
    if (sec.role === "examples" || sec.role === "reference") continue
    const title = sec.title.replace(STEP_HEADING, "")
    const c = title.match(/^(if|when|whenever)\s+(.+?)(?:,\s*|:\s*|\s[-–—]\s*)(.*)$/i)
    if (!c || !FAILURE_WORDS.test(c[2]!)) continue
    const body: Array<string> = []
    const consumed: Array<number> = []
    for (let n = sec.line; n <= sec.end; n++) {
      consumed.push(n)
      if (n === sec.line || doc.md.inCode[n] && /^\s*(`{3,}|~{3,})/.test(lines[n - 1]!)) continue
      const l = lines[n - 1]!
      if (isBlank(l)) continue
      const li = s.itemAt.get(n)
      const it = li !== undefined ? s.items[li]! : null
      body.push(it !== null ? `${"  ".repeat(depthOf(s, li!))}${it.ordered ? `${it.number}.` : "-"} ${cleanInline(it.text)}` : doc.md.inCode[n] ? `  ${l.trim()}` : cleanInline(l))
    }
    const lead = c[3]!.trim() === "" ? "" : sentence(cap(c[3]!.trim()))
    const then = [lead, ...body].filter((x) => x !== "").join("\n")
    push({
      when: cap(c[2]!.trim()),
      then: then === "" ? "Follow the section's instructions." : then,
      lineStart: sec.line,
      lineEnd: sec.end,
      kind: "section",
      ...resumeOf(body.join(" "), false),
      consumed
    })
  }
  // (2) condition lists: "**STOP executing immediately when:**" + bullets; failure sections' bullet lists
  for (let n = s.bodyStart; n <= lines.length; n++) {
    if (used.has(n) || doc.md.inCode[n] || s.headingAt.has(n) || s.itemAt.has(n) || s.tableLines.has(n)) continue
    const plain = cleanInline(lines[n - 1]!)
    const lead = plain.match(/^(.{2,100}?)\s+(?:when|if)\s*(?:any of these (?:happen|occur))?\s*:\s*$/i)
    if (!lead) continue
    const action = lead[1]!.trim()
    const failureZone = roleAt(s, n) === "failure"
    if (!failureZone && !/\b(stop|return|go back|ask|escalate|pause|abort|revert|roll ?back|fall ?back|restart|start over)\b/i.test(action)) continue
    // the list that follows
    let k = n + 1
    while (k <= lines.length && isBlank(lines[k - 1]!)) k++
    const first = s.itemAt.get(k)
    if (first === undefined) continue
    const list = s.items[first]!.list
    const members = s.items.map((it, i) => ({ it, i })).filter((x) => x.it.list === list && x.it.parent === s.items[first]!.parent)
    const whens = members.map((x) => stripEnd(cleanInline(x.it.text)))
    const last = Math.max(...members.map((x) => x.it.end))
    const consumed = [n]
    for (let q = n + 1; q <= last; q++) consumed.push(q)
    let then = sentence(cap(unshout(action)))
    let end = last
    // a following paragraph that completes the instruction ("Ask for clarification rather than guessing.")
    let p = last + 1
    while (p <= lines.length && isBlank(lines[p - 1]!)) p++
    if (p <= lines.length && !s.headingAt.has(p) && !s.itemAt.has(p) && !doc.md.inCode[p] && s.secAt[p] === s.secAt[n]) {
      const para = paragraphAt(s, p)
      if (!isRuleSentence(para.text) && !/\b(when|if)\s*:\s*$/i.test(para.text) && para.text.length < 200) {
        then = `${then} ${sentence(para.text)}`
        for (let q = p; q <= para.end; q++) consumed.push(q)
        end = para.end
      }
    }
    push({
      when: whens.join("; "),
      then,
      lineStart: n,
      lineEnd: end,
      kind: "condition_list",
      ...resumeOf(action, false),
      consumed
    })
  }
  // (3) failure sections: tables of problem | solution, and bullet lists of red flags without a lead
  for (const sec of s.secs) {
    if (sec.role !== "failure") continue
    for (let n = sec.line + 1; n <= sec.ownEnd; n++) {
      if (!s.tableLines.has(n) || used.has(n)) continue
      // a table block
      const rows: Array<number> = []
      let k = n
      while (k <= sec.ownEnd && s.tableLines.has(k)) rows.push(k++)
      const cells = rows.map((r) => splitRow(lines[r - 1]!))
      const body = rows.slice(cells.length > 1 && cells[1]!.every((c) => /^:?-{2,}:?$/.test(c.trim())) ? 2 : 1)
      for (const r of body) {
        const c = splitRow(lines[r - 1]!)
        if (c.length < 2 || c[0]!.trim() === "" || c[1]!.trim() === "") continue
        push({
          when: stripEnd(cleanInline(c[0]!)),
          then: sentence(cleanInline(c.slice(1).join(" ").trim())),
          lineStart: r,
          lineEnd: r,
          kind: "table",
          resumeStepNumber: null,
          resumeSameStep: false,
          consumed: [r]
        })
      }
      for (const r of rows) used.add(r)
      n = k
    }
    // top-level bullet lists not yet used
    const tops = s.items.map((it, i) => ({ it, i })).filter((x) => x.it.parent === -1 && x.it.line > sec.line && x.it.line <= sec.ownEnd && !used.has(x.it.line))
    const lists = [...new Set(tops.map((x) => x.it.list))]
    for (const list of lists) {
      const members = tops.filter((x) => x.it.list === list)
      if (members.length === 0) continue
      const first = members[0]!.it
      const last = Math.max(...members.map((x) => x.it.end))
      // the consequence: "All of these mean: X", a paragraph after the list, or the heading's action part
      let then = ""
      const consumed: Array<number> = []
      for (let q = first.line; q <= last; q++) consumed.push(q)
      let end = last
      for (let p = last + 1; p <= sec.ownEnd; p++) {
        if (isBlank(lines[p - 1]!) || doc.md.inCode[p]) continue
        if (s.itemAt.has(p) || s.tableLines.has(p)) break
        const para = paragraphAt(s, p)
        then = para.text.replace(/^(all of these mean|any of these means?|this means|then|in that case|if so)\s*:?\s*/i, "")
        for (let q = p; q <= para.end; q++) consumed.push(q)
        end = para.end
        break
      }
      if (then === "") {
        const part = sec.title.split(/\s[-–—:]\s/).slice(1).join(" - ").trim()
        then = part !== "" ? unshout(part) : "Stop and ask the user how to proceed"
      }
      const whens = members.map((x) => stripEnd(cleanInline(x.it.text)))
      push({
        when: whens.join("; "),
        then: sentence(cap(unshout(then))),
        lineStart: first.line,
        lineEnd: end,
        kind: "condition_list",
        resumeStepNumber: null,
        resumeSameStep: false,
        consumed
      })
    }
  }
  // (4) conditionals and bold questions, line by line
  for (let n = s.bodyStart; n <= lines.length; n++) {
    if (used.has(n) || doc.md.inCode[n] || s.headingAt.has(n) || s.tableLines.has(n) || s.goodBadLines.has(n)) continue
    const role = roleAt(s, n)
    if (role === "examples" || role === "reference") continue
    const li = s.itemAt.get(n)
    const text = li !== undefined ? itemLead(s, li).text : cleanInline(lines[n - 1]!)
    const lineEnd = li !== undefined ? s.items[li]!.end : n
    const sentences = splitSentences(text)
    if (sentences.length === 0) continue
    // a question answered by an instruction: "**Test fails?** Fix code, not test."
    const rawLine = lines[n - 1]!.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "").trim()
    const q = rawLine.match(/^\*\*([^*?]{2,100}\?)\*\*\s*(.+)$/) ?? rawLine.match(/^([^?*`|]{3,100}\?)\s+(.+)$/)
    if (q) {
      const question = stripEnd(cleanInline(q[1]!).replace(/\?$/, ""))
      const answer = cleanInline(q[2]!)
      const bold = rawLine.startsWith("**")
      if ((bold || FAILURE_WORDS.test(question) || splitSentences(answer).some((x) => isImperative(x) === true)) && looksImperative(answer) && question.split(/\s+/).length <= 14) {
        const consumed: Array<number> = []
        for (let k = n; k <= lineEnd; k++) consumed.push(k)
        push({
          when: cap(question),
          then: sentence(cap(answer)),
          lineStart: n,
          lineEnd,
          kind: "question",
          ...resumeOf(answer, inStep(n)),
          consumed
        })
        continue
      }
    }
    // in a rules section, a conditional is a rule ("Stop when blocked, don't guess")
    if (role === "rules") continue
    sentences.forEach((sn, i) => {
      const c = conditionalOf(sn)
      if (!c) return
      // the instruction continues with the rest of the line, and with the item's children when it ends with ":"
      const restOfLine = sentences.slice(i + 1).join(" ")
      let then = i === 0 && restOfLine !== "" ? `${c.then} ${restOfLine}` : c.then
      const consumed: Array<number> = []
      let end = n
      if (i === 0) {
        for (let k = n; k <= (li !== undefined ? itemLead(s, li).end : n); k++) consumed.push(k)
        if (li !== undefined && /:\s*$/.test(c.then)) {
          const kids = childrenOf(s, li)
          if (kids.length > 0) {
            then = [then.replace(/\.$/, ""), ...kids.map((kd) => `- ${itemLead(s, kd).text}`)].join("\n")
            end = s.items[li]!.end
            for (let k = n; k <= end; k++) consumed.push(k)
          }
        }
      }
      push({
        when: c.when,
        then,
        lineStart: n,
        lineEnd: Math.max(n, end),
        kind: "conditional",
        ...resumeOf(then, inStep(n)),
        consumed
      })
    })
  }
  return out.sort((a, b) => a.lineStart - b.lineStart)
}

const depthOf = (s: Scan, idx: number): number => {
  let d = 0
  let p = s.items[idx]!.parent
  while (p >= 0) {
    d++
    p = s.items[p]!.parent
  }
  return d
}

const splitRow = (row: string): Array<string> => {
  const t = row.trim().replace(/^\|/, "").replace(/\|$/, "")
  return t.split(/(?<!\\)\|/).map((c) => c.trim())
}

// ---------------------------------------------------------------- rules

const NO_NEED = /\b(?:do not|don'?t|does not|doesn'?t) (?:need|have) to\b/i

const isRuleSentence = (text: string): boolean => {
  const masked = maskInlineCode(text).masked
  if (/\?\s*$/.test(masked) || NO_NEED.test(masked)) return false
  return RULE_WORD.test(masked) || CLAUSE_NEGATION.test(masked) || NEVER_LEAD.test(masked) || /^(?:\*\*)?\s*(important|critical|required)\b[^:]{0,30}:/i.test(masked) || /\bSTOP\b/.test(masked)
}

/** "Edit them by hand." says little alone: name the section it is written in. */
const withContext = (text: string, sectionTitle: string | null): string =>
  sectionTitle !== null && /\b(it|them|this|these|those)\b/i.test(text) && text.split(/\s+/).length <= 8
    ? `${stripEnd(text)} (${sectionTitle.replace(STEP_HEADING, "")}).`
    : text

/** One rule sentence → polarity and guardrail text (the leading negation or "Always" removed). */
const ruleOf = (sentenceText: string, sectionTitle: string | null): { polarity: "must" | "never"; text: string } | null => {
  let t = cleanInline(sentenceText).trim()
  // a label ("IMPORTANT:", "REQUIRED SUB-SKILL:", "Rule:") before the rule itself
  const label = t.match(/^([A-Za-z][A-Za-z -]{0,40}):\s+(.+)$/)
  if (label && /\b(important|critical|required|mandatory|note|warning|rule|must|never|always)\b/i.test(label[1]!)) t = label[2]!.trim()
  t = t.replace(/^(?:note|warning|tip)\s*:\s*/i, "")
  if (t === "" || /:\s*$/.test(t) && t.split(/\s+/).length <= 3) return null
  const context = sectionTitle ? `"${sectionTitle.replace(STEP_HEADING, "")}"` : "this procedure"
  const bare = stripEnd(t).toLowerCase()
  if (/^(mandatory|required|important|critical)$/.test(bare)) return { polarity: "must", text: `Perform ${context} every time.` }
  const nm = t.match(NEVER_LEAD)
  if (nm && !/^(?:no|not)\b/i.test(t)) {
    let rest = t.slice(nm[0].length).trim()
    if (rest === "") return null
    // "Never skip." needs its object: the section it is written in
    if (/^(skip|omit|ignore|forget|bypass|change|modify|edit|delete|remove|touch|do|use|run|rush|reorder)$/i.test(stripEnd(rest))) rest = `${stripEnd(rest)} ${context}`
    return { polarity: "never", text: withContext(sentence(cap(unshout(rest))), sectionTitle) }
  }
  const mm = t.match(MUST_LEAD)
  if (mm) {
    const rest = t.slice(mm[0].length).trim()
    if (rest === "" || /^[:.]/.test(rest)) return null
    return { polarity: "must", text: sentence(cap(unshout(rest))) }
  }
  return { polarity: "must", text: sentence(cap(unshout(t))) }
}

const findRules = (s: Scan, consumed: ReadonlySet<number>): Array<AnalyzedRule> => {
  const out: Array<AnalyzedRule> = []
  const { lines, doc } = s
  for (let n = s.bodyStart; n <= lines.length; n++) {
    if (consumed.has(n) || s.headingAt.has(n) || s.tableLines.has(n) || s.goodBadLines.has(n)) continue
    const role = roleAt(s, n)
    if (role === "examples" || role === "reference" || role === "when_to_use" || role === "inputs") continue
    const sec = sectionOf(s, n)
    const secTitle = sec ? sec.title : null
    if (doc.md.inCode[n]) {
      // a short unlabelled block stating the law ("NO PRODUCTION CODE WITHOUT A FAILING TEST FIRST")
      const cb = doc.md.codeBlocks.find((b) => b.startLine === n)
      if (!cb) continue
      const body = lines.slice(cb.startLine, cb.closed ? cb.endLine - 1 : cb.endLine).map((l) => l.trim()).filter((l) => l !== "")
      if (role === "rules" && (cb.info === "" || /^(text|txt|plain)$/i.test(cb.info)) && body.length >= 1 && body.length <= 3 && body.every((l) => !/[{};=]/.test(l))) {
        const text = sentence(unshout(body.map((l) => stripEnd(l)).join("; ")))
        out.push({ polarity: "must", text, source: body.join(" "), lineStart: cb.startLine, lineEnd: cb.endLine, section: secTitle })
      }
      n = cb.endLine
      continue
    }
    const raw = lines[n - 1]!
    if (isBlank(raw) || HR.test(raw)) continue
    const li = s.itemAt.get(n)
    if (li === undefined && n > 1 && s.itemAt.has(n - 1) === false && !isBlank(lines[n - 2]!) && !s.headingAt.has(n - 1) && !doc.md.inCode[n - 1] && paragraphStart(s, n) !== n) continue
    const block = li !== undefined ? itemLead(s, li) : paragraphAt(s, n)
    const text = block.text
    if (/^\[[ xX]\]\s/.test(text)) continue
    if (role === "rules") {
      // every instruction of a rules section is a guardrail
      if (/:\s*$/.test(text)) continue
      const sents = splitSentences(text)
      const r = ruleOf(text.replace(/\n/g, " "), secTitle)
      if (r) out.push({ ...r, source: text, lineStart: n, lineEnd: block.end, section: secTitle })
      n = Math.max(n, block.end)
      continue
    }
    const sents = splitSentences(text)
    for (let i = 0; i < sents.length; i++) {
      let sn = sents[i]!
      if (!isRuleSentence(sn)) continue
      // "MANDATORY. Never skip." → one rule
      if (/^(?:\*\*)?\s*(mandatory|required|important|critical)\s*[.!]?\s*(?:\*\*)?$/i.test(stripEnd(cleanInline(sn))) && i + 1 < sents.length && isRuleSentence(sents[i + 1]!)) {
        sn = sents[++i]!
      }
      if (/^(if|when)\b/i.test(cleanInline(sn)) && !RULE_WORD.test(maskInlineCode(sn).masked) && !CLAUSE_NEGATION.test(maskInlineCode(sn.replace(/^[^,]*,/, "")).masked)) continue
      // mid-sentence "do not" after a subject ("you don't know") is not a rule
      if (!RULE_WORD.test(maskInlineCode(sn).masked) && !NEVER_LEAD.test(cleanInline(sn)) && !/\bSTOP\b/.test(sn) && !/^(?:\*\*)?\s*(important|critical|required)\b/i.test(sn)) {
        const clause = maskInlineCode(cleanInline(sn)).masked
        if (!/(?:^|[;(]\s*|,\s*|\s[-–—]\s*)(?:do not|don'?t|avoid|never)\b/i.test(clause) || /\b(you|i|we|they|it)\s+(do not|don'?t)\b/i.test(clause)) continue
      }
      if (/\bSTOP\b/.test(sn) && !RULE_WORD.test(maskInlineCode(sn).masked) && !/^(?:\*\*)?\s*STOP\b/.test(sn.trim())) continue
      const r = ruleOf(sn, secTitle)
      if (!r) continue
      // in a paragraph, the rule maps to the lines of its own sentence
      const at = li === undefined ? findSentenceLine(s, n, block.end, sn) : { start: n, end: block.end }
      out.push({ ...r, source: cleanInline(sn), lineStart: at.start, lineEnd: at.end, section: secTitle })
    }
    // the item's or paragraph's continuation lines were read with it
    n = Math.max(n, li === undefined ? block.end : itemLead(s, li).end)
  }
  return out
}

const paragraphStart = (s: Scan, n: number): number => {
  let k = n
  while (k > s.bodyStart && !isBlank(s.lines[k - 2]!) && !s.headingAt.has(k - 1) && !s.itemAt.has(k - 1) && !s.doc.md.inCode[k - 1] && !s.tableLines.has(k - 1)) k--
  return k
}

// ---------------------------------------------------------------- stated checks

const CHECK_LABEL =
  /^(?:confirm|verify|check|requirements?|criteria|success criteria|done when|expected(?: result| output| outcome)?|acceptance criteria|definition of done|make sure(?: that)?|ensure(?: that)?(?: each| every| all)?[^:]{0,40}?(?:is|are)?|(?:review|check|look|test|audit|scan) for)\s*:\s*$/i

interface StatedCheck {
  readonly text: string
  readonly lines: ReadonlyArray<number>
  readonly lineStart: number
}

const findStatedChecks = (s: Scan): Array<StatedCheck> => {
  const out: Array<StatedCheck> = []
  const { lines, doc } = s
  for (let n = s.bodyStart; n <= lines.length; n++) {
    if (doc.md.inCode[n] || s.headingAt.has(n) || s.itemAt.has(n) || s.tableLines.has(n)) continue
    const plain = cleanInline(lines[n - 1]!)
    if (!CHECK_LABEL.test(plain)) continue
    let k = n + 1
    while (k <= lines.length && isBlank(lines[k - 1]!)) k++
    const first = s.itemAt.get(k)
    if (first === undefined) continue
    const members = s.items.map((it, i) => ({ it, i })).filter((x) => x.it.list === s.items[first]!.list && x.it.parent === s.items[first]!.parent)
    const texts = members.map((x) => {
      const t = stripEnd(cleanInline(x.it.text).replace(/^\[[ xX]\]\s*/, ""))
      const labelled = t.match(/^([^:()]{1,30}):\s+(.+)$/)
      return labelled ? `${labelled[1]} (${lowerFirst(labelled[2]!)})` : t
    })
    const lead = stripEnd(plain)
    const prefix = /^ensure|^make sure/i.test(lead)
      ? `${cap(lead.replace(/^(ensure|make sure)(?: that)?\s*/i, ""))}: `
      : /^(requirements?|criteria|acceptance criteria|success criteria)$/i.test(lead)
      ? "The result meets the requirements: "
      : ""
    const used = [n]
    const last = Math.max(...members.map((x) => x.it.end))
    for (let q = n + 1; q <= last; q++) used.push(q)
    out.push({ text: sentence(prefix + texts.map((t, i) => (i === 0 && prefix === "" ? cap(t) : lowerFirst(t))).join("; ")), lines: used, lineStart: n })
  }
  return out
}

// ---------------------------------------------------------------- steps

interface StepDraft {
  number: number | null
  title: string
  lineStart: number
  lineEnd: number
  origin: StepOrigin
  /** the lead text (list item text; empty for headings) */
  lead: string
  /** lines to render as the step's body */
  bodyFrom: number
  bodyTo: number
  /** a checklist step: its items are the check */
  checklist: string | null
}

const titleFrom = (text: string): string => {
  const t = cleanInline(text.split("\n")[0]!).replace(STEP_HEADING, "").replace(/^(?:important|note|required|critical|warning)\s*:\s*/i, "")
  const sentences = splitSentences(t)
  let first = sentences[0] ?? t
  // "After you complete this task. Stop ..." — a time clause alone is not the instruction
  if (/^(after|before|when|once|until|while)\b[^,]*\.$/i.test(first) && sentences[1]) first = `${first.replace(/\.$/, "")}, ${lowerFirst(sentences[1])}`
  let title = stripEnd(first.replace(/\s*\((?:[^()]|\([^()]*\))*\)/g, "").replace(/:\s.*$/, ""))
  if (title.length > 90) title = `${title.slice(0, 87).replace(/\s+\S*$/, "")}…`
  return title === "" ? stripEnd(t).slice(0, 90) : title
}

const isStepLike = (s: Scan, sec: Sec): boolean => {
  if (isImperative(sec.title) === true || sec.title.split(/\s[-–—]\s/).some((p) => isImperative(p) === true)) return true
  for (let n = sec.line + 1; n <= sec.ownEnd; n++) {
    const l = s.lines[n - 1]!
    if (isBlank(l) || s.doc.md.inCode[n]) continue
    const li = s.itemAt.get(n)
    return isImperative(li !== undefined ? s.items[li]!.text : l) === true
  }
  return false
}

const EXCLUDED_FOR_STEPS: ReadonlySet<SectionRole> = new Set(["examples", "reference", "when_to_use", "inputs", "rules", "failure", "overview"])

const findSteps = (s: Scan, failureSections: ReadonlySet<number>): Array<StepDraft> => {
  const { secs, items, lines } = s
  const steps: Array<StepDraft> = []
  const covered = (n: number) => steps.some((st) => n >= st.lineStart && n <= st.lineEnd)
  const zoneOk = (n: number) => !EXCLUDED_FOR_STEPS.has(roleAt(s, n))
  // (a) numbered step headings; a heading with numbered sub-headings is a phase: its children are the steps
  const isStepHeading = (i: number) =>
    STEP_HEADING.test(secs[i]!.title) && !failureSections.has(secs[i]!.line) && secs[i]!.role !== "examples" && secs[i]!.role !== "reference" &&
    !(secs[i]!.parent >= 0 && (secs[secs[i]!.parent]!.role === "examples" || secs[secs[i]!.parent]!.role === "reference"))
  const stepChildren = (i: number) => secs.map((_, j) => j).filter((j) => secs[j]!.parent === i && isStepHeading(j))
  const headingSteps: Array<StepDraft> = []
  const visit = (i: number, introFrom: number | null) => {
    const kids = stepChildren(i)
    const sec = secs[i]!
    if (kids.length === 0) {
      const num = sec.title.match(STEP_HEADING)
      headingSteps.push({
        number: num ? Number(num[1] ?? num[2]) : null,
        title: titleFrom(sec.title),
        lineStart: introFrom ?? sec.line,
        lineEnd: sec.end,
        origin: "heading",
        lead: "",
        bodyFrom: introFrom ?? sec.line,
        bodyTo: sec.end,
        checklist: null
      })
      return
    }
    kids.forEach((k, idx) => visit(k, idx === 0 ? introFrom ?? sec.line : null))
  }
  for (let i = 0; i < secs.length; i++) {
    if (!isStepHeading(i)) continue
    let p = secs[i]!.parent
    let nested = false
    while (p >= 0) {
      if (isStepHeading(p)) nested = true
      p = secs[p]!.parent
    }
    if (!nested) visit(i, null)
  }
  steps.push(...headingSteps)
  // (b) top-level lists: ordered anywhere sensible; bullets in a procedure section
  const lists = [...new Set(items.filter((it) => it.parent === -1).map((it) => it.list))]
  const listSteps: Array<{ secondary: boolean; steps: Array<StepDraft> }> = []
  for (const list of lists) {
    const members = items.map((it, i) => ({ it, i })).filter((x) => x.it.list === list && x.it.parent === -1)
    const first = members[0]!.it
    if (covered(first.line) || !zoneOk(first.line) || s.goodBadLines.has(first.line)) continue
    const role = roleAt(s, first.line)
    const ordered = members.filter((x) => x.it.ordered)
    let chosen = ordered.length >= 2 && ordered.length === members.length ? members : []
    if (chosen.length === 0 && ordered.length === 0 && (role === "procedure" || role === "quick_start") && members.length >= 2) {
      const imperative = members.filter((x) => isImperative(x.it.text) === true).length
      if (imperative * 2 >= members.length && !members.every((x) => /^\[[ xX]\]/.test(x.it.text))) chosen = members
    }
    if (chosen.length === 0) continue
    // an item that only forbids something is a rule (a guardrail), not a step
    const actions = chosen.filter((x) => !NEVER_LEAD.test(cleanInline(x.it.text)))
    if (actions.length > 0) chosen = actions
    // a list item that only introduces its children ("If concerns:" is fine; a bare label is not a step)
    listSteps.push({
      secondary: role === "quick_start",
      steps: chosen.map((x) => {
        const lead = itemLead(s, x.i)
        return {
          number: x.it.ordered ? x.it.number : null,
          title: titleFrom(lead.text),
          lineStart: x.it.line,
          lineEnd: lastContentLine(lines, x.it.line, x.it.end),
          origin: x.it.ordered ? "ordered_list" : "bullet_list",
          lead: lead.text,
          bodyFrom: lead.end + 1,
          bodyTo: lastContentLine(lines, x.it.line, x.it.end),
          checklist: null
        } satisfies StepDraft
      })
    })
  }
  const primary = listSteps.filter((l) => !l.secondary)
  const useLists = steps.length > 0 || primary.length > 0 ? primary : listSteps
  for (const l of useLists) steps.push(...l.steps)
  // (c) a procedure section whose subsections are the steps
  for (let i = 0; i < secs.length; i++) {
    const sec = secs[i]!
    if (sec.role !== "procedure" || covered(sec.line)) continue
    const kids = secs.map((_, j) => j).filter((j) => secs[j]!.parent === i && !EXCLUDED_FOR_STEPS.has(secs[j]!.role) && secs[j]!.role !== "verification")
    if (kids.length < 2 || kids.some((k) => covered(secs[k]!.line) || steps.some((st) => st.lineStart > secs[k]!.line && st.lineStart <= secs[k]!.end))) continue
    for (const k of kids) steps.push(sectionStep(s, secs[k]!))
  }
  // (d) nothing yet: step-like subsection groups, else every content section
  if (steps.length === 0) {
    const groups = secs.map((_, i) => i).filter((i) => {
      const kids = secs.filter((c) => c.parent === i && !EXCLUDED_FOR_STEPS.has(c.role) && c.role !== "verification")
      return !EXCLUDED_FOR_STEPS.has(secs[i]!.role) && kids.length >= 2 && kids.filter((c) => isStepLike(s, c)).length * 2 >= kids.length
    })
    if (groups.length > 0) {
      for (const g of groups) {
        for (const c of secs.filter((c) => c.parent === g && !EXCLUDED_FOR_STEPS.has(c.role) && c.role !== "verification")) {
          if (!covered(c.line)) steps.push(sectionStep(s, c))
        }
      }
    } else {
      for (let i = 0; i < secs.length; i++) {
        const sec = secs[i]!
        if (EXCLUDED_FOR_STEPS.has(sec.role) || sec.role === "verification" || sec.role === "outputs" || covered(sec.line)) continue
        if (secs.some((c) => c.parent === i && !EXCLUDED_FOR_STEPS.has(c.role))) continue
        if (sec.level === 1 && sec.line === firstH1Line(s)) continue
        if (!hasContent(s, sec.line + 1, sec.ownEnd) && !(isImperative(sec.title) === true)) continue
        steps.push(sectionStep(s, sec))
      }
    }
  }
  // (e) verification sections with a checklist become a final "check" step
  for (const sec of secs) {
    if (sec.role !== "verification" || covered(sec.line) || secs.some((c) => c.parent === secs.indexOf(sec) && c.role === "verification")) continue
    const checks = items.filter((it) => it.line > sec.line && it.line <= sec.ownEnd && it.parent === -1)
    if (checks.length === 0 && !hasContent(s, sec.line + 1, sec.ownEnd)) continue
    const st = sectionStep(s, sec)
    steps.push({ ...st, origin: checks.some((c) => /^\[[ xX]\]/.test(c.text)) ? "checklist" : "section" })
  }
  // (f) no headings or lists at all: the imperative sentences of a plain prompt
  if (steps.length === 0) steps.push(...sentenceSteps(s))
  return steps.sort((a, b) => a.lineStart - b.lineStart)
}

const firstH1Line = (s: Scan): number => s.secs.find((x) => x.level === 1)?.line ?? -1

const hasContent = (s: Scan, from: number, to: number): boolean => {
  for (let n = from; n <= to; n++) if (!isBlank(s.lines[n - 1]!) && !HR.test(s.lines[n - 1]!)) return true
  return false
}

const sectionStep = (s: Scan, sec: Sec): StepDraft => ({
  number: (() => {
    const m = sec.title.match(STEP_HEADING)
    return m ? Number(m[1] ?? m[2]) : null
  })(),
  title: titleFrom(sec.title),
  lineStart: sec.line,
  lineEnd: sec.end,
  origin: "section",
  lead: "",
  bodyFrom: sec.line,
  bodyTo: sec.end,
  checklist: null
})

/** A prompt without structure: each paragraph's imperative sentences become steps. */
const sentenceSteps = (s: Scan): Array<StepDraft> => {
  const out: Array<StepDraft> = []
  const { lines, doc } = s
  for (let n = s.bodyStart; n <= lines.length; n++) {
    if (doc.md.inCode[n] || s.headingAt.has(n) || isBlank(lines[n - 1]!) || s.tableLines.has(n)) continue
    const li = s.itemAt.get(n)
    const block = li !== undefined ? itemLead(s, li) : paragraphAt(s, n)
    const end = li !== undefined ? s.items[li]!.end : block.end
    for (const sn of splitSentences(block.text)) {
      if (isRuleSentence(sn) || conditionalOf(sn)) continue
      if (isImperative(sn) !== true && !/^(please|now|first|next|then|finally)\b/i.test(sn)) continue
      const lineOfSentence = findSentenceLine(s, n, end, sn)
      out.push({
        number: null,
        title: titleFrom(sn.replace(/^(please|now|first|next|then|finally)[,\s]+/i, "")),
        lineStart: lineOfSentence.start,
        lineEnd: lineOfSentence.end,
        origin: "sentence",
        lead: cleanInline(sn),
        bodyFrom: 1,
        bodyTo: 0,
        checklist: null
      })
    }
    n = end
  }
  return out
}

/** The lines of a paragraph a sentence spans (by its first and last words). */
const findSentenceLine = (s: Scan, from: number, to: number, sn: string): { start: number; end: number } => {
  const words = plainText(sn).split(/\s+/).filter((w) => w.length > 0)
  const firstWords = words.slice(0, 3).join(" ")
  const lastWord = words[words.length - 1] ?? ""
  let start = from
  for (let n = from; n <= to; n++) {
    if (plainText(s.lines[n - 1]!).includes(words[0] ?? "") && (plainText(s.lines[n - 1]!).includes(firstWords) || n === to)) {
      start = n
      break
    }
  }
  let end = start
  for (let n = start; n <= to; n++) {
    if (plainText(s.lines[n - 1]!).includes(lastWord)) {
      end = n
      break
    }
  }
  return { start, end: Math.max(start, end) }
}

/** The step's body as text: sub-items indented by depth, short code blocks kept, excluded lines left out. */
const renderBody = (s: Scan, from: number, to: number, exclude: ReadonlySet<number>, baseDepth: number): { text: string; subItems: number; commands: Array<string> } => {
  const out: Array<string> = []
  const commands: Array<{ line: number; text: string }> = []
  let subItems = 0
  const { lines, doc } = s
  let depthHere = baseDepth
  for (let n = from; n <= to; n++) {
    if (exclude.has(n)) continue
    const raw = lines[n - 1]!
    if (doc.md.inCode[n]) {
      const cb = doc.md.codeBlocks.find((b) => b.startLine === n)
      if (!cb) continue
      const inner = lines.slice(cb.startLine, cb.closed ? cb.endLine - 1 : cb.endLine)
      const ind = Math.min(...inner.filter((l) => !isBlank(l)).map(indentOf), indentOf(raw))
      inner.forEach((l, i) => {
        const t = l.trim()
        if (t !== "" && !/^(#|\/\/)/.test(t) && /^[$]?\s*[a-z.\/][\w.\/-]*(\s|$)/i.test(t) && /^(bash|sh|shell|console|zsh|)$/i.test(cb.info) && isCommandish(t.replace(/^\$\s*/, ""))) {
          commands.push({ line: cb.startLine + 1 + i, text: t.replace(/^\$\s*/, "") })
        }
      })
      const pad = "  ".repeat(depthHere)
      if (inner.length <= 12) {
        out.push(`${pad}${raw.trim()}`)
        for (const l of inner) out.push(isBlank(l) ? "" : `${pad}${l.slice(Math.min(ind, indentOf(l)))}`)
        if (cb.closed) out.push(`${pad}${lines[cb.endLine - 1]!.trim()}`)
      } else {
        out.push(`${pad}(${cb.info || "code"} block of ${inner.length} lines: ${s.path}:${cb.startLine}-${cb.endLine})`)
      }
      n = cb.endLine
      continue
    }
    if (isBlank(raw) || HR.test(raw)) {
      if (out.length > 0 && out[out.length - 1] !== "") out.push("")
      continue
    }
    const h = s.headingAt.get(n)
    if (h !== undefined) {
      if (n === from) continue
      out.push(`${stripEnd(s.secs[h]!.title)}:`)
      depthHere = baseDepth
      continue
    }
    const li = s.itemAt.get(n)
    if (li !== undefined) {
      const it = s.items[li]!
      const lead = itemLead(s, li)
      const d = Math.max(0, depthOf(s, li) - baseDepth + (baseDepth > 0 ? 0 : 0))
      out.push(`${"  ".repeat(d)}${it.ordered ? `${it.number}.` : "-"} ${lead.text.replace(/\n/g, `\n${"  ".repeat(d + 1)}`)}`)
      subItems++
      depthHere = d + 1
      n = lead.end
      continue
    }
    if (s.tableLines.has(n)) {
      out.push(raw.trim())
      continue
    }
    if (s.goodBadLines.has(n)) continue
    const para = paragraphAt(s, n)
    const pad = "  ".repeat(s.items.some((it) => n > it.line && n <= it.end) ? depthHere : 0)
    out.push(`${pad}${para.text.replace(/\n/g, `\n${pad}`)}`)
    n = para.end
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop()
  while (out.length > 0 && out[0] === "") out.shift()
  for (const c of s.doc.md.inlineCode) {
    if (c.line >= from && c.line <= to && !exclude.has(c.line) && /^[a-z][\w.-]*(\s|$)/i.test(c.text) && /\s/.test(c.text) && isCommandish(c.text)) commands.push({ line: c.line, text: c.text.trim() })
  }
  commands.sort((a, b) => a.line - b.line)
  return { text: out.join("\n"), subItems, commands: commands.map((c) => c.text) }
}

const isCommandish = (t: string): boolean =>
  /^(npm|pnpm|yarn|bun|npx|node|deno|make|cargo|go|python3?|pip3?|uv|poetry|pytest|ruff|black|mypy|tox|docker|kubectl|terraform|git|gh|bash|sh|just|tsc|eslint|prettier|jest|vitest|codex|curl|wget|rm|mv|cp|mkdir|psql|mysql|sqlite3|helm|aws|gcloud|az|\.\/[\w.-]+)\b/.test(t.trim())

// ---------------------------------------------------------------- inputs, outputs, examples, identity

const findInputs = (s: Scan): Array<AnalyzedInput> => {
  const out: Array<AnalyzedInput> = []
  const seen = new Set<string>()
  const add = (x: AnalyzedInput) => {
    if (x.id === "" || seen.has(x.id)) return
    seen.add(x.id)
    out.push(x)
  }
  for (const sec of s.secs) {
    if (sec.role !== "inputs") continue
    for (let i = 0; i < s.items.length; i++) {
      const it = s.items[i]!
      if (it.line <= sec.line || it.line > sec.ownEnd || it.parent !== -1) continue
      const lead = itemLead(s, i)
      const raw = it.text
      const m = raw.match(/^`([^`]+)`\s*(?:[:–—-]\s*|\s+)(.*)$/) ?? raw.match(/^\*\*([^*]+)\*\*\s*[:–—-]?\s*(.*)$/) ?? raw.match(/^([\w .-]{1,40}?)\s*[:–—]\s+(.*)$/)
      const name = m ? plainText(m[1]!).trim() : plainText(raw).split(/\s+/).slice(0, 3).join(" ")
      const description = m ? cleanInline(m[2]!) : lead.text
      const desc = m && /^`/.test(raw) && !/^[:–—-]/.test(raw.replace(/^`[^`]+`\s*/, "")) ? lead.text : description
      add({
        id: /^[a-z0-9][a-z0-9_-]{0,79}$/.test(name) ? name : validId(idFrom(name, 4), `input-${out.length + 1}`),
        name,
        description: sentence(cap(desc === "" ? name : desc)),
        required: !/\b(optional|default(?:s)?\b|if (?:any|available|provided|given)|may be omitted|not required)/i.test(lead.text),
        lineStart: it.line,
        lineEnd: it.end,
        kind: "list"
      })
    }
  }
  const hint = s.doc.fm.closed ? getField(s.doc.fm, "argument-hint") : undefined
  for (let n = s.bodyStart; n <= s.lines.length; n++) {
    const l = s.lines[n - 1]!
    if (/\$ARGUMENTS\b/.test(l)) {
      add({
        id: "arguments",
        name: "$ARGUMENTS",
        description: sentence(hint ? `The command's arguments: ${hint.value}` : "The arguments passed to the command ($ARGUMENTS)"),
        required: true,
        lineStart: n,
        lineEnd: n,
        kind: "arguments"
      })
    }
    for (const m of l.matchAll(/\$([1-9])\b/g)) {
      if (s.doc.md.inCode[n] && !/\$ARGUMENTS/.test(l)) continue
      add({ id: `argument-${m[1]}`, name: `$${m[1]}`, description: `Positional argument ${m[1]} ($${m[1]}).`, required: true, lineStart: n, lineEnd: n, kind: "arguments" })
    }
    for (const m of l.matchAll(/(?<!\$)\{\{\s*([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*\}\}/g)) {
      const name = m[1]!.split(".")[0]!
      add({
        id: validId(name.toLowerCase(), `input-${out.length + 1}`),
        name: m[1]!,
        description: sentence(`The value of {{${m[1]}}}`),
        required: true,
        lineStart: n,
        lineEnd: n,
        kind: "placeholder"
      })
    }
  }
  if (hint && !out.some((x) => x.kind === "arguments")) {
    add({ id: "arguments", name: "argument-hint", description: sentence(cap(hint.value)), required: true, lineStart: hint.line, lineEnd: hint.endLine, kind: "hint" })
  }
  return out
}

const CREATE_VERBS = /^(create|draft|write|generate|produce|prepare|compose|build|summari[sz]e|report|present|deliver|return|publish|post|send|propose|open|file|capture)\b/i
const DETERMINERS = /^(?:(?:a|an|the|your|any|this|that|these|those|one|all|each|every|some|short|concise|brief|final|new|complete|full|all kinds of|a set of)\s+)+/i
const OBJECT_END = /\s+(?:for|to|with|in|on|from|using|via|into|as|by|after|before|when|if|and then|that|which|so)\b.*$|[,.:;(—–`].*$|\s+-\s.*$/i

const singular = (w: string): string =>
  /(ss|us|is|ics)$/.test(w) || w.length <= 3 ? w : w.endsWith("ies") ? `${w.slice(0, -3)}y` : w.endsWith("s") ? w.slice(0, -1) : w

/** The deliverable of a "Create a plan" / "Summarize failures for the user" phrase. */
const deliverableOf = (text: string): { id: string; noun: string; description: string } | null => {
  const t = plainText(text).replace(/^(?:[A-Z]{2,}\s*[-–—:]\s*)/, "").replace(/^(?:respond|reply|answer)\s+(?:only\s+)?with\s+/i, "return ").trim()
  const m = t.match(CREATE_VERBS)
  if (!m) return null
  const verb = m[1]!.toLowerCase()
  const afterVerb = t.slice(m[0].length).replace(/^\/\w+/, "").trim()
  if (afterVerb === "" || /^(for|to|with|in|on|from|using|via|into|as|by|after|before|when|if|and|or|it|them|this|that|everything|anything|something|about|up|out|down|back|over|back)\b/i.test(afterVerb)) return null
  const obj = afterVerb.replace(DETERMINERS, "").replace(OBJECT_END, "").trim()
  const words = obj.split(/\s+/).filter((w) => w !== "" && !/^\d+$/.test(w)).slice(0, 4)
  if (words.length === 0 || words.some((w) => /^(it|them|this|that|changes?|work|anything|everything)$/i.test(w))) return null
  const head = singular(words[words.length - 1]!.toLowerCase())
  if (/^(summari[sz]e|report)$/.test(verb)) {
    const id = idFrom(`${words.map((w) => singular(w.toLowerCase())).join(" ")} ${verb.startsWith("summar") ? "summary" : "report"}`, 5)
    const tail = afterVerb.replace(/[.:;]+$/, "")
    return { id, noun: verb.startsWith("summar") ? "summary" : "report", description: sentence(`${verb.startsWith("summar") ? "A summary of" : "A report on"} ${lowerFirst(tail)}`) }
  }
  const raw = afterVerb.replace(OBJECT_END, "").trim()
  const titleCase = raw.split(/\s+/).filter((w) => /^[A-Z][a-z]/.test(w)).length >= 2
  const phrase = titleCase ? raw.replace(/\b([A-Z])([a-z]+)\b/g, (_m, a: string, b: string) => a.toLowerCase() + b) : raw
  const id = idFrom([...words.slice(0, -1), head].join(" "), 5)
  return { id, noun: head, description: sentence(cap(/^(a|an|the)\b/i.test(phrase) ? phrase : `The ${lowerFirst(phrase)}`)) }
}

const findOutputs = (s: Scan, steps: ReadonlyArray<AnalyzedStep>, description: string | null): Array<AnalyzedOutput> => {
  const out: Array<AnalyzedOutput> = []
  const seen = new Set<string>()
  const stepAt = (n: number) => steps.find((st) => n >= st.lineStart && n <= st.lineEnd) ?? null
  const add = (o: AnalyzedOutput) => {
    if (o.id === "" || seen.has(o.id) || out.some((x) => x.stepLine !== null && x.stepLine === o.stepLine)) return
    seen.add(o.id)
    out.push(o)
  }
  // output sections: the deliverable named in their first sentence, else the section itself
  for (const sec of s.secs) {
    if (sec.role !== "outputs") continue
    const step = stepAt(sec.line) ?? (steps.length > 0 ? steps[steps.length - 1]! : null)
    let first = ""
    for (let n = sec.line + 1; n <= sec.ownEnd; n++) {
      if (isBlank(s.lines[n - 1]!) || s.doc.md.inCode[n]) continue
      first = s.itemAt.has(n) ? itemLead(s, s.itemAt.get(n)!).text : paragraphAt(s, n).text
      break
    }
    const d = deliverableOf(first)
    // "A markdown table of risks ..." names the deliverable; else the section's title without "format"
    const np = first.match(/^(?:a|an|the|one)\s+(.+?)(?:\s+(?:of|with|for|that|which|in|containing|listing)\b|[,.:;(]|$)/i)
    const titleId = idFrom(sec.title.replace(STEP_HEADING, "").replace(/\bformat\b/i, ""), 4) || "output"
    add({
      id: validId(d?.id ?? (np ? idFrom(np[1]!, 4) : titleId), "output"),
      description: d ? sentence(stripEnd(first.replace(CREATE_VERBS, "").trim().replace(/^./, (c) => c.toUpperCase()))) : sentence(first !== "" ? first : sec.title),
      lineStart: sec.line,
      lineEnd: sec.end,
      kind: "section",
      stepLine: step ? step.lineStart : null
    })
  }
  // steps whose title delivers something ("Create a plan", "Summarize failures for the user")
  for (const st of steps) {
    const parts = [st.title, ...st.title.split(/\s[-–—]\s/).slice(1)]
    const d = parts.map(deliverableOf).find((x) => x !== null) ?? null
    if (!d) continue
    const provide = st.action.match(/(?:^|\n)\s*[-*]?\s*(?:provide|include|list|show|give)\s+(.+)/i)
    const description = d.noun === "summary" && provide ? sentence(`${stripEnd(d.description)}: ${stripEnd(cleanInline(provide[1]!))}`) : d.description
    add({ id: validId(d.id, "output"), description, lineStart: st.lineStart, lineEnd: st.lineStart, kind: "step", stepLine: st.lineStart })
  }
  // the description's deliverable ("Capture conversations ... into structured Notion pages")
  if (description && s.doc.fm.closed) {
    const m = description.match(/\b(?:capture|capturing|turn|turning|convert|converting|transform|transforming|organi[sz]e)s?\b[^.;]*?\binto\s+([^.;,]+)/i)
      ?? description.match(/^(?:create|write|generate|produce|draft)s?\s+([^.;,]+)/i)
      ?? description.match(/\b(?:produces|generates|outputs|returns|writes|creates|drafts|delivers)\s+([^.;,]+)/i)
    const fieldLine = getField(s.doc.fm, "description")
    if (m && fieldLine) {
      const phrase = m[1]!.replace(OBJECT_END, "").replace(DETERMINERS, "").trim()
      const words = phrase.split(/\s+/).filter((w) => w !== "").slice(0, 4)
      const head = words.length > 0 ? singular(words[words.length - 1]!.toLowerCase()) : ""
      if (head.length >= 3 && !out.some((o) => o.id.endsWith(head))) {
        const headRe = new RegExp(`\\b${head}s?\\b`, "i")
        const scored = steps
          .map((st) => ({ st, score: (headRe.test(st.action) || headRe.test(st.title) ? 1 : 0) + (/\b(create|write|draft|generate|produce|build|compose)\b/i.test(st.title) ? 2 : 0) }))
          .filter((x) => x.score >= 3)
        const producer = scored.length > 0 ? scored[scored.length - 1]!.st : null
        if (producer) {
          add({
            id: validId(idFrom([...words.slice(0, -1), head].join(" "), 5), "output"),
            description: sentence(cap(phrase)),
            lineStart: fieldLine.line,
            lineEnd: fieldLine.endLine,
            kind: "description",
            stepLine: producer.lineStart
          })
        }
      }
    }
  }
  return out
}

const findExamples = (s: Scan): Array<AnalyzedExample> => {
  const out: Array<AnalyzedExample> = []
  const { lines, doc } = s
  // example sections (outermost only)
  for (let i = 0; i < s.secs.length; i++) {
    const sec = s.secs[i]!
    if (sec.role !== "examples" || (sec.parent >= 0 && s.secs[sec.parent]!.role === "examples")) continue
    if (REFERENCE_TITLE.test(sec.title)) continue
    const labels: Array<string> = []
    for (let n = sec.line + 1; n <= sec.end; n++) {
      if (doc.md.inCode[n] || isBlank(lines[n - 1]!)) continue
      const t = cleanInline(lines[n - 1]!)
      if (t !== "") labels.push(t)
      if (labels.length >= 8) break
    }
    out.push({ kind: "section", title: sec.title, lineStart: sec.line, lineEnd: sec.end, info: "", excerpt: labels.join(" / "), good: null, bad: null })
  }
  // <Good>/<Bad> pairs
  let n = s.bodyStart
  while (n <= lines.length) {
    const t = lines[n - 1]!.trim()
    const open = !doc.md.inCode[n] && t.match(/^<(good|bad)\b[^>]*>\s*$/i)
    if (!open) {
      n++
      continue
    }
    const blocks: Array<{ kind: string; start: number; end: number; caption: string }> = []
    let k = n
    while (k <= lines.length) {
      const m = lines[k - 1]!.trim().match(/^<(good|bad)\b[^>]*>\s*$/i)
      if (!m || doc.md.inCode[k]) break
      let e = k + 1
      while (e <= lines.length && !(!doc.md.inCode[e] && /^<\/(good|bad)>\s*$/i.test(lines[e - 1]!.trim()))) e++
      const caption = lines.slice(k, e - 1).map((l, idx) => ({ l, n: k + 1 + idx })).filter((x) => !doc.md.inCode[x.n] && !isBlank(x.l)).map((x) => cleanInline(x.l)).join(" ")
      blocks.push({ kind: m[1]!.toLowerCase(), start: k, end: Math.min(e, lines.length), caption })
      k = e + 1
      while (k <= lines.length && isBlank(lines[k - 1]!)) k++
    }
    if (blocks.length === 0) {
      n++
      continue
    }
    const sec = sectionOf(s, n)
    const good = blocks.find((b) => b.kind === "good")
    const bad = blocks.find((b) => b.kind === "bad")
    out.push({
      kind: "good_bad",
      title: sec ? sec.title : "Example",
      lineStart: blocks[0]!.start,
      lineEnd: blocks[blocks.length - 1]!.end,
      info: "",
      excerpt: "",
      good: good ? good.caption || "the good example" : null,
      bad: bad ? bad.caption || "the bad example" : null
    })
    n = blocks[blocks.length - 1]!.end + 1
  }
  // "Example:" / "Usage examples:" labels with a list or code block, outside reference sections
  for (let q = s.bodyStart; q <= lines.length; q++) {
    if (doc.md.inCode[q] || s.headingAt.has(q)) continue
    const role = roleAt(s, q)
    if (role === "reference" || role === "examples") continue
    const t = cleanInline(lines[q - 1]!)
    if (!/^(?:usage )?examples?\s*:$|^for example\s*:$/i.test(t)) continue
    let k = q + 1
    while (k <= lines.length && isBlank(lines[k - 1]!)) k++
    const li = s.itemAt.get(k)
    const cb = doc.md.codeBlocks.find((b) => b.startLine === k)
    const end = li !== undefined ? Math.max(...s.items.filter((it) => it.list === s.items[li]!.list).map((it) => it.end)) : cb ? cb.endLine : q
    if (end === q) continue
    const first = li !== undefined ? itemLead(s, li).text : lines[k]?.trim() ?? ""
    out.push({ kind: "usage", title: sectionOf(s, q)?.title ?? "Example", lineStart: q, lineEnd: end, info: cb?.info ?? "", excerpt: first, good: null, bad: null })
  }
  // other fenced code blocks (counted; evals come from the kinds above)
  for (const cb of doc.md.codeBlocks) {
    if (cb.startLine < s.bodyStart || out.some((e) => cb.startLine >= e.lineStart && cb.endLine <= e.lineEnd)) continue
    const inner = lines.slice(cb.startLine, cb.closed ? cb.endLine - 1 : cb.endLine).find((l) => !isBlank(l))
    out.push({ kind: "code", title: sectionOf(s, cb.startLine)?.title ?? "", lineStart: cb.startLine, lineEnd: cb.endLine, info: cb.info, excerpt: inner?.trim() ?? "", good: null, bad: null })
  }
  return out.sort((a, b) => a.lineStart - b.lineStart)
}

/** The clause of a description saying when to use the artifact ("Use when ..."), up to the sentence end. */
const whenClause = (description: string): string | null => {
  const m = description.match(/\b(?:use (?:this skill |this |it )?(?:when|whenever|if|for|to)\b|(?:should )?use this skill (?:when|whenever|for)\b|invoke (?:when|whenever)\b|triggers? (?:when|on)\b)/i)
  if (!m) return null
  const from = m.index!
  let depth = 0
  let end = description.length
  for (let i = from; i < description.length; i++) {
    const c = description[i]!
    if (c === "(") depth++
    else if (c === ")") depth = Math.max(0, depth - 1)
    else if (depth === 0 && (c === ";" || (c === "." && (i + 1 === description.length || /\s/.test(description[i + 1]!))))) {
      if (c === "." && /\b(e\.g|i\.e|etc)$/i.test(description.slice(Math.max(0, i - 4), i))) continue
      end = i
      break
    }
  }
  const text = description.slice(from, end).trim()
  return text.split(/\s+/).length >= 3 ? sentence(cap(text)) : null
}

// ---------------------------------------------------------------- YAML workflows

const yamlText = (n: unknown): string | null =>
  isScalar(n) && (typeof n.value === "string" || typeof n.value === "number" || typeof n.value === "boolean") ? String(n.value) : null

/**
 * A YAML workflow (a CI file, a task runner's steps): every `steps:` list of mappings, in document
 * order, becomes steps (`name`, `run`, `uses`, `with`); a step that runs only `if: failure()` is a
 * failure handler; `inputs` (top level, or under `on.workflow_dispatch` / `on.workflow_call`) are
 * inputs. null when the text is not a YAML mapping.
 */
const analyzeYamlFile = (source: ConversionSource): FileAnalysis | null => {
  const lc = new LineCounter()
  const doc = parseDocument(source.content, { lineCounter: lc, uniqueKeys: false })
  if (doc.errors.length > 0 || !isMap(doc.contents)) return null
  const root = doc.contents as YAMLMap
  const lineOf = (offset: number) => lc.linePos(Math.min(offset, Math.max(0, source.content.length - 1))).line
  const rangeOf = (n: YamlNode) => {
    const r = n.range ?? [0, 0, 0]
    const start = lineOf(r[0])
    let end = lineOf(Math.max(r[0], r[1] - 1))
    while (end > start && (source.content.split(/\r?\n/)[end - 1] ?? "").trim() === "") end--
    return { start, end }
  }
  const total = source.content === "" ? 0 : source.content.replace(/\r?\n$/, "").split(/\r?\n/).length
  const name = yamlText(root.get("name", true)) ?? null
  const description = yamlText(root.get("description", true)) ?? null
  const steps: Array<AnalyzedStep> = []
  const failures: Array<AnalyzedFailure> = []
  const visit = (node: unknown, key: string | null, job: string | null) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = yamlText(pair.key) ?? ""
        visit(pair.value, k, key === "jobs" ? k : job)
      }
    } else if (isSeq(node) && key === "steps") {
      node.items.forEach((item) => {
        if (!isMap(item)) return
        const get = (k: string) => yamlText(item.get(k, true))
        const run = get("run")
        const uses = get("uses")
        const withArgs = item.get("with", true)
        const params = isMap(withArgs) ? withArgs.items.map((p) => `${yamlText(p.key) ?? ""}: ${yamlText(p.value) ?? "…"}`) : []
        const runLines = (run ?? "").split("\n").map((l) => l.trimEnd()).filter((l) => l.trim() !== "")
        const title = get("name") ?? get("description") ?? (uses ? `Use ${uses}` : runLines[0] ? `Run ${runLines[0]}` : `Step ${steps.length + 1}`)
        const action = [
          get("description") && get("name") ? get("description")! : null,
          runLines.length === 1 ? `Run \`${runLines[0]}\`.` : runLines.length > 1 ? ["Run:", ...runLines.map((l) => `  ${l}`)].join("\n") : null,
          uses ? `Use the action \`${uses}\`${params.length > 0 ? ` with ${params.map((p) => `\`${p}\``).join(", ")}` : ""}.` : null,
          item.get("continue-on-error") === true ? "A failure of this step does not stop the workflow (continue-on-error)." : null
        ].filter((x): x is string => x !== null).join("\n")
        const r = rangeOf(item as unknown as YamlNode)
        const cond = get("if") ?? ""
        if (/\bfailure\(\)/.test(cond)) {
          failures.push({
            id: validId(`if-${idFrom(`earlier step fails ${title}`, 6)}`, "on-failure"),
            when: job ? `An earlier step of job ${job} fails` : "An earlier step fails",
            then: sentence(action !== "" ? action : title),
            lineStart: r.start,
            lineEnd: r.end,
            kind: "conditional",
            resumeStepNumber: null,
            resumeSameStep: false
          })
          return
        }
        steps.push({
          number: null,
          title: cleanInline(title),
          lineStart: r.start,
          lineEnd: r.end,
          action: action !== "" ? action : cleanInline(title),
          subItems: 0,
          statedCheck: runLines.length > 0
            ? `\`${runLines.length === 1 ? runLines[0] : runLines[runLines.length - 1]}\` exits with status 0.`
            : uses
            ? `The action \`${uses}\` completes successfully.`
            : null,
          commands: runLines,
          origin: "yaml"
        })
      })
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item, null, job)
    }
  }
  visit(root, null, null)
  // inputs: top-level, or those of a manually dispatched / called workflow
  const inputs: Array<AnalyzedInput> = []
  const on = root.get("on", true)
  const inputMaps = [root.get("inputs", true), ...(isMap(on) ? [on.getIn(["workflow_dispatch", "inputs"], true), on.getIn(["workflow_call", "inputs"], true)] : [])]
  for (const m of inputMaps) {
    if (!isMap(m)) continue
    for (const pair of m.items) {
      const id = yamlText(pair.key) ?? ""
      if (!/^[a-z0-9][a-z0-9_-]{0,79}$/.test(id) || inputs.some((i) => i.id === id)) continue
      const spec = pair.value
      const r = rangeOf((pair.key as YamlNode | null) ?? (spec as YamlNode))
      const end = isMap(spec) ? rangeOf(spec as unknown as YamlNode).end : r.end
      inputs.push({
        id,
        name: id,
        description: sentence(cap((isMap(spec) ? yamlText(spec.get("description", true)) : yamlText(spec)) ?? id)),
        required: isMap(spec) ? spec.get("required") === true : true,
        lineStart: r.start,
        lineEnd: Math.max(r.start, end),
        kind: "list"
      })
    }
  }
  const triggers = isMap(on) ? on.items.map((p) => yamlText(p.key) ?? "").filter((x) => x !== "") : isSeq(on) ? on.items.map(yamlText).filter((x): x is string => x !== null) : yamlText(on) ? [yamlText(on)!] : []
  const title = name ?? null
  return {
    path: source.path,
    artifactType: source.artifactType,
    contentHash: source.contentHash,
    lines: total,
    words: countWords(source.content),
    frontmatter: {
      present: false,
      name: name ? idFrom(name, 8) || null : null,
      description: description ?? (name ? `The ${name} workflow.` : null),
      otherKeys: root.items.map((p) => yamlText(p.key) ?? "").filter((k) => k !== "" && k !== "name" && k !== "description"),
      lineStart: 0,
      lineEnd: 0,
      descriptionLineStart: 0,
      descriptionLineEnd: 0
    },
    title: title ? { text: title, line: rangeOf(root.get("name", true) as YamlNode).start } : null,
    opening: null,
    whenToUse: triggers.length > 0 ? { text: `Use when the workflow is triggered (on: ${triggers.join(", ")}).`, lineStart: rangeOf(on as YamlNode).start, lineEnd: rangeOf(on as YamlNode).end, origin: "section" } : null,
    outline: [],
    procedures: steps.length > 0 ? [{ kind: "yaml", section: null, lineStart: steps[0]!.lineStart, lineEnd: steps[steps.length - 1]!.lineEnd, steps }] : [],
    rules: [],
    inputs,
    examples: [],
    failures,
    outputs: [],
    references: [],
    contentLines: source.content.split(/\r?\n/).filter((l) => l.trim() !== "" && !l.trim().startsWith("#")).length,
    contentRanges: source.content.split(/\r?\n/).flatMap((l, i) => (l.trim() !== "" && !l.trim().startsWith("#") ? [{ lineStart: i + 1, lineEnd: i + 1 }] : []))
  }
}

const analyzeFile = (source: ConversionSource, bundle: BundleIndex, rootDir: string): FileAnalysis => {
  if (/\.ya?ml$/i.test(source.path)) {
    const y = analyzeYamlFile(source)
    if (y) return y
  }
  const doc = analyzeDoc({ path: source.path, content: source.content, fileVersionId: source.fileVersionId, isPrimary: true })
  const s = scanFile(doc, source.path)
  const { lines } = s
  const fm = doc.fm
  const fmName = fm.closed ? getField(fm, "name")?.value.trim() || null : null
  const descField = fm.closed ? getField(fm, "description") : undefined
  const fmDescription = descField?.value.replace(/\s+/g, " ").trim() || null
  const h1 = doc.md.headings.find((h) => h.level === 1)
  const title = h1 ? { text: cleanInline(h1.text), line: h1.line } : null
  // opening: the first paragraph after the H1 (or of an Overview section right after it)
  let opening: FileAnalysis["opening"] = null
  for (let n = title ? title.line + 1 : s.bodyStart; n <= lines.length; n++) {
    const l = lines[n - 1]!
    if (isBlank(l) || HR.test(l)) continue
    if (s.headingAt.has(n)) {
      const sec = s.secs[s.headingAt.get(n)!]!
      if (sec.role === "overview" || (sec.role === "other" && n === (title ? title.line : 0) + 2)) continue
      break
    }
    if (doc.md.inCode[n] || s.itemAt.has(n) || s.tableLines.has(n)) break
    const p = paragraphAt(s, n)
    if (/^\s*(<|!`|\{\{|\$ARGUMENTS)/.test(l) || !/[a-z]{3,}\s+[a-z]{2,}/i.test(p.text.replace(/`[^`]*`/g, ""))) {
      n = p.end
      continue
    }
    opening = { text: p.text.replace(/\n/g, " "), lineStart: n, lineEnd: p.end }
    break
  }
  const failuresFound = findFailures(s)
  const failureSections = new Set(failuresFound.filter((f) => f.kind === "section").map((f) => f.lineStart))
  const stated = findStatedChecks(s)
  const examples = findExamples(s)
  const consumedByFailures = new Set(failuresFound.flatMap((f) => f.consumed))
  const drafts = findSteps(s, failureSections)
  const steps: Array<AnalyzedStep> = drafts.map((d) => {
    const exclude = new Set<number>(consumedByFailures)
    const checks = stated.filter((c) => c.lineStart >= d.lineStart && c.lineStart <= d.lineEnd)
    for (const e of examples) if (e.kind === "good_bad" && e.lineStart >= d.lineStart && e.lineEnd <= d.lineEnd) for (let n = e.lineStart; n <= e.lineEnd; n++) exclude.add(n)
    const base = d.lead !== "" && s.itemAt.has(d.lineStart) ? depthOf(s, s.itemAt.get(d.lineStart)!) + 1 : 0
    const body = d.bodyTo >= d.bodyFrom ? renderBody(s, d.bodyFrom, d.bodyTo, exclude, base) : { text: "", subItems: 0, commands: [] as Array<string> }
    // checklist items ("- [ ] ...") are the check of a verification step
    let statedCheck = checks.length > 0 ? checks.map((c) => c.text).join(" ") : null
    let action = [d.lead, body.text].filter((x) => x !== "").join("\n")
    if (d.origin === "section" || d.origin === "checklist") {
      const sec = s.secs[s.headingAt.get(d.lineStart) ?? -1]
      if (sec && sec.role === "verification") {
        const boxes = s.items.filter((it) => it.line > d.lineStart && it.line <= d.lineEnd && /^\[[ xX]\]\s/.test(it.text))
        if (boxes.length > 0) {
          statedCheck = sentence(boxes.map((b, i) => (i === 0 ? cap : lowerFirst)(stripEnd(cleanInline(b.text.replace(/^\[[ xX]\]\s*/, ""))))).join("; "))
          const boxLines = new Set(boxes.map((b) => b.line))
          const rest = renderBody(s, d.bodyFrom, d.bodyTo, new Set([...exclude, ...boxLines]), 0).text
          const go = `go through the checklist of ${boxes.length} items (${s.path}:${boxes[0]!.line}-${boxes[boxes.length - 1]!.line}) and confirm each one.`
          action = rest.trim() === "" ? cap(go) : `${stripEnd(rest)}: ${go}`
        }
      }
    }
    return {
      number: d.number,
      title: d.title,
      lineStart: d.lineStart,
      lineEnd: d.lineEnd,
      action,
      subItems: body.subItems,
      statedCheck,
      commands: [...new Set((d.lead !== "" ? inlineCommands(d.lead) : []).concat(body.commands))],
      origin: d.origin
    }
  })
  const procedures = groupProcedures(s, steps)
  const rules = findRules(s, new Set([...consumedByFailures, ...stated.flatMap((c) => c.lines)]))
  const failures: Array<AnalyzedFailure> = failuresFound.map(({ consumed: _c, ...f }) => ({
    ...f,
    id: validId(failureId(f), "on-failure")
  }))
  const inputs = findInputs(s)
  const outputs = findOutputs(s, steps, fmDescription)
  // when to use
  let whenToUse: FileAnalysis["whenToUse"] = null
  const clause = fmDescription ? whenClause(fmDescription) : null
  if (clause && descField) whenToUse = { text: clause, lineStart: descField.line, lineEnd: descField.endLine, origin: "description" }
  if (!whenToUse) {
    const sec = s.secs.find((x) => x.role === "when_to_use")
    if (sec) {
      const parts: Array<string> = []
      for (let n = sec.line + 1; n <= sec.end; n++) {
        if (isBlank(lines[n - 1]!) || doc.md.inCode[n] || s.headingAt.has(n)) continue
        const li = s.itemAt.get(n)
        parts.push(li !== undefined ? stripEnd(itemLead(s, li).text) : stripEnd(cleanInline(lines[n - 1]!)))
      }
      if (parts.length > 0) {
        const [lead, ...rest] = parts
        whenToUse = {
          text: sentence(rest.length > 0 ? `${cap(lead!)}: ${rest.join("; ")}` : cap(lead!)),
          lineStart: sec.line,
          lineEnd: sec.end,
          origin: "section"
        }
      }
    }
  }
  if (!whenToUse && !opening && source.artifactType === "agent") {
    whenToUse = { text: "Use when working in the codebase these instructions belong to.", lineStart: s.bodyStart, lineEnd: s.bodyStart, origin: "opening" }
  }
  if (!whenToUse && opening) {
    const first = splitSentences(opening.text)[0] ?? opening.text
    const role = first.match(/^you are\s+(?:an?\s+|the\s+)?(.+)$/i)
    const repo = first.match(/^this (repository|repo|project|codebase|monorepo|package|service)\s+(?:contains|is|holds|provides|hosts|implements)\s+(.+)$/i)
    const text = repo
      ? `Use when working in this ${repo[1]!.toLowerCase()}: ${stripEnd(repo[2]!)}.`
      : source.artifactType === "agent"
      ? `Use when working in the codebase these instructions belong to.`
      : role
      ? `Use when the task calls for ${/^[aeiou]/i.test(role[1]!) ? "an" : "a"} ${stripEnd(role[1]!)}.`
      : isImperative(first) === true
      ? `Use when you need to ${lowerFirst(stripEnd(first))}.`
      : `Use for: ${sentence(lowerFirst(stripEnd(first)))}`
    whenToUse = { text, lineStart: opening.lineStart, lineEnd: opening.lineStart, origin: "opening" }
  }
  // references to bundle files
  const refs: Array<SourceReferenceInfo> = []
  const seenRefs = new Set<string>()
  for (const r of doc.refs) {
    // a bare file name (`package.json`, `config.toml`) usually means a file of the user's project
    if (r.glob || r.directory || r.kind === "name") continue
    const res = bundle.resolve(r, dirname(source.path), rootDir)
    if (res.status === "outside") continue
    const path = res.status === "ok" ? res.resolved : r.path.replace(/^\.\//, "")
    const key = `${path}:${res.status}`
    if (seenRefs.has(key)) continue
    seenRefs.add(key)
    refs.push({ line: r.line, path, exists: res.status === "ok" })
  }
  let contentLines = 0
  const contentRanges: Array<{ lineStart: number; lineEnd: number }> = []
  for (let n = s.bodyStart; n <= lines.length; n++) {
    // headings only organise the content; coverage counts what they hold
    if (isBlank(lines[n - 1]!) || HR.test(lines[n - 1]!) || s.headingAt.has(n)) continue
    contentLines++
    const last = contentRanges[contentRanges.length - 1]
    if (last && last.lineEnd === n - 1) last.lineEnd = n
    else contentRanges.push({ lineStart: n, lineEnd: n })
  }
  return {
    path: source.path,
    artifactType: source.artifactType,
    contentHash: source.contentHash,
    lines: lines.length,
    words: countWords(source.content),
    frontmatter: {
      present: fm.present,
      name: fmName,
      description: fmDescription,
      otherKeys: fm.fields.map((f) => f.key).filter((k) => k !== "name" && k !== "description"),
      lineStart: fm.closed ? 1 : 0,
      lineEnd: fm.closed ? fm.endLine : 0,
      descriptionLineStart: descField ? descField.line : 0,
      descriptionLineEnd: descField ? descField.endLine : 0
    },
    title,
    opening,
    whenToUse,
    outline: s.secs.map((x) => ({ level: x.level, title: x.title, lineStart: x.line, lineEnd: x.end, role: x.role })),
    procedures,
    rules,
    inputs,
    examples,
    failures,
    outputs,
    references: refs,
    contentLines,
    contentRanges
  }
}

const inlineCommands = (text: string): Array<string> =>
  [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.trim()).filter((c) => /\s/.test(c) && isCommandish(c))

const failureId = (f: Omit<AnalyzedFailure, "id">): string => {
  if (f.kind === "condition_list") {
    const lead = f.then.split(/[.:]/)[0] ?? f.then
    return idFrom(lead.replace(/\((?:step|phase)[^)]*\)/i, ""), 4)
  }
  return `if-${idFrom(f.when, 5)}`
}

/** Consecutive steps of one origin and section form a procedure. */
const groupProcedures = (s: Scan, steps: ReadonlyArray<AnalyzedStep>): Array<AnalyzedProcedure> => {
  const out: Array<{ kind: StepOrigin; section: string | null; steps: Array<AnalyzedStep> }> = []
  for (const st of steps) {
    const heading = st.origin === "heading" || st.origin === "section" || st.origin === "checklist"
    const sec = heading ? sectionOf(s, st.lineStart) : sectionOf(s, st.lineStart)
    const parent = heading && sec ? (sec.parent >= 0 ? s.secs[sec.parent]!.title : null) : sec ? sec.title : null
    const last = out[out.length - 1]
    if (last && last.kind === st.origin && last.section === parent) last.steps.push(st)
    else out.push({ kind: st.origin, section: parent, steps: [st] })
  }
  return out.map((p) => ({
    kind: p.kind,
    section: p.section,
    lineStart: p.steps[0]!.lineStart,
    lineEnd: p.steps[p.steps.length - 1]!.lineEnd,
    steps: p.steps
  }))
}

// ====================================================================== analyzeSources

const artifactSources = (input: ConversionInput): Array<ConversionSource> => {
  const arts = input.sources.filter((x) => x.role === "artifact")
  return [...(arts.length > 0 ? arts : input.sources)].sort((a, b) => cmp(a.path, b.path))
}

export const analyzeSources = (input: ConversionInput): SourceAnalysis => {
  const knownPaths = [...new Set(input.sources.map((x) => x.path))].sort(cmp)
  const bundle = new BundleIndex(knownPaths)
  const arts = artifactSources(input)
  const rootDir = input.mode === "file" && arts.length > 0 ? dirname(arts[0]!.path) : ""
  const files = arts.map((src) => analyzeFile(src, bundle, input.mode === "file" ? rootDir : dirname(src.path)))
  const summaryFiles: Array<SourceSummaryFile> = files.map((f) => ({
    path: f.path,
    lines: f.lines,
    words: f.words,
    title: f.title?.text ?? f.frontmatter.name,
    headings: f.outline.length,
    steps: f.procedures.reduce((n, p) => n + p.steps.length, 0),
    rules: f.rules.length,
    examples: f.examples.length
  }))
  const sum = (k: "lines" | "words" | "headings" | "steps" | "rules" | "examples") => summaryFiles.reduce((n, f) => n + f[k], 0)
  return {
    mode: input.mode,
    bundleName: input.bundleName,
    files,
    knownPaths,
    sourceSummary: {
      mode: input.mode,
      files: summaryFiles,
      totals: {
        files: summaryFiles.length,
        lines: sum("lines"),
        words: sum("words"),
        headings: sum("headings"),
        steps: sum("steps"),
        rules: sum("rules"),
        examples: sum("examples")
      }
    }
  }
}

// ====================================================================== the block plan

interface PlannedBase {
  readonly path: string
  readonly lineStart: number
  readonly lineEnd: number
}

export interface PlannedIdentity extends PlannedBase {
  readonly kind: "identity"
  readonly id: null
  readonly name: string
  readonly description: string
  readonly whenToUse: string
}

export interface PlannedInput extends PlannedBase {
  readonly kind: "input"
  readonly id: string
  readonly description: string
  readonly required: boolean
}

export interface PlannedStep extends PlannedBase {
  readonly kind: "step"
  readonly id: string
  readonly title: string
  readonly action: string
  readonly statedCheck: string | null
  readonly commands: ReadonlyArray<string>
  readonly uses: ReadonlyArray<string>
  readonly produces: ReadonlyArray<string>
  readonly onFailure: string | null
  readonly origin: StepOrigin
}

export interface PlannedOutput extends PlannedBase {
  readonly kind: "output"
  readonly id: string
  readonly description: string
  readonly producedBy: string | null
}

export interface PlannedGuardrail extends PlannedBase {
  readonly kind: "guardrail"
  readonly id: null
  readonly polarity: "must" | "never"
  readonly text: string
}

export interface PlannedFailure extends PlannedBase {
  readonly kind: "failure_handling"
  readonly id: string
  readonly when: string
  readonly then: string
  readonly resumeAt: string | null
  /** the step the handler belongs to (its `on_failure`), null for a flow-wide handler */
  readonly stepId: string | null
}

export interface PlannedEval extends PlannedBase {
  readonly kind: "eval"
  readonly id: string
  readonly name: string
  readonly exampleKind: AnalyzedExample["kind"]
  readonly title: string
  readonly excerpt: string
  readonly good: string | null
  readonly bad: string | null
  /** the step the example illustrates, when it sits inside one */
  readonly stepId: string | null
}

export type PlannedBlock = PlannedIdentity | PlannedInput | PlannedStep | PlannedOutput | PlannedGuardrail | PlannedFailure | PlannedEval

export interface UnmappedRange {
  readonly path: string
  readonly lineStart: number
  readonly lineEnd: number
}

export interface BlockPlan {
  /** identity, inputs, steps (source by source, in line order), outputs, guardrails, failure handlers, evals */
  readonly blocks: ReadonlyArray<PlannedBlock>
  /** content lines no block covers */
  readonly unmapped: ReadonlyArray<UnmappedRange>
}

const wordRe = (w: string) => new RegExp(`(^|[^\\w-])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([^\\w-]|$)`, "i")

export const planBlocks = (analysis: SourceAnalysis): BlockPlan => {
  const files = analysis.files
  const blocks: Array<PlannedBlock> = []
  const lead = files.find((f) => f.frontmatter.description !== null) ?? files.find((f) => f.title !== null) ?? files[0]
  // identity
  if (lead) {
    const fileName = idFrom(lead.path.split("/").pop() ?? "", 8)
    const fromTitle = files.length === 1 && lead.title ? idFrom(lead.title.text, 8) : ""
    const name = lead.frontmatter.name ?? (fromTitle !== fileName ? fromTitle : "")
    const fallbackName = idFrom(analysis.bundleName, 8) || idFrom(lead.path.replace(/\.[^.]+$/, ""), 8) || "procedure"
    const openingSentence = lead.opening ? (splitSentences(lead.opening.text).slice(0, 2).join(" ")) : ""
    const description = files.length > 1 && lead.frontmatter.description === null
      ? `The combined procedure of ${files.map((f) => f.path).join(", ")}${openingSentence !== "" ? `: ${lowerFirst(openingSentence)}` : "."}`
      : lead.frontmatter.description ?? (openingSentence || (lead.title ? `${lead.title.text}.` : `The procedure in ${lead.path}.`))
    const when = files.map((f) => f.whenToUse).find((w) => w !== null) ?? null
    const whenToUse = when?.text ?? `Use when the task is to ${lowerFirst(stripEnd(description))}.`
    const ranges = [
      lead.frontmatter.lineEnd > 0 ? [lead.frontmatter.lineStart, lead.frontmatter.lineEnd] : null,
      lead.title ? [lead.title.line, lead.title.line] : null,
      lead.opening ? [lead.opening.lineStart, lead.opening.lineEnd] : null
    ].filter((r): r is Array<number> => r !== null)
    blocks.push({
      kind: "identity",
      id: null,
      path: lead.path,
      lineStart: ranges.length > 0 ? Math.min(...ranges.map((r) => r[0]!)) : 1,
      lineEnd: ranges.length > 0 ? Math.max(...ranges.map((r) => r[1]!)) : Math.max(1, Math.min(lead.lines, 1)),
      name: (name !== "" ? name : fallbackName).slice(0, 100),
      description: sentence(description),
      whenToUse
    })
  }
  // inputs
  const inputs: Array<PlannedInput> = []
  for (const f of files) {
    for (const i of f.inputs) {
      inputs.push({ kind: "input", id: i.id, path: f.path, lineStart: i.lineStart, lineEnd: i.lineEnd, description: i.description, required: i.required })
    }
  }
  blocks.push(...inputs)
  // steps, with the failure handlers, outputs and uses that belong to them
  const steps: Array<{ f: FileAnalysis; st: AnalyzedStep; id: string; number: number | null }> = []
  for (const f of files) for (const p of f.procedures) for (const st of p.steps) steps.push({ f, st, id: validId(idFrom(st.title), `step-${steps.length + 1}`), number: st.number })
  const stepOf = (f: FileAnalysis, line: number) => steps.find((x) => x.f === f && line >= x.st.lineStart && line <= x.st.lineEnd) ?? null
  const failures: Array<PlannedFailure> = []
  for (const f of files) {
    for (const fl of f.failures) {
      const owner = stepOf(f, fl.lineStart)
      let resumeAt: string | null = null
      if (fl.resumeStepNumber !== null) {
        const target = steps.find((x) => x.f === f && x.number === fl.resumeStepNumber) ?? (fl.resumeStepNumber >= 1 ? steps.filter((x) => x.f === f)[fl.resumeStepNumber - 1] : undefined)
        resumeAt = target ? target.id : null
      } else if (fl.resumeSameStep && owner) {
        resumeAt = owner.id
      }
      const terse = fl.when.split(/\s+/).length <= 3 && owner !== null
      failures.push({
        kind: "failure_handling",
        id: fl.id,
        path: f.path,
        lineStart: fl.lineStart,
        lineEnd: fl.lineEnd,
        when: terse ? `${fl.when} (at step "${owner.st.title}")` : fl.when,
        then: fl.then,
        resumeAt,
        stepId: owner ? owner.id : null
      })
    }
  }
  const outputs: Array<PlannedOutput> = []
  for (const f of files) {
    for (const o of f.outputs) {
      const producer = o.stepLine !== null ? stepOf(f, o.stepLine) : null
      outputs.push({ kind: "output", id: o.id, path: f.path, lineStart: o.lineStart, lineEnd: o.lineEnd, description: o.description, producedBy: producer ? producer.id : null })
    }
  }
  steps.forEach((x, idx) => {
    const text = `${x.st.title}\n${x.st.action}`
    const uses: Array<string> = []
    for (const i of inputs) {
      const name = files.flatMap((f) => f.inputs).find((a) => a.id === i.id)?.name ?? i.id
      const names = [name.replace(/^\$/, ""), i.id].filter((n) => n.length >= 2)
      if (names.some((n) => wordRe(n).test(text)) && !uses.includes(i.id)) uses.push(i.id)
    }
    for (const o of outputs) {
      const pIdx = steps.findIndex((y) => y.id === o.producedBy && y.st === steps.find((z) => z.id === o.producedBy)?.st)
      if (o.producedBy === null || pIdx < 0 || pIdx >= idx) continue
      const head = o.id.split("-").pop() ?? ""
      if (head.length >= 4 && (wordRe(head).test(text) || wordRe(`${head}s`).test(text)) && !uses.includes(o.id)) uses.push(o.id)
    }
    const own = failures.filter((fl) => fl.stepId === x.id && fl.path === x.f.path && fl.lineStart >= x.st.lineStart && fl.lineStart <= x.st.lineEnd)
    blocks.push({
      kind: "step",
      id: x.id,
      title: x.st.title,
      path: x.f.path,
      lineStart: x.st.lineStart,
      lineEnd: x.st.lineEnd,
      action: x.st.action,
      statedCheck: x.st.statedCheck,
      commands: x.st.commands,
      uses,
      produces: outputs.filter((o) => o.producedBy === x.id && o.path === x.f.path).map((o) => o.id),
      onFailure: own.length > 0 ? own[0]!.id : null,
      origin: x.st.origin
    })
  })
  blocks.push(...outputs)
  for (const f of files) {
    for (const r of f.rules) {
      blocks.push({ kind: "guardrail", id: null, polarity: r.polarity, text: r.text, path: f.path, lineStart: r.lineStart, lineEnd: r.lineEnd })
    }
  }
  blocks.push(...failures)
  let evalN = 0
  for (const f of files) {
    for (const e of f.examples) {
      if (e.kind === "code") continue
      evalN++
      const owner = stepOf(f, e.lineStart)
      const name = e.kind === "good_bad"
        ? `${owner ? owner.st.title : e.title}: the good example, not the bad one`
        : e.kind === "section"
          ? e.title.replace(/^examples?\s*[:\-–—]\s*/i, "") || "Worked example"
          : `Usage: ${e.title}`
      blocks.push({
        kind: "eval",
        id: `eval-${evalN}`,
        name: cap(name),
        path: f.path,
        lineStart: e.lineStart,
        lineEnd: e.lineEnd,
        exampleKind: e.kind,
        title: e.title,
        excerpt: e.excerpt,
        good: e.good,
        bad: e.bad,
        stepId: owner ? owner.id : null
      })
    }
  }
  // coverage
  const unmapped: Array<UnmappedRange> = []
  for (const f of files) {
    const ranges = blocks.filter((b) => b.path === f.path).map((b) => [b.lineStart, b.lineEnd] as const)
    unmapped.push(...uncovered(f, ranges))
  }
  return { blocks, unmapped }
}

const contentLineNumbers = (f: FileAnalysis): Array<number> =>
  f.contentRanges.flatMap((r) => Array.from({ length: r.lineEnd - r.lineStart + 1 }, (_, i) => r.lineStart + i))

/** Runs of content lines of `f` outside every range. */
const uncovered = (f: FileAnalysis, ranges: ReadonlyArray<readonly [number, number]>): Array<UnmappedRange> => {
  const out: Array<UnmappedRange> = []
  const lines = contentLineNumbers(f)
  let start = -1
  let prev = -1
  const isCovered = (n: number) => ranges.some(([a, b]) => n >= a && n <= b)
  for (const n of lines) {
    if (isCovered(n)) {
      if (start >= 0) out.push({ path: f.path, lineStart: start, lineEnd: prev })
      start = -1
      continue
    }
    if (start < 0) start = n
    prev = n
  }
  if (start >= 0) out.push({ path: f.path, lineStart: start, lineEnd: prev })
  return out
}

// ====================================================================== block mapping of a document

const KIND_OF: Record<string, BlockKind> = {
  inputs: "input",
  steps: "step",
  outputs: "output",
  guardrails: "guardrail",
  failure_handling: "failure_handling",
  evals: "eval"
}

/** The `from` fields of a document (any shape), as the report's block mapping, in document order. */
export const blockMappingOf = (document: Record<string, unknown>): ReadonlyArray<BlockMappingEntry> => {
  const out: Array<BlockMappingEntry> = []
  // the identity's `from` sits at the root
  const identity = typeof document.from === "string" ? parseSourceRef(document.from) : undefined
  if (identity) out.push({ block: "identity", kind: "identity", id: null, path: identity.path, lineStart: identity.start, lineEnd: identity.end })
  for (const key of ["inputs", "steps", "outputs", "guardrails", "failure_handling", "evals"]) {
    const arr = document[key]
    if (!Array.isArray(arr)) continue
    arr.forEach((b: unknown, i) => {
      if (b === null || typeof b !== "object") return
      const rec = b as Record<string, unknown>
      if (typeof rec.from !== "string") return
      const r = parseSourceRef(rec.from)
      if (!r) return
      out.push({
        block: `${key}.${i}`,
        kind: KIND_OF[key]!,
        id: typeof rec.id === "string" ? rec.id : null,
        path: r.path,
        lineStart: r.start,
        lineEnd: r.end
      })
    })
  }
  return out
}

// ====================================================================== report notes

const DESTRUCTIVE =
  /(?:^|[\s`;&|(])(?:rm\s+-[a-z]*[rf]|rm\s+\S|git\s+push\s+(?:\S+\s+)*(?:--force\b|-f\b|--force-with-lease\b)|git\s+reset\s+--hard|git\s+clean\s+-[a-z]*f|git\s+branch\s+-D|drop\s+(?:table|database|schema)\b|truncate\s+table\b|delete\s+from\b|kubectl\s+delete\b|terraform\s+destroy\b|docker\s+(?:system\s+prune|rm\b|rmi\b)|gh\s+(?:repo|release|pr)\s+delete\b|npm\s+unpublish\b|mkfs\b|dd\s+if=|chmod\s+-R\s+777|shutdown\b|reboot\b)/i
const CONFIRMATION = /\b(confirm\w*|approv\w*|consent|permission|ask (?:the user|first|before)|explicit(?:ly)? (?:ok|agree\w*)|sign-?off|double-check|never\b.*\bwithout\b)/i

const arr = (v: unknown): ReadonlyArray<Record<string, unknown>> =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => x !== null && typeof x === "object") : []
const str = (v: unknown): string => (typeof v === "string" ? v : "")

const rangesText = (r: ReadonlyArray<UnmappedRange>, max = 6): string =>
  r.slice(0, max).map((x) => (x.lineStart === x.lineEnd ? `${x.lineStart}` : `${x.lineStart}-${x.lineEnd}`)).join(", ") + (r.length > max ? `, and ${r.length - max} more` : "")

/**
 * How much of one converted file the flow's blocks account for: its content lines (not blank, not
 * headings or rules), the runs of them no block maps, and their count. The identity covers the
 * frontmatter, the title, the opening and a "when to use" section even when the flow has no root `from`.
 */
const fileCoverage = (f: FileAnalysis, mapping: ReadonlyArray<BlockMappingEntry>) => {
  const content = contentLineNumbers(f)
  const ranges: Array<readonly [number, number]> = mapping.filter((m) => m.path === f.path).map((m) => [m.lineStart, m.lineEnd] as const)
  if (f.frontmatter.lineEnd > 0) ranges.push([f.frontmatter.lineStart, f.frontmatter.lineEnd])
  if (f.title) ranges.push([f.title.line, f.title.line])
  if (f.opening) ranges.push([f.opening.lineStart, f.opening.lineEnd])
  if (f.whenToUse && f.whenToUse.origin === "section") ranges.push([f.whenToUse.lineStart, f.whenToUse.lineEnd])
  const gaps = uncovered(f, ranges)
  const unmapped = gaps.reduce((n, g) => n + content.filter((c) => c >= g.lineStart && c <= g.lineEnd).length, 0)
  return { content: content.length, gaps, unmapped }
}

/** The report's coverage over every converted file: content lines, those some block maps, the gaps. */
export const coverageOf = (document: Record<string, unknown>, analysis: SourceAnalysis) => {
  const mapping = blockMappingOf(document)
  let totalLines = 0
  let mappedLines = 0
  const unmappedRanges: Array<UnmappedRange> = []
  for (const f of analysis.files) {
    const { content, gaps, unmapped } = fileCoverage(f, mapping)
    totalLines += content
    mappedLines += content - unmapped
    unmappedRanges.push(...gaps)
  }
  return {
    totalLines,
    mappedLines,
    coverage: totalLines === 0 ? null : Math.round((mappedLines / totalLines) * 1000) / 1000,
    unmappedRanges
  }
}

/**
 * Deterministic notes for the conversion report, whichever converter drafted `document`: what the
 * source did not say (missing requirements) and what a reader should still check (remaining risks).
 */
export const assessFlow = (
  document: Record<string, unknown>,
  analysis: SourceAnalysis
): { missingRequirements: Array<MissingRequirement>; remainingRisks: Array<RemainingRisk> } => {
  const missing: Array<MissingRequirement> = []
  const risks: Array<RemainingRisk> = []
  const files = analysis.files
  const steps = arr(document.steps)
  const handlers = arr(document.failure_handling)
  const guardrails = arr(document.guardrails)
  const inputs = arr(document.inputs)
  const outputs = arr(document.outputs)
  const sourceSteps = files.flatMap((f) => f.procedures.flatMap((p) => p.steps.map((st) => ({ f, st }))))
  if (files.every((f) => f.failures.length === 0)) {
    missing.push({
      code: "no_failure_handling_in_source",
      message: handlers.length > 0
        ? "The source says nothing about what to do when a step fails; the flow carries a default handler (stop, report, ask)."
        : "The source says nothing about what to do when a step fails.",
      block: handlers.length > 0 ? "failure_handling.0" : null
    })
  }
  if (files.every((f) => f.inputs.length === 0)) {
    missing.push({
      code: "no_inputs_in_source",
      message: inputs.length > 0 ? "The source states no inputs; the flow's inputs were inferred." : "The source states no inputs (what the agent receives and where it comes from).",
      block: inputs.length > 0 ? "inputs.0" : null
    })
  }
  if (files.every((f) => f.outputs.length === 0)) {
    missing.push({
      code: "no_outputs_in_source",
      message: outputs.length > 0 ? "The source states no outputs; the flow's outputs were inferred." : "The source states no outputs (what the procedure delivers).",
      block: outputs.length > 0 ? "outputs.0" : null
    })
  }
  if (sourceSteps.length > 0 && sourceSteps.every((x) => x.st.statedCheck === null)) {
    missing.push({
      code: "no_checks_in_source",
      message: "The source states no check for any step (how to tell a step is done); every check in the flow was derived from the step's text.",
      block: steps.length > 0 ? "steps.0" : null
    })
  }
  if (files.every((f) => f.rules.length === 0)) {
    missing.push({
      code: "no_guardrails_in_source",
      message: "The source states no rules (what the agent must always or never do).",
      block: guardrails.length > 0 ? "guardrails.0" : null
    })
  }
  if (files.every((f) => f.whenToUse === null || f.whenToUse.origin === "opening")) {
    missing.push({
      code: "no_when_to_use_in_source",
      message: "The source does not say when to use it; `when_to_use` was derived from its opening or description.",
      block: null
    })
  }
  // steps whose check was derived rather than stated
  const derived: Array<number> = []
  steps.forEach((st, i) => {
    const r = parseSourceRef(str(st.from))
    const src = r ? sourceSteps.find((x) => x.f.path === r.path && x.st.lineStart === r.start) : undefined
    if (!src || src.st.statedCheck === null) derived.push(i)
  })
  if (derived.length > 0 && derived.length < steps.length) {
    risks.push({
      code: "derived_checks",
      message: `${derived.length} of ${steps.length} step checks were derived from the step's text, not stated by the source (${derived.slice(0, 8).map((i) => str(steps[i]!.id) || `steps.${i}`).join(", ")}${derived.length > 8 ? ", …" : ""}); confirm they match what "done" means.`,
      block: `steps.${derived[0]}`
    })
  } else if (derived.length > 0) {
    risks.push({
      code: "derived_checks",
      message: `All ${steps.length} step checks were derived from the step's text; confirm they match what "done" means.`,
      block: "steps.0"
    })
  }
  // references to files the conversion lacks
  const missingRefs = new Map<string, { file: FileAnalysis; line: number }>()
  for (const f of files) for (const r of f.references) if (!r.exists && !missingRefs.has(r.path)) missingRefs.set(r.path, { file: f, line: r.line })
  for (const [path, { file, line }] of [...missingRefs.entries()].sort((a, b) => cmp(a[0], b[0]))) {
    const idx = steps.findIndex((st) => {
      const r = parseSourceRef(str(st.from))
      return r !== undefined && r.path === file.path && line >= r.start && line <= r.end
    })
    const mentioned = idx < 0 ? steps.findIndex((st) => str(st.action).includes(path.split("/").pop() ?? path)) : idx
    risks.push({
      code: "missing_reference",
      message: `${file.path}:${line} refers to ${path}, which is not among the conversion's files; a step that needs it cannot be checked here.`,
      block: mentioned >= 0 ? `steps.${mentioned}` : null
    })
  }
  // state-changing commands without a confirmation guardrail
  const confirmation = guardrails.some((g) => CONFIRMATION.test(`${str(g.must)} ${str(g.never)}`))
  if (!confirmation) {
    steps.forEach((st, i) => {
      const m = str(st.action).match(DESTRUCTIVE)
      if (!m) return
      risks.push({
        code: "destructive_command",
        message: `Step ${str(st.id) || i} runs a state-changing command (${m[0].trim().replace(/^[`;&|(]/, "")}) and no guardrail asks for confirmation first.`,
        block: `steps.${i}`
      })
    })
  }
  // coverage: source content no block maps
  const mapping = blockMappingOf(document)
  for (const f of files) {
    const { content, gaps, unmapped } = fileCoverage(f, mapping)
    if (unmapped > 0) {
      risks.push({
        code: "unmapped_source_lines",
        message: `${unmapped} of ${content} content lines of ${f.path} map to no block (lines ${rangesText(gaps)}); check nothing there is an instruction the flow needs.`,
        block: null
      })
    }
  }
  return { missingRequirements: missing, remainingRisks: risks }
}
