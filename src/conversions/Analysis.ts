/**
 * The analysis and mapping phases of a rubr_flow conversion, shared by the mock converter, the AI
 * converter (as hints) and the pipeline (the report). Pure and deterministic: no clock, no I/O, and
 * every result is plain JSON (no Maps, no `undefined`).
 *
 * - `analyzeSources`: what each artifact source says, with 1-based line ranges: identity (frontmatter,
 *   H1, opening), outline, procedures (numbered lists, "Step N" / "1)" / "1.1" headings, workflow
 *   bullets, step-like sections, imperative sentences of a plain prompt), rules, inputs, examples,
 *   failure handling, outputs, bundle references.
 * - `planBlocks`: which source ranges become which rubr_flow blocks, in order, with proposed ids.
 * - `blockMappingOf`: the `from` fields of any (possibly malformed) document, for the report.
 * - `assessFlow`: the report notes every converter gets (missing requirements, remaining risks).
 *
 * This module only re-exports the public API; the code lives in `./analysis/`, one module per
 * concern: Text.ts and Vocabulary.ts (text helpers, section roles, rule and failure words), Scan.ts
 * (the per-file scan), Failures.ts, Rules.ts, Steps.ts, Procedures.ts, Inputs.ts, Outputs.ts,
 * Examples.ts and Yaml.ts (the finders), Files.ts (one file), Sources.ts (`analyzeSources`), Plan.ts
 * (`planBlocks`), Mapping.ts (`blockMappingOf`, coverage) and Assess.ts (`assessFlow`); Model.ts
 * holds the analysis types.
 */
export { assessFlow } from "./analysis/Assess.js"
export { blockMappingOf, coverageOf } from "./analysis/Mapping.js"
export type {
  AnalyzedExample,
  AnalyzedFailure,
  AnalyzedInput,
  AnalyzedOutput,
  AnalyzedProcedure,
  AnalyzedRule,
  AnalyzedStep,
  FileAnalysis,
  OutlineSection,
  SourceReferenceInfo,
  StepOrigin
} from "./analysis/Model.js"
export type {
  BlockPlan,
  PlannedBlock,
  PlannedEval,
  PlannedFailure,
  PlannedGuardrail,
  PlannedIdentity,
  PlannedInput,
  PlannedOutput,
  PlannedStep
} from "./analysis/Plan.js"
export type { UnmappedRange } from "./analysis/Model.js"
export { planBlocks } from "./analysis/Plan.js"
export type { SourceAnalysis, SourceSummary, SourceSummaryFile } from "./analysis/Sources.js"
export { analyzeSources } from "./analysis/Sources.js"
export { cleanInline, idFrom, splitSentences } from "./analysis/Text.js"
