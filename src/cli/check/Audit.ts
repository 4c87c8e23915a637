/**
 * The third step of `rubr check`, per artifact: its audit started (or the identical earlier one
 * reused, as the quote said; a start that meets a 409 takes the run it names), followed to its end,
 * and read with its findings and improved files.
 */
import { Effect, Option, Schema } from "effect"
import { AuditRunDetail } from "../../audits/Api.js"
import { CliFailure, Exit } from "../Failure.js"
import type { Output } from "../Output.js"
import { type Remote, requireCompleted } from "../Remote.js"
import type { Memory } from "./Memory.js"
import type { Prepared } from "./Quote.js"

export type AuditDetail = typeof AuditRunDetail.Type

const fetchAudit = (remote: Remote, bundleId: string, auditRunId: string) =>
  remote.call(
    "audits",
    "getAudit",
    { path: { artifactBundleId: bundleId, auditRunId } }
  )

/** The read's own schema: a completed audit is kept as the service encoded it and read back through it. */
const recallAudit = Schema.decodeUnknownOption(AuditRunDetail)
const encodeAudit = Schema.encodeOption(AuditRunDetail)

/**
 * The audit run with its findings and improved files: from Memory when this machine already read
 * this completed run for these inputs (a completed run never changes), else from the service, and
 * a completed one kept for the next run.
 */
const readAudit = (remote: Remote, memory: Memory, prepared: Prepared, auditRunId: string) =>
  Effect.gen(function*() {
    const bundleId = prepared.bundle.id
    const remembered = memory.recall(bundleId)
    const kept = remembered?.audit?.id === auditRunId && remembered.inputHash === prepared.inputHash
      ? recallAudit(remembered.audit.encoded)
      : Option.none()
    if (Option.isSome(kept)) return kept.value
    const read = yield* fetchAudit(remote, bundleId, auditRunId)
    if (!remote.dryRun && read.data.auditRun.status === "completed" && remembered?.inputHash === prepared.inputHash) {
      const encoded = encodeAudit(read.data.auditRun)
      if (Option.isSome(encoded)) memory.keep(bundleId, { ...remembered, audit: { id: auditRunId, encoded: encoded.value } })
    }
    return read.data.auditRun
  })

export interface Audited {
  readonly detail: AuditDetail
  /** false when an identical earlier audit was reused */
  readonly fresh: boolean
}

export const runAudit = (
  remote: Remote,
  output: Output,
  prepared: Prepared,
  options: { readonly timeoutSeconds: number; readonly quiet: boolean; readonly memory: Memory }
): Effect.Effect<Audited, CliFailure> =>
  Effect.gen(function*() {
    const bundleId = prepared.bundle.id
    const start = prepared.reuse !== null
      ? Effect.succeed({ auditRunId: prepared.reuse, jobId: null as string | null, fresh: false, credits: 0 })
      : remote.call(
        "audits",
        "startAudit",
        { path: { artifactBundleId: bundleId }, payload: prepared.body }
      ).pipe(
        Effect.map(({ data }) => ({ auditRunId: data.auditRun.id, jobId: data.jobId as string | null, fresh: true, credits: data.creditCost.credits as number })),
        // the identical audit appeared since the quote (another run): take it
        Effect.catchIf(
          (e): e is CliFailure => e.code === "conflict" && typeof (e.details?.[0] as { auditRunId?: unknown } | undefined)?.auditRunId === "string",
          (e) => Effect.succeed({ auditRunId: (e.details![0] as { auditRunId: string }).auditRunId, jobId: null, fresh: false, credits: 0 })
        )
      )
    const audit = yield* start
    if (!remote.dryRun && !options.quiet) {
      output.note(output.colors.dim(audit.fresh
        ? `audit ${audit.auditRunId} started (${audit.credits} credit${audit.credits === 1 ? "" : "s"})`
        : `nothing changed since audit ${audit.auditRunId}: reusing it (no credits spent)`))
    }
    const waitFor = (jobId: string) =>
      remote.waitForJob(jobId, "audit", { quiet: options.quiet }).pipe(
        Effect.timeoutFail({
          duration: `${options.timeoutSeconds} seconds`,
          onTimeout: () =>
            new CliFailure({
              exitCode: Exit.unavailable,
              message: `The audit did not end within ${options.timeoutSeconds} s (job ${jobId}); raise --timeout or follow it with \`rubr jobs watch ${jobId}\`.`
            })
        }),
        Effect.flatMap(requireCompleted)
      )
    // a new audit is followed to its end; a reused one may still be running
    if (audit.jobId !== null) yield* waitFor(audit.jobId)
    let detail = yield* readAudit(remote, options.memory, prepared, audit.auditRunId)
    if (detail.status !== "completed") {
      yield* waitFor(detail.jobId)
      detail = yield* readAudit(remote, options.memory, prepared, audit.auditRunId)
    }
    return { detail, fresh: audit.fresh }
  })
