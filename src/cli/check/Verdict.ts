/**
 * The fourth step of `rubr check`: each artifact judged on its own gates (`--min-score`, `--fail-on`,
 * set per path by the configuration, and no regression against `--baseline`), and the run judged:
 * it passes when every artifact passes. Pure: the reports every format renders.
 */
import * as Path from "node:path"
import { toPosix } from "../Files.js"
import type { CheckFinding, CheckReport, EvalSummary, Gate, RepoReport, Severity, Tool } from "../reports/Model.js"
import { failsAt } from "../reports/Model.js"
import type { Audited } from "./Audit.js"
import type { Prepared } from "./Quote.js"
import { label } from "./Plan.js"
import type { Quote } from "../reports/Model.js"

export const artifactReport = (input: {
  readonly tool: Tool
  readonly guidesUrl: string
  readonly root: string
  readonly prepared: Prepared
  readonly audited: Audited
  readonly eval: EvalSummary | null
  readonly durationMs: number
  readonly fixed?: ReadonlyArray<string> | undefined
}): CheckReport => {
  const { prepared, audited } = input
  const { artifact, sync } = prepared
  const detail = audited.detail
  const { minScore, failOn } = artifact
  const folder = toPosix(Path.relative(input.root, artifact.dir))
  const labels = new Map(detail.scores.map((s) => [s.key, s.label]))
  const findings: Array<CheckFinding> = detail.findings.map((f) => ({
    id: f.id,
    ruleId: f.ruleId,
    ruleName: labels.get(f.criterionKey) ?? null,
    severity: f.severity as Severity,
    bundlePath: f.filePath,
    // relative to the repository root, as code scanning and merge requests place them
    path: folder === "" ? f.filePath : `${folder}/${f.filePath}`,
    lineStart: f.lineStart,
    lineEnd: f.lineEnd,
    message: f.message,
    suggestion: f.suggestion,
    failing: failsAt(f.severity as Severity, failOn)
  }))
  const score = detail.overallScore ?? 0
  const failing = findings.filter((f) => f.failing)
  const gates: Array<Gate> = [
    { name: "min-score", passed: score >= minScore, message: `overall score ${score} ${score >= minScore ? "≥" : "<"} ${minScore}` },
    {
      name: "fail-on",
      passed: failing.length === 0,
      message: failOn === "none" ? "findings never fail (--fail-on none)" : `${failing.length} finding${failing.length === 1 ? "" : "s"} at ${failOn} or worse`
    }
  ]
  const e = input.eval
  if (e) {
    gates.push({
      name: "no-regression",
      passed: e.regressedCount === 0,
      message: e.scenarioCount === 0
        ? "the baseline is the current version"
        : `${e.regressedCount} of ${e.scenarioCount} cases regressed against the baseline ${e.baseline} (passed ${e.sourcePassCount} → ${e.candidatePassCount})`
    })
  }
  const summary = detail.summary as { rubricTitle?: string }
  return {
    tool: input.tool,
    target: label(artifact),
    kind: artifact.kind,
    bundle: { id: prepared.bundle.id, name: prepared.bundle.name },
    sync: { uploaded: sync.uploaded.length, updated: sync.updated.length, unchanged: sync.unchanged.length, removed: sync.removed.length, skipped: sync.skipped.length },
    audit: {
      id: detail.id,
      overallScore: score,
      rubricKey: detail.rubricKey,
      rubricVersion: detail.rubricVersion,
      rubricTitle: summary.rubricTitle ?? detail.rubricKey,
      scores: detail.scores.map((s) => ({ key: s.key, label: s.label, score: s.score, rationale: s.rationale })),
      fresh: audited.fresh
    },
    eval: e,
    gates,
    findings,
    minScore,
    failOn,
    passed: gates.every((g) => g.passed),
    guidesUrl: input.guidesUrl,
    durationMs: input.durationMs,
    ...(input.fixed !== undefined ? { fixed: input.fixed } : {})
  }
}

export const repoReport = (input: {
  readonly tool: Tool
  readonly guidesUrl: string
  readonly root: string
  readonly quote: Quote
  readonly reports: ReadonlyArray<CheckReport>
  readonly prepared: ReadonlyArray<Prepared>
  readonly durationMs: number
}): RepoReport => ({
  tool: input.tool,
  root: input.root,
  quote: input.quote,
  artifacts: input.reports,
  skipped: input.prepared.flatMap((p) => p.artifact.skipped),
  passed: input.reports.every((r) => r.passed),
  guidesUrl: input.guidesUrl,
  durationMs: input.durationMs
})
