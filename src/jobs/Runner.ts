/**
 * Runs one tracked job inside a graphile-worker task: claims it (a cancelled or finished job is a
 * no-op, so at-least-once delivery never repeats an effect), beats a heartbeat, watches for
 * cancellation and interrupts the work at its next safe point (Effect interruption), and records the
 * outcome. Expected failures become a safe error and a refund; a defect is retried by graphile-worker
 * until the attempts run out, then fails safely with a refund.
 */
import { Cause, Duration, Effect, Either, Exit, Fiber, Runtime, Schedule, Schema } from "effect"
import * as SqlError from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import * as PgClient from "@effect/sql-pg/PgClient"
import { pgArray, PgPool } from "../db/Database.js"
import { makeRows, rowsOf } from "../db/Query.js"
import { atMost } from "../domain/Bounded.js"
import type { JobId, RunId } from "../domain/Ids.js"
import { type JobContext, type JobDeferred, JobFailure, JobRow } from "./Job.js"
import { type JobClaim, Jobs, type PendingEvent } from "./Jobs.js"
import { type RegisteredRunKind, RunKinds } from "./RunKind.js"


export const HEARTBEAT_INTERVAL = Duration.seconds(1)

/**
 * How long a progress event may wait to be written: events that follow a write within this interval are
 * buffered and written together (with the next state change, or once the interval has passed), so a
 * short job writes its progress with its completion while a long job's events appear as they happen.
 */
export const PROGRESS_FLUSH_INTERVAL = Duration.millis(200)

/**
 * The progress events of one running job not yet written, and when its row was last written. Whatever
 * writes the job next takes them through `withPending`, under a lock, so buffered events keep their
 * order with the state change that writes them.
 */
const progressBuffer = (jobs: Jobs, jobId: JobId, resourceType: string, claim: JobClaim) =>
  Effect.gen(function*() {
    const lock = yield* Effect.makeSemaphore(1)
    const runtime = yield* Effect.runtime<never>()
    let events: Array<PendingEvent> = []
    let lastWrite = performance.now()
    // a plain timer, not a fiber: most jobs end before it fires (cleared by `close`)
    let timer: ReturnType<typeof setTimeout> | undefined
    // a state change's transaction holds the lock (see `holding`): progress meanwhile is only buffered
    let held = false
    const take = () => {
      const pending = events
      events = []
      lastWrite = performance.now()
      return pending
    }
    /** Takes the buffered events, to be written by the statement `use` runs, under the lock. */
    const withPending = <A, E, R>(use: (pending: ReadonlyArray<PendingEvent>) => Effect.Effect<A, E, R>) =>
      lock.withPermits(1)(Effect.suspend(() => use(take())))
    /**
     * Runs `use` (a transaction that ends with a write of the job taking the buffered events) under the
     * lock, taken before the transaction begins: a pending flush never waits on a row the transaction
     * locked (a conversion's output file locks its bundle row, which a job event's foreign key needs)
     * while the transaction waits for the flush's lock.
     */
    const holding = <A, E, R>(use: (take: () => ReadonlyArray<PendingEvent>) => Effect.Effect<A, E, R>) =>
      lock.withPermits(1)(Effect.suspend(() => {
        held = true
        return use(take)
      }).pipe(Effect.ensuring(Effect.sync(() => {
        held = false
      }))))
    /** Writes what is buffered as progress (the last event moves the job row's phase, percent and message). */
    const flush = withPending((pending) => {
      const last = pending[pending.length - 1]
      if (!last) return Effect.void
      return Effect.asVoid(jobs.transition(jobId, {
        claim,
        from: ["running"],
        state: "running",
        phase: last.phase,
        percent: last.percent,
        message: last.message,
        kind: last.kind,
        at: last.at,
        pending: pending.slice(0, -1),
        resourceType
      }))
    })
    const progress = (phase: string, percent: number, message: string): Effect.Effect<void> =>
      Effect.suspend(() => {
        const now = performance.now()
        events.push({ kind: "progress", phase, percent, message, at: now })
        if (held) return Effect.void // the state change being written takes it
        const wait = lastWrite + Duration.toMillis(PROGRESS_FLUSH_INTERVAL) - now
        if (wait <= 0) return flush // after a quiet spell: at once
        timer ??= setTimeout(() => {
          timer = undefined
          Runtime.runFork(runtime)(flush.pipe(
            Effect.catchAllCause((cause) => Effect.logWarning("progress events not written", cause).pipe(Effect.annotateLogs({ jobId })))
          ))
        }, wait)
        return Effect.void
      })
    /** The job's run on this worker is over: a flush not yet due is not needed (its events went with the outcome, or nowhere). */
    const close = Effect.sync(() => {
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
    })
    return { progress, withPending, holding, close } as const
  })

/** The progress buffer of one running job (see `progressBuffer`). */
type ProgressBuffer = Effect.Effect.Success<ReturnType<typeof progressBuffer>>
/** A job as its claim moved it to running. */
type ClaimedJob = NonNullable<Effect.Effect.Success<ReturnType<Jobs["transition"]>>>

/** Claims the job for this worker: queued (or running, after a worker stopped) becomes running at the kind's first phase. */
const claimJob = (jobs: Jobs, kind: RegisteredRunKind, jobId: JobId, workerId: string) => {
  const first = kind.phases[0]
  return jobs.transition(jobId, {
    from: ["queued", "running"],
    state: "running",
    phase: first?.name ?? "running",
    percent: first?.percent ?? 5,
    message: "Started.",
    kind: "started",
    attemptDelta: 1,
    workerId,
    resourceType: kind.resourceType,
    ...(kind.claimLoads ? { load: kind.claimLoads } : {})
  })
}

/**
 * The context the kind's work runs with: its progress goes through the buffer, and it may complete the
 * job itself (`complete`, `completeWith`). `completion` completes it for a work that did not
 * (`completedByWork` tells which).
 */
const workContext = (
  sql: PgClient.PgClient,
  jobs: Jobs,
  kind: RegisteredRunKind,
  jobId: JobId,
  claimed: ClaimedJob,
  claim: JobClaim,
  buffer: ProgressBuffer
) => {
  const { resourceType } = kind
  let completedByWork = false
  const completing = (result: unknown, pending: ReadonlyArray<PendingEvent>, run?: Statement.Fragment) =>
    jobs.transition(jobId, {
      claim,
      from: ["running"],
      state: "completed",
      phase: "completed",
      percent: 100,
      message: "Completed.",
      kind: "completed",
      result,
      pending,
      resourceType,
      ...(run ? { runSet: run } : {})
    })
  const completion = (result: unknown, run?: Statement.Fragment) => buffer.withPending((pending) => completing(result, pending, run))
  const cancelledMeanwhile = () => new JobFailure({ code: "cancelled", message: "The job was cancelled before it completed." })
  const { loaded, ...claimedJob } = claimed
  const ctx: JobContext = {
    job: claimedJob,
    loaded,
    progress: buffer.progress,
    phase: (name, message) => buffer.progress(name, kind.phases.find((p) => p.name === name)?.percent ?? claimed.percent, message),
    complete: <A, E, R>(write: Effect.Effect<A, E, R>): Effect.Effect<A, E | JobFailure, R> =>
      buffer.holding((take) =>
        Effect.gen(function*() {
          const value = yield* write
          const done = yield* completing(value, take())
          if (!done) return yield* cancelledMeanwhile()
          return value
        }).pipe(sql.withTransaction)
      ).pipe(
        Effect.catchIf((e): e is SqlError.SqlError => e instanceof SqlError.SqlError, (e) => Effect.die(e)),
        Effect.tap(() => {
          completedByWork = true
        })
      ),
    completeWith: <A>(result: A, run?: Statement.Fragment): Effect.Effect<A, JobFailure> =>
      Effect.flatMap(completion(result, run), (done) => {
        if (!done) return Effect.fail(cancelledMeanwhile())
        completedByWork = true
        return Effect.succeed(result)
      })
  }
  return { ctx, completion, completedByWork: () => completedByWork } as const
}

/**
 * Runs the work under the heartbeat and cancellation watch, to its outcome: `done` with the work's
 * result, `stopped` when the watch interrupted it, a failure with the work's defect; fails with the
 * heartbeat's cause when the heartbeat could not be written.
 */
const watchedRun = <E>(jobs: Jobs, jobId: JobId, claim: JobClaim, work: Effect.Effect<unknown, E>) =>
  Effect.gen(function*() {
    // Heartbeat + cancellation watch: ends (and so interrupts the work) once the claim no longer holds the
    // job (cancelled, handed back). The claim has just beaten, so the first beat is an interval later (a
    // short job never beats).
    // A beat that fails is tried again twice (a dropped connection, a busy pool); three in a row end the run.
    const beat = jobs.heartbeat(jobId, claim).pipe(
      Effect.catchAllDefect(Effect.fail),
      Effect.retry({ times: 2, schedule: Schedule.spaced(HEARTBEAT_INTERVAL) })
    )
    const watch = Effect.sleep(HEARTBEAT_INTERVAL).pipe(
      Effect.zipRight(Effect.repeat(beat, { schedule: Schedule.spaced(HEARTBEAT_INTERVAL), while: (running) => running }))
    )

    // the work and the watch in fibers of their own; the watch interrupts the work when the job stopped
    // running. (Awaited, not joined: nothing of the work's fiber state comes back into this one.)
    // A heartbeat that cannot be written (the database is away) stops the work as well: its outcome could
    // not be recorded either, and the job runs again once the database is back (src/jobs/Worker.ts).
    let stopped = false
    let heartbeatLost: Cause.Cause<unknown> | undefined
    const workFiber = yield* Effect.fork(Effect.either(work))
    const watchFiber = yield* Effect.fork(Effect.flatMap(Effect.exit(watch), (watched) => {
      stopped = true
      if (Exit.isFailure(watched)) heartbeatLost = watched.cause
      return Fiber.interrupt(workFiber)
    }))
    const exit = yield* Fiber.await(workFiber)
    yield* Fiber.interrupt(watchFiber)
    if (heartbeatLost) return yield* Effect.failCause(heartbeatLost)
    return Exit.isFailure(exit) && stopped
      ? Exit.succeed({ kind: "stopped" as const })
      : Exit.map(exit, (result) => ({ kind: "done" as const, result }))
  })

/** How the work ended: see `watchedRun`. */
type Outcome = Effect.Effect.Success<ReturnType<typeof watchedRun<JobFailure | JobDeferred>>>

/**
 * Records the work's outcome on the job: a defect is retried while attempts remain (else the job fails
 * with a refund), a stop writes nothing, a deferral requeues it, a failure fails it with a refund, and a
 * result completes it unless the work completed it itself.
 */
const recordOutcome = (
  jobs: Jobs,
  kind: RegisteredRunKind,
  jobId: JobId,
  claim: JobClaim,
  buffer: ProgressBuffer,
  outcome: Outcome,
  work: ReturnType<typeof workContext>
) =>
  Effect.gen(function*() {
    const { resourceType } = kind
    if (outcome._tag === "Failure") {
      // a defect: let graphile-worker retry while attempts remain, else fail safely
      const current = yield* jobs.find(jobId)
      if (current && current.attempts < current.maxAttempts) {
        yield* buffer.withPending((pending) =>
          jobs.transition(jobId, {
            claim,
            from: ["running"],
            state: "queued",
            message: `Attempt ${current.attempts} failed unexpectedly; retrying.`,
            kind: "retry_scheduled",
            pending,
            resourceType
          })
        )
        return yield* Effect.failCause(outcome.cause)
      }
      yield* Effect.logError("job failed after its last attempt", outcome.cause).pipe(Effect.annotateLogs({ jobId }))
      yield* buffer.withPending((pending) =>
        failAndRefund(jobId, "internal_error", "The job failed unexpectedly; the credits were refunded.", 0, { resourceType, pending, claim })
      )
      return
    }
    const value = outcome.value
    if (value.kind === "stopped") {
      // cancelled (or handed back): the job is not running any more, so buffered progress is not written
      yield* Effect.logInfo("job stopped at a safe point").pipe(Effect.annotateLogs({ jobId }))
      return
    }
    if (Either.isLeft(value.result)) {
      const failure = value.result.left
      if (failure._tag === "JobDeferred") {
        yield* buffer.withPending((pending) =>
          jobs.requeueLater(jobId, { task: kind.task, seconds: failure.seconds, message: failure.message, resourceType, pending, claim })
        )
        return
      }
      yield* buffer.withPending((pending) =>
        failAndRefund(jobId, failure.code, failure.message, failure.keepCredits, { resourceType, pending, claim })
      )
      return
    }
    if (!work.completedByWork()) yield* work.completion(value.result.right)
  })

/** Runs the job `jobId` of `kind` on this worker (the graphile-worker task of every kind). */
export const runTrackedJob = (kind: RegisteredRunKind, jobId: JobId, workerId: string) =>
  Effect.gen(function*() {
    const jobs = yield* Jobs
    const sql = yield* PgClient.PgClient
    const { resourceType } = kind
    const claimed = yield* claimJob(jobs, kind, jobId, workerId)
    if (!claimed) return // cancelled, finished, or unknown: nothing to do, and nothing to do twice
    const claim: JobClaim = { workerId, attempts: claimed.attempts }

    const buffer = yield* progressBuffer(jobs, jobId, resourceType, claim)
    // Interrupted (the worker drains and the job ran past its grace, or the worker lost its database): the
    // job goes back to the queue at once when the database answers, else it is claimed again after the
    // worker's restart or by the stale-job recovery. Best effort, bounded: the interruption must not wait.
    yield* Effect.addFinalizer((exit) =>
      Exit.isInterrupted(exit)
        ? jobs.transition(jobId, {
          claim,
          from: ["running"],
          state: "queued",
          message: "The worker stopped before the job finished; it will run again.",
          kind: "worker_stopped",
          resourceType
        }).pipe(Effect.catchAllCause(() => Effect.void), atMost(Duration.seconds(2)))
        : Effect.void
    )
    // a flush of progress events not yet due ends with the job's run here
    yield* Effect.addFinalizer(() => buffer.close)
    const context = workContext(sql, jobs, kind, jobId, claimed, claim, buffer)
    const outcome = yield* watchedRun(jobs, jobId, claim, kind.work(context.ctx))
    yield* recordOutcome(jobs, kind, jobId, claim, buffer, outcome, context)
  }).pipe(Effect.scoped)

/** The default `recordFailure`: the run table's error_code and error_message. */
const recordOnRunTable = (table: string, runId: RunId, failure: { readonly code: string; readonly message: string }) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    sql`UPDATE ${sql(table)} SET error_code = ${failure.code}, error_message = ${failure.message}, updated_at = now()
        WHERE id = ${runId}`)

/**
 * Fails a job that has not finished: the job row, its event, the run record (its kind's
 * `recordFailure`) and the refund of everything but `keepCredits`, in one transaction.
 */
export const failAndRefund = (
  jobId: JobId,
  code: string,
  message: string,
  keepCredits: number,
  job: { readonly resourceType: string; readonly pending?: ReadonlyArray<PendingEvent>; readonly claim?: JobClaim }
) =>
  Effect.gen(function*() {
    const jobs = yield* Jobs
    const kinds = yield* RunKinds
    const sql = yield* PgClient.PgClient
    yield* Effect.gen(function*() {
      const failed = yield* jobs.transition(jobId, {
        ...(job.claim ? { claim: job.claim } : {}),
        from: ["queued", "running", "paused"],
        state: "failed",
        message,
        kind: "failed",
        errorCode: code,
        errorMessage: message,
        resourceType: job.resourceType,
        pending: job.pending
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

const StaleJobRows = rowsOf("stale job", Schema.Struct({
  ...JobRow.pick("id", "attempts", "maxAttempts", "resourceType").fields,
  workerId: Schema.NullOr(Schema.String)
}))
const LostWorkerRows = rowsOf("lost worker", Schema.Struct({ lockedBy: Schema.String }))

/**
 * Jobs whose worker stopped beating (killed, crashed, machine lost) are handed back to graphile-worker
 * while attempts remain, or failed with a refund. One transaction: every stale job is moved in our table
 * first, and only then are the lost workers' graphile-worker jobs unlocked, at the commit. The other way
 * round, a healthy worker could be handed a job and claim it before this pass moved it back to queued,
 * and then find it no longer running when it completes (a test saw the job failed as cancelled). The
 * row locks also keep two workers' passes off the same jobs.
 */
export const recoverStaleJobs = (staleAfter: Duration.Duration) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const rows = makeRows(yield* PgPool)
    const jobs = yield* Jobs
    return yield* Effect.gen(function*() {
      const stale = yield* rows(StaleJobRows, sql`
        SELECT id, worker_id, attempts, max_attempts, resource_type FROM jobs
        WHERE state = 'running' AND heartbeat_at < now() - make_interval(secs => ${Duration.toSeconds(staleAfter)})
        FOR UPDATE SKIP LOCKED`)
      for (const job of stale) {
        if (job.attempts < job.maxAttempts) {
          yield* jobs.transition(job.id, {
            from: ["running"],
            state: "queued",
            message: "The worker stopped responding; the job will be retried.",
            kind: "worker_lost",
            resourceType: job.resourceType
          })
        } else {
          yield* sql`SELECT graphile_worker.remove_job(${job.id}::text)`
          yield* failAndRefund(job.id, "worker_lost", "The worker running this job stopped responding; the credits were refunded.", 0, job)
        }
      }
      // A job still queued in our table while its graphile-worker job has been locked that long was fetched
      // by a worker that died before claiming it (a live one claims at once): that worker is lost too.
      const neverClaimed = yield* rows(LostWorkerRows, sql`
        SELECT DISTINCT w.locked_by FROM graphile_worker.jobs w JOIN jobs j ON w.key = j.id::text
        WHERE j.state = 'queued' AND w.locked_by IS NOT NULL
          AND w.locked_at < now() - make_interval(secs => ${Duration.toSeconds(staleAfter)})`)
      const lostWorkers = [...new Set([
        ...stale.flatMap((job) => (job.workerId ? [job.workerId] : [])),
        ...neverClaimed.map((row) => row.lockedBy)
      ])]
      if (lostWorkers.length > 0) {
        yield* sql`SELECT graphile_worker.force_unlock_workers(${pgArray(lostWorkers)}::text[])`
      }
      return stale.length
    }).pipe(sql.withTransaction, Effect.orDie)
  })
