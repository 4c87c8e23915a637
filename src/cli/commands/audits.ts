/** `rubr audits start|show|apply`. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import { usage } from "../Failure.js"
import type { Remote } from "../Remote.js"
import { auditText } from "../reports/Text.js"
import { run } from "../Run.js"
import { globalOptions } from "../Settings.js"
import { described, bundleOption, detachOption, withBundle } from "../Shared.js"

const auditArg = Args.text({ name: "AUDIT_ID" }).pipe(Args.withDescription("The audit run's id (default: the bundle's latest audit)."), Args.optional)

/** The audit run an optional id names, or the bundle's latest. */
const auditIdOf = (remote: Remote, bundleId: string, id: Option.Option<string>) =>
  Effect.gen(function*() {
    if (Option.isSome(id)) return id.value
    const { data } = yield* remote.call("audits", "listAudits", { path: { artifactBundleId: bundleId }, urlParams: { limit: 1 } })
    const latest = data.auditRuns[0]
    if (!latest) return yield* Effect.fail(usage("The bundle has no audit yet: `rubr audits start` starts one."))
    return latest.id
  })

const readAudit = (remote: Remote, bundleId: string, auditRunId: string) =>
  Effect.map(remote.call("audits", "getAudit", { path: { artifactBundleId: bundleId, auditRunId } }), ({ data }) => data.auditRun)

const start = Command.make("start", {
  ...globalOptions,
  bundle: bundleOption,
  rubric: Options.text("rubric").pipe(Options.withDescription("The rubric key to audit with (default: the bundle's, else the artifact type's)."), Options.optional),
  file: Options.text("file").pipe(Options.withDescription("Audit this file's latest version (its path in the bundle) instead of the main artifact."), Options.optional),
  force: Options.boolean("force").pipe(Options.withDescription("Run a new audit even when an identical one exists (spends credits again).")),
  detach: detachOption
}, (flags) =>
  run("audits start", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      const { requireCompleted } = yield* Effect.promise(() => import("../Remote.js"))
      let target: { targetFileId?: string; targetVersionNumber?: number } = {}
      if (Option.isSome(flags.file)) {
        const { listFiles } = yield* Effect.promise(() => import("../Sync.js"))
        const file = (yield* listFiles(remote, bundle.id)).find((f) => f.path === flags.file.pipe(Option.getOrThrow))
        if (!file && !remote.dryRun) return yield* Effect.fail(usage(`The bundle has no file ${flags.file.value}.`))
        target = { targetFileId: file?.id ?? (yield* Effect.promise(() => import("../DryRun.js"))).placeholderId(), targetVersionNumber: file?.latestVersionNumber ?? 1 }
      }
      const payload = { ...target, ...(flags.force ? { force: true } : {}), ...(Option.isSome(flags.rubric) ? { rubricKey: flags.rubric.value } : {}) }
      const { data } = yield* remote.call("audits", "startAudit", { path: { artifactBundleId: bundle.id }, payload })
      if (flags.detach) {
        return { json: () => data, text: () => `Audit ${data.auditRun.id} started: job ${data.jobId}, ${data.creditCost.credits} credits. \`rubr jobs watch ${data.jobId}\` follows it.` }
      }
      yield* requireCompleted(yield* remote.waitForJob(data.jobId, "audit"))
      const detail = yield* readAudit(remote, bundle.id, data.auditRun.id)
      return { json: () => detail, text: () => auditText(detail, context.output.colors) }
    }))).pipe(Command.withDescription(described("Start an audit of the bundle's main artifact and wait for its result (spends credits).", "rubr audits start --bundle skills/deploy-preview")))

const show = Command.make("show", { ...globalOptions, bundle: bundleOption, audit: auditArg }, (flags) =>
  run("audits show", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      const detail = yield* readAudit(remote, bundle.id, yield* auditIdOf(remote, bundle.id, flags.audit))
      return { json: () => detail, text: () => auditText(detail, context.output.colors, 50) }
    }))).pipe(Command.withDescription(described("Show an audit: scores, findings, whether an improved version is ready.", "rubr audits show --bundle skills/deploy-preview")))

const apply = Command.make("apply", { ...globalOptions, bundle: bundleOption, audit: auditArg }, (flags) =>
  run("audits apply", flags, (context) =>
    Effect.gen(function*() {
      const { remote, bundle } = yield* withBundle(context, flags.bundle)
      const auditRunId = yield* auditIdOf(remote, bundle.id, flags.audit)
      const { data } = yield* remote.call("audits", "applyAudit", { path: { artifactBundleId: bundle.id, auditRunId } })
      return {
        json: () => data,
        text: () => [`Applied audit ${auditRunId}: ${data.appliedCount} file${data.appliedCount === 1 ? "" : "s"} written`, ...data.files.map((f) => `  ~ ${f.path} → v${f.versionNumber}`)].join("\n")
      }
    }))).pipe(Command.withDescription(described("Write an audit's improved version(s) as new file versions.", "rubr audits apply --bundle skills/deploy-preview")))

export const audits = Command.make("audits").pipe(
  Command.withDescription(described("Start, show and apply audits.", "rubr audits start --bundle deploy-preview", "rubr audits apply --bundle deploy-preview")),
  Command.withSubcommands([start, show, apply])
)
