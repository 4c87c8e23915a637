/**
 * Pass 3, the meaning: ids, references, step order, checks, guardrail contradictions, source mapping,
 * one pass each (./meaning/). They run on the plain data even when the shape has errors, skipping
 * whatever is malformed.
 */
import type { Rec } from "./Data.js"
import type { Draft } from "./Drafts.js"
import { flowFacts, type FlowFacts } from "./meaning/Facts.js"
import { failureIssues } from "./meaning/FailureHandling.js"
import { guardrailIssues } from "./meaning/Guardrails.js"
import { idIssues } from "./meaning/Ids.js"
import { inputOutputIssues } from "./meaning/InputsOutputs.js"
import { sourceIssues } from "./meaning/Sources.js"
import { stepIssues } from "./meaning/Steps.js"
import { emptyTextIssues } from "./meaning/Texts.js"
import type { ValidateOptions } from "./Types.js"

const MEANING_PASSES: ReadonlyArray<(flow: FlowFacts) => Array<Draft>> = [
  idIssues,
  stepIssues,
  failureIssues,
  inputOutputIssues,
  guardrailIssues,
  emptyTextIssues,
  sourceIssues
]

export const meaningIssues = (root: Rec, options: ValidateOptions | undefined): Array<Draft> => {
  const flow = flowFacts(root, options)
  return MEANING_PASSES.flatMap((pass) => pass(flow))
}
