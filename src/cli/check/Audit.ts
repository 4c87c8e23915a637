/**
 * The third step of `rubr check`, per artifact: its audit started (or the identical earlier one
 * reused, as the quote said; a start that meets a 409 takes the run it names), followed to its end,
 * and read with its findings and improved files.
 */
import { Effect } from "effect"
import { CliFailure, Exit } from "../Failure.js"
import type { Output } from "../Output.js"
import { type Remote, requireCompleted } from "../Remote.js"
import type { Prepared } from "./Quote.js"

export type AuditDetail = Effect.Effect.Success<ReturnType<typeof readAudit>>

const readAudit = (remote: Remote, bundleId: string, auditRunId: string) =>
  Effect.map(
    remote.call(
      "audits",
      "getAudit",
      { path: { artifactBundleId: bundleId, auditRunId } },
      () => ({ data: { auditRun: { id: auditRunId, jobId: "{jobId}", status: "completed", overallScore: 100, scores: [], findings: [], summary: {}, improvedVersion: null, improvedFiles: [] } } }) as any
    ),
    ({ data }) => data.auditRun
  )

export interface Audited {
  readonly detail: AuditDetail
  /** false when an identical earlier audit was reused */
  readonly fresh: boolean
}

export const runAudit = (
  remote: Remote,
  output: Output,
  prepared: Prepared,
  options: { readonly timeoutSeconds: number; readonly quiet: boolean }
): Effect.Effect<Audited, CliFailure> =>
  Effect.gen(function*() {
    const bundleId = prepared.bundle.id
    const start = prepared.reuse !== null
      ? Effect.succeed({ auditRunId: prepared.reuse, jobId: null as string | null, fresh: false, credits: 0 })
      : remote.call(
        "audits",
        "startAudit",
        { path: { artifactBundleId: bundleId }, payload: prepared.body },
        () => ({ data: { auditRun: { id: "{auditRunId}" }, jobId: "{jobId}", creditCost: { credits: 0 } } }) as any
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
    let detail = yield* readAudit(remote, bundleId, audit.auditRunId)
    if (detail.status !== "completed") {
      yield* waitFor(detail.jobId)
      detail = yield* readAudit(remote, bundleId, audit.auditRunId)
    }
    return { detail, fresh: audit.fresh }
  })
