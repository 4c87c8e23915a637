/** Required texts: present and not blank (a missing one is the shape's `missing_field`). */
import type { PathSegment } from "../../Parse.js"
import { type Block, type Rec, strField } from "../Data.js"
import { type Draft, issue, label } from "../Drafts.js"
import { HINTS, type Section } from "../Vocabulary.js"
import type { FlowFacts } from "./Facts.js"

const REQUIRED_TEXTS: ReadonlyArray<readonly [Section | "root", ReadonlyArray<string>]> = [
  ["root", ["name", "description", "when_to_use"]],
  ["inputs", ["description"]],
  ["steps", ["title"]],
  ["outputs", ["description"]],
  ["guardrails", ["must", "never"]],
  ["failure_handling", ["when", "then"]],
  ["evals", ["name", "input", "expected_behavior", "pass_criteria"]]
]

export const emptyTextIssues = (flow: FlowFacts): Array<Draft> => {
  const { root } = flow
  const out: Array<Draft> = []
  for (const [where, keys] of REQUIRED_TEXTS) {
    const list: ReadonlyArray<Block | { readonly section: "root"; readonly index: -1; readonly value: Rec }> =
      where === "root" ? [{ section: "root", index: -1, value: root }] : flow.blocks[where]
    for (const b of list) {
      for (const key of keys) {
        const v = strField(b.value, key)
        if (v === undefined || v.trim() !== "") continue
        const path: Array<PathSegment> = b.section === "root" ? [key] : [b.section, b.index, key]
        out.push(issue("empty_text", path, `${label(root, path)} is empty: write ${b.section === "root" ? HINTS.root[key] ?? "it" : HINTS[b.section][key] ?? "what it means"}.`))
      }
    }
  }
  return out
}
