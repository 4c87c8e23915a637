/**
 * From step drafts to procedures: the checks a source states ("Confirm:", "Ensure each ... is:" with
 * a list), each step's body as text (sub-items indented by depth, short code blocks kept, the lines
 * of failure handlers and examples left out) with the commands it runs, and consecutive steps of
 * one origin and section grouped into procedures.
 */
import type { AnalyzedProcedure, AnalyzedStep, StepOrigin } from "./Model.js"
import { depthOf, itemLead, paragraphAt, type Scan, sectionOf } from "./Scan.js"
import { cap, cleanInline, HR, indentOf, isBlank, lowerFirst, sentence, stripEnd } from "./Text.js"

const CHECK_LABEL =
  /^(?:confirm|verify|check|requirements?|criteria|success criteria|done when|expected(?: result| output| outcome)?|acceptance criteria|definition of done|make sure(?: that)?|ensure(?: that)?(?: each| every| all)?[^:]{0,40}?(?:is|are)?|(?:review|check|look|test|audit|scan) for)\s*:\s*$/i

interface StatedCheck {
  readonly text: string
  readonly lines: ReadonlyArray<number>
  readonly lineStart: number
}

export const findStatedChecks = (s: Scan): Array<StatedCheck> => {
  const out: Array<StatedCheck> = []
  const { lines, doc } = s
  for (let n = s.bodyStart; n <= lines.length; n++) {
    if (doc.md.inCode[n] || s.headingAt.has(n) || s.itemAt.has(n) || s.tableLines.has(n)) continue
    const plain = cleanInline(lines[n - 1]!)
    if (!CHECK_LABEL.test(plain)) continue
    let k = n + 1
    while (k <= lines.length && isBlank(lines[k - 1]!)) k++
    const first = s.itemAt.get(k)
    if (first === undefined) continue
    const members = s.items.map((it, i) => ({ it, i })).filter((x) => x.it.list === s.items[first]!.list && x.it.parent === s.items[first]!.parent)
    const texts = members.map((x) => {
      const t = stripEnd(cleanInline(x.it.text).replace(/^\[[ xX]\]\s*/, ""))
      const labelled = t.match(/^([^:()]{1,30}):\s+(.+)$/)
      return labelled ? `${labelled[1]} (${lowerFirst(labelled[2]!)})` : t
    })
    const lead = stripEnd(plain)
    const prefix = /^ensure|^make sure/i.test(lead)
      ? `${cap(lead.replace(/^(ensure|make sure)(?: that)?\s*/i, ""))}: `
      : /^(requirements?|criteria|acceptance criteria|success criteria)$/i.test(lead)
      ? "The result meets the requirements: "
      : ""
    const used = [n]
    const last = Math.max(...members.map((x) => x.it.end))
    for (let q = n + 1; q <= last; q++) used.push(q)
    out.push({ text: sentence(prefix + texts.map((t, i) => (i === 0 && prefix === "" ? cap(t) : lowerFirst(t))).join("; ")), lines: used, lineStart: n })
  }
  return out
}

/** The step's body as text: sub-items indented by depth, short code blocks kept, excluded lines left out. */
export const renderBody = (s: Scan, from: number, to: number, exclude: ReadonlySet<number>, baseDepth: number): { text: string; subItems: number; commands: Array<string> } => {
  const out: Array<string> = []
  const commands: Array<{ line: number; text: string }> = []
  let subItems = 0
  const { lines, doc } = s
  let depthHere = baseDepth
  for (let n = from; n <= to; n++) {
    if (exclude.has(n)) continue
    const raw = lines[n - 1]!
    if (doc.md.inCode[n]) {
      const cb = doc.md.codeBlocks.find((b) => b.startLine === n)
      if (!cb) continue
      const inner = lines.slice(cb.startLine, cb.closed ? cb.endLine - 1 : cb.endLine)
      const ind = Math.min(...inner.filter((l) => !isBlank(l)).map(indentOf), indentOf(raw))
      inner.forEach((l, i) => {
        const t = l.trim()
        if (t !== "" && !/^(#|\/\/)/.test(t) && /^[$]?\s*[a-z.\/][\w.\/-]*(\s|$)/i.test(t) && /^(bash|sh|shell|console|zsh|)$/i.test(cb.info) && isCommandish(t.replace(/^\$\s*/, ""))) {
          commands.push({ line: cb.startLine + 1 + i, text: t.replace(/^\$\s*/, "") })
        }
      })
      const pad = "  ".repeat(depthHere)
      if (inner.length <= 12) {
        out.push(`${pad}${raw.trim()}`)
        for (const l of inner) out.push(isBlank(l) ? "" : `${pad}${l.slice(Math.min(ind, indentOf(l)))}`)
        if (cb.closed) out.push(`${pad}${lines[cb.endLine - 1]!.trim()}`)
      } else {
        out.push(`${pad}(${cb.info || "code"} block of ${inner.length} lines: ${s.path}:${cb.startLine}-${cb.endLine})`)
      }
      n = cb.endLine
      continue
    }
    if (isBlank(raw) || HR.test(raw)) {
      if (out.length > 0 && out[out.length - 1] !== "") out.push("")
      continue
    }
    const h = s.headingAt.get(n)
    if (h !== undefined) {
      if (n === from) continue
      out.push(`${stripEnd(s.secs[h]!.title)}:`)
      depthHere = baseDepth
      continue
    }
    const li = s.itemAt.get(n)
    if (li !== undefined) {
      const it = s.items[li]!
      const lead = itemLead(s, li)
      const d = Math.max(0, depthOf(s, li) - baseDepth + (baseDepth > 0 ? 0 : 0))
      out.push(`${"  ".repeat(d)}${it.ordered ? `${it.number}.` : "-"} ${lead.text.replace(/\n/g, `\n${"  ".repeat(d + 1)}`)}`)
      subItems++
      depthHere = d + 1
      n = lead.end
      continue
    }
    if (s.tableLines.has(n)) {
      out.push(raw.trim())
      continue
    }
    if (s.goodBadLines.has(n)) continue
    const para = paragraphAt(s, n)
    const pad = "  ".repeat(s.items.some((it) => n > it.line && n <= it.end) ? depthHere : 0)
    out.push(`${pad}${para.text.replace(/\n/g, `\n${pad}`)}`)
    n = para.end
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop()
  while (out.length > 0 && out[0] === "") out.shift()
  for (const c of s.doc.md.inlineCode) {
    if (c.line >= from && c.line <= to && !exclude.has(c.line) && /^[a-z][\w.-]*(\s|$)/i.test(c.text) && /\s/.test(c.text) && isCommandish(c.text)) commands.push({ line: c.line, text: c.text.trim() })
  }
  commands.sort((a, b) => a.line - b.line)
  return { text: out.join("\n"), subItems, commands: commands.map((c) => c.text) }
}

const isCommandish = (t: string): boolean =>
  /^(npm|pnpm|yarn|bun|npx|node|deno|make|cargo|go|python3?|pip3?|uv|poetry|pytest|ruff|black|mypy|tox|docker|kubectl|terraform|git|gh|bash|sh|just|tsc|eslint|prettier|jest|vitest|codex|curl|wget|rm|mv|cp|mkdir|psql|mysql|sqlite3|helm|aws|gcloud|az|\.\/[\w.-]+)\b/.test(t.trim())

export const inlineCommands = (text: string): Array<string> =>
  [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.trim()).filter((c) => /\s/.test(c) && isCommandish(c))

/** Consecutive steps of one origin and section form a procedure. */
export const groupProcedures = (s: Scan, steps: ReadonlyArray<AnalyzedStep>): Array<AnalyzedProcedure> => {
  const out: Array<{ kind: StepOrigin; section: string | null; steps: Array<AnalyzedStep> }> = []
  for (const st of steps) {
    const heading = st.origin === "heading" || st.origin === "section" || st.origin === "checklist"
    const sec = heading ? sectionOf(s, st.lineStart) : sectionOf(s, st.lineStart)
    const parent = heading && sec ? (sec.parent >= 0 ? s.secs[sec.parent]!.title : null) : sec ? sec.title : null
    const last = out[out.length - 1]
    if (last && last.kind === st.origin && last.section === parent) last.steps.push(st)
    else out.push({ kind: st.origin, section: parent, steps: [st] })
  }
  return out.map((p) => ({
    kind: p.kind,
    section: p.section,
    lineStart: p.steps[0]!.lineStart,
    lineEnd: p.steps[p.steps.length - 1]!.lineEnd,
    steps: p.steps
  }))
}
