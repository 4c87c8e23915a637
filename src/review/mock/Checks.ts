/**
 * The mock reviewer's rule-based checks: one scorer per criterion key of the catalogue. Each scorer
 * starts from 100 and records deductions (with a reason, capped per rule) and findings that point at
 * lines. docs/rubrics.md lists every rule and its deduction; keep the two in step.
 */
import type { CriterionKey } from "../rubrics/Criteria.js"
import type { ArtifactType, Severity } from "../Types.js"
import { type FrontmatterField, getField } from "../text/Frontmatter.js"
import { headingAnchors, plainText } from "../text/Markdown.js"
import { basename, globToRegExp } from "../text/Paths.js"
import type { Reference } from "../text/References.js"
import { estimateTokens } from "../text/Tokens.js"
import type { BundleIndex, Doc } from "./Document.js"
import {
  COMMAND_FRONTMATTER_KEYS,
  IMPERATIVE_VERBS,
  NON_IMPERATIVE_STARTS,
  SKILL_FRONTMATTER_KEYS,
  ANY_VAGUE,
  STEP_CONNECTIVES,
  VAGUE_TERMS
} from "./Vocabulary.js"

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
}

export interface CheckOutcome {
  readonly issues: ReadonlyArray<Issue>
  readonly deductions: ReadonlyArray<Deduction>
  readonly notes: ReadonlyArray<string>
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
}

class Out {
  readonly issues: Array<Issue> = []
  readonly deductions: Array<Deduction> = []
  readonly notes: Array<string> = []
  constructor(readonly criterion: CriterionKey) {}
  issue(code: string, severity: Severity, line: number, message: string, suggestion: string, lineEnd = line) {
    this.issues.push({ criterion: this.criterion, code, severity, line, lineEnd: Math.max(line, lineEnd), message, suggestion })
  }
  deduct(points: number, reason: string) {
    if (points > 0) this.deductions.push({ points: Math.round(points), reason })
  }
  /** `each` points per item, at most `cap` in all. */
  deductEach(count: number, each: number, cap: number, reason: string) {
    if (count > 0) this.deduct(Math.min(cap, count * each), count > 1 ? `${reason} (x${count})` : reason)
  }
  note(text: string) {
    this.notes.push(text)
  }
  done(): CheckOutcome {
    return { issues: this.issues, deductions: this.deductions, notes: this.notes }
  }
}

/** Types whose bundle is a self-contained package: every bundle-relative path must exist in it. */
const PACKAGE_TYPES: ReadonlySet<ArtifactType> = new Set(["skill", "workflow", "rubr_flow"])

const decodeURIComponentSafe = (s: string) => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}
const lastLine = (doc: Doc) => Math.max(1, doc.split.lines.length)
/** The first non-blank line of the body (where whole-document findings point). */
const bodyStart = (doc: Doc) => {
  const lines = doc.split.lines
  for (let n = doc.md.bodyStartLine; n <= lines.length; n++) if (lines[n - 1]!.trim() !== "") return n
  return Math.min(doc.md.bodyStartLine, Math.max(1, lines.length))
}
const quote = (s: string, max = 60) => JSON.stringify(s.length > max ? `${s.slice(0, max - 1)}…` : s)
const toKebab = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "")

export const kebabCase = toKebab

const proseMatches = (doc: Doc, re: RegExp): Array<number> =>
  doc.prose.filter(([, text]) => re.test(text)).map(([n]) => n)

const headingMatches = (doc: Doc, re: RegExp) => doc.md.headings.filter((h) => re.test(h.text))

// ---------------------------------------------------------------- frontmatter

const frontmatter = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("frontmatter")
  const { doc, artifactType } = ctx
  const fm = doc.fm
  const required = artifactType === "skill"
  if (!fm.present) {
    const firstNonBlank = doc.split.lines.findIndex((l) => l.trim() !== "")
    if (firstNonBlank > 0 && doc.split.lines[firstNonBlank]!.trim() === "---") {
      o.issue(
        "not_at_line_1",
        "major",
        firstNonBlank + 1,
        "The frontmatter does not start on line 1, so it is read as body text",
        "Remove the blank lines before the opening '---'."
      )
      o.deduct(30, "frontmatter not on line 1")
    } else if (doc.text.startsWith("\uFEFF")) {
      o.note("a byte-order mark precedes the content")
    }
    if (required) {
      o.issue(
        "missing",
        "critical",
        1,
        "No YAML frontmatter: agents discover a skill by its frontmatter `name` and `description`",
        "Start the file with a frontmatter block:\n---\nname: your-skill-name\ndescription: What it does. Use when ...\n---"
      )
      o.deduct(60, "no frontmatter")
    } else if (artifactType === "command") {
      o.issue(
        "missing",
        "minor",
        1,
        "No frontmatter: the command has no `description` or `argument-hint` for the command menu",
        "Add a frontmatter block with `description:` and, if the command takes arguments, `argument-hint:`."
      )
      o.deduct(30, "no frontmatter")
    } else {
      o.note("frontmatter is optional for this artifact type and absent")
    }
    return o.done()
  }
  if (!fm.closed) {
    o.issue(
      "unclosed",
      "critical",
      1,
      "The frontmatter opened on line 1 is never closed, so the whole file is read as YAML",
      "Close the frontmatter with a '---' line after the last key."
    )
    o.deduct(60, "frontmatter never closed")
    return o.done()
  }
  const weights = { critical: 40, major: 20, minor: 10 } as const
  let parsePoints = 0
  for (const i of fm.issues) {
    o.issue("yaml", i.severity, i.line, `Frontmatter: ${i.message}`, "Fix the YAML so a strict parser accepts it (quote values that contain ': ' or start with a special character).")
    parsePoints += weights[i.severity]
  }
  if (parsePoints > 0) o.deduct(Math.min(60, parsePoints), `${fm.issues.length} frontmatter syntax problem(s)`)
  const known = artifactType === "skill" ? SKILL_FRONTMATTER_KEYS : artifactType === "command" ? COMMAND_FRONTMATTER_KEYS : null
  if (known) {
    const unknown = fm.fields.filter((f) => !known.has(f.key))
    for (const f of unknown) {
      o.issue(
        "unknown_key",
        "info",
        f.line,
        `Unknown frontmatter key '${f.key}'`,
        `Move custom data under \`metadata:\` (known keys: ${[...known].join(", ")}).`
      )
    }
    o.deductEach(unknown.length, 3, 9, "unknown frontmatter keys")
  }
  if (o.deductions.length === 0) o.note(`frontmatter parses (${fm.fields.map((f) => f.key).join(", ")})`)
  return o.done()
}

// ---------------------------------------------------------------- name

const name = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("name")
  const { doc, artifactType } = ctx
  const field = doc.fm.closed ? getField(doc.fm, "name") : undefined
  const line = field?.line ?? 1
  const folder = basename(doc.dir)
  const suggested = toKebab(folder || firstHeading(doc) || basename(doc.path).replace(/\.[^.]+$/, "")) || "my-skill"
  if (!field || field.value.trim() === "") {
    if (artifactType === "skill") {
      o.issue(
        "missing",
        "critical",
        line,
        "The frontmatter has no `name`",
        `Add \`name: ${suggested}\` (lowercase letters, digits and hyphens, matching the folder name).`
      )
      o.deduct(100, "no name")
    } else {
      o.note("no `name` field (optional for this artifact type)")
    }
    return o.done()
  }
  const value = field.value.trim()
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(value)) {
    o.issue(
      "format",
      "major",
      line,
      `The name ${quote(value)} is not kebab-case (lowercase letters, digits and single hyphens)`,
      `Use \`name: ${toKebab(value) || suggested}\`.`
    )
    o.deduct(40, "name not kebab-case")
  }
  if (value.length > 64) {
    o.issue("too_long", "major", line, `The name is ${value.length} characters long; the limit is 64`, "Shorten the name to at most 64 characters.")
    o.deduct(30, "name over 64 characters")
  }
  if (/<[^<>]+>/.test(value)) {
    o.issue("xml", "major", line, "The name contains an XML tag", "Remove angle-bracket tags from the name.")
    o.deduct(30, "XML in name")
  }
  if (/\b(anthropic|claude|openai)\b/i.test(value)) {
    o.issue("reserved", "minor", line, `The name ${quote(value)} contains a reserved vendor word`, "Name the skill after what it does, without vendor names.")
    o.deduct(15, "reserved word in name")
  }
  if (artifactType === "skill" && folder && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value) && value !== folder) {
    o.issue(
      "folder_mismatch",
      "minor",
      line,
      `The name ${quote(value)} differs from its folder '${folder}'`,
      `Rename the folder to '${value}' or set \`name: ${toKebab(folder)}\`.`
    )
    o.deduct(15, "name differs from folder")
  }
  if (o.deductions.length === 0) o.note(`name '${value}' is kebab-case, ${value.length} characters`)
  return spanField(o.done(), field)
}

/** Findings on a frontmatter field's first line cover all its lines (block scalars, folded values). */
const spanField = (out: CheckOutcome, field: FrontmatterField | undefined): CheckOutcome =>
  field && field.endLine > field.line
    ? { ...out, issues: out.issues.map((i) => (i.line === field.line ? { ...i, lineEnd: Math.max(i.lineEnd, field.endLine) } : i)) }
    : out

const firstHeading = (doc: Doc): string => plainText(doc.md.headings.find((h) => h.level === 1)?.text ?? "")

// ---------------------------------------------------------------- description

export const TRIGGER =
  /\b(use (this|it|the skill|when|whenever|if|for|to|before|after|during)|used (when|for|to)|when(ever)?\b|if (the )?(user|you|a user)|invoke|trigger(s|ed)?|activate|applies (when|to)|for (tasks|requests|questions) (about|involving|that))/i

const description = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("description")
  const { doc, artifactType } = ctx
  const field: FrontmatterField | undefined = doc.fm.closed ? getField(doc.fm, "description") : undefined
  const value = field?.value.replace(/\s+/g, " ").trim() ?? ""
  const line = field?.line ?? (doc.fm.closed ? doc.fm.endLine : 1)
  if (value === "") {
    const severity: Severity = artifactType === "skill" ? "critical" : artifactType === "command" ? "major" : "minor"
    o.issue(
      field ? "empty" : "missing",
      severity,
      line,
      field ? "The `description` is empty" : "The frontmatter has no `description`",
      artifactType === "skill"
        ? "Add `description:` saying what the skill does and when to use it, e.g. \"Builds X from Y. Use when the user asks to ...\" (at most 1024 characters)."
        : "Add `description:` with one sentence on what this does and when to use it."
    )
    o.deduct(artifactType === "skill" ? 100 : artifactType === "command" ? 90 : 50, "no description")
    return o.done()
  }
  const minLen = artifactType === "skill" ? 40 : 15
  if (value.length < minLen) {
    o.issue(
      "too_short",
      "major",
      line,
      `The description is only ${value.length} characters: too little for an agent to decide when to use it`,
      "Say what it does, for which inputs, and when to use it (aim for 1-3 sentences)."
    )
    o.deduct(30, "description too short")
  }
  if (value.length > 1024) {
    o.issue(
      "too_long",
      "major",
      line,
      `The description is ${value.length} characters; the limit is 1024`,
      "Keep the description to what and when; move details into the body."
    )
    o.deduct(30, "description over 1024 characters")
  }
  if (artifactType === "skill" && !TRIGGER.test(value)) {
    o.issue(
      "no_trigger",
      "major",
      line,
      "The description says what the skill is but not when to use it",
      `Append a trigger, e.g. "Use when the user asks to ..." (name the requests, file types or situations).`
    )
    o.deduct(35, "description lacks a 'when to use' trigger")
  }
  if (artifactType === "skill" && /^use (this skill )?when\b/i.test(value) && value.split(/[.;]\s/).length < 2) {
    o.issue(
      "no_what",
      "info",
      line,
      "The description only gives the trigger, not what the skill does",
      "Open with one clause on what the skill does, then the 'Use when ...' trigger."
    )
    o.deduct(5, "description gives no 'what'")
  }
  if (/\b(I|me|my|we|our)\b/.test(value)) {
    o.issue(
      "first_person",
      "minor",
      line,
      "The description is written in the first person",
      "Write it in the third person (\"Drafts internal updates ...\"), as it is injected into the agent's system prompt."
    )
    o.deduct(10, "first-person description")
  }
  const vague = VAGUE_TERMS.filter((t) => t.strength === "strong" && (t.pattern.lastIndex = 0, t.pattern.test(value)))
  if (vague.length > 0) {
    o.issue(
      "vague",
      "minor",
      line,
      `Vague wording in the description: ${vague.map((t) => `"${t.label}"`).join(", ")}`,
      "Name the exact requests and situations that should trigger it; the description is all the agent sees when choosing."
    )
    o.deduct(10, "vague description")
  }
  if (/<[A-Za-z/][^>]*>/.test(value)) {
    o.issue("xml", "major", line, "The description contains an XML tag", "Remove angle-bracket tags from the description.")
    o.deduct(20, "XML in description")
  }
  if (o.deductions.length === 0) o.note(`description states what and when (${value.length} characters)`)
  return spanField(o.done(), field)
}

// ---------------------------------------------------------------- purpose

const purpose = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("purpose")
  const { doc, artifactType } = ctx
  const start = bodyStart(doc)
  const limit = start + 30
  let para: number | null = null
  for (const [n, text] of doc.prose) {
    if (n > limit) break
    const t = text.trim()
    if (t === "" || /^(#|[-*+] |\d+[.)] |<!--|\||>)/.test(t) || /^<\/?[A-Za-z]/.test(t)) continue
    if (plainText(t).split(/\s+/).length >= 8) {
      para = n
      break
    }
  }
  const roleRe = /\b(you are|your (task|job|goal|role|purpose)|act as|goal|objective|purpose|the task|this (prompt|workflow|command|procedure|flow|file|document|repository|repo|project))\b/i
  const hasOverviewHeading = headingMatches(doc, /\b(overview|purpose|goal|objective|about|introduction|summary|role|context)\b/i).length > 0
  const roleLines = proseMatches(doc, roleRe)
  if (para === null && !hasOverviewHeading) {
    o.issue(
      "missing",
      "major",
      start,
      "The opening does not state the goal: there is no introductory paragraph or overview section",
      "Open with 1-3 sentences on what this is for, who uses it and what a good result looks like."
    )
    o.deduct(70, "no opening statement of purpose")
  } else if (artifactType === "prompt" && roleLines.length === 0) {
    o.issue(
      "no_role",
      "minor",
      para ?? start,
      "The prompt never states the model's role or task explicitly",
      "State the task up front, e.g. \"You are ... Your task is to ...\"."
    )
    o.deduct(20, "no explicit role or task")
  } else {
    o.note(para !== null ? `opening paragraph at line ${para}` : "has an overview section")
  }
  return o.done()
}

// ---------------------------------------------------------------- structure

const structure = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("structure")
  const { doc, artifactType } = ctx
  const hs = doc.md.headings
  const bodyLines = doc.bodyLineCount
  const usesXmlSections = /<([a-z_]+)>[\s\S]*?<\/\1>/.test(doc.body)
  if (hs.length === 0) {
    if (bodyLines > 15 && !(artifactType === "prompt" && usesXmlSections)) {
      const severity: Severity = artifactType === "prompt" || artifactType === "command" ? "minor" : "major"
      o.issue(
        "no_headings",
        severity,
        bodyStart(doc),
        `${bodyLines} lines without a single heading`,
        "Split the content into sections with '## ' headings (e.g. Overview, Steps, Examples)."
      )
      o.deduct(severity === "major" ? 40 : 15, "no headings")
    }
  } else {
    const h1s = hs.filter((h) => h.level === 1)
    const wantsTitle = artifactType === "skill" || artifactType === "agent" || artifactType === "workflow"
    if (h1s.length === 0 && wantsTitle) {
      o.issue(
        "no_title",
        "minor",
        bodyStart(doc),
        "No '# ' title heading",
        "Start the body with a '# Title' heading naming the artifact."
      )
      o.deduct(10, "no title")
    }
    if (h1s.length > 1) {
      o.issue(
        "multiple_titles",
        "minor",
        h1s[1]!.line,
        `${h1s.length} top-level '# ' headings (lines ${h1s.map((h) => h.line).join(", ")})`,
        "Keep one '# ' title and demote the other top-level headings to '## '."
      )
      o.deduct(10, "several top-level headings")
    }
    if (!hs.some((h) => h.level === 2) && (bodyLines > 60 || wantsTitle)) {
      o.issue(
        "no_sections",
        "minor",
        bodyStart(doc),
        bodyLines > 60 ? "A long document without '## ' sections" : "No '## ' sections",
        "Group the content into '## ' sections (e.g. Overview, Steps, Examples, Rules)."
      )
      o.deduct(bodyLines > 60 ? 15 : 20, "no sections")
    }
    let skipped = 0
    let empty = 0
    let dup = 0
    const siblings = new Map<string, number>()
    const parents: Array<string> = []
    for (let i = 0; i < hs.length; i++) {
      const h = hs[i]!
      const prev = hs[i - 1]
      if (prev && h.level > prev.level + 1) {
        skipped++
        if (skipped <= 5) {
          o.issue(
            "skipped_level",
            "minor",
            h.line,
            `Heading level jumps from ${"#".repeat(prev.level)} to ${"#".repeat(h.level)}`,
            `Use '${"#".repeat(prev.level + 1)} ' here so the hierarchy has no gaps.`
          )
        }
      }
      if (h.text === "") {
        o.issue("empty_heading", "minor", h.line, "An empty heading", "Give the heading a title or remove it.")
        empty++
      }
      const next = hs[i + 1]
      const endLine = next ? next.line : doc.split.lines.length + 1
      const hasContent = doc.split.lines.slice(h.line, endLine - 1).some((l) => l.trim() !== "")
      if (!hasContent && (!next || next.level <= h.level)) {
        empty++
        o.issue("empty_section", "minor", h.line, `The section ${quote(h.text)} is empty`, "Add its content or remove the heading.")
      }
      parents.length = h.level - 1
      const key = `${parents.join(">")}|${h.level}|${h.text.toLowerCase()}`
      if (h.text !== "" && siblings.has(key)) {
        dup++
        o.issue(
          "duplicate_heading",
          "minor",
          h.line,
          `The heading ${quote(h.text)} repeats the one on line ${siblings.get(key)}`,
          "Merge the two sections or give them distinct titles."
        )
      } else {
        siblings.set(key, h.line)
      }
      parents[h.level - 1] = h.text.toLowerCase()
    }
    o.deductEach(skipped, 5, 15, "skipped heading levels")
    o.deductEach(empty, 5, 15, "empty sections or headings")
    o.deductEach(dup, 5, 10, "duplicate headings")
  }
  for (const b of doc.md.codeBlocks) {
    if (!b.closed) {
      o.issue(
        "unclosed_fence",
        "major",
        b.startLine,
        `The code block opened on line ${b.startLine} is never closed, so everything after it renders as code`,
        `Close it with a '${b.fence}' line.`,
        doc.split.lines.length
      )
      o.deduct(25, "unclosed code fence")
    }
  }
  // balanced XML-style tags (only tags that are closed somewhere, so placeholders like <name> are ignored)
  const opens = new Map<string, Array<number>>()
  const closes = new Map<string, Array<number>>()
  for (const [n, text] of doc.prose) {
    const re = /<(\/?)([A-Za-z][\w-]*)(\s[^<>]*)?>/g
    let m: RegExpExecArray | null
    while ((m = re.exec(text)) !== null) {
      if (m[0].endsWith("/>")) continue
      const map = m[1] ? closes : opens
      const list = map.get(m[2]!) ?? []
      list.push(n)
      map.set(m[2]!, list)
    }
  }
  let unbalanced = 0
  for (const [tag, cl] of [...closes.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const op = opens.get(tag) ?? []
    if (op.length !== cl.length) {
      unbalanced++
      const line = op.length > cl.length ? op[op.length - 1]! : cl[cl.length - 1]!
      o.issue(
        "unbalanced_tag",
        "minor",
        line,
        `<${tag}> opens ${op.length} time(s) but closes ${cl.length} time(s)`,
        `Balance every <${tag}> with a </${tag}>.`
      )
    }
  }
  o.deductEach(unbalanced, 10, 20, "unbalanced tags")
  if (o.deductions.length === 0) o.note(`${hs.length} headings in a consistent hierarchy`)
  return o.done()
}

// ---------------------------------------------------------------- steps

interface OrderedList {
  readonly items: ReadonlyArray<{ line: number; number: number; text: string }>
}

export const orderedLists = (doc: Doc): ReadonlyArray<OrderedList> => {
  const items = doc.md.listItems.filter((i) => i.ordered && !doc.md.inCode[i.line])
  const headingLines = new Set(doc.md.headings.map((h) => h.line))
  const lists: Array<Array<(typeof items)[number]>> = []
  for (const it of items) {
    const list = [...lists].reverse().find((l) => {
      const last = l[l.length - 1]!
      if (last.indent !== it.indent || last.marker !== it.marker) return false
      for (let n = last.line + 1; n < it.line; n++) {
        if (headingLines.has(n)) return false
        const text = doc.split.lines[n - 1]!
        if (text.trim() === "" || doc.md.inCode[n]) continue
        const ind = text.length - text.trimStart().length
        if (ind <= it.indent) return false
      }
      return true
    })
    if (list) list.push(it)
    else lists.push([it])
  }
  return lists.map((l) => ({ items: l.map((i) => ({ line: i.line, number: i.number, text: i.text })) }))
}

const STEP_HEADING = /^(?:(?:step|phase|stage|part)\s*\d+|\d+(?:\.\d+)*[.):]?\s)/i

/** The first word of a step, with emphasis, code and a "Step N:" prefix removed. */
export const firstWord = (text: string): string => {
  const t = plainText(text)
    .replace(/^(?:step|phase)\s*\d+\s*[:.)-]\s*/i, "")
    .replace(/^[^\p{L}]+/u, "")
  return (t.match(/^[\p{L}'-]+/u)?.[0] ?? "").toLowerCase()
}

export const isImperative = (text: string): boolean | null => {
  const w = firstWord(text)
  if (w === "") return null
  if (IMPERATIVE_VERBS.has(w) || STEP_CONNECTIVES.has(w)) return true
  if (NON_IMPERATIVE_STARTS.has(w) || /ing$|ed$/.test(w)) return false
  // a word followed by a colon is a label ("Prereq: ...", "Manual fallback:")
  if (/^[\p{L} '-]{1,30}:/u.test(plainText(text))) return null
  return /^(re|pre|un|de)/.test(w) && IMPERATIVE_VERBS.has(w.replace(/^(re|pre|un|de)/, "")) ? true : null
}

const steps = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("steps")
  const { doc, artifactType } = ctx
  const lists = orderedLists(doc)
  const items = lists.flatMap((l) => l.items)
  const stepHeadings = doc.md.headings.filter((h) => STEP_HEADING.test(h.text))
  let yamlSteps = 0
  if (artifactType === "rubr_flow" || artifactType === "workflow") {
    const stepsKey = doc.split.lines.findIndex((l) => /^\s*"?steps"?\s*:/.test(l))
    if (stepsKey >= 0) yamlSteps = doc.split.lines.slice(stepsKey + 1).filter((l) => /^\s*-\s+\S|^\s*\{\s*"/.test(l)).length
  }
  const checklist = doc.md.listItems.filter((i) => !i.ordered && /^\[[ xX]\]\s/.test(i.text)).length
  const total = items.length + stepHeadings.length + yamlSteps + checklist
  const required = artifactType === "skill" || artifactType === "command" || artifactType === "workflow" || artifactType === "rubr_flow"
  if (total === 0) {
    const critical = artifactType === "workflow" || artifactType === "rubr_flow"
    o.issue(
      "missing",
      critical ? "critical" : required ? "major" : "minor",
      bodyStart(doc),
      "No numbered steps: the agent has to infer the procedure",
      "Add a numbered procedure ('1. Read ...', '2. Run ...'), one action per step, in the order to perform them."
    )
    o.deduct(critical ? 90 : required ? 70 : 40, "no numbered procedure")
    return o.done()
  }
  if (total < 3 && required) {
    o.issue(
      "too_few",
      "minor",
      items[0]?.line ?? stepHeadings[0]?.line ?? bodyStart(doc),
      `The procedure has only ${total} step(s)`,
      "Break the work into the concrete actions the agent performs, in order."
    )
    o.deduct(15, "very short procedure")
  }
  // imperative mood
  let judged = 0
  let imperative = 0
  const weak: Array<{ line: number; text: string }> = []
  for (const it of items) {
    const v = isImperative(it.text)
    if (v === null) continue
    judged++
    if (v) imperative++
    else weak.push(it)
  }
  if (judged >= 3) {
    const ratio = imperative / judged
    for (const w of weak.slice(0, 5)) {
      o.issue(
        "not_imperative",
        "info",
        w.line,
        `The step ${quote(plainText(w.text))} does not start with an action verb`,
        "Start each step with the verb the agent should perform (\"Run ...\", \"Read ...\", \"Ask ...\")."
      )
    }
    if (ratio < 0.7) o.deduct((0.7 - ratio) * 60, `${weak.length} of ${judged} steps are not imperative`)
  }
  // numbering
  let gaps = 0
  for (const l of lists) {
    const ns = l.items.map((i) => i.number)
    if (ns.every((n) => n === ns[0])) continue
    for (let i = 1; i < ns.length; i++) {
      if (ns[i] !== ns[i - 1]! + 1) {
        gaps++
        o.issue(
          "numbering_gap",
          "minor",
          l.items[i]!.line,
          ns[i]! > ns[i - 1]! + 1
            ? `Step numbering jumps from ${ns[i - 1]} to ${ns[i]}: a step may be missing`
            : `Step ${ns[i]} follows step ${ns[i - 1]}: the numbering is out of order`,
          "Check that no step was lost, then number the steps consecutively.",
          l.items[i]!.line
        )
        break
      }
    }
    if (l.items.length > 12) {
      o.issue(
        "long_list",
        "minor",
        l.items[0]!.line,
        `A single list of ${l.items.length} steps is hard to follow`,
        "Split it into phases of at most 7-10 steps with a heading each.",
        l.items[l.items.length - 1]!.line
      )
      o.deduct(10, "a list of more than 12 steps")
    }
  }
  o.deductEach(gaps, 15, 30, "gaps in step numbering")
  // "Step N" headings and references
  const numbered = stepHeadings
    .map((h) => ({ h, n: Number(h.text.match(/^(?:step|phase|stage|part)\s*(\d+)/i)?.[1] ?? NaN) }))
    .filter((x) => !Number.isNaN(x.n))
  for (let i = 1; i < numbered.length; i++) {
    const a = numbered[i - 1]!
    const b = numbered[i]!
    if (b.n > a.n + 1 && b.h.level === a.h.level) {
      o.issue("heading_gap", "minor", b.h.line, `${b.h.text.split(/[:\s]/)[0]} ${a.n} is followed by ${b.n}: a step may be missing`, "Restore the missing step or renumber.")
      o.deduct(15, "gap in numbered step headings")
    }
  }
  if (numbered.length > 0) {
    const known = new Set(numbered.map((x) => x.n))
    const headingSet = new Set(numbered.map((x) => x.h.line))
    for (const [n, text] of doc.prose) {
      if (headingSet.has(n)) continue
      const re = /\bstep\s+(\d+)\b/gi
      let m: RegExpExecArray | null
      while ((m = re.exec(text)) !== null) {
        if (!known.has(Number(m[1]))) {
          o.issue("dangling_step_ref", "minor", n, `The text refers to Step ${m[1]}, which does not exist`, "Point at an existing step or restore the missing one.")
          o.deduct(10, "reference to a missing step")
        }
      }
    }
  }
  if (o.deductions.length === 0) o.note(`${total} steps (${items.length} numbered items, ${stepHeadings.length} step headings, ${checklist} checklist items)${judged > 0 ? `, ${imperative}/${judged} imperative` : ""}`)
  return o.done()
}

// ---------------------------------------------------------------- examples

const examples = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("examples")
  const { doc, artifactType } = ctx
  const blocks = doc.md.codeBlocks.filter((b) => b.closed)
  const exampleHeadings = headingMatches(doc, /\b(examples?|samples?|usage|demo|walkthrough|quick ?start)\b/i)
  const labels = proseMatches(doc, /(^\s*(\*\*|__)?\s*(examples?|for example|sample|usage examples?|input|output)\b\s*[:*])|<(example|good|bad)\b/i)
  const exampleFiles = doc.refs.filter((r) => /example|sample|template/i.test(r.path))
  const weak = proseMatches(doc, /\b(e\.g\.|for example|for instance|such as)/i)
  const strong = blocks.length + exampleHeadings.length + labels.length + exampleFiles.length
  if (strong === 0) {
    const severity: Severity = artifactType === "skill" || artifactType === "prompt" ? (weak.length > 0 ? "minor" : "major") : "minor"
    o.issue(
      "missing",
      severity,
      bodyStart(doc),
      weak.length > 0
        ? `No worked example: only ${weak.length} passing mention(s) like "e.g."`
        : "No examples: no code block, example section or example file",
      "Add a short '## Examples' section with a realistic input and the expected output or command."
    )
    o.deduct(severity === "major" ? 70 : 40, "no worked example")
  }
  if (strong > 0 && blocks.length === 0 && exampleFiles.length === 0 && commandLines(doc).length === 0) {
    o.issue(
      "no_concrete_example",
      "minor",
      exampleHeadings[0]?.line ?? labels[0] ?? bodyStart(doc),
      "Examples are named but none is concrete: no code block, command or example file",
      "Show at least one complete sample (a fenced code block with the exact input and output, or an examples/ file)."
    )
    o.deduct(15, "no concrete example")
  }
  const bare = blocks.filter((b) => b.info === "")
  for (const b of bare.slice(0, 5)) {
    o.issue(
      "no_language",
      "info",
      b.startLine,
      "A code block without a language tag",
      "Add the language after the opening fence (```bash, ```python, ```text) so it renders and reads unambiguously.",
      b.endLine
    )
  }
  o.deductEach(bare.length, 2, 10, "code blocks without a language tag")
  if (strong > 0) {
    o.note(
      `${blocks.length} code block(s), ${exampleHeadings.length} example section(s), ${labels.length} labelled example(s), ${exampleFiles.length} example file reference(s)`
    )
  }
  return o.done()
}

// ---------------------------------------------------------------- references

export interface ResolvedRef {
  readonly ref: Reference
  readonly status: "ok" | "outside" | "missing" | "marked"
  readonly resolved?: string
  readonly candidate?: string | null
  readonly reason?: string
}

export const MISSING_MARKER = "not included in this bundle"

/** First path segments that name the conventional folders of a skill or procedure package. */
const BUNDLE_FOLDERS = /^(references?|examples?|scripts?|assets?|templates?|resources?|evals?|evaluations?|prompts?|agents?|rules|schemas?|snippets|data|fixtures|checklists?)$/i

/**
 * Resolves every reference of the document. A bare path whose first folder is neither a
 * conventional bundle folder nor a folder of this bundle (and is not written relative to the skill,
 * `./x` or `<path-to-skill>/x`) names a file of the user's project, not of the bundle: `outside`.
 * So do missing folders mentioned in prose, and paths that end in a bundle file after the skill's
 * own folder name (`skills/<name>/x.md` written from the repository root).
 */
export const resolveRefs = (ctx: CheckContext): ReadonlyArray<ResolvedRef> => {
  const ownNames = new Set([basename(ctx.rootDir), basename(ctx.doc.dir), getField(ctx.doc.fm, "name")?.value.trim() ?? ""])
  ownNames.delete("")
  return ctx.doc.refs.map((ref): ResolvedRef => {
    const lineText = ctx.doc.split.lines[ref.line - 1] ?? ""
    const r = ctx.bundle.resolve(ref, ctx.doc.dir, ctx.rootDir)
    if (r.status === "ok") return { ref, status: "ok", resolved: r.resolved }
    if (r.status === "outside") return { ref, status: "outside" }
    const segs = ref.path.replace(/^(\.\/)+/, "").split("/").filter((x) => x !== "")
    for (let k = 1; k < segs.length; k++) {
      if (!ownNames.has(segs[k - 1]!)) continue
      const rest = segs.slice(k).join("/")
      const inner = ctx.bundle.resolve({ ...ref, path: rest, rootRelative: true }, ctx.doc.dir, ctx.rootDir)
      if (inner.status === "ok") return { ref, status: "ok", resolved: inner.resolved }
    }
    if (ref.kind === "path") {
      // after the skill's own folder name, the rest of the path is relative to the skill
      const own = segs.findIndex((x, i) => i < segs.length - 1 && ownNames.has(x))
      const first = segs[own + 1] ?? ""
      const bundleish =
        ref.rootRelative || ref.path.startsWith("./") || BUNDLE_FOLDERS.test(first) || ctx.bundle.hasDir(first)
      if (!bundleish || ref.directory) return { ref, status: "outside" }
    }
    if (lineText.includes(MISSING_MARKER)) return { ref, status: "marked" }
    return { ref, status: "missing", candidate: r.candidate, reason: r.reason }
  })
}

/** Files reachable from the artifact through references (transitively through other documents). */
const reachable = (ctx: CheckContext, first: ReadonlyArray<ResolvedRef>): Set<string> => {
  const seen = new Set<string>([ctx.doc.path])
  const queue: Array<string> = []
  const visit = (p: string) => {
    if (p === "") return
    const re = p.includes("*") ? globToRegExp(p) : null
    for (const f of ctx.bundle.paths) {
      if (seen.has(f)) continue
      if (re ? re.test(f) : f === p || f.startsWith(`${p}/`)) {
        seen.add(f)
        queue.push(f)
      }
    }
  }
  for (const r of first) if (r.status === "ok" && r.resolved !== undefined) visit(r.resolved)
  while (queue.length > 0) {
    const p = queue.shift()!
    const d = ctx.docAt(p)
    if (!d) continue
    for (const r of resolveRefs({ ...ctx, doc: d })) if (r.status === "ok" && r.resolved !== undefined) visit(r.resolved)
  }
  return seen
}

const references = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("references")
  const { artifactType, doc } = ctx
  const pkg = PACKAGE_TYPES.has(artifactType)
  const resolved = resolveRefs(ctx)
  const reportedPaths = new Set<string>()
  let linkPoints = 0
  let pathPoints = 0
  let dangling = 0
  for (const r of resolved) {
    if (r.status !== "missing") continue
    const { ref } = r
    if (ref.kind === "name") continue
    if (ref.kind === "path" && !pkg) continue
    const key = `${ref.kind}:${ref.path}`
    const first = !reportedPaths.has(key)
    reportedPaths.add(key)
    const fix = r.candidate
      ? `Point it at \`${r.candidate}\` (${r.reason}).`
      : ref.kind === "link"
        ? `Add \`${ref.path}\` to the bundle, or remove the link.`
        : `Add \`${ref.path}\` to the bundle, or stop referring to it.`
    const what = ref.directory ? "folder" : ref.glob ? "pattern" : "file"
    const severity: Severity = !pkg ? "minor" : ref.directory || ref.glob ? "minor" : "major"
    o.issue(
      ref.kind === "link" ? "dangling_link" : "dangling_path",
      severity,
      ref.line,
      ref.kind === "link"
        ? `The link to \`${ref.written}\` points at a ${what} that is not in the bundle${pkg ? "" : " (fine if it exists in the repository)"}`
        : `\`${ref.written}\` names a ${what} that is not in the bundle`,
      fix
    )
    if (first) {
      dangling++
      if (ref.directory || ref.glob) pathPoints += 10
      else if (ref.kind === "link") linkPoints += pkg ? 25 : 10
      else pathPoints += 20
    }
  }
  if (linkPoints > 0) o.deduct(Math.min(75, linkPoints), "links to files missing from the bundle")
  if (pathPoints > 0) o.deduct(Math.min(60, pathPoints), "paths to files missing from the bundle")
  // in-document and cross-document anchors must name a heading
  let badAnchors = 0
  const own = headingAnchors(doc.md.headings)
  for (const l of doc.md.links) {
    const hash = l.target.indexOf("#")
    if (hash < 0 || /^[a-z][a-z0-9+.-]*:/i.test(l.target) || l.target.startsWith("//")) continue
    const anchor = decodeURIComponentSafe(l.target.slice(hash + 1)).toLowerCase()
    if (anchor === "" || /^l\d+/.test(anchor)) continue
    let anchors: Set<string> | null = null
    if (hash === 0) anchors = own
    else {
      const r = resolved.find((x) => x.ref.kind === "link" && x.ref.line === l.line && x.ref.column === l.column)
      const target = r?.status === "ok" && r.resolved !== undefined ? ctx.docAt(r.resolved) : undefined
      if (target) anchors = headingAnchors(target.md.headings)
    }
    if (anchors && !anchors.has(anchor)) {
      badAnchors++
      o.issue(
        "missing_anchor",
        "minor",
        l.line,
        `The link \`${l.target}\` points at a heading anchor that does not exist`,
        `Use one of the existing anchors${anchors.size > 0 ? ` (e.g. #${[...anchors].slice(0, 3).join(", #")})` : ""} or remove the fragment.`
      )
    }
  }
  o.deductEach(badAnchors, 5, 15, "links to missing heading anchors")
  const ok = resolved.filter((r) => r.status === "ok" && (r.ref.kind !== "name"))
  if (ctx.mode === "file" && pkg) {
    const reach = reachable(ctx, resolved)
    const orphans = ctx.bundle.paths.filter(
      (p) =>
        !reach.has(p) &&
        !/(^|\/)(license|licence|copying|notice|readme|changelog)(\.[^/]*)?$/i.test(p) &&
        !/(^|\/)\./.test(p) &&
        !/(^|\/)(evaluations?|evals?|tests?|__tests__)\//i.test(p) &&
        p.startsWith(ctx.rootDir === "" ? "" : `${ctx.rootDir}/`)
    )
    for (const p of orphans.slice(0, 5)) {
      o.issue(
        "unreferenced_file",
        "info",
        bodyStart(doc),
        `The bundle file \`${p}\` is never referenced, so the agent will not know to load it`,
        `Mention \`${p}\` where it is needed (e.g. "See [${basename(p)}](${p}) for ...").`
      )
    }
    o.deductEach(orphans.length, 3, 12, "bundle files never referenced")
  }
  if (dangling === 0) o.note(`${ok.length} reference(s) resolve to bundle files`)
  else o.note(`${ok.length} reference(s) resolve`)
  return o.done()
}

// ---------------------------------------------------------------- clarity

const clarity = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("clarity")
  const { doc } = ctx
  let points = 0
  let vagueLines = 0
  let vagueTotal = 0
  for (const [n, text] of doc.prose) {
    if (/^\s*\[[^\]]+\]:/.test(text)) continue
    const hits: Array<{ label: string; strength: string; advice: string }> = []
    if (!ANY_VAGUE.test(text)) continue
    const masked = text.replace(/\[([^\[\]]*)\]\([^()]*\)/g, "$1").replace(/https?:\/\/\S+/g, "")
    for (const term of VAGUE_TERMS) {
      term.pattern.lastIndex = 0
      const count = (masked.match(term.pattern) ?? []).length
      if (count === 0) continue
      // "as needed" is also matched by nothing else; "as appropriate" also contains "appropriate"
      if (term.label === "appropriate" && hits.some((h) => h.label === "as appropriate")) continue
      if (term.label === "properly" && /\bproper (noun|name)/i.test(masked)) continue
      hits.push({ label: term.label, strength: term.strength, advice: term.advice })
      points += (term.strength === "strong" ? 4 : 2) * count
      vagueTotal += count
    }
    if (hits.length === 0) continue
    vagueLines++
    if (vagueLines > 20) continue
    const strong = hits.some((h) => h.strength === "strong")
    o.issue(
      "vague_wording",
      strong ? "minor" : "info",
      n,
      `Vague wording: ${hits.map((h) => `"${h.label}"`).join(", ")}`,
      hits.map((h) => `Instead of "${h.label}", ${h.advice}.`).join(" ")
    )
  }
  if (points > 0) {
    o.deduct(Math.min(50, (points * 500) / Math.max(100, doc.words)), `${vagueTotal} vague term(s) in ${vagueLines} line(s)`)
  }
  let todos = 0
  for (const [n, text] of doc.prose) {
    // a marker mentioned in quotes ("look for "TODO" markers") is not itself a placeholder
    const m = text.match(/(?<!["'“‘])\b(TODO|FIXME|TBD|XXX)\b(?!["'”’])|lorem ipsum|\[insert [^\[\]]*\]|<insert [^<>]*>/i)
    if (m && (/^(TODO|FIXME|TBD|XXX)$/.test(m[1] ?? "") || !m[1])) {
      todos++
      o.issue("placeholder", "major", n, `An unfinished placeholder (${quote(m[0], 30)})`, "Replace the placeholder with the real instruction, or remove it.")
    }
  }
  o.deductEach(todos, 15, 45, "unfinished placeholders")
  const shoutLines: Array<number> = []
  let shouts = 0
  for (const [n, text] of doc.prose) {
    const c = (text.match(/\b(MUST|NEVER|ALWAYS|CRITICAL|IMPORTANT|REQUIRED|MANDATORY|SHALL|STOP)\b/g) ?? []).length
    if (c > 0) {
      shouts += c
      shoutLines.push(n)
    }
  }
  if (shouts >= 5 && (shouts * 1000) / Math.max(1, doc.words) > 6) {
    o.issue(
      "shouting",
      "minor",
      shoutLines[0]!,
      `${shouts} all-caps directives (MUST, NEVER, CRITICAL, ...) on lines ${shoutLines.slice(0, 8).join(", ")}${shoutLines.length > 8 ? ", ..." : ""}: overuse makes every rule look equally urgent and models over-apply them`,
      "Keep capitals for the one or two rules that truly override everything; state the others plainly, with the reason.",
      shoutLines[0]!
    )
    o.deduct(10, "overused all-caps directives")
  }
  let longSentences = 0
  for (const [n, text] of doc.prose) {
    if (/^\s*(\||#)/.test(text)) continue
    for (const s of plainText(text).split(/(?<=[.!?])\s+/)) {
      if (s.split(/\s+/).length > 45) {
        longSentences++
        if (longSentences <= 3) {
          o.issue("long_sentence", "info", n, `A ${s.split(/\s+/).length}-word sentence`, "Split it into one instruction per sentence.")
        }
      }
    }
  }
  o.deductEach(longSentences, 2, 10, "sentences over 45 words")
  if (o.deductions.length === 0) o.note("precise wording, no placeholders")
  return o.done()
}

// ---------------------------------------------------------------- length

export const LENGTH_BUDGETS: Readonly<Record<ArtifactType, { lines: number; tokens: number; soft: number; minWords: number }>> = {
  skill: { lines: 500, tokens: 5000, soft: 3500, minWords: 60 },
  agent: { lines: 300, tokens: 3000, soft: 2000, minWords: 40 },
  prompt: { lines: 250, tokens: 2500, soft: 1500, minWords: 15 },
  command: { lines: 150, tokens: 1500, soft: 1000, minWords: 15 },
  workflow: { lines: 400, tokens: 4000, soft: 3000, minWords: 40 },
  rubr_flow: { lines: 400, tokens: 4000, soft: 3000, minWords: 30 }
}

const length = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("length")
  const { doc, artifactType } = ctx
  const b = LENGTH_BUDGETS[artifactType]
  const lines = doc.split.lines.length
  const tokens = estimateTokens(doc.text)
  const facts = `${lines} lines, ${doc.text.length} characters, ~${tokens} tokens (budget ${b.lines} lines / ${b.tokens} tokens)`
  if (lines > b.lines || tokens > b.tokens) {
    o.issue(
      "over_budget",
      "major",
      1,
      `Too long: ${facts}; every line costs context on each use`,
      "Move detail into reference files the agent loads only when needed, and keep the main file to the procedure.",
      lines
    )
    o.deduct(30, "over the length budget")
  } else if (tokens > b.soft) {
    o.issue("long", "minor", 1, `Long: ${facts}`, "Move background material into reference files.", lines)
    o.deduct(10, "near the length budget")
  }
  if (doc.words < b.minWords) {
    o.issue(
      "too_thin",
      "minor",
      bodyStart(doc),
      `Only ${doc.words} words of instructions: too thin to guide the agent`,
      "Add the procedure, the constraints and an example.",
      Math.max(bodyStart(doc), lines)
    )
    o.deduct(40, "too little content")
  }
  o.note(facts)
  return o.done()
}

// ---------------------------------------------------------------- formatting

const formatting = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("formatting")
  const { doc } = ctx
  const lines = doc.split.lines
  if (doc.text.length > 0 && !doc.split.finalNewline) {
    o.issue("no_final_newline", "minor", lastLine(doc), "The file does not end with a newline", "End the file with a single newline.")
    o.deduct(10, "no final newline")
  }
  const trailing = trailingWhitespaceLines(doc)
  if (trailing.length > 0) {
    o.issue(
      "trailing_whitespace",
      "minor",
      trailing[0]!,
      `${trailing.length} line(s) end with trailing whitespace (lines ${trailing.slice(0, 10).join(", ")}${trailing.length > 10 ? ", ..." : ""})`,
      "Remove the trailing spaces and tabs.",
      trailing[0]!
    )
    o.deduct(5, "trailing whitespace")
  }
  if (doc.split.mixedEol) {
    o.issue("mixed_eol", "minor", 1, "The file mixes CRLF and LF line endings", "Use LF line endings throughout.", lines.length)
    o.deduct(10, "mixed line endings")
  }
  const blankRuns = excessBlankRuns(doc)
  for (const r of blankRuns.slice(0, 3)) {
    o.issue("blank_lines", "info", r[0], `${r[1] - r[0] + 1} consecutive blank lines`, "Use a single blank line between blocks.", r[1])
  }
  o.deductEach(blankRuns.length, 2, 6, "runs of blank lines")
  let abs = 0
  for (let n = bodyStart(doc); n <= lines.length; n++) {
    if (doc.md.inCode[n]) continue
    const m = lines[n - 1]!.match(/(?:^|[\s`"'(])((?:\/Users|\/home)\/[A-Za-z0-9._-]+|[A-Z]:\\(?:Users|Documents and Settings)\\)/)
    if (m) {
      abs++
      if (abs <= 3) {
        o.issue(
          "absolute_path",
          "minor",
          n,
          `A machine-specific absolute path (${quote(m[1]!, 40)}) will not exist on other machines`,
          "Use a path relative to the artifact's folder or a placeholder such as <project-root>."
        )
      }
    }
  }
  o.deductEach(abs, 10, 20, "machine-specific absolute paths")
  const invisible: Array<number> = []
  lines.forEach((l, i) => {
    if (/[\u200B-\u200D\u2060]|(?<!^)\uFEFF/.test(i === 0 ? l.replace(/^\uFEFF/, "") : l)) invisible.push(i + 1)
  })
  if (invisible.length > 0) {
    o.issue("invisible_chars", "minor", invisible[0]!, "Invisible zero-width characters", "Delete the zero-width characters (U+200B..U+200D, U+2060, U+FEFF).")
    o.deduct(5, "invisible characters")
  }
  if (o.deductions.length === 0) o.note("clean formatting")
  return o.done()
}

/** Lines (outside frontmatter and code) with trailing whitespace that is not a two-space hard break. */
export const trailingWhitespaceLines = (doc: Doc): Array<number> => {
  const out: Array<number> = []
  const lines = doc.split.lines
  for (let n = bodyStart(doc); n <= lines.length; n++) {
    if (doc.md.inCode[n]) continue
    const l = lines[n - 1]!
    if (!/[ \t]$/.test(l)) continue
    const hardBreak = /\S {2}$/.test(l) && (lines[n] ?? "").trim() !== ""
    if (!hardBreak) out.push(n)
  }
  return out
}

/** Runs of 3+ blank lines outside code, as [first, last] line pairs. */
export const excessBlankRuns = (doc: Doc): Array<[number, number]> => {
  const runs: Array<[number, number]> = []
  const lines = doc.split.lines
  let start = -1
  for (let n = bodyStart(doc); n <= lines.length + 1; n++) {
    const blank = n <= lines.length && !doc.md.inCode[n] && lines[n - 1]!.trim() === ""
    if (blank && start < 0) start = n
    if (!blank && start >= 0) {
      if (n - start >= 3) runs.push([start, n - 1])
      start = -1
    }
  }
  return runs
}

// ---------------------------------------------------------------- commands

const CMD = /^(?:\$\s*)?(npm|pnpm|yarn|bun|npx|node|deno|make|cargo|go|python3?|pip3?|uv|poetry|pytest|ruff|black|mypy|tox|nox|rake|bundle|rails|gradle|\.\/gradlew|mvn|dotnet|docker|docker-compose|kubectl|terraform|git|gh|bash|sh|just|task|tsc|eslint|prettier|jest|vitest|php|composer|mix|swift|xcodebuild|flutter|dart|cmake|ctest|bazel|nx|turbo|\.\/[\w.-]+)\b/

export const commandLines = (doc: Doc): Array<{ line: number; text: string }> => {
  const out: Array<{ line: number; text: string }> = []
  for (const b of doc.md.codeBlocks) {
    for (let n = b.startLine + 1; n < (b.closed ? b.endLine : b.endLine + 1); n++) {
      const t = doc.split.lines[n - 1]!.trim()
      if (CMD.test(t)) out.push({ line: n, text: t })
    }
  }
  for (const c of doc.md.inlineCode) if (CMD.test(c.text.trim())) out.push({ line: c.line, text: c.text.trim() })
  return out.sort((a, b) => a.line - b.line)
}

const commands = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("commands")
  const { doc, artifactType } = ctx
  const cmds = commandLines(doc)
  const main = artifactType === "agent"
  if (cmds.length === 0) {
    o.issue(
      "missing",
      main ? "major" : "minor",
      bodyStart(doc),
      "No runnable commands (build, test, lint) in code",
      "List the exact commands in a code block, e.g. ```bash\\nnpm install\\nnpm test\\n```."
    )
    o.deduct(main ? 80 : 40, "no runnable commands")
    return o.done()
  }
  const all = cmds.map((c) => c.text).join("\n")
  if (!/test|pytest|jest|vitest|spec|check/i.test(all)) {
    o.issue("no_test", main ? "major" : "minor", cmds[0]!.line, "No command runs the tests", "Add the exact test command (and how to run a single test).")
    o.deduct(main ? 25 : 10, "no test command")
  }
  if (main && !/lint|eslint|ruff|clippy|fmt|format|prettier|tsc|typecheck|mypy|vet/i.test(all)) {
    o.issue("no_lint", "minor", cmds[0]!.line, "No lint, format or type-check command", "Add the command that checks style and types before committing.")
    o.deduct(10, "no lint command")
  }
  if (main && !/install|build|compile|setup|sync|bootstrap/i.test(all)) {
    o.issue("no_setup", "minor", cmds[0]!.line, "No setup or build command", "Add how to install dependencies and build.")
    o.deduct(10, "no setup command")
  }
  o.note(`${cmds.length} command line(s)`)
  return o.done()
}

// ---------------------------------------------------------------- constraints

const constraints = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("constraints")
  const { doc } = ctx
  const rules = proseMatches(doc, /\b(do not|don'?t|never|must not|avoid|only|always|must)\b/i)
  const sections = headingMatches(doc, /\b(rules?|constraints?|boundaries|guardrails|don'?ts|restrictions|limits|conventions|style|requirements|policy|policies)\b/i)
  if (rules.length === 0 && sections.length === 0) {
    o.issue(
      "missing",
      "major",
      bodyStart(doc),
      "No explicit rules or boundaries: nothing says what the agent must not do",
      "Add a '## Rules' section: what to always do, what never to do, and when to stop and ask."
    )
    o.deduct(70, "no explicit constraints")
  } else if (rules.length + sections.length < 2) {
    o.issue("few", "minor", rules[0] ?? sections[0]?.line ?? bodyStart(doc), "Only one explicit rule", "State the important boundaries explicitly (what never to change, what needs approval).")
    o.deduct(25, "few explicit constraints")
  } else {
    o.note(`${rules.length} rule line(s), ${sections.length} rules section(s)`)
  }
  return o.done()
}

// ---------------------------------------------------------------- output format

const outputFormat = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("output_format")
  const { doc } = ctx
  const sections = headingMatches(doc, /\b(output|format|response|result|report|deliverables?|return|template)\b/i)
  const strong = proseMatches(doc, /\b(output format|respond (with|in)|reply (with|in)|return (a|an|the|only)|format (as|:)|as json|in json|json (object|schema)|markdown table|following (format|template|structure))\b/i)
  const blocks = doc.md.codeBlocks.filter((b) => /^(json|ya?ml|xml|markdown|md|text)$/i.test(b.info))
  const weak = proseMatches(doc, /\b(output|format|summar(y|ize)|report|produce)\b/i)
  if (sections.length + strong.length + blocks.length === 0) {
    o.issue(
      weak.length > 0 ? "vague" : "missing",
      weak.length > 0 ? "minor" : "major",
      weak[0] ?? bodyStart(doc),
      weak.length > 0 ? "The expected output is only mentioned, never specified" : "The expected output is not specified",
      "Add an '## Output' section: the format (markdown, JSON), its sections or schema, and a short template."
    )
    o.deduct(weak.length > 0 ? 30 : 75, "output format not specified")
  } else {
    o.note(`output specified (${sections.length} section(s), ${strong.length} explicit statement(s), ${blocks.length} template block(s))`)
  }
  return o.done()
}

// ---------------------------------------------------------------- inputs

const inputs = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("inputs")
  const { doc, artifactType } = ctx
  const vars = proseMatches(doc, /\{\{\s*[\w.-]+\s*\}\}|\$ARGUMENTS|\$\d\b|<(input|document|context|data|query|question|text|user_input|code|request)>/)
  const varsInCode = doc.md.inlineCode.filter((c) => /\{\{\s*[\w.-]+\s*\}\}|\$ARGUMENTS|\$\d\b/.test(c.text)).map((c) => c.line)
  const allVars = [...vars, ...varsInCode]
  const sections = headingMatches(doc, /\b(inputs?|arguments?|parameters?|variables?|prerequisites?|requirements|context|usage)\b/i)
  const labels = proseMatches(doc, /^\s*(\*\*)?(inputs?|arguments?|parameters?|prereq(uisite)?s?|requires?)(\*\*)?\s*:|^\s*"?inputs"?\s*:/i)
  const hint = doc.fm.closed ? getField(doc.fm, "argument-hint") : undefined
  if (allVars.length + sections.length + labels.length === 0 && !hint) {
    const major = artifactType === "command" || artifactType === "workflow" || artifactType === "rubr_flow"
    o.issue(
      "missing",
      major ? "major" : "minor",
      bodyStart(doc),
      artifactType === "command" ? "The command never uses its arguments ($ARGUMENTS) nor declares any" : "Inputs are not declared",
      artifactType === "command"
        ? "Use $ARGUMENTS (or $1, $2) where the user's input goes, and add `argument-hint:` to the frontmatter."
        : "Add an '## Inputs' section listing what the agent receives (name, format, where it comes from) and what to do when one is missing."
    )
    o.deduct(major ? 65 : 40, "inputs not declared")
    return o.done()
  }
  if (artifactType === "command") {
    const usesArgs = allVars.length > 0
    if (hint && !usesArgs) {
      o.issue("hint_unused", "minor", hint.line, "`argument-hint` is declared but $ARGUMENTS is never used", "Insert $ARGUMENTS where the argument belongs.")
      o.deduct(15, "argument-hint without $ARGUMENTS")
    } else if (usesArgs && !hint) {
      o.issue("no_hint", "info", allVars[0]!, "The command uses arguments but has no `argument-hint`", "Add `argument-hint: <what to pass>` to the frontmatter.")
      o.deduct(5, "no argument-hint")
    }
  }
  o.note(`inputs declared (${sections.length} section(s), ${allVars.length} placeholder(s))`)
  return o.done()
}

// ---------------------------------------------------------------- verification

const verification = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("verification")
  const { doc } = ctx
  const sections = headingMatches(doc, /\b(verif\w*|validat\w*|testing|tests?|checks?|done|success|acceptance|quality|checklist)\b/i)
  const lines = proseMatches(doc, /\b(verify|verified|verification|validate|validation|confirm|check|test|tests|assert|done when|success criteria|acceptance criteria|expected (output|result)|definition of done)\b/i)
  if (sections.length === 0 && lines.length === 0) {
    o.issue(
      "missing",
      "major",
      bodyStart(doc),
      "Nothing says how to verify the work is done",
      "Add a '## Verification' section: the checks or tests to run and the result that counts as success."
    )
    o.deduct(75, "no verification")
  } else if (sections.length === 0 && lines.length < 3) {
    o.issue("weak", "minor", lines[0]!, "Verification is only mentioned in passing", "Give verification its own step with concrete success criteria.")
    o.deduct(25, "verification only mentioned in passing")
  } else {
    o.note(`${sections.length} verification section(s), ${lines.length} line(s) on checks`)
  }
  return o.done()
}

// ---------------------------------------------------------------- error handling

const errorHandling = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("error_handling")
  const { doc } = ctx
  const sections = headingMatches(doc, /\b(errors?|fail\w*|troubleshoot\w*|recovery|stuck|blockers?|rollback|fallback|stop)\b/i)
  const lines = proseMatches(
    doc,
    /\b(if\b.{0,80}\b(fails?|failed|errors?|missing|unavailable|blocked|unclear|not found|broken|cannot|can't)|on (failure|error)|retry|roll ?back|revert|fall ?back|stop and ask|ask (the user|for clarification|your)|escalate|abort|troubleshoot)/i
  )
  if (sections.length === 0 && lines.length === 0) {
    o.issue(
      "missing",
      "major",
      bodyStart(doc),
      "Nothing says what to do when a step fails or information is missing",
      "Add what to do on failure: when to retry, when to stop and ask, how to roll back."
    )
    o.deduct(70, "no failure handling")
  } else if (sections.length === 0 && lines.length < 2) {
    o.issue("weak", "minor", lines[0]!, "Failure handling covers a single case", "Cover the likely failures of each step (missing input, failing command, unclear request).")
    o.deduct(25, "thin failure handling")
  } else {
    o.note(`${sections.length} failure-handling section(s), ${lines.length} line(s)`)
  }
  return o.done()
}

export const CHECKS: Readonly<Record<CriterionKey, (ctx: CheckContext) => CheckOutcome>> = {
  frontmatter,
  name,
  description,
  purpose,
  structure,
  steps,
  examples,
  references,
  clarity,
  length,
  formatting,
  commands,
  constraints,
  output_format: outputFormat,
  inputs,
  verification,
  error_handling: errorHandling
}

