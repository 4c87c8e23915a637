/**
 * A small markdown model for the damage kinds: lines, the frontmatter span, fenced code, headings,
 * numbered lists and paragraphs. Self-contained on purpose: it does not use the reviewer's own text
 * helpers (src/markdown), so a change to the reviewer cannot change the damage it is measured on.
 */

export interface Doc {
  readonly lines: ReadonlyArray<string>
  readonly eol: string
  readonly finalNewline: boolean
  /** index of the closing `---` of a closed frontmatter, -1 when there is none */
  readonly fmEnd: number
  /** index of the first body line */
  readonly bodyStart: number
  /** per line: the index of the opening fence when the line is in a fenced block (delimiters included), else -1 */
  readonly fenceOpen: ReadonlyArray<number>
}

export interface Heading {
  readonly line: number
  readonly level: number
  readonly text: string
}

export interface Item {
  /** first line of the item and one past its last non-blank line */
  readonly start: number
  readonly end: number
  readonly num: number
  readonly indent: number
  readonly marker: "." | ")"
  /** the text after the marker on the first line */
  readonly text: string
  /** column where the item's content starts */
  readonly contentIndent: number
}

export interface NumberedList {
  readonly items: ReadonlyArray<Item>
  readonly start: number
  readonly end: number
  readonly hasFence: boolean
}

export interface Span {
  readonly start: number
  readonly end: number
}

export const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/
export const ORDERED = /^(\s*)(\d{1,3})([.)])(\s+)(.*)$/
export const BULLET = /^(\s*)([-*+])\s+(.*)$/
const FENCE = /^\s*(`{3,}|~{3,})/

export const isBlank = (s: string): boolean => s.trim() === ""
export const indentOf = (s: string): number => s.length - s.trimStart().length

export const parseDoc = (content: string): Doc => {
  const eol = content.includes("\r\n") ? "\r\n" : "\n"
  const finalNewline = content.endsWith("\n")
  const trimmed = finalNewline ? content.slice(0, content.length - (content.endsWith("\r\n") ? 2 : 1)) : content
  const lines = content === "" ? [] : trimmed.split(/\r?\n/)
  let fmEnd = -1
  if (lines[0]?.trimEnd() === "---") {
    for (let i = 1; i < lines.length; i++) {
      const l = lines[i]!.trimEnd()
      if (l === "---" || l === "...") {
        fmEnd = i
        break
      }
    }
  }
  const bodyStart = fmEnd + 1
  const fenceOpen = lines.map(() => -1)
  let open = -1
  let marker = ""
  for (let i = bodyStart; i < lines.length; i++) {
    const m = lines[i]!.match(FENCE)
    if (open < 0) {
      if (m) {
        open = i
        marker = m[1]!
        fenceOpen[i] = i
      }
      continue
    }
    fenceOpen[i] = open
    const t = lines[i]!.trim()
    if (m && t[0] === marker[0] && /^(`+|~+)$/.test(t) && t.length >= marker.length) open = -1
  }
  return { lines, eol, finalNewline, fmEnd, bodyStart, fenceOpen }
}

export const render = (doc: Doc, lines: ReadonlyArray<string>): string =>
  lines.length === 0 ? "" : lines.join(doc.eol) + (doc.finalNewline ? doc.eol : "")

export const inFence = (doc: Doc, i: number): boolean => doc.fenceOpen[i]! >= 0

/** The closing line of the fenced block opened at `open` (the last line when it never closes). */
export const fenceClose = (doc: Doc, open: number): number => {
  let i = open
  while (i + 1 < doc.lines.length && doc.fenceOpen[i + 1] === open) i++
  return i
}

/** The language tag of the fence opened at `open` ("" when none). */
export const fenceLang = (doc: Doc, open: number): string =>
  (doc.lines[open]!.trim().replace(/^(`+|~+)/, "").trim().split(/\s+/)[0] ?? "").toLowerCase()

export const headings = (doc: Doc): Array<Heading> => {
  const out: Array<Heading> = []
  for (let i = doc.bodyStart; i < doc.lines.length; i++) {
    if (inFence(doc, i)) continue
    const m = doc.lines[i]!.match(HEADING)
    if (m) out.push({ line: i, level: m[1]!.length, text: m[2]! })
  }
  return out
}

/** One past the last line of the section opened by `h` (its subsections included). */
export const sectionEnd = (doc: Doc, h: Heading): number => {
  const next = headings(doc).find((x) => x.line > h.line && x.level <= h.level)
  return next ? next.line : doc.lines.length
}

/** The top sections: headings at the shallowest level below the title (usually `##`). */
export const topSections = (doc: Doc): Array<Heading> => {
  const hs = headings(doc)
  const levels = hs.map((h) => h.level).filter((l) => l >= 2)
  if (levels.length === 0) return hs.filter((h) => h.level === 1).slice(1)
  const level = Math.min(...levels)
  return hs.filter((h) => h.level === level)
}

const startsBlock = (s: string): boolean =>
  HEADING.test(s) || ORDERED.test(s) || BULLET.test(s) || FENCE.test(s) || /^\s*(\||>|<)/.test(s)

/** Numbered lists (`1.` or `1)`), with their sub-bullets, continuation lines and indented code blocks. */
export const numberedLists = (doc: Doc): Array<NumberedList> => {
  const lists: Array<NumberedList> = []
  const { lines } = doc
  let i = doc.bodyStart
  while (i < lines.length) {
    const first = inFence(doc, i) ? null : lines[i]!.match(ORDERED)
    if (!first) {
      i++
      continue
    }
    const indent = first[1]!.length
    const marker = first[3] as "." | ")"
    const items: Array<Item> = []
    let hasFence = false
    let j = i
    for (;;) {
      const m = lines[j]!.match(ORDERED)!
      let last = j
      let k = j + 1
      while (k < lines.length) {
        const l = lines[k]!
        if (isBlank(l) && !inFence(doc, k)) {
          k++
          continue
        }
        const ownFence = inFence(doc, k) && doc.fenceOpen[k]! > j && indentOf(lines[doc.fenceOpen[k]!]!) > indent
        // a lazy continuation: a plain line right after the item's text, no blank in between
        const lazy = last === k - 1 && !inFence(doc, last) && !startsBlock(l) && !isBlank(lines[k - 1]!)
        if (ownFence || (!inFence(doc, k) && indentOf(l) > indent) || lazy) {
          if (ownFence) hasFence = true
          last = k
          k++
          continue
        }
        break
      }
      items.push({
        start: j,
        end: last + 1,
        num: Number(m[2]),
        indent,
        marker,
        text: m[5]!,
        contentIndent: indent + m[2]!.length + 1 + m[4]!.length
      })
      const next = k < lines.length && !inFence(doc, k) ? lines[k]!.match(ORDERED) : null
      if (next && next[1]!.length === indent && next[3] === marker) {
        j = k
        continue
      }
      break
    }
    lists.push({ items, start: items[0]!.start, end: items[items.length - 1]!.end, hasFence })
    i = items[items.length - 1]!.end
  }
  return lists
}

/** The skill's main procedure: the numbered list with the most steps (the first one on a tie). */
export const mainList = (doc: Doc, minItems = 2): NumberedList | undefined => {
  let best: NumberedList | undefined
  for (const l of numberedLists(doc)) if (l.items.length >= minItems && (!best || l.items.length > best.items.length)) best = l
  return best
}

const isProse = (s: string): boolean =>
  !isBlank(s) && indentOf(s) === 0 && !startsBlock(s) && !/^\s*(!\[|---|\*\*\*|___)/.test(s)

/** Plain paragraphs at the top level of the body (no lists, tables, quotes or code). */
export const paragraphs = (doc: Doc): Array<Span> => {
  const out: Array<Span> = []
  let i = doc.bodyStart
  while (i < doc.lines.length) {
    if (inFence(doc, i) || !isProse(doc.lines[i]!)) {
      i++
      continue
    }
    const start = i
    while (i < doc.lines.length && !inFence(doc, i) && isProse(doc.lines[i]!)) i++
    out.push({ start, end: i })
  }
  return out
}

/** Where an added paragraph reads as part of the introduction: after the opening paragraph, else after the title. */
export const afterOpening = (doc: Doc): number => {
  const hs = headings(doc)
  const firstSection = hs.find((h) => h.level >= 2)
  const p = paragraphs(doc).find((x) => firstSection === undefined || x.start < firstSection.line)
  if (p) return p.end
  if (hs[0] && hs[0].level === 1) return hs[0].line + 1
  return doc.bodyStart
}

/** Inserts a block at `at`, with one blank line on each side. */
export const insertBlock = (lines: ReadonlyArray<string>, at: number, block: ReadonlyArray<string>): Array<string> => {
  const out = [...lines]
  const before = at > 0 && !isBlank(out[at - 1]!) ? [""] : []
  const after = at < out.length && !isBlank(out[at]!) ? [""] : []
  out.splice(at, 0, ...before, ...block, ...after)
  return out
}

/**
 * Adds a step to `list` before item `pos` (or after the last one when pos = items.length),
 * renumbering the later steps when the list counts 1, 2, 3 (a lazily numbered list keeps its number).
 */
export const insertStep = (doc: Doc, list: NumberedList, pos: number, text: string): Array<string> => {
  const lines = [...doc.lines]
  const { items } = list
  const first = items[0]!
  const sequential = items.every((it, i) => it.num === first.num + i)
  const loose = items.some((it, i) => i > 0 && it.start > items[i - 1]!.end)
  const num = sequential ? first.num + pos : first.num
  if (sequential) {
    for (let i = pos; i < items.length; i++) {
      lines[items[i]!.start] = lines[items[i]!.start]!.replace(
        ORDERED,
        (_, ind: string, n: string, mk: string, sp: string, rest: string) => `${ind}${Number(n) + 1}${mk}${sp}${rest}`
      )
    }
  }
  const line = `${" ".repeat(first.indent)}${num}${first.marker} ${text}`
  const at = pos < items.length ? items[pos]!.start : items[items.length - 1]!.end
  lines.splice(at, 0, ...(loose ? (pos < items.length ? [line, ""] : ["", line]) : [line]))
  return lines
}

/** Appends a line to the end of the section opened by `h`: as a bullet when the section ends with one, else as a paragraph. */
export const appendToSection = (doc: Doc, h: Heading, text: string): Array<string> => {
  let last = sectionEnd(doc, h) - 1
  while (last > h.line && isBlank(doc.lines[last]!)) last--
  const m = inFence(doc, last) ? null : doc.lines[last]!.match(BULLET)
  if (m && m[1] === "") {
    const out = [...doc.lines]
    out.splice(last + 1, 0, `${m[2]} ${text}`)
    return out
  }
  return insertBlock(doc.lines, last + 1, [text])
}

/**
 * Drops the marked lines; where a removal leaves two blank lines together, one goes, so the damage
 * does not also add a formatting defect.
 */
export const removeLines = (lines: ReadonlyArray<string>, drop: ReadonlyArray<boolean>): Array<string> => {
  const out: Array<string> = []
  let removedSince = false
  for (let i = 0; i < lines.length; i++) {
    if (drop[i]) {
      removedSince = true
      continue
    }
    if (removedSince && isBlank(lines[i]!) && (out.length === 0 || isBlank(out[out.length - 1]!))) continue
    removedSince = false
    out.push(lines[i]!)
  }
  while (out.length > 0 && isBlank(out[out.length - 1]!)) out.pop()
  return out
}

/** Emphasis markers removed, for reading an instruction's words. */
export const plain = (s: string): string => s.replace(/\*\*|__/g, "").trim()

/** "Run the tests" -> "run the tests"; acronyms, "I" and code stay as they are. */
export const lowerFirst = (s: string): string => (/^[A-Z](?:[a-z]|\s(?!I\b))/.test(s) && !/^I\s/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s)

/** FNV-1a: a fixed hash, so every choice of a target depends only on the text. */
export const hash = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h >>> 0
}

export const pick = <A>(xs: ReadonlyArray<A>, seed: string): A => xs[hash(seed) % xs.length]!

/** A xorshift generator seeded from the text: realistic-looking random characters, same every run. */
export const charsFrom = (seed: string, alphabet: string, n: number): string => {
  let x = hash(seed) || 1
  let out = ""
  for (let i = 0; i < n; i++) {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    out += alphabet[x % alphabet.length]
  }
  return out
}
