/**
 * Steps: each has an action and a check that says something the action does not, and refers only to
 * what exists (inputs, outputs produced by then, failure handlers, `{{names}}`); with sources listed,
 * each says where it came from.
 */
import { clipLine } from "../../Text.js"
import { closest } from "../Closest.js"
import { type Block, field, hasOwn, listField, strField } from "../Data.js"
import { blockLabel, type Draft, issue, quote, sentence } from "../Drafts.js"
import { type FlowFacts, placeholders } from "./Facts.js"

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029

/** Equal texts but for case and runs of white space (and not empty). Stops at the first difference. */
const sameText = (a: string, b: string): boolean => {
  let i = 0
  let j = 0
  let chars = 0
  const la = a.length
  const lb = b.length
  while (i < la && isSpace(a.charCodeAt(i))) i++
  while (j < lb && isSpace(b.charCodeAt(j))) j++
  for (;;) {
    if (i >= la || j >= lb) {
      while (i < la && isSpace(a.charCodeAt(i))) i++
      while (j < lb && isSpace(b.charCodeAt(j))) j++
      return i >= la && j >= lb && chars > 0
    }
    const ca = a.charCodeAt(i)
    const cb = b.charCodeAt(j)
    if (isSpace(ca) || isSpace(cb)) {
      if (!(isSpace(ca) && isSpace(cb))) {
        // trailing white space on one side only
        while (i < la && isSpace(a.charCodeAt(i))) i++
        while (j < lb && isSpace(b.charCodeAt(j))) j++
        if (i >= la && j >= lb) return chars > 0
        return false
      }
      while (i < la && isSpace(a.charCodeAt(i))) i++
      while (j < lb && isSpace(b.charCodeAt(j))) j++
      continue
    }
    if (ca !== cb && a[i].toLowerCase() !== b[j].toLowerCase()) return false
    chars++
    i++
    j++
  }
}

/** Empty actions and checks, and a check that only repeats the action. */
const stepTextIssues = (s: Block, where: () => string, out: Array<Draft>): void => {
  const action = strField(s.value, "action")
  const check = strField(s.value, "check")
  if (action !== undefined && action.trim() === "") {
    out.push(issue("empty_step", ["steps", s.index, "action"], `${sentence(where())} has an empty \`action\`: say what to do.`))
  }
  if (check !== undefined && check.trim() === "") {
    out.push(issue("missing_check", ["steps", s.index, "check"], `${sentence(where())} has an empty \`check\`: say how to tell the step is done (an observable result).`))
  } else if (action !== undefined && check !== undefined && sameText(action, check)) {
    out.push(
      issue(
        "check_restates_action",
        ["steps", s.index, "check"],
        `The \`check\` of ${where()} repeats its action: describe the observable result that shows the step worked (an output, a state, a passing command).`
      )
    )
  }
}

/** What a step names that does not exist, or not yet. */
const stepReferenceIssues = (flow: FlowFacts, s: Block, where: () => string, out: Array<Draft>): void => {
  const { root, usable, namesReadable, readable, firstProducer } = flow
  const { inputs: inputIds, outputs: outputIds, failure_handling: failureIds } = flow.ids
  listField(s.value, "uses").forEach((id, j) => {
    if (typeof id !== "string" || !namesReadable) return
    if (!usable.has(id)) {
      const guess = closest(id, usable)
      out.push(
        issue(
          "undefined_reference",
          ["steps", s.index, "uses", j],
          `${sentence(where())} uses ${quote(id)}, but no input or output has that id${guess !== undefined ? `: did you mean \`${guess}\`?` : ": declare it under `inputs` (or `outputs`), or fix the id."}`
        )
      )
      return
    }
    if (!inputIds.has(id)) {
      const producer = firstProducer.get(id)
      if (producer !== undefined && producer >= s.index) {
        out.push(
          issue(
            "used_before_produced",
            ["steps", s.index, "uses", j],
            producer === s.index
              ? `${sentence(where())} uses output ${quote(id)}, which only this step produces: list it in \`produces\` only, or move the use to a later step.`
              : `${sentence(where())} uses output ${quote(id)}, which is first produced by a later step, ${blockLabel(root, "steps", producer)} (steps.${producer}): reorder the steps or fix the reference.`
          )
        )
      }
    }
  })
  listField(s.value, "produces").forEach((id, j) => {
    if (typeof id === "string" && readable("outputs") && !outputIds.has(id)) {
      const guess = closest(id, outputIds.keys())
      out.push(
        issue(
          "undefined_reference",
          ["steps", s.index, "produces", j],
          `${sentence(where())} produces ${quote(id)}, but no output has that id${guess !== undefined ? `: did you mean \`${guess}\`?` : ": declare it under `outputs`."}`
        )
      )
    }
  })
  const onFailure = strField(s.value, "on_failure")
  if (onFailure !== undefined && readable("failure_handling") && !failureIds.has(onFailure)) {
    const guess = closest(onFailure, failureIds.keys())
    out.push(
      issue(
        "undefined_reference",
        ["steps", s.index, "on_failure"],
        `${sentence(where())} has \`on_failure: ${clipLine(onFailure, 40)}\`, but no failure_handling entry has that id${guess !== undefined ? `: did you mean \`${guess}\`?` : "."}`
      )
    )
  }
  for (const key of ["action", "check"] as const) {
    for (const name of placeholders(strField(s.value, key))) {
      if (namesReadable && !usable.has(name)) {
        out.push(
          issue(
            "undefined_reference",
            ["steps", s.index, key],
            `The \`${key}\` of ${where()} mentions {{${name}}}, but no input or output has the id ${quote(name)}: declare it, or write it without braces.`
          )
        )
      }
    }
  }
}

export const stepIssues = (flow: FlowFacts): Array<Draft> => {
  const { root } = flow
  const out: Array<Draft> = []
  if (Array.isArray(field(root, "steps")) && listField(root, "steps").length === 0) {
    out.push(issue("no_steps", ["steps"], "`steps` is empty: a procedure needs at least one step with an action and a check."))
  }
  const sourcesDeclared = listField(root, "sources").length > 0
  for (const s of flow.blocks.steps) {
    // messages only: built when an issue needs them
    const where = (): string => blockLabel(root, "steps", s.index)
    stepTextIssues(s, where, out)
    stepReferenceIssues(flow, s, where, out)
    if (sourcesDeclared && !hasOwn(s.value, "from")) {
      out.push(issue("missing_source_mapping", ["steps", s.index], `${sentence(where())} has no \`from\`: say which source lines it comes from (PATH:START-END).`))
    }
  }
  return out
}
