/**
 * The real AI reviewer (SERVICE_AI_ENABLED=true): `AiReviewer` over an OpenAI-compatible
 * `/chat/completions` endpoint, through `@effect/ai`'s LanguageModel (ChatCompletions.ts) and
 * `@effect/ai-openai`'s OpenAiClient. See docs/ai-provider.md.
 */
import * as LanguageModel from "@effect/ai/LanguageModel"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import { Effect, Either, Layer } from "effect"
import { AppConfig } from "../../config/AppConfig.js"
import { AiReviewer } from "../AiReviewer.js"
import { AiProviderError } from "../../ai/ProviderError.js"
import { addUsage, type Usage } from "../../ai/Usage.js"
import { type ReviewInput, type ReviewResult } from "../Types.js"
import { answerProblem, callModel, type CallResult, type ChatMessage, LanguageModelLive, providerInfo } from "../../ai/openai/Call.js"
import { fail, PROVIDER_NAME, settingsFromConfig, type OpenAiSettings } from "../../ai/openai/Provider.js"
export { isReasoningModel, PROVIDER_NAME, settingsFromConfig, toProviderError } from "../../ai/openai/Provider.js"
export type { OpenAiSettings } from "../../ai/openai/Provider.js"
import { providerReviewJsonSchema, RESPONSE_SCHEMA_NAME, retryPrompt, SYSTEM_PROMPT, userPrompt } from "./Prompt.js"
import { toReviewResult } from "./Result.js"

/** The AiReviewer service over a LanguageModel speaking chat completions. */
export const make = (settings: OpenAiSettings) =>
  Effect.gen(function*() {
    const model = yield* LanguageModel.LanguageModel

    const review = (input: ReviewInput): Effect.Effect<ReviewResult, AiProviderError> =>
      Effect.gen(function*() {
        const provider = providerInfo(settings, input.modelTier, input.reasoningEffort)
        yield* Effect.annotateCurrentSpan({
          "rubr.ai.provider": PROVIDER_NAME,
          "rubr.ai.model": provider.model,
          "rubr.ai.model_tier": input.modelTier,
          "rubr.ai.reasoning_effort": input.reasoningEffort
        })

        const messages: Array<ChatMessage> = [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content: userPrompt(input, { budgetChars: settings.contextBudgetChars }) }
        ]
        let usage: Usage | null = null
        let workDone = false

        for (let attempt = 0; ; attempt++) {
          const response: CallResult = yield* callModel(model, settings, {
            modelTier: input.modelTier,
            reasoningEffort: input.reasoningEffort,
            messages,
            jsonSchema: { name: RESPONSE_SCHEMA_NAME, schema: providerReviewJsonSchema },
            workDone
          })
          usage = addUsage(usage, response.usage)
          workDone = response.workDone

          const result = toReviewResult(input, response.text, { usage, provider })
          if (Either.isRight(result)) {
            yield* Effect.annotateCurrentSpan({
              "rubr.ai.usage.input_tokens": usage?.inputTokens ?? -1,
              "rubr.ai.usage.output_tokens": usage?.outputTokens ?? -1,
              "rubr.ai.attempts": attempt + 1
            })
            return result.right
          }
          const problem = answerProblem(response.finishReason, result.left.problem)
          yield* Effect.logWarning("AI review answer rejected").pipe(
            Effect.annotateLogs({ attempt: attempt + 1, problem: problem.slice(0, 500), model: provider.model })
          )
          if (attempt >= settings.invalidOutputRetries) {
            return yield* Effect.fail(fail(
              "provider_invalid_output",
              "The AI provider's answer was not a valid review, even after a retry.",
              workDone
            ))
          }
          messages.push(
            { role: "assistant", content: response.text.slice(0, 20_000) },
            { role: "user", content: retryPrompt(problem.slice(0, 2_000)) }
          )
        }
      }).pipe(Effect.withSpan("OpenAiReviewer.review", {
        attributes: { mode: input.mode, rubricKey: input.rubric.key, modelTier: input.modelTier }
      }))

    return AiReviewer.of({ review })
  })

/** The reviewer over a given HttpClient (tests and callers that bring their own). */
export const layerWithoutHttpClient: Layer.Layer<AiReviewer, never, AppConfig | HttpClient.HttpClient> = Layer
  .unwrapEffect(
    Effect.map(AppConfig, (config) => Layer.effect(AiReviewer, make(settingsFromConfig(config))))
  ).pipe(Layer.provide(LanguageModelLive))

/** The live reviewer: AppConfig's SERVICE_AI_* settings, fetch as the HTTP client. */
export const OpenAiReviewerLive: Layer.Layer<AiReviewer, never, AppConfig> = layerWithoutHttpClient.pipe(
  Layer.provide(FetchHttpClient.layer)
)
