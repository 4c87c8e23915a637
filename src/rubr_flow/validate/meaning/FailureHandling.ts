/** Failure handling: there is some, and each entry resumes at a step that exists. */
import { closest } from "../Closest.js"
import { field, strField } from "../Data.js"
import { blockLabel, type Draft, issue, quote, sentence } from "../Drafts.js"
import type { FlowFacts } from "./Facts.js"

export const failureIssues = (flow: FlowFacts): Array<Draft> => {
  const { root, stepsReadable } = flow
  const stepIds = flow.ids.steps
  const out: Array<Draft> = []
  const failureList = field(root, "failure_handling")
  if (failureList === undefined || (Array.isArray(failureList) && failureList.length === 0)) {
    out.push(issue("no_failure_handling", ["failure_handling"], "The flow has no `failure_handling`: say what the agent does when a step fails (for example, when a command errors or a check does not pass)."))
  }
  for (const f of flow.blocks.failure_handling) {
    const resume = strField(f.value, "resume_at")
    if (resume !== undefined && stepsReadable && !stepIds.has(resume)) {
      const guess = closest(resume, stepIds.keys())
      out.push(
        issue(
          "undefined_reference",
          ["failure_handling", f.index, "resume_at"],
          `${sentence(blockLabel(root, "failure_handling", f.index))} resumes at ${quote(resume)}, but no step has that id${guess !== undefined ? `: did you mean \`${guess}\`?` : "."}`
        )
      )
    }
  }
  return out
}
