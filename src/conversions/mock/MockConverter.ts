/**
 * The deterministic mock converter (SERVICE_AI_ENABLED=false): the block plan rendered as a rubr_flow
 * (./Generate.ts) and a rule-based repair pass (./Repair.ts). Same input, byte-identical output: no
 * clock, no randomness, stable ordering everywhere.
 */
import { Effect, Layer } from "effect"
import { AiProviderError } from "../../ai/ProviderError.js"
import { RubrFlowConverter } from "../Converter.js"
import { generateMock } from "./Generate.js"
import { repairMock } from "./Repair.js"

export { DEFAULT_FAILURE_HANDLER, generateMock, MOCK_CONVERTER_MODEL, MOCK_CONVERTER_PROVIDER } from "./Generate.js"
export { repairMock } from "./Repair.js"

const failed = (what: string) =>
  new AiProviderError({ code: "provider_error", message: `The mock converter could not ${what} this input`, workDone: false })

export const MockConverterLive = Layer.succeed(
  RubrFlowConverter,
  RubrFlowConverter.of({
    generate: (input, analysis, plan) =>
      Effect.try({ try: () => generateMock(input, analysis, plan), catch: () => failed("convert") }).pipe(
        Effect.withSpan("MockConverter.generate", { attributes: { mode: input.mode } })
      ),
    repair: (input, analysis, draft, issues) =>
      Effect.try({ try: () => repairMock(input, analysis, draft, issues), catch: () => failed("repair") }).pipe(
        Effect.withSpan("MockConverter.repair", { attributes: { mode: input.mode, issues: issues.length } })
      )
  })
)
