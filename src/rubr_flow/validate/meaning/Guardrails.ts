/** Guardrails: there are some, and no two say the same thing, or require what another forbids. */
import { field, strField } from "../Data.js"
import { type Draft, issue } from "../Drafts.js"
import type { FlowFacts } from "./Facts.js"
import { type GuardrailGist, guardrailGist, guardrailSimilarity, SAME_THING } from "./Gist.js"

interface Rule {
  readonly index: number
  readonly kind: "must" | "never"
  readonly forbids: boolean
  readonly gist: GuardrailGist
}

/** How a new rule stands to one before it: the same rule again, its opposite, or neither. */
const conflict = (rule: Rule, other: Rule): Draft | undefined => {
  const { gist, forbids, kind } = rule
  if (gist.words.length === 0 || other.gist.words.length === 0) return undefined
  const similarity = guardrailSimilarity(gist, other.gist)
  if (other.forbids === forbids) {
    if (similarity !== 1) return undefined
    return issue(
      "duplicate_guardrail",
      ["guardrails", rule.index, kind],
      `This guardrail says the same as guardrails.${other.index}${other.kind !== kind ? ` (written as \`${other.kind}\`)` : ""}: keep one.`
    )
  }
  if (gist.words.length >= 2 && other.gist.words.length >= 2 && similarity >= SAME_THING) {
    return issue(
      "contradictory_guardrails",
      ["guardrails", rule.index, kind],
      `This guardrail ${forbids ? "forbids" : "requires"} what guardrails.${other.index} ${other.forbids ? "forbids" : "requires"}: they are about the same thing. Keep the one you mean, or make the difference explicit.`
    )
  }
  return undefined
}

export const guardrailIssues = (flow: FlowFacts): Array<Draft> => {
  const out: Array<Draft> = []
  const guardrailList = field(flow.root, "guardrails")
  if (guardrailList === undefined || (Array.isArray(guardrailList) && guardrailList.length === 0)) {
    out.push(issue("no_guardrails", ["guardrails"], "The flow has no `guardrails`: list what the agent must always do (`must:`) and must never do (`never:`)."))
  }
  const rules: Array<Rule> = []
  for (const g of flow.blocks.guardrails) {
    const must = strField(g.value, "must")
    const never = strField(g.value, "never")
    if ((must === undefined) === (never === undefined)) continue
    const kind = must !== undefined ? "must" : "never"
    const gist = guardrailGist((must ?? never)!)
    // "must: Never X" forbids X like "never: X" does; "never: Do not X" is still a never
    const rule: Rule = { index: g.index, kind, forbids: kind === "never" || gist.negated, gist }
    for (const other of rules) {
      const found = conflict(rule, other)
      if (found !== undefined) out.push(found)
    }
    rules.push(rule)
  }
  return out
}
