/** `rubr convert`, `rubr eval`, `rubr proof create|export`: the other kinds of work on a bundle. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import * as Fs from "node:fs"
import { usage } from "../Failure.js"
import { run } from "../Run.js"
import { globalOptions } from "../Settings.js"
import { bundleOption, described, detachOption, integerOption, withBundle } from "../Shared.js"

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

export const convert = Command.make("convert", {
  ...globalOptions,
  bundle: bundleOption,
  outputPath: Options.text("output-path").pipe(Options.withDescription("The bundle path the flow is written to (default: generated/rubr_flow.rubr_flow)."), Options.optional),
  detach: detachOption
}, (flags) =>
  run("convert", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      const { requireCompleted } = yield* Effect.promise(() => import("../Remote.js"))
      const payload = Option.isSome(flags.outputPath) ? { outputPath: flags.outputPath.value } : {}
      const { data } = yield* remote.call("conversions", "startConversion", { path: { artifactBundleId: bundle.id }, payload })
      if (flags.detach) return { json: () => data, text: () => `Conversion ${data.conversion.id} started: job ${data.jobId}.` }
      yield* requireCompleted(yield* remote.waitForJob(data.jobId, "conversion"))
      const { data: read } = yield* remote.call("conversions", "getConversion", { path: { artifactBundleId: bundle.id, conversionId: data.conversion.id } })
      const c = read.conversion
      return {
        json: () => c,
        text: () =>
          [
            `Conversion ${c.id} ${c.status}: ${c.outputPath}${c.outputFileVersionId ? " written" : ""}`,
            c.validation ? `validation: ${c.validation.valid ? "valid" : "invalid"}, ${plural(c.validation.errorCount, "error")}, ${plural(c.validation.warningCount, "warning")}` : "",
            ...(c.validation?.issues ?? []).slice(0, 10).map((i) => `  ${i.severity} ${i.code} line ${i.line}: ${i.message}`)
          ].filter((l) => l !== "").join("\n")
      }
    }))).pipe(Command.withDescription(described("Convert the bundle's main artifact to a validated rubr_flow file (spends credits).", "rubr convert --bundle release-notes")))

export const evalCommand = Command.make("eval", {
  ...globalOptions,
  bundle: bundleOption,
  baseline: Options.text("baseline").pipe(
    Options.withDescription("The version to compare the current one with: a version number, a file version id or a local file (default: version 1)."),
    Options.optional
  ),
  maxCases: integerOption("max-cases", { min: 1 }).pipe(Options.withDescription("The most test cases to run (default: the service's)."), Options.optional),
  detach: detachOption
}, (flags) =>
  run("eval", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      const { requireCompleted } = yield* Effect.promise(() => import("../Remote.js"))
      const { resolveBaseline, removeTemporary, isBaselineRef } = yield* Effect.promise(() => import("../Baseline.js"))
      let payload: Record<string, unknown> = Option.isSome(flags.maxCases) ? { maxCases: flags.maxCases.value } : {}
      let baseline: Effect.Effect.Success<ReturnType<typeof resolveBaseline>> | undefined
      if (Option.isSome(flags.baseline)) {
        if (!isBaselineRef(flags.baseline.value, Fs.existsSync)) return yield* Effect.fail(usage(`--baseline ${flags.baseline.value} is neither a version number, a file version id nor a file.`))
        baseline = yield* resolveBaseline(remote, bundle.id, flags.baseline.value)
        payload = { ...payload, sourceFileVersionId: baseline.source, candidateFileVersionId: baseline.candidate }
      }
      const { data } = yield* remote.call("evals", "startEval", { path: { artifactBundleId: bundle.id }, payload })
      if (baseline) yield* removeTemporary(remote, bundle.id, baseline)
      if (flags.detach) return { json: () => data, text: () => `Eval ${data.evalRun.id} started: job ${data.jobId}, ${plural(data.evalRun.scenarioCount, "case")}.` }
      yield* requireCompleted(yield* remote.waitForJob(data.jobId, "eval"))
      const { data: read } = yield* remote.call("evals", "getEval", { path: { artifactBundleId: bundle.id, evalRunId: data.evalRun.id } })
      const e = read.evalRun
      const c = context.output.colors
      return {
        json: () => e,
        text: () =>
          [
            `Eval ${e.id} ${e.status}: candidate passed ${e.passCount}/${e.scenarioCount}` +
            (e.comparison ? ` (source ${e.comparison.sourcePassCount}/${e.scenarioCount}); ${e.comparison.improvedCount} improved, ${e.comparison.regressedCount} regressed` : ""),
            ...e.results.map((r) => `  ${r.verdict === "regressed" ? c.red("regressed") : r.verdict === "improved" ? c.green("improved ") : c.dim("unchanged")} ${r.name}`),
            e.diff && !e.diff.identical ? c.dim(`diff: +${e.diff.linesAdded} -${e.diff.linesRemoved} lines`) : ""
          ].filter((l) => l !== "").join("\n")
      }
    }))).pipe(Command.withDescription(described("Compare two versions of the main artifact on test cases (default: version 1 against the latest; spends credits).", "rubr eval --bundle release-notes --baseline 1")))

const proofCreate = Command.make("create", {
  ...globalOptions,
  bundle: bundleOption,
  evalRun: Options.text("eval").pipe(Options.withDescription("The completed eval run the report proves.")),
  auditRun: Options.text("audit").pipe(Options.withDescription("A completed audit run to include in the report."), Options.optional),
  detach: detachOption
}, (flags) =>
  run("proof create", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      const { requireCompleted } = yield* Effect.promise(() => import("../Remote.js"))
      const payload = { evalRunId: flags.evalRun, ...(Option.isSome(flags.auditRun) ? { auditRunId: flags.auditRun.value } : {}) }
      const { data } = yield* remote.call("proofReports", "createProofReport", { path: { artifactBundleId: bundle.id }, payload })
      if (!flags.detach) yield* requireCompleted(yield* remote.waitForJob(data.jobId, "proof report"))
      return {
        json: () => data,
        text: () =>
          flags.detach
            ? `Proof report ${data.proofReport.id} started: job ${data.jobId}.`
            : `Proof report ${data.proofReport.id} completed: \`rubr proof export ${data.proofReport.id} --bundle ${bundle.name}\` downloads the signed document.`
      }
    }))).pipe(Command.withDescription(described("Create a signed proof report of a completed eval (0 credits).", "rubr proof create --bundle release-notes --eval 7d1e…")))

const proofExport = Command.make("export", {
  ...globalOptions,
  bundle: bundleOption,
  proofReport: Args.text({ name: "PROOF_REPORT_ID" }).pipe(Args.withDescription("The proof report's id, as rubr proof create printed it.")),
  output: Options.file("output").pipe(Options.withAlias("o"), Options.withDescription("Write the document to this file (default: stdout)."), Options.optional)
}, (flags) =>
  run("proof export", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      const document = yield* remote.call("proofReports", "exportProofReport", { path: { artifactBundleId: bundle.id, proofReportId: flags.proofReport } })
      const text = JSON.stringify(document, null, 2)
      if (Option.isSome(flags.output) && !remote.dryRun) Fs.writeFileSync(flags.output.value, `${text}\n`)
      return {
        json: () => document,
        text: () => (Option.isSome(flags.output) ? `Wrote the signed export to ${flags.output.value}; \`rubr verify ${flags.output.value}\` checks it.` : text)
      }
    }))).pipe(Command.withDescription(described("Download a completed proof report's signed export document.", "rubr proof export 9a2b… --bundle release-notes -o proof.json")))

export const proof = Command.make("proof").pipe(
  Command.withDescription(described("Create and export proof reports.", "rubr proof create --bundle release-notes --eval 7d1e…")),
  Command.withSubcommands([proofCreate, proofExport])
)
