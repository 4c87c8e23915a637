/** Wire schemas shared by every kind of credit-spending work: the estimate and the credit cost. */
import { Schema } from "effect"
import { ModelTier, ReasoningEffort, Usage } from "../ai/Usage.js"

export const WorkEstimate = Schema.Struct({
  mode: Schema.Literal("dynamic", "flat", "free"),
  estimatedCredits: Schema.Number,
  dynamicEstimatedCredits: Schema.Number,
  estimatedInputTokens: Schema.Number,
  estimatedOutputTokens: Schema.Number,
  estimatedTotalTokens: Schema.Number,
  weightedTokens: Schema.Number,
  fileCount: Schema.Number,
  totalCharacters: Schema.Number,
  rubricCount: Schema.Int,
  modelTier: ModelTier,
  reasoningEffort: ReasoningEffort,
  multipliers: Schema.Struct({
    modelTier: Schema.Number,
    reasoningEffort: Schema.Number,
    outputTokenWeight: Schema.Number,
    weightedTokensPerCredit: Schema.Number
  }),
  breakdown: Schema.Array(Schema.Struct({
    path: Schema.String,
    characters: Schema.Number,
    tokens: Schema.Number,
    role: Schema.Literal("artifact", "context")
  }))
}).annotations({
  identifier: "Estimate",
  description: "Approximate tokens times product multipliers (docs/audits.md, 'Credits'); not provider pricing."
})

export const CreditCost = Schema.Struct({
  credits: Schema.Number,
  reason: Schema.String,
  estimate: Schema.Boolean,
  mode: Schema.String,
  finalChargedCredits: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "CreditCost" })

/** Provider usage reconciliation of a finished run (src/credits/Reconcile.ts). */
export const Reconciliation = Schema.Struct({
  status: Schema.Literal("not_applicable", "matched", "refunded", "overage_recorded"),
  estimatedCredits: Schema.Number,
  actualCredits: Schema.NullOr(Schema.Number),
  refundedCredits: Schema.Number,
  overageCredits: Schema.Number,
  note: Schema.String
}).annotations({ identifier: "Reconciliation" })

/** What a run was estimated and, once it ended, charged (null until then). */
export const chargeFields = {
  estimatedCredits: Schema.Number,
  finalChargedCredits: Schema.NullOr(Schema.Number)
}

/** A run's provider usage and its reconciliation, as stored and as its detail answers them (null until known). */
export const usageFields = {
  usage: Schema.NullOr(Usage),
  reconciliation: Schema.NullOr(Reconciliation)
}
