/**
 * Reading a rubr_flow file's YAML: the text → a plain JavaScript value, the problems found on the
 * way (YAML syntax, duplicate keys, aliases, size and nesting limits) and a locator that turns a
 * document path (`steps.2.check`) into a line of the text. Used by the validator; pure, never throws
 * on any input.
 *
 * Hardened against hostile text:
 * - a size limit (`MAX_TEXT_LENGTH`) checked before parsing;
 * - a cheap nesting estimate before parsing (the YAML composer recurses once per level, and running
 *   out of stack inside it is not always a catchable error), and a depth limit while converting;
 * - duplicate keys are found here with a set per mapping (the library's own check is quadratic);
 * - aliases are expanded by copying, with a budget on the expanded nodes (no "billion laughs") and a
 *   cycle check;
 * - mappings become plain objects whose `__proto__` key, if any, is an own property (no prototype
 *   is ever changed).
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node as YamlNode } from "yaml"

/** The longest text read (characters); a rubr_flow is a procedure, not a data set. */
export const MAX_TEXT_LENGTH = 1024 * 1024
/** The deepest nesting of mappings and lists read (a rubr_flow needs 5). */
export const MAX_DEPTH = 64
/** The most nodes alias expansion may add to the document. */
export const MAX_ALIAS_NODES = 10_000
/** A bound on the nesting the YAML parser is asked to read; see `estimateNesting`. */
const MAX_ESTIMATED_NESTING = 200

export type PathSegment = string | number

/** Where an issue points: the node at its path, or the mapping that should hold the path's last key. */
export type Anchor = "node" | "container"

export interface ParseProblem {
  readonly code: string
  readonly severity: "error" | "warning"
  readonly message: string
  /** a character offset in the text */
  readonly offset: number
  /** where in the document, when known */
  readonly path: ReadonlyArray<PathSegment>
}

export interface ParsedText {
  /** the document as plain data; `undefined` when there is nothing to validate */
  readonly value: unknown
  /** the source text of the top-level `rubr_flow` value, when it is a scalar */
  readonly versionText: string | null
  readonly problems: ReadonlyArray<ParseProblem>
  /** true when the value must not be validated further (syntax errors, limits) */
  readonly fatal: boolean
  /** the offset for an issue at `path` (the nearest existing ancestor when the path is not there) */
  readonly offsetOf: (path: ReadonlyArray<PathSegment>, anchor: Anchor) => number
}

/** 1-based line of `offset` in `text`, counting `\n` (lazy: the line index is built on first use). */
export const makeLineOf = (text: string): ((offset: number) => number) => {
  let starts: Array<number> | undefined
  return (offset) => {
    if (starts === undefined) {
      starts = [0]
      for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1)
    }
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (starts[mid] <= offset) lo = mid
      else hi = mid - 1
    }
    return lo + 1
  }
}

/**
 * An upper bound, cheap to compute, on how deeply the YAML composer will recurse: twice the number of
 * open indentation levels (a mapping and a list may share one), plus `- ` / `? ` / `: ` chains at the start of
 * a line, plus unclosed flow brackets. Brackets inside quoted or block text only make it larger.
 */
export const estimateNesting = (text: string): number => {
  const levels: Array<number> = []
  let brackets = 0
  let max = 0
  let i = 0
  const n = text.length
  while (i < n) {
    let indent = 0
    while (i < n && text.charCodeAt(i) === 32) {
      indent++
      i++
    }
    let chain = 0
    while (i + 1 < n && (text[i] === "-" || text[i] === "?" || text[i] === ":") && (text[i + 1] === " " || text[i + 1] === "\t")) {
      chain++
      i += 2
      while (i < n && (text[i] === " " || text[i] === "\t")) i++
    }
    const lineEnd = text.indexOf("\n", i)
    const end = lineEnd === -1 ? n : lineEnd
    if (end > i || chain > 0) {
      while (levels.length > 0 && levels[levels.length - 1] > indent) levels.pop()
      if (levels.length === 0 || levels[levels.length - 1] < indent) levels.push(indent)
    }
    const base = 2 * levels.length + chain
    if (base + brackets > max) max = base + brackets
    for (; i < end; i++) {
      const c = text.charCodeAt(i)
      if (c === 91 || c === 123) {
        brackets++
        if (base + brackets > max) max = base + brackets
      } else if ((c === 93 || c === 125) && brackets > 0) brackets--
    }
    i = end + 1
  }
  return max
}

const YAML_OPTIONS = {
  prettyErrors: false,
  uniqueKeys: false,
  resolveKnownTags: false,
  strict: true,
  // not "silent": that also drops the MULTIPLE_DOCS error (parseDocument itself never logs)
  logLevel: "error"
} as const

const syntaxMessage = (code: string, message: string): string => {
  switch (code) {
    case "TAB_AS_INDENT":
      return "Tabs are not allowed as indentation in YAML: indent with spaces."
    case "DUPLICATE_KEY":
      return "This key appears twice in the same mapping."
    case "RESOURCE_EXHAUSTION":
      return "The document is nested too deeply to read."
    default:
      return `YAML syntax error: ${message.replace(/\s+/g, " ").trim()}`
  }
}

class Abort {
  constructor(readonly problem: ParseProblem) {}
}

const describeKind = (node: YamlNode): string => (isMap(node) ? "a mapping" : isSeq(node) ? "a list" : "a value")

// ---------------------------------------------------------------------------------------------------
// The fast path: a reader for the YAML that rubr_flow files are made of (block mappings and lists,
// plain, quoted and literal scalars, one-line flow lists, comments). It returns exactly what the YAML
// library would, or gives up (`undefined`) at the first thing outside that subset or in doubt, and the
// library reads the text instead. It is about ten times faster, and records the offsets of keys and
// items as it goes, so no second parse is needed to place issues.

class GiveUp {}
const GIVE_UP = new GiveUp()

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

/** Keys that YAML reads as something other than their text. */
const NON_STRING_KEYS: ReadonlySet<string> = new Set(["null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE"])

const KEY = /([A-Za-z_][A-Za-z0-9_-]{0,1000}):(?: |$)/y
/**
 * What the whole text must not contain for the fast path: a CR not before LF, BOM, control and special
 * line characters, `---`/`...`/`%` at a line start. (Tabs are read only inside literal blocks, after
 * the indentation; anywhere else the reader gives up.)
 */
const OUTSIDE_SUBSET = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff\u2028\u2029]|\r(?!\n)|^(?:---|\.\.\.|%)/m
/** A plain scalar may not start with these (the quoted, literal and flow forms are read separately). */
const INDICATOR_START = /^(?:[-?:](?: |$)|[,[\]{}#&*!|>'"%@`])/
const DOUBLE_ESCAPES: Record<string, string> = {
  "0": "\0", a: "\x07", b: "\b", t: "\t", n: "\n", v: "\v", f: "\f", r: "\r", e: "\x1b", " ": " ",
  '"': '"', "/": "/", "\\": "\\", N: "\u0085", _: "\u00a0", L: "\u2028", P: "\u2029"
}
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 }

export interface FastParse {
  readonly value: Record<string, unknown>
  readonly problems: ReadonlyArray<ParseProblem>
  readonly versionText: string | null
  readonly offsetOf: (path: ReadonlyArray<PathSegment>, anchor: Anchor) => number
}

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

const indentOf = (line: string): number => {
  let i = 0
  while (line.charCodeAt(i) === 32) i++
  return i
}

/** After a closing quote or a flow list: nothing, or spaces and a comment. */
const onlyCommentAfter = (line: string, at: number): boolean => {
  let i = at
  while (line.charCodeAt(i) === 32) i++
  return i === line.length || (line.charCodeAt(i) === 35 && i > at)
}

class FastReader {
  readonly lines: Array<string>
  readonly starts: Array<number>
  readonly endsWithNewline: boolean
  /** the lines with a tab, which only a literal block may hold */
  readonly tabbed: Set<number> = new Set()
  readonly positions = new WeakMap<object, Map<PathSegment, number>>()
  readonly problems: Array<ParseProblem> = []
  readonly path: Array<PathSegment> = []
  rootOffset = 0
  versionText: string | null = null
  /** the next line to read */
  i = 0

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

  readRoot(): Record<string, unknown> {
    const j = this.nextContent(0)
    if (j === -1) throw GIVE_UP
    const ind = indentOf(this.lines[j])
    KEY.lastIndex = ind
    if (!KEY.test(this.lines[j])) throw GIVE_UP
    this.rootOffset = this.starts[j] + ind
    const root = this.readMap(j, ind, 0)
    if (this.nextContent(this.i) !== -1) throw GIVE_UP
    return root
  }

  /** A block mapping whose first key is on line `first` at column `ind`. Leaves `i` after it. */
  readMap(first: number, ind: number, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw GIVE_UP
    const out: Record<string, unknown> = {}
    const seen = new Set<string>()
    let k = first
    for (;;) {
      if (this.tabbed.has(k)) throw GIVE_UP
      const line = this.lines[k]
      KEY.lastIndex = ind
      const m = KEY.exec(line)
      if (m === null) throw GIVE_UP
      const key = m[1]
      if (NON_STRING_KEYS.has(key)) throw GIVE_UP
      const offset = this.starts[k] + ind
      if (seen.has(key)) {
        this.problems.push(duplicateKeyProblem(key, offset, [...this.path, key]))
      }
      seen.add(key)
      let p = ind + key.length + 1
      while (line.charCodeAt(p) === 32) p++
      this.path.push(key)
      const value = this.readValue(k, p, ind, true, depth)
      if (depth === 0 && key === "rubr_flow") this.versionText = versionOf(value, this.lastPlain)
      this.path.pop()
      if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
      else out[key] = value
      this.record(out, key, offset)
      const next = this.nextContent(this.i)
      if (next === -1) return out
      const nind = indentOf(this.lines[next])
      if (nind < ind) {
        this.i = next
        return out
      }
      if (nind > ind) throw GIVE_UP
      k = next
    }
  }

  /** A block list whose items start at column `ind`, the first on line `first`. */
  readSeq(first: number, ind: number, depth: number): Array<unknown> {
    if (depth > MAX_DEPTH) throw GIVE_UP
    const out: Array<unknown> = []
    let k = first
    for (;;) {
      if (this.tabbed.has(k)) throw GIVE_UP
      const line = this.lines[k]
      let q = ind + 1
      while (line.charCodeAt(q) === 32) q++
      const index = out.length
      this.path.push(index)
      let value: unknown
      let offset = this.starts[k] + q
      if (q >= line.length || line.charCodeAt(q) === 35) {
        const j = this.nextContent(k + 1)
        value = this.readNested(k + 1, ind, false, depth)
        // the item is where its content starts (as the yaml library places it)
        offset = value !== null && j !== -1 ? this.starts[j] + indentOf(this.lines[j]) : this.starts[k] + ind
      } else {
        KEY.lastIndex = q
        if (KEY.test(line)) {
          value = this.readMap(k, q, depth + 1)
        } else {
          value = this.readValue(k, q, ind, false, depth)
        }
      }
      this.path.pop()
      out.push(value)
      this.record(out, index, offset)
      const next = this.nextContent(this.i)
      if (next === -1) return out
      const nline = this.lines[next]
      const nind = indentOf(nline)
      if (nind < ind) {
        this.i = next
        return out
      }
      if (nind > ind) throw GIVE_UP
      if (!isDash(nline, nind)) {
        // a mapping's next key after a list at its own indentation
        this.i = next
        return out
      }
      k = next
    }
  }

  /** A value that starts on the lines after a `key:` or `-` with nothing after it. */
  readNested(from: number, ind: number, sameIndentList: boolean, depth: number): unknown {
    const j = this.nextContent(from)
    if (j === -1) {
      this.i = this.lines.length
      return null
    }
    const line = this.lines[j]
    const nind = indentOf(line)
    if (nind > ind) {
      if (isDash(line, nind)) return this.readSeq(j, nind, depth + 1)
      KEY.lastIndex = nind
      if (KEY.test(line)) return this.readMap(j, nind, depth + 1)
      throw GIVE_UP
    }
    if (nind === ind && sameIndentList && isDash(line, nind)) return this.readSeq(j, nind, depth + 1)
    this.i = j
    return null
  }

  lastPlain: string | null = null

  /** The value after `key:` or `- ` at column `p` of line `k`; `ind` is the enclosing block's indentation. */
  readValue(k: number, p: number, ind: number, inMap: boolean, depth: number): unknown {
    const line = this.lines[k]
    this.lastPlain = null
    if (p >= line.length || line.charCodeAt(p) === 35) return this.readNested(k + 1, ind, inMap, depth)
    const c = line[p]
    switch (c) {
      case "|":
        return this.readLiteral(k, p, ind)
      case '"':
        return this.readQuoted(k, p, ind, true)
      case "'":
        return this.readQuoted(k, p, ind, false)
      case "[":
        return this.readFlowList(k, p)
      case "{": {
        if (line.charCodeAt(p + 1) !== 125 || !onlyCommentAfter(line, p + 2)) throw GIVE_UP
        this.i = k + 1
        return {}
      }
    }
    if (INDICATOR_START.test(line.slice(p, p + 2))) throw GIVE_UP
    return this.readPlain(k, p, ind)
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

const isDash = (line: string, at: number): boolean =>
  line.charCodeAt(at) === 45 && (at + 1 === line.length || line.charCodeAt(at + 1) === 32)

const versionOf = (value: unknown, plain: string | null): string | null =>
  typeof value === "string" ? value : value === null || typeof value === "object" ? null : plain ?? String(value)

const duplicateKeyProblem = (key: string, offset: number, path: ReadonlyArray<PathSegment>): ParseProblem => ({
  code: "duplicate_key",
  severity: "error",
  offset,
  path,
  message: `The key \`${clip(key)}\` appears more than once in this mapping; the last one wins. Keep one.`
})

/** The fast path alone (exported for tests): the document, or `undefined` when the full parser must read it. */
export const fastParse = (text: string): FastParse | undefined => {
  if (text.length > MAX_TEXT_LENGTH || OUTSIDE_SUBSET.test(text)) return undefined
  const reader = new FastReader(text)
  let value: Record<string, unknown>
  try {
    value = reader.readRoot()
  } catch (e) {
    if (e === GIVE_UP) return undefined
    // a bug in the reader must not break validation: the full parser reads the text
    return undefined
  }
  const positions = reader.positions
  const rootOffset = reader.rootOffset
  const offsetOf = (path: ReadonlyArray<PathSegment>, anchor: Anchor): number => {
    const target = anchor === "container" ? path.slice(0, -1) : path
    let node: unknown = value
    let offset = rootOffset
    for (const segment of target) {
      if (node === null || typeof node !== "object") return offset
      const at = positions.get(node)?.get(segment)
      if (at === undefined) return offset
      offset = at
      node = Array.isArray(node) ? node[segment as number] : (node as Record<string, unknown>)[segment]
    }
    return offset
  }
  return { value, problems: reader.problems, versionText: reader.versionText, offsetOf }
}

/** Reads `text`: the fast path when it can, the yaml library otherwise. Never throws. */
export const parseFlowText = (text: string): ParsedText => {
  const noLocation = () => 0
  if (text.length > MAX_TEXT_LENGTH) {
    return {
      value: undefined,
      versionText: null,
      fatal: true,
      offsetOf: noLocation,
      problems: [{
        code: "too_large",
        severity: "error",
        offset: 0,
        path: [],
        message: `The file has ${text.length} characters; a rubr_flow may have at most ${MAX_TEXT_LENGTH}. Split the procedure into smaller flows.`
      }]
    }
  }
  const fast = fastParse(text)
  if (fast !== undefined) {
    return { value: fast.value, versionText: fast.versionText, problems: fast.problems, fatal: false, offsetOf: fast.offsetOf }
  }
  return readWithLibrary(text)
}

/** The full reader (the yaml library), for any text; `parseFlowText` uses it when the fast path gives up. */
export const readWithLibrary = (text: string): ParsedText => {
  const noLocation = () => 0
  if (text.length > MAX_TEXT_LENGTH) return parseFlowText(text)
  const nesting = estimateNesting(text)
  if (nesting > MAX_ESTIMATED_NESTING) {
    return {
      value: undefined,
      versionText: null,
      fatal: true,
      offsetOf: noLocation,
      problems: [{
        code: "too_deep",
        severity: "error",
        offset: 0,
        path: [],
        message: `The document is nested too deeply to read (about ${nesting} levels); a rubr_flow needs at most 5.`
      }]
    }
  }

  let doc: Document.Parsed
  try {
    doc = parseDocument(text, YAML_OPTIONS)
  } catch (e) {
    // the library reports its problems as errors; this is a last resort
    return {
      value: undefined,
      versionText: null,
      fatal: true,
      offsetOf: noLocation,
      problems: [{ code: "yaml_syntax", severity: "error", offset: 0, path: [], message: `The YAML could not be read: ${String(e)}` }]
    }
  }

  const problems: Array<ParseProblem> = []
  let fatal = false
  for (const error of doc.errors) {
    const offset = Math.max(0, error.pos[0])
    if (error.code === "MULTIPLE_DOCS") {
      problems.push({
        code: "multiple_documents",
        severity: "error",
        offset,
        path: [],
        message: "The file holds more than one YAML document (a `---` or `...` line): a rubr_flow is one document. Remove the marker and everything that belongs to the other document."
      })
    } else {
      fatal = true
      problems.push({
        code: error.code === "RESOURCE_EXHAUSTION" ? "too_deep" : "yaml_syntax",
        severity: "error",
        offset,
        path: [],
        message: syntaxMessage(error.code, error.message)
      })
    }
  }
  for (const warning of doc.warnings) {
    problems.push({
      code: "yaml_warning",
      severity: "warning",
      offset: Math.max(0, warning.pos[0]),
      path: [],
      message: `YAML: ${warning.message.replace(/\s+/g, " ").trim()}`
    })
  }

  const contents = doc.contents as YamlNode | null
  const offsetOf = makeOffsetOf(contents)
  const versionText = readVersionText(contents)
  if (fatal) return { value: undefined, versionText, fatal, offsetOf, problems }
  if (contents === null || (isScalar(contents) && contents.value === null && !contents.source)) {
    problems.push({
      code: "empty_document",
      severity: "error",
      offset: 0,
      path: [],
      message: "The file is empty: a rubr_flow starts with `rubr_flow: \"1.0\"` followed by name, description, when_to_use and steps."
    })
    return { value: undefined, versionText, fatal: true, offsetOf, problems }
  }

  // Conversion to plain data: anchors are registered in document order; alias expansion copies.
  const anchors = new Map<string, YamlNode>()
  const active = new Set<YamlNode>()
  const path: Array<PathSegment> = []
  let aliasNodes = 0
  const convert = (node: YamlNode, depth: number, expanding: boolean): unknown => {
    if (depth > MAX_DEPTH) {
      throw new Abort({
        code: "too_deep",
        severity: "error",
        offset: node.range?.[0] ?? 0,
        path: [...path],
        message: `The document is nested more than ${MAX_DEPTH} levels deep; a rubr_flow needs at most 5.`
      })
    }
    if (expanding && ++aliasNodes > MAX_ALIAS_NODES) {
      throw new Abort({
        code: "yaml_alias",
        severity: "error",
        offset: node.range?.[0] ?? 0,
        path: [...path],
        message: `Aliases (*name) expand to more than ${MAX_ALIAS_NODES} values: write the content out instead of repeating it through aliases.`
      })
    }
    if (isAlias(node)) {
      const target = anchors.get(node.source)
      if (target === undefined) {
        throw new Abort({
          code: "yaml_alias",
          severity: "error",
          offset: node.range?.[0] ?? 0,
          path: [...path],
          message: `The alias *${node.source} names no anchor &${node.source} defined before it.`
        })
      }
      if (active.has(target)) {
        throw new Abort({
          code: "yaml_alias",
          severity: "error",
          offset: node.range?.[0] ?? 0,
          path: [...path],
          message: `The alias *${node.source} is inside the value it refers to (a cycle).`
        })
      }
      return convert(target, depth, true)
    }
    if (!expanding && node.anchor) anchors.set(node.anchor, node)
    if (isScalar(node)) return node.value
    active.add(node)
    try {
      if (isSeq(node)) {
        const out: Array<unknown> = []
        node.items.forEach((item, i) => {
          path.push(i)
          out.push(item == null ? null : convert(item as YamlNode, depth + 1, expanding))
          path.pop()
        })
        return out
      }
      if (isMap(node)) {
        const out: Record<string, unknown> = {}
        const seen = new Set<string>()
        for (const pair of node.items) {
          const keyNode = pair.key as YamlNode | null
          let key: string
          if (keyNode === null) key = ""
          else {
            const k = isScalar(keyNode) || isAlias(keyNode) ? convert(keyNode, depth + 1, expanding) : undefined
            if (k !== null && typeof k === "object" || k === undefined) {
              if (!expanding) {
                problems.push({
                  code: "invalid_key",
                  severity: "error",
                  offset: keyNode.range?.[0] ?? 0,
                  path: [...path],
                  message: `A key here is ${describeKind(isAlias(keyNode) ? anchors.get(keyNode.source) ?? keyNode : keyNode)}; keys must be plain words such as \`steps\` or \`check\`.`
                })
              }
              continue
            }
            key = String(k)
          }
          if (seen.has(key) && !expanding) {
            problems.push(duplicateKeyProblem(key, keyNode?.range?.[0] ?? node.range?.[0] ?? 0, [...path, key]))
          }
          seen.add(key)
          path.push(key)
          const value = pair.value == null ? null : convert(pair.value as YamlNode, depth + 1, expanding)
          path.pop()
          if (key === "__proto__") {
            Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
          } else {
            out[key] = value
          }
        }
        return out
      }
      return null
    } finally {
      active.delete(node)
    }
  }

  try {
    const value = convert(contents, 0, false)
    return { value, versionText, fatal: false, offsetOf, problems }
  } catch (e) {
    if (e instanceof Abort) {
      problems.push(e.problem)
      return { value: undefined, versionText, fatal: true, offsetOf, problems }
    }
    problems.push({ code: "too_deep", severity: "error", offset: 0, path: [], message: `The document could not be read: ${String(e)}` })
    return { value: undefined, versionText, fatal: true, offsetOf, problems }
  }
}

const clip = (s: string, max = 60): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s)

const keyString = (node: unknown): string | undefined => {
  if (node === null || node === undefined) return ""
  if (isScalar(node)) {
    const v = node.value
    return v !== null && typeof v === "object" ? undefined : String(v)
  }
  return undefined
}

const readVersionText = (contents: YamlNode | null): string | null => {
  if (contents === null || !isMap(contents)) return null
  for (let i = contents.items.length - 1; i >= 0; i--) {
    const pair = contents.items[i]
    if (keyString(pair.key) === "rubr_flow") {
      const v = pair.value
      if (!isScalar(v) || v.value === null) return null
      if (typeof v.value === "string") return v.value
      return typeof v.source === "string" && v.source !== "" ? v.source : String(v.value)
    }
  }
  return null
}

/** Follows `path` through the parsed nodes (aliases resolved by name, last matching key wins). */
const makeOffsetOf = (contents: YamlNode | null) => {
  const anchorsByName = (): Map<string, YamlNode> => {
    const m = new Map<string, YamlNode>()
    const walk = (node: unknown, depth: number): void => {
      if (depth > MAX_DEPTH || node === null || typeof node !== "object") return
      const n = node as YamlNode
      if (!isAlias(n) && n.anchor && !m.has(n.anchor)) m.set(n.anchor, n)
      if (isSeq(n)) for (const item of n.items) walk(item, depth + 1)
      else if (isMap(n)) for (const pair of n.items) walk(pair.value, depth + 1)
    }
    walk(contents, 0)
    return m
  }
  let anchors: Map<string, YamlNode> | undefined
  const deref = (node: unknown): unknown => {
    if (isAlias(node)) {
      anchors ??= anchorsByName()
      return anchors.get(node.source) ?? node
    }
    return node
  }
  const start = (node: unknown, fallback: number): number => {
    const r = (node as YamlNode | null | undefined)?.range
    return r ? r[0] : fallback
  }
  return (path: ReadonlyArray<PathSegment>, anchor: Anchor): number => {
    const target = anchor === "container" ? path.slice(0, -1) : path
    let node: unknown = contents
    let offset = start(contents, 0)
    for (const segment of target) {
      node = deref(node)
      if (isSeq(node) && typeof segment === "number") {
        const item = node.items[segment]
        if (item === undefined) return offset
        node = item
        offset = start(item, offset)
      } else if (isMap(node)) {
        let found: { key: unknown; value: unknown } | undefined
        for (let i = node.items.length - 1; i >= 0; i--) {
          const pair = node.items[i]
          if (keyString(pair.key) === String(segment)) {
            found = pair
            break
          }
        }
        if (found === undefined) return offset
        node = found.value
        // a key's line is where a person looks for its value, even for block scalars and lists
        offset = start(found.key, start(found.value, offset))
      } else {
        return offset
      }
    }
    return offset
  }
}
