/**
 * What goes into a rubr_flow conversion and what comes out of each phase. Shared by the pipeline
 * (src/conversions/Task.ts), the pure analysis (Analysis.ts), the mock converter (mock/) and the real
 * converter (openai/). No services, no I/O.
 */
import type { ModelTier, ProviderInfo, ReasoningEffort, Usage } from "../ai/Usage.js"
import type { EvalCase } from "../domain/EvalCase.js"

/** One input file version of a conversion. */
export interface ConversionSource {
  readonly path: string
  readonly content: string
  readonly fileVersionId: string
  /** `sha256:<hex>` of the exact bytes */
  readonly contentHash: string
  /** skill, agent, prompt, command, workflow (rubr_flow files are never sources) */
  readonly artifactType: string
  /** artifact: converted; context: read for references only (file mode's other files) */
  readonly role: "artifact" | "context"
}

export interface ConversionInput {
  /** file: one artifact (role artifact) with context; bundle: every artifact source is converted into one flow */
  readonly mode: "file" | "bundle"
  readonly sources: ReadonlyArray<ConversionSource>
  /** the bundle's name: the flow's name when the source has none */
  readonly bundleName: string
  readonly modelTier: ModelTier
  readonly reasoningEffort: ReasoningEffort
}

/** Kinds of block a source range can map to. */
export type BlockKind = "identity" | "input" | "step" | "output" | "guardrail" | "failure_handling" | "eval"

/** One source range → one block of the flow (`block` is the document path, e.g. `steps.2`). */
export interface BlockMappingEntry {
  readonly block: string
  readonly kind: BlockKind
  /** the block's id when it has one */
  readonly id: string | null
  readonly path: string
  readonly lineStart: number
  readonly lineEnd: number
}

/** Something a good procedure has that the source did not say (the flow carries a default or nothing). */
export interface MissingRequirement {
  readonly code: string
  readonly message: string
  /** the document path of the block that stands in for it, when there is one */
  readonly block: string | null
}

/** What a reader of the flow should still check by hand. */
export interface RemainingRisk {
  readonly code: string
  readonly message: string
  readonly block: string | null
}

/** The output of the generation (or repair) phase, before it is rendered and validated. */
export interface ConversionDraft {
  /**
   * The flow as a plain object in the file's shape (RubrFlowEncoded when well formed). Kept as
   * `unknown`-ish so a malformed model answer still renders and the validator reports its problems.
   */
  readonly document: Record<string, unknown>
  readonly missingRequirements: ReadonlyArray<MissingRequirement>
  readonly remainingRisks: ReadonlyArray<RemainingRisk>
  readonly suggestedEvals: ReadonlyArray<EvalCase>
  /** provider usage of this call (null for the mock) */
  readonly usage: Usage | null
  readonly provider: ProviderInfo
  /** an AI converter's conversation so far, which its repair continues; never stored or shown */
  readonly transcript?: ReadonlyArray<{ readonly role: "system" | "user" | "assistant"; readonly content: string }>
}

/** A repaired draft and one line per change the repair made. */
export interface RepairedDraft extends ConversionDraft {
  readonly changes: ReadonlyArray<string>
}
