/** `rubr jobs show|watch|cancel` and `rubr credits`. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { Effect } from "effect"
import { run } from "../Run.js"
import { globalOptions } from "../Settings.js"
import { date, described, table, withRemote } from "../Shared.js"

const jobArg = Args.text({ name: "JOB_ID" }).pipe(Args.withDescription("The job's id, as a start printed it (jobId)."))

type JobLike = { id: string; kind: string; state: string; phase: string; percent: number; message: string; attempts: number; maxAttempts: number; createdAt: Date; finishedAt: Date | null; error: { code: string; message: string } | null }

const jobText = (j: JobLike) =>
  [
    `Job ${j.id} (${j.kind}): ${j.state}${j.state === "running" || j.state === "queued" ? `, ${j.phase} ${Math.round(j.percent)}%` : ""}${j.message ? ` · ${j.message}` : ""}`,
    `attempt ${j.attempts}/${j.maxAttempts} · created ${date(j.createdAt)}${j.finishedAt ? ` · finished ${date(j.finishedAt)}` : ""}`,
    j.error ? `error ${j.error.code}: ${j.error.message}` : ""
  ].filter((l) => l !== "").join("\n")

const show = Command.make("show", { ...globalOptions, job: jobArg }, (flags) =>
  run("jobs show", flags, (context) =>
    Effect.gen(function*() {
      const remote = yield* withRemote(context)
      const { data } = yield* remote.call("jobs", "getJob", { path: { jobId: flags.job } })
      return { json: () => data, text: () => jobText(data.job) }
    }))).pipe(Command.withDescription(described("Show a job's state, phase and error.", "rubr jobs show 5f0c…")))

const watch = Command.make("watch", { ...globalOptions, job: jobArg }, (flags) =>
  run("jobs watch", flags, (context) =>
    Effect.gen(function*() {
      const remote = yield* withRemote(context)
      const { requireCompleted } = yield* Effect.promise(() => import("../Remote.js"))
      const job = yield* remote.waitForJob(flags.job, "job")
      if (!remote.dryRun) yield* requireCompleted(job)
      return { json: () => ({ job }), text: () => jobText(job as unknown as JobLike) }
    }))).pipe(Command.withDescription(described("Follow a job until it ends (exit 5 when it fails or is cancelled).", "rubr jobs watch 5f0c… --format json")))

const cancel = Command.make("cancel", { ...globalOptions, job: jobArg }, (flags) =>
  run("jobs cancel", flags, (context) =>
    Effect.gen(function*() {
      const remote = yield* withRemote(context)
      const { data } = yield* remote.call("jobs", "cancelJob", { path: { jobId: flags.job } })
      return { json: () => data, text: () => jobText(data.job) }
    }))).pipe(Command.withDescription(described("Cancel a queued or running job; unused credits are refunded.", "rubr jobs cancel 5f0c…")))

export const jobs = Command.make("jobs").pipe(Command.withDescription(described("Show, follow and cancel jobs.", "rubr jobs watch 5f0c…")), Command.withSubcommands([show, watch, cancel]))

export const credits = Command.make("credits", { ...globalOptions }, (flags) =>
  run("credits", flags, (context) =>
    Effect.gen(function*() {
      const remote = yield* withRemote(context)
      const { data } = yield* remote.call("credits", "getCredits", { urlParams: { limit: 10 } })
      return {
        json: () => data,
        text: () =>
          [
            `Balance: ${data.balance} credits (granted ${data.totals.granted}, debited ${data.totals.debited}, refunded ${data.totals.refunded})`,
            `Spent today: ${data.limits.spentTodayCredits}${data.limits.usageCapUserCreditsPerDay === null ? "" : ` of ${data.limits.usageCapUserCreditsPerDay}`} · audits: ${data.limits.auditCreditMode}`,
            ...(data.ledger.length > 0
              ? ["", table([["WHEN", "TYPE", "AMOUNT", "BALANCE", "REASON"], ...data.ledger.map((e) => [date(e.createdAt), e.type, String(e.amount), String(e.balanceAfter), e.reason])])]
              : [])
          ].join("\n")
      }
    }))).pipe(Command.withDescription(described("Your credit balance and recent ledger events.", "rubr credits --format json")))
