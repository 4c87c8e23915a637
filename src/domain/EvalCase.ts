/**
 * A test case for an artifact: what the reviewer's eval kit proposes, what a conversion carries into a
 * rubr_flow package and what an eval runs both versions on. One shape for the three.
 */
import { Schema } from "effect"

export const EvalCase = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  type: Schema.Literal("standard", "scenario"),
  input: Schema.String,
  expectedBehavior: Schema.String,
  passCriteria: Schema.String
})
export type EvalCase = typeof EvalCase.Type
