/**
 * A small `@effect/ai` LanguageModel provider for OpenAI-compatible `POST /chat/completions`.
 *
 * @effect/ai-openai 0.41's `OpenAiLanguageModel` speaks only the Responses API (`/responses`), which
 * most OpenAI-compatible servers (vLLM, llama.cpp, Ollama, LiteLLM, ...) do not implement. Its generated
 * `createChatCompletion` decodes with the full OpenAI schema (`refusal`, `logprobs`, a closed
 * `finish_reason` list are required), which those servers often do not satisfy. So this provider keeps
 * `OpenAiClient` for what it does well (base URL, bearer auth, JSON accept header: its configured
 * `client.httpClient`) and sends the chat-completions request itself, decoding the answer with a
 * lenient schema of just the fields it reads. The result is an ordinary `LanguageModel` (text part,
 * response metadata, finish part with usage), so callers use `LanguageModel.generateText` and get the
 * library's span with GenAI telemetry attributes.
 */
import * as AiError from "@effect/ai/AiError"
import * as LanguageModel from "@effect/ai/LanguageModel"
import * as Prompt from "@effect/ai/Prompt"
import * as Telemetry from "@effect/ai/Telemetry"
import type * as Response from "@effect/ai/Response"
import * as OpenAiClient from "@effect/ai-openai/OpenAiClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Context, Effect, Layer, Schema, Stream } from "effect"

/** Request options applied to every call; override per call with `withConfigOverride`. */
export interface ChatCompletionsConfigShape {
  readonly model?: string | undefined
  /** Sent as `reasoning_effort` when set (reasoning models only: others may answer 400). */
  readonly reasoning_effort?: "low" | "medium" | "high" | undefined
  /** Sent as `response_format` when set. */
  readonly response_format?:
    | { readonly type: "json_object" }
    | {
      readonly type: "json_schema"
      readonly json_schema: { readonly name: string; readonly strict?: boolean; readonly schema: unknown }
    }
    | undefined
  readonly temperature?: number | undefined
  readonly max_completion_tokens?: number | undefined
}

export class ChatCompletionsConfig extends Context.Tag("rubr/ChatCompletions/Config")<
  ChatCompletionsConfig,
  ChatCompletionsConfigShape
>() {}

export const withConfigOverride = (overrides: ChatCompletionsConfigShape) =>
<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(
    Effect.serviceOption(ChatCompletionsConfig),
    (config) =>
      Effect.provideService(self, ChatCompletionsConfig, {
        ...(config._tag === "Some" ? config.value : {}),
        ...overrides
      })
  )

// ---------------------------------------------------------------------------------------------------
// Wire format (only what we read; unknown fields are ignored)
// ---------------------------------------------------------------------------------------------------

export const ChatCompletionUsage = Schema.Struct({
  prompt_tokens: Schema.optionalWith(Schema.Number, { nullable: true }),
  completion_tokens: Schema.optionalWith(Schema.Number, { nullable: true }),
  total_tokens: Schema.optionalWith(Schema.Number, { nullable: true }),
  completion_tokens_details: Schema.optionalWith(
    Schema.Struct({ reasoning_tokens: Schema.optionalWith(Schema.Number, { nullable: true }) }),
    { nullable: true }
  ),
  prompt_tokens_details: Schema.optionalWith(
    Schema.Struct({ cached_tokens: Schema.optionalWith(Schema.Number, { nullable: true }) }),
    { nullable: true }
  )
})

export const ChatCompletionResponse = Schema.Struct({
  id: Schema.optionalWith(Schema.String, { nullable: true }),
  model: Schema.optionalWith(Schema.String, { nullable: true }),
  created: Schema.optionalWith(Schema.Number, { nullable: true }),
  choices: Schema.Array(Schema.Struct({
    finish_reason: Schema.optionalWith(Schema.String, { nullable: true }),
    message: Schema.Struct({
      content: Schema.optionalWith(Schema.String, { nullable: true }),
      refusal: Schema.optionalWith(Schema.String, { nullable: true })
    })
  })),
  usage: Schema.optionalWith(ChatCompletionUsage, { nullable: true })
})
export type ChatCompletionResponse = typeof ChatCompletionResponse.Type

interface ChatMessage {
  readonly role: "system" | "user" | "assistant"
  readonly content: string
}

const finishReason = (reason: string | undefined): Response.FinishReason => {
  switch (reason) {
    case "stop":
      return "stop"
    case "length":
      return "length"
    case "content_filter":
      return "content-filter"
    case "tool_calls":
    case "function_call":
      return "tool-calls"
    case undefined:
      return "unknown"
    default:
      return "other"
  }
}

const textOf = (parts: ReadonlyArray<{ readonly type: string }>): string =>
  parts.map((p) => (p.type === "text" ? (p as Prompt.TextPart).text : "")).join("")

const toMessages = (prompt: Prompt.Prompt): Effect.Effect<Array<ChatMessage>, AiError.MalformedInput> =>
  Effect.forEach(prompt.content, (message) => {
    switch (message.role) {
      case "system":
        return Effect.succeed<ChatMessage>({ role: "system", content: message.content })
      case "user":
        return Effect.succeed<ChatMessage>({ role: "user", content: textOf(message.content) })
      case "assistant":
        return Effect.succeed<ChatMessage>({ role: "assistant", content: textOf(message.content) })
      default:
        return Effect.fail(
          new AiError.MalformedInput({
            module: "ChatCompletions",
            method: "toMessages",
            description: `unsupported message role: ${message.role}`
          })
        )
    }
  })

export interface ChatCompletionsOptions {
  readonly model: string
  readonly config?: Omit<ChatCompletionsConfigShape, "model"> | undefined
}

export const make = Effect.fnUntraced(function*(options: ChatCompletionsOptions) {
  const { client } = yield* OpenAiClient.OpenAiClient
  const httpClient = client.httpClient

  const generateText = (providerOptions: LanguageModel.ProviderOptions) =>
    Effect.gen(function*() {
      const context = yield* Effect.context<never>()
      const config: ChatCompletionsConfigShape = {
        model: options.model,
        ...options.config,
        ...context.unsafeMap.get(ChatCompletionsConfig.key) as ChatCompletionsConfigShape | undefined
      }
      const messages = yield* toMessages(providerOptions.prompt)
      const body = {
        model: config.model,
        messages,
        stream: false,
        ...(config.response_format ? { response_format: config.response_format } : {}),
        ...(config.reasoning_effort ? { reasoning_effort: config.reasoning_effort } : {}),
        ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
        ...(config.max_completion_tokens !== undefined ? { max_completion_tokens: config.max_completion_tokens } : {})
      }
      Telemetry.addGenAIAnnotations(providerOptions.span, {
        system: "openai-compatible",
        operation: { name: "chat" },
        request: { model: config.model, temperature: config.temperature }
      })
      const request = HttpClientRequest.post("/chat/completions").pipe(HttpClientRequest.bodyUnsafeJson(body))
      const response = yield* httpClient.execute(request).pipe(
        Effect.flatMap(HttpClientResponse.filterStatusOk),
        Effect.flatMap(HttpClientResponse.schemaBodyJson(ChatCompletionResponse)),
        Effect.scoped,
        Effect.catchTags({
          RequestError: (error) =>
            AiError.HttpRequestError.fromRequestError({ module: "ChatCompletions", method: "generateText", error }),
          ResponseError: (error) =>
            AiError.HttpResponseError.fromResponseError({ module: "ChatCompletions", method: "generateText", error }),
          ParseError: (error) =>
            AiError.MalformedOutput.fromParseError({ module: "ChatCompletions", method: "generateText", error })
        })
      )
      const choice = response.choices[0]
      const usage = response.usage
      Telemetry.addGenAIAnnotations(providerOptions.span, {
        response: {
          id: response.id,
          model: response.model,
          finishReasons: choice?.finish_reason ? [choice.finish_reason] : undefined
        },
        usage: { inputTokens: usage?.prompt_tokens, outputTokens: usage?.completion_tokens }
      })
      const parts: Array<Response.PartEncoded> = [{
        type: "response-metadata",
        id: response.id,
        modelId: response.model,
        timestamp: response.created !== undefined ? new Date(response.created * 1000).toISOString() : undefined
      }]
      const text = choice?.message.content ?? ""
      if (text.length > 0) parts.push({ type: "text", text })
      parts.push({
        type: "finish",
        reason: choice?.message.refusal ? "content-filter" : finishReason(choice?.finish_reason),
        usage: {
          inputTokens: usage?.prompt_tokens,
          outputTokens: usage?.completion_tokens,
          totalTokens: usage?.total_tokens ??
            (usage?.prompt_tokens !== undefined || usage?.completion_tokens !== undefined
              ? (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0)
              : undefined),
          reasoningTokens: usage?.completion_tokens_details?.reasoning_tokens,
          cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens
        }
      })
      return parts
    })

  return yield* LanguageModel.make({
    generateText,
    // Streaming is not needed by rubr: a review is one structured answer.
    streamText: () =>
      Stream.fail(
        new AiError.UnknownError({
          module: "ChatCompletions",
          method: "streamText",
          description: "streaming is not supported by this provider"
        })
      )
  })
})

/** `LanguageModel` over `/chat/completions`; needs an `OpenAiClient` (OpenAiClient.layer). */
export const layer = (options: ChatCompletionsOptions): Layer.Layer<LanguageModel.LanguageModel, never, OpenAiClient.OpenAiClient> =>
  Layer.effect(LanguageModel.LanguageModel, make(options))
