/** Inputs and outputs: every input is used by a step, every output produced by one. */
import { clipLine } from "../../Text.js"
import { listField, strField } from "../Data.js"
import { type Draft, issue, quote } from "../Drafts.js"
import { type FlowFacts, placeholders } from "./Facts.js"

/** The ids the steps use: in `uses`, or as `{{id}}` in a step's or a failure handler's text. */
const usedIds = (flow: FlowFacts): Set<string> => {
  const used = new Set<string>()
  for (const s of flow.blocks.steps) {
    for (const key of ["action", "check", "title"]) for (const name of placeholders(strField(s.value, key))) used.add(name)
  }
  for (const f of flow.blocks.failure_handling) {
    for (const key of ["when", "then"]) for (const name of placeholders(strField(f.value, key))) used.add(name)
  }
  for (const s of flow.blocks.steps) for (const id of listField(s.value, "uses")) if (typeof id === "string") used.add(id)
  return used
}

export const inputOutputIssues = (flow: FlowFacts): Array<Draft> => {
  const out: Array<Draft> = []
  if (!flow.stepsReadable) return out
  const used = flow.ids.inputs.size > 0 ? usedIds(flow) : new Set<string>()
  for (const [id, index] of flow.ids.inputs) {
    if (!used.has(id)) {
      out.push(issue("unused_input", ["inputs", index], `Input ${quote(id)} is not used by any step: list it in a step's \`uses\` (or mention it as {{${clipLine(id, 40)}}}), or remove it.`))
    }
  }
  for (const [id, index] of flow.ids.outputs) {
    if (!flow.firstProducer.has(id)) {
      out.push(issue("unproduced_output", ["outputs", index], `Output ${quote(id)} is not produced by any step: add it to the \`produces\` of the step that creates it.`))
    }
  }
  return out
}
