/**
 * The graphile-worker runner as a scoped layer: started for roles `all` and `worker`, stopped (drained:
 * running tasks finish, no new ones are picked up) when the scope closes. Tasks are Effects run on the
 * runtime of this layer, so they see the same services as the API.
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Runtime } from "effect"
import { Logger, run, type Task, type TaskList } from "graphile-worker"
import * as Os from "node:os"
import { AppConfig } from "../config/AppConfig.js"
import { PgPool } from "../db/Database.js"
import { emailTasks } from "../email/Delivery.js"
import { auditTasks } from "../audits/Task.js"

export type TaskHelpers = Parameters<Task>[1]
export type EffectTask<R> = (payload: unknown, helpers: TaskHelpers) => Effect.Effect<void, unknown, R>

/** The tasks this process can run; each feature adds its own to the record. */
export class WorkerTasks extends Context.Tag("rubr/WorkerTasks")<
  WorkerTasks,
  Record<string, EffectTask<SqlClient.SqlClient>>
>() {}

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

/** graphile-worker's own log lines go through the Effect logger, so they are JSON like the rest. */
const workerLogger = (runtime: Runtime.Runtime<never>) =>
  new Logger((scope) => (level, message, meta) => {
    const effect = level === "error"
      ? Effect.logError(message)
      : level === "warning"
      ? Effect.logWarning(message)
      : level === "info"
      ? Effect.logDebug(message)
      : Effect.logTrace(message)
    Runtime.runFork(runtime)(effect.pipe(Effect.annotateLogs({ component: "graphile-worker", ...scope, ...(meta ?? {}) })))
  })

export const WorkerTasksLive = Layer.effect(
  WorkerTasks,
  Effect.map(Effect.all([emailTasks, auditTasks]), ([email, audits]) => ({ rubr_heartbeat: heartbeatTask, ...email, ...audits }))
)

export const WorkerLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const pool = yield* PgPool
    const config = yield* AppConfig
    const tasks = yield* WorkerTasks
    const runtime = yield* Effect.runtime<SqlClient.SqlClient>()
    const runPromise = Runtime.runPromise(runtime)
    const logRuntime = yield* Effect.runtime<never>()
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
          logger: workerLogger(logRuntime)
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
