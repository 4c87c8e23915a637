/**
 * Credit estimates: one pure function used by both the estimate route and the start route, and by the
 * worker to price actual provider usage for reconciliation. Approximate token counts
 * (src/review/text/Tokens.ts) times product multipliers; not provider pricing.
 *
 *   inputTokens   = tokens(all input files) + PROMPT_OVERHEAD + PER_CRITERION_INPUT × criteria
 *   outputTokens  = tokens(files under review: the rewrite) + FINDINGS_OVERHEAD + PER_CRITERION_OUTPUT × criteria
 *   weighted      = (inputTokens × 1 + outputTokens × 4) × tier × effort
 *   dynamic       = max(1, ceil(weighted / 10 000)) per rubric
 *   credits       = dynamic (mode dynamic) | SERVICE_AUDIT_RUN_CREDITS (flat) | 0 (free)
 */
import { estimateTokens } from "../review/text/Tokens.js"
import type { ModelTier, ReasoningEffort, Rubric, Usage } from "../review/Types.js"
import type { CreditMode } from "../config/AppConfig.js"

export const PROMPT_OVERHEAD_TOKENS = 600
export const PER_CRITERION_INPUT_TOKENS = 40
export const FINDINGS_OVERHEAD_TOKENS = 800
export const PER_CRITERION_OUTPUT_TOKENS = 60
export const OUTPUT_TOKEN_WEIGHT = 4
export const WEIGHTED_TOKENS_PER_CREDIT = 10_000

export const tierMultipliers: Record<ModelTier, number> = { cheap: 1, standard: 3, premium: 10 }
export const effortMultipliers: Record<ReasoningEffort, number> = { low: 1, medium: 1.5, high: 2.5 }

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

export interface Estimate {
  readonly mode: CreditMode
  readonly estimatedCredits: number
  readonly dynamicEstimatedCredits: number
  readonly estimatedInputTokens: number
  readonly estimatedOutputTokens: number
  readonly estimatedTotalTokens: number
  readonly weightedTokens: number
  readonly fileCount: number
  readonly totalCharacters: number
  readonly rubricCount: number
  readonly modelTier: ModelTier
  readonly reasoningEffort: ReasoningEffort
  readonly multipliers: {
    readonly modelTier: number
    readonly reasoningEffort: number
    readonly outputTokenWeight: number
    readonly weightedTokensPerCredit: number
  }
  readonly breakdown: ReadonlyArray<{
    readonly path: string
    readonly characters: number
    readonly tokens: number
    readonly role: "artifact" | "context"
  }>
}

export const weightedTokensOf = (
  inputTokens: number,
  outputTokens: number,
  modelTier: ModelTier,
  reasoningEffort: ReasoningEffort
) =>
  Math.ceil((inputTokens + outputTokens * OUTPUT_TOKEN_WEIGHT) * tierMultipliers[modelTier] * effortMultipliers[reasoningEffort])

export const creditsForWeightedTokens = (weighted: number, rubricCount = 1) =>
  Math.max(1, Math.ceil(weighted / WEIGHTED_TOKENS_PER_CREDIT)) * rubricCount

export const estimateAudit = (input: EstimateInput): Estimate => {
  const criteria = input.rubric.criteria.length
  const breakdown = input.files.map((f) => ({
    path: f.path,
    characters: f.content.length,
    tokens: estimateTokens(f.content),
    role: f.underReview ? "artifact" as const : "context" as const
  }))
  const allTokens = breakdown.reduce((n, b) => n + b.tokens, 0)
  const reviewedTokens = breakdown.filter((b) => b.role === "artifact").reduce((n, b) => n + b.tokens, 0)
  const estimatedInputTokens = allTokens + PROMPT_OVERHEAD_TOKENS + PER_CRITERION_INPUT_TOKENS * criteria
  const estimatedOutputTokens = reviewedTokens + FINDINGS_OVERHEAD_TOKENS + PER_CRITERION_OUTPUT_TOKENS * criteria
  const weightedTokens = weightedTokensOf(estimatedInputTokens, estimatedOutputTokens, input.modelTier, input.reasoningEffort)
  const rubricCount = 1
  const dynamicEstimatedCredits = creditsForWeightedTokens(weightedTokens, rubricCount)
  return {
    mode: input.mode,
    estimatedCredits: input.mode === "dynamic" ? dynamicEstimatedCredits : input.mode === "flat" ? input.flatCredits : 0,
    dynamicEstimatedCredits,
    estimatedInputTokens,
    estimatedOutputTokens,
    estimatedTotalTokens: estimatedInputTokens + estimatedOutputTokens,
    weightedTokens,
    fileCount: input.files.length,
    totalCharacters: breakdown.reduce((n, b) => n + b.characters, 0),
    rubricCount,
    modelTier: input.modelTier,
    reasoningEffort: input.reasoningEffort,
    multipliers: {
      modelTier: tierMultipliers[input.modelTier],
      reasoningEffort: effortMultipliers[input.reasoningEffort],
      outputTokenWeight: OUTPUT_TOKEN_WEIGHT,
      weightedTokensPerCredit: WEIGHTED_TOKENS_PER_CREDIT
    },
    breakdown
  }
}

/** What actual provider usage would have cost in dynamic mode (for reconciliation). */
export const creditsForUsage = (usage: Usage, modelTier: ModelTier, reasoningEffort: ReasoningEffort) =>
  creditsForWeightedTokens(weightedTokensOf(usage.inputTokens, usage.outputTokens, modelTier, reasoningEffort))
