/**
 * The mock reviewer's rule-based checks: one scorer per criterion key of the catalogue. Each scorer
 * starts from 100 and records deductions (with a reason, capped per rule) and findings that point at
 * lines. docs/rubrics.md lists every rule and its deduction; keep the two in step.
 */
import type { CriterionKey } from "../rubrics/Criteria.js"
import { clarity } from "./checks/Clarity.js"
import type { CheckContext, CheckOutcome } from "./checks/Common.js"
import { description, frontmatter, name } from "./checks/Identity.js"
import { formatting, length, purpose, structure } from "./checks/Layout.js"
import {
  commands,
  constraints,
  errorHandling,
  inputs,
  outputFormat,
  steps,
  verification
} from "./checks/Procedure.js"
import { examples } from "./checks/Examples.js"
import { references } from "./checks/References.js"
import { consistency } from "./checks/Consistency.js"
import { safety } from "./checks/Safety.js"

export type { CheckContext, CheckOutcome, Deduction, Issue } from "./checks/Common.js"
export { TRIGGER } from "./checks/Identity.js"
export { excessBlankRuns, LENGTH_BUDGETS, trailingWhitespaceLines } from "./checks/Layout.js"

export const CHECKS: Readonly<Record<CriterionKey, (ctx: CheckContext) => CheckOutcome>> = {
  frontmatter,
  name,
  description,
  purpose,
  structure,
  steps,
  examples,
  references,
  clarity,
  length,
  formatting,
  commands,
  constraints,
  output_format: outputFormat,
  inputs,
  verification,
  error_handling: errorHandling,
  consistency,
  safety
}
