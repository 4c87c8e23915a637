/**
 * The signed content of a proof report: everything the contract lists, as plain JSON data (ISO
 * timestamps, no undefined), bound to the immutable source and candidate hashes. Pure.
 */
import type { Reconciliation } from "../credits/Reconcile.js"
import type { EvalRunRow } from "../evals/Records.js"
import { addUsage, type Usage } from "../ai/Usage.js"

export const PROOF_REPORT_VERSION = "1.0"

export interface VersionFacts {
  readonly fileId: string
  readonly path: string
  readonly fileVersionId: string
  readonly versionNumber: number
  readonly contentHash: string
  readonly sizeBytes: number
}

export interface AuditFacts {
  readonly id: string
  readonly rubricKey: string
  readonly rubricVersion: string
  readonly targetFileVersionId: string | null
  readonly overallScore: number | null
  readonly findingCount: number
  readonly completedAt: Date | null
}

export interface PayloadInput {
  readonly reportId: string
  readonly bundle: { readonly id: string; readonly name: string }
  readonly generatedAt: Date
  readonly source: VersionFacts
  readonly candidate: VersionFacts
  readonly evalRun: EvalRunRow
  readonly audit: AuditFacts | null
  readonly service: { readonly name: string; readonly version: string }
}

const sumUsage = (usages: ReadonlyArray<Usage | null>): Usage =>
  usages.reduce<Usage>((total, usage) => addUsage(total, usage)!, { inputTokens: 0, outputTokens: 0, totalTokens: 0 })

export const buildPayload = (input: PayloadInput): Record<string, unknown> => {
  const run = input.evalRun
  const aggregate = run.aggregate!
  const calls = run.results.flatMap((r) => r.calls)
  const reconciliation: Reconciliation | null = run.reconciliation
  return {
    kind: "proof_report",
    reportVersion: PROOF_REPORT_VERSION,
    reportId: input.reportId,
    generatedAt: input.generatedAt.toISOString(),
    generatedBy: input.service,
    artifactBundle: input.bundle,
    source: input.source,
    candidate: input.candidate,
    eval: {
      id: run.id,
      status: run.status,
      mode: run.mode,
      evaluatorVersion: run.evaluatorVersion,
      rubricKey: run.rubricKey,
      rubricVersion: run.rubricVersion,
      casesSource: run.casesSource,
      auditRunId: run.auditRunId,
      scenarioCount: run.caseCount,
      passCount: aggregate.comparison.candidatePassCount,
      failCount: aggregate.comparison.candidateFailCount,
      scoreDelta: aggregate.comparison.scoreDelta,
      comparison: aggregate.comparison,
      createdAt: run.createdAt.toISOString(),
      completedAt: run.completedAt?.toISOString() ?? null
    },
    cases: run.results.map((r) => ({
      id: r.caseId,
      name: r.name,
      type: r.type,
      input: r.input,
      expectedBehavior: r.expectedBehavior,
      passCriteria: r.passCriteria,
      source: r.source,
      candidate: r.candidate,
      scoreDelta: r.scoreDelta,
      verdict: r.verdict
    })),
    diff: aggregate.diff,
    model: {
      provider: aggregate.metadata.provider,
      model: aggregate.metadata.model,
      modelTier: aggregate.metadata.modelTier,
      reasoningEffort: aggregate.metadata.reasoningEffort,
      evaluatorVersion: aggregate.metadata.evaluatorVersion
    },
    ai: {
      calls: calls.length,
      usage: calls.length === 0 ? null : sumUsage(calls.map((c) => c.usage)),
      durationMs: aggregate.metadata.durationMs,
      callLog: run.results.flatMap((r) => r.calls.map((c) => ({ caseId: r.caseId, ...c })))
    },
    credits: {
      eval: {
        mode: run.summary.estimate.mode,
        estimatedCredits: run.estimatedCredits,
        finalChargedCredits: run.finalChargedCredits,
        reconciliation
      },
      proofReport: { credits: 0 }
    },
    audit: input.audit === null ? null : { ...input.audit, completedAt: input.audit.completedAt?.toISOString() ?? null },
    knownLimitations: [
      ...aggregate.knownLimitations,
      "The report proves what rubr's evaluator observed for these two exact versions and these cases; other inputs may behave differently."
    ]
  }
}
