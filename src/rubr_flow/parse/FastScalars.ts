/**
 * The fast path's lower half: the text as lines, and the scalar forms rubr_flow files use (plain,
 * double- and single-quoted, literal blocks, one-line flow lists). Each reader starts at a column of a
 * line, returns exactly the value the yaml library would, sets `i` to the next line to read,
 * and throws `GIVE_UP` at the first thing outside the subset or in doubt. `FastReader` (./FastReader.ts)
 * adds the block structure.
 */
import type { PathSegment } from "./Reading.js"

class GiveUp {}
export const GIVE_UP = new GiveUp()

/** Plain scalars as the YAML 1.2 core schema resolves them (the library's own tests, in its order). */
const resolvePlain = (s: string): unknown => {
  const c = s.charCodeAt(0)
  // only these can start a null, boolean or number: - + . 0-9 ~ n N t T f F (and "" is null)
  if (
    s.length > 0 && c !== 45 && c !== 43 && c !== 46 && !(c >= 48 && c <= 57) && c !== 126 &&
    c !== 110 && c !== 78 && c !== 116 && c !== 84 && c !== 102 && c !== 70
  ) return s
  if (/^(?:~|[Nn]ull|NULL)?$/.test(s)) return null
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s)) return s[0] === "t" || s[0] === "T"
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8)
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10)
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16)
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) {
    return s.slice(-3).toLowerCase() === "nan" ? NaN : s[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s)) return parseFloat(s)
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s)
  return s
}

/** A plain scalar may not start with these (the quoted, literal and flow forms are read separately). */
export const INDICATOR_START = /^(?:[-?:](?: |$)|[,[\]{}#&*!|>'"%@`])/
const DOUBLE_ESCAPES: Record<string, string> = {
  "0": "\0", a: "\x07", b: "\b", t: "\t", n: "\n", v: "\v", f: "\f", r: "\r", e: "\x1b", " ": " ",
  '"': '"', "/": "/", "\\": "\\", N: "\u0085", _: "\u00a0", L: "\u2028", P: "\u2029"
}
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 }

/** Without trailing spaces (only spaces: YAML does not trim other white space here). */
const trimSpacesEnd = (s: string): string => {
  let end = s.length
  while (end > 0 && s.charCodeAt(end - 1) === 32) end--
  return end === s.length ? s : s.slice(0, end)
}

const blank = (line: string): boolean => {
  for (let i = 0; i < line.length; i++) if (line.charCodeAt(i) !== 32) return false
  return true
}

export const indentOf = (line: string): number => {
  let i = 0
  while (line.charCodeAt(i) === 32) i++
  return i
}

/** After a closing quote or a flow list: nothing, or spaces and a comment. */
export const onlyCommentAfter = (line: string, at: number): boolean => {
  let i = at
  while (line.charCodeAt(i) === 32) i++
  return i === line.length || (line.charCodeAt(i) === 35 && i > at)
}

/** The lines of a text, where the reader stands in them, and the scalar forms. */
export class FastScalarReader {
  readonly lines: Array<string>
  readonly starts: Array<number>
  readonly endsWithNewline: boolean
  /** the lines with a tab, which only a literal block may hold */
  readonly tabbed: Set<number> = new Set()
  /** where each key and item of each mapping and list starts, recorded as they are read */
  readonly positions = new WeakMap<object, Map<PathSegment, number>>()
  /** the next line to read */
  i = 0
  /** the text of the last plain scalar read, as written (the version's text when it is a number) */
  lastPlain: string | null = null

  constructor(text: string) {
    this.lines = text.split("\n")
    this.endsWithNewline = text.endsWith("\n")
    if (this.endsWithNewline) this.lines.pop()
    this.starts = new Array<number>(this.lines.length)
    let offset = 0
    for (let k = 0; k < this.lines.length; k++) {
      this.starts[k] = offset
      const line = this.lines[k]
      offset += line.length + 1
      // CRLF is one line break, as in YAML (a CR elsewhere sends the text to the library)
      if (line.charCodeAt(line.length - 1) === 13) this.lines[k] = line.slice(0, -1)
      if (line.includes("\t")) this.tabbed.add(k)
    }
  }

  /** The next line with content (not blank, not a comment) from line `k`, or -1. */
  nextContent(k: number): number {
    for (let j = k; j < this.lines.length; j++) {
      const line = this.lines[j]
      const ind = indentOf(line)
      if (ind < line.length && line.charCodeAt(ind) !== 35) return j
    }
    return -1
  }

  record(container: object, key: PathSegment, offset: number): void {
    let table = this.positions.get(container)
    if (table === undefined) {
      table = new Map()
      this.positions.set(container, table)
    }
    table.set(key, offset)
  }

  readPlain(k: number, p: number, ind: number): unknown {
    let first = this.lines[k].slice(p)
    const hash = first.indexOf(" #")
    const commented = hash !== -1
    if (commented) first = first.slice(0, hash)
    first = trimSpacesEnd(first)
    if (first.includes(": ") || first.endsWith(":")) throw GIVE_UP
    let text = first
    let j = k + 1
    if (!commented) {
      let blanks = 0
      for (; j < this.lines.length; j++) {
        const line = this.lines[j]
        if (blank(line)) {
          blanks++
          continue
        }
        const li = indentOf(line)
        if (li <= ind || line.charCodeAt(li) === 35) break
        if (this.tabbed.has(j)) throw GIVE_UP
        let part = line.slice(li)
        if (INDICATOR_START.test(part.slice(0, 2))) throw GIVE_UP
        const h = part.indexOf(" #")
        if (h !== -1) part = part.slice(0, h)
        part = trimSpacesEnd(part)
        if (part.includes(": ") || part.endsWith(":")) throw GIVE_UP
        text += blanks > 0 ? "\n".repeat(blanks) + part : ` ${part}`
        blanks = 0
        if (h !== -1) {
          j++
          break
        }
      }
      // trailing blank lines are not part of the scalar
      while (j > k + 1 && blank(this.lines[j - 1])) j--
    }
    this.i = j
    this.lastPlain = text
    return resolvePlain(text)
  }

  readQuoted(k: number, p: number, ind: number, double: boolean): string {
    const quote = double ? 34 : 39
    let out = ""
    let pending = ""
    let line = this.lines[k]
    let pos = p + 1
    for (;;) {
      if (pos >= line.length) {
        // a line break inside quotes folds: one break is a space, each empty line a newline
        pending = ""
        let empties = 0
        let j = k + 1
        for (; j < this.lines.length && blank(this.lines[j]); j++) empties++
        if (j >= this.lines.length || this.tabbed.has(j)) throw GIVE_UP
        const next = this.lines[j]
        const li = indentOf(next)
        if (li <= ind) throw GIVE_UP
        out += empties > 0 ? "\n".repeat(empties) : " "
        k = j
        line = next
        pos = li
        continue
      }
      const ch = line.charCodeAt(pos)
      if (ch === quote) {
        if (!double && line.charCodeAt(pos + 1) === 39) {
          out += `${pending}'`
          pending = ""
          pos += 2
          continue
        }
        if (!onlyCommentAfter(line, pos + 1)) throw GIVE_UP
        this.i = k + 1
        return out + pending
      }
      if (ch === 32) {
        pending += " "
        pos++
        continue
      }
      if (double && ch === 92) {
        const e = line[pos + 1]
        if (e === undefined) {
          // an escaped line break: no space, the next line's indentation dropped
          out += pending
          pending = ""
          const j = k + 1
          if (j >= this.lines.length || blank(this.lines[j]) || this.tabbed.has(j)) throw GIVE_UP
          const li = indentOf(this.lines[j])
          if (li <= ind) throw GIVE_UP
          k = j
          line = this.lines[j]
          pos = li
          continue
        }
        let decoded: string
        const hexLength = HEX_LENGTH[e]
        if (hexLength !== undefined) {
          const hex = line.slice(pos + 2, pos + 2 + hexLength)
          if (hex.length !== hexLength || !/^[0-9a-fA-F]+$/.test(hex)) throw GIVE_UP
          const code = parseInt(hex, 16)
          if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw GIVE_UP
          decoded = String.fromCodePoint(code)
          pos += 2 + hexLength
        } else {
          const simple = Object.prototype.hasOwnProperty.call(DOUBLE_ESCAPES, e) ? DOUBLE_ESCAPES[e] : undefined
          if (simple === undefined) throw GIVE_UP
          decoded = simple
          pos += 2
        }
        out += pending + decoded
        pending = ""
        continue
      }
      out += pending + line[pos]
      pending = ""
      pos++
    }
  }

  readLiteral(k: number, p: number, ind: number): string {
    const header = /^\|(?:([1-9])([-+]?)|([-+])([1-9]?))?(?: +#.*)? *$/.exec(this.lines[k].slice(p))
    if (header === null) throw GIVE_UP
    const explicit = header[1] ?? header[4]
    const chomp = header[2] || header[3] || ""
    let contentIndent = explicit ? ind + Number(explicit) : -1
    const body: Array<string> = []
    let j = k + 1
    let leadingMax = 0
    for (; j < this.lines.length; j++) {
      const line = this.lines[j]
      if (this.tabbed.has(j) && /^[ \t]*$/.test(line)) throw GIVE_UP
      if (blank(line)) {
        if (contentIndent === -1) {
          leadingMax = Math.max(leadingMax, line.length)
          body.push("")
          continue
        }
        if (line.length > contentIndent) throw GIVE_UP
        body.push("")
        continue
      }
      const li = indentOf(line)
      if (contentIndent === -1) {
        if (li <= ind || leadingMax > li) throw GIVE_UP
        contentIndent = li
      }
      // a line less indented ends the block (one with a tab there is left to the library: see readMap)
      if (li < contentIndent) break
      body.push(line.slice(contentIndent))
    }
    if (contentIndent === -1 || contentIndent <= ind) throw GIVE_UP
    if (explicit && leadingMax > contentIndent) throw GIVE_UP
    let trailing = 0
    while (trailing < body.length && body[body.length - 1 - trailing] === "") trailing++
    const content = body.slice(0, body.length - trailing)
    if (content.length === 0) throw GIVE_UP
    if (j >= this.lines.length && !this.endsWithNewline && (trailing > 0 || chomp === "+")) throw GIVE_UP
    this.i = j
    const text = content.join("\n")
    if (chomp === "-") return text
    if (chomp === "+") return `${text}\n${"\n".repeat(trailing)}`
    return `${text}\n`
  }

  readFlowList(k: number, p: number): Array<unknown> {
    const line = this.lines[k]
    const out: Array<unknown> = []
    let pos = p + 1
    const skip = () => {
      while (line.charCodeAt(pos) === 32) pos++
    }
    skip()
    if (line.charCodeAt(pos) === 93) {
      if (!onlyCommentAfter(line, pos + 1)) throw GIVE_UP
      this.i = k + 1
      return out
    }
    for (;;) {
      skip()
      const start = pos
      const ch = line[pos]
      let value: unknown
      if (ch === '"' || ch === "'") {
        const end = line.indexOf(ch, pos + 1)
        const raw = end === -1 ? "" : line.slice(pos + 1, end)
        if (end === -1 || raw.includes("\\") || (ch === "'" && line[end + 1] === "'")) throw GIVE_UP
        value = raw
        pos = end + 1
      } else {
        let end = pos
        while (end < line.length && line[end] !== "," && line[end] !== "]") end++
        const raw = trimSpacesEnd(line.slice(pos, end))
        if (raw === "" || /[[\]{}#:]/.test(raw) || INDICATOR_START.test(raw.slice(0, 2))) throw GIVE_UP
        value = resolvePlain(raw)
        pos = end
      }
      this.record(out, out.length, this.starts[k] + start)
      out.push(value)
      skip()
      const sep = line.charCodeAt(pos)
      if (sep === 44) {
        pos++
        skip()
        if (line.charCodeAt(pos) === 93 || pos >= line.length) throw GIVE_UP
        continue
      }
      if (sep === 93) {
        if (!onlyCommentAfter(line, pos + 1)) throw GIVE_UP
        this.i = k + 1
        return out
      }
      throw GIVE_UP
    }
  }
}
