/**
 * Where a source's steps are (`findSteps`), as drafts: numbered step headings (a heading with numbered
 * sub-headings is a phase), ordered lists and the bullet lists of procedure sections, a procedure
 * section's subsections, step-like section groups or every content section, verification checklists,
 * and, for a plain prompt with no structure, its imperative sentences. Bodies are rendered later
 * (see Procedures.ts).
 */
import { isImperative } from "../../markdown/Instructions.js"
import { conditionalOf } from "./Failures.js"
import type { StepOrigin } from "./Model.js"
import { isRuleSentence } from "./Rules.js"
import { findSentenceLine, itemLead, lastContentLine, paragraphAt, roleAt, type Scan, type Sec } from "./Scan.js"
import { cleanInline, HR, isBlank, lowerFirst, splitSentences, stripEnd } from "./Text.js"
import { type SectionRole, STEP_HEADING, stepNumberOf } from "../../markdown/Sections.js"
import { NEVER_LEAD } from "./Vocabulary.js"

interface StepDraft {
  number: number | null
  title: string
  lineStart: number
  lineEnd: number
  origin: StepOrigin
  /** the lead text (list item text; empty for headings) */
  lead: string
  /** lines to render as the step's body */
  bodyFrom: number
  bodyTo: number
  /** a checklist step: its items are the check */
  checklist: string | null
}

const titleFrom = (text: string): string => {
  const t = cleanInline(text.split("\n")[0]!).replace(STEP_HEADING, "").replace(/^(?:important|note|required|critical|warning)\s*:\s*/i, "")
  const sentences = splitSentences(t)
  let first = sentences[0] ?? t
  // "After you complete this task. Stop ..." — a time clause alone is not the instruction
  if (/^(after|before|when|once|until|while)\b[^,]*\.$/i.test(first) && sentences[1]) first = `${first.replace(/\.$/, "")}, ${lowerFirst(sentences[1])}`
  let title = stripEnd(first.replace(/\s*\((?:[^()]|\([^()]*\))*\)/g, "").replace(/:\s.*$/, ""))
  if (title.length > 90) title = `${title.slice(0, 87).replace(/\s+\S*$/, "")}…`
  return title === "" ? stripEnd(t).slice(0, 90) : title
}

const isStepLike = (s: Scan, sec: Sec): boolean => {
  if (isImperative(sec.title) === true || sec.title.split(/\s[-–—]\s/).some((p) => isImperative(p) === true)) return true
  for (let n = sec.line + 1; n <= sec.ownEnd; n++) {
    const l = s.lines[n - 1]!
    if (isBlank(l) || s.doc.md.inCode[n]) continue
    const li = s.itemAt.get(n)
    return isImperative(li !== undefined ? s.items[li]!.text : l) === true
  }
  return false
}

const EXCLUDED_FOR_STEPS: ReadonlySet<SectionRole> = new Set(["examples", "reference", "when_to_use", "inputs", "rules", "failure", "overview"])

/** Whether a step found so far covers line `n` (a later pass leaves that line alone). */
const covers = (steps: ReadonlyArray<StepDraft>, n: number) => steps.some((st) => n >= st.lineStart && n <= st.lineEnd)

/** (a) Numbered step headings; a heading with numbered sub-headings is a phase: its children are the steps. */
const headingSteps = (s: Scan, failureSections: ReadonlySet<number>): Array<StepDraft> => {
  const { secs } = s
  const isStepHeading = (i: number) =>
    STEP_HEADING.test(secs[i]!.title) && !failureSections.has(secs[i]!.line) && secs[i]!.role !== "examples" && secs[i]!.role !== "reference" &&
    !(secs[i]!.parent >= 0 && (secs[secs[i]!.parent]!.role === "examples" || secs[secs[i]!.parent]!.role === "reference"))
  const stepChildren = (i: number) => secs.map((_, j) => j).filter((j) => secs[j]!.parent === i && isStepHeading(j))
  const found: Array<StepDraft> = []
  const visit = (i: number, introFrom: number | null) => {
    const kids = stepChildren(i)
    const sec = secs[i]!
    if (kids.length === 0) {
      found.push({
        number: stepNumberOf(sec.title),
        title: titleFrom(sec.title),
        lineStart: introFrom ?? sec.line,
        lineEnd: sec.end,
        origin: "heading",
        lead: "",
        bodyFrom: introFrom ?? sec.line,
        bodyTo: sec.end,
        checklist: null
      })
      return
    }
    kids.forEach((k, idx) => visit(k, idx === 0 ? introFrom ?? sec.line : null))
  }
  for (let i = 0; i < secs.length; i++) {
    if (!isStepHeading(i)) continue
    let p = secs[i]!.parent
    let nested = false
    while (p >= 0) {
      if (isStepHeading(p)) nested = true
      p = secs[p]!.parent
    }
    if (!nested) visit(i, null)
  }
  return found
}

/** (b) Top-level lists: ordered anywhere sensible; bullets in a procedure section (a quick start's only when no other). */
const listSteps = (s: Scan, steps: ReadonlyArray<StepDraft>): Array<StepDraft> => {
  const { items, lines } = s
  const covered = (n: number) => covers(steps, n)
  const zoneOk = (n: number) => !EXCLUDED_FOR_STEPS.has(roleAt(s, n))
  const listIds = [...new Set(items.filter((it) => it.parent === -1).map((it) => it.list))]
  const lists: Array<{ secondary: boolean; steps: Array<StepDraft> }> = []
  for (const list of listIds) {
    const members = items.map((it, i) => ({ it, i })).filter((x) => x.it.list === list && x.it.parent === -1)
    const first = members[0]!.it
    if (covered(first.line) || !zoneOk(first.line) || s.goodBadLines.has(first.line)) continue
    const role = roleAt(s, first.line)
    const ordered = members.filter((x) => x.it.ordered)
    let chosen = ordered.length >= 2 && ordered.length === members.length ? members : []
    if (chosen.length === 0 && ordered.length === 0 && (role === "procedure" || role === "quick_start") && members.length >= 2) {
      const imperative = members.filter((x) => isImperative(x.it.text) === true).length
      if (imperative * 2 >= members.length && !members.every((x) => /^\[[ xX]\]/.test(x.it.text))) chosen = members
    }
    if (chosen.length === 0) continue
    // an item that only forbids something is a rule (a guardrail), not a step
    const actions = chosen.filter((x) => !NEVER_LEAD.test(cleanInline(x.it.text)))
    if (actions.length > 0) chosen = actions
    // a list item that only introduces its children ("If concerns:" is fine; a bare label is not a step)
    lists.push({
      secondary: role === "quick_start",
      steps: chosen.map((x) => {
        const lead = itemLead(s, x.i)
        return {
          number: x.it.ordered ? x.it.number : null,
          title: titleFrom(lead.text),
          lineStart: x.it.line,
          lineEnd: lastContentLine(lines, x.it.line, x.it.end),
          origin: x.it.ordered ? "ordered_list" : "bullet_list",
          lead: lead.text,
          bodyFrom: lead.end + 1,
          bodyTo: lastContentLine(lines, x.it.line, x.it.end),
          checklist: null
        } satisfies StepDraft
      })
    })
  }
  const primary = lists.filter((l) => !l.secondary)
  const useLists = steps.length > 0 || primary.length > 0 ? primary : lists
  return useLists.flatMap((l) => l.steps)
}

/** (c) A procedure section whose subsections are the steps. Adds to `steps` (a later procedure sees them). */
const subsectionSteps = (s: Scan, steps: Array<StepDraft>): void => {
  const { secs } = s
  const covered = (n: number) => covers(steps, n)
  for (let i = 0; i < secs.length; i++) {
    const sec = secs[i]!
    if (sec.role !== "procedure" || covered(sec.line)) continue
    const kids = secs.map((_, j) => j).filter((j) => secs[j]!.parent === i && !EXCLUDED_FOR_STEPS.has(secs[j]!.role) && secs[j]!.role !== "verification")
    if (kids.length < 2 || kids.some((k) => covered(secs[k]!.line) || steps.some((st) => st.lineStart > secs[k]!.line && st.lineStart <= secs[k]!.end))) continue
    for (const k of kids) steps.push(sectionStep(s, secs[k]!))
  }
}

/** (d) Nothing found yet: step-like subsection groups, else every content section. */
const fallbackSectionSteps = (s: Scan): Array<StepDraft> => {
  const { secs } = s
  const steps: Array<StepDraft> = []
  const covered = (n: number) => covers(steps, n)
  const groups = secs.map((_, i) => i).filter((i) => {
    const kids = secs.filter((c) => c.parent === i && !EXCLUDED_FOR_STEPS.has(c.role) && c.role !== "verification")
    return !EXCLUDED_FOR_STEPS.has(secs[i]!.role) && kids.length >= 2 && kids.filter((c) => isStepLike(s, c)).length * 2 >= kids.length
  })
  if (groups.length > 0) {
    for (const g of groups) {
      for (const c of secs.filter((c) => c.parent === g && !EXCLUDED_FOR_STEPS.has(c.role) && c.role !== "verification")) {
        if (!covered(c.line)) steps.push(sectionStep(s, c))
      }
    }
  } else {
    for (let i = 0; i < secs.length; i++) {
      const sec = secs[i]!
      if (EXCLUDED_FOR_STEPS.has(sec.role) || sec.role === "verification" || sec.role === "outputs" || covered(sec.line)) continue
      if (secs.some((c) => c.parent === i && !EXCLUDED_FOR_STEPS.has(c.role))) continue
      if (sec.level === 1 && sec.line === firstH1Line(s)) continue
      if (!hasContent(s, sec.line + 1, sec.ownEnd) && !(isImperative(sec.title) === true)) continue
      steps.push(sectionStep(s, sec))
    }
  }
  return steps
}

/** (e) Verification sections with a checklist become a final "check" step. Adds to `steps`. */
const verificationSteps = (s: Scan, steps: Array<StepDraft>): void => {
  const { items, secs } = s
  const covered = (n: number) => covers(steps, n)
  for (const sec of secs) {
    if (sec.role !== "verification" || covered(sec.line) || secs.some((c) => c.parent === secs.indexOf(sec) && c.role === "verification")) continue
    const checks = items.filter((it) => it.line > sec.line && it.line <= sec.ownEnd && it.parent === -1)
    if (checks.length === 0 && !hasContent(s, sec.line + 1, sec.ownEnd)) continue
    const st = sectionStep(s, sec)
    steps.push({ ...st, origin: checks.some((c) => /^\[[ xX]\]/.test(c.text)) ? "checklist" : "section" })
  }
}

/**
 * The step drafts of a source, by passes in order of confidence: each later pass looks only at what the
 * earlier ones (and, for (c) and (e), itself) left uncovered.
 */
export const findSteps = (s: Scan, failureSections: ReadonlySet<number>): Array<StepDraft> => {
  const steps: Array<StepDraft> = [...headingSteps(s, failureSections)]
  steps.push(...listSteps(s, steps))
  subsectionSteps(s, steps)
  if (steps.length === 0) steps.push(...fallbackSectionSteps(s))
  verificationSteps(s, steps)
  // (f) no headings or lists at all: the imperative sentences of a plain prompt
  if (steps.length === 0) steps.push(...sentenceSteps(s))
  return steps.sort((a, b) => a.lineStart - b.lineStart)
}

const firstH1Line = (s: Scan): number => s.secs.find((x) => x.level === 1)?.line ?? -1

const hasContent = (s: Scan, from: number, to: number): boolean => {
  for (let n = from; n <= to; n++) if (!isBlank(s.lines[n - 1]!) && !HR.test(s.lines[n - 1]!)) return true
  return false
}

const sectionStep = (s: Scan, sec: Sec): StepDraft => ({
  number: stepNumberOf(sec.title),
  title: titleFrom(sec.title),
  lineStart: sec.line,
  lineEnd: sec.end,
  origin: "section",
  lead: "",
  bodyFrom: sec.line,
  bodyTo: sec.end,
  checklist: null
})

/** A prompt without structure: each paragraph's imperative sentences become steps. */
const sentenceSteps = (s: Scan): Array<StepDraft> => {
  const out: Array<StepDraft> = []
  const { lines, doc } = s
  for (let n = s.bodyStart; n <= lines.length; n++) {
    if (doc.md.inCode[n] || s.headingAt.has(n) || isBlank(lines[n - 1]!) || s.tableLines.has(n)) continue
    const li = s.itemAt.get(n)
    const block = li !== undefined ? itemLead(s, li) : paragraphAt(s, n)
    const end = li !== undefined ? s.items[li]!.end : block.end
    for (const sn of splitSentences(block.text)) {
      if (isRuleSentence(sn) || conditionalOf(sn)) continue
      if (isImperative(sn) !== true && !/^(please|now|first|next|then|finally)\b/i.test(sn)) continue
      const lineOfSentence = findSentenceLine(s, n, end, sn)
      out.push({
        number: null,
        title: titleFrom(sn.replace(/^(please|now|first|next|then|finally)[,\s]+/i, "")),
        lineStart: lineOfSentence.start,
        lineEnd: lineOfSentence.end,
        origin: "sentence",
        lead: cleanInline(sn),
        bodyFrom: 1,
        bodyTo: 0,
        checklist: null
      })
    }
    n = end
  }
  return out
}
