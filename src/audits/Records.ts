/** The audit run record as stored in `audit_runs`, and its result. */
import { Schema } from "effect"
import { runCostFields } from "../credits/RunCost.js"
import { runEndFields, runHeadFields } from "../jobs/RunRow.js"
import { rowsOf } from "../db/Query.js"
import { FileId, VersionId } from "../domain/Ids.js"
import { runInsertRowsOf } from "../jobs/Jobs.js"
import { ResultMetadata } from "../ai/Usage.js"
import { CriterionScore, Finding, Rubric } from "../review/Types.js"
import { EvalCase } from "../domain/EvalCase.js"
import { AuditSummary, ImprovedFileResult } from "./Api.js"

/** what the review reads besides the files: the bundle's name and the rules it turned off */
export const AuditReviewOptions = Schema.Struct({
  bundleName: Schema.String,
  /** the folder the files were read from, when the client said (absent otherwise, so older runs compare equal) */
  folderName: Schema.optional(Schema.String),
  disabledRules: Schema.Array(Schema.String)
})
export type AuditReviewOptions = typeof AuditReviewOptions.Type

/** The summary as the start stores it: the API's, with what the worker reads back. */
export const StoredAuditSummary = Schema.Struct({
  ...AuditSummary.fields,
  /** the exact rubric admitted, so the worker scores against what the user was quoted for */
  rubric: Rubric,
  /** absent on runs stored before bundles could turn rules off */
  review: Schema.optional(AuditReviewOptions)
})
export type AuditSummaryJson = typeof StoredAuditSummary.Type

/** An improved file with the ids the apply writes under. */
export const StoredImprovedFile = Schema.Struct({ ...ImprovedFileResult.fields, fileId: FileId, baseFileVersionId: VersionId })
export type StoredImprovedFile = typeof StoredImprovedFile.Type

export const StoredResult = Schema.Struct({
  overallScore: Schema.Number,
  scores: Schema.Array(CriterionScore),
  /** runs stored before rule ids have findings without one (see `ruleIdOfLegacyFinding`) */
  findings: Schema.Array(Schema.Struct({ ...Finding.fields, ruleId: Schema.optional(Schema.String) })),
  improvedVersion: Schema.NullOr(StoredImprovedFile),
  improvedFiles: Schema.Array(StoredImprovedFile),
  evalKit: Schema.Struct({ cases: Schema.Array(EvalCase) }),
  metadata: ResultMetadata
})
export type StoredResult = typeof StoredResult.Type

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
  summary: StoredAuditSummary,
  result: Schema.NullOr(StoredResult),
  appliedAt: Schema.NullOr(Schema.DateFromSelf),
  ...runCostFields,
  ...runEndFields
})
export type AuditRunRow = typeof AuditRunRow.Type
export const AuditRunRows = rowsOf("audit run", AuditRunRow)
export const NewAuditRunRows = runInsertRowsOf("new audit run", AuditRunRow)

export const runColumns = `id, artifact_bundle_id, user_id, job_id, requested_by_api_key_id, status, target_mode, target_file_id,
  target_file_version_id, artifact_bundle_version_number, input_version_ids, input_hash, rubric_key, rubric_version,
  artifact_type, summary, estimated_credits, final_charged_credits, result, usage, reconciliation, error_code,
  error_message, applied_at, created_at, updated_at, completed_at`

