/**
 * A small, tolerant reader for the YAML-ish frontmatter of instruction files (`---` on line 1, plain
 * `key: value` lines, quoted scalars, `|`/`>` block scalars, nested maps such as `metadata:`, and
 * `- item` lists). It never rewrites anything: `raw` is the exact block, byte for byte, so an improved
 * file can keep it unchanged. Problems a strict YAML parser would reject are reported as `issues`.
 */
import { splitText } from "./Lines.js"

export interface FrontmatterField {
  readonly key: string
  /** Scalars as text (quotes removed, block scalars joined); maps and lists: "". */
  readonly value: string
  readonly kind: "scalar" | "block" | "map" | "list" | "empty"
  /** 1-based line of the key, and of the last line belonging to it. */
  readonly line: number
  readonly endLine: number
  readonly children: ReadonlyArray<FrontmatterField>
  readonly items: ReadonlyArray<string>
}

export interface FrontmatterIssue {
  readonly line: number
  readonly message: string
  readonly severity: "critical" | "major" | "minor"
}

export interface Frontmatter {
  /** The file opens with a `---` line. */
  readonly present: boolean
  /** A closing `---` (or `...`) line was found. */
  readonly closed: boolean
  /** The exact frontmatter text, delimiters and the closing line's terminator included ("" when absent). */
  readonly raw: string
  /** 1-based line of the closing delimiter (0 when absent or unclosed). */
  readonly endLine: number
  /** 1-based line where the body starts (1 when there is no frontmatter). */
  readonly bodyStartLine: number
  readonly fields: ReadonlyArray<FrontmatterField>
  readonly issues: ReadonlyArray<FrontmatterIssue>
}

const KEY_LINE = /^([A-Za-z0-9_][\w.-]*)\s*:(?:[ \t]+(.*)|[ \t]*)$/

const indentOf = (line: string): number => line.length - line.trimStart().length

const unquote = (value: string, line: number, issues: Array<FrontmatterIssue>): string => {
  const v = value.trim()
  if (v.startsWith("\"")) {
    const m = v.match(/^"((?:[^"\\]|\\.)*)"\s*(#.*)?$/)
    if (!m) {
      issues.push({ line, severity: "major", message: "Unterminated or malformed double-quoted value" })
      return v.slice(1)
    }
    return m[1]!.replace(/\\(["\\/nt])/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c))
  }
  if (v.startsWith("'")) {
    const m = v.match(/^'((?:[^']|'')*)'\s*(#.*)?$/)
    if (!m) {
      issues.push({ line, severity: "major", message: "Unterminated or malformed single-quoted value" })
      return v.slice(1)
    }
    return m[1]!.replace(/''/g, "'")
  }
  // plain scalar: a " #" starts a comment
  const hash = v.search(/\s#/)
  if (hash >= 0) {
    issues.push({
      line,
      severity: "minor",
      message: "A ' #' inside an unquoted value starts a YAML comment, so the rest of the value is dropped"
    })
    return v.slice(0, hash).trim()
  }
  if (/:\s/.test(v) && !v.startsWith("[") && !v.startsWith("{")) {
    issues.push({
      line,
      severity: "major",
      message: "An unquoted value containing ': ' is invalid YAML (strict parsers reject it); quote the value"
    })
  }
  if (/^[@`%&*!]/.test(v)) {
    issues.push({ line, severity: "major", message: `An unquoted value cannot start with '${v[0]}' in YAML; quote it` })
  }
  return v
}

/**
 * A scalar and its continuation lines: a plain one is folded (joined with spaces); a quoted one is one
 * flow scalar across its lines (`description: "… \n  … \"x\" …"` is valid YAML), unquoted whole.
 */
const scalarValue = (rest: string, continuation: ReadonlyArray<string>, line: number, issues: Array<FrontmatterIssue>): string => {
  const more = continuation.map((l) => l.trim()).filter((l) => l !== "")
  if (/^["']/.test(rest) && more.length > 0) return unquote([rest, ...more].join(" "), line, issues)
  return [unquote(rest, line, issues), ...more].join(" ")
}

interface Ctx {
  readonly lines: ReadonlyArray<string>
  /** index of the first content line and one past the last (0-based) */
  readonly end: number
  readonly issues: Array<FrontmatterIssue>
}

/** Parses mapping entries at exactly `indent`, starting at index `i`; returns fields and the next index. */
const parseMap = (ctx: Ctx, start: number, indent: number): { fields: Array<FrontmatterField>; next: number } => {
  const fields: Array<FrontmatterField> = []
  const seen = new Set<string>()
  let i = start
  while (i < ctx.end) {
    const line = ctx.lines[i]!
    if (line.trim() === "" || line.trimStart().startsWith("#")) {
      i++
      continue
    }
    const ind = indentOf(line)
    if (ind < indent) break
    if (/^\s*\t/.test(line) || line.slice(0, ind).includes("\t")) {
      ctx.issues.push({ line: i + 1, severity: "major", message: "Tab indentation is not allowed in YAML" })
    }
    if (ind > indent) {
      ctx.issues.push({ line: i + 1, severity: "major", message: "Unexpected indentation" })
      i++
      continue
    }
    const m = line.slice(ind).match(KEY_LINE)
    if (!m) {
      ctx.issues.push({
        line: i + 1,
        severity: "major",
        message: `Cannot parse this line as 'key: value': ${JSON.stringify(line.trim().slice(0, 60))}`
      })
      i++
      continue
    }
    const key = m[1]!
    if (seen.has(key)) {
      ctx.issues.push({ line: i + 1, severity: "major", message: `Duplicate key '${key}'` })
    }
    seen.add(key)
    const rest = (m[2] ?? "").trim()
    const keyLine = i + 1
    i++
    // lines that belong to this entry: more indented than it (or blank)
    let j = i
    let last = i - 1
    while (j < ctx.end) {
      const l = ctx.lines[j]!
      if (l.trim() === "") {
        j++
        continue
      }
      if (indentOf(l) <= indent && !(indentOf(l) === indent && l.trimStart().startsWith("- ") && rest === "")) break
      last = j
      j++
    }
    const childEnd = last + 1
    if (/^[|>][+-]?\d*\s*(#.*)?$/.test(rest)) {
      const text = ctx.lines.slice(i, childEnd).map((l) => l.trim()).join(rest.startsWith(">") ? " " : "\n").trim()
      fields.push({ key, value: text, kind: "block", line: keyLine, endLine: childEnd, children: [], items: [] })
      i = childEnd
      continue
    }
    if (rest === "" || rest.startsWith("#")) {
      if (childEnd <= i) {
        fields.push({ key, value: "", kind: "empty", line: keyLine, endLine: keyLine, children: [], items: [] })
        continue
      }
      const first = ctx.lines.slice(i, childEnd).find((l) => l.trim() !== "")!
      if (first.trimStart().startsWith("- ") || first.trim() === "-") {
        const items = ctx.lines
          .slice(i, childEnd)
          .filter((l) => /^\s*-(\s|$)/.test(l))
          .map((l) => unquote(l.trimStart().slice(1), keyLine, ctx.issues))
        fields.push({ key, value: "", kind: "list", line: keyLine, endLine: childEnd, children: [], items })
      } else {
        const sub = parseMap({ ...ctx, end: childEnd }, i, indentOf(first))
        fields.push({ key, value: "", kind: "map", line: keyLine, endLine: childEnd, children: sub.fields, items: [] })
      }
      i = childEnd
      continue
    }
    if (rest.startsWith("[") && rest.endsWith("]")) {
      const items = rest.slice(1, -1).split(",").map((s) => s.trim()).filter((s) => s !== "")
        .map((s) => unquote(s, keyLine, ctx.issues))
      fields.push({ key, value: rest, kind: "list", line: keyLine, endLine: keyLine, children: [], items })
      continue
    }
    // a plain or quoted scalar, possibly continued on more-indented lines (folded)
    fields.push({ key, value: scalarValue(rest, ctx.lines.slice(i, childEnd), keyLine, ctx.issues), kind: "scalar", line: keyLine, endLine: Math.max(keyLine, childEnd), children: [], items: [] })
    i = Math.max(i, childEnd)
  }
  return { fields, next: i }
}

export const parseFrontmatter = (text: string): Frontmatter => {
  const src = text.startsWith("\uFEFF") ? text.slice(1) : text
  const { lines } = splitText(src)
  const absent: Frontmatter = {
    present: false,
    closed: false,
    raw: "",
    endLine: 0,
    bodyStartLine: 1,
    fields: [],
    issues: []
  }
  if (lines.length === 0 || lines[0]!.trimEnd() !== "---") return absent
  let close = -1
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!.trimEnd()
    if (l === "---" || l === "...") {
      close = i
      break
    }
  }
  const issues: Array<FrontmatterIssue> = []
  if (close < 0) {
    issues.push({ line: 1, severity: "critical", message: "The frontmatter opened on line 1 is never closed with '---'" })
    return { ...absent, present: true, issues }
  }
  const { fields } = parseMap({ lines, end: close, issues }, 1, 0)
  if (fields.length === 0) {
    issues.push({ line: 1, severity: "major", message: "The frontmatter block is empty" })
  }
  // exact raw block: up to and including the closing line's terminator
  let offset = text.length - src.length
  for (let i = 0; i <= close; i++) {
    const nl = text.indexOf("\n", offset)
    offset = nl < 0 ? text.length : nl + 1
  }
  return {
    present: true,
    closed: true,
    raw: text.slice(0, offset),
    endLine: close + 1,
    bodyStartLine: close + 2,
    fields,
    issues: issues.sort((a, b) => a.line - b.line)
  }
}

export const getField = (fm: Frontmatter, key: string): FrontmatterField | undefined =>
  fm.fields.find((f) => f.key === key)

/** A YAML scalar for `value`: plain when that is safe, otherwise double-quoted (JSON escaping is valid YAML). */
export const yamlScalar = (value: string): string =>
  /^[A-Za-z0-9(][^\n]*$/.test(value) && !/:\s|\s#|:$/.test(value) && value.trim() === value
    ? value
    : JSON.stringify(value)
