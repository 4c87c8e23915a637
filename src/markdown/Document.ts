/** One file analysed once (frontmatter, markdown, references, prose) and the bundle's file index. */
import { type Frontmatter, parseFrontmatter } from "./Frontmatter.js"
import { splitText, type SplitText } from "./Lines.js"
import { analyzeMarkdown, type MarkdownDoc, proseLines } from "./Markdown.js"
import { basename, dirname, editDistance, extname, globToRegExp, resolvePath } from "./Paths.js"
import { extractReferences, type Reference } from "./References.js"
import { countWords } from "../ai/Tokens.js"

/** A file as the analysis reads it: its bundle path and its text (a review's file, an eval's version). */
export interface TextFile {
  readonly path: string
  readonly content: string
}

export interface Doc {
  readonly file: TextFile
  readonly path: string
  /** the file's folder ("" at the bundle root) */
  readonly dir: string
  readonly text: string
  readonly split: SplitText
  readonly fm: Frontmatter
  readonly md: MarkdownDoc
  readonly refs: ReadonlyArray<Reference>
  /** body lines outside fenced code, inline code masked */
  readonly prose: ReadonlyArray<readonly [number, string]>
  /**
   * lines inside a closed example tag (`<example>`, `<good>`/`<bad>`, `<sample_output>`): samples
   * written as they would appear, read like a code block (a path there is the sample's, not a bundle file)
   */
  readonly exampleLines: ReadonlySet<number>
  /** the example tag blocks: opening and closing lines */
  readonly exampleBlocks: ReadonlyArray<{ readonly start: number; readonly end: number; readonly tag: string }>
  readonly words: number
  /** body text (after frontmatter) */
  readonly body: string
  readonly bodyLineCount: number
}

export const analyzeDoc = (file: TextFile): Doc => {
  const split = splitText(file.content)
  const fm = parseFrontmatter(file.content)
  const bodyStart = fm.closed ? fm.bodyStartLine : 1
  const md = analyzeMarkdown(split.lines, bodyStart)
  const prose = proseLines(md)
  const body = split.lines.slice(bodyStart - 1).join("\n")
  const exampleBlocks = exampleTagBlocks(split.lines, bodyStart, md.inCode)
  const exampleLines = new Set<number>()
  for (const b of exampleBlocks) for (let n = b.start; n <= b.end; n++) exampleLines.add(n)
  return {
    file,
    path: file.path,
    dir: dirname(file.path),
    text: file.content,
    split,
    fm,
    md,
    refs: extractReferences(md).filter((r) => !exampleLines.has(r.line)),
    prose,
    exampleLines,
    exampleBlocks,
    words: countWords(prose.map(([, t]) => t).join("\n")),
    body,
    bodyLineCount: Math.max(0, split.lines.length - bodyStart + 1)
  }
}

/** Tags whose content is a sample: `<example>`, `<examples>`, `<good>`, `<bad>`, `<good-example>`, `<sample_output>`, `<before>`/`<after>`. */
const EXAMPLE_TAG = /^(?:[\w-]*(?:example|sample)[\w-]*|good|bad|correct|incorrect|before|after)$/i

/**
 * The example tag blocks of a body: a tag opening a line (`<example>`, `<good>`) and its closing tag on
 * a later line or the same one, outside fenced code. An unclosed tag is no block.
 */
const exampleTagBlocks = (lines: ReadonlyArray<string>, from: number, inCode: ReadonlyArray<boolean>): Array<{ start: number; end: number; tag: string }> => {
  const out: Array<{ start: number; end: number; tag: string }> = []
  for (let n = from; n <= lines.length; n++) {
    if (inCode[n]) continue
    const open = /^\s*<([A-Za-z][\w-]*)(?:\s[^<>]*)?>/.exec(lines[n - 1]!)
    if (!open || !EXAMPLE_TAG.test(open[1]!)) continue
    const close = `</${open[1]!.toLowerCase()}>`
    // an example runs to its closing tag (within 400 lines); the lines inside it are part of it
    for (let k = n; k <= lines.length && k < n + 400; k++) {
      if (lines[k - 1]!.toLowerCase().includes(close)) {
        out.push({ start: n, end: k, tag: open[1]! })
        n = k
        break
      }
    }
  }
  return out
}

/** Files that are instructions (reviewed as documents) rather than code, data or legal text. */
export const isInstructionFile = (path: string): boolean => {
  const base = basename(path).toLowerCase()
  if (/^(license|licence|copying|notice)(\.|$)/.test(base)) return false
  const ext = extname(path)
  return ext === "" || [".md", ".mdx", ".markdown", ".txt", ".prompt", ".rubr_flow", ".mdc"].includes(ext)
}

export type Resolution =
  | { readonly status: "ok"; readonly resolved: string; readonly note?: string }
  | { readonly status: "outside" }
  | { readonly status: "missing"; readonly candidate: string | null; readonly reason: string }

export class BundleIndex {
  readonly paths: ReadonlyArray<string>
  private readonly set: Set<string>
  private readonly lower = new Map<string, Array<string>>()
  private readonly byBase = new Map<string, Array<string>>()

  constructor(paths: ReadonlyArray<string>) {
    this.paths = [...new Set(paths)].sort()
    this.set = new Set(this.paths)
    for (const p of this.paths) {
      push(this.lower, p.toLowerCase(), p)
      push(this.byBase, basename(p), p)
    }
  }

  has(path: string): boolean {
    return this.set.has(path)
  }

  hasDir(dir: string): boolean {
    const d = dir.endsWith("/") ? dir : `${dir}/`
    return d === "/" ? this.paths.length > 0 : this.paths.some((p) => p.startsWith(d))
  }

  /**
   * Resolves a reference written in `doc`: relative to the file's folder, then to `rootDir` (the
   * artifact's folder, for paths written relative to the skill root), then to the bundle root.
   * Bare file names (no folder) resolve anywhere in the bundle by a unique base name.
   */
  resolve(ref: Reference, docDir: string, rootDir: string): Resolution {
    const bases = ref.rootRelative ? [rootDir] : [...new Set([docDir, rootDir, ""])]
    let sawInside = false
    for (const base of bases) {
      const p = resolvePath(base, ref.path)
      if (p === null) continue
      sawInside = true
      if (ref.glob) {
        const re = globToRegExp(p)
        if (this.paths.some((x) => re.test(x))) return { status: "ok", resolved: p }
        continue
      }
      if (ref.directory || ref.path.endsWith("/")) {
        if (p === "" || this.hasDir(p)) return { status: "ok", resolved: p }
        continue
      }
      if (this.has(p)) return { status: "ok", resolved: p }
      if (p !== "" && this.hasDir(p) && ref.kind === "link") return { status: "ok", resolved: p }
    }
    if (!sawInside) return { status: "outside" }
    if (ref.kind === "name") {
      const same = this.byBase.get(basename(ref.path)) ?? []
      if (same.length > 0) return { status: "ok", resolved: same[0]! }
    }
    const target = resolvePath(ref.rootRelative ? rootDir : docDir, ref.path)
    if (target === null) return { status: "outside" }
    return { status: "missing", ...this.candidateFor(target, ref) }
  }

  /** A unique replacement for a missing path: same path in another case, same base name, or a near-identical name. */
  candidateFor(target: string, ref: Reference): { candidate: string | null; reason: string } {
    if (ref.glob) return { candidate: null, reason: "no file matches the pattern" }
    if (ref.directory) return { candidate: null, reason: "the bundle has no files in this folder" }
    const ci = this.lower.get(target.toLowerCase()) ?? []
    if (ci.length === 1) return { candidate: ci[0]!, reason: `only the letter case differs from ${ci[0]}` }
    const same = this.byBase.get(basename(target)) ?? []
    if (same.length === 1) return { candidate: same[0]!, reason: `the bundle has ${same[0]} with the same file name` }
    const base = basename(target).toLowerCase()
    const ext = extname(target)
    let best: Array<string> = []
    let bestD = 3
    for (const p of this.paths) {
      if (extname(p) !== ext) continue
      const d = editDistance(basename(p).toLowerCase(), base, 2)
      if (d < bestD) {
        bestD = d
        best = [p]
      } else if (d === bestD) {
        best.push(p)
      }
    }
    if (bestD <= 2 && best.length > 1) {
      const sameDir = best.filter((p) => dirname(p) === dirname(target))
      if (sameDir.length === 1) best = sameDir
    }
    if (bestD <= 2 && best.length === 1 && base.length >= 4) {
      return { candidate: best[0]!, reason: `the bundle has ${best[0]}, a near-identical name` }
    }
    return { candidate: null, reason: "no file in the bundle has this path or a similar name" }
  }
}

const push = (m: Map<string, Array<string>>, k: string, v: string) => {
  const a = m.get(k)
  if (a) a.push(v)
  else m.set(k, [v])
}
