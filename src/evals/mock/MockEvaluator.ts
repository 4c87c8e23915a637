/**
 * The deterministic mock evaluator (SERVICE_AI_ENABLED=false): each side of a case judged by what
 * the version instructs for it (./Judge.ts documents the scoring). No model call, no clock, no
 * randomness: the same input gives byte-identical output.
 */
import { Effect, Layer } from "effect"
import { AiProviderError } from "../../ai/ProviderError.js"
import { Evaluator } from "../Evaluator.js"
import { type CaseInput, type CaseResult, verdictOf } from "../Types.js"
import { judgeSide } from "./Judge.js"

export { judgeSide, PASS_SCORE } from "./Judge.js"
export { type CaseKind, classifyCase } from "./Cases.js"

export const MOCK_EVALUATOR_PROVIDER = "mock"
export const MOCK_EVALUATOR_MODEL = "rubr-mock-evaluator-1"
export const MOCK_EVALUATOR_VERSION = "rubr-mock-evaluator/1.0.0"

export const MOCK_EVALUATOR_LIMITATIONS: ReadonlyArray<string> = [
  "No model is run: each side is judged by what its text instructs for the case, not by what a model would answer.",
  "Instructions are matched by the key words of the case (lightly stemmed) and where they stand (a step, a rule, a condition); a paraphrase in other words scores lower, and a negated instruction can still match.",
  "Referenced files are checked for existence in the bundle, never read: what they say does not count.",
  "Scores compare versions of the same artifact on the same cases; they are not calibrated across artifacts or against a real evaluator."
]

/** Both sides of one case, judged independently; the verdict follows `verdictOf`. */
export const evaluateMock = (input: CaseInput): CaseResult => {
  const source = judgeSide(input.source, input.case, input.bundlePaths)
  const candidate = judgeSide(input.candidate, input.case, input.bundlePaths)
  return {
    source,
    candidate,
    scoreDelta: candidate.score - source.score,
    verdict: verdictOf(source, candidate),
    calls: [],
    provider: {
      provider: MOCK_EVALUATOR_PROVIDER,
      model: MOCK_EVALUATOR_MODEL,
      modelTier: input.modelTier,
      reasoningEffort: input.reasoningEffort
    }
  }
}

export const MockEvaluatorLive = Layer.succeed(
  Evaluator,
  Evaluator.of({
    version: MOCK_EVALUATOR_VERSION,
    limitations: MOCK_EVALUATOR_LIMITATIONS,
    evaluateCase: (input) =>
      Effect.try({
        try: () => evaluateMock(input),
        catch: () =>
          new AiProviderError({ code: "provider_error", message: "The mock evaluator could not judge this case", workDone: false })
      }).pipe(Effect.withSpan("MockEvaluator.evaluateCase", { attributes: { caseId: input.case.id, caseType: input.case.type } }))
  })
)
