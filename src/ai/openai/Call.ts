/**
 * One call to the OpenAI-compatible model, shared by every AI feature (reviews, conversions): the
 * model per tier, `reasoning_effort` only where the model accepts it, the response format, the
 * timeout, safe provider errors, and the usage the provider reported.
 */
import * as LanguageModel from "@effect/ai/LanguageModel"
import * as OpenAiClient from "@effect/ai-openai/OpenAiClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import { Cause, Duration, Effect, Layer, Redacted } from "effect"
import { AppConfig } from "../../config/AppConfig.js"
import type { AiProviderError } from "../ProviderError.js"
import type { ModelTier, ProviderInfo, ReasoningEffort, Usage } from "../Usage.js"
import * as ChatCompletions from "./ChatCompletions.js"
import { isReasoningModel, type OpenAiSettings, PROVIDER_NAME, toProviderError } from "./Provider.js"

export type ChatMessage = { readonly role: "system" | "user" | "assistant"; readonly content: string }

export interface CallOptions {
  readonly modelTier: ModelTier
  readonly reasoningEffort: ReasoningEffort
  readonly messages: ReadonlyArray<ChatMessage>
  /**
   * a JSON Schema for `response_format: json_schema` (SERVICE_AI_RESPONSE_FORMAT decides what is sent);
   * none: a free-text answer
   */
  readonly jsonSchema?: { readonly name: string; readonly schema: unknown } | undefined
  /** true when an earlier call of the same run already spent tokens */
  readonly workDone: boolean
}

export interface CallResult {
  readonly text: string
  readonly finishReason: string
  /** this call's usage; null when the provider reported none */
  readonly usage: Usage | null
  /** whether this call (or an earlier one) spent tokens */
  readonly workDone: boolean
  readonly provider: ProviderInfo
}

const responseFormatFor = (
  format: OpenAiSettings["responseFormat"],
  jsonSchema: CallOptions["jsonSchema"]
): ChatCompletionsConfigShape["response_format"] => {
  if (jsonSchema === undefined) return undefined
  switch (format) {
    case "json_schema":
      return { type: "json_schema", json_schema: { name: jsonSchema.name, strict: true, schema: jsonSchema.schema } }
    case "json_object":
      return { type: "json_object" }
    case "none":
      return undefined
  }
}
type ChatCompletionsConfigShape = ChatCompletions.ChatCompletionsConfigShape

export const providerInfo = (settings: OpenAiSettings, modelTier: ModelTier, reasoningEffort: ReasoningEffort): ProviderInfo => ({
  provider: PROVIDER_NAME,
  model: settings.models[modelTier],
  modelTier,
  reasoningEffort
})

export const callModel = (
  model: LanguageModel.Service,
  settings: OpenAiSettings,
  options: CallOptions
): Effect.Effect<CallResult, AiProviderError> =>
  Effect.gen(function*() {
    const provider = providerInfo(settings, options.modelTier, options.reasoningEffort)
    const sendEffort = settings.reasoningEffortParam === "always" ||
      (settings.reasoningEffortParam === "auto" && isReasoningModel(provider.model))
    const requestConfig: ChatCompletionsConfigShape = {
      model: provider.model,
      reasoning_effort: sendEffort ? options.reasoningEffort : undefined,
      response_format: responseFormatFor(settings.responseFormat, options.jsonSchema)
    }
    const response = yield* model.generateText({ prompt: options.messages.map((m) => ({ ...m })) }).pipe(
      ChatCompletions.withConfigOverride(requestConfig),
      Effect.timeoutFail({ duration: Duration.millis(settings.timeoutMs), onTimeout: () => new Cause.TimeoutException() }),
      Effect.mapError((error) => toProviderError(error, settings.timeoutMs, options.workDone))
    )
    const u = response.usage
    const reported = u.inputTokens !== undefined || u.outputTokens !== undefined || u.totalTokens !== undefined
    const usage: Usage | null = reported
      ? {
        inputTokens: u.inputTokens ?? 0,
        outputTokens: u.outputTokens ?? 0,
        totalTokens: u.totalTokens ?? (u.inputTokens ?? 0) + (u.outputTokens ?? 0)
      }
      : null
    return {
      text: response.text,
      finishReason: response.finishReason,
      usage,
      // a completed generation spent tokens, reported or not
      workDone: options.workDone || (usage?.totalTokens ?? 0) > 0 || response.text.length > 0,
      provider
    }
  })

/** Models sometimes wrap JSON in a code fence even when told not to. */
export const unfence = (text: string): string => {
  const m = text.trim().match(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/)
  return m ? m[1]! : text.trim()
}

/** The problem to tell the model when its answer was cut off or filtered, else `problem`. */
export const answerProblem = (finishReason: string, problem: string) =>
  finishReason === "length"
    ? "it was cut off (output token limit) before the JSON object was complete; be more concise"
    : finishReason === "content-filter"
    ? "it was refused or filtered"
    : problem

/**
 * The LanguageModel of SERVICE_AI_*: chat completions at SERVICE_AI_BASE_URL with SERVICE_AI_API_KEY
 * (the model is chosen per call, by tier), over the given HttpClient.
 */
export const LanguageModelLive: Layer.Layer<LanguageModel.LanguageModel, never, AppConfig | HttpClient.HttpClient> = Layer
  .unwrapEffect(
    Effect.map(AppConfig, (config) => {
      const apiKey = Redacted.value(config.ai.apiKey) === "" ? undefined : config.ai.apiKey
      const client = OpenAiClient.layer({ apiKey, apiUrl: config.ai.baseUrl.replace(/\/+$/, "") })
      return ChatCompletions.layer({ model: config.ai.model }).pipe(Layer.provide(client))
    })
  )
