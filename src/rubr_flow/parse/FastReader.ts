/**
 * The fast path: a reader for the YAML that rubr_flow files are made of (block mappings and lists,
 * plain, quoted and literal scalars, one-line flow lists, comments). It returns exactly what the YAML
 * library would, or gives up (`undefined`) at the first thing outside that subset or in doubt, and the
 * library reads the text instead. It is about ten times faster, and records the offsets of keys and
 * items as it goes, so no second parse is needed to place issues.
 */
import { MAX_DEPTH, MAX_TEXT_LENGTH } from "./Limits.js"
import { FastScalarReader, GIVE_UP, INDICATOR_START, indentOf, onlyCommentAfter } from "./FastScalars.js"
import { type Anchor, duplicateKeyProblem, type ParseProblem, type PathSegment, setKey } from "./Reading.js"

/** Keys that YAML reads as something other than their text. */
const NON_STRING_KEYS: ReadonlySet<string> = new Set(["null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE"])

const KEY = /([A-Za-z_][A-Za-z0-9_-]{0,1000}):(?: |$)/y
/**
 * What the whole text must not contain for the fast path: a CR not before LF, BOM, control and special
 * line characters, `---`/`...`/`%` at a line start. (Tabs are read only inside literal blocks, after
 * the indentation; anywhere else the reader gives up.)
 */
const OUTSIDE_SUBSET = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff\u2028\u2029]|\r(?!\n)|^(?:---|\.\.\.|%)/m

export interface FastParse {
  readonly value: Record<string, unknown>
  readonly problems: ReadonlyArray<ParseProblem>
  readonly versionText: string | null
  readonly offsetOf: (path: ReadonlyArray<PathSegment>, anchor: Anchor) => number
}

/** The block structure: mappings and lists, by indentation, down to the scalars. */
class FastReader extends FastScalarReader {
  readonly problems: Array<ParseProblem> = []
  readonly path: Array<PathSegment> = []
  rootOffset = 0
  versionText: string | null = null

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
      setKey(out, key, value)
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
}

const isDash = (line: string, at: number): boolean =>
  line.charCodeAt(at) === 45 && (at + 1 === line.length || line.charCodeAt(at + 1) === 32)

const versionOf = (value: unknown, plain: string | null): string | null =>
  typeof value === "string" ? value : value === null || typeof value === "object" ? null : plain ?? String(value)

/** The fast path alone (exported for tests): the document, or `undefined` when the full parser must read it. */
export const fastParse = (text: string): FastParse | undefined => {
  if (text.length > MAX_TEXT_LENGTH || OUTSIDE_SUBSET.test(text)) return undefined
  const reader = new FastReader(text)
  let value: Record<string, unknown>
  try {
    value = reader.readRoot()
  } catch {
    // GIVE_UP, or a bug in the reader that must not break validation: the full parser reads the text
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
