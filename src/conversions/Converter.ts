/**
 * The AI side of a rubr_flow conversion. Two live layers share this tag, as for the reviewer: the
 * deterministic mock (SERVICE_AI_ENABLED=false, ./mock/) and the OpenAI-compatible converter
 * (./openai/). The pipeline (./Task.ts) owns the phases, rendering, validation and saving; a converter
 * only drafts the flow and, when the validator found problems, repairs it once.
 */
import { Context, type Effect } from "effect"
import type { AiProviderError } from "../ai/ProviderError.js"
import type { ValidationIssue } from "../rubr_flow/Validator.js"
import type { BlockPlan, SourceAnalysis } from "./Analysis.js"
import type { ConversionDraft, ConversionInput, RepairedDraft } from "./Types.js"

export interface ConverterShape {
  /** The generation phase: a draft flow from the analysed sources and the block plan. */
  readonly generate: (
    input: ConversionInput,
    analysis: SourceAnalysis,
    plan: BlockPlan
  ) => Effect.Effect<ConversionDraft, AiProviderError>
  /** The repair phase (at most once): a new draft that addresses `issues` of the rendered `draft`. */
  readonly repair: (
    input: ConversionInput,
    analysis: SourceAnalysis,
    draft: ConversionDraft,
    issues: ReadonlyArray<ValidationIssue>
  ) => Effect.Effect<RepairedDraft, AiProviderError>
}

export class RubrFlowConverter extends Context.Tag("rubr/RubrFlowConverter")<RubrFlowConverter, ConverterShape>() {}
