/**
 * Eval cases derived from the artifact itself: a trigger case from the description's "when" clause,
 * one case per leading step, a negative (non-trigger) case, scenario cases from the artifact's own
 * conditionals ("If X, do Y") and a missing-resource scenario when it references bundle files.
 * At most 8 cases, ids `eval-1`..`eval-8`, in that order. Deterministic.
 */
import type { ArtifactType } from "../domain/Artifact.js"
import type { EvalCase } from "../domain/EvalCase.js"
import { getField } from "../markdown/Frontmatter.js"
import { plainText } from "../markdown/Markdown.js"
import { basename } from "../markdown/Paths.js"
import { orderedLists } from "../markdown/Instructions.js"
import type { Doc } from "../markdown/Document.js"

const MAX_CASES = 8

const clip = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n - 1).replace(/\s+\S*$/, "")}…` : s)
const cap = (s: string) => (s === "" ? s : s[0]!.toUpperCase() + s.slice(1))
const sentence = (s: string) => {
  const t = s.replace(/[:;,\s]+$/, "")
  return /[.!?…]$/.test(t) ? t : `${t}.`
}

const NOUN: Record<ArtifactType, string> = {
  skill: "skill",
  agent: "agent instructions",
  prompt: "prompt",
  command: "command",
  workflow: "workflow",
  rubr_flow: "procedure"
}

export const buildEvalKit = (doc: Doc | undefined, artifactType: ArtifactType, bundlePaths: ReadonlyArray<string>): Array<EvalCase> => {
  if (!doc) return []
  const noun = NOUN[artifactType]
  const fmName = doc.fm.closed ? getField(doc.fm, "name")?.value.trim() : undefined
  const h1 = doc.md.headings.find((h) => h.level === 1)
  const label = fmName || (h1 ? plainText(h1.text) : "") || basename(doc.path)
  const description = (doc.fm.closed ? getField(doc.fm, "description")?.value : undefined)?.replace(/\s+/g, " ").trim() ?? ""
  const whenMatch = description.match(/\b(?:use (?:this skill |it )?(?:when|whenever|if|for)|whenever|when)\b[:,]?\s*([^.;]+)/i)
  const when = whenMatch ? clip(whenMatch[1]!.trim(), 240) : ""
  const firstClause = (description.split(/(?<=[.;])\s/)[0] ?? "").replace(/[.;]$/, "")
  // "Helps." names no task: a situation is derived from a clause of three words or more, else the label
  const what = firstClause.split(/\s+/).length >= 3 ? clip(firstClause) : ""
  const lists = orderedLists(doc)
  const topIndent = (l: (typeof lists)[number]) => doc.split.lines[l.items[0]!.line - 1]!.search(/\S/)
  const mainList = [...lists].filter((l) => topIndent(l) === 0).sort((a, b) => b.items.length - a.items.length)[0]
  const stepHeadings = doc.md.headings.filter((h) => /^(?:(?:step|phase|stage)\s*\d+|\d+[.):]\s)/i.test(h.text))
  const topLevel = Math.min(...stepHeadings.map((h) => h.level))
  const headingSteps = stepHeadings.filter((h) => h.level === topLevel)
  const useHeadings = headingSteps.length >= 2 && (!mainList || mainList.items.length < 2 || headingSteps[0]!.line < mainList.items[0]!.line)
  const steps = (useHeadings
    ? headingSteps.map((h) => plainText(h.text).replace(/^(?:(?:step|phase|stage)\s*\d+\s*[:.)-]?|\d+[.):])\s*/i, ""))
    : (mainList?.items ?? []).map((i) => plainText(i.text))
  )
    .map((s) => s.replace(/[.:;,\s]+$/, ""))
    .filter((s) => s.length > 0)
  const situation = when
    ? `${cap(when)}`
    : what
      ? `A task that calls for this ${noun}: ${what}`
      : `A task covered by "${label}"`
  const cases: Array<Omit<EvalCase, "id">> = []
  cases.push({
    name: `Applies ${label} to a matching request`,
    type: "standard",
    input: `${sentence(situation)} The user asks for help with exactly this.`,
    expectedBehavior: steps.length > 0
      ? `The agent uses ${label} and starts with its first step: ${sentence(clip(steps[0]!, 120))}`
      : `The agent uses ${label} and follows its instructions.`,
    passCriteria: `The response visibly follows ${label}${steps.length > 0 ? ` and performs "${clip(steps[0]!, 80)}" before anything else` : ""}.`
  })
  for (const [i, step] of steps.slice(1, 4).entries()) {
    cases.push({
      name: `Performs step ${i + 2}: ${clip(step, 60)}`,
      type: "standard",
      input: `${sentence(situation)} Carry the task through to the end.`,
      expectedBehavior: `After the earlier steps, the agent performs: ${sentence(clip(step, 140))}`,
      passCriteria: `The transcript shows "${clip(step, 80)}" done, in order, without skipping it.`
    })
  }
  cases.push({
    name: `Stays out of unrelated requests`,
    type: "standard",
    input: "Translate the sentence \"The meeting moved to Thursday\" into French.",
    expectedBehavior: `The agent answers directly and does not invoke ${label} or its procedure.`,
    passCriteria: `No step of ${label} is performed; the translation is given.`
  })
  // conditionals written in the artifact: "If X, Y" / "When X: Y"
  const conditionals: Array<{ cond: string; action: string }> = []
  for (const [n] of doc.prose) {
    const t = plainText(doc.split.lines[n - 1]!.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, ""))
    const m = t.match(/^(?:if|when)\s+([^,:]{4,100})[,:]\s*(.{4,200})$/i)
    if (m) conditionals.push({ cond: m[1]!.trim(), action: m[2]!.trim() })
  }
  for (const c of conditionals.slice(0, 2)) {
    cases.push({
      name: `Handles the case: ${clip(c.cond, 60)}`,
      type: "scenario",
      input: `${sentence(situation)} During the task this condition arises: ${sentence(c.cond)}`,
      expectedBehavior: `As the ${noun} instructs, the agent does this: ${sentence(clip(c.action))}`,
      passCriteria: `The response handles "${clip(c.cond, 60)}" as written: ${sentence(clip(c.action, 100))}`
    })
  }
  const refFile = doc.refs.find((r) => !r.directory && !r.glob && bundlePaths.some((p) => p.endsWith(r.path.replace(/^\.\//, ""))))
  if (refFile) {
    cases.push({
      name: `Reports an unreadable reference instead of guessing`,
      type: "scenario",
      input: `${sentence(situation)} The file ${refFile.path.replace(/^\.\//, "")} cannot be opened in this environment.`,
      expectedBehavior: `The agent says that ${refFile.path.replace(/^\.\//, "")} is unavailable and continues only with what it can verify, or asks the user; it does not invent the file's content.`,
      passCriteria: "The response names the missing file and contains no fabricated content attributed to it."
    })
  }
  cases.push({
    name: "Asks for missing information",
    type: "scenario",
    input: `${sentence(situation)} The request leaves out a detail the ${noun} needs to proceed.`,
    expectedBehavior: `The agent asks one focused clarifying question (or states the assumption it makes) before acting.`,
    passCriteria: "A clarifying question or an explicit assumption appears before any irreversible action."
  })
  return cases.slice(0, MAX_CASES).map((c, i) => ({ id: `eval-${i + 1}`, ...c }))
}
