/**
 * What a conversion reads and costs: which input files are converted (artifact) or only read
 * (context), what the start knows of them, and the estimate. Pure.
 */
import { type Estimate, estimateWork } from "../credits/Estimate.js"
import { isInstructionFile } from "../markdown/Document.js"
import type { ModelTier, ReasoningEffort } from "../ai/Usage.js"
import { lineCount } from "../rubr_flow/Validator.js"
import type { InputFile, ResolvedTarget } from "../targets/Targets.js"
import type { SourceFile, SourceMapping } from "./Api.js"

/** Prompt, the format's description and instructions. */
export const CONVERSION_PROMPT_TOKENS = 1_200
/** The YAML is about 1.5× the prose it comes from, plus the report notes. */
export const CONVERSION_OUTPUT_FACTOR = 1.5
export const CONVERSION_OUTPUT_OVERHEAD_TOKENS = 600
export const CONVERSION_REASONING_EFFORT: ReasoningEffort = "low"

export interface ConversionEstimateInput {
  readonly files: ReadonlyArray<{ readonly path: string; readonly content: string; readonly role: "artifact" | "context" }>
  readonly modelTier: ModelTier
  readonly mode: "dynamic" | "flat" | "free"
  readonly flatCredits: number
}

export const estimateConversion = (input: ConversionEstimateInput): Estimate =>
  estimateWork({
    files: input.files,
    inputOverheadTokens: CONVERSION_PROMPT_TOKENS,
    outputTokens: (artifact) => Math.ceil(artifact * CONVERSION_OUTPUT_FACTOR) + CONVERSION_OUTPUT_OVERHEAD_TOKENS,
    modelTier: input.modelTier,
    reasoningEffort: CONVERSION_REASONING_EFFORT,
    mode: input.mode,
    flatCredits: input.flatCredits,
    rubricCount: 0
  })

/**
 * Which input files are converted: file mode, the target; bundle mode, every instruction file
 * (markdown and text; code, data and licences stay context), or every file when there is none.
 */
export const roleOf = (resolved: { readonly mode: "file" | "bundle"; readonly files: ReadonlyArray<{ readonly path: string }> }) => {
  const anyInstruction = resolved.files.some((f) => isInstructionFile(f.path))
  return (file: { readonly path: string; readonly fileVersionId: string }, targetVersionId: string | null): "artifact" | "context" =>
    resolved.mode === "file"
      ? (file.fileVersionId === targetVersionId ? "artifact" : "context")
      : (!anyInstruction || isInstructionFile(file.path) ? "artifact" : "context")
}

/** What the start knows of the sources before any analysis. */
export const admittedSources = (resolved: ResolvedTarget) => {
  const role = roleOf(resolved)
  const targetVersionId = resolved.target?.fileVersionId ?? null
  const files: Array<typeof SourceFile.Type & { readonly file: InputFile }> = resolved.files.map((f) => ({
    path: f.path,
    fileVersionId: f.fileVersionId,
    contentHash: f.contentHash,
    lines: lineCount(f.content),
    role: role(f, targetVersionId),
    file: f
  }))
  const artifacts = files.filter((f) => f.role === "artifact")
  const sourceMapping: typeof SourceMapping.Type = {
    sources: artifacts.map(({ file: _file, ...rest }) => rest),
    totalLines: null,
    mappedLines: null,
    coverage: null,
    unmappedRanges: []
  }
  const sourceSummary = {
    mode: resolved.mode,
    files: files.map(({ file, ...rest }) => ({ ...rest, bytes: Buffer.byteLength(file.content, "utf8") }))
  }
  return { files, sourceMapping, sourceSummary }
}
