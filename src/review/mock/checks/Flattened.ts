/**
 * A numbered procedure run together into one paragraph (`1. Build it. 2. Test it. 3. Ship it.`),
 * shared by the steps check that reports it and the repair that splits it again (split from Shape.ts).
 */
import { plainText } from "../../../markdown/Markdown.js"
import type { Doc } from "../../../markdown/Document.js"
import { perDoc } from "../../../markdown/PerDoc.js"

export interface Flattened {
  readonly line: number
  /** the text before the first marker (kept as the lead-in) */
  readonly lead: string
  /** the steps, without their numbers */
  readonly steps: ReadonlyArray<string>
  readonly marker: "." | ")"
  readonly indent: string
}

/** `1. Build it. 2. Test it. 3. Ship it.` on one line of prose: three or more markers in sequence. */
export const flattenedSteps = perDoc((doc: Doc): Array<Flattened> => {
  const out: Array<Flattened> = []
  const listLines = new Set(doc.md.listItems.map((i) => i.line))
  const headingLines = new Set(doc.md.headings.map((h) => h.line))
  for (const [n, masked] of doc.prose) {
    if (headingLines.has(n) || /^\s*(\||>)/.test(masked)) continue
    const line = doc.split.lines[n - 1]!
    // a list item whose text carries the rest of the procedure counts too
    const prefix = listLines.has(n) ? (/^(\s*)((?:[-*+]|(\d{1,4})([.)])))\s+/.exec(line) ?? undefined) : undefined
    // "1. Build. 2. Test. 3. Ship." parses as one list item numbered 1: its marker is the first step's
    const firstIsMarker = prefix?.[3] === "1"
    const itemPrefix = prefix && !firstIsMarker ? prefix[0] : prefix ? prefix[1]! : ""
    const body = line.slice(itemPrefix.length)
    for (const marker of [".", ")"] as const) {
      if (firstIsMarker && prefix![4] !== marker) continue
      const esc = marker === "." ? "\\." : "\\)"
      // the space after a marker is not consumed: "step 3. 2. Find" holds two markers
      const re = new RegExp(`(^|\\s)(\\d{1,2})${esc}(?=\\s+\\S)`, "g")
      const hits: Array<{ index: number; number: number; length: number }> = []
      let m: RegExpExecArray | null
      while ((m = re.exec(body)) !== null) hits.push({ index: m.index + m[1]!.length, number: Number(m[2]), length: m[0].length - m[1]!.length })
      // the longest run of consecutive numbers starting at 1
      const start = hits.findIndex((h) => h.number === 1)
      if (start < 0) continue
      // the next number in order, skipping numbers inside a step ("continue with step 3.")
      const run = [hits[start]!]
      for (let k = start + 1; k < hits.length; k++) if (hits[k]!.number === run[run.length - 1]!.number + 1) run.push(hits[k]!)
      if (run.length < 3) continue
      const steps = run.map((h, k) => body.slice(h.index + h.length, k + 1 < run.length ? run[k + 1]!.index : body.length).trim())
      if (steps.some((s) => plainText(s).split(/\s+/).length < 2)) continue
      out.push({ line: n, lead: (itemPrefix + body.slice(0, run[0]!.index)).trimEnd(), steps, marker, indent: /^\s*/.exec(line)![0] })
      break
    }
  }
  return out
})
