/**
 * Failure handling as a source states it: headings that are failure conditions ("If any call fails,
 * pause and set it up:"), condition lists ("STOP executing immediately when:" and its bullets),
 * problem | solution tables and red-flag lists of failure sections, bold questions answered by an
 * instruction, and "If X fails, do Y" conditionals. Each handler records the lines it consumes (left
 * out of step actions and rules) and where the procedure resumes.
 */
import { isImperative } from "../../markdown/Instructions.js"
import { maskInlineCode, plainText } from "../../markdown/Markdown.js"
import type { AnalyzedFailure } from "./Model.js"
import { isRuleSentence } from "./Rules.js"
import { childrenOf, depthOf, itemLead, paragraphAt, roleAt, type Scan } from "./Scan.js"
import { cap, cleanInline, isBlank, sentence, splitSentences, stripEnd, unshout } from "./Text.js"
import {
  FAILURE_WORDS,
  MUST_LEAD,
  NEVER_LEAD,
  RESUME_SAME,
  STEP_REF,
  STOP_WORDS_THEN
} from "./Vocabulary.js"
import { STEP_HEADING } from "../../markdown/Sections.js"

interface FailureFound extends Omit<AnalyzedFailure, "id"> {
  /** lines consumed by the handler (left out of step actions and rules) */
  readonly consumed: ReadonlyArray<number>
}

/** Some sentence of the text is an instruction (and the text does not open as a statement: "you don't know ..."). */
const looksImperative = (text: string): boolean => {
  const sentences = splitSentences(plainText(text))
  if (sentences.length === 0) return false
  return sentences.some((x) => isImperative(x) === true) || isImperative(sentences[0]!) === null
}

const resumeOf = (then: string, inStep: boolean): { resumeStepNumber: number | null; resumeSameStep: boolean } => {
  const ref = then.match(new RegExp(`\\b(?:continue|resume|return|go back|restart|start again)\\b[^.]*?${STEP_REF.source}`, "i"))
    ?? then.match(new RegExp(`\\(${STEP_REF.source}\\)`, "i"))
  if (ref) return { resumeStepNumber: Number(ref[1]), resumeSameStep: false }
  if (!inStep) return { resumeStepNumber: null, resumeSameStep: false }
  return { resumeStepNumber: null, resumeSameStep: RESUME_SAME.test(then) && !STOP_WORDS_THEN.test(then) }
}

/** "If X fails, do Y" / "When X: Y" / "On error, Y" / "Stop and ask when X is unclear." */
export const conditionalOf = (sentenceText: string): { when: string; then: string } | null => {
  const plain = cleanInline(sentenceText)
  const masked = maskInlineCode(plain).masked
  const m = masked.match(/^(?:\*\*)?(if|when|whenever|in case|should|on)\b\s+/i)
  if (!m) {
    // the instruction first: "Stop and ask the user when the requirements are ambiguous."
    const r = masked.match(/^(.{3,80}?)\s+(?:when(?:ever)?|if|in case)\s+([^,;]{3,120}?)[.!]?$/i)
    if (!r || NEVER_LEAD.test(plain) || MUST_LEAD.test(plain) || !/^(stop|ask|escalate|pause|abort|report|tell|notify|roll ?back|revert|retry|re-?run|fall ?back|halt)\b/i.test(plain)) return null
    const cond = plain.slice(masked.length - r[0].length + r[0].indexOf(r[2]!, r[1]!.length), masked.length - r[0].length + r[0].indexOf(r[2]!, r[1]!.length) + r[2]!.length)
    if (!FAILURE_WORDS.test(maskInlineCode(cond).masked)) return null
    return { when: cap(stripEnd(cond)), then: sentence(cap(plain.slice(0, r[1]!.length))) }
  }
  const rest = masked.slice(m[0].length)
  const sep = rest.search(/,\s|:\s|\s+then\s|\s[-–—]\s/)
  if (sep < 0) return null
  const cond = plain.slice(m[0].length, m[0].length + sep).trim()
  const afterRaw = plain.slice(m[0].length + sep).replace(/^(,|:|\s+then|\s[-–—])\s*/, "").trim()
  if (!FAILURE_WORDS.test(maskInlineCode(cond).masked)) return null
  if (m[1]!.toLowerCase() === "on" && !/\b(error|failure|fail\w*)\b/i.test(cond)) return null
  if (afterRaw === "" || !looksImperative(afterRaw)) return null
  const lead = m[1]!.toLowerCase() === "on" ? "On " : ""
  return { when: sentence(cap(lead + cond)).replace(/\.$/, ""), then: sentence(cap(afterRaw)) }
}

/** What the passes share: the scan, the lines an earlier pass used, and where a found failure goes. */
interface Finding {
  readonly s: Scan
  readonly used: Set<number>
  readonly push: (f: FailureFound) => void
}

/** Headings that are failure conditions: "### 0) If any MCP call fails ..., pause and set it up:" */
const failureHeadings = ({ s, push }: Finding): void => {
  const { lines, doc } = s
  for (const sec of s.secs) {
    if (sec.role === "examples" || sec.role === "reference") continue
    const title = sec.title.replace(STEP_HEADING, "")
    const c = title.match(/^(if|when|whenever)\s+(.+?)(?:,\s*|:\s*|\s[-–—]\s*)(.*)$/i)
    if (!c || !FAILURE_WORDS.test(c[2]!)) continue
    const body: Array<string> = []
    const consumed: Array<number> = []
    for (let n = sec.line; n <= sec.end; n++) {
      consumed.push(n)
      if (n === sec.line || doc.md.inCode[n] && /^\s*(`{3,}|~{3,})/.test(lines[n - 1]!)) continue
      const l = lines[n - 1]!
      if (isBlank(l)) continue
      const li = s.itemAt.get(n)
      const it = li !== undefined ? s.items[li]! : null
      body.push(it !== null ? `${"  ".repeat(depthOf(s, li!))}${it.ordered ? `${it.number}.` : "-"} ${cleanInline(it.text)}` : doc.md.inCode[n] ? `  ${l.trim()}` : cleanInline(l))
    }
    const lead = c[3]!.trim() === "" ? "" : sentence(cap(c[3]!.trim()))
    const then = [lead, ...body].filter((x) => x !== "").join("\n")
    push({
      when: cap(c[2]!.trim()),
      then: then === "" ? "Follow the section's instructions." : then,
      lineStart: sec.line,
      lineEnd: sec.end,
      kind: "section",
      ...resumeOf(body.join(" "), false),
      consumed
    })
  }
}

/** Condition lists: "**STOP executing immediately when:**" + bullets; failure sections' bullet lists */
const conditionLists = ({ s, used, push }: Finding): void => {
  const { lines, doc } = s
  for (let n = s.bodyStart; n <= lines.length; n++) {
    if (used.has(n) || doc.md.inCode[n] || s.headingAt.has(n) || s.itemAt.has(n) || s.tableLines.has(n)) continue
    const plain = cleanInline(lines[n - 1]!)
    const lead = plain.match(/^(.{2,100}?)\s+(?:when|if)\s*(?:any of these (?:happen|occur))?\s*:\s*$/i)
    if (!lead) continue
    const action = lead[1]!.trim()
    const failureZone = roleAt(s, n) === "failure"
    if (!failureZone && !/\b(stop|return|go back|ask|escalate|pause|abort|revert|roll ?back|fall ?back|restart|start over)\b/i.test(action)) continue
    // the list that follows
    let k = n + 1
    while (k <= lines.length && isBlank(lines[k - 1]!)) k++
    const first = s.itemAt.get(k)
    if (first === undefined) continue
    const list = s.items[first]!.list
    const members = s.items.map((it, i) => ({ it, i })).filter((x) => x.it.list === list && x.it.parent === s.items[first]!.parent)
    const whens = members.map((x) => stripEnd(cleanInline(x.it.text)))
    const last = Math.max(...members.map((x) => x.it.end))
    const consumed = [n]
    for (let q = n + 1; q <= last; q++) consumed.push(q)
    let then = sentence(cap(unshout(action)))
    let end = last
    // a following paragraph that completes the instruction ("Ask for clarification rather than guessing.")
    let p = last + 1
    while (p <= lines.length && isBlank(lines[p - 1]!)) p++
    if (p <= lines.length && !s.headingAt.has(p) && !s.itemAt.has(p) && !doc.md.inCode[p] && s.secAt[p] === s.secAt[n]) {
      const para = paragraphAt(s, p)
      if (!isRuleSentence(para.text) && !/\b(when|if)\s*:\s*$/i.test(para.text) && para.text.length < 200) {
        then = `${then} ${sentence(para.text)}`
        for (let q = p; q <= para.end; q++) consumed.push(q)
        end = para.end
      }
    }
    push({
      when: whens.join("; "),
      then,
      lineStart: n,
      lineEnd: end,
      kind: "condition_list",
      ...resumeOf(action, false),
      consumed
    })
  }
}

/** Failure sections: tables of problem | solution, and bullet lists of red flags without a lead */
const failureSections = ({ s, used, push }: Finding): void => {
  const { lines, doc } = s
  for (const sec of s.secs) {
    if (sec.role !== "failure") continue
    for (let n = sec.line + 1; n <= sec.ownEnd; n++) {
      if (!s.tableLines.has(n) || used.has(n)) continue
      // a table block
      const rows: Array<number> = []
      let k = n
      while (k <= sec.ownEnd && s.tableLines.has(k)) rows.push(k++)
      const cells = rows.map((r) => splitRow(lines[r - 1]!))
      const body = rows.slice(cells.length > 1 && cells[1]!.every((c) => /^:?-{2,}:?$/.test(c.trim())) ? 2 : 1)
      for (const r of body) {
        const c = splitRow(lines[r - 1]!)
        if (c.length < 2 || c[0]!.trim() === "" || c[1]!.trim() === "") continue
        push({
          when: stripEnd(cleanInline(c[0]!)),
          then: sentence(cleanInline(c.slice(1).join(" ").trim())),
          lineStart: r,
          lineEnd: r,
          kind: "table",
          resumeStepNumber: null,
          resumeSameStep: false,
          consumed: [r]
        })
      }
      for (const r of rows) used.add(r)
      n = k
    }
    // top-level bullet lists not yet used
    const tops = s.items.map((it, i) => ({ it, i })).filter((x) => x.it.parent === -1 && x.it.line > sec.line && x.it.line <= sec.ownEnd && !used.has(x.it.line))
    const lists = [...new Set(tops.map((x) => x.it.list))]
    for (const list of lists) {
      const members = tops.filter((x) => x.it.list === list)
      if (members.length === 0) continue
      const first = members[0]!.it
      const last = Math.max(...members.map((x) => x.it.end))
      // the consequence: "All of these mean: X", a paragraph after the list, or the heading's action part
      let then = ""
      const consumed: Array<number> = []
      for (let q = first.line; q <= last; q++) consumed.push(q)
      let end = last
      for (let p = last + 1; p <= sec.ownEnd; p++) {
        if (isBlank(lines[p - 1]!) || doc.md.inCode[p]) continue
        if (s.itemAt.has(p) || s.tableLines.has(p)) break
        const para = paragraphAt(s, p)
        then = para.text.replace(/^(all of these mean|any of these means?|this means|then|in that case|if so)\s*:?\s*/i, "")
        for (let q = p; q <= para.end; q++) consumed.push(q)
        end = para.end
        break
      }
      if (then === "") {
        const part = sec.title.split(/\s[-–—:]\s/).slice(1).join(" - ").trim()
        then = part !== "" ? unshout(part) : "Stop and ask the user how to proceed"
      }
      const whens = members.map((x) => stripEnd(cleanInline(x.it.text)))
      push({
        when: whens.join("; "),
        then: sentence(cap(unshout(then))),
        lineStart: first.line,
        lineEnd: end,
        kind: "condition_list",
        resumeStepNumber: null,
        resumeSameStep: false,
        consumed
      })
    }
  }
}

/** Conditionals and bold questions, line by line. */
const conditionals = ({ s, used, push }: Finding): void => {
  const { lines, doc } = s
  const inStep = (n: number) => roleAt(s, n) !== "failure"
  for (let n = s.bodyStart; n <= lines.length; n++) {
    if (used.has(n) || doc.md.inCode[n] || s.headingAt.has(n) || s.tableLines.has(n) || s.goodBadLines.has(n)) continue
    const role = roleAt(s, n)
    if (role === "examples" || role === "reference") continue
    const li = s.itemAt.get(n)
    const text = li !== undefined ? itemLead(s, li).text : cleanInline(lines[n - 1]!)
    const lineEnd = li !== undefined ? s.items[li]!.end : n
    const sentences = splitSentences(text)
    if (sentences.length === 0) continue
    // a question answered by an instruction: "**Test fails?** Fix code, not test."
    const rawLine = lines[n - 1]!.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "").trim()
    const q = rawLine.match(/^\*\*([^*?]{2,100}\?)\*\*\s*(.+)$/) ?? rawLine.match(/^([^?*`|]{3,100}\?)\s+(.+)$/)
    if (q) {
      const question = stripEnd(cleanInline(q[1]!).replace(/\?$/, ""))
      const answer = cleanInline(q[2]!)
      const bold = rawLine.startsWith("**")
      if ((bold || FAILURE_WORDS.test(question) || splitSentences(answer).some((x) => isImperative(x) === true)) && looksImperative(answer) && question.split(/\s+/).length <= 14) {
        const consumed: Array<number> = []
        for (let k = n; k <= lineEnd; k++) consumed.push(k)
        push({
          when: cap(question),
          then: sentence(cap(answer)),
          lineStart: n,
          lineEnd,
          kind: "question",
          ...resumeOf(answer, inStep(n)),
          consumed
        })
        continue
      }
    }
    // in a rules section, a conditional is a rule ("Stop when blocked, don't guess")
    if (role === "rules") continue
    sentences.forEach((sn, i) => {
      const c = conditionalOf(sn)
      if (!c) return
      // the instruction continues with the rest of the line, and with the item's children when it ends with ":"
      const restOfLine = sentences.slice(i + 1).join(" ")
      let then = i === 0 && restOfLine !== "" ? `${c.then} ${restOfLine}` : c.then
      const consumed: Array<number> = []
      let end = n
      if (i === 0) {
        for (let k = n; k <= (li !== undefined ? itemLead(s, li).end : n); k++) consumed.push(k)
        if (li !== undefined && /:\s*$/.test(c.then)) {
          const kids = childrenOf(s, li)
          if (kids.length > 0) {
            then = [then.replace(/\.$/, ""), ...kids.map((kd) => `- ${itemLead(s, kd).text}`)].join("\n")
            end = s.items[li]!.end
            for (let k = n; k <= end; k++) consumed.push(k)
          }
        }
      }
      push({
        when: c.when,
        then,
        lineStart: n,
        lineEnd: Math.max(n, end),
        kind: "conditional",
        ...resumeOf(then, inStep(n)),
        consumed
      })
    })
  }
}

/** The passes, in order: each skips the lines an earlier one used. */
const PASSES: ReadonlyArray<(finding: Finding) => void> = [failureHeadings, conditionLists, failureSections, conditionals]

export const findFailures = (s: Scan): Array<FailureFound> => {
  const out: Array<FailureFound> = []
  const used = new Set<number>()
  const push = (f: FailureFound) => {
    for (const n of f.consumed) used.add(n)
    out.push(f)
  }
  for (const pass of PASSES) pass({ s, used, push })
  return out.sort((a, b) => a.lineStart - b.lineStart)
}

const splitRow = (row: string): Array<string> => {
  const t = row.trim().replace(/^\|/, "").replace(/\|$/, "")
  return t.split(/(?<!\\)\|/).map((c) => c.trim())
}
