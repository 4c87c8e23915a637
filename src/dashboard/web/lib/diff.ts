/**
 * Line diffs of two versions (the `diff` package), as rows for a unified view (one column, old and
 * new line numbers) and for a side-by-side view (deleted lines paired with the added lines that
 * replace them).
 */
import { diffLines } from "diff"

export interface UnifiedRow {
  readonly kind: "same" | "add" | "del"
  readonly oldLine: number | null
  readonly newLine: number | null
  readonly text: string
}

export interface SplitCell {
  readonly line: number
  readonly text: string
  readonly kind: "same" | "add" | "del"
}

export interface SplitRow {
  readonly left: SplitCell | null
  readonly right: SplitCell | null
}

const linesOf = (value: string) => {
  const lines = value.split("\n")
  if (lines.at(-1) === "") lines.pop()
  return lines
}

export const unifiedRows = (before: string, after: string): Array<UnifiedRow> => {
  const rows: Array<UnifiedRow> = []
  let oldLine = 1
  let newLine = 1
  for (const part of diffLines(before, after)) {
    for (const text of linesOf(part.value)) {
      if (part.added) rows.push({ kind: "add", oldLine: null, newLine: newLine++, text })
      else if (part.removed) rows.push({ kind: "del", oldLine: oldLine++, newLine: null, text })
      else rows.push({ kind: "same", oldLine: oldLine++, newLine: newLine++, text })
    }
  }
  return rows
}

export const splitRows = (unified: ReadonlyArray<UnifiedRow>): Array<SplitRow> => {
  const rows: Array<SplitRow> = []
  for (let i = 0; i < unified.length;) {
    const row = unified[i]!
    if (row.kind === "same") {
      rows.push({ left: { line: row.oldLine!, text: row.text, kind: "same" }, right: { line: row.newLine!, text: row.text, kind: "same" } })
      i++
      continue
    }
    const dels: Array<UnifiedRow> = []
    const adds: Array<UnifiedRow> = []
    while (i < unified.length && unified[i]!.kind === "del") dels.push(unified[i++]!)
    while (i < unified.length && unified[i]!.kind === "add") adds.push(unified[i++]!)
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
      const d = dels[k]
      const a = adds[k]
      rows.push({
        left: d ? { line: d.oldLine!, text: d.text, kind: "del" } : null,
        right: a ? { line: a.newLine!, text: a.text, kind: "add" } : null
      })
    }
  }
  return rows
}

export const diffStats = (rows: ReadonlyArray<UnifiedRow>) => ({
  added: rows.filter((r) => r.kind === "add").length,
  removed: rows.filter((r) => r.kind === "del").length
})
