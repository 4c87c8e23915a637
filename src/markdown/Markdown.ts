/**
 * A line-oriented markdown scanner: fenced code blocks, headings, list items, inline code spans,
 * links and bare bundle paths. Line numbers are 1-based and refer to the whole file, so findings
 * can point at real lines even when a frontmatter block precedes the body.
 */
import { memoByText } from "./Memo.js"

export interface CodeBlock {
  /** Lines of the opening and closing fences (closing = last line of the file when unclosed). */
  readonly startLine: number
  readonly endLine: number
  readonly info: string
  readonly closed: boolean
  readonly fence: string
}

export interface Heading {
  readonly line: number
  readonly level: number
  readonly text: string
}

export interface ListItem {
  readonly line: number
  readonly indent: number
  readonly ordered: boolean
  /** the number of an ordered item */
  readonly number: number
  /** "." or ")" for ordered items, the bullet character otherwise */
  readonly marker: string
  readonly text: string
}

export interface InlineCode {
  readonly line: number
  /** 0-based column of the code text (after the backticks) */
  readonly column: number
  readonly text: string
}

export interface Link {
  readonly line: number
  /** 0-based column of the target text inside the line */
  readonly column: number
  readonly text: string
  readonly target: string
  readonly image: boolean
  /** the whole `[text](target)` source */
  readonly source: string
  readonly sourceColumn: number
}

export interface MarkdownDoc {
  /** All lines of the file (without terminators). */
  readonly lines: ReadonlyArray<string>
  /** 1-based line of the first body line (after frontmatter). */
  readonly bodyStartLine: number
  readonly codeBlocks: ReadonlyArray<CodeBlock>
  /** inCode[lineNumber] for 1-based line numbers (index 0 unused); frontmatter lines count as code. */
  readonly inCode: ReadonlyArray<boolean>
  readonly headings: ReadonlyArray<Heading>
  readonly listItems: ReadonlyArray<ListItem>
  readonly inlineCode: ReadonlyArray<InlineCode>
  readonly links: ReadonlyArray<Link>
}

const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/
const ORDERED = /^(\s*)(\d{1,4})([.)])[ \t]+(.*)$/
const BULLET = /^(\s*)([-*+])[ \t]+(.*)$/

/** Replaces inline code spans with spaces (same length), so other scanners ignore them. */
export const maskInlineCode = (line: string): { masked: string; spans: Array<{ column: number; text: string }> } => {
  const spans: Array<{ column: number; text: string }> = []
  let masked = ""
  let i = 0
  while (i < line.length) {
    if (line[i] === "`") {
      let n = 0
      while (line[i + n] === "`") n++
      const ticks = "`".repeat(n)
      let close = line.indexOf(ticks, i + n)
      while (close >= 0 && line[close + n] === "`") close = line.indexOf(ticks, close + n + 1)
      if (close < 0) {
        masked += line.slice(i, i + n)
        i += n
        continue
      }
      spans.push({ column: i + n, text: line.slice(i + n, close) })
      masked += " ".repeat(close + n - i)
      i = close + n
    } else {
      masked += line[i]
      i++
    }
  }
  return { masked, spans }
}

const LINK = /(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*(<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g
const REF_DEF = /^ {0,3}\[([^\]]+)\]:\s*<?([^\s>]+)>?/

export const analyzeMarkdown = (lines: ReadonlyArray<string>, bodyStartLine: number): MarkdownDoc => {
  const inCode: Array<boolean> = [false]
  for (let n = 1; n <= lines.length; n++) inCode.push(n < bodyStartLine)
  const codeBlocks: Array<CodeBlock> = []
  const headings: Array<Heading> = []
  const listItems: Array<ListItem> = []
  const inlineCode: Array<InlineCode> = []
  const links: Array<Link> = []
  let open: { line: number; fence: string; info: string } | null = null
  let prevText = false
  for (let n = bodyStartLine; n <= lines.length; n++) {
    const line = lines[n - 1]!
    const fm = line.match(FENCE)
    if (open) {
      inCode[n] = true
      if (fm && fm[2]![0] === open.fence[0] && fm[2]!.length >= open.fence.length && fm[3]!.trim() === "") {
        codeBlocks.push({ startLine: open.line, endLine: n, info: open.info, closed: true, fence: open.fence })
        open = null
      }
      continue
    }
    if (fm && !(fm[2]![0] === "`" && fm[3]!.includes("`"))) {
      open = { line: n, fence: fm[2]!, info: fm[3]!.trim() }
      inCode[n] = true
      prevText = false
      continue
    }
    const h = line.match(ATX)
    if (h) {
      headings.push({ line: n, level: h[1]!.length, text: (h[2] ?? "").replace(/\s+#+$/, "").trim() })
      prevText = false
    } else if (prevText && /^ {0,3}=+\s*$/.test(line)) {
      headings.push({ line: n - 1, level: 1, text: lines[n - 2]!.trim() })
      prevText = false
    } else {
      const o = line.match(ORDERED)
      const b = o ? null : line.match(BULLET)
      if (o) {
        listItems.push({
          line: n,
          indent: o[1]!.replace(/\t/g, "    ").length,
          ordered: true,
          number: Number(o[2]),
          marker: o[3]!,
          text: o[4]!.trim()
        })
      } else if (b && !/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
        listItems.push({
          line: n,
          indent: b[1]!.replace(/\t/g, "    ").length,
          ordered: false,
          number: 0,
          marker: b[2]!,
          text: b[3]!.trim()
        })
      }
      prevText = line.trim() !== "" && !o && !b && !/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)
    }
    const { masked, spans } = maskInlineCode(line)
    for (const s of spans) inlineCode.push({ line: n, column: s.column, text: s.text })
    LINK.lastIndex = 0
    let m: RegExpExecArray | null
    while ((m = LINK.exec(masked)) !== null) {
      let target = m[3]!
      const rawTarget = target
      if (target.startsWith("<") && target.endsWith(">")) target = target.slice(1, -1)
      const column = m.index + m[0].indexOf(rawTarget, m[1]!.length + m[2]!.length + 2)
      links.push({
        line: n,
        column: rawTarget.startsWith("<") ? column + 1 : column,
        text: line.slice(m.index + m[1]!.length + 1, m.index + m[1]!.length + 1 + m[2]!.length),
        target,
        image: m[1] === "!",
        source: line.slice(m.index, m.index + m[0].length),
        sourceColumn: m.index
      })
    }
    const def = masked.match(REF_DEF)
    if (def && !/^\^/.test(def[1]!)) {
      const column = line.indexOf(def[2]!, def[0].indexOf("]:"))
      links.push({ line: n, column, text: def[1]!, target: def[2]!, image: false, source: def[0], sourceColumn: 0 })
    }
  }
  if (open) {
    codeBlocks.push({ startLine: open.line, endLine: lines.length, info: open.info, closed: false, fence: open.fence })
  }
  return { lines, bodyStartLine, codeBlocks, inCode, headings, listItems, inlineCode, links }
}

/** Lines of the body outside fenced code, with inline code masked, as [lineNumber, text] pairs. */
export const proseLines = (doc: MarkdownDoc): Array<readonly [number, string]> => {
  const out: Array<readonly [number, string]> = []
  for (let n = doc.bodyStartLine; n <= doc.lines.length; n++) {
    if (doc.inCode[n]) continue
    out.push([n, maskInlineCode(doc.lines[n - 1]!).masked] as const)
  }
  return out
}

/**
 * A line of a paragraph: in the body, outside fenced code, at the margin (an indented line goes on a
 * list item or is code), and no heading, list item, table row, quote or HTML tag. A bold or code lead
 * ("**Never** …", "`make` builds …") is still a paragraph's.
 */
export const isParagraphLine = (doc: MarkdownDoc, n: number): boolean => {
  const line = doc.lines[n - 1]
  return line !== undefined && n >= doc.bodyStartLine && !doc.inCode[n] && /^\S/.test(line) &&
    !/^(?:[-*+]|\d{1,4}[.)])(?:\s|$)|^[#|>]|^<\/?[A-Za-z]/.test(line)
}

/** The cells of a table row, trimmed: `| a | b |` gives "a", "b" (the outer pipes are no cells). */
export const tableCells = (row: string): Array<string> => row.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim())

/** Strips markdown emphasis, links and code ticks from a short text. */
export const plainText: (text: string) => string = memoByText((text) =>
  text
    .replace(/!?\[([^\[\]]*)\]\([^()]*\)/g, "$1")
    .replace(/\*{1,3}([^*]+)\*{1,3}/g, "$1")
    .replace(/(^|[^\w])_{1,3}([^_]+)_{1,3}(?=[^\w]|$)/g, "$1$2")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/<[^<>]+>/g, "")
    .replace(/\s+/g, " ")
    .trim()
)

/** Splits a bundle path reference target into path and fragment/query; null for URLs, anchors, mail. */
export const linkPath = (target: string): string | null => {
  const t = target.trim()
  if (t === "" || t.startsWith("#") || t.startsWith("?")) return null
  if (/^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith("//")) return null
  const cut = t.search(/[#?]/)
  let p = cut >= 0 ? t.slice(0, cut) : t
  try {
    p = decodeURIComponent(p)
  } catch {
    // keep it as written
  }
  return p === "" ? null : p
}

/** GitHub-style heading anchors: lower case, punctuation dropped, spaces to '-', duplicates suffixed -1, -2. */
export const headingAnchors = (headings: ReadonlyArray<Heading>): Set<string> => {
  const out = new Set<string>()
  const seen = new Map<string, number>()
  for (const h of headings) {
    const base = plainText(h.text)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .trim()
      .replace(/\s/g, "-")
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n === 0 ? base : `${base}-${n}`)
  }
  return out
}
