/**
 * The graphile-worker runner as a scoped layer: started for roles `all` and `worker`, stopped (drained:
 * no new job is picked up, running tasks get the shutdown timeout less 5 s to finish, then stop at a safe
 * point and are handed back) when the scope closes. A runner that loses its database is replaced by a
 * new one once the database answers (`WorkerLive`). Tasks are Effects run as fibers of their runner, with
 * the services of this layer, so they see the same services as the API.
 *
 * It knows no feature: the composition root provides `WorkerTasks` (plain tasks such as email delivery)
 * and the `RunKinds` registry, whose every kind becomes a task that runs `runTrackedJob`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Context, Deferred, Duration, Effect, Exit, FiberId, FiberRef, FiberSet, Layer, LogLevel, Runtime, Schedule } from "effect"
import { Logger, run, type Task, type TaskList } from "graphile-worker"
import { EventEmitter } from "node:events"
import * as Os from "node:os"
import type { Pool } from "pg"
import { AppConfig } from "../config/AppConfig.js"
import { describeDatabaseError, isDatabaseUnavailable } from "../db/Availability.js"
import { PgPool } from "../db/Database.js"
import { atMost } from "../domain/Bounded.js"
import { JobId } from "../domain/Ids.js"
import { runTrackedJob } from "./Runner.js"
import { RunKinds } from "./RunKind.js"

export type TaskHelpers = Parameters<Task>[1]
export type EffectTask<R> = (payload: unknown, helpers: TaskHelpers) => Effect.Effect<void, unknown, R>

/** Plain tasks (not kinds of run) this process can run, provided by the composition root. */
export class WorkerTasks extends Context.Tag("rubr/WorkerTasks")<
  WorkerTasks,
  Record<string, EffectTask<SqlClient.SqlClient>>
>() {}

/** The payload every run-kind task is queued with (Jobs.create): `{ jobId }`, a UUID. */
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const jobIdOf = (payload: unknown): JobId | undefined => {
  const jobId = (payload as { jobId?: unknown } | null)?.jobId
  return typeof jobId === "string" && uuid.test(jobId) ? JobId.make(jobId) : undefined
}

export const workerId = `${Os.hostname()}:${process.pid}`

/** Proves the wiring end to end: a job queued in SQL runs here and leaves a trace in the database. */
export const heartbeatTask: EffectTask<SqlClient.SqlClient> = (payload) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const probe = payload as { probe?: unknown; enqueuedAt?: unknown } | null
    if (probe?.probe === true && typeof probe.enqueuedAt === "string") {
      yield* sql`INSERT INTO worker_pickups (worker_id, enqueued_at, started_at)
                 VALUES (${workerId}, ${probe.enqueuedAt}::timestamptz, clock_timestamp())`
    }
    yield* sql`
      INSERT INTO worker_heartbeats (worker_id, jobs_done, last_job_at) VALUES (${workerId}, 1, now())
      ON CONFLICT (worker_id) DO UPDATE SET jobs_done = worker_heartbeats.jobs_done + 1, last_job_at = now()`
  })

/**
 * graphile-worker's own log lines go through the Effect logger, so they are JSON like the rest. It logs a
 * few debug lines per job: a line below the process's minimum level is dropped here, before it costs a
 * fiber (issue 16).
 */
const workerLogger = (runtime: Runtime.Runtime<never>, minimum: LogLevel.LogLevel) =>
  new Logger((scope) => (level, message, meta) => {
    const effectLevel = level === "error"
      ? LogLevel.Error
      : level === "warning"
      ? LogLevel.Warning
      : level === "info"
      ? LogLevel.Debug
      : LogLevel.Trace
    if (LogLevel.lessThan(effectLevel, minimum)) return
    Runtime.runFork(runtime)(
      Effect.logWithLevel(effectLevel, message).pipe(Effect.annotateLogs({ component: "graphile-worker", ...scope, ...(meta ?? {}) }))
    )
  })

/** One task per registered kind of run: decode the job id, then run the tracked job. */
const runKindTasks = Effect.gen(function*() {
  const kinds = yield* RunKinds
  const context = yield* Effect.context<Effect.Effect.Context<ReturnType<typeof runTrackedJob>>>()
  return Object.fromEntries(kinds.all.map((kind) => {
    const task: EffectTask<never> = (payload, helpers) => {
      const jobId = jobIdOf(payload)
      return jobId === undefined
        ? Effect.dieMessage(`${kind.task}: the payload has no job id: ${JSON.stringify(payload)}`)
        : Effect.provide(runTrackedJob(kind, jobId, helpers.job.locked_by ?? "unknown-worker"), context)
    }
    return [kind.task, task] as const
  }))
})

/** Whether the database answers a SELECT 1 within 2 s. */
const answers = (pool: Pool) =>
  Effect.tryPromise(() => pool.query("SELECT 1")).pipe(
    Effect.timeoutFail({ duration: Duration.seconds(2), onTimeout: () => "no answer" }),
    Effect.match({ onFailure: () => false, onSuccess: () => true })
  )

/** SELECT 1 until the database answers, every 0.5 s at first, then every 5 s. */
const untilDatabaseAnswers = (pool: Pool) =>
  Effect.tryPromise(() => pool.query("SELECT 1")).pipe(
    Effect.retry(Schedule.exponential(Duration.millis(500)).pipe(Schedule.either(Schedule.spaced(Duration.seconds(5))))),
    Effect.asVoid
  )

interface Generation {
  /** graphile-worker's pool id: what its jobs are locked by */
  readonly poolId: string | undefined
  /** why it ended on its own (its database went away, or graphile-worker gave up) */
  readonly lost: string
}

/**
 * One graphile-worker runner, from its start to its end. It ends on its own when graphile-worker stops
 * (it cannot record a job's completion or failure: "the queue is in an inconsistent state") or when a task
 * fails because the database is unreachable; it is stopped, drained, when the worker's scope closes. Its
 * tasks run as fibers of this generation only: whatever is still running when it ends is interrupted, so
 * nothing of it acts on the jobs its pool held once they are unlocked for the next generation.
 */
const runGeneration = (options: {
  readonly pool: Pool
  readonly tasks: Record<string, EffectTask<SqlClient.SqlClient>>
  readonly concurrency: number
  readonly pollIntervalMs: number
  readonly abortAfterMs: number
  readonly logger: Logger
}) =>
  Effect.gen(function*() {
    const lost = yield* Deferred.make<string>()
    // created before the runner, so its fibers are interrupted after the runner's drain (finalizers run in reverse)
    const runFork = yield* FiberSet.makeRuntime<SqlClient.SqlClient>()
    const events = new EventEmitter()
    let poolId: string | undefined
    events.on("pool:create", ({ workerPool }: { workerPool: { id: string } }) => {
      poolId = workerPool.id
    })
    const taskList: TaskList = Object.fromEntries(
      Object.entries(options.tasks).map(([name, task]) => [
        name,
        (payload: unknown, helpers: TaskHelpers) =>
          new Promise<void>((resolve, reject) => {
            const fiber = runFork(task(payload, helpers).pipe(
              Effect.withSpan(`Worker.${name}`, { attributes: { jobId: helpers.job.id } }),
              // a task that could not reach the database: lost, unless the database answers at once (one
              // connection dropped, a moment's lack of connections: the job retries as any failure does)
              Effect.tapErrorCause((cause) =>
                isDatabaseUnavailable(cause)
                  ? Effect.forkDaemon(answers(options.pool).pipe(
                    Effect.flatMap((up) => up ? Effect.void : Deferred.succeed(lost, `a task could not reach the database: ${describeDatabaseError(cause)}`))
                  ))
                  : Effect.void
              )
            ))
            // the drain's grace is over (graphile-worker aborts its tasks): stop at the next safe point
            const abort = () => fiber.unsafeInterruptAsFork(FiberId.none)
            helpers.abortSignal?.addEventListener("abort", abort, { once: true })
            fiber.addObserver((exit) => {
              helpers.abortSignal?.removeEventListener("abort", abort)
              if (Exit.isSuccess(exit)) resolve()
              else reject(Runtime.makeFiberFailure(exit.cause))
            })
          })
      ])
    )
    const runner = yield* Effect.acquireRelease(
      Effect.tryPromise(() =>
        run({
          pgPool: options.pool,
          taskList,
          concurrency: options.concurrency,
          pollInterval: options.pollIntervalMs,
          noHandleSignals: true,
          crontab: "",
          logger: options.logger,
          events,
          // running jobs get this long to finish when the worker drains, then are interrupted (and handed back)
          gracefulShutdownAbortTimeout: options.abortAfterMs,
          // completions and failures go through graphile-worker's batcher, whose errors end the runner (and so
          // this generation) instead of rejecting a promise nobody awaits
          preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } }
        })
      ),
      // Bounded: graphile-worker's drain can wait forever on batches that failed while the database was
      // away. A runner given up on is deactivated (it fetches no job again); its tasks are interrupted below.
      // A drain waits for the running jobs, unless the database stops answering: they could not finish.
      (runner, exit) => {
        const stopped = Effect.promise(() => runner.stop().catch(() => undefined))
        if (!Exit.isInterrupted(exit)) return stopped.pipe(atMost(Duration.seconds(3)))
        const databaseGone = Effect.repeat(answers(options.pool), { schedule: Schedule.spaced(Duration.seconds(1)), while: (up) => up })
        return Effect.raceFirst(stopped, databaseGone).pipe(atMost(Duration.millis(options.abortAfterMs + 3000)))
      }
    )
    runner.promise.then(
      () => Deferred.unsafeDone(lost, Exit.succeed("graphile-worker stopped")),
      (error) => Deferred.unsafeDone(lost, Exit.succeed(`graphile-worker stopped: ${describeDatabaseError(error)}`))
    )
    const reason = yield* Deferred.await(lost)
    return { poolId, lost: reason } satisfies Generation
  }).pipe(
    Effect.scoped,
    // run() itself failed (the database went away as it started): try again once it is back
    Effect.catchAll((error) => Effect.succeed<Generation>({ poolId: undefined, lost: `graphile-worker did not start: ${describeDatabaseError(error)}` }))
  )

/**
 * The worker: graphile-worker runners one after another, for as long as the scope is open. A runner that
 * loses its database ends (see `runGeneration`); the next starts once the database answers again, after
 * unlocking the jobs the lost one held, which it then claims and runs again (src/jobs/Runner.ts: a claim
 * counts an attempt; the last attempt fails the job with a refund). The process never exits for it.
 */
export const WorkerLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const pool = yield* PgPool
    const config = yield* AppConfig
    const tasks = { rubr_heartbeat: heartbeatTask, ...(yield* WorkerTasks), ...(yield* runKindTasks) }
    const logRuntime = yield* Effect.runtime<never>()
    const minimumLogLevel = yield* FiberRef.get(FiberRef.currentMinimumLogLevel)
    const options = {
      pool,
      tasks,
      concurrency: config.worker.concurrency,
      pollIntervalMs: config.worker.pollIntervalMs,
      // the drain leaves a few seconds of SERVICE_SHUTDOWN_TIMEOUT_S for handing jobs back and closing the pool
      abortAfterMs: Math.max(1000, config.shutdownTimeoutS * 1000 - 5000),
      logger: workerLogger(logRuntime, minimumLogLevel)
    }
    const supervise = Effect.gen(function*() {
      let previous: string | undefined
      for (let generation = 1;; generation++) {
        if (generation > 1) {
          yield* untilDatabaseAnswers(pool)
          yield* Effect.logInfo("the database answers again; the worker restarts")
        }
        if (previous) {
          // the lost runner's jobs are unlocked for the new one (its fibers are gone: nothing acts on them twice)
          yield* Effect.tryPromise(() => pool.query("SELECT graphile_worker.force_unlock_workers($1::text[])", [[previous]])).pipe(
            Effect.retry(Schedule.spaced(Duration.seconds(1))),
            Effect.orDie
          )
        }
        const ended = yield* runGeneration(options)
        previous = ended.poolId ?? previous
        yield* Effect.logWarning("the worker lost its database; it restarts once the database answers").pipe(
          Effect.annotateLogs({ reason: ended.lost, generation })
        )
      }
    })
    // added first, so it runs last: after the supervisor (and the runner it runs) has stopped
    yield* Effect.addFinalizer(() => Effect.logInfo("worker drained and stopped"))
    yield* Effect.forkScoped(supervise)
    yield* Effect.logInfo("worker started").pipe(Effect.annotateLogs({ workerId, tasks: Object.keys(tasks) }))
  })
)
