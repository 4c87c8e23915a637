/**
 * What an eval compares and what it finds, shared by the pipeline (./Task.ts), the mock evaluator
 * (./mock/) and the real one (./openai/). No services, no I/O.
 *
 * An eval runs the same test cases against two immutable file versions, the source and the candidate,
 * and judges each side against the case's `passCriteria`.
 */
import type { ModelTier, ProviderInfo, ReasoningEffort, Usage } from "../ai/Usage.js"
import type { EvalCase } from "../domain/EvalCase.js"

/** One side of the comparison: an immutable file version. */
export interface EvalSide {
  readonly fileId: string
  readonly path: string
  readonly fileVersionId: string
  readonly versionNumber: number
  /** `sha256:<hex>` of the exact bytes */
  readonly contentHash: string
  readonly content: string
  /** skill, agent, prompt, command, workflow, rubr_flow */
  readonly artifactType: string
}

export interface CaseInput {
  readonly source: EvalSide
  readonly candidate: EvalSide
  readonly case: EvalCase
  /** every path of the bundle at the time (references may point at them) */
  readonly bundlePaths: ReadonlyArray<string>
  readonly modelTier: ModelTier
  readonly reasoningEffort: ReasoningEffort
}

/** How one side behaved on one case, judged against the case's pass criteria. */
export interface SideResult {
  /** what the version did (real: the model's answer, summarised) or instructs (mock) for this case */
  readonly observedBehavior: string
  readonly passed: boolean
  /** 0..100: how well the behaviour meets the expected behaviour and pass criteria */
  readonly score: number
  /** short quotes or facts the verdict rests on (mock: `line N: "…"` of the version) */
  readonly evidence: ReadonlyArray<string>
}

/** One provider call of an eval (none for the mock). */
export interface CallRecord {
  readonly purpose: "run_source" | "run_candidate" | "judge_source_first" | "judge_candidate_first"
  readonly provider: string
  readonly model: string
  readonly modelTier: ModelTier
  readonly reasoningEffort: ReasoningEffort
  readonly usage: Usage | null
  readonly durationMs: number
}

export interface CaseResult {
  readonly source: SideResult
  readonly candidate: SideResult
  /** candidate.score - source.score */
  readonly scoreDelta: number
  /** improved / regressed when the pass verdict or the score (by at least 1 point) differs */
  readonly verdict: "improved" | "regressed" | "unchanged"
  readonly calls: ReadonlyArray<CallRecord>
  readonly provider: ProviderInfo
}

/** The verdict of a case from its two sides (one rule for every evaluator). */
export const verdictOf = (source: SideResult, candidate: SideResult): CaseResult["verdict"] =>
  candidate.passed && !source.passed
    ? "improved"
    : source.passed && !candidate.passed
    ? "regressed"
    : candidate.score - source.score >= 1
    ? "improved"
    : source.score - candidate.score >= 1
    ? "regressed"
    : "unchanged"
