/**
 * Purpose, structure, length and formatting: the shape of the document.
 */
import type { ArtifactType } from "../../../domain/Artifact.js"
import type { Severity } from "../../Types.js"
import { plainText } from "../../../markdown/Markdown.js"
import { estimateTokens } from "../../../ai/Tokens.js"
import type { Doc } from "../../../markdown/Document.js"
import { orderedLists } from "../../../markdown/Instructions.js"
import { SECTION_TOPICS } from "../../../markdown/Sections.js"
import { duplicateSections, nearDuplicateParagraphs } from "./Repeats.js"
import { cutShort, endsEarly, plainTitle, promisedSections } from "./Shape.js"
import { runTogether } from "./RunTogether.js"
import { RUBRIC_VERSION_2026_11_29, RUBRIC_VERSION_2026_11_29_2, RUBRIC_VERSION_2026_11_29_4 } from "../../rubrics/Rubrics.js"
import { bodyStart, type CheckContext, type CheckOutcome, headingMatches, lastLine, Out, proseMatches, quote, unclosedFrontmatterEnd } from "./Common.js"

// ---------------------------------------------------------------- purpose

export const purpose = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("purpose", ctx.disabledRules)
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
  const hasOverviewHeading = headingMatches(doc, SECTION_TOPICS.overview).length > 0
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

/** Each heading against the ones before it: a level skipped, an empty heading or section, a sibling repeated. */
const headingLevels = (o: Out, doc: CheckContext["doc"]): void => {
  const hs = doc.md.headings
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
  o.deductEach(skipped, 5, 15, "skipped heading levels", "skipped_level")
  o.deductEach(empty, 5, 15, "empty sections or headings", "empty_section")
  o.deductEach(dup, 5, 10, "duplicate headings", "duplicate_heading")
}

/** Tags around a sample (`<example>`, `<good>`, `<bad>`): a sample is no section of the document. */
const SAMPLE_TAG = /^(?:[\w-]*(?:example|sample)[\w-]*|good|bad|correct|incorrect|before|after)$/i

/**
 * Top-level sections written as XML tags (samples too, unless `samplesToo` is false): a line that is only an opening tag (`<instructions>`) and,
 * further down, a line that is only its closing tag, not inside another such section.
 */
export const xmlSections = (doc: Doc, samplesToo = true): number => {
  const lines = doc.split.lines
  // one pass for the lines that are only a closing tag, by tag: each opening then finds its own at once
  const closes = new Map<string, Array<number>>()
  for (let n = doc.md.bodyStartLine; n <= lines.length; n++) {
    const close = doc.md.inCode[n] ? null : /^\s*<\/([A-Za-z][\w-]*)>\s*$/.exec(lines[n - 1]!)
    if (close) closes.set(close[1]!.toLowerCase(), [...(closes.get(close[1]!.toLowerCase()) ?? []), n])
  }
  let count = 0
  for (let n = doc.md.bodyStartLine; n <= lines.length; n++) {
    if (doc.md.inCode[n]) continue
    const open = /^\s*<([A-Za-z][\w-]*)(?:\s[^<>]*)?>\s*$/.exec(lines[n - 1]!)
    const end = open ? closes.get(open[1]!.toLowerCase())?.find((k) => k > n) : undefined
    if (end === undefined || (!samplesToo && SAMPLE_TAG.test(open![1]!))) continue
    count++
    n = end
  }
  return count
}

/** Headings: none at all, no title or several, no sections; levels skipped, empty or repeated sections. */
const headingShape = (o: Out, { doc, artifactType }: CheckContext): void => {
  const hs = doc.md.headings
  const bodyLines = doc.bodyLineCount
  const usesXmlSections = /<([a-z_]+)>[\s\S]*?<\/\1>/.test(doc.body)
  const wantsTitle = artifactType === "skill" || artifactType === "agent" || artifactType === "workflow"
  if (hs.length === 0) {
    // a short body needs no sections, but still its title (what the apply adds)
    if (bodyLines <= 15 && wantsTitle && bodyLines > 0) {
      o.issue("no_title", "minor", bodyStart(doc), "No '# ' title heading", "Start the body with a '# Title' heading naming the artifact.")
      o.deduct(10, "no title")
    }
    // sections written as XML tags (`<instructions>`, `<examples>`, each on its own lines) are sections;
    // the title above them written as a plain line has lost its heading marks
    if (bodyLines > 15 && xmlSections(doc, false) >= 2) {
      o.note("no headings: sections written as XML tags")
      const title = plainTitle(doc)
      if (title !== null && wantsTitle) {
        o.issue("no_title", "minor", title.line, `The first line, ${quote(title.text)}, reads as a title but is plain text`, "Make it the '# ' title heading.")
        o.deduct(10, "no title")
      }
    } else if (bodyLines > 15 && !(artifactType === "prompt" && usesXmlSections)) {
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
    // sections written as XML tags (`<instructions>`, `<examples>`, `<edge_cases>`, each on its own lines) are sections;
    // a body of 80 lines or fewer reads whole (a short procedure, its rules and a sample under the title;
    // blind authors wrote 47-, 60- and 74-line skills so, all clear): sections would add headings, not structure
    // sections under a deeper level ("### Step 1" right under the title) are sections: the level skipped
    // is its own finding
    if (!hs.some((h) => h.level >= 2) && bodyLines > 80 && xmlSections(doc) < 2) {
      o.issue(
        "no_sections",
        "minor",
        bodyStart(doc),
        "A long document without '## ' sections",
        "Group the content into '## ' sections (e.g. Overview, Steps, Examples, Rules)."
      )
      o.deduct(15, "no sections")
    }
    headingLevels(o, doc)
  }
}

/** A document that stops before it is finished, or points at sections it never writes; or (no unfinished line) headings that show the end never came. */
const unfinished = (o: Out, { doc }: CheckContext): void => {
  const stepCount = Math.max(0, ...orderedLists(doc).map((l) => l.items.length))
  const cut = cutShort(doc, stepCount)
  for (const c of cut) {
    o.issue("cut_short", "major", c.line, `The document looks cut short: ${c.reason}`, "Finish the text: the last section, and every section the description and the opening promise.")
  }
  o.deductEach(cut.length, 40, 60, "the document stops before it is finished", "cut_short")
  // no unfinished line, but the headings show the end never came (a lesser sign: minor)
  const early = cut.length === 0 ? endsEarly(doc) : []
  for (const e of early) {
    o.issue("ends_early", "minor", e.line, `The document seems to stop early: ${e.reason}`, "Check the end of the file against the source: write the sections that are missing, or end the section where it is complete.")
  }
  o.deductEach(early.length, 25, 25, "the document seems to stop early", "ends_early")
  const promised = promisedSections(doc)
  for (const p of promised.slice(0, 5)) {
    o.issue("missing_section", "major", p.line, p.message ?? `The text points at ${p.what}, which the document does not have`, "Write that part, or drop the pointer to it.")
  }
  o.deductEach(promised.length, 25, 50, "pointers to sections that do not exist", "missing_section")
}

/** Parts run together: a list right after another list, a code block or a table, with nothing between. */
const partsRunTogether = (o: Out, { doc }: CheckContext): void => {
  const joined = runTogether(doc)
  for (const j of joined.slice(0, 5)) {
    if (j.section !== undefined) {
      o.issue(
        "run_together",
        "minor",
        j.block.start,
        j.block.kind === "table" || j.block.kind === "code"
          ? `The ${j.block.kind === "table" ? "table" : "code block"} on line ${j.list ?? j.block.start} sits in the section ${quote(j.section)}, after the section's own content (line ${j.after.start}): it ran into a section about something else, as if its heading was lost`
          : `The numbered procedure on line ${j.list ?? j.block.start} sits in the section ${quote(j.section)}, after its own content (line ${j.after.start}): the steps ran into a section about something else, as if their heading was lost`,
        j.block.kind === "ordered" ? "Give the procedure its own heading (## Steps, ## How to use)." : `Give the ${j.block.kind === "table" ? "table" : "code block"} its own heading, or a sentence that introduces it.`
      )
      continue
    }
    o.issue(
      "run_together",
      "minor",
      j.block.start,
      `A ${j.block.kind === "ordered" ? "numbered list" : j.block.kind === "table" ? "table" : "list"} starts right after ${j.after.kind === "code" ? "a code block" : j.after.kind === "table" ? "a table" : j.after.kind === "ordered" ? "a numbered list" : "another list"} (line ${j.after.start}) with no heading or lead-in between: two parts run together, as if a heading was lost`,
      "Give the second part its heading (## Rules, ## Steps, …) or a sentence that introduces it."
    )
  }
  o.deductEach(joined.length, 10, 30, "parts run together without a heading", "run_together")
}

/** A section said twice. */
const repeatedSections = (o: Out, { doc }: CheckContext): void => {
  const dupSections = duplicateSections(doc)
  for (const d of dupSections) {
    o.issue(
      "duplicate_section",
      "minor",
      d.section.heading,
      `The section ${quote(d.section.title)} repeats the section on line ${d.of.heading} (${quote(d.of.title)})`,
      "Delete the copy; say each thing once.",
      d.section.end
    )
  }
  o.deductEach(dupSections.length, 30, 45, "a repeated section", "duplicate_section")
}

/** A code block never closed: everything after it renders as code. */
const unclosedFences = (o: Out, { doc }: CheckContext): void => {
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
}

/** Balanced XML-style tags (only tags that are closed somewhere, so placeholders like <name> are ignored) */
const unbalancedTags = (o: Out, { doc }: CheckContext): void => {
  const opens = new Map<string, Array<number>>()
  const closes = new Map<string, Array<number>>()
  for (const [n, text] of doc.prose) {
    const re = /<(\/?)([A-Za-z][\w-]*)(\s[^<>]*)?>/g
    let m: RegExpExecArray | null
    while ((m = re.exec(text)) !== null) {
      if (m[0].endsWith("/>")) continue
      // an opening tag mid-sentence that does not close on its line names a section ("see <constraints>",
      // "per grant (<approval>)"); a tag opens a block at the start of its line or wraps words inline
      // (so does one that a hard wrap put first on its line, its sentence going on: "(see⏎<output_format>).")
      if (!m[1] && (text.slice(0, m.index).trim() !== "" || /^[)\].,;:!?]/.test(text.slice(m.index + m[0].length))) && !text.includes(`</${m[2]!}>`, m.index)) continue
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
  o.deductEach(unbalanced, 10, 20, "unbalanced tags", "unbalanced_tag")
}

/** The structure check's passes, in the order their findings are reported. */
const STRUCTURE_PASSES: ReadonlyArray<(o: Out, ctx: CheckContext) => void> = [
  headingShape,
  unfinished,
  partsRunTogether,
  repeatedSections,
  unclosedFences,
  unbalancedTags
]

/**
 * Lines of text (outside code) a section holds on average before each further line costs structure
 * (rubric 2026-11-29.4): a map with a heading for every six lines of text or so. Clean skills hold
 * 6.8 a section at the median on the corpora; a skill that lost every second heading holds twice what
 * it did (4.5 becomes 9), which a limit of 15 let pass in 35 of 303 pairs.
 */
export const LINES_PER_SECTION = 6
/** Each line of text a section holds on average over LINES_PER_SECTION costs half a point, at most 15. */
export const POINTS_PER_LINE = 0.5
/** The lines a section held before rubric 2026-11-29.4 took any: from there on the text read as walls. */
const WALLS_BEFORE_2026_11_29_4 = 15

/** The lines of text from `from` to `to` (1-based, inclusive): not blank, not code, not a heading. */
export const textLineCount = (doc: Doc, from: number, to: number): number => {
  const upTo = textLinesUpTo(doc)
  const last = doc.split.lines.length
  return to < from ? 0 : upTo[Math.min(Math.max(to, 0), last)]! - upTo[Math.min(Math.max(from - 1, 0), last)]!
}

/** For each line n, the lines of text from the body's start to n: counted once per document. */
const textLinesUpTo = (doc: Doc): ReadonlyArray<number> => {
  const known = TEXT_LINES.get(doc)
  if (known !== undefined) return known
  const headings = new Set(doc.md.headings.map((h) => h.line))
  const upTo = [0]
  for (let n = 1; n <= doc.split.lines.length; n++) {
    const text = n >= doc.md.bodyStartLine && !doc.md.inCode[n] && !headings.has(n) && doc.split.lines[n - 1]!.trim() !== ""
    upTo.push(upTo[n - 1]! + (text ? 1 : 0))
  }
  TEXT_LINES.set(doc, upTo)
  return upTo
}
const TEXT_LINES = new WeakMap<Doc, ReadonlyArray<number>>()

/** The document's sections: its headings below the title, and its sections written as XML tags. */
export const sectionCount = (doc: Doc): number => doc.md.headings.filter((h) => h.level >= 2).length + xmlSections(doc, false)

/**
 * What `text` lines under `sections` headings cost structure (rubric 2026-11-29.4): nothing up to
 * LINES_PER_SECTION a section, then half a point for each line a section over it, at most 15, so a
 * text with half the headings it had scores lower however short its sections were.
 */
export const sectionsCost = (text: number, sections: number): number => {
  const perSection = text / Math.max(sections, 1)
  return perSection <= LINES_PER_SECTION ? 0 : Math.min(15, Math.round(10 * POINTS_PER_LINE * (perSection - LINES_PER_SECTION)) / 10)
}

/**
 * Coverage (docs/rubrics.md): sections enough for the text, read after every finding's cost. Over 15
 * lines a section it has been asked since 2026-11-29 (3 points flat, then 3 at 15 and in proportion
 * above it from 2026-11-29.2); from 6 to 15, since 2026-11-29.4.
 */
const sectionsForLength = (o: Out, { doc }: CheckContext): void => {
  const sections = sectionCount(doc)
  const text = textLineCount(doc, doc.md.bodyStartLine, doc.split.lines.length)
  const points = sectionsCost(text, sections)
  if (points > 0) {
    const perSection = text / Math.max(sections, 1)
    const walls = perSection > WALLS_BEFORE_2026_11_29_4
    o.short(
      "no_sections",
      points,
      `${text} lines of text under ${sections} section heading(s), ${Math.round(perSection * 10) / 10} a section (more than ${LINES_PER_SECTION})`,
      walls ? RUBRIC_VERSION_2026_11_29 : RUBRIC_VERSION_2026_11_29_4,
      walls
        ? [
          { version: RUBRIC_VERSION_2026_11_29_2, points: 3 },
          { version: RUBRIC_VERSION_2026_11_29_4, points: Math.min(15, Math.round((30 * perSection) / WALLS_BEFORE_2026_11_29_4) / 10) }
        ]
        : undefined
    )
  }
}

export const structure = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("structure", ctx.disabledRules)
  for (const pass of STRUCTURE_PASSES) pass(o, ctx)
  if (o.deductions.length === 0) o.note(`${ctx.doc.md.headings.length} headings in a consistent hierarchy`)
  sectionsForLength(o, ctx)
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

export const length = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("length", ctx.disabledRules)
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
    // within the budget: a note, not a defect
    o.issue("long", "info", 1, `Long: ${facts}`, "Move background material into reference files.", lines)
    o.deduct(10, "near the length budget")
  }
  // bloat: the same paragraph twice, in nearly the same words
  const dups = nearDuplicateParagraphs(doc)
  for (const d of dups.slice(0, 5)) {
    o.issue(
      "near_duplicate",
      "minor",
      d.paragraph.start,
      `This paragraph says again what the paragraph on line ${d.of.start} says`,
      "Keep one of them: repetition costs context and blurs which wording is meant.",
      d.paragraph.end
    )
  }
  o.deductEach(dups.length, 25, 50, "near-duplicate paragraphs", "near_duplicate")
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

/** The words before a path that make it the thing to remove: "Replace", "instead of", "never hard-code", "not". */
const SCRUBBED = /\b(?:replace|remove|strip|scrub|redact|avoid|instead of|rather than|not|never|hard-?code[sd]?)\s+(?:(?:any|all|every|each|the|a|paths?|like|such as)\s+)*[`"'(]?$/i

export const formatting = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("formatting", ctx.disabledRules)
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
    // a user's folder by name: `C:\Users\*\AppData` or `/home/*/` matches every user's, a pattern, not a machine's path
    const m = lines[n - 1]!.match(/(?:^|[\s`"'(])((?:\/Users|\/home)\/[A-Za-z0-9._-]+|[A-Z]:\\(?:Users|Documents and Settings)\\[A-Za-z0-9._-]+)/)
    // a path named as what to scrub ("Replace `/Users/jane/…` with a path relative to the repo", "never
    // hard-code `/home/ci/…`") is the mistake the text fixes, not a path it relies on
    if (m && !SCRUBBED.test(lines[n - 1]!.slice(0, m.index! + 1))) {
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

/**
 * Lines (outside frontmatter and code) with trailing whitespace that is not a two-space hard break. A
 * frontmatter opened and never closed is frontmatter still: its YAML lines are not the body's.
 */
export const trailingWhitespaceLines = (doc: Doc): Array<number> => {
  const out: Array<number> = []
  const lines = doc.split.lines
  for (let n = Math.max(bodyStart(doc), (unclosedFrontmatterEnd(doc) ?? 0) + 1); n <= lines.length; n++) {
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
