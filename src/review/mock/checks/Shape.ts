/**
 * Detectors for the shape of a document, shared by the checks that score them and the improved
 * version that repairs them (a numbered procedure run together into one paragraph: Flattened.ts;
 * code taught without a code block: Teaching.ts): a body that stops before it is finished or points at sections it never
 * writes, heading text that lost its `#` (sections and paragraphs said twice: Repeats.ts; parts of a
 * section run together: RunTogether.ts).
 */
import { plainText } from "../../../markdown/Markdown.js"
import { CLOSING_TITLE, FILE_TITLE, isStepHeading, NUMBERED_TITLE, sectionRole, STEP_HEADING } from "../../../markdown/Sections.js"
import type { Doc } from "../../../markdown/Document.js"
import { isImperative } from "../../../markdown/Instructions.js"
import { perDoc } from "../../../markdown/PerDoc.js"
import { MISSING_MARKS } from "../../../markdown/BundleRefs.js"
import { isInlineCommand } from "./Teaching.js"
import { headingAbove } from "./Common.js"
import { endsWithColon } from "./Words.js"

// ---------------------------------------------------------------- cut short

export interface CutShort {
  readonly line: number
  readonly reason: string
}

const WORD_NUMBERS: Record<string, number> = { three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 }

/** Whether a prose line before line n says the count (as a digit or a word). */
const saidBefore = (doc: Doc, n: number, count: number): boolean => {
  const word = Object.entries(WORD_NUMBERS).find(([, v]) => v === count)?.[0]
  const said = new RegExp(`\\b(?:${count}${word ? `|${word}` : ""})\\b`, "i")
  return doc.prose.some(([k, t]) => k < n && said.test(t))
}

/** Signs the document stops before it is finished. */
export const cutShort = (doc: Doc, steps: number): Array<CutShort> => {
  const out: Array<CutShort> = []
  const lines = doc.split.lines
  const headingLines = new Set(doc.md.headings.map((h) => h.line))
  // the last line of content
  let last = lines.length
  while (last >= doc.md.bodyStartLine && lines[last - 1]!.trim() === "") last--
  if (last >= doc.md.bodyStartLine && !doc.md.inCode[last] && !headingLines.has(last)) {
    const text = lines[last - 1]!.trim()
    const isItem = /^([-*+]|\d{1,4}[.)])\s/.test(text)
    const plain = plainText(text.replace(/^([-*+]|\d{1,4}[.)])\s+/, ""))
    const words = plain.split(/\s+/).filter((w) => w !== "")
    if (endsWithColon(text)) out.push({ line: last, reason: "it ends on a line that announces something (\":\") that never comes" })
    // a keyword list ("a, b, c, d") is not a sentence
    // a labelled sample ("Example: `feat: add x`") or a line ending in code or a brace is not prose
    // a closing credit or link line ("Learn more: https://…", "Powered by …") ends a document too
    else if (!/^(\||<|>|\[)/.test(text) && !/^[A-Z][\w ]{0,20}:\s/.test(plain) && !/[`}\])]$/.test(text) && !endsWithLink(text) &&
      plain.split(",").length < 4 && words.length >= 4 && !/[.!?)"'`*_\]>:;}]$/.test(plain) && (!isItem || /\b(the|a|an|to|and|or|of|with|for|in|on|at|by|from|then|that|this|your|its)$/i.test(plain))) {
      out.push({ line: last, reason: "the last sentence stops mid-way" })
    }
  }
  // a tag opened on a line of its own (`<example>`) and never closed: the text stops inside it
  const open = openTagAtEnd(doc)
  if (open) out.push({ line: open.line, reason: `it stops inside <${open.tag}>, which is opened on line ${open.line} and never closed` })
  // "the five steps below", "follow these 6 steps": more steps promised than written, as list items or
  // as headings of the word promised ("in five phases" and "## Phase 1" to "## Phase 5")
  for (const [n, text] of doc.prose) {
    const m = /\b(?:these|the following|the|follow(?:ing)?|in)\s+(\d{1,2}|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(steps|phases|stages)\b/i.exec(text)
    if (!m) continue
    const promised = /^\d+$/.test(m[1]!) ? Number(m[1]) : WORD_NUMBERS[m[1]!.toLowerCase()]!
    // "which of the four steps failed", after "every hop does four things": "the" with a count said
    // before names what came; it promises nothing more
    if (/^the\b/i.test(m[0]) && saidBefore(doc, n, promised)) continue
    const noun = m[2]!.toLowerCase().slice(0, -1)
    // the list the promise leads into gives them too ("Each of the three steps in `onMutate` is there
    // for a reason:" over three bullets, one per step)
    const given = Math.max(steps, itemsLedInto(doc, n), doc.md.headings.filter((h) => STEP_HEADING.exec(plainText(h.text))?.groups?.["label"]?.toLowerCase() === noun).length)
    if (promised >= 3 && given < promised) out.push({ line: n, reason: `it promises ${promised} ${m[2]!.toLowerCase()} and gives ${given}` })
  }
  // "This skill covers three cases." over "## Case 1" and "## Case 2": parts promised by count and
  // numbered in headings of that word, fewer than promised
  for (const [n, text] of doc.prose) {
    const m = /\b(\d{1,2}|three|four|five|six|seven|eight|nine|ten)\s+(cases|parts|scenarios|options)\b/i.exec(text)
    if (!m) continue
    const promised = /^\d+$/.test(m[1]!) ? Number(m[1]) : WORD_NUMBERS[m[1]!.toLowerCase()]!
    const noun = m[2]!.toLowerCase().slice(0, -1)
    const given = doc.md.headings.filter((h) => new RegExp(`^${noun}\\s+\\d{1,2}\\b`, "i").test(plainText(h.text))).length
    if (promised >= 3 && given > 0 && given < promised) out.push({ line: n, reason: `it promises ${promised} ${m[2]!.toLowerCase()} and gives ${given}` })
  }
  const input = inputWithoutOutput(doc)
  if (input !== null) out.push({ line: input, reason: "its last example gives an input (\"Input …\") and never the output it leads to" })
  return out
}

/** An example's input, labelled as one ("Input:", "**Input** (`examples/orders.csv`):", "Input `daily_revenue`"). */
const INPUT_LABEL = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?Input(?:\*\*|__)?(?=\s*(?:[:(`]|\*\*|$))/
/**
 * Its output, labelled: "Output:", "**Expected output**", "Example output", or under a name of its
 * own in the bold label form ("**What the draft should do:**", "**Result:**").
 */
const OUTPUT_LABEL = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:example\s+|expected\s+)?output\b|^\s*(?:[-*+]\s+)?(?:\*\*|__)(?!input\b)[^*_\n]{2,40}?:(?:\*\*|__)|^\s*(?:[-*+]\s+)?(?:\*\*|__)(?!input\b)[^*_\n]{2,40}?(?:\*\*|__):/i

/**
 * The line of the last labelled example input when no output label follows it anywhere: the example
 * stops at its input. Good skills pair every "Input:" with its "Output:"; a text that stopped early
 * often ends between the two. An "Input requirements" list or "Input formats are …" is no label.
 */
const inputWithoutOutput = (doc: Doc): number | null => {
  const lines = doc.split.lines
  let input: number | null = null
  for (let n = doc.md.bodyStartLine; n <= lines.length; n++) {
    if (doc.md.inCode[n]) continue
    // "Input: … Output: …" on one line is the pair whole
    if (INPUT_LABEL.test(lines[n - 1]!)) input = /\boutput\b/i.test(lines[n - 1]!.replace(INPUT_LABEL, "")) ? null : n
    else if (input !== null && OUTPUT_LABEL.test(lines[n - 1]!)) input = null
  }
  return input
}

/** The top-level items of the list that line n leads into (the list right below its paragraph), or 0. */
const itemsLedInto = (doc: Doc, n: number): number => {
  const lines = doc.split.lines
  let k = n + 1
  while (k <= lines.length && lines[k - 1]!.trim() !== "" && !/^\s*([-*+]|\d{1,3}[.)])\s/.test(lines[k - 1]!)) k++
  while (k <= lines.length && lines[k - 1]!.trim() === "") k++
  const first = doc.md.listItems.find((i) => i.line === k && !doc.md.inCode[k])
  if (!first) return 0
  let count = 0
  for (const it of doc.md.listItems) {
    if (it.line < k || it.indent !== first.indent) continue
    // the list ends at a heading or at a line back at the margin that is not one of its items
    const between = lines.slice(k - 1, it.line - 1)
    if (between.some((l, j) => /^#{1,6}\s/.test(l) || (/^\S/.test(l) && !doc.md.listItems.some((x) => x.line === k + j)))) break
    count++
  }
  return count
}

const VOID_TAG = /^(?:br|hr|img|input|meta|link|wbr|source|col|area|base|embed|param|track)$/i

/** The last tag opened alone on its line outside code (`<example>`), when no `</example>` comes after it. */
const openTagAtEnd = (doc: Doc): { readonly line: number; readonly tag: string } | null => {
  const lines = doc.split.lines
  const closed = new Set<string>()
  for (let n = lines.length; n >= doc.md.bodyStartLine; n--) {
    if (doc.md.inCode[n]) continue
    const l = lines[n - 1]!
    if (!l.includes("<")) continue
    for (const c of l.matchAll(/<\/([A-Za-z][\w-]*)\s*>/g)) closed.add(c[1]!.toLowerCase())
    const m = /^\s*<([A-Za-z][\w-]*)(?:\s[^<>]*)?>\s*$/.exec(l)
    if (m && !VOID_TAG.test(m[1]!)) return closed.has(m[1]!.toLowerCase()) ? null : { line: n, tag: m[1]! }
  }
  return null
}

/**
 * Signs that a document stops early at a paragraph break, where no line is left unfinished: read from
 * its headings, not its wording.
 * - It ends in the only subsection of its last section: a section opens a level of subsections and the
 *   file stops after the first (a file name as a heading, "### scripts/run.py", lists a resource).
 * - It ends in the last of three or more sibling sections (four at the top level) that lacks a part every earlier sibling has:
 *   a list, a table, a labelled part ("**Approach:**"), or, below the top level, a code block. Sibling
 *   sections written to one pattern (use cases, phases, patterns) keep it to the last one. A section
 *   after a numbered run, or an output section showing its result in a block or a table, closes the
 *   document and is no member of the run.
 * - It ends inside its numbered procedure: the last step heading reached from the last heading up
 *   neither reports, checks, hands over nor closes the work (`cutInsideSteps`).
 * Each is one finding at the last heading, with what is missing.
 */
export const endsEarly = perDoc((doc: Doc): Array<CutShort> => endsEarlyWith(doc, doc.md.headings))

/**
 * Whether a heading a repair would add at `line` (on the blank line above a part) makes a document
 * that did not look cut short look so: a heading that completes a run of sibling sections can make the
 * last one look cut.
 */
export const looksCutAdding = (doc: Doc, line: number, level: number, text: string): boolean =>
  endsEarly(doc).length === 0 && endsEarlyWith(doc, [...doc.md.headings, { line, level, text }].sort((a, b) => a.line - b.line)).length > 0

const endsEarlyWith = (doc: Doc, hs: ReadonlyArray<{ readonly line: number; readonly level: number; readonly text: string }>): Array<CutShort> => {
  const out: Array<CutShort> = []
  if (hs.length < 3) return out
  const lines = doc.split.lines
  const parent = hs.map((h, i) => {
    for (let j = i - 1; j >= 0; j--) if (hs[j]!.level < h.level) return j
    return -1
  })
  const last = hs.length - 1
  const p = parent[last]!
  const title = (i: number) => quoteShort(plainText(hs[i]!.text))
  if (p >= 0 && hs[p]!.level > 1 && parent.filter((x) => x === p).length === 1 && !FILE_TITLE.test(plainText(hs[last]!.text).replace(MISSING_MARKS, ""))) {
    out.push({ line: hs[last]!.line, reason: `its last section, ${title(p)}, has one subsection, ${title(last)}, and the file ends there: the subsections that should follow it are missing` })
    return out
  }
  const cut = cutInsideSteps(hs, parent)
  if (cut !== null && !closedInBody(doc, hs[cut]!.line)) return [{ line: hs[cut]!.line, reason: `its last section, ${title(cut)}, is a step of a numbered procedure, and nothing after it reports, checks, hands over or closes the work: the steps that should follow it are missing` }]
  // the lines of a section, its subsections included
  const sectionLines = (i: number): Array<number> => {
    const end = (hs.slice(i + 1).find((x) => x.level <= hs[i]!.level)?.line ?? lines.length + 1) - 1
    return Array.from({ length: Math.max(0, end - hs[i]!.line) }, (_, k) => hs[i]!.line + 1 + k)
  }
  // the parts of a section, its subsections included
  // `inline`: a list written in a sentence counts (for the last section: what it lacks, it lacks in every
  // form); the earlier siblings' pattern is read from their marked parts only
  const partsOf = (i: number, top: boolean, inline = false): Set<string> => {
    const parts = new Set<string>()
    for (const n of sectionLines(i)) {
      const l = lines[n - 1]!
      if (doc.md.inCode[n]) {
        // closing parts (resources, rules) at the top level rarely show code: only nested siblings count it
        if (!top) parts.add("a code block")
        continue
      }
      if (/^\s*\|/.test(l)) parts.add("a table")
      else if (/^\s*(?:[-*+]|\d{1,3}[.)])\s/.test(l) || (inline && inlineList(l))) parts.add("a list")
      const label = /^\s*(?:[-*+]\s+)?(?:\*\*|__)([^*_]{2,30}?):?(?:\*\*|__)/.exec(l)
      if (label) parts.add(`the part "${label[1]!.replace(/:$/, "")}"`)
    }
    return parts
  }
  // the parts of a section with its code blocks counted at every level, read once per section
  const nested = new Map<number, Set<string>>()
  const blocksIn = (i: number): Set<string> => nested.get(i) ?? nested.set(i, partsOf(i, false)).get(i)!
  // from the last heading up through its parents: the last of a run of siblings
  for (let i = last; i >= 0; i = parent[i]!) {
    const siblings = hs.map((_, j) => j).filter((j) => parent[j] === parent[i] && hs[j]!.level === hs[i]!.level)
    const top = parent[i]! < 0 || hs[parent[i]!]!.level === 1
    // top-level sections are of many kinds: a shared part is a pattern only over three of them at least
    // a run of numbered sections ("Phase 1" to "Phase 3") ends at its last number: an unnumbered section
    // after it ("If something goes wrong") closes the document, it is no member of the run
    const numbered = (j: number) => NUMBERED_TITLE.test(plainText(hs[j]!.text))
    // so does the output section that shows the result in a block or a table ("## Output", a template
    // under it): the document ends on what it produces, complete in its own form
    const shown = (j: number) => blocksIn(j).has("a code block") || blocksIn(j).has("a table")
    // and so does a section that closes the work ("## Cleanup"): an act of its own, in a form of its own
    const closing = (!numbered(i) && siblings.slice(0, -1).every(numbered)) || (sectionRole(hs[i]!.text) === "outputs" && (shown(i) || instructs(doc, hs[i]!.line, hs[i + 1]?.line ?? lines.length + 1))) ||
      CLOSING_TITLE.test(plainText(hs[i]!.text))
    // the sections after a numbered run ("Common mistakes", "Cleanup") close the document: their own
    // pattern is read among them, not from the run's steps
    const lastNumbered = siblings.map(numbered).lastIndexOf(true)
    const run = siblings.filter(numbered).length >= 2
    const members = !numbered(i) && run ? siblings.slice(lastNumbered + 1) : siblings
    if (members.length >= (top ? 4 : 3) && members[members.length - 1] === i && !closing) {
      const earlier = members.slice(0, -1).map((j) => partsOf(j, top))
      const mine = partsOf(i, top, true)
      // three sentences of instructions or more in a row ("Print it in large type. Don't read it from a
      // phone. Pause after each laugh line.") are a list of tips written as prose: the last section has it
      if (instructions(doc, hs[i]!.line, hs[i + 1]?.line ?? lines.length + 1) >= 3) mine.add("a list")
      const lacking = [...earlier[0]!].filter((x) => earlier.every((e) => e.has(x)) && !mine.has(x))
      // a last section with a block of its own that none before it has (the script's commands after a
      // cheat sheet of tables, a list of habits after them, the sample write-up quoted after steps of
      // lists) is another kind of section, complete in its own form, not a cut member
      const quoted = (j: number) => sectionLines(j).some((n) => !doc.md.inCode[n] && /^\s*>/.test(lines[n - 1]!))
      const ownForm = [...blocksIn(i)].some((x) => /^a (code block|table|list)$/.test(x) && !members.slice(0, -1).some((j) => blocksIn(j).has(x))) ||
        (quoted(i) && !members.slice(0, -1).some(quoted))
      if (lacking.length > 0 && !ownForm) {
        out.push({ line: hs[i]!.line, reason: `its last section, ${title(i)}, lacks ${lacking.slice(0, 3).join(", ")}, which each of the ${earlier.length} sections before it at its level has` })
        break
      }
    }
    if (parent[i]! < 0) break
  }
  return out
}

/**
 * A step that finishes a procedure, by its title: it reports, records, hands over, checks or closes
 * the work ("Step 6: Report", "5. Hand off to the operator", "Phase 5: Close out", "6. Verify"), or
 * is a section of another role at the run's end ("6. Limits", its troubleshooting, its checklist).
 */
const FINISHING_STEP =
  /^(?:report\w*|document\w*|record\w*|write|present\w*|publish\w*|submit\w*|send|deliver\w*|hand(?:-?off|-?over)?|return\w*|file|clos\w*|clean\w*|wrap\w*|finish\w*|sign(?:-?off)?|notify|escalat\w*|archiv\w*|log|check\w*|verif\w*|confirm\w*|validat\w*|review\w*|test\w*|summar\w*|limits?|boundar\w*)\b/i
const finishes = (text: string): boolean => {
  const t = plainText(text).replace(STEP_HEADING, "").trim()
  return FINISHING_STEP.test(t) || CLOSING_TITLE.test(t) || ["verification", "outputs", "failure", "rules", "reference", "examples"].includes(sectionRole(text))
}

/**
 * The document ends inside a numbered procedure: its last heading, or the section it sits in, is the
 * last of a run of step headings, and no finishing step. A procedure ends on what it delivers or
 * how its result is checked (every clean skill that ends on a step heading, 18 of 584, ends so).
 */
const cutInsideSteps = (hs: ReadonlyArray<{ readonly line: number; readonly level: number; readonly text: string }>, parent: ReadonlyArray<number>): number | null => {
  // the last heading, or the step it sits in ("### Continuous metrics" under "## Phase 2")
  for (let i = hs.length - 1; i >= 0; i = parent[i]!) {
    if (isStepHeading(hs[i]!.text)) {
      const run = hs.filter((h, j) => parent[j] === parent[i] && h.level === hs[i]!.level && isStepHeading(h.text))
      return run.length >= 2 && !finishes(hs[i]!.text) ? i : null
    }
    if (parent[i]! < 0) return null
  }
  return null
}

/**
 * The last step's own text closes the work: a sentence that opens on "Finally," or "Lastly," ("Finally,
 * give the user a short timeline: …") after the step's body. The step is the procedure's last, written out.
 */
const closedInBody = (doc: Doc, from: number): boolean =>
  doc.prose.some(([n, t]) => n > from && /(?:^|[.!?:]\s+)(?:\*\*|__)?(?:finally|lastly|to finish|to close)\b[,:]?/i.test(t.replace(/^\s*(?:[-*+]|\d{1,3}[.)])\s+/, "")))

/** The sentences of instructions in the prose between two lines ("Store raw responses apart. Save each record with its URL." is two). */
const instructions = (doc: Doc, from: number, to: number): number =>
  doc.prose.filter(([n]) => n > from && n < to).map(([, t]) => t.trim()).join(" ").split(/(?<=[.!?])\s+(?=[A-Z])/).filter((x) => isImperative(x) === true).length

/** Two sentences or more of instructions between two lines: a section stating what to do, complete. */
const instructs = (doc: Doc, from: number, to: number): boolean => instructions(doc, from, to) >= 2

/**
 * A list written in a sentence: a colon, "with" or "including", then three or more items separated by
 * commas or semicolons ("End with: the count, the patterns fixed, and every suppression added.",
 * "Return the guide with the sections above, the decision at the top, and a short list of …"). The
 * items are there.
 */
const inlineList = (line: string): boolean => {
  const opener = /: | with | including /.exec(line)
  if (opener === null) return false
  return line.slice(opener.index + opener[0].length).replace(/\([^()]*\)/g, "").split(/[,;]/).filter((x) => x.trim() !== "").length >= 3
}

/** The last word is a URL or an e-mail address (read without a regex over the whole line: lines can be huge). */
const endsWithLink = (text: string): boolean => {
  const last = text.slice(text.lastIndexOf(" ") + 1)
  const at = last.indexOf("@")
  return last.startsWith("http://") || last.startsWith("https://") || (at > 0 && last.indexOf(".", at) > at + 1)
}

export interface Promised {
  readonly line: number
  readonly what: string
  /** the finding's text, when "The text points at <what>" does not say it */
  readonly message?: string
}

// "see/read/follow the X section" points into this document; "in/under the X section" only with
// "below" or "above" ("in the Features section" is as often a section of the output)
const POINTER =
  /\b(?:(?:[Ss]ee|[Ff]ollow|[Rr]ead) (?:the )?["“]?([A-Z][\w /&-]{2,40}?)["”]? section(?: below)?|(?:[Ii]n|[Uu]nder|[Uu]se|[Cc]heck) (?:the )?["“]?([A-Z][\w /&-]{2,40}?)["”]? section (?:below|above))\b|\b(?:the|these) (steps|examples?|table|template|checklist|commands?|rules|format|shape|structure|layout|outline|skeleton) (?:below|that follows?)\b|\b(?:described|explained|covered|listed|shown|detailed|see) below\b/g

/** A section named in quotes with where it is, without the word "section": `(see "Review" below)`. */
const QUOTED_POINTER = /\b(?:[Ss]ee|[Ff]ollow|[Rr]ead|[Ii]n|[Uu]nder) (?:the )?["“]([A-Z][\w /&-]{2,40}?)["”] (?:below|above)\b/g

/** A line that shows content, not prose: a list item, a table row, a quote, a tag. */
const SHOWS = /^\s*(?:[-*+]|\d{1,3}[.)]|\||>|<\w)/

/** Pointers at content that is not there: "see the Troubleshooting section", "the steps below". */
export const promisedSections = (doc: Doc): Array<Promised> => {
  const out: Array<Promised> = []
  const headings = doc.md.headings
  const lastLine = doc.split.lines.length
  const leadIns = emptyLeadIns(doc)
  // the section holding line n: from its heading (or the body's start) to the next heading
  const sectionAround = (n: number) => ({ start: headingAbove(doc, n)?.line ?? doc.md.bodyStartLine, end: headings.find((h) => h.line > n)?.line ?? lastLine + 1 })
  for (const [n, text] of doc.prose) {
    for (const q of text.matchAll(QUOTED_POINTER)) {
      const name = q[1]!.toLowerCase()
      if (!headings.some((h) => plainText(h.text).toLowerCase().includes(name))) out.push({ line: n, what: `the "${q[1]!}" section` })
    }
    POINTER.lastIndex = 0
    let m: RegExpExecArray | null
    while ((m = POINTER.exec(text)) !== null) {
      const after = (line: number) => line > n
      const section = m[1] ?? m[2]
      if (section) {
        const name = section.toLowerCase().replace(/^the /, "")
        const found = headings.some((h) => plainText(h.text).toLowerCase().includes(name) || name.includes(plainText(h.text).toLowerCase()))
        // a name in capitals where no heading is ("Read the DATA PROBLEMS section" of the report a script
        // prints): a section of what a tool writes, not of this document
        const printed = /^[A-Z0-9 /&-]+$/.test(section) && /[A-Z]{2}/.test(section) && !headings.some((h) => !/[a-z]/.test(plainText(h.text)))
        if (!found && !printed) out.push({ line: n, what: `the "${section}" section` })
      } else if (m[3]) {
        const kind = m[3].toLowerCase()
        const ok = /^step/.test(kind) || /^rule/.test(kind) || /^checklist/.test(kind)
          ? doc.md.listItems.some((i) => after(i.line))
          : /^example|^command|^template/.test(kind)
          ? doc.md.codeBlocks.some((b) => after(b.startLine)) || headings.some((h) => after(h.line) && /example|template/i.test(h.text))
          : /^table/.test(kind)
          ? doc.split.lines.some((l, i) => after(i + 1) && /^\s*\|/.test(l))
          // a shape is shown in a block, an example tag, a table or a quote, or under a heading naming it
          : /^(format|shape|structure|layout|outline|skeleton)/.test(kind)
          ? doc.md.codeBlocks.some((b) => after(b.startLine)) || doc.exampleBlocks.some((b) => after(b.start)) ||
            doc.split.lines.some((l, i) => after(i + 1) && !doc.md.inCode[i + 1] && /^\s*[|>]/.test(l)) ||
            headings.some((h) => after(h.line) && /example|template|format|shape|structure|layout|outline|skeleton/i.test(h.text))
          : true
        if (!ok) out.push({ line: n, what: `the ${kind} below` })
      } else {
        // "described below" with nothing below but blank lines
        const rest = doc.split.lines.slice(n).filter((l) => l.trim() !== "")
        if (rest.length === 0 && n < lastLine + 1) out.push({ line: n, what: "what it says is below" })
      }
    }
    // a lead-in ("Run:", "**Implementation:**", "2. **Run the script:**") followed by nothing it could
    // introduce: the next heading closes its section, or the next step of its list comes at once
    const lead = leadIns.get(n)
    if (lead) {
      out.push({
        line: n,
        what: "content it introduces",
        message: `The line ${quoteShort(plainText(doc.split.lines[n - 1]!.trim()))} introduces something (it ends with ":"), but ${lead}: what it introduced is missing`
      })
      continue
    }
    // "the following command", "as follows": what is announced comes right after, before the next
    // heading, as a code block, a list, a table, a quote or an indented block (or on the same line)
    // "a posting built from this template." points back at what was shown: a preposition governs it
    const announced = ANNOUNCE.exec(text)
    const back = announced !== null && /^(?:this|these)\b/i.test(announced[0].trim()) && /\b(?:from|in|of|with|using|on|by|into|after|like)\s+$/i.test(text.slice(0, announced.index))
    if (announced && !back && !/`[^`]+`|\]\(/.test(doc.split.lines[n - 1]!.slice(announced.index + announced[0].length))) {
      const next = headings.find((h) => h.line > n)?.line ?? lastLine + 1
      let shown = false
      for (let k = n + 1; k < next && !shown; k++) {
        const l = doc.split.lines[k - 1]!
        shown = doc.md.inCode[k] === true || SHOWS.test(l) || /^ {4,}\S/.test(l)
      }
      if (!shown) out.push({ line: n, what: `the ${(announced[1] ?? "content").toLowerCase()} it announces` })
      continue
    }
    // "The memo must follow this structure. Sections with nothing to report say …": a shape announced
    // mid-line, in a section that shows none anywhere (no block, table, list or quote above or below it)
    // (a sample in inline code on the line, "Write `2024-05-01 Fixed the cart`", is the shape itself)
    const mid = ANNOUNCE_MID.exec(text)
    if (mid && !doc.md.inlineCode.some((c) => c.line === n)) {
      const { start, end } = sectionAround(n)
      let shown = false
      for (let k = start + 1; k < end && !shown; k++) {
        shown = k !== n && (doc.md.inCode[k] === true || SHOWS.test(doc.split.lines[k - 1]!))
      }
      if (!shown) out.push({ line: n, what: `the ${mid[1]!.toLowerCase()} it announces` })
    }
    // "both commands exit 0" in a section that shows fewer commands than it counts (in blocks or inline)
    const counted = COUNTED_COMMANDS.exec(text)
    if (counted) {
      const want = (counted[1] ?? counted[2]!).toLowerCase() === "three" ? 3 : 2
      const { start, end } = sectionAround(n)
      let shown = 0
      for (let k = start + 1; k < end && shown < want; k++) {
        if (doc.md.inCode[k]) shown += doc.split.lines[k - 1]!.trim() !== "" && !/^\s*(```|~~~)/.test(doc.split.lines[k - 1]!) ? 1 : 0
      }
      shown += doc.md.inlineCode.filter((c) => c.line > start && c.line < end && isInlineCommand(c.text.trim())).length
      if (shown < want) out.push({ line: n, what: `the ${want === 2 ? "two" : "three"} commands it counts` })
    }
  }
  out.push(...emptyTemplates(doc))
  return out
}

/**
 * A section headed as a template ("## Letter templates", "### Report template") that has text but no
 * template in any form: no code block, table, list, quote, example tag, subsection or linked file. Its
 * heading promises what the section does not show.
 */
const emptyTemplates = (doc: Doc): Array<Promised> => {
  const headings = doc.md.headings
  return headings.flatMap((h, i) => {
    if (h.level < 2 || !/\btemplates?$/i.test(plainText(h.text).trim())) return []
    const end = headings[i + 1]?.line ?? doc.split.lines.length + 1
    const own = doc.split.lines.slice(h.line, end - 1)
    const shown = own.some((l, k) => doc.md.inCode[h.line + 1 + k] === true || SHOWS.test(l) || /\]\(|`[^`\s]+\.\w{1,5}`/.test(l)) ||
      (headings[i + 1] !== undefined && headings[i + 1]!.level > h.level)
    // a heading with nothing under it groups the sections after it ("## Workflow: Finding and Using Templates")
    const empty = own.every((l) => l.trim() === "")
    const title = plainText(h.text).trim()
    return shown || empty ? [] : [{ line: h.line, what: "its template", message: `The section ${quoteShort(title)} is headed as a template but holds none: no block, table, list or linked file shows it` }]
  })
}

/** Commands counted in a sentence: "both commands", "the two commands", "all three commands". */
const COUNTED_COMMANDS = /\b(?:(both)|(?:the|these|all) (two|three)) commands\b/i

const quoteShort = (s: string) => JSON.stringify(s.length > 50 ? `${s.slice(0, 49)}…` : s)

/**
 * Lead-ins with nothing to lead into: a line ending with ":" (outside code, tables and quotes) whose
 * next content is a heading above its own section's level, or of its level after a label or a list
 * item (a subsection would be what it introduces), or, for a list item, the next item of its list or
 * of a list around it. By line, with what comes instead. The last line of the file is `cutShort`'s.
 */
export const emptyLeadIns = perDoc((doc: Doc): Map<number, string> => {
  const out = new Map<number, string>()
  const lines = doc.split.lines
  const headingAt = new Map(doc.md.headings.map((h) => [h.line, h] as const))
  const itemAt = new Map(doc.md.listItems.map((i) => [i.line, i] as const))
  const sectionLevel = (n: number) => headingAbove(doc, n)?.level ?? 0
  for (const [n] of doc.prose) {
    // the line as written: a colon inside code at its end ("- `name:`") is code, not a lead-in
    const text = lines[n - 1]!
    if (headingAt.has(n) || !endsWithColon(text) || /^\s*(\||>|<)/.test(text)) continue
    const section = sectionLevel(n)
    let k = n + 1
    while (k <= lines.length && lines[k - 1]!.trim() === "" && !doc.md.inCode[k]) k++
    if (k > lines.length) continue
    const next = headingAt.get(k)
    const item = itemAt.get(n)
    const nextItem = itemAt.get(k)
    // a sentence ("The skill has three phases:") may introduce the sibling sections that follow it when
    // their levels are flat; a label ("**Implementation:**") or a step introduces content of its own
    const label = item !== undefined || /^\s*(\*\*|__)/.test(text)
    if (next && (next.level < section || (label && (section === 0 || next.level === section)))) out.set(n, `the heading ${quoteShort(plainText(next.text))} comes next`)
    else if (item && nextItem && !doc.md.inCode[k] && nextItem.indent <= item.indent) out.set(n, "the next item comes at once")
  }
  return out
})

/** A shape announced in the middle of a line: "must follow this structure. Sections with nothing to report say …". */
const ANNOUNCE_MID = /\b(?:follow(?:s|ing)? this|the following) (structure|format|template|layout|schema|outline)\s*[.:](?=\s+\S)/i
/** An announcement of content that must follow it. */
const ANNOUNCE = /\b(?:the following|these|this) (code|commands?|examples?|snippets?|output|query|queries|script|configuration|template|format|structure|layout|schema|pattern|syntax)(?: (?:below|looks like|is))?\s*[:.]\s*$|\bas follows\s*[:.]?\s*$/i

// ---------------------------------------------------------------- heading text without its #

/**
 * Lines that read like headings but are not marked as such: short, standing alone between blank lines,
 * without a sentence's final punctuation, followed by content. For a document whose headings lost
 * their `#`.
 */
export const unmarkedHeadings = (doc: Doc): Array<{ readonly line: number; readonly text: string }> => {
  const out: Array<{ line: number; text: string }> = []
  const lines = doc.split.lines
  const listLines = new Set(doc.md.listItems.map((i) => i.line))
  const headingLines = new Set(doc.md.headings.map((h) => h.line))
  for (let n = doc.md.bodyStartLine; n <= lines.length; n++) {
    if (doc.md.inCode[n] || listLines.has(n) || headingLines.has(n)) continue
    const t = lines[n - 1]!.trim()
    if (t === "" || /^(\||>|<|!|\[|```|~~~|-{3,}|\*{3,})/.test(t)) continue
    const before = n === doc.md.bodyStartLine ? "" : lines[n - 2]!.trim()
    const after = lines[n]?.trim() ?? ""
    const words = plainText(t).split(/\s+/).length
    // a numbered label ("Task 3: Create a Heatmap with a Diverging Colormap") may run longer
    const limit = /^(?:\*\*)?(?:[A-Z][a-z]+ )?\d{1,2}[.:)]?\s/.test(t) ? 12 : 7
    // a bold line ending on a stop ("**4. Classify each discrepancy.**") is a step's run-in label, not a heading
    if (before !== "" || after !== "" || words > limit || /[.,;:!?](?:\*\*|__)?$/.test(t) || !/^[\p{Lu}\d`*]/u.test(t)) continue
    // content follows
    const next = lines.slice(n).find((l) => l.trim() !== "")
    if (next === undefined) continue
    out.push({ line: n, text: t.replace(/^\*\*(.*)\*\*$/, "$1") })
  }
  return out
}

/** The title of a text with no heading at all, written as a plain line: its first line, when it reads as heading text. */
export const plainTitle = (doc: Doc): { readonly line: number; readonly text: string } | null => {
  const first = doc.split.lines.findIndex((l, i) => i + 1 >= doc.md.bodyStartLine && l.trim() !== "") + 1
  const title = doc.md.headings.length === 0 ? unmarkedHeadings(doc)[0] : undefined
  return title !== undefined && title.line === first ? title : null
}
