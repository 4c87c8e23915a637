/**
 * The AI provider behind audits. Two live layers share this tag: the deterministic mock
 * (SERVICE_AI_ENABLED=false, src/review/mock/) and the OpenAI-compatible provider (src/review/openai/).
 */
import { Context } from "effect"
import type { AiProviderError } from "../ai/ProviderError.js"
import type { ReviewInput, ReviewResult } from "./Types.js"

export class AiReviewer extends Context.Tag("rubr/AiReviewer")<AiReviewer, {
  readonly review: (input: ReviewInput) => import("effect").Effect.Effect<ReviewResult, AiProviderError>
}>() {}
