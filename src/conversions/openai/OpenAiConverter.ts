/**
 * The real converter (SERVICE_AI_ENABLED=true): `RubrFlowConverter` over the OpenAI-compatible
 * provider layer (src/review/openai/Call.ts). The model answers structured JSON (the flow plus report
 * notes); whatever it answers is handed on as the draft document, so the pipeline's validator reports
 * exactly what is wrong with it. The repair sends those issues back with the previous answer.
 */
import * as LanguageModel from "@effect/ai/LanguageModel"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import { Effect, Layer } from "effect"
import { AppConfig } from "../../config/AppConfig.js"
import { callModel, type ChatMessage, LanguageModelLive, unfence } from "../../ai/openai/Call.js"
import { type OpenAiSettings, settingsFromConfig } from "../../ai/openai/Provider.js"
import type { EvalCase } from "../../domain/EvalCase.js"
import { lineCount } from "../../rubr_flow/Validator.js"
import { RubrFlowConverter } from "../Converter.js"
import type { ConversionDraft, MissingRequirement, RemainingRisk } from "../Types.js"
import { providerConversionJsonSchema, repairPrompt, RESPONSE_SCHEMA_NAME, SYSTEM_PROMPT, userPrompt } from "./Prompt.js"

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** Strict structured output sends absent optional members as null: drop them (no flow field is ever null). */
export const dropNulls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(dropNulls)
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v)
  return out
}

const notes = (value: unknown): Array<{ code: string; message: string; block: string | null }> =>
  Array.isArray(value)
    ? value.flatMap((n) =>
      isObject(n) && typeof n.message === "string"
        ? [{
          code: typeof n.code === "string" && n.code !== "" ? n.code.slice(0, 80) : "model_note",
          message: n.message.slice(0, 2_000),
          block: typeof n.block === "string" ? n.block : null
        }]
        : []
    )
    : []

const evals = (value: unknown): Array<EvalCase> =>
  Array.isArray(value)
    ? value.flatMap((e, i) =>
      isObject(e) && typeof e.input === "string" && typeof e.name === "string"
        ? [{
          id: `eval-${i + 1}`,
          name: e.name,
          type: e.type === "scenario" ? "scenario" as const : "standard" as const,
          input: e.input,
          expectedBehavior: typeof e.expectedBehavior === "string" ? e.expectedBehavior : "",
          passCriteria: typeof e.passCriteria === "string" ? e.passCriteria : ""
        }]
        : []
    )
    : []

/** The model's text → a draft. Never fails: an unreadable answer becomes an empty document and a risk. */
export const parseAnswer = (text: string) => {
  let parsed: unknown
  try {
    parsed = JSON.parse(unfence(text))
  } catch {
    parsed = undefined
  }
  if (!isObject(parsed)) {
    const risk: RemainingRisk = { code: "model_answer_unreadable", message: "The model's answer was not a JSON object.", block: null }
    return { document: {}, missingRequirements: [] as Array<MissingRequirement>, remainingRisks: [risk], suggestedEvals: [], changes: [] }
  }
  // a model that answers the bare flow instead of {flow, …}
  const flow = isObject(parsed.flow) ? parsed.flow : "steps" in parsed ? parsed : {}
  return {
    document: dropNulls(flow) as Record<string, unknown>,
    missingRequirements: notes(parsed.missingRequirements),
    remainingRisks: notes(parsed.remainingRisks),
    suggestedEvals: evals(parsed.suggestedEvals),
    changes: Array.isArray(parsed.changes) ? parsed.changes.filter((c): c is string => typeof c === "string").slice(0, 50) : []
  }
}

export const make = (settings: OpenAiSettings) =>
  Effect.gen(function*() {
    const model = yield* LanguageModel.LanguageModel
    const jsonSchema = { name: RESPONSE_SCHEMA_NAME, schema: providerConversionJsonSchema }

    return RubrFlowConverter.of({
      generate: (input, _analysis, plan) =>
        Effect.gen(function*() {
          const messages: Array<ChatMessage> = [
            { role: "system", content: SYSTEM_PROMPT },
            { role: "user", content: userPrompt(input, plan, { budgetChars: settings.contextBudgetChars, lineCount }) }
          ]
          const response = yield* callModel(model, settings, {
            modelTier: input.modelTier,
            reasoningEffort: input.reasoningEffort,
            messages,
            jsonSchema,
            workDone: false
          })
          const answer = parseAnswer(response.text)
          const draft: ConversionDraft = {
            document: answer.document,
            missingRequirements: answer.missingRequirements,
            remainingRisks: answer.remainingRisks,
            suggestedEvals: answer.suggestedEvals,
            usage: response.usage,
            provider: response.provider,
            transcript: [...messages, { role: "assistant", content: response.text.slice(0, 40_000) }]
          }
          return draft
        }).pipe(Effect.withSpan("OpenAiConverter.generate", { attributes: { mode: input.mode, modelTier: input.modelTier } })),

      repair: (input, _analysis, draft, issues) =>
        Effect.gen(function*() {
          const before: ReadonlyArray<ChatMessage> = draft.transcript ?? [
            { role: "system", content: SYSTEM_PROMPT },
            { role: "assistant", content: JSON.stringify({ flow: draft.document }) }
          ]
          const response = yield* callModel(model, settings, {
            modelTier: input.modelTier,
            reasoningEffort: input.reasoningEffort,
            messages: [...before, { role: "user", content: repairPrompt(issues) }],
            jsonSchema,
            workDone: true
          })
          const answer = parseAnswer(response.text)
          const errors = issues.filter((i) => i.severity === "error").length
          return {
            document: answer.document,
            missingRequirements: answer.missingRequirements,
            remainingRisks: answer.remainingRisks,
            suggestedEvals: answer.suggestedEvals.length > 0 ? answer.suggestedEvals : draft.suggestedEvals,
            usage: response.usage,
            provider: response.provider,
            changes: answer.changes.length > 0
              ? answer.changes
              : [`Sent ${issues.length} validator issue(s) (${errors} error(s)) back to the model; it answered a revised flow.`]
          }
        }).pipe(Effect.withSpan("OpenAiConverter.repair", { attributes: { issues: issues.length } }))
    })
  })

/** The converter over a given HttpClient (tests and callers that bring their own). */
export const layerWithoutHttpClient: Layer.Layer<RubrFlowConverter, never, AppConfig | HttpClient.HttpClient> = Layer
  .unwrapEffect(Effect.map(AppConfig, (config) => Layer.effect(RubrFlowConverter, make(settingsFromConfig(config)))))
  .pipe(Layer.provide(LanguageModelLive))

/** The live converter: AppConfig's SERVICE_AI_* settings, fetch as the HTTP client. */
export const OpenAiConverterLive: Layer.Layer<RubrFlowConverter, never, AppConfig> = layerWithoutHttpClient.pipe(
  Layer.provide(FetchHttpClient.layer)
)
