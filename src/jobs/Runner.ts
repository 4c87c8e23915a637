/**
 * Runs one tracked job inside a graphile-worker task: claims it (a cancelled or finished job is a
 * no-op, so at-least-once delivery never repeats an effect), beats a heartbeat, watches for
 * cancellation and interrupts the work at its next safe point (Effect interruption), and records the
 * outcome. Expected failures become a safe error and a refund; a defect is retried by graphile-worker
 * until the attempts run out, then fails safely with a refund.
 */
import { Duration, Effect, Either, Schedule, Schema } from "effect"
import * as SqlError from "@effect/sql/SqlError"
import * as PgClient from "@effect/sql-pg/PgClient"
import { type JobRow, Jobs } from "./Jobs.js"
import { type RegisteredRunKind, RunKinds } from "./RunKind.js"

/** An expected, user-visible failure of a job: its code and message are safe to show. */
export class JobFailure extends Schema.TaggedError<JobFailure>()("JobFailure", {
  code: Schema.String,
  message: Schema.String,
  /** credits kept for work done before the failure (e.g. provider usage); the rest is refunded */
  keepCredits: Schema.optionalWith(Schema.Number, { default: () => 0 })
}) {}

/**
 * Not a failure: the work cannot go on yet (it waits for another run) and asks to run again in
 * `seconds`. The job goes back to queued, keeps its attempts, and a worker picks it up then.
 */
export class JobDeferred extends Schema.TaggedError<JobDeferred>()("JobDeferred", {
  seconds: Schema.Number,
  message: Schema.String
}) {}

export interface JobContext {
  readonly job: JobRow
  /** Enters one of the kind's phases (its declared percent) with a message. */
  readonly phase: (name: string, message: string) => Effect.Effect<void>
  /** A progress step with an explicit percent. */
  readonly progress: (phase: string, percent: number, message: string) => Effect.Effect<void>
  /**
   * Runs `write` (the work's result: rows, files, reconciliation) and completes the job in one
   * transaction, under the job's row lock: both happen or neither. A job cancelled meanwhile keeps
   * nothing; a cancel arriving during the write waits for it and then finds the job completed (409).
   * `write` returns the job's safe result metadata.
   */
  readonly complete: <A, E, R>(write: Effect.Effect<A, E, R>) => Effect.Effect<A, E | JobFailure, R>
}

export const HEARTBEAT_INTERVAL = Duration.seconds(1)

/** Runs the job `jobId` of `kind` on this worker (the graphile-worker task of every kind). */
export const runTrackedJob = (kind: RegisteredRunKind, jobId: string, workerId: string) =>
  Effect.gen(function*() {
    const jobs = yield* Jobs
    const sql = yield* PgClient.PgClient
    const first = kind.phases[0]
    const claimed = yield* jobs.transition(jobId, {
      from: ["queued", "running"],
      state: "running",
      phase: first?.name ?? "running",
      percent: first?.percent ?? 5,
      message: "Started.",
      kind: "started",
      attemptDelta: 1,
      workerId
    })
    if (!claimed) return // cancelled, finished, or unknown: nothing to do, and nothing to do twice

    const progress = (phase: string, percent: number, message: string) => Effect.asVoid(jobs.progress(jobId, phase, percent, message))
    let completedByWork = false
    const completion = (result: unknown) =>
      jobs.transition(jobId, {
        from: ["running"],
        state: "completed",
        phase: "completed",
        percent: 100,
        message: "Completed.",
        kind: "completed",
        result
      })
    const ctx: JobContext = {
      job: claimed,
      progress,
      phase: (name, message) => progress(name, kind.phases.find((p) => p.name === name)?.percent ?? claimed.percent, message),
      complete: <A, E, R>(write: Effect.Effect<A, E, R>): Effect.Effect<A, E | JobFailure, R> =>
        Effect.gen(function*() {
          const value = yield* write
          const done = yield* completion(value)
          if (!done) return yield* new JobFailure({ code: "cancelled", message: "The job was cancelled before it completed." })
          return value
        }).pipe(
          sql.withTransaction,
          Effect.catchIf((e): e is SqlError.SqlError => e instanceof SqlError.SqlError, (e) => Effect.die(e)),
          Effect.tap(() => {
            completedByWork = true
          })
        )
    }
    const work = kind.work(ctx)

    // Heartbeat + cancellation watch: ends (and so interrupts the work) once the job is no longer running.
    const watch = sql<{ state: string }>`
      UPDATE jobs SET heartbeat_at = now() WHERE id = ${jobId} AND state = 'running' RETURNING state`.pipe(
      Effect.orDie,
      Effect.repeat({ schedule: Schedule.spaced(HEARTBEAT_INTERVAL), while: (rows) => rows.length > 0 }),
      Effect.as("stopped" as const)
    )

    const outcome = yield* Effect.raceFirst(
      Effect.either(work).pipe(Effect.map((result) => ({ kind: "done" as const, result }))),
      Effect.map(watch, () => ({ kind: "stopped" as const }))
    ).pipe(Effect.exit)

    if (outcome._tag === "Failure") {
      // a defect: let graphile-worker retry while attempts remain, else fail safely
      const current = yield* jobs.find(jobId)
      if (current && current.attempts < current.maxAttempts) {
        yield* jobs.transition(jobId, {
          from: ["running"],
          state: "queued",
          message: `Attempt ${current.attempts} failed unexpectedly; retrying.`,
          kind: "retry_scheduled"
        })
        return yield* Effect.failCause(outcome.cause)
      }
      yield* Effect.logError("job failed after its last attempt", outcome.cause).pipe(Effect.annotateLogs({ jobId }))
      yield* failAndRefund(jobId, "internal_error", "The job failed unexpectedly; the credits were refunded.")
      return
    }
    const value = outcome.value
    if (value.kind === "stopped") {
      yield* Effect.logInfo("job stopped at a safe point").pipe(Effect.annotateLogs({ jobId }))
      return
    }
    if (Either.isLeft(value.result)) {
      const failure = value.result.left
      if (failure._tag === "JobDeferred") {
        yield* jobs.requeueLater(jobId, kind.task, failure.seconds, failure.message)
        return
      }
      yield* failAndRefund(jobId, failure.code, failure.message, failure.keepCredits)
      return
    }
    if (!completedByWork) yield* completion(value.result.right)
  })

/** The default `recordFailure`: the run table's error_code and error_message. */
const recordOnRunTable = (table: string, runId: string, failure: { readonly code: string; readonly message: string }) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    sql`UPDATE ${sql(table)} SET error_code = ${failure.code}, error_message = ${failure.message}, updated_at = now()
        WHERE id = ${runId}`)

/**
 * Fails a job that has not finished: the job row, its event, the run record (its kind's
 * `recordFailure`) and the refund of everything but `keepCredits`, in one transaction.
 */
export const failAndRefund = (jobId: string, code: string, message: string, keepCredits = 0) =>
  Effect.gen(function*() {
    const jobs = yield* Jobs
    const kinds = yield* RunKinds
    const sql = yield* PgClient.PgClient
    yield* Effect.gen(function*() {
      const failed = yield* jobs.transition(jobId, {
        from: ["queued", "running", "paused"],
        state: "failed",
        message,
        kind: "failed",
        errorCode: code,
        errorMessage: message
      })
      if (failed) {
        yield* jobs.refundRemaining(failed.userId, failed.resourceType, failed.resourceId, `${failed.kind}_failed_refund`, failed.artifactBundleId, keepCredits)
        const kind = kinds.byResourceType(failed.resourceType)
        if (kind) {
          const failure = { code, message }
          yield* kind.recordFailure ? kind.recordFailure(failed.resourceId, failure) : recordOnRunTable(kind.table, failed.resourceId, failure)
        }
      }
    }).pipe(sql.withTransaction, Effect.orDie)
  })

/**
 * Jobs whose worker stopped beating (killed, crashed, machine lost) are handed back to graphile-worker
 * (force-unlocking that worker's jobs) while attempts remain, or failed with a refund.
 */
export const recoverStaleJobs = (staleAfter: Duration.Duration) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const jobs = yield* Jobs
    const stale = yield* sql<{ id: string; workerId: string | null; attempts: number; maxAttempts: number }>`
      SELECT id, worker_id, attempts, max_attempts FROM jobs
      WHERE state = 'running' AND heartbeat_at < now() - make_interval(secs => ${Duration.toSeconds(staleAfter)})
      FOR UPDATE SKIP LOCKED`.pipe(Effect.orDie)
    for (const job of stale) {
      if (job.workerId) {
        yield* sql`SELECT graphile_worker.force_unlock_workers(ARRAY[${job.workerId}]::text[])`.pipe(Effect.orDie)
      }
      if (job.attempts < job.maxAttempts) {
        yield* jobs.transition(job.id, {
          from: ["running"],
          state: "queued",
          message: "The worker stopped responding; the job will be retried.",
          kind: "worker_lost"
        })
      } else {
        yield* sql`SELECT graphile_worker.remove_job(${job.id}::text)`.pipe(Effect.orDie)
        yield* failAndRefund(job.id, "worker_lost", "The worker running this job stopped responding; the credits were refunded.")
      }
    }
    return stale.length
  })
