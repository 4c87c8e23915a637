/**
 * What a drafted document maps back to the source: the `from` fields of any (possibly malformed)
 * document as the report's block mapping (`blockMappingOf`), and coverage: the content lines of each
 * converted file, the runs of them no block maps (`uncovered`, `fileCoverage`), and the totals over
 * every file (`coverageOf`).
 */
import { parseSourceRef } from "../../rubr_flow/Format.js"
import type { BlockKind, BlockMappingEntry } from "../Types.js"
import type { FileAnalysis, UnmappedRange } from "./Model.js"
import type { SourceAnalysis } from "./Sources.js"

const KIND_OF: Record<string, BlockKind> = {
  inputs: "input",
  steps: "step",
  outputs: "output",
  guardrails: "guardrail",
  failure_handling: "failure_handling",
  evals: "eval"
}

/** The `from` fields of a document (any shape), as the report's block mapping, in document order. */
export const blockMappingOf = (document: Record<string, unknown>): ReadonlyArray<BlockMappingEntry> => {
  const out: Array<BlockMappingEntry> = []
  // the identity's `from` sits at the root
  const identity = typeof document.from === "string" ? parseSourceRef(document.from) : undefined
  if (identity) out.push({ block: "identity", kind: "identity", id: null, path: identity.path, lineStart: identity.start, lineEnd: identity.end })
  for (const key of ["inputs", "steps", "outputs", "guardrails", "failure_handling", "evals"]) {
    const arr = document[key]
    if (!Array.isArray(arr)) continue
    arr.forEach((b: unknown, i) => {
      if (b === null || typeof b !== "object") return
      const rec = b as Record<string, unknown>
      if (typeof rec.from !== "string") return
      const r = parseSourceRef(rec.from)
      if (!r) return
      out.push({
        block: `${key}.${i}`,
        kind: KIND_OF[key]!,
        id: typeof rec.id === "string" ? rec.id : null,
        path: r.path,
        lineStart: r.start,
        lineEnd: r.end
      })
    })
  }
  return out
}

const contentLineNumbers = (f: FileAnalysis): Array<number> =>
  f.contentRanges.flatMap((r) => Array.from({ length: r.lineEnd - r.lineStart + 1 }, (_, i) => r.lineStart + i))

/** Runs of content lines of `f` outside every range. */
export const uncovered = (f: FileAnalysis, ranges: ReadonlyArray<readonly [number, number]>): Array<UnmappedRange> => {
  const out: Array<UnmappedRange> = []
  const lines = contentLineNumbers(f)
  let start = -1
  let prev = -1
  const isCovered = (n: number) => ranges.some(([a, b]) => n >= a && n <= b)
  for (const n of lines) {
    if (isCovered(n)) {
      if (start >= 0) out.push({ path: f.path, lineStart: start, lineEnd: prev })
      start = -1
      continue
    }
    if (start < 0) start = n
    prev = n
  }
  if (start >= 0) out.push({ path: f.path, lineStart: start, lineEnd: prev })
  return out
}

/**
 * How much of one converted file the flow's blocks account for: its content lines (not blank, not
 * headings or rules), the runs of them no block maps, and their count. The identity covers the
 * frontmatter, the title, the opening and a "when to use" section even when the flow has no root `from`.
 */
export const fileCoverage = (f: FileAnalysis, mapping: ReadonlyArray<BlockMappingEntry>) => {
  const content = contentLineNumbers(f)
  const ranges: Array<readonly [number, number]> = mapping.filter((m) => m.path === f.path).map((m) => [m.lineStart, m.lineEnd] as const)
  if (f.frontmatter.lineEnd > 0) ranges.push([f.frontmatter.lineStart, f.frontmatter.lineEnd])
  if (f.title) ranges.push([f.title.line, f.title.line])
  if (f.opening) ranges.push([f.opening.lineStart, f.opening.lineEnd])
  if (f.whenToUse && f.whenToUse.origin === "section") ranges.push([f.whenToUse.lineStart, f.whenToUse.lineEnd])
  const gaps = uncovered(f, ranges)
  const unmapped = gaps.reduce((n, g) => n + content.filter((c) => c >= g.lineStart && c <= g.lineEnd).length, 0)
  return { content: content.length, gaps, unmapped }
}

/** The report's coverage over every converted file: content lines, those some block maps, the gaps. */
export const coverageOf = (document: Record<string, unknown>, analysis: SourceAnalysis) => {
  const mapping = blockMappingOf(document)
  let totalLines = 0
  let mappedLines = 0
  const unmappedRanges: Array<UnmappedRange> = []
  for (const f of analysis.files) {
    const { content, gaps, unmapped } = fileCoverage(f, mapping)
    totalLines += content
    mappedLines += content - unmapped
    unmappedRanges.push(...gaps)
  }
  return {
    totalLines,
    mappedLines,
    coverage: totalLines === 0 ? null : Math.round((mappedLines / totalLines) * 1000) / 1000,
    unmappedRanges
  }
}
