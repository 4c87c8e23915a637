/**
 * The audit estimate, on the shared estimate (src/credits/Estimate.ts):
 *
 *   inputTokens   = tokens(all input files) + PROMPT_OVERHEAD + PER_CRITERION_INPUT × criteria
 *   outputTokens  = tokens(files under review: the rewrite) + FINDINGS_OVERHEAD + PER_CRITERION_OUTPUT × criteria
 *   dynamic       = max(1, ceil(weighted / 10 000)) per rubric
 *   credits       = dynamic (mode dynamic) | SERVICE_AUDIT_RUN_CREDITS (flat) | 0 (free)
 */
import type { CreditMode } from "../config/AppConfig.js"
import { type Estimate, estimateWork } from "../credits/Estimate.js"
import type { ModelTier, ReasoningEffort } from "../ai/Usage.js"
import type { Rubric } from "../review/Types.js"

export type { Estimate } from "../credits/Estimate.js"

export const PROMPT_OVERHEAD_TOKENS = 600
export const PER_CRITERION_INPUT_TOKENS = 40
export const FINDINGS_OVERHEAD_TOKENS = 800
export const PER_CRITERION_OUTPUT_TOKENS = 60

/** What audits run on unless told otherwise. */
export const AUDIT_MODEL_TIER: ModelTier = "standard"
export const AUDIT_REASONING_EFFORT: ReasoningEffort = "medium"

export interface EstimateInput {
  readonly files: ReadonlyArray<{ readonly path: string; readonly content: string; readonly underReview: boolean }>
  readonly rubric: Rubric
  readonly modelTier: ModelTier
  readonly reasoningEffort: ReasoningEffort
  readonly mode: CreditMode
  readonly flatCredits: number
}

export const estimateAudit = (input: EstimateInput): Estimate => {
  const criteria = input.rubric.criteria.length
  return estimateWork({
    files: input.files.map((f) => ({ path: f.path, content: f.content, role: f.underReview ? "artifact" : "context" })),
    inputOverheadTokens: PROMPT_OVERHEAD_TOKENS + PER_CRITERION_INPUT_TOKENS * criteria,
    outputTokens: (reviewed) => reviewed + FINDINGS_OVERHEAD_TOKENS + PER_CRITERION_OUTPUT_TOKENS * criteria,
    modelTier: input.modelTier,
    reasoningEffort: input.reasoningEffort,
    mode: input.mode,
    flatCredits: input.flatCredits,
    rubricCount: 1
  })
}
