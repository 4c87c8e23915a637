/**
 * The graphile-worker runner as a scoped layer: started for roles `all` and `worker`, stopped (drained:
 * running tasks finish, no new ones are picked up) when the scope closes. Tasks are Effects run on the
 * runtime of this layer, so they see the same services as the API.
 *
 * It knows no feature: the composition root provides `WorkerTasks` (plain tasks such as email delivery)
 * and the `RunKinds` registry, whose every kind becomes a task that runs `runTrackedJob`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Context, Effect, FiberRef, Layer, LogLevel, Runtime } from "effect"
import { Logger, run, type Task, type TaskList } from "graphile-worker"
import * as Os from "node:os"
import { AppConfig } from "../config/AppConfig.js"
import { PgPool } from "../db/Database.js"
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
const jobIdOf = (payload: unknown): string | undefined => {
  const jobId = (payload as { jobId?: unknown } | null)?.jobId
  return typeof jobId === "string" && uuid.test(jobId) ? jobId : undefined
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

export const WorkerLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const pool = yield* PgPool
    const config = yield* AppConfig
    const tasks = { rubr_heartbeat: heartbeatTask, ...(yield* WorkerTasks), ...(yield* runKindTasks) }
    const runtime = yield* Effect.runtime<SqlClient.SqlClient>()
    const runPromise = Runtime.runPromise(runtime)
    const logRuntime = yield* Effect.runtime<never>()
    const minimumLogLevel = yield* FiberRef.get(FiberRef.currentMinimumLogLevel)
    const taskList: TaskList = Object.fromEntries(
      Object.entries(tasks).map(([name, task]) => [
        name,
        (payload: unknown, helpers: TaskHelpers) =>
          runPromise(task(payload, helpers).pipe(Effect.withSpan(`Worker.${name}`, { attributes: { jobId: helpers.job.id } })))
      ])
    )
    const runner = yield* Effect.acquireRelease(
      Effect.promise(() =>
        run({
          pgPool: pool,
          taskList,
          concurrency: config.worker.concurrency,
          pollInterval: config.worker.pollIntervalMs,
          noHandleSignals: true,
          crontab: "",
          logger: workerLogger(logRuntime, minimumLogLevel)
        })
      ),
      (runner) =>
        Effect.promise(() => runner.stop()).pipe(
          Effect.zipRight(Effect.logInfo("worker drained and stopped"))
        )
    )
    yield* Effect.logInfo("worker started").pipe(Effect.annotateLogs({ workerId, tasks: Object.keys(tasks) }))
    return runner
  })
)
