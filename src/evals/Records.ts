/** The eval run record as stored in `eval_runs`, its results, and their wire shapes. */
import { Schema } from "effect"
import { costAnswerOf, runCostFields } from "../credits/RunCost.js"
import { runEndAnswerOf, runEndFields, runHeadFields } from "../jobs/RunRow.js"
import { rowsOf } from "../db/Query.js"
import { FileId, RunId, VersionId } from "../domain/Ids.js"
import { EvalCase } from "../domain/EvalCase.js"
import { EvalCaseResult, EvalComparison, EvalDiff, EvalMetadata, EvalSummary, type EvalTarget } from "./Api.js"

export type CasesSource = typeof EvalTarget.Type["casesSource"]
export type EvalTargetJson = typeof EvalTarget.Type
export type EvalSummaryJson = typeof EvalSummary.Type
export type CaseResultJson = typeof EvalCaseResult.Type
export type ComparisonJson = typeof EvalComparison.Type

/** What the worker writes when the run completes. */
export const StoredEvalAggregate = Schema.Struct({
  comparison: EvalComparison,
  diff: EvalDiff,
  metadata: EvalMetadata,
  knownLimitations: Schema.Array(Schema.String)
})
export type EvalAggregateJson = typeof StoredEvalAggregate.Type

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
  cases: Schema.Array(EvalCase),
  casesSource: Schema.Literal("request", "audit_eval_kit", "generated"),
  caseCount: Schema.Number,
  summary: EvalSummary,
  results: Schema.Array(EvalCaseResult),
  aggregate: Schema.NullOr(StoredEvalAggregate),
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
    ...costAnswerOf(row),
    ...runEndAnswerOf(row)
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
