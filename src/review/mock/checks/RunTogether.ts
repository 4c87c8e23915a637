/**
 * Parts of a section run together (split from Shape.ts): the top-level blocks of a section, and a
 * block that starts right after another of a kind it does not continue (a list after a code block it
 * does not speak of, a table after a list, a procedure with no introduction), as when the heading
 * between them was lost.
 */
import { plainText, tableCells } from "../../../markdown/Markdown.js"
import { INTRO_TITLE, NUMBERED_TITLE, USE_CASES_TITLE } from "../../../markdown/Sections.js"
import type { Doc } from "../../../markdown/Document.js"
import { isImperative } from "../../../markdown/Instructions.js"
import { perDoc } from "../../../markdown/PerDoc.js"
import { contentWords, contentWordsApart, endsWithColon, sentencesOf } from "./Words.js"

export type BlockKind = "paragraph" | "ordered" | "bullets" | "code" | "table" | "other"

export interface Block {
  readonly kind: BlockKind
  readonly start: number
  readonly end: number
}

/** The top-level blocks of a line range: paragraphs, lists, code, tables (nested content belongs to its list). */
export const blocksOf = (doc: Doc, from: number, to: number): Array<Block> => {
  const lines = doc.split.lines
  // items: bullets started without a blank line between; loose: a list whose items are spaced out
  const out: Array<{ kind: BlockKind; start: number; end: number; items: number; loose: boolean }> = []
  let blank = true
  for (let n = from; n <= to; n++) {
    const l = lines[n - 1] ?? ""
    // a code block whose fence is indented under a list item belongs to that item, its blank lines too
    const kind: BlockKind | null = doc.md.inCode[n]
      ? (/^\s/.test(lines[(doc.md.codeBlocks.find((c) => c.startLine <= n && n <= c.endLine)?.startLine ?? n) - 1] ?? "") && (out.at(-1)?.kind === "ordered" || out.at(-1)?.kind === "bullets") ? null : "code")
      : l.trim() === ""
      ? null
      : /^\d{1,4}[.)]\s/.test(l)
      ? "ordered"
      : /^[-*+]\s/.test(l)
      ? "bullets"
      : /^\s*\|/.test(l)
      ? // a table indented under a list item is part of that item (a step's own table), as its code is
        /^\s/.test(l) && (out.at(-1)?.kind === "ordered" || out.at(-1)?.kind === "bullets") ? null : "table"
      : /^\s/.test(l)
      ? null // a continuation or nested line belongs to the block above
      : /^#{1,6}\s/.test(l)
      ? "other"
      : "paragraph"
    if (l.trim() === "" && !doc.md.inCode[n]) {
      blank = true
      continue
    }
    const last = out.at(-1)
    // a bullet after a blank line continues a loose list (one item so far, or spaced out already);
    // after a tight list of several items it starts a new part
    const looseBullet = kind === "bullets" && last?.kind === "bullets" && blank && (last.items <= 1 || last.loose)
    if (kind === null || (last && last.kind === kind && (!blank || kind === "ordered" || kind === "code" || looseBullet))) {
      if (last) {
        last.end = n
        // a code block nested in an item spaces the list out, as blank lines between items do
        if (looseBullet || (kind === null && doc.md.inCode[n] && (last.kind === "bullets" || last.kind === "ordered"))) last.loose = true
        else if (kind === "bullets") last.items++
      }
    } else {
      out.push({ kind, start: n, end: n, items: 1, loose: false })
    }
    blank = false
  }
  return out
}

/**
 * A list that starts right after another list, a code block or a table, with no heading or lead-in
 * sentence between: two parts of the document run together, as when a heading was lost.
 */
export const runTogether = perDoc((doc: Doc): Array<{ readonly block: Block; readonly after: Block; readonly section?: string; readonly list?: number }> => {
  const out: Array<{ block: Block; after: Block; section?: string; list?: number }> = []
  // a bold label on a line of its own ("**Use X for diagrams:**") heads the code and the list under it
  const label = (line: number) => /^\s*(\*\*|__)[^*_]{2,100}\1\s*:?\s*$|^\s*(\*\*|__)[^*_]{2,100}:\1\s*$/.test(doc.split.lines[line - 1] ?? "")
  const bounds = [...doc.md.headings.map((h) => h.line), doc.split.lines.length + 1]
  // a document whose sections are checklists (`- [ ]` items under two headings or more): a checklist
  // after a table is the document's own form going on, in this section as in the others
  const checklistSections = new Set(doc.md.listItems.filter((i) => /^\[[ xX]\]\s/.test(i.text)).map((i) => doc.md.headings.filter((h) => h.line < i.line).length)).size
  const starts = [doc.md.bodyStartLine, ...doc.md.headings.map((h) => h.line + 1)]
  for (let i = 0; i < starts.length; i++) {
    const from = starts[i]!
    const to = (bounds.find((b) => b >= from) ?? doc.split.lines.length + 1) - 1
    const blocks = blocksOf(doc, from, to)
    // notes under a code block that speak of what it does (two words in common, its comments included) are
    // about it, in a numbered step's section as in any other (a checklist is judged as it closes the section
    // or not); a list on another subject after a block is another part, as when its heading was lost. Under
    // a sample of a document (markdown, text) shared words are the sample's, unless the section is a
    // numbered step or opens with the sample
    const own = doc.md.headings.find((h) => h.line === from - 1)
    const inStep = own !== undefined && NUMBERED_TITLE.test(plainText(own.text))
    const proseSample = (x: Block) => /^(?:markdown|md|text|txt|plain|plaintext|)$/i.test((doc.md.codeBlocks.find((c) => c.startLine === x.start)?.info ?? "").split(/\s+/)[0] ?? "")
    const wordsOf = (x: Block) => new Set(contentWordsApart(doc.split.lines.slice(x.start - 1, x.end).join(" ")).filter((w) => w.length >= 3))
    const shared = (list: Block, code: Block) => {
      const mine = wordsOf(code)
      return [...wordsOf(list)].filter((w) => mine.has(w)).length
    }
    // a list of bold-labelled items right under a block, naming something in it, spells out its parts
    // or its outcomes ("- **Subject:** imperative mood …" under a sample commit message, "- **No
    // migrations**: go ahead." under the command that lists them)
    const labelledNotes = (list: Block, code: Block) => {
      const items = topItems(doc, list)
      return items.length >= 2 && items.every((i) => /^(\*\*|__)[^*_]{1,60}\1/.test(i.text)) && shared(list, code) >= 1
    }
    // the paragraph that opens the section names what its table holds ("Ask for the style guide and
    // length limits. Common defaults:" over the defaults, then a table of typical lengths): one part
    // so does the section's heading ("## 2. Choose the criteria" over a "Weak criterion | Better" table);
    // a word's first six letters stand for it, as criteria and criterion are one word
    const openerNamesTable = (all: ReadonlyArray<Block>, table: Block) => {
      const root = (w: string) => w.slice(0, 6)
      const header = new Set(contentWordsApart(plainText(doc.split.lines[table.start - 1] ?? "")).filter((w) => w.length >= 4).map(root))
      const opener = all[0]
      const opens = opener !== undefined && opener.kind === "paragraph" && opener !== table ? [...wordsOf(opener)] : []
      const titled = own === undefined ? [] : contentWords(plainText(own.text)).filter((w) => w.length >= 4)
      return [...opens, ...titled].some((w) => header.has(root(w)))
    }
    // a list right under the table that opens the section, on what the table holds (two words in common:
    // "never use double quotes for a cultivar" under a table of name formats), goes on with its rules; a
    // list of links there (the docs of the tools a troubleshooting table names) is a part of its own
    const tableNotes = (list: Block, table: Block, k: number) => {
      if (k !== 1 || shared(list, table) < 2) return false
      return !listOfLinks(doc, list)
    }
    // a list under a code block, twice or more in one section, is the section's layout (each command
    // with the results to expect from it): a lost heading joins two parts once
    const codeThenList = blocks.filter((x, k) => k > 0 && x.kind === "bullets" && blocks[k - 1]!.kind === "code").length
    // a list right under block k-1 (a code block or a table) that belongs to it, in one of the ways above
    const goesOnWith = (k: number): boolean => {
      const a = blocks[k - 1]!
      const b = blocks[k]!
      if (a.kind === "table") return (checklistSections >= 2 && taskList(doc, b)) || tableNotes(b, a, k) || figuresFrom(doc, b, a) || (namesRows(doc, b, a) && !listOfLinks(doc, b))
      if (a.kind !== "code") return false
      // a bold label over the code heads the list under it too
      const labelled = k >= 2 && blocks[k - 2]!.kind === "paragraph" && label(blocks[k - 2]!.start)
      // a checklist (`- [ ]` items) that closes its section after the section's code checks what the code
      // did: the section's own checks, not a part whose heading was lost
      const closingChecklist = k === blocks.length - 1 && taskList(doc, b)
      const notes = (inStep || k === 1 || !proseSample(a)) && !taskList(doc, b) && shared(b, a) >= 2
      return codeThenList >= 2 || labelled || closingChecklist || notes || labelledNotes(b, a) || commentsOn(doc, b, a)
    }
    for (let k = 1; k < blocks.length; k++) {
      const a = blocks[k - 1]!
      const b = blocks[k]!
      const joined = (b.kind === "bullets" && ((a.kind === "bullets" && !sameFrame(doc, a, b)) || a.kind === "ordered" || ((a.kind === "code" || a.kind === "table") && !goesOnWith(k)))) ||
        (b.kind === "ordered" && a.kind === "bullets") ||
        // a table opens with its own header row: right after a list or another table it starts a part (after a
        // code block it often spells out what the block shows); a list that points down at it ("pick the case
        // from the table below") has introduced it
        (b.kind === "table" && (a.kind === "bullets" || a.kind === "ordered" || a.kind === "table") && !pointsToTable(doc, a, b) && !openerNamesTable(blocks, b))
      // a list whose last item ends on a colon ("2. **As an editor.** For each of these, one or two
      // sentences:") leads into what follows it, as a paragraph's colon does
      const ledInto = (a.kind === "bullets" || a.kind === "ordered") && endsWithColon(doc.split.lines[a.end - 1] ?? "")
      if (joined && !ledInto) out.push({ block: b, after: a })
    }
    out.push(...unintroducedProcedures(doc, from, blocks, out))
  }
  return out
})

/**
 * A procedure inside the section that says when to use the skill (or what it is), after that
 * section's own content: the steps ran into it, as when their heading ("## How to use") was lost. A
 * section of the cases of use ("## When NOT to use") holds its cases: a table, a code block or a
 * numbered list after its list of cases is another part run into it, a procedure or not.
 * In any other section, a procedure with no introduction at all (the paragraph right above it
 * neither leads into it with ":" nor is a bold label), after the section's own list, code or table.
 * `found`: the joins already read in the section (starting at line `from`), not read twice.
 */
const unintroducedProcedures = (doc: Doc, from: number, blocks: ReadonlyArray<Block>, found: ReadonlyArray<{ readonly block: Block }>) => {
  const out: Array<{ block: Block; after: Block; section?: string; list?: number }> = []
  const heading = doc.md.headings.find((h) => h.line === from - 1)
  const intro = heading !== undefined && INTRO_TITLE.test(plainText(heading.text))
  const cases = heading !== undefined && USE_CASES_TITLE.test(plainText(heading.text))
  for (let k = 1; heading && k < blocks.length; k++) {
    const b = blocks[k]!
    if (found.some((x) => x.block === b)) continue
    // a procedure: a numbered list of actions or, outside the introduction, numbered lines in a code block
    const items = doc.md.listItems.filter((it) => it.ordered && it.indent === 0 && it.line >= b.start && it.line <= b.end)
    const procedure = b.kind === "ordered" && items.length >= 3 && items.filter((it) => isImperative(it.text) === true).length >= items.length * 0.6
    const numberedCode = !intro && b.kind === "code" && doc.split.lines.slice(b.start, b.end - 1).filter((l) => /^\s*\d{1,2}[.)]\s+\p{L}/u.test(l)).length >= 3
    const afterCases = cases && (b.kind === "table" || b.kind === "code" || b.kind === "ordered") && blocks.slice(0, k).some((x) => x.kind === "bullets")
    if (!procedure && !numberedCode && !afterCases) continue
    const prev = blocks[k - 1]!
    const leadsIn = prev.kind === "paragraph" && endsWithColon(doc.split.lines[prev.end - 1] ?? "")
    if (!intro) {
      // a bold label heads it; a sentence pointing forward ("… are listed below.", "the following") introduces it
      const labelled = prev.kind === "paragraph" && (/^\s*(\*\*|__)/.test(doc.split.lines[prev.start - 1] ?? "") ||
        /\b(below|the following|as follows)\b[^.!?]*[.!?]?\s*$/i.test(doc.split.lines[prev.end - 1] ?? ""))
      const content = blocks.slice(0, k - 1).some((x) => x.kind === "bullets" || x.kind === "ordered" || x.kind === "code" || x.kind === "table")
      // sections written as XML tags are apart from each other
      const tagged = doc.split.lines.slice(from - 1, b.start - 1).some((l) => /^\s*<\/?[A-Za-z][\w-]*>\s*$/.test(l))
      // a procedure whose steps name what the heading names ("## Applying", "Apply it only after …") is the section's own
      const steps = new Set(contentWords(doc.split.lines.slice(b.start - 1, b.end).join(" ")))
      const named = contentWords(heading.text).some((w) => steps.has(w))
      if (prev.kind !== "paragraph" || leadsIn || labelled || !content || tagged || named) continue
      out.push({ block: b, after: prev, section: plainText(heading.text), list: b.start })
      continue
    }
    // a list its lead-in names as rules ("Three rules cover most of the risk:") is what the overview says, not steps
    if (leadsIn && RULES_LEAD.test(sentencesOf(doc.split.lines.slice(prev.start - 1, prev.end).join(" ")).at(-1) ?? "")) continue
    // its lead-in sentence ("To write any internal communication:") goes with it
    const lead = leadsIn ? k - 1 : k
    if (lead === 0) continue
    out.push({ block: { ...b, start: blocks[lead]!.start }, after: blocks[lead - 1]!, section: plainText(heading.text), list: b.start })
  }
  return out
}

/** A lead-in naming what its list holds as rules, not steps: "Three rules cover most of the risk:", "The principles:". */
const RULES_LEAD = /\b(?:rules|principles|guidelines|habits|tenets|laws|commandments|guardrails|invariants|ground rules)\b[^.!?]*:\s*$/i

/** The label that opens a list item ("**Bad:**", "__Input__", "Good:"), in lower case, if it has one. */
const itemLabel = (text: string): string | undefined =>
  (/^(\*\*|__)([^*_]{1,40}?)\1/.exec(text)?.[2] ?? /^([A-Z][\w ]{0,24}):\s/.exec(text)?.[1])?.replace(/[\s:.]+$/, "").toLowerCase()

/**
 * Two lists of the same frame: their items open on the same labels in the same order ("**Bad:**" then
 * "**Good:**", twice). They are one list of pairs spaced out, not two parts.
 */
const sameFrame = (doc: Doc, a: Block, b: Block): boolean => {
  const labels = (x: Block) => topItems(doc, x).map((i) => itemLabel(i.text))
  const first = labels(a)
  const second = labels(b)
  return first.length >= 2 && first.every((l) => l !== undefined) && first.join("\n") === second.join("\n")
}

/** The items of a list block at its margin (nested items belong to them). */
const topItems = (doc: Doc, b: Block) => doc.md.listItems.filter((i) => i.line >= b.start && i.line <= b.end && i.indent === 0)

/** Half the items of a list block or more hold a link: the docs of what the text names, a part of its own. */
const listOfLinks = (doc: Doc, b: Block): boolean => {
  const items = topItems(doc, b)
  const linked = items.filter((i, n) => doc.split.lines.slice(i.line - 1, (items[n + 1]?.line ?? b.end + 1) - 1).some((l) => /https?:\/\/|\]\(/.test(l)))
  return linked.length * 2 >= items.length
}

/** Every item of a list block is a task item (`- [ ] …`, `- [x] …`). */
const taskList = (doc: Doc, b: Block): boolean => {
  const items = topItems(doc, b)
  return items.length > 0 && items.every((i) => /^\[[ xX]\]\s/.test(i.text))
}

/**
 * A block with a line that points down at a table ("the table below", "below … table") when the table
 * right after it is the only one below: the pointer can mean no other. With more tables further down it
 * may mean one of those (a conversions table two sections on), and the table here may have lost its heading.
 */
const pointsToTable = (doc: Doc, b: Block, table: Block): boolean => {
  const lines = doc.split.lines
  if (!lines.slice(b.start - 1, b.end).some((l) => /\btables?\b[^.;]{0,20}\bbelow\b|\bbelow\b[^.;]{0,12}\btable\b/i.test(l))) return false
  for (let n = table.end + 1; n <= lines.length; n++) if (!doc.md.inCode[n] && /^\s*\|/.test(lines[n - 1]!)) return false
  return true
}

const CONFIG_LANGUAGE = /^(?:json[c5]?|ya?ml|toml|ini|hcl|properties|env)$/i

/** A token of code: a number, a flag, a dotted, slashed or snake_case name, a call, an assignment. */
const CODE_TOKEN = /^(?:-{1,2}[a-z][\w-]*|\d{2,}|[\w-]*[._/=(][\w.\/=()-]*[\w)])$/i

/**
 * A list of figures right under a table of figures (checkpoint residuals, then "RMSEx 2.4, RMSEy 2.0
 * cm; means 0.3 cm"): every item carries a number and most of the table's cells are numbers. The list
 * works out what the table holds.
 */
const figuresFrom = (doc: Doc, list: Block, table: Block): boolean => {
  const items = topItems(doc, list)
  const cells = doc.split.lines.slice(table.start + 1, table.end).flatMap((l) => tableCells(l).filter((c) => c !== "" && !/^:?-+:?$/.test(c)))
  return items.length >= 2 && items.every((i) => /\d/.test(i.text)) && cells.length > 0 && cells.filter((c) => /^[−+-]?\d[\d.,]*\s*\S{0,3}$/.test(c)).length * 2 >= cells.length
}

/**
 * A list that names two rows of the table right above it by their first cell ("Board: bend test only.
 * The tear and damp tests damage it." under a table of hand tests whose rows are Bend, Tear, Damp):
 * notes on those rows. A row is named by its key of one to three words, as written.
 */
const namesRows = (doc: Doc, list: Block, table: Block): boolean => {
  // words only, each after a space: a key is named where a word starts with it ("tears" names "tear")
  const words = (t: string) => ` ${plainText(t).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()}`
  const keys = doc.split.lines.slice(table.start + 1, table.end).map((l) => words(tableCells(l)[0] ?? ""))
    .filter((k) => k.length >= 4 && k.split(" ").length <= 4)
  const text = words(doc.split.lines.slice(list.start - 1, list.end).join(" "))
  return new Set(keys.filter((k) => text.includes(k))).size >= 2
}

/**
 * A list that comments on the code block right above it: one of its items names a token of that code
 * (its exit code, a flag, a file, a function, a key of a config), written in inline code or as it is,
 * or quotes a piece of it in inline code, verbatim (`errors="coerce"`, `toHaveCount`), or its items
 * work out the formula the block states. Notes on a script need no heading of their own; a list that names nothing of the code is another part.
 */
const commentsOn = (doc: Doc, list: Block, code: Block): boolean => {
  // items that work out a formula the block states (`fabric to book = consumption × order quantity`, then
  // "Shirts: 1.655 m × 3,000 pcs = 4,965 m"): the formula's worked cases, numbers on both sides of "="
  const formula = doc.split.lines.slice(code.start, code.end - 1).filter((l) => l.trim() !== "")
  const items = topItems(doc, list)
  if (formula.length > 0 && formula.length <= 4 && formula.every((l) => /\s=\s/.test(l)) && items.length > 0 &&
    items.filter((i) => /\d[^=]*=\s*[≈~$€£]?\s*\d/.test(i.text)).length * 2 >= items.length) return true
  const codeTokens = new Set<string>()
  // the keys of a config block (`"automerge": true`, `timeout: 5s`) are its vocabulary: a list naming one explains the setting
  const config = CONFIG_LANGUAGE.test((doc.md.codeBlocks.find((b) => b.startLine === code.start)?.info ?? "").split(/\s+/)[0]!)
  const keys = new Set<string>()
  for (let n = code.start + 1; n < code.end; n++) {
    const l = doc.split.lines[n - 1] ?? ""
    for (const t of l.split(/[\s"'`,;:]+/)) if (CODE_TOKEN.test(t)) codeTokens.add(t.toLowerCase())
    const key = config ? /^\s*(?:-\s+)?["']?([A-Za-z_][\w-]{3,})["']?\s*[:=]\s/.exec(l) : null
    if (key) keys.add(key[1]!.toLowerCase())
  }
  // an item quoting a piece of the code in inline code (`errors="coerce"`, `toHaveCount`) annotates it
  const codeText = doc.split.lines.slice(code.start, code.end - 1).join("\n")
  for (let n = list.start; n <= list.end; n++) {
    for (const m of (doc.split.lines[n - 1] ?? "").matchAll(/`([^`\n]+)`/g)) {
      const span = m[1]!.trim()
      if (span.length >= 5 && codeText.includes(span)) return true
    }
  }
  if (codeTokens.size === 0 && keys.size === 0) return false
  for (let n = list.start; n <= list.end; n++) {
    for (const t of (doc.split.lines[n - 1] ?? "").split(/[\s"'`,;:]+/)) {
      const w = t.replace(/[.!?)]+$/, "").toLowerCase()
      if ((CODE_TOKEN.test(w) && codeTokens.has(w)) || keys.has(w)) return true
    }
  }
  return false
}

