/** Ids: unique within each section, and no input and output sharing one (`uses` could mean either). */
import { strField } from "../Data.js"
import { type Draft, issue, quote, sentence } from "../Drafts.js"
import { SECTION_NOUN } from "../Vocabulary.js"
import { type FlowFacts, ID_SECTIONS } from "./Facts.js"

export const idIssues = (flow: FlowFacts): Array<Draft> => {
  const out: Array<Draft> = []
  for (const section of ID_SECTIONS) {
    for (const b of flow.blocks[section]) {
      const id = strField(b.value, "id")
      const earlier = id === undefined ? undefined : flow.ids[section].get(id)
      if (id === undefined || earlier === undefined || earlier === b.index) continue
      out.push(
        issue(
          "duplicate_id",
          [section, b.index, "id"],
          `${sentence(SECTION_NOUN[section])} id ${quote(id)} is already used by ${SECTION_NOUN[section]} #${earlier + 1} (${section}.${earlier}): ids must be unique among ${section}.`
        )
      )
    }
  }
  for (const [id, index] of flow.ids.outputs) {
    const inputIndex = flow.ids.inputs.get(id)
    if (inputIndex !== undefined) {
      out.push(
        issue(
          "ambiguous_id",
          ["outputs", index, "id"],
          `Output id ${quote(id)} is also the id of input #${inputIndex + 1} (inputs.${inputIndex}): \`uses\` could mean either; rename one.`
        )
      )
    }
  }
  return out
}
