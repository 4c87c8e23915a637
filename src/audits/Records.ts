/** The audit run record as stored in `audit_runs`, and its result. */
import { Schema } from "effect"
import { runCostFields } from "../credits/RunCost.js"
import { runEndFields, runHeadFields } from "../jobs/RunRow.js"
import { rowsOf, storedJson } from "../db/Query.js"
import { FileId, VersionId } from "../domain/Ids.js"
import { runInsertRowsOf } from "../jobs/Jobs.js"
import type { Estimate } from "../credits/Estimate.js"
import type { CreditCostJson } from "../credits/Estimate.js"
import type { CriterionScore, Finding, Rubric } from "../review/Types.js"
import type { EvalCase } from "../domain/EvalCase.js"
import type { TargetDescription } from "../targets/Targets.js"

export const AuditRunRow = Schema.Struct({
  ...runHeadFields,
  targetMode: Schema.Literal("file", "bundle"),
  targetFileId: Schema.NullOr(FileId),
  targetFileVersionId: Schema.NullOr(VersionId),
  artifactBundleVersionNumber: Schema.Number,
  inputVersionIds: Schema.Array(VersionId),
  inputHash: Schema.String,
  rubricKey: Schema.String,
  rubricVersion: Schema.String,
  artifactType: Schema.String,
  summary: storedJson<AuditSummaryJson>("AuditSummaryJson"),
  result: Schema.NullOr(storedJson<StoredResult>("StoredResult")),
  appliedAt: Schema.NullOr(Schema.DateFromSelf),
  ...runCostFields,
  ...runEndFields
})
export type AuditRunRow = typeof AuditRunRow.Type
export const AuditRunRows = rowsOf("audit run", AuditRunRow)
export const NewAuditRunRows = runInsertRowsOf("new audit run", AuditRunRow)

export interface AuditSummaryJson {
  readonly estimate: Estimate
  readonly target: TargetDescription
  readonly creditCost: CreditCostJson
  readonly rubricTitle: string
  /** the exact rubric admitted, so the worker scores against what the user was quoted for */
  readonly rubric: Rubric
  /** what the review reads besides the files: the bundle's name and the rules it turned off (absent on older runs) */
  readonly review?: AuditReviewOptions
}

export interface AuditReviewOptions {
  readonly bundleName: string
  /** the folder the files were read from, when the client said (absent otherwise, so older runs compare equal) */
  readonly folderName?: string
  readonly disabledRules: ReadonlyArray<string>
}

export interface StoredImprovedFile {
  readonly fileId: FileId
  readonly path: string
  readonly baseFileVersionId: VersionId
  readonly content: string
  readonly changes: ReadonlyArray<string>
}

export interface StoredResult {
  readonly overallScore: number
  readonly scores: ReadonlyArray<CriterionScore>
  /** runs stored before rule ids have findings without one (see `ruleIdOfLegacyFinding`) */
  readonly findings: ReadonlyArray<Omit<Finding, "ruleId"> & { readonly ruleId?: string }>
  readonly improvedVersion: StoredImprovedFile | null
  readonly improvedFiles: ReadonlyArray<StoredImprovedFile>
  readonly evalKit: { readonly cases: ReadonlyArray<EvalCase> }
  readonly metadata: {
    readonly provider: string
    readonly model: string
    readonly modelTier: string
    readonly reasoningEffort: string
    readonly durationMs: number
  }
}

export const runColumns = `id, artifact_bundle_id, user_id, job_id, requested_by_api_key_id, status, target_mode, target_file_id,
  target_file_version_id, artifact_bundle_version_number, input_version_ids, input_hash, rubric_key, rubric_version,
  artifact_type, summary, estimated_credits, final_charged_credits, result, usage, reconciliation, error_code,
  error_message, applied_at, created_at, updated_at, completed_at`

