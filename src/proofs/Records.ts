/** The proof report record as stored in `proof_reports`, and its wire shapes. */
import { Schema } from "effect"
import { runEndAnswerOf, runEndFields, runHeadFields } from "../jobs/RunRow.js"
import { rowsOf } from "../db/Query.js"
import { RunId, VersionId } from "../domain/Ids.js"
import { CreditCost } from "../credits/Schemas.js"
import { ExportFailure, ExportMetadata } from "./Api.js"

export type ExportMetadataJson = typeof ExportMetadata.Type
export type ExportFailureJson = typeof ExportFailure.Type

export const ProofReportRow = Schema.Struct({
  ...runHeadFields,
  evalRunId: RunId,
  auditRunId: Schema.NullOr(RunId),
  sourceFileVersionId: VersionId,
  sourceContentHash: Schema.String,
  candidateFileVersionId: VersionId,
  candidateContentHash: Schema.String,
  summary: Schema.Struct({ creditCost: CreditCost }),
  document: Schema.NullOr(Schema.String),
  signingKid: Schema.NullOr(Schema.String),
  signingAlg: Schema.NullOr(Schema.String),
  export: Schema.NullOr(ExportMetadata),
  exportFailure: Schema.NullOr(ExportFailure),
  ...runEndFields
})
export type ProofReportRow = typeof ProofReportRow.Type
export const ProofReportRows = rowsOf("proof report", ProofReportRow)

export const proofColumns = `id, artifact_bundle_id, user_id, job_id, requested_by_api_key_id, status, eval_run_id, audit_run_id,
  source_file_version_id, source_content_hash, candidate_file_version_id, candidate_content_hash, summary, document,
  signing_kid, signing_alg, export, export_failure, error_code, error_message, created_at, updated_at, completed_at`

export const toProofReportJson = (row: ProofReportRow) => ({
  id: row.id,
  artifactBundleId: row.artifactBundleId,
  jobId: row.jobId,
  requestedByApiKeyId: row.requestedByApiKeyId,
  status: row.status,
  evalRunId: row.evalRunId,
  auditRunId: row.auditRunId,
  source: { fileVersionId: row.sourceFileVersionId, contentHash: row.sourceContentHash },
  candidate: { fileVersionId: row.candidateFileVersionId, contentHash: row.candidateContentHash },
  creditCost: row.summary.creditCost,
  signature: row.signingKid !== null && row.signingAlg !== null ? { alg: row.signingAlg, kid: row.signingKid } : null,
  export: row.export,
  exportFailure: row.exportFailure,
  exportPath: row.status === "completed"
    ? `/api/v1/artifact-bundles/${row.artifactBundleId}/proof-reports/${row.id}/export`
    : null,
  ...runEndAnswerOf(row)
})

export const toProofReportDetail = (row: ProofReportRow) => ({
  ...toProofReportJson(row),
  report: row.document === null ? null : (JSON.parse(row.document).payload as Record<string, unknown>)
})
