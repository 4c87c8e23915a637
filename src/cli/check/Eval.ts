/**
 * `rubr check --baseline REF` (one artifact): the baseline against the new version of the main
 * artifact, summed up for the no-regression gate.
 */
import { Effect } from "effect"
import { removeTemporary, resolveBaseline } from "../Baseline.js"
import type { CliFailure } from "../Failure.js"
import type { Output } from "../Output.js"
import { type Remote, requireCompleted } from "../Remote.js"
import type { EvalSummary } from "../reports/Model.js"

export const evalAgainstBaseline = (remote: Remote, output: Output, bundleId: string, baselineRef: string): Effect.Effect<EvalSummary, CliFailure> =>
  Effect.gen(function*() {
    const baseline = yield* resolveBaseline(remote, bundleId, baselineRef)
    const { source, candidate } = baseline
    const summary = {
      evalRunId: "",
      baseline: baselineRef,
      sourceFileVersionId: source,
      candidateFileVersionId: candidate,
      scenarioCount: 0,
      sourcePassCount: 0,
      candidatePassCount: 0,
      improvedCount: 0,
      regressedCount: 0,
      unchangedCount: 0,
      scoreDelta: 0,
      regressedCases: []
    }
    if (source === candidate) {
      output.note(output.colors.dim("the baseline is the current version: nothing to compare"))
      return summary
    }
    const started = yield* remote.call(
      "evals",
      "startEval",
      { path: { artifactBundleId: bundleId }, payload: { sourceFileVersionId: source, candidateFileVersionId: candidate } }
    )
    yield* removeTemporary(remote, bundleId, baseline)
    yield* Effect.flatMap(remote.waitForJob(started.data.jobId, "eval"), requireCompleted)
    const { data } = yield* remote.call(
      "evals",
      "getEval",
      { path: { artifactBundleId: bundleId, evalRunId: started.data.evalRun.id } }
    )
    const e = data.evalRun
    const c = e.comparison
    return {
      ...summary,
      evalRunId: e.id,
      scenarioCount: e.scenarioCount,
      sourcePassCount: c?.sourcePassCount ?? 0,
      candidatePassCount: c?.candidatePassCount ?? e.passCount,
      improvedCount: c?.improvedCount ?? 0,
      regressedCount: c?.regressedCount ?? 0,
      unchangedCount: c?.unchangedCount ?? 0,
      scoreDelta: c?.scoreDelta ?? 0,
      regressedCases: e.results.filter((r) => r.verdict === "regressed").map((r) => ({ caseId: r.caseId, name: r.name, scoreDelta: r.scoreDelta }))
    }
  })
