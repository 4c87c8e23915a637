/**
 * What every AI call is priced and reported by, shared by the reviewers, conversions, evals and the
 * credit estimates: the model tier and reasoning effort asked for, the tokens a call used, and which
 * provider and model answered.
 */
import { Schema } from "effect"

export const ModelTier = Schema.Literal("cheap", "standard", "premium")
export type ModelTier = typeof ModelTier.Type
export const ReasoningEffort = Schema.Literal("low", "medium", "high")
export type ReasoningEffort = typeof ReasoningEffort.Type

export const Usage = Schema.Struct({
  inputTokens: Schema.Number,
  outputTokens: Schema.Number,
  totalTokens: Schema.Number
})
export type Usage = typeof Usage.Type

/** The sum of two calls' usage; null (a provider that reports none) adds nothing. */
export const addUsage = (a: Usage | null, b: Usage | null): Usage | null =>
  a === null ? b : b === null ? a : {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens
  }

export const ProviderInfo = Schema.Struct({
  provider: Schema.String,
  model: Schema.String,
  modelTier: ModelTier,
  reasoningEffort: ReasoningEffort
})
export type ProviderInfo = typeof ProviderInfo.Type

/** What a run's result says of the provider that answered and how long it took (tier and effort as plain strings). */
export const ResultMetadata = Schema.Struct({
  provider: Schema.String,
  model: Schema.String,
  modelTier: Schema.String,
  reasoningEffort: Schema.String,
  durationMs: Schema.Number
})
