/**
 * Source mapping: each source listed once and matching the file the caller has (line count, hash),
 * and each `from` naming a listed source and a range inside it.
 */
import { parseSourceRef } from "../../Format.js"
import type { PathSegment } from "../../Parse.js"
import { clipLine, lineCount } from "../../Text.js"
import { closest } from "../Closest.js"
import { type Block, field, type Rec, strField } from "../Data.js"
import { type Draft, issue, label, quote } from "../Drafts.js"
import type { SourceInfo } from "../Types.js"
import type { Section } from "../Vocabulary.js"
import type { FlowFacts } from "./Facts.js"
import { sha256Tag } from "../../../domain/ContentHash.js"


/** Each source path's first entry, in the order listed. */
const declaredSources = (sources: ReadonlyArray<Block>): Map<string, Block> => {
  const declared = new Map<string, Block>()
  for (const src of sources) {
    const path = strField(src.value, "path")
    if (path !== undefined && !declared.has(path)) declared.set(path, src)
  }
  return declared
}

const duplicateSourceIssues = (sources: ReadonlyArray<Block>, declared: ReadonlyMap<string, Block>): Array<Draft> => {
  const out: Array<Draft> = []
  for (const src of sources) {
    const path = strField(src.value, "path")
    const earlier = path === undefined ? undefined : declared.get(path)
    if (path === undefined || earlier === undefined || earlier === src) continue
    out.push(issue("duplicate_source", ["sources", src.index, "path"], `The source ${quote(path)} is listed twice (also sources.${earlier.index}): keep one.`))
  }
  return out
}

/** The declared `lines` and `content_hash` against the files the caller has. */
const sourceFileIssues = (declared: ReadonlyMap<string, Block>, files: ReadonlyArray<SourceInfo>): Array<Draft> => {
  const out: Array<Draft> = []
  const given = new Map<string, SourceInfo>()
  for (const info of files) if (!given.has(info.path)) given.set(info.path, info)
  for (const [path, src] of declared) {
    const info = given.get(path)
    if (info === undefined) continue
    const declaredLines = field(src.value, "lines")
    const realLines = typeof info.lines === "number" ? info.lines : typeof info.content === "string" ? lineCount(info.content) : undefined
    if (typeof declaredLines === "number" && realLines !== undefined && declaredLines !== realLines) {
      out.push(
        issue(
          "source_lines_mismatch",
          ["sources", src.index, "lines"],
          `The source ${quote(path)} has ${realLines} line${realLines === 1 ? "" : "s"}, but \`lines\` says ${declaredLines}: write \`lines: ${realLines}\` and check the \`from\` ranges naming it.`
        )
      )
    }
    const declaredHash = strField(src.value, "content_hash")
    const realHash = info.contentHash ?? (typeof info.content === "string" ? sha256Tag(info.content) : undefined)
    if (declaredHash !== undefined && realHash !== undefined && declaredHash !== realHash) {
      out.push(
        issue(
          "source_hash_mismatch",
          ["sources", src.index, "content_hash"],
          `The source ${quote(path)} has changed since this flow was converted (its hash is ${clipLine(realHash, 24)}): check that the flow still matches it, then update \`content_hash\`.`
        )
      )
    }
  }
  return out
}

/** What is wrong with the `from` at `path`, if anything (a malformed one is the shape's). */
const fromIssue = (root: Rec, declared: ReadonlyMap<string, Block>, ref: string, path: ReadonlyArray<PathSegment>): Draft | undefined => {
  const range = parseSourceRef(ref)
  if (range === undefined) return undefined
  if (range.start > range.end) {
    return issue("source_range_outside", path, `${label(root, path)} is ${quote(ref)}: the range starts after it ends; write PATH:START-END with START ≤ END.`)
  }
  const src = declared.get(range.path)
  if (src === undefined && declared.size === 0) {
    return issue(
      "undeclared_source",
      path,
      `${label(root, path)} names ${quote(range.path)}, but the flow lists no \`sources\`: add \`sources: [{path: ${clipLine(range.path, 40)}, lines: N}]\` so the range can be checked.`
    )
  }
  if (src === undefined) {
    const guess = closest(range.path, declared.keys())
    return issue(
      "unknown_source",
      path,
      `${label(root, path)} names ${quote(range.path)}, which is not listed in \`sources\`${guess !== undefined ? `: did you mean \`${guess}\`?` : `; the sources are ${[...declared.keys()].map((p) => quote(p)).join(", ")}.`}`
    )
  }
  const lines = field(src.value, "lines")
  if (typeof lines === "number" && Number.isInteger(lines) && range.end > lines) {
    return issue(
      "source_range_outside",
      path,
      `${label(root, path)} is ${quote(ref)}, but ${quote(range.path)} has ${lines} line${lines === 1 ? "" : "s"}: the range must lie inside the source.`
    )
  }
  return undefined
}

const MAPPED: ReadonlyArray<Section> = ["inputs", "steps", "outputs", "guardrails", "failure_handling", "evals"]

export const sourceIssues = (flow: FlowFacts): Array<Draft> => {
  const { root } = flow
  const declared = declaredSources(flow.blocks.sources)
  const out = [...duplicateSourceIssues(flow.blocks.sources, declared), ...sourceFileIssues(declared, flow.options?.sources ?? [])]
  // the identity's `from` (at the root), then every block's
  const refs: Array<{ readonly ref: string | undefined; readonly path: Array<PathSegment> }> = [
    { ref: strField(root, "from"), path: ["from"] },
    ...MAPPED.flatMap((section) =>
      flow.blocks[section].map((b) => ({ ref: strField(b.value, "from"), path: [section, b.index, "from"] as Array<PathSegment> }))
    )
  ]
  for (const { ref, path } of refs) {
    const found = ref === undefined ? undefined : fromIssue(root, declared, ref, path)
    if (found !== undefined) out.push(found)
  }
  return out
}
