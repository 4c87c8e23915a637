/** The audit run record as stored in `audit_runs`, and its result. */
import type { Estimate } from "../credits/Estimate.js"
import type { CreditCostJson } from "../credits/Estimate.js"
import type { Rubric } from "../review/Types.js"
import type { TargetDescription } from "../targets/Targets.js"

export interface AuditRunRow {
  readonly id: string
  readonly artifactBundleId: string
  readonly userId: string
  readonly jobId: string
  readonly requestedByApiKeyId: string | null
  readonly status: "queued" | "running" | "completed" | "failed" | "cancelled"
  readonly targetMode: "file" | "bundle"
  readonly targetFileId: string | null
  readonly targetFileVersionId: string | null
  readonly artifactBundleVersionNumber: number
  readonly inputVersionIds: ReadonlyArray<string>
  readonly inputHash: string
  readonly rubricKey: string
  readonly rubricVersion: string
  readonly artifactType: string
  readonly summary: AuditSummaryJson
  readonly estimatedCredits: number
  readonly finalChargedCredits: number | null
  readonly result: StoredResult | null
  readonly usage: unknown
  readonly reconciliation: unknown
  readonly errorCode: string | null
  readonly errorMessage: string | null
  readonly appliedAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly completedAt: Date | null
}

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
  readonly fileId: string
  readonly path: string
  readonly baseFileVersionId: string
  readonly content: string
  readonly changes: ReadonlyArray<string>
}

export interface StoredResult {
  readonly overallScore: number
  readonly scores: ReadonlyArray<unknown>
  readonly findings: ReadonlyArray<unknown>
  readonly improvedVersion: StoredImprovedFile | null
  readonly improvedFiles: ReadonlyArray<StoredImprovedFile>
  readonly evalKit: { readonly cases: ReadonlyArray<unknown> }
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

