/**
 * `rubr check PATH`: the remote test. Selects the bundle (`--bundle`, default the folder's name),
 * creating it if needed; makes its files match the folder's text files; starts an audit (an
 * identical earlier audit is reused, not paid again); follows it with a progress line; with
 * `--baseline`, also evals the baseline against the new version of the main artifact; then judges
 * the gates: `--min-score`, `--fail-on`, and no regression. Audit and eval give one verdict.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { VERSION } from "../../Version.js"
import { CliFailure, Exit, usage } from "../Failure.js"
import { toPosix } from "../Files.js"
import { type CheckFinding, type CheckReport, type EvalSummary, failsAt, type FailOn, type Gate, type Severity } from "../reports/Model.js"
import { run } from "../Run.js"
import { globalOptions, guidesUrl } from "../Settings.js"

const path = Args.directory({ name: "PATH", exists: "yes" }).pipe(Args.withDescription("the folder holding the artifact and its files"))

export const checkOptions = {
  bundle: Options.text("bundle").pipe(
    Options.withDescription("the bundle's name or id (default: the folder's name); created when no active bundle has that name"),
    Options.optional
  ),
  minScore: Options.integer("min-score").pipe(Options.withDescription("fail below this overall score, 0-100"), Options.withDefault(0)),
  failOn: Options.choice("fail-on", ["critical", "major", "minor", "none"]).pipe(
    Options.withDescription("fail on a finding of this severity or worse"),
    Options.withDefault("critical" as const)
  ),
  baseline: Options.text("baseline").pipe(
    Options.withDescription("also eval a baseline against the new version and fail on a regression: a version number of the main artifact, a file version id, or a local file"),
    Options.optional
  ),
  rubric: Options.text("rubric").pipe(Options.withDescription("the rubric key (default: the bundle's, else the artifact type's)"), Options.optional),
  force: Options.boolean("force").pipe(Options.withDescription("run a new audit even when an identical one exists (spends credits again)")),
  prune: Options.boolean("prune").pipe(Options.withDescription("also delete the bundle's files the folder does not have")),
  timeout: Options.integer("timeout").pipe(Options.withDescription("seconds to wait for each job"), Options.withDefault(600))
}

const MAX_FILE_BYTES = 1024 * 1024

export const check = Command.make("check", { ...globalOptions, ...checkOptions, path }, (flags) =>
  run("check", flags, ({ output, settings }) =>
    Effect.gen(function*() {
      const started = Date.now()
      if (flags.minScore < 0 || flags.minScore > 100) return yield* Effect.fail(usage("--min-score is 0-100."))
      const { makeRemote, requireCompleted } = yield* Effect.promise(() => import("../Remote.js"))
      const { readFolder, resolveBundle, syncFolder } = yield* Effect.promise(() => import("../Sync.js"))
      const { resolveBaseline, removeTemporary, isBaselineRef } = yield* Effect.promise(() => import("../Baseline.js"))
      const baselineRef = Option.getOrUndefined(flags.baseline)
      if (baselineRef !== undefined && !isBaselineRef(baselineRef, Fs.existsSync)) {
        return yield* Effect.fail(usage(`--baseline ${baselineRef} is neither a version number, a file version id nor a file.`))
      }
      const folder = readFolder(flags.path, MAX_FILE_BYTES)
      if (folder.files.length === 0) return yield* Effect.fail(usage(`${flags.path} holds no text file to check.`))
      for (const s of folder.skipped) output.note(output.colors.dim(`skipped ${s.path}: ${s.reason}`))

      const remote = yield* makeRemote(settings, output)
      const bundleName = Option.getOrElse(flags.bundle, () => Path.basename(Path.resolve(flags.path)))
      const bundle = yield* resolveBundle(remote, bundleName, { create: true })
      const sync = yield* syncFolder(remote, output, bundle.id, folder, { prune: flags.prune, message: "rubr check" })

      // the audit: a new one, or the identical one that exists (same input versions and rubric)
      // the folder's own name: a SKILL.md at the bundle root is named after its folder, whatever --bundle says
      const folderName = Path.basename(Path.resolve(flags.path))
      const payload = {
        ...(flags.force ? { force: true } : {}),
        ...(Option.isSome(flags.rubric) ? { rubricKey: flags.rubric.value } : {}),
        ...(folderName !== "" ? { folderName } : {})
      }
      const start = remote.call(
        "audits",
        "startAudit",
        { path: { artifactBundleId: bundle.id }, payload },
        () => ({ data: { auditRun: { id: "{auditRunId}" }, jobId: "{jobId}", creditCost: { credits: 0 } } }) as any
      ).pipe(
        Effect.map(({ data }) => ({ auditRunId: data.auditRun.id, jobId: data.jobId as string | null, fresh: true, credits: data.creditCost.credits as number })),
        Effect.catchIf(
          (e): e is CliFailure => e.code === "conflict" && typeof (e.details?.[0] as { auditRunId?: unknown } | undefined)?.auditRunId === "string",
          (e) => Effect.succeed({ auditRunId: (e.details![0] as { auditRunId: string }).auditRunId, jobId: null, fresh: false, credits: 0 })
        )
      )
      const audit = yield* start
      if (!remote.dryRun) {
        output.note(output.colors.dim(audit.fresh
          ? `audit ${audit.auditRunId} started (${audit.credits} credit${audit.credits === 1 ? "" : "s"})`
          : `nothing changed since audit ${audit.auditRunId}: reusing it (no credits spent)`))
      }
      const readAudit = remote.call(
        "audits",
        "getAudit",
        { path: { artifactBundleId: bundle.id, auditRunId: audit.auditRunId } },
        () => ({ data: { auditRun: { id: audit.auditRunId, jobId: "{jobId}", status: "completed", overallScore: 100, scores: [], findings: [], summary: {} } } }) as any
      )
      const waitFor = (jobId: string) =>
        remote.waitForJob(jobId, "audit").pipe(
          Effect.timeoutFail({
            duration: `${flags.timeout} seconds`,
            onTimeout: () =>
              new CliFailure({ exitCode: Exit.unavailable, message: `The audit did not end within ${flags.timeout} s (job ${jobId}); raise --timeout or follow it with \`rubr jobs watch ${jobId}\`.` })
          }),
          Effect.flatMap(requireCompleted)
        )
      // a new audit is followed to its end; a reused one may still be running
      if (audit.jobId !== null) yield* waitFor(audit.jobId)
      let detail = (yield* readAudit).data.auditRun
      if (detail.status !== "completed") {
        yield* waitFor(detail.jobId)
        detail = (yield* readAudit).data.auditRun
      }

      // the eval: the baseline against the new version of the main artifact
      let evalSummary: EvalSummary | null = null
      if (baselineRef !== undefined) {
        const baseline = yield* resolveBaseline(remote, bundle.id, baselineRef)
        const { source, candidate } = baseline
        if (source === candidate) {
          evalSummary = {
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
          output.note(output.colors.dim("the baseline is the current version: nothing to compare"))
        } else {
          const startedEval = yield* remote.call(
            "evals",
            "startEval",
            { path: { artifactBundleId: bundle.id }, payload: { sourceFileVersionId: source, candidateFileVersionId: candidate } },
            () => ({ data: { evalRun: { id: "{evalRunId}" }, jobId: "{evalJobId}" } }) as any
          )
          yield* removeTemporary(remote, bundle.id, baseline)
          const job = yield* remote.waitForJob(startedEval.data.jobId, "eval")
          yield* requireCompleted(job)
          const { data } = yield* remote.call(
            "evals",
            "getEval",
            { path: { artifactBundleId: bundle.id, evalRunId: startedEval.data.evalRun.id } },
            () => ({ data: { evalRun: { id: startedEval.data.evalRun.id, comparison: null, results: [] } } }) as any
          )
          const e = data.evalRun
          const c = e.comparison
          evalSummary = {
            evalRunId: e.id,
            baseline: baselineRef,
            sourceFileVersionId: source,
            candidateFileVersionId: candidate,
            scenarioCount: e.scenarioCount,
            sourcePassCount: c?.sourcePassCount ?? 0,
            candidatePassCount: c?.candidatePassCount ?? e.passCount,
            improvedCount: c?.improvedCount ?? 0,
            regressedCount: c?.regressedCount ?? 0,
            unchangedCount: c?.unchangedCount ?? 0,
            scoreDelta: c?.scoreDelta ?? 0,
            regressedCases: e.results.filter((r) => r.verdict === "regressed").map((r) => ({ caseId: r.caseId, name: r.name, scoreDelta: r.scoreDelta }))
          }
        }
      }
      if (remote.dryRun) return

      const failOn = flags.failOn as FailOn
      const labels = new Map(detail.scores.map((s) => [s.key, s.label]))
      const findings: Array<CheckFinding> = detail.findings.map((f) => ({
        id: f.id,
        ruleId: f.ruleId,
        ruleName: labels.get(f.criterionKey) ?? null,
        severity: f.severity as Severity,
        bundlePath: f.filePath,
        path: toPosix(Path.relative(process.cwd(), Path.resolve(flags.path, f.filePath))),
        lineStart: f.lineStart,
        lineEnd: f.lineEnd,
        message: f.message,
        suggestion: f.suggestion,
        failing: failsAt(f.severity as Severity, failOn)
      }))
      const score = detail.overallScore ?? 0
      const failing = findings.filter((f) => f.failing)
      const gates: Array<Gate> = [
        { name: "min-score", passed: score >= flags.minScore, message: `overall score ${score} ${score >= flags.minScore ? "≥" : "<"} ${flags.minScore}` },
        {
          name: "fail-on",
          passed: failing.length === 0,
          message: failOn === "none"
            ? "findings never fail (--fail-on none)"
            : `${failing.length} finding${failing.length === 1 ? "" : "s"} at ${failOn} or worse`
        }
      ]
      if (evalSummary) {
        gates.push({
          name: "no-regression",
          passed: evalSummary.regressedCount === 0,
          message: evalSummary.scenarioCount === 0
            ? "the baseline is the current version"
            : `${evalSummary.regressedCount} of ${evalSummary.scenarioCount} cases regressed against the baseline ${evalSummary.baseline} (passed ${evalSummary.sourcePassCount} → ${evalSummary.candidatePassCount})`
        })
      }
      const summary = detail.summary as { rubricTitle?: string }
      const report: CheckReport = {
        tool: { name: "rubr", version: VERSION, informationUri: `${guidesUrl(settings)}/ci` },
        target: toPosix(flags.path),
        bundle: { id: bundle.id, name: bundle.name },
        sync: { uploaded: sync.uploaded.length, updated: sync.updated.length, unchanged: sync.unchanged.length, removed: sync.removed.length, skipped: sync.skipped.length },
        audit: {
          id: detail.id,
          overallScore: score,
          rubricKey: detail.rubricKey,
          rubricVersion: detail.rubricVersion,
          rubricTitle: summary.rubricTitle ?? detail.rubricKey,
          scores: detail.scores.map((s) => ({ key: s.key, label: s.label, score: s.score })),
          fresh: audit.fresh
        },
        eval: evalSummary,
        gates,
        findings,
        minScore: flags.minScore,
        failOn,
        passed: gates.every((g) => g.passed),
        guidesUrl: guidesUrl(settings),
        durationMs: Date.now() - started
      }
      const { checkJunit } = yield* Effect.promise(() => import("../reports/Junit.js"))
      const { checkSarif } = yield* Effect.promise(() => import("../reports/Sarif.js"))
      const { checkText } = yield* Effect.promise(() => import("../reports/Text.js"))
      return {
        exitCode: report.passed ? Exit.passed : Exit.failed,
        text: () => checkText(report, output.colors),
        json: () => report,
        junit: () => checkJunit(report),
        sarif: () => checkSarif(report)
      }
    }), ["text", "json", "junit", "sarif"])).pipe(
  Command.withDescription(
    "The remote test for CI: sync a folder into a bundle, audit it (and eval it against --baseline), then judge the gates. Exit 0 passed, 1 failed."
  )
)
