/**
 * Bundle references in a markdown document: markdown links (`[x](reference/foo.md)`, images,
 * reference definitions) and bare paths (`examples/foo.md`, `scripts/x.py`, `reference/` folders,
 * `<path-to-skill>/scripts/x.py`), in prose and inline code. Fenced code blocks, URLs, anchors,
 * absolute and home paths (`/etc/x`, `~/.config/x`), package names (`@scope/pkg`), domains
 * (`github.com/org/repo`) and slash-separated words without an extension (`CI/CD`, `and/or`) are not
 * bundle references.
 */
import { type MarkdownDoc, linkPath, maskInlineCode } from "./Markdown.js"

export interface Reference {
  readonly kind: "link" | "path" | "name"
  readonly line: number
  /** 0-based column of `written` in the line */
  readonly column: number
  /** the text as written in the file (what a fix replaces) */
  readonly written: string
  /** the path part to resolve (placeholder prefix, fragment and query removed) */
  readonly path: string
  /** a folder reference (`examples/`) */
  readonly directory: boolean
  /** contains `*` */
  readonly glob: boolean
  /** written as `<path-to-skill>/x` or `{baseDir}/x`: relative to the artifact's folder */
  readonly rootRelative: boolean
  /** found inside inline code */
  readonly inCode: boolean
  /** the link text for markdown links */
  readonly linkText: string
}

const FILE_EXT = /\.[A-Za-z][A-Za-z0-9]{0,7}$/
const DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|org|net|io|dev|ai|app|co|gov|edu|sh|me|info|so|xyz|cloud)$/i
const PLACEHOLDER = /^(<[^<>\s]+>|\{\{?\s*[\w.-]+\s*\}?\}|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)\//
/** extensions that make a bare file name (no folder) a plausible bundle file */
const NAME_EXT = /\.(md|mdx|markdown|txt|py|sh|bash|js|mjs|cjs|ts|json|jsonl|ya?ml|xml|csv|tsv|html?|toml|sql|rb|go|rs|java|ipynb|rubr_flow|prompt|j2|jinja|tmpl|template)$/i

interface Classified {
  readonly path: string
  readonly written: string
  readonly offset: number
  readonly directory: boolean
  readonly glob: boolean
  readonly rootRelative: boolean
  readonly single: boolean
}

/** Classifies one token; `offset` is where `written` starts inside `token`. */
export const classifyPathToken = (token: string, allowDirectory: boolean): Classified | null => {
  let t = token
  let offset = 0
  while (t.length > 0 && /^[("'(\[]/.test(t)) {
    t = t.slice(1)
    offset++
  }
  // trailing punctuation is the sentence's, not the path's
  while (t.length > 0) {
    const last = t[t.length - 1]!
    if (/[,;:!?)"'\]]/.test(last) || (last === "." && !t.endsWith(".."))) {
      t = t.slice(0, -1)
      continue
    }
    break
  }
  if (t === "" || t.includes("://") || t.startsWith("#")) return null
  const written = t
  let rootRelative = false
  const ph = t.match(PLACEHOLDER)
  if (ph) {
    t = t.slice(ph[0].length)
    rootRelative = true
  }
  if (/^[/~$\\]/.test(t) || /[<>{}$%@:\\|=`]/.test(t)) return null
  const directory = t.endsWith("/")
  const body = directory ? t.slice(0, -1) : t
  const segments = body.split("/")
  if (segments.some((s) => s === "" || !/^[\w.*+-]+$/.test(s))) return null
  const single = segments.length === 1 && !directory
  const meaningful = segments.filter((s) => s !== "." && s !== "..")
  if (meaningful.length === 0) return null
  if (DOMAIN.test(meaningful[0]!) && segments[0] !== "." && segments[0] !== "..") return null
  if (directory) {
    if (!allowDirectory) return null
    if (!meaningful.every((s) => /[A-Za-z]/.test(s))) return null
  } else if (single) {
    if (!NAME_EXT.test(body) || !/[A-Za-z]/.test(body.replace(NAME_EXT, ""))) return null
  } else if (!FILE_EXT.test(segments[segments.length - 1]!)) {
    return null
  }
  return { path: t, written, offset, directory, glob: t.includes("*"), rootRelative, single }
}

const PROSE_TOKEN = /(?<![\w/.@:-])((?:<[^<>\s]+>\/|\{\{?\s*[\w.-]+\s*\}?\}\/|\$\{?\w+\}?\/)?(?:\.{1,2}\/)*[\w.*+-]+(?:\/[\w.*+-]+)+\/?)/g

export const extractReferences = (doc: MarkdownDoc): ReadonlyArray<Reference> => {
  const refs: Array<Reference> = []
  for (const l of doc.links) {
    const p = linkPath(l.target)
    if (p === null) continue
    const ph = p.match(PLACEHOLDER)
    const path = ph ? p.slice(ph[0].length) : p
    if (/^[/~\\]/.test(path)) continue
    refs.push({
      kind: "link",
      line: l.line,
      column: l.column,
      written: l.target,
      path,
      directory: path.endsWith("/"),
      glob: path.includes("*"),
      rootRelative: ph !== null,
      inCode: false,
      linkText: l.text
    })
  }
  for (const c of doc.inlineCode) {
    // a module specifier in a statement (`import Tree from './Tree.svelte'`, `require("./db")`) is relative
    // to the user's source file, not to the skill
    if (/^\s*(?:import|export)\b|\bfrom\s+['"]|\b(?:require|import)\s*\(\s*['"]/.test(c.text)) continue
    // a string literal that a call or a query takes (`read_parquet('data/*.parquet')`, `SELECT * FROM
    // 'data/file.parquet'`) is the program's argument, the user's data; a quoted path a command runs
    // (`python "<path-to-skill>/scripts/x.py"`) is still the skill's
    const literals = [...c.text.matchAll(/(?:[(,]\s*|\b(?:FROM|JOIN|INTO|COPY|TO)\s+)(['"])[^'"]*\1/gi)].map((q) => [q.index!, q.index! + q[0].length] as const)
    const re = /[^\s"'`=,;()[\]]+/g
    let m: RegExpExecArray | null
    while ((m = re.exec(c.text)) !== null) {
      if (literals.some(([a, b]) => a < m!.index && m!.index < b)) continue
      const k = classifyPathToken(m[0], true)
      if (!k) continue
      refs.push({
        kind: k.single ? "name" : "path",
        line: c.line,
        column: c.column + m.index + k.offset,
        written: k.written,
        path: k.path,
        directory: k.directory,
        glob: k.glob,
        rootRelative: k.rootRelative,
        inCode: true,
        linkText: ""
      })
    }
  }
  const linkSpans = new Map<number, Array<readonly [number, number]>>()
  for (const l of doc.links) {
    const spans = linkSpans.get(l.line) ?? []
    spans.push([l.sourceColumn, l.sourceColumn + l.source.length])
    linkSpans.set(l.line, spans)
  }
  for (let n = doc.bodyStartLine; n <= doc.lines.length; n++) {
    if (doc.inCode[n]) continue
    let masked = maskInlineCode(doc.lines[n - 1]!).masked
    for (const [a, b] of linkSpans.get(n) ?? []) masked = masked.slice(0, a) + " ".repeat(b - a) + masked.slice(b)
    PROSE_TOKEN.lastIndex = 0
    let m: RegExpExecArray | null
    while ((m = PROSE_TOKEN.exec(masked)) !== null) {
      const k = classifyPathToken(m[1]!, false)
      if (!k || k.single) continue
      refs.push({
        kind: "path",
        line: n,
        column: m.index + k.offset,
        written: k.written,
        path: k.path,
        directory: false,
        glob: k.glob,
        rootRelative: k.rootRelative,
        inCode: false,
        linkText: ""
      })
    }
    // bare file names in prose (resolvable-only references)
    const nameRe = /(?<![\w/.@:-])([\w-][\w.-]*\.[A-Za-z][\w]{0,7})(?![\w/])/g
    while ((m = nameRe.exec(masked)) !== null) {
      const k = classifyPathToken(m[1]!, false)
      if (!k || !k.single) continue
      refs.push({
        kind: "name",
        line: n,
        column: m.index + k.offset,
        written: k.written,
        path: k.path,
        directory: false,
        glob: false,
        rootRelative: false,
        inCode: false,
        linkText: ""
      })
    }
  }
  return refs.sort((a, b) => a.line - b.line || a.column - b.column)
}
