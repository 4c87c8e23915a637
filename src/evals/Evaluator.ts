/**
 * The AI side of an eval. Two live layers share this tag, as for the reviewer and the converter: the
 * deterministic mock (SERVICE_AI_ENABLED=false, ./mock/) and the OpenAI-compatible evaluator
 * (./openai/). The pipeline (./Task.ts) owns the cases, progress, evidence and credits; an evaluator
 * judges one case at a time, so a failure keeps the cases already judged.
 */
import { Context, type Effect } from "effect"
import type { AiProviderError } from "../ai/ProviderError.js"
import type { CaseInput, CaseResult } from "./Types.js"

export interface EvaluatorShape {
  /** The evaluator's own version, recorded on every run (`evaluatorVersion`). */
  readonly version: string
  /** What this evaluator cannot show, recorded on every run and proof report. */
  readonly limitations: ReadonlyArray<string>
  readonly evaluateCase: (input: CaseInput) => Effect.Effect<CaseResult, AiProviderError>
}

export class Evaluator extends Context.Tag("rubr/Evaluator")<Evaluator, EvaluatorShape>() {}
