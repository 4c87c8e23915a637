/**
 * The examples of a source: example sections (outermost only), <Good>/<Bad> pairs with their
 * captions, "Example:" / "Usage examples:" labels followed by a list or a code block, and the other
 * fenced code blocks (counted only; the block plan turns the first three kinds into evals).
 */
import type { AnalyzedExample } from "./Model.js"
import { itemLead, roleAt, type Scan, sectionOf } from "./Scan.js"
import { cleanInline, isBlank } from "./Text.js"
import { REFERENCE_TITLE } from "../../markdown/Sections.js"

export const findExamples = (s: Scan): Array<AnalyzedExample> => {
  const out: Array<AnalyzedExample> = []
  const { lines, doc } = s
  // example sections (outermost only)
  for (let i = 0; i < s.secs.length; i++) {
    const sec = s.secs[i]!
    if (sec.role !== "examples" || (sec.parent >= 0 && s.secs[sec.parent]!.role === "examples")) continue
    if (REFERENCE_TITLE.test(sec.title)) continue
    const labels: Array<string> = []
    for (let n = sec.line + 1; n <= sec.end; n++) {
      if (doc.md.inCode[n] || isBlank(lines[n - 1]!)) continue
      const t = cleanInline(lines[n - 1]!)
      if (t !== "") labels.push(t)
      if (labels.length >= 8) break
    }
    out.push({ kind: "section", title: sec.title, lineStart: sec.line, lineEnd: sec.end, info: "", excerpt: labels.join(" / "), good: null, bad: null })
  }
  // <Good>/<Bad> pairs
  let n = s.bodyStart
  while (n <= lines.length) {
    const t = lines[n - 1]!.trim()
    const open = !doc.md.inCode[n] && t.match(/^<(good|bad)\b[^>]*>\s*$/i)
    if (!open) {
      n++
      continue
    }
    const blocks: Array<{ kind: string; start: number; end: number; caption: string }> = []
    let k = n
    while (k <= lines.length) {
      const m = lines[k - 1]!.trim().match(/^<(good|bad)\b[^>]*>\s*$/i)
      if (!m || doc.md.inCode[k]) break
      let e = k + 1
      while (e <= lines.length && !(!doc.md.inCode[e] && /^<\/(good|bad)>\s*$/i.test(lines[e - 1]!.trim()))) e++
      const caption = lines.slice(k, e - 1).map((l, idx) => ({ l, n: k + 1 + idx })).filter((x) => !doc.md.inCode[x.n] && !isBlank(x.l)).map((x) => cleanInline(x.l)).join(" ")
      blocks.push({ kind: m[1]!.toLowerCase(), start: k, end: Math.min(e, lines.length), caption })
      k = e + 1
      while (k <= lines.length && isBlank(lines[k - 1]!)) k++
    }
    if (blocks.length === 0) {
      n++
      continue
    }
    const sec = sectionOf(s, n)
    const good = blocks.find((b) => b.kind === "good")
    const bad = blocks.find((b) => b.kind === "bad")
    out.push({
      kind: "good_bad",
      title: sec ? sec.title : "Example",
      lineStart: blocks[0]!.start,
      lineEnd: blocks[blocks.length - 1]!.end,
      info: "",
      excerpt: "",
      good: good ? good.caption || "the good example" : null,
      bad: bad ? bad.caption || "the bad example" : null
    })
    n = blocks[blocks.length - 1]!.end + 1
  }
  // "Example:" / "Usage examples:" labels with a list or code block, outside reference sections
  for (let q = s.bodyStart; q <= lines.length; q++) {
    if (doc.md.inCode[q] || s.headingAt.has(q)) continue
    const role = roleAt(s, q)
    if (role === "reference" || role === "examples") continue
    const t = cleanInline(lines[q - 1]!)
    if (!/^(?:usage )?examples?\s*:$|^for example\s*:$/i.test(t)) continue
    let k = q + 1
    while (k <= lines.length && isBlank(lines[k - 1]!)) k++
    const li = s.itemAt.get(k)
    const cb = doc.md.codeBlocks.find((b) => b.startLine === k)
    const end = li !== undefined ? Math.max(...s.items.filter((it) => it.list === s.items[li]!.list).map((it) => it.end)) : cb ? cb.endLine : q
    if (end === q) continue
    const first = li !== undefined ? itemLead(s, li).text : lines[k]?.trim() ?? ""
    out.push({ kind: "usage", title: sectionOf(s, q)?.title ?? "Example", lineStart: q, lineEnd: end, info: cb?.info ?? "", excerpt: first, good: null, bad: null })
  }
  // other fenced code blocks (counted; evals come from the kinds above)
  for (const cb of doc.md.codeBlocks) {
    if (cb.startLine < s.bodyStart || out.some((e) => cb.startLine >= e.lineStart && cb.endLine <= e.lineEnd)) continue
    const inner = lines.slice(cb.startLine, cb.closed ? cb.endLine - 1 : cb.endLine).find((l) => !isBlank(l))
    out.push({ kind: "code", title: sectionOf(s, cb.startLine)?.title ?? "", lineStart: cb.startLine, lineEnd: cb.endLine, info: cb.info, excerpt: inner?.trim() ?? "", good: null, bad: null })
  }
  return out.sort((a, b) => a.lineStart - b.lineStart)
}
