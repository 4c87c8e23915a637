/**
 * The OpenAI-compatible provider's settings (from SERVICE_AI_*) and its safe errors, shared by every
 * AI feature (docs/ai-provider.md).
 */
import type * as AiError from "@effect/ai/AiError"
import { Cause, Option } from "effect"
import type { AppConfigShape } from "../../config/AppConfig.js"
import { AiProviderError } from "../ProviderError.js"
import type { ModelTier } from "../Usage.js"

export const PROVIDER_NAME = "openai-compatible"

export interface OpenAiSettings {
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

export const settingsFromConfig = (config: AppConfigShape): OpenAiSettings => {
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

export const fail = (code: AiProviderError["code"], message: string, workDone: boolean) =>
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

