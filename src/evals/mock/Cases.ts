/**
 * What a case asks for, read from its text: the kinds an audit's eval kit produces
 * (src/review/EvalKit.ts) and the same kinds written by people or a model in other words. A
 * case that fits none is `generic`: judged on the key words of its expected behaviour.
 */
import type { EvalCase } from "../../domain/EvalCase.js"

export type CaseKind =
  /** the version is used for a matching request and starts with its first step */
  | { readonly kind: "trigger"; readonly situation: string; readonly firstStep: string | null }
  /** a step is performed after the earlier ones */
  | { readonly kind: "step"; readonly step: string }
  /** an unrelated request is answered without the version's procedure */
  | { readonly kind: "negative"; readonly request: string }
  /** information is missing: ask or state the assumption before acting */
  | { readonly kind: "missing_info" }
  /** a referenced file cannot be opened: say so, do not invent its content */
  | { readonly kind: "missing_reference"; readonly file: string }
  /** a condition arises during the task: handle it as written */
  | { readonly kind: "conditional"; readonly condition: string; readonly action: string }
  | {
    readonly kind: "generic"
    readonly expected: string
    readonly criteria: string
    readonly input: string
    readonly quotes: ReadonlyArray<string>
  }

const NEGATIVE_NAME = /\b(stays? out|unrelated|out of scope|off-topic|not trigger|non-trigger|irrelevant request)\b/i
const NEGATIVE =
  /\b((does not|doesn'?t|should not|shouldn'?t|must not|never) (invoke|trigger|activate|apply)|not (be )?(invoked|triggered|activated)|no step of)\b/i
const MISSING_INFO =
  /\b(missing information|missing details?|clarifying question|asks? (for )?(clarification|the missing)|states? (the|an|its) assumption|explicit assumption|leaves out a detail|underspecified|ambiguous request)\b/i
const UNREADABLE =
  /\b((cannot|can'?t|could not|couldn'?t) be (opened|read|loaded|found|accessed)|unreadable|(is|are) (unavailable|inaccessible|missing)|not available in this environment|fails? to (open|load))\b/i
const FILE_IN_TEXT = /\bfile\s+[`"']?([^\s`"']+?)[`"']?\s+(?:cannot|can'?t|could not|couldn'?t|is|fails)\b/i
const PATHISH = /(?<![\w/.-])((?:\.{0,2}\/)?(?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z][\w]{0,7})(?![\w/])/

/** Text without a clip mark and final punctuation. */
export const unclip = (s: string): string => s.trim().replace(/…$/, "").replace(/[.:;,\s]+$/, "").trim()

const after = (text: string, re: RegExp): string | null => {
  const m = text.match(re)
  return m ? unclip(text.slice(m.index! + m[0].length)) : null
}

const lastSentence = (text: string): string => {
  const parts = text.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter((s) => s !== "")
  return parts.length > 1 ? parts[parts.length - 1]! : text
}

/** The situation of a trigger case, without the wording every generated input shares. */
const situationOf = (input: string): string =>
  input
    .replace(/\s*The user asks for help with exactly this\.?\s*$/i, "")
    .replace(/\s*Carry the task through to the end\.?\s*$/i, "")
    .replace(/^A task that calls for this [\w ]+?:\s*/i, "")
    .replace(/^A task covered by\s*/i, "")
    .trim()

const triggerCase = (c: EvalCase): CaseKind => {
  const firstStep =
    after(c.expectedBehavior, /\bfirst step:\s*/i) ?? c.passCriteria.match(/\bperforms "([^"]+)" before anything else/i)?.[1] ?? null
  return { kind: "trigger", situation: situationOf(c.input), firstStep: firstStep ? unclip(firstStep) : null }
}

const stepOf = (c: EvalCase): string | null => {
  const s =
    after(c.expectedBehavior, /\bperforms:\s*/i) ??
    (/\bstep\s+\d+\b/i.test(c.name) ? (c.passCriteria.match(/"([^"]+)"/)?.[1] ?? after(c.name, /\bstep\s+\d+\s*[:.-]\s*/i)) : null)
  return s && unclip(s) !== "" ? unclip(s) : null
}

const conditionalCase = (c: EvalCase): CaseKind => ({
  kind: "conditional",
  condition: after(c.input, /\bcondition arises:\s*/i) ?? after(c.name, /^handles the case:\s*/i) ?? unclip(lastSentence(c.input)),
  action:
    after(c.expectedBehavior, /\bdoes this:\s*/i) ??
    after(c.passCriteria, /\bas written:\s*/i) ??
    unclip(c.expectedBehavior.replace(/^(as the [\w ]+? instructs,\s*)?the agent\s*/i, ""))
})

const missingFile = (c: EvalCase): string | null => {
  const f = c.input.match(FILE_IN_TEXT)?.[1] ?? c.input.match(PATHISH)?.[1] ?? c.expectedBehavior.match(PATHISH)?.[1]
  return f ? f.replace(/^\.\//, "").replace(/[.,;:]$/, "") : null
}

/** The kit's own names first (they are exact), then the same kinds recognised by their wording. */
export const classifyCase = (c: EvalCase): CaseKind => {
  const about = `${c.expectedBehavior}\n${c.passCriteria}`
  if (/^applies\b/i.test(c.name)) return triggerCase(c)
  const namedStep = /^performs step\b/i.test(c.name) ? stepOf(c) : null
  if (namedStep) return { kind: "step", step: namedStep }
  if (/^handles the case\b/i.test(c.name)) return conditionalCase(c)
  if (NEGATIVE_NAME.test(c.name) || NEGATIVE.test(about)) return { kind: "negative", request: c.input }
  if (/\bunreadable reference\b/i.test(c.name) || UNREADABLE.test(c.input)) {
    const file = missingFile(c)
    if (file) return { kind: "missing_reference", file }
  }
  if (MISSING_INFO.test(`${c.name}\n${about}`)) return { kind: "missing_info" }
  if (/\bstarts with its first step\b|\bfollows its instructions\b/i.test(c.expectedBehavior)) return triggerCase(c)
  const step = stepOf(c)
  if (step) return { kind: "step", step }
  if (c.type === "scenario" || /\bcondition arises\b/i.test(c.input)) return conditionalCase(c)
  const quotes = [...c.passCriteria.matchAll(/"([^"]{3,})"/g)].map((m) => unclip(m[1]!)).filter((q) => q.split(/\s+/).length >= 2)
  return { kind: "generic", expected: c.expectedBehavior, criteria: c.passCriteria, input: c.input, quotes }
}
