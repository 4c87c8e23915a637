/** The eval run record as stored in `eval_runs`, its results, and their wire shapes. */
import { Schema } from "effect"
import { runCostFields } from "../credits/RunCost.js"
import { runEndFields, runHeadFields } from "../jobs/RunRow.js"
import { rowsOf, storedJson } from "../db/Query.js"
import { FileId, RunId, VersionId } from "../domain/Ids.js"
import type { CreditCostJson, Estimate } from "../credits/Estimate.js"
import type { EvalCase } from "../domain/EvalCase.js"
import type { VersionDiff } from "./Diff.js"
import type { CallRecord, SideResult } from "./Types.js"

export type CasesSource = "request" | "audit_eval_kit" | "generated"

export interface EvalTargetJson {
  readonly artifactBundleId: string
  readonly sourceFileId: string
  readonly sourceFilePath: string
  readonly sourceFileVersionId: string
  readonly sourceFileVersionNumber: number
  readonly sourceHash: string
  readonly candidateFileId: string
  readonly candidateFilePath: string
  readonly candidateFileVersionId: string
  readonly candidateFileVersionNumber: number
  readonly candidateHash: string
  readonly caseCount: number
  readonly casesSource: CasesSource
  readonly auditRunId: string | null
}

export type EvalEstimateJson = Estimate & { readonly caseCount: number }

export interface EvalSummaryJson {
  readonly estimate: EvalEstimateJson
  readonly target: EvalTargetJson
  readonly creditCost: CreditCostJson
}

export interface CaseResultJson {
  readonly caseId: string
  readonly name: string
  readonly type: "standard" | "scenario"
  readonly input: string
  readonly expectedBehavior: string
  readonly passCriteria: string
  readonly source: SideResult
  readonly candidate: SideResult
  readonly scoreDelta: number
  readonly verdict: "improved" | "regressed" | "unchanged"
  readonly calls: ReadonlyArray<CallRecord>
}

export interface ComparisonJson {
  readonly sourcePassCount: number
  readonly sourceFailCount: number
  readonly candidatePassCount: number
  readonly candidateFailCount: number
  readonly improvedCount: number
  readonly regressedCount: number
  readonly unchangedCount: number
  readonly sourceMeanScore: number
  readonly candidateMeanScore: number
  readonly scoreDelta: number
}

/** What the worker writes when the run completes. */
export interface EvalAggregateJson {
  readonly comparison: ComparisonJson
  readonly diff: VersionDiff
  readonly metadata: {
    readonly evaluatorVersion: string
    readonly provider: string
    readonly model: string
    readonly modelTier: string
    readonly reasoningEffort: string
    readonly calls: number
    readonly durationMs: number
  }
  readonly knownLimitations: ReadonlyArray<string>
}

/** One side of an eval as read from its file version (the evaluator's EvalSide). */
export const EvalSideRow = Schema.Struct({
  fileId: FileId,
  path: Schema.String,
  fileVersionId: VersionId,
  versionNumber: Schema.Number,
  contentHash: Schema.String,
  content: Schema.String,
  artifactType: Schema.String
})
export const EvalSideRows = rowsOf("eval side", EvalSideRow)

export const EvalRunRow = Schema.Struct({
  ...runHeadFields,
  sourceFileId: FileId,
  sourceFileVersionId: VersionId,
  candidateFileId: FileId,
  candidateFileVersionId: VersionId,
  auditRunId: Schema.NullOr(RunId),
  mode: Schema.String,
  rubricKey: Schema.String,
  rubricVersion: Schema.String,
  evaluatorVersion: Schema.String,
  cases: storedJson<ReadonlyArray<EvalCase>>("EvalCases"),
  casesSource: Schema.Literal("request", "audit_eval_kit", "generated"),
  caseCount: Schema.Number,
  summary: storedJson<EvalSummaryJson>("EvalSummaryJson"),
  results: storedJson<ReadonlyArray<CaseResultJson>>("CaseResults"),
  aggregate: Schema.NullOr(storedJson<EvalAggregateJson>("EvalAggregateJson")),
  ...runCostFields,
  ...runEndFields
})
export type EvalRunRow = typeof EvalRunRow.Type
export const EvalRunRows = rowsOf("eval run", EvalRunRow)

export const evalColumns = `id, artifact_bundle_id, user_id, job_id, requested_by_api_key_id, status, source_file_id,
  source_file_version_id, candidate_file_id, candidate_file_version_id, audit_run_id, mode, rubric_key, rubric_version,
  evaluator_version, cases, cases_source, case_count, summary, estimated_credits, final_charged_credits, results,
  aggregate, usage, reconciliation, error_code, error_message, created_at, updated_at, completed_at`

/** The counts of a run, from its results so far (the candidate's verdicts are the run's). */
export const comparisonOf = (results: ReadonlyArray<CaseResultJson>): ComparisonJson => {
  const mean = (xs: ReadonlyArray<number>) => (xs.length === 0 ? 0 : Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10)
  const sourceMeanScore = mean(results.map((r) => r.source.score))
  const candidateMeanScore = mean(results.map((r) => r.candidate.score))
  return {
    sourcePassCount: results.filter((r) => r.source.passed).length,
    sourceFailCount: results.filter((r) => !r.source.passed).length,
    candidatePassCount: results.filter((r) => r.candidate.passed).length,
    candidateFailCount: results.filter((r) => !r.candidate.passed).length,
    improvedCount: results.filter((r) => r.verdict === "improved").length,
    regressedCount: results.filter((r) => r.verdict === "regressed").length,
    unchangedCount: results.filter((r) => r.verdict === "unchanged").length,
    sourceMeanScore,
    candidateMeanScore,
    scoreDelta: Math.round((candidateMeanScore - sourceMeanScore) * 10) / 10
  }
}

export const toEvalRunJson = (row: EvalRunRow) => {
  const comparison = row.aggregate?.comparison ?? (row.results.length > 0 ? comparisonOf(row.results) : null)
  return {
    id: row.id,
    artifactBundleId: row.artifactBundleId,
    auditRunId: row.auditRunId,
    jobId: row.jobId,
    requestedByApiKeyId: row.requestedByApiKeyId,
    status: row.status,
    mode: row.mode,
    evaluatorVersion: row.evaluatorVersion,
    rubricKey: row.rubricKey,
    rubricVersion: row.rubricVersion,
    sourceFileVersionId: row.sourceFileVersionId,
    candidateFileVersionId: row.candidateFileVersionId,
    casesSource: row.casesSource,
    scenarioCount: row.caseCount,
    passCount: comparison?.candidatePassCount ?? 0,
    failCount: comparison?.candidateFailCount ?? 0,
    scoreDelta: comparison?.scoreDelta ?? null,
    cases: row.cases,
    summary: {
      estimate: row.summary.estimate,
      target: row.summary.target,
      creditCost: { ...row.summary.creditCost, finalChargedCredits: row.finalChargedCredits }
    },
    estimatedCredits: row.estimatedCredits,
    finalChargedCredits: row.finalChargedCredits,
    error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? "" } : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    completedAt: row.completedAt
  }
}

export const toEvalRunDetail = (row: EvalRunRow) => ({
  ...toEvalRunJson(row),
  results: row.results,
  comparison: row.aggregate?.comparison ?? (row.results.length > 0 ? comparisonOf(row.results) : null),
  diff: row.aggregate?.diff ?? null,
  metadata: row.aggregate?.metadata ?? null,
  knownLimitations: row.aggregate?.knownLimitations ?? [],
  usage: row.usage,
  reconciliation: row.reconciliation
})
