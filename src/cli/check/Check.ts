/**
 * `rubr check`: plan → quote → run → verdict → render, for one folder or a whole repository.
 *
 *   plan     what to check, from the local files alone (Plan.ts); `--list` stops here, with no request
 *   quote    bundles made to match the files, one estimate per artifact, the total judged against
 *            `--max-credits` and the balance before anything starts (Quote.ts)
 *   run      the new audits, `--concurrency` at a time; a reused one is only read, so reads go on
 *            beside them, READS_AT_ONCE at a time (Quote.ts; Audit.ts);
 *            with `--baseline` (one artifact), the eval (Eval.ts)
 *   verdict  each artifact's gates, and the run's (Verdict.ts); `--fix` / `--diff` (Fix.ts)
 *   render   text, json, junit, sarif or codeclimate (reports/)
 *
 * The command (commands/check.ts) only parses flags and calls `check`.
 */
import { Effect } from "effect"
import * as Fs from "node:fs"
import { VERSION } from "../../Version.js"
import { isBaselineRef } from "../Baseline.js"
import { type CliFailure, usage } from "../Failure.js"
import type { CheckReport, FailOn, RepoReport } from "../reports/Model.js"
import type { Context, Result } from "../Run.js"
import { table } from "../Shared.js"
import { guidesUrl } from "../Settings.js"
import { Exit } from "../Failure.js"
import type { Audited } from "./Audit.js"
import { label, type Plan, plan } from "./Plan.js"
import type { Prepared } from "./Quote.js"


export interface CheckInput {
  readonly paths: ReadonlyArray<string>
  readonly bundle: string | undefined
  readonly minScore: number | undefined
  readonly failOn: FailOn | undefined
  readonly baseline: string | undefined
  readonly rubric: string | undefined
  readonly force: boolean
  readonly prune: boolean
  readonly timeout: number
  readonly list: boolean
  readonly maxCredits: number | undefined
  readonly concurrency: number
  readonly changedSince: string | undefined
  readonly fix: boolean
  readonly diff: boolean
  /** read and keep what earlier runs learnt (Memory.ts); --no-cache turns it off */
  readonly cache: boolean
}

const fromThrown = (error: unknown): CliFailure => {
  if (error && typeof error === "object" && (error as { _tag?: string })._tag === "CliFailure") return error as CliFailure
  throw error
}

const checkFlags = (input: CheckInput) => {
  if (input.fix && input.diff) return usage("--fix writes the improved versions and --diff only shows them: pass one.")
  if (input.baseline !== undefined && !isBaselineRef(input.baseline, Fs.existsSync)) {
    return usage(`--baseline ${input.baseline} is neither a version number, a file version id nor a file.`)
  }
  return undefined
}

/** `--list`: what was found and the bundle each maps to; no request. */
const listResult = (p: Plan): Result => ({
  text: () =>
    p.artifacts.length === 0
      ? "No artifact found."
      : `${table([["KIND", "ARTIFACT", "BUNDLE", "FILES"], ...p.artifacts.map((a) => [a.kind, label(a), a.bundleName, String(a.paths.length)])])}\n\n${p.artifacts.length} artifact${
        p.artifacts.length === 1 ? "" : "s"
      } under ${p.root}${p.unchanged > 0 ? ` (${p.unchanged} unchanged left out)` : ""}${p.config.file ? `, configured by ${p.config.file}` : ""}`,
  json: () => ({
    root: p.root,
    config: p.config.file ?? null,
    artifacts: p.artifacts.map((a) => ({ kind: a.kind, path: label(a), bundle: a.bundleName, files: a.paths, minScore: a.minScore, failOn: a.failOn })),
    unchanged: p.unchanged
  })
})

interface Checked {
  readonly report: CheckReport
  readonly audited: Audited
  readonly prepared: Prepared
}

/** --fix and --diff: every artifact's improved files, checked before the first is written. */
const fixOrDiff = (output: Context["output"], input: CheckInput, root: string, reports: ReadonlyArray<Checked>) =>
  Effect.gen(function*() {
    let diffText = ""
    const fixedBy = new Map<CheckReport, ReadonlyArray<string>>()
    if (input.fix || input.diff) {
      const { assertUnchanged, changesOf, unifiedDiff, writeChanges } = yield* Effect.promise(() => import("./Fix.js"))
      const changes = reports.map((r) => ({ r, changes: changesOf(root, r.prepared.artifact, r.audited.detail) }))
      const all = changes.flatMap((c) => c.changes)
      if (input.fix) {
        yield* Effect.try({ try: () => assertUnchanged(all), catch: fromThrown })
        writeChanges(all)
        for (const c of changes) fixedBy.set(c.r.report, c.changes.map((x) => x.local))
        for (const c of all) output.note(`fixed ${c.local}`)
        if (all.length === 0) output.note(output.colors.dim("--fix: no audit rewrote a file"))
      } else {
        diffText = unifiedDiff(all, output.colors)
        if (all.length === 0) output.note(output.colors.dim("--diff: no audit rewrote a file"))
      }
    }
    const finalReports = reports.map((r) => (fixedBy.has(r.report) ? { ...r.report, fixed: fixedBy.get(r.report) } : r.report))
    return { finalReports, diffText }
  })

/** The result in every format: one artifact's report as always, or the repository's. */
const render = (args: {
  readonly output: Context["output"]
  readonly settings: Context["settings"]
  readonly single: boolean
  readonly finalReports: ReadonlyArray<CheckReport>
  readonly diffText: string
  readonly repo: () => RepoReport
}) =>
  Effect.gen(function*() {
    const { output, settings, diffText } = args
    // other formats keep stdout one document: the diff goes to stderr
    if (diffText !== "" && settings.format !== "text") output.note(diffText)
    const withDiff = (text: string) => (diffText !== "" && settings.format === "text" ? `${text}\n\n${diffText}` : text)
    const [{ checkJunit, repoJunit }, { checkSarif, repoSarif }, { checkText, repoText }, { codeQuality }] = yield* Effect.promise(() =>
      Promise.all([import("../reports/Junit.js"), import("../reports/Sarif.js"), import("../reports/Text.js"), import("../reports/CodeClimate.js")])
    )
    if (args.single) {
      const report = args.finalReports[0]!
      const fixedLine = report.fixed && report.fixed.length > 0 ? `\n${output.colors.green(`Fixed: ${report.fixed.join(", ")}`)}` : ""
      return {
        exitCode: report.passed ? Exit.passed : Exit.failed,
        text: () => withDiff(`${checkText(report, output.colors)}${fixedLine}`),
        json: () => report,
        junit: () => checkJunit(report),
        sarif: () => checkSarif(report),
        codeclimate: () => codeQuality([report])
      } satisfies Result
    }
    const repo = args.repo()
    return {
      exitCode: repo.passed ? Exit.passed : Exit.failed,
      text: () => withDiff(repoText(repo, output.colors)),
      json: () => repo,
      junit: () => repoJunit(repo),
      sarif: () => repoSarif(repo),
      codeclimate: () => codeQuality(repo.artifacts)
    } satisfies Result
  })

export const check = ({ output, settings }: Context, input: CheckInput): Effect.Effect<Result | void, CliFailure> =>
  Effect.gen(function*() {
    const started = Date.now()
    const bad = checkFlags(input)
    if (bad) return yield* Effect.fail(bad)
    if (input.list && !["text", "json"].includes(settings.format)) return yield* Effect.fail(usage(`rubr check --list prints text or json, not --format ${settings.format}.`))

    const planned = yield* Effect.try({
      try: () =>
        plan({
          paths: input.paths,
          cwd: process.cwd(),
          bundle: input.bundle,
          minScore: input.minScore,
          failOn: input.failOn,
          changedSince: input.changedSince,
          read: !input.list,
          fix: input.fix
        }),
      catch: fromThrown
    })
    if (input.list) return listResult(planned)
    const { artifacts, single, root } = planned
    if (input.baseline !== undefined && !single) return yield* Effect.fail(usage("--baseline compares one artifact: name one skill folder."))
    if (artifacts.length === 0) {
      if (input.changedSince !== undefined) {
        output.note(`Nothing changed since ${input.changedSince}: no artifact to check.`)
      } else {
        return yield* Effect.fail(usage(`${input.paths.join(" ") || "."} holds no artifact to check (no SKILL.md, AGENTS.md, CLAUDE.md, command, prompt or rubr_flow file, and no text file).`))
      }
    }
    for (const a of artifacts) for (const s of a.skipped) output.note(output.colors.dim(`skipped ${s.path}: ${s.reason}`))

    const { makeRemote } = yield* Effect.promise(() => import("../Remote.js"))
    const { judgeQuote, prepareAll, quoteLine, quoteOf, READS_AT_ONCE } = yield* Effect.promise(() => import("./Quote.js"))
    const { runAudit } = yield* Effect.promise(() => import("./Audit.js"))
    const { artifactReport, repoReport } = yield* Effect.promise(() => import("./Verdict.js"))
    const { noMemory, openMemory } = yield* Effect.promise(() => import("./Memory.js"))
    const remote = artifacts.length === 0 ? undefined : yield* makeRemote(settings, output)
    const memory = input.cache && !settings.dryRun ? openMemory(settings.baseUrl) : noMemory

    // live lines only on a terminal; without one, a line per artifact as it ends is enough
    const live = (line: string) => {
      if (!single && settings.interactive) output.progress(line)
    }
    let ready = 0
    const prepared = remote === undefined ? [] : yield* prepareAll(remote, output, artifacts, {
      force: input.force,
      rubric: input.rubric,
      prune: input.prune,
      rulesOff: [...planned.config.rulesOff].sort(),
      concurrency: input.concurrency,
      memory,
      onPrepared: (p) => live(`preparing ${++ready}/${artifacts.length}: ${label(p.artifact)}`)
    })
    const quote = quoteOf(prepared)
    if (!single && remote && !remote.dryRun) output.note(quoteLine(quote))
    if (remote) yield* judgeQuote(remote, output, quote, input.maxCredits)

    const tool = { name: "rubr", version: VERSION, informationUri: `${guidesUrl(settings)}/ci` }
    let done = 0
    // --concurrency bounds the audits that run; reading a reused one takes no slot
    const auditSlots = yield* Effect.makeSemaphore(input.concurrency)
    const reports = remote === undefined ? [] : yield* Effect.forEach(prepared, (p) =>
      (p.reuse === null ? auditSlots.withPermits(1) : <A, E, R>(e: Effect.Effect<A, E, R>) => e)(Effect.gen(function*() {
        const began = Date.now()
        const audited = yield* runAudit(remote, output, p, { timeoutSeconds: input.timeout, quiet: !single, memory })
        let evalSummary = null
        if (input.baseline !== undefined) {
          const { evalAgainstBaseline } = yield* Effect.promise(() => import("./Eval.js"))
          evalSummary = yield* evalAgainstBaseline(remote, output, p.bundle.id, input.baseline)
        }
        const report = artifactReport({ tool, guidesUrl: guidesUrl(settings), root, prepared: p, audited, eval: evalSummary, durationMs: Date.now() - began })
        done++
        if (!single && !remote.dryRun) {
          output.note(`${report.passed ? output.colors.green("✓") : output.colors.red("✗")} ${report.target}  ${report.audit.overallScore}/100${report.audit.fresh ? "" : output.colors.dim(" (reused)")}`)
          live(`auditing: ${done}/${prepared.length} done`)
        }
        return { report, audited, prepared: p }
      })), { concurrency: remote.dryRun ? 1 : Math.max(input.concurrency, READS_AT_ONCE) })
    output.endProgress()
    if (remote?.dryRun) return

    const { finalReports, diffText } = yield* fixOrDiff(output, input, root, reports)
    return yield* render({ output, settings, single, finalReports, diffText, repo: () => repoReport({ tool, guidesUrl: guidesUrl(settings), root, quote, reports: finalReports, prepared, durationMs: Date.now() - started }) })
  })
