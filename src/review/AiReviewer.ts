/**
 * The AI provider behind audits. Two live layers share this tag: the deterministic mock
 * (SERVICE_AI_ENABLED=false, src/review/mock/) and the OpenAI-compatible provider (src/review/openai/).
 */
import { Context, Schema } from "effect"
import type { ReviewInput, ReviewResult } from "./Types.js"

/** A provider failure, safe to show: never the raw provider response. */
export class AiProviderError extends Schema.TaggedError<AiProviderError>()("AiProviderError", {
  code: Schema.Literal("provider_error", "provider_timeout", "provider_invalid_output", "provider_unavailable"),
  message: Schema.String,
  /** true when the provider did work (tokens were spent) before failing. */
  workDone: Schema.Boolean
}) {}

export class AiReviewer extends Context.Tag("rubr/AiReviewer")<AiReviewer, {
  readonly review: (input: ReviewInput) => import("effect").Effect.Effect<ReviewResult, AiProviderError>
}>() {}
