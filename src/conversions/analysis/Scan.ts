/**
 * The per-file scan every finder reads: the sections of a Markdown source (with their roles, parents
 * and ends), its list items as a tree, its tables and <Good>/<Bad> blocks, and the line lookups built
 * on them (the section holding a line, an item's lead text, a paragraph, an item's depth, the lines a
 * sentence spans). Nothing here decides what a line means; the finders in the sibling modules do.
 */
import type { Doc } from "../../markdown/Document.js"
import { plainText } from "../../markdown/Markdown.js"
import { cleanInline, HR, indentOf, isBlank } from "./Text.js"
import { type SectionRole, sectionRole } from "../../markdown/Sections.js"

export interface Sec {
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

export interface Scan {
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

export const lastContentLine = (lines: ReadonlyArray<string>, from: number, to: number): number => {
  let e = to
  while (e > from && (isBlank(lines[e - 1]!) || HR.test(lines[e - 1]!))) e--
  return e
}

/** The sections: one per heading, with its role (a subsection inherits some), parent and ends. */
const sectionsOf = (doc: Doc) => {
  const lines = doc.split.lines
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
  return { secs, headingAt }
}

/** The index of the innermost section holding each line (-1 before the first heading). */
const sectionAtLines = (total: number, headingAt: ReadonlyMap<number, number>): Array<number> => {
  const secAt: Array<number> = [-1]
  let cur = -1
  for (let n = 1; n <= total; n++) {
    if (headingAt.has(n)) cur = headingAt.get(n)!
    secAt.push(cur)
  }
  return secAt
}

/** The lines of tables and of <Good>/<Bad> blocks (tags included), outside code. */
const tablesAndExamplesOf = (doc: Doc, bodyStart: number) => {
  const lines = doc.split.lines
  const total = lines.length
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
  return { tableLines, goodBadLines }
}

/**
 * The list items as a tree: each with its parent, its list (a new one after a break) and its end (the
 * last line of its continuation: wrapped text, nested items, an indented code block).
 */
const itemTreeOf = (doc: Doc, bodyStart: number, headingAt: ReadonlyMap<number, number>, tableLines: ReadonlySet<number>) => {
  const lines = doc.split.lines
  const total = lines.length
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
  return { items, itemAt }
}

export const scanFile = (doc: Doc, path: string): Scan => {
  const lines = doc.split.lines
  const bodyStart = doc.md.bodyStartLine
  const { headingAt, secs } = sectionsOf(doc)
  const secAt = sectionAtLines(lines.length, headingAt)
  const { goodBadLines, tableLines } = tablesAndExamplesOf(doc, bodyStart)
  const { itemAt, items } = itemTreeOf(doc, bodyStart, headingAt, tableLines)
  return { doc, lines, path, bodyStart, secs, secAt, items, itemAt, headingAt, tableLines, goodBadLines }
}

export const sectionOf = (s: Scan, n: number): Sec | null => (s.secAt[n]! >= 0 ? s.secs[s.secAt[n]!]! : null)
export const roleAt = (s: Scan, n: number): SectionRole => sectionOf(s, n)?.role ?? "other"

/** The item's text with its continuation lines (lines of the item before its first child). */
export const itemLead = (s: Scan, idx: number): { text: string; end: number } => {
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

export const childrenOf = (s: Scan, idx: number): Array<number> =>
  s.items.map((_, i) => i).filter((i) => s.items[i]!.parent === idx)

/** The paragraph starting at line n (consecutive non-blank prose lines, no list items or headings). */
export const paragraphAt = (s: Scan, n: number): { text: string; end: number } => {
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

export const depthOf = (s: Scan, idx: number): number => {
  let d = 0
  let p = s.items[idx]!.parent
  while (p >= 0) {
    d++
    p = s.items[p]!.parent
  }
  return d
}

/** The lines of a paragraph a sentence spans (by its first and last words). */
export const findSentenceLine = (s: Scan, from: number, to: number, sn: string): { start: number; end: number } => {
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
