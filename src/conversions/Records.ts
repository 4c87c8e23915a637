/** The conversion record as stored in `rubr_flow_conversions`, its report, and their wire shapes. */
import { Schema } from "effect"
import { runCostFields } from "../credits/RunCost.js"
import { runEndFields, runHeadFields } from "../jobs/RunRow.js"
import { rowsOf, storedJson } from "../db/Query.js"
import { FileId, VersionId } from "../domain/Ids.js"
import type { CreditCostJson, Estimate } from "../credits/Estimate.js"
import type { ProviderInfo } from "../ai/Usage.js"
import type { EvalCase } from "../domain/EvalCase.js"
import type { TargetDescription } from "../targets/Targets.js"
import type { SourceSummary } from "./Api.js"
import type { BlockMappingEntry, MissingRequirement, RemainingRisk } from "./Types.js"

export type SourceSummaryJson = typeof SourceSummary.Type

export interface ConversionTargetJson extends TargetDescription {
  readonly outputPath: string
}

export interface ConversionSummaryJson {
  readonly estimate: Estimate
  readonly target: ConversionTargetJson
  readonly creditCost: CreditCostJson
}

export interface SourceFileJson {
  readonly path: string
  readonly fileVersionId: string
  readonly contentHash: string
  readonly lines: number
  readonly role: "artifact" | "context"
}

export interface SourceMappingJson {
  readonly sources: ReadonlyArray<SourceFileJson>
  readonly totalLines: number | null
  readonly mappedLines: number | null
  readonly coverage: number | null
  readonly unmappedRanges: ReadonlyArray<{ readonly path: string; readonly lineStart: number; readonly lineEnd: number }>
}

export interface IssueJson {
  readonly code: string
  readonly severity: "error" | "warning"
  readonly message: string
  readonly line: number
  readonly path: string
}

export interface ValidationJson {
  readonly valid: boolean
  readonly validatorVersion: string
  readonly errorCount: number
  readonly warningCount: number
  readonly issues: ReadonlyArray<IssueJson>
}

export interface RepairJson {
  readonly attempted: boolean
  readonly succeeded: boolean | null
  readonly reason: string
  readonly issuesBefore: ReadonlyArray<IssueJson>
  readonly changes: ReadonlyArray<string>
}

/** One text the validator checked: the first draft, then the repair's (the texts the issues' lines count in). */
export interface AttemptJson {
  readonly attempt: number
  readonly kind: "draft" | "repair"
  readonly text: string
  readonly validation: ValidationJson
  readonly changes: ReadonlyArray<string>
}

/** What the worker writes as it goes (also for a failed conversion: the evidence). */
export interface ConversionReportJson {
  readonly sourceSummary: SourceSummaryJson
  readonly sourceMapping: SourceMappingJson
  readonly blockMapping: ReadonlyArray<BlockMappingEntry>
  readonly missingRequirements: ReadonlyArray<MissingRequirement>
  readonly validation: ValidationJson | null
  readonly repair: RepairJson | null
  /** absent on reports written before issue 24 */
  readonly attempts?: ReadonlyArray<AttemptJson>
  readonly suggestedEvals: ReadonlyArray<EvalCase>
  readonly remainingRisks: ReadonlyArray<RemainingRisk>
  readonly metadata: (ProviderInfo & { readonly durationMs: number }) | null
}

export type ConversionStoredSummary = ConversionSummaryJson & {
  /** what the start knew of the sources; the analysis adds to it */
  readonly sourceSummary: SourceSummaryJson
  readonly sourceMapping: SourceMappingJson
}

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
  summary: storedJson<ConversionStoredSummary>("ConversionSummaryJson"),
  report: Schema.NullOr(storedJson<ConversionReportJson>("ConversionReportJson")),
  ...runCostFields,
  ...runEndFields
})
export type ConversionRow = typeof ConversionRow.Type
export const ConversionRows = rowsOf("conversion", ConversionRow)

export const conversionColumns = `id, artifact_bundle_id, user_id, job_id, requested_by_api_key_id, status, target_mode,
  target_file_id, source_file_version_id, artifact_bundle_version_number, input_version_ids, input_hash, output_path,
  output_file_id, output_file_version_id, validator_version, summary, estimated_credits, final_charged_credits, report,
  usage, reconciliation, error_code, error_message, created_at, updated_at, completed_at`

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
  sourceSummary: row.report?.sourceSummary ?? row.summary.sourceSummary,
  sourceMapping: row.report?.sourceMapping ?? row.summary.sourceMapping,
  summary: { estimate: row.summary.estimate, target: row.summary.target, creditCost: { ...row.summary.creditCost, finalChargedCredits: row.finalChargedCredits } },
  estimatedCredits: row.estimatedCredits,
  finalChargedCredits: row.finalChargedCredits,
  error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? "" } : null,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  completedAt: row.completedAt
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
