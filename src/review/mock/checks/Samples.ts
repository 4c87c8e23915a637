/**
 * Samples in forms other than a code block: the output's exact wording in inline code, blockquoted
 * samples, a table of worse and better versions side by side. What the examples check counts as shown.
 */
import { plainText, tableCells } from "../../../markdown/Markdown.js"
import { SECTION_TOPICS, sectionRole } from "../../../markdown/Sections.js"
import type { Doc } from "../../../markdown/Document.js"
import { isInlineCommand } from "./Teaching.js"
import { sectionEnd } from "./Common.js"

/**
 * The output's exact wording, in its own section: a line of the output/report section holding two or
 * more inline code phrases that are neither commands nor code (`Halt recommended` / `No halt, watch
 * <group>`) gives the lines the result is made of, verbatim: a sample of it.
 */
export const outputWording = (doc: Doc): Array<number> => {
  const out: Array<number> = []
  for (const h of doc.md.headings.filter((x) => SECTION_TOPICS.outputs.test(x.text))) {
    const end = sectionEnd(doc, h)
    const phrases = doc.md.inlineCode.filter((c) => c.line > h.line && c.line < end && !doc.md.inCode[c.line] &&
      /^[A-Z][\w'’-]*(?:[ ,:][^`]*)?\s\S/.test(c.text.trim()) && !isInlineCommand(c.text.trim()))
    if (phrases.length >= 2) out.push(...new Set(phrases.map((c) => c.line)))
  }
  return out
}

/**
 * The output filled in, as a table: right under the output or report section's heading ("## Output
 * format"), a table whose body rows (two or more) give values, not placeholders (`<term>`, `[date]`,
 * `...`). Its body rows' first and last lines, or none.
 */
export const filledOutputTable = (doc: Doc): { readonly start: number; readonly end: number } | null => {
  const lines = doc.split.lines
  for (const h of doc.md.headings.filter((x) => sectionRole(x.text) === "outputs")) {
    const end = doc.md.headings.find((x) => x.line > h.line)?.line ?? lines.length + 1
    for (let n = h.line + 1; n < end; n++) {
      if (doc.md.inCode[n] || !/^\s*\|/.test(lines[n - 1]!) || /^\s*\|/.test(lines[n - 2] ?? "")) continue
      const rows: Array<number> = []
      for (let k = n + 2; k < end && /^\s*\|/.test(lines[k - 1]!); k++) rows.push(k)
      const filled = rows.filter((k) => {
        const cells = tableCells(lines[k - 1]!).map((c) => plainText(c).trim()).filter((c) => c !== "" && !/^(?:<[^>]*>|\[[^\]]*\]|\.{2,}|…|[-—–]+)$/.test(c))
        return cells.length >= 2
      })
      if (rows.length >= 2 && filled.length === rows.length) return { start: rows[0]!, end: rows.at(-1)! }
    }
  }
  return null
}

/** The two sides of a table of versions side by side: "Do | Don't", "Draft | Fixed", "Instead of | You say". */
const WORSE_SIDE = /^(?:don'?t|do not|bad|before|draft|wrong|incorrect|avoid|instead of|not this|nicht so)$/
const BETTER_SIDE = /^(?:do|good|after|fixed|revised|better|right|correct|prefer|say|you say|write|use instead|this|so)$/

/**
 * Samples in other forms than a block: two or more blockquoted samples (not callouts such as
 * "> **Warning:**" or "> [!NOTE]"), or a table whose header pairs a worse and a better version. The
 * lines where they start (none when there are none).
 */
export const workedSamples = (doc: Doc): Array<number> => {
  const quotes: Array<number> = []
  const tables: Array<number> = []
  let previous = -1
  for (const [n, t] of doc.prose) {
    // a blockquote is counted at its first line (a callout's first line names its kind)
    const quote = /^\s*>/.test(t)
    if (quote && previous !== n - 1 && /^\s*>\s*\S/.test(t) && !/^\s*>\s*(?:\[!\w+\]|(?:\*\*|__)?(?:warning|note|tip|important|caution|danger)\b)/i.test(t)) quotes.push(n)
    if (quote) previous = n
    if (!/^\s*\|/.test(t)) continue
    const cells = tableCells(t).map((c) => plainText(c).toLowerCase().replace(/[:*_]/g, "").trim())
    if (cells.some((c) => WORSE_SIDE.test(c)) && cells.some((c) => BETTER_SIDE.test(c))) tables.push(n)
  }
  return [...(quotes.length >= 2 ? quotes : []), ...tables].sort((x, y) => x - y)
}
