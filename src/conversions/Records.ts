/** The conversion record as stored in `rubr_flow_conversions`, its report, and their wire shapes. */
import { Schema } from "effect"
import { costAnswerOf, runCostFields } from "../credits/RunCost.js"
import { runEndAnswerOf, runEndFields, runHeadFields } from "../jobs/RunRow.js"
import { rowsOf } from "../db/Query.js"
import { FileId, VersionId } from "../domain/Ids.js"
import { ResultMetadata } from "../ai/Usage.js"
import { EvalCase } from "../domain/EvalCase.js"
import {
  BlockMappingEntry,
  ConversionAttempt,
  ConversionRepair,
  ConversionSummary,
  ConversionValidation,
  Count,
  Note,
  SourceMapping,
  SourceSummary,
  SourceTotals
} from "./Api.js"

export type SourceSummaryJson = typeof SourceSummary.Type
export type RepairJson = typeof ConversionRepair.Type
/** One text the validator checked: the first draft, then the repair's (the texts the issues' lines count in). */
export type AttemptJson = typeof ConversionAttempt.Type

/** The summary as the start stores it: the API's, with what the start knew of the sources (the analysis adds to it). */
export const StoredConversionSummary = Schema.Struct({
  ...ConversionSummary.fields,
  sourceSummary: SourceSummary,
  sourceMapping: SourceMapping
})

/** The analysis' own summary of the converted files (analysis/Sources.ts). */
export const AnalysedSourceSummary = Schema.Struct({
  mode: SourceSummary.fields.mode,
  files: Schema.Array(Schema.Struct({
    path: Schema.String,
    lines: Count,
    words: Count,
    title: Schema.NullOr(Schema.String),
    headings: Count,
    steps: Count,
    rules: Count,
    examples: Count
  })),
  totals: SourceTotals
})
export type AnalysedSourceSummary = typeof AnalysedSourceSummary.Type

/** What the worker writes as it goes (also for a failed conversion: the evidence). */
export const StoredConversionReport = Schema.Struct({
  /** reports written before the source summary was typed kept the analysis' own summary */
  sourceSummary: Schema.Union(SourceSummary, AnalysedSourceSummary),
  sourceMapping: SourceMapping,
  blockMapping: Schema.Array(BlockMappingEntry),
  missingRequirements: Schema.Array(Note),
  validation: Schema.NullOr(ConversionValidation),
  repair: Schema.NullOr(ConversionRepair),
  /** absent on reports written before issue 24 */
  attempts: Schema.optional(Schema.Array(ConversionAttempt)),
  suggestedEvals: Schema.Array(EvalCase),
  remainingRisks: Schema.Array(Note),
  metadata: Schema.NullOr(ResultMetadata)
})
export type ConversionReportJson = typeof StoredConversionReport.Type

export const ConversionRow = Schema.Struct({
  ...runHeadFields,
  targetMode: Schema.Literal("file", "bundle"),
  targetFileId: Schema.NullOr(FileId),
  sourceFileVersionId: Schema.NullOr(VersionId),
  artifactBundleVersionNumber: Schema.Number,
  inputVersionIds: Schema.Array(VersionId),
  inputHash: Schema.String,
  outputPath: Schema.String,
  outputFileId: Schema.NullOr(FileId),
  outputFileVersionId: Schema.NullOr(VersionId),
  validatorVersion: Schema.String,
  summary: StoredConversionSummary,
  report: Schema.NullOr(StoredConversionReport),
  ...runCostFields,
  ...runEndFields
})
export type ConversionRow = typeof ConversionRow.Type
export const ConversionRows = rowsOf("conversion", ConversionRow)

export const conversionColumns = `id, artifact_bundle_id, user_id, job_id, requested_by_api_key_id, status, target_mode,
  target_file_id, source_file_version_id, artifact_bundle_version_number, input_version_ids, input_hash, output_path,
  output_file_id, output_file_version_id, validator_version, summary, estimated_credits, final_charged_credits, report,
  usage, reconciliation, error_code, error_message, created_at, updated_at, completed_at`

/** What the start knew of each input file, with what the analysis found in the converted ones. */
export const withAnalysis = (admitted: SourceSummaryJson, analysed: AnalysedSourceSummary): SourceSummaryJson => {
  const byPath = new Map(analysed.files.map((f) => [f.path, f]))
  return { ...analysed, files: admitted.files.map((f) => ({ ...f, ...byPath.get(f.path) })) }
}

const isAnalysedOnly = (summary: SourceSummaryJson | AnalysedSourceSummary): summary is AnalysedSourceSummary =>
  summary.files.some((f) => !("fileVersionId" in f))

/** The source summary a run answers with: the report's once there is one, merged as the worker does now for older reports. */
const sourceSummaryOf = (row: ConversionRow): SourceSummaryJson => {
  const reported = row.report?.sourceSummary
  if (reported === undefined) return row.summary.sourceSummary
  return isAnalysedOnly(reported) ? withAnalysis(row.summary.sourceSummary, reported) : reported
}

export const toConversionJson = (row: ConversionRow) => ({
  id: row.id,
  artifactBundleId: row.artifactBundleId,
  jobId: row.jobId,
  requestedByApiKeyId: row.requestedByApiKeyId,
  status: row.status,
  targetMode: row.targetMode,
  sourceFileVersionId: row.sourceFileVersionId,
  outputPath: row.outputPath,
  outputFileId: row.outputFileId,
  outputFileVersionId: row.outputFileVersionId,
  validatorVersion: row.validatorVersion,
  formatVersion: "1.0",
  sourceSummary: sourceSummaryOf(row),
  sourceMapping: row.report?.sourceMapping ?? row.summary.sourceMapping,
  ...costAnswerOf(row),
  ...runEndAnswerOf(row)
})

export const toConversionReport = (row: ConversionRow) => ({
  ...toConversionJson(row),
  blockMapping: row.report?.blockMapping ?? [],
  missingRequirements: row.report?.missingRequirements ?? [],
  validation: row.report?.validation ?? null,
  repair: row.report?.repair ?? null,
  attempts: row.report?.attempts ?? [],
  suggestedEvals: row.report?.suggestedEvals ?? [],
  remainingRisks: row.report?.remainingRisks ?? [],
  resultMetadata: row.report?.metadata ?? null,
  usage: row.usage,
  reconciliation: row.reconciliation
})
