/**
 * Following a job to its end: poll its progress events (one request a poll, from the last sequence
 * seen), hand new ones to a callback, then read the job once it has ended. The wait between polls
 * starts short (a mock run ends in tens of milliseconds) and grows to `maxInterval`.
 */
import { Duration, Effect } from "effect"
import type { RubrClient } from "./Client.js"
import { RubrError } from "./RubrError.js"

type Job = Effect.Effect.Success<ReturnType<RubrClient["jobs"]["getJob"]>>["data"]["job"]
type JobEvent = Effect.Effect.Success<ReturnType<RubrClient["jobs"]["listJobEvents"]>>["data"]["events"][number]
export type { Job, JobEvent }

export const TERMINAL_STATES: ReadonlyArray<string> = ["completed", "failed", "cancelled"]

export interface WaitOptions {
  /** new progress events, oldest first, as they arrive */
  readonly onProgress?: ((events: ReadonlyArray<JobEvent>) => void) | undefined
  /** the first wait between polls (default 50 ms); each poll without news doubles it */
  readonly interval?: Duration.DurationInput | undefined
  /** the longest wait between polls (default 1 s) */
  readonly maxInterval?: Duration.DurationInput | undefined
  /** give up after this long: a `timeout` RubrError (default: never) */
  readonly timeout?: Duration.DurationInput | undefined
}

/** Polls until the job is completed, failed or cancelled, and answers the ended job. */
export const waitForJob = (client: RubrClient, jobId: string, options: WaitOptions = {}): Effect.Effect<Job, RubrError> =>
  Effect.gen(function*() {
    const first = Duration.toMillis(options.interval ?? Duration.millis(50))
    const max = Duration.toMillis(options.maxInterval ?? Duration.seconds(1))
    let after = 0
    let wait = first
    for (;;) {
      const { data } = yield* client.jobs.listJobEvents({ path: { jobId }, urlParams: { after, limit: 200 } })
      if (data.events.length > 0) {
        after = data.events[data.events.length - 1]!.sequence
        options.onProgress?.(data.events)
        wait = first
      } else {
        wait = Math.min(max, wait * 2)
      }
      if (data.events.some((e) => TERMINAL_STATES.includes(e.state))) {
        return (yield* client.jobs.getJob({ path: { jobId } })).data.job
      }
      // a page of 200 may not reach the end: read on at once
      if (data.events.length < 200) yield* Effect.sleep(Duration.millis(wait))
    }
  }).pipe(
    options.timeout === undefined ? (e) => e : Effect.timeoutFail({
      duration: options.timeout,
      onTimeout: () =>
        new RubrError({ code: "timeout", status: null, message: `Job ${jobId} did not end within ${Duration.format(options.timeout!)}.`, requestId: null, details: [] })
    })
  )

/** A job that did not complete, as an error carrying its safe error code and message. */
export const jobFailure = (job: Job): RubrError =>
  new RubrError({
    code: "job_failed",
    status: null,
    message: job.state === "cancelled"
      ? `Job ${job.id} (${job.kind}) was cancelled.`
      : `Job ${job.id} (${job.kind}) failed: ${job.error ? `${job.error.code}: ${job.error.message}` : job.message}`,
    requestId: null,
    details: [{ jobId: job.id, state: job.state, error: job.error }]
  })

/** Waits, then fails with `job_failed` unless the job completed. */
export const waitForCompletion = (client: RubrClient, jobId: string, options: WaitOptions = {}) =>
  Effect.flatMap(waitForJob(client, jobId, options), (job) => (job.state === "completed" ? Effect.succeed(job) : Effect.fail(jobFailure(job))))
