/** The one error every AI provider (reviews, conversions, evals; mock or OpenAI-compatible) fails with. */
import { Schema } from "effect"

/** A provider failure, safe to show: never the raw provider response. */
export class AiProviderError extends Schema.TaggedError<AiProviderError>()("AiProviderError", {
  code: Schema.Literal("provider_error", "provider_timeout", "provider_invalid_output", "provider_unavailable"),
  message: Schema.String,
  /** true when the provider did work (tokens were spent) before failing. */
  workDone: Schema.Boolean
}) {}
