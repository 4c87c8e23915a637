/**
 * The real AI reviewer (SERVICE_AI_ENABLED=true): `AiReviewer` over an OpenAI-compatible
 * `/chat/completions` endpoint, through `@effect/ai`'s LanguageModel (ChatCompletions.ts) and
 * `@effect/ai-openai`'s OpenAiClient. See docs/ai-provider.md.
 */
import { AiError, LanguageModel } from "@effect/ai"
import { OpenAiClient } from "@effect/ai-openai"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Cause, Duration, Effect, Either, Layer, Option, Redacted } from "effect"
import { AppConfig, type AppConfigShape } from "../../config/AppConfig.js"
import { AiProviderError, AiReviewer } from "../AiReviewer.js"
import type { ModelTier, ProviderInfo, ReasoningEffort, ReviewInput, ReviewResult, Usage } from "../Types.js"
import * as ChatCompletions from "./ChatCompletions.js"
import { providerReviewJsonSchema, RESPONSE_SCHEMA_NAME, retryPrompt, SYSTEM_PROMPT, userPrompt } from "./Prompt.js"
import { toReviewResult } from "./Result.js"

export const PROVIDER_NAME = "openai-compatible"

export interface OpenAiReviewerSettings {
  /** The model per tier (SERVICE_AI_MODEL_<TIER>, else SERVICE_AI_MODEL). */
  readonly models: Readonly<Record<ModelTier, string>>
  readonly timeoutMs: number
  readonly responseFormat: "json_schema" | "json_object" | "none"
  /** auto: send `reasoning_effort` only to reasoning models (o-series, gpt-5*). */
  readonly reasoningEffortParam: "auto" | "always" | "never"
  /** Characters of file text in the user prompt. */
  readonly contextBudgetChars: number
  /** Extra attempts when the answer is not valid JSON of the right shape. */
  readonly invalidOutputRetries: number
}

export const settingsFromConfig = (config: AppConfigShape): OpenAiReviewerSettings => {
  const ai = config.ai
  const pick = (o: Option.Option<string>) => Option.getOrElse(Option.filter(o, (m) => m.trim() !== ""), () => ai.model)
  return {
    models: { cheap: pick(ai.models.cheap), standard: pick(ai.models.standard), premium: pick(ai.models.premium) },
    timeoutMs: ai.timeoutMs,
    responseFormat: ai.responseFormat,
    reasoningEffortParam: ai.reasoningEffortParam,
    contextBudgetChars: 60_000,
    invalidOutputRetries: 1
  }
}

/** Reasoning models accept `reasoning_effort`; others (gpt-4o, most local models) reject it. */
export const isReasoningModel = (model: string): boolean => {
  const name = model.slice(model.lastIndexOf("/") + 1).toLowerCase()
  return /^(o\d|gpt-5)/.test(name)
}

const responseFormatFor = (format: OpenAiReviewerSettings["responseFormat"]): ChatCompletions.ChatCompletionsConfigShape["response_format"] => {
  switch (format) {
    case "json_schema":
      return { type: "json_schema", json_schema: { name: RESPONSE_SCHEMA_NAME, strict: true, schema: providerReviewJsonSchema } }
    case "json_object":
      return { type: "json_object" }
    case "none":
      return undefined
  }
}

const fail = (code: AiProviderError["code"], message: string, workDone: boolean) =>
  new AiProviderError({ code, message, workDone })

/** A safe, user-facing error for a failed call; provider bodies never reach the message. */
export const toProviderError = (error: AiError.AiError | Cause.TimeoutException, timeoutMs: number, workDone: boolean): AiProviderError => {
  if (Cause.isTimeoutException(error)) {
    return fail("provider_timeout", `The AI provider did not answer within ${timeoutMs} ms.`, workDone)
  }
  switch (error._tag) {
    case "HttpRequestError":
      return fail("provider_unavailable", "The AI provider could not be reached.", workDone)
    case "HttpResponseError": {
      const status = error.response.status
      if (error.reason !== "StatusCode") {
        return fail("provider_invalid_output", "The AI provider sent a response that could not be read.", workDone)
      }
      if (status === 429) {
        return fail("provider_unavailable", "The AI provider is rate limiting requests (HTTP 429); try again later.", workDone)
      }
      if (status === 502 || status === 503 || status === 504) {
        return fail("provider_unavailable", `The AI provider is temporarily unavailable (HTTP ${status}).`, workDone)
      }
      if (status === 401 || status === 403) {
        return fail("provider_error", `The AI provider rejected the service's credentials (HTTP ${status}).`, workDone)
      }
      return fail("provider_error", `The AI provider answered with an error (HTTP ${status}).`, workDone)
    }
    case "MalformedOutput":
      return fail("provider_invalid_output", "The AI provider sent a response that could not be read.", workDone)
    case "MalformedInput":
    case "UnknownError":
      return fail("provider_error", "The AI provider call failed.", workDone)
  }
}

const addUsage = (a: Usage | null, b: Usage | null): Usage | null =>
  a === null ? b : b === null ? a : {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens
  }

/** The AiReviewer service over a LanguageModel speaking chat completions. */
export const make = (settings: OpenAiReviewerSettings) =>
  Effect.gen(function*() {
    const model = yield* LanguageModel.LanguageModel

    const review = (input: ReviewInput): Effect.Effect<ReviewResult, AiProviderError> =>
      Effect.gen(function*() {
        const modelName = settings.models[input.modelTier]
        const provider: ProviderInfo = {
          provider: PROVIDER_NAME,
          model: modelName,
          modelTier: input.modelTier,
          reasoningEffort: input.reasoningEffort
        }
        const sendEffort = settings.reasoningEffortParam === "always" ||
          (settings.reasoningEffortParam === "auto" && isReasoningModel(modelName))
        const requestConfig: ChatCompletions.ChatCompletionsConfigShape = {
          model: modelName,
          reasoning_effort: sendEffort ? (input.reasoningEffort satisfies ReasoningEffort) : undefined,
          response_format: responseFormatFor(settings.responseFormat)
        }
        yield* Effect.annotateCurrentSpan({
          "rubr.ai.provider": PROVIDER_NAME,
          "rubr.ai.model": modelName,
          "rubr.ai.model_tier": input.modelTier,
          "rubr.ai.reasoning_effort": input.reasoningEffort
        })

        const prompt: Array<{ role: "system" | "user" | "assistant"; content: string }> = [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content: userPrompt(input, { budgetChars: settings.contextBudgetChars }) }
        ]
        let usage: Usage | null = null
        let workDone = false

        for (let attempt = 0; ; attempt++) {
          const response = yield* model.generateText({ prompt }).pipe(
            ChatCompletions.withConfigOverride(requestConfig),
            Effect.timeoutFail({
              duration: Duration.millis(settings.timeoutMs),
              onTimeout: () => new Cause.TimeoutException()
            }),
            Effect.mapError((error) => toProviderError(error, settings.timeoutMs, workDone))
          )
          const u = response.usage
          const reported = u.inputTokens !== undefined || u.outputTokens !== undefined || u.totalTokens !== undefined
          const callUsage: Usage | null = reported
            ? {
              inputTokens: u.inputTokens ?? 0,
              outputTokens: u.outputTokens ?? 0,
              totalTokens: u.totalTokens ?? (u.inputTokens ?? 0) + (u.outputTokens ?? 0)
            }
            : null
          usage = addUsage(usage, callUsage)
          // a completed generation spent tokens, reported or not
          workDone = workDone || (callUsage?.totalTokens ?? 0) > 0 || response.text.length > 0

          const result = toReviewResult(input, response.text, { usage, provider })
          if (Either.isRight(result)) {
            yield* Effect.annotateCurrentSpan({
              "rubr.ai.usage.input_tokens": usage?.inputTokens ?? -1,
              "rubr.ai.usage.output_tokens": usage?.outputTokens ?? -1,
              "rubr.ai.attempts": attempt + 1
            })
            return result.right
          }
          const problem = response.finishReason === "length"
            ? "it was cut off (output token limit) before the JSON object was complete; be more concise"
            : response.finishReason === "content-filter"
            ? "it was refused or filtered"
            : result.left.problem
          yield* Effect.logWarning("AI review answer rejected").pipe(
            Effect.annotateLogs({ attempt: attempt + 1, problem: problem.slice(0, 500), model: modelName })
          )
          if (attempt >= settings.invalidOutputRetries) {
            return yield* Effect.fail(fail(
              "provider_invalid_output",
              "The AI provider's answer was not a valid review, even after a retry.",
              workDone
            ))
          }
          prompt.push(
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
    Effect.gen(function*() {
      const config = yield* AppConfig
      const settings = settingsFromConfig(config)
      const apiKey = Redacted.value(config.ai.apiKey) === "" ? undefined : config.ai.apiKey
      const client = OpenAiClient.layer({ apiKey, apiUrl: config.ai.baseUrl.replace(/\/+$/, "") })
      const languageModel = ChatCompletions.layer({ model: config.ai.model }).pipe(Layer.provide(client))
      return Layer.effect(AiReviewer, make(settings)).pipe(Layer.provide(languageModel))
    })
  )

/** The live reviewer: AppConfig's SERVICE_AI_* settings, fetch as the HTTP client. */
export const OpenAiReviewerLive: Layer.Layer<AiReviewer, never, AppConfig> = layerWithoutHttpClient.pipe(
  Layer.provide(FetchHttpClient.layer)
)
