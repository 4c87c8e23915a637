/**
 * Credit estimates for every kind of AI work: approximate token counts (src/ai/Tokens.ts)
 * times product multipliers, never provider pricing. One pure function serves the estimate route, the
 * start route and the worker (to price actual provider usage for reconciliation).
 *
 *   inputTokens   = tokens(all input files) + the kind's input overhead
 *   outputTokens  = the kind's expected output tokens
 *   weighted      = (inputTokens × 1 + outputTokens × 4) × tier × effort
 *   dynamic       = max(1, ceil(weighted / 10 000)) × units      (units: rubrics, eval cases, …)
 *   credits       = dynamic (mode dynamic) | the kind's flat price (flat) | 0 (free)
 */
import type { CreditMode } from "../config/AppConfig.js"
import { estimateTokens } from "../ai/Tokens.js"
import type { ModelTier, ReasoningEffort, Usage } from "../ai/Usage.js"

export const OUTPUT_TOKEN_WEIGHT = 4
export const WEIGHTED_TOKENS_PER_CREDIT = 10_000

export const tierMultipliers: Record<ModelTier, number> = { cheap: 1, standard: 3, premium: 10 }
export const effortMultipliers: Record<ReasoningEffort, number> = { low: 1, medium: 1.5, high: 2.5 }

export interface EstimateFile {
  readonly path: string
  readonly content: string
  /** artifact: what the work is about (and often rewrites); context: read only */
  readonly role: "artifact" | "context"
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

export const creditsForWeightedTokens = (weighted: number, units = 1) =>
  Math.max(1, Math.ceil(weighted / WEIGHTED_TOKENS_PER_CREDIT)) * units

/** What actual provider usage would have cost in dynamic mode (for reconciliation). */
export const creditsForUsage = (usage: Usage, modelTier: ModelTier, reasoningEffort: ReasoningEffort) =>
  creditsForWeightedTokens(weightedTokensOf(usage.inputTokens, usage.outputTokens, modelTier, reasoningEffort))

export interface EstimateWork {
  readonly files: ReadonlyArray<EstimateFile>
  /** prompt and instructions the kind adds to the input */
  readonly inputOverheadTokens: number
  /** what the kind expects the model to write, given the artifact files' tokens */
  readonly outputTokens: (artifactTokens: number) => number
  readonly modelTier: ModelTier
  readonly reasoningEffort: ReasoningEffort
  readonly mode: CreditMode
  readonly flatCredits: number
  /** reported as rubricCount (audits: 1; kinds without a rubric: 0) */
  readonly rubricCount: number
  /** the dynamic price is per unit (rubrics, eval cases); at least 1 */
  readonly units?: number
}

export const estimateWork = (input: EstimateWork): Estimate => {
  const breakdown = input.files.map((f) => ({
    path: f.path,
    characters: f.content.length,
    tokens: estimateTokens(f.content),
    role: f.role
  }))
  const allTokens = breakdown.reduce((n, b) => n + b.tokens, 0)
  const artifactTokens = breakdown.filter((b) => b.role === "artifact").reduce((n, b) => n + b.tokens, 0)
  const estimatedInputTokens = allTokens + input.inputOverheadTokens
  const estimatedOutputTokens = input.outputTokens(artifactTokens)
  const weightedTokens = weightedTokensOf(estimatedInputTokens, estimatedOutputTokens, input.modelTier, input.reasoningEffort)
  const dynamicEstimatedCredits = creditsForWeightedTokens(weightedTokens, Math.max(1, input.units ?? 1))
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
    rubricCount: input.rubricCount,
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

/** The credit cost shown beside an estimate (the start debits `credits`). */
export const creditCostOf = (estimate: Estimate, reason: string) => ({
  credits: estimate.estimatedCredits,
  reason,
  estimate: true,
  mode: estimate.mode,
  finalChargedCredits: null as number | null
})
export type CreditCostJson = ReturnType<typeof creditCostOf>
