/**
 * The diff of the two versions an eval compares: a unified diff (3 lines of context) with the lines
 * added and removed. Pure.
 */
import { structuredPatch } from "diff"

/** Unified diffs past this size are cut (the counts stay exact). */
export const MAX_DIFF_CHARS = 200_000

export interface VersionDiff {
  readonly identical: boolean
  readonly linesAdded: number
  readonly linesRemoved: number
  readonly unified: string
  readonly truncated: boolean
}

export const diffVersions = (
  source: { readonly path: string; readonly versionNumber: number; readonly content: string },
  candidate: { readonly path: string; readonly versionNumber: number; readonly content: string }
): VersionDiff => {
  if (source.content === candidate.content) {
    return { identical: true, linesAdded: 0, linesRemoved: 0, unified: "", truncated: false }
  }
  const patch = structuredPatch(
    `${source.path}@v${source.versionNumber}`,
    `${candidate.path}@v${candidate.versionNumber}`,
    source.content,
    candidate.content,
    "",
    "",
    { context: 3 }
  )
  let linesAdded = 0
  let linesRemoved = 0
  const out: Array<string> = [`--- ${patch.oldFileName}`, `+++ ${patch.newFileName}`]
  for (const hunk of patch.hunks) {
    out.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`)
    for (const line of hunk.lines) {
      if (line.startsWith("+")) linesAdded++
      else if (line.startsWith("-")) linesRemoved++
      out.push(line)
    }
  }
  const unified = out.join("\n") + "\n"
  const truncated = unified.length > MAX_DIFF_CHARS
  return {
    identical: false,
    linesAdded,
    linesRemoved,
    unified: truncated ? unified.slice(0, MAX_DIFF_CHARS) + "\n[… diff truncated …]\n" : unified,
    truncated
  }
}
