/**
 * The user-facing jobs table beside graphile-worker's queue. A job row, its first event, the run
 * record and the graphile-worker job are written in one transaction by the start use case; from then
 * on every state change goes through here and appends its event, with the progress events buffered
 * since the last write before it (src/jobs/Runner.ts), in one statement.
 */
import { errorAnswerOf } from "./RunRow.js"
import type * as Statement from "@effect/sql/Statement"
import * as PgClient from "@effect/sql-pg/PgClient"
import { type Context, Effect, Schema } from "effect"
import { Ledger } from "../credits/Ledger.js"
import { pgArray, PgPool } from "../db/Database.js"
import { makeRows, type Rows, rowsOf, type RowsOf } from "../db/Query.js"
import { Conflict, NotFound, ValidationFailed } from "../domain/Errors.js"
import type { BundleId, JobId, RunId } from "../domain/Ids.js"
import { createdAtCursor, resolvePage } from "../http/Pagination.js"
import { JobEventRow, type JobKind, JobRow, type JobState, terminalStates } from "./Job.js"
import { RunKinds } from "./RunKind.js"

/** The most events one read answers (a job has a few dozen; a poll asks for the ones after its last). */
export const MAX_EVENTS_PAGE = 200

/** The wire shape of a job (the contract's Job schema in ./Api.ts). */
export const toJobJson = (job: JobRow) => ({
  id: job.id,
  kind: job.kind,
  state: job.state,
  phase: job.phase,
  percent: job.percent,
  message: job.message,
  artifactBundleId: job.artifactBundleId,
  resourceType: job.resourceType,
  resourceId: job.resourceId,
  attempts: job.attempts,
  maxAttempts: job.maxAttempts,
  result: job.result ?? null,
  error: errorAnswerOf(job),
  createdAt: job.createdAt,
  updatedAt: job.updatedAt,
  startedAt: job.startedAt,
  finishedAt: job.finishedAt
})

const jobColumnNames = ["id", "user_id", "artifact_bundle_id", "kind", "state", "phase", "percent", "message", "resource_type",
  "resource_id", "attempts", "max_attempts", "result", "error_code", "error_message", "requested_by_api_key_id", "created_at",
  "updated_at", "started_at", "finished_at"] as const
const jobColumns = jobColumnNames.join(", ")
const jobColumnsOf = (alias: string) => jobColumnNames.map((c) => `${alias}.${c}`).join(", ")

const JobRows = rowsOf("job", JobRow)
const JobEventRows = rowsOf("job event", JobEventRow)
/** a transition's row: the job as moved, and what the kind's `load` read with it */
const MovedJobRows = rowsOf("moved job", Schema.Struct({ ...JobRow.fields, loaded: Schema.optional(Schema.Unknown) }))
const HeartbeatRows = rowsOf("job heartbeat", JobRow.pick("state"))
const RefundableRows = rowsOf("refundable credits", Schema.Struct({ debited: Schema.Number, refunded: Schema.Number }))
/** what `createWith` adds to the run's row: the job's own timestamps */
const jobTimestamps = { jobCreatedAt: Schema.DateFromSelf, jobUpdatedAt: Schema.DateFromSelf }

/** A progress event not yet written: it goes in before the event of the next write of its job. */
export interface PendingEvent {
  readonly kind: string
  readonly phase: string
  readonly percent: number
  readonly message: string
  /** when it happened (`performance.now()`, this process's monotonic clock): written as the database's clock less its age */
  readonly at: number
}

/**
 * A worker's hold on a job: the worker that claimed it and the attempt it claimed. Every write a worker
 * makes for its run of a job carries it, so a run that lost the job (handed back while the database was
 * away, then claimed again elsewhere) can no longer move it: its writes change nothing and it stops.
 */
export interface JobClaim {
  readonly workerId: string
  readonly attempts: number
}

/** What a transition does to a job; see `Jobs.transition`. */
export interface JobChange {
  /** only while this claim still holds the job (a worker's own writes) */
  readonly claim?: JobClaim
  readonly from: ReadonlyArray<JobState>
  readonly state: JobState
  readonly phase?: string
  readonly percent?: number
  readonly message: string
  readonly kind?: string
  readonly result?: unknown
  readonly errorCode?: string
  readonly errorMessage?: string
  readonly workerId?: string
  /** +1 when a worker claims the job; -1 when a deferral hands the attempt back */
  readonly attemptDelta?: number
  /** the job's resource type: names the run table whose `status` moves with the job (its kind's `table`) */
  readonly resourceType: string
  /** progress events buffered since the job's last write, in order: written before this change's event */
  readonly pending?: ReadonlyArray<PendingEvent>
  /** when this change's own event happened (`performance.now()`), if not now */
  readonly at?: number
  /**
   * More columns of the run record, written by the same statement (a `SET` list for the kind's table,
   * e.g. the result of a completed run); the run row is then updated even when its status stays.
   */
  readonly runSet?: Statement.Fragment
  /** An SQL expression over `j` (the moved job row), returned as the row's `loaded` (a kind's `claimLoads`). */
  readonly load?: string
}

export interface NewJob {
  readonly id: JobId
  readonly userId: string
  readonly artifactBundleId: BundleId
  readonly kind: JobKind
  readonly task: string
  readonly phase: string
  readonly message: string
  readonly resourceType: string
  readonly resourceId: RunId
  readonly requestedByApiKeyId: string | null
  readonly maxAttempts?: number
}

/** A run's row as `createWith` reads it: with its job's timestamps beside it. */
export type WithJobTimestamps<Row> = Row & { readonly jobCreatedAt: Date; readonly jobUpdatedAt: Date }

/** The rows `createWith` decodes for a kind whose run row decodes with `row` (compile at module level). */
export const runInsertRowsOf = <F extends Schema.Struct.Fields>(name: string, row: Schema.Struct<F>) =>
  rowsOf(name, Schema.Struct({ ...row.fields, ...jobTimestamps }) as unknown as Schema.Schema<WithJobTimestamps<Schema.Struct.Type<F>>, any>)

/**
 * The job row (`j`, returning `returning`), its first event (`e`) and the graphile-worker job (`w`):
 * the CTEs of `create` and `createWith` (job key = our job id: a retried enqueue can never create a
 * second worker job).
 */
const jobInserts = (sql: PgClient.PgClient, job: NewJob, returning: string) =>
  sql`j AS (
      INSERT INTO jobs (id, user_id, artifact_bundle_id, kind, phase, message, resource_type, resource_id,
                        requested_by_api_key_id, max_attempts, event_sequence)
      VALUES (${job.id}, ${job.userId}, ${job.artifactBundleId}, ${job.kind}, ${job.phase}, ${job.message},
              ${job.resourceType}, ${job.resourceId}, ${job.requestedByApiKeyId}, ${job.maxAttempts ?? 3}, 1)
      RETURNING ${sql.literal(returning)}
    ), e AS (
      INSERT INTO job_events (job_id, artifact_bundle_id, sequence, kind, state, phase, percent, message)
      SELECT j.id, j.artifact_bundle_id, 1, 'queued', 'queued', j.phase, 0, j.message FROM j
    ), w AS (
      SELECT graphile_worker.add_job(${job.task}, json_build_object('jobId', ${job.id}::text),
               job_key := ${job.id}::text, max_attempts := ${job.maxAttempts ?? 3})
    )`

/** A job's creation: alone, or with its run's row in the same statement. */
const makeJobCreates = (sql: PgClient.PgClient, rows: Rows) => {
  /** Call inside the start transaction: the job row, its first event and the graphile-worker job, in one statement. */
  const create = Effect.fn("Jobs.create")(function*(job: NewJob) {
    const [row] = yield* rows(JobRows, sql`WITH ${jobInserts(sql, job, jobColumns)} SELECT j.* FROM j, w`)
    return row!
  }, Effect.orDie)

  /**
   * `create`, and the kind's run INSERT … RETURNING (one row) in the same statement: one round trip for
   * the job, its first event, the graphile-worker job and the run. The job row is the new job as
   * inserted (its defaults, the database's timestamps).
   */
  const createWith = Effect.fn("Jobs.create")(function*<Row extends object>(
    job: NewJob,
    run: Statement.Statement<unknown>,
    runRows: RowsOf<WithJobTimestamps<Row>>
  ) {
    const [row] = yield* rows(runRows, sql`
      WITH ${jobInserts(sql, job, "id, artifact_bundle_id, phase, message, created_at, updated_at")}, r AS (
        ${run}
      )
      SELECT r.*, j.created_at AS job_created_at, j.updated_at AS job_updated_at FROM r, j, w`)
    const { jobCreatedAt, jobUpdatedAt, ...runRow } = row!
    const jobRow: JobRow = {
      id: job.id,
      userId: job.userId,
      artifactBundleId: job.artifactBundleId,
      kind: job.kind,
      state: "queued",
      phase: job.phase,
      percent: 0,
      message: job.message,
      resourceType: job.resourceType,
      resourceId: job.resourceId,
      attempts: 0,
      maxAttempts: job.maxAttempts ?? 3,
      result: null,
      errorCode: null,
      errorMessage: null,
      requestedByApiKeyId: job.requestedByApiKeyId,
      createdAt: jobCreatedAt,
      updatedAt: jobUpdatedAt,
      startedAt: null,
      finishedAt: null
    }
    return { job: jobRow, run: runRow as Row }
  }, Effect.orDie)

  return { create, createWith } as const
}

/** The reads of a job: by id (its owner's only, from a request), a user's jobs, a job's events. */
const makeJobReads = (sql: PgClient.PgClient, rows: Rows) => {
  const find = (jobId: JobId) =>
    rows(JobRows, sql`SELECT ${sql.literal(jobColumns)} FROM jobs WHERE id = ${jobId}`).pipe(
      Effect.orDie,
      Effect.map((rows) => rows[0])
    )

  const get = Effect.fn("Jobs.get")(function*(userId: string, jobId: JobId) {
    const job = yield* find(jobId)
    if (!job || job.userId !== userId) return yield* NotFound.of("Job")
    return job
  })

  /** The user's jobs, newest first (keyset pages over created_at, id; the index jobs_user_idx). */
  const list = Effect.fn("Jobs.list")(function*(userId: string, params: {
    readonly state?: JobState | "active" | "ended" | undefined
    readonly artifactBundleId?: BundleId | undefined
    readonly limit?: number | undefined
    readonly cursor?: string | undefined
  }) {
    const { limit } = yield* resolvePage({ limit: params.limit })
    const after = yield* createdAtCursor.decode(params.cursor)
    const states: ReadonlyArray<JobState> | undefined = params.state === "active"
      ? ["queued", "running", "paused"]
      : params.state === "ended"
      ? terminalStates
      : params.state === undefined
      ? undefined
      : [params.state]
    const found = yield* rows(JobRows, sql`
      SELECT ${sql.literal(jobColumns)} FROM jobs
      WHERE user_id = ${userId}
        ${params.artifactBundleId ? sql`AND artifact_bundle_id = ${params.artifactBundleId}` : sql``}
        ${states ? sql`AND state IN ${sql.in(states)}` : sql``}
        ${after ? sql`AND (created_at, id) < (${after.at}, ${after.id})` : sql``}
      ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`).pipe(Effect.orDie)
    const items = found.slice(0, limit)
    return {
      items,
      pagination: { limit, offset: 0, nextOffset: null, nextCursor: found.length > limit ? createdAtCursor.encode(items[items.length - 1]!) : null }
    }
  })

  /** A job's events after `afterSequence`, at most `limit` (1..MAX_EVENTS_PAGE, default all of that). */
  const events = Effect.fn("Jobs.events")(function*(userId: string, jobId: JobId, afterSequence = 0, limit = MAX_EVENTS_PAGE) {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENTS_PAGE) {
      return yield* ValidationFailed.at("limit", `must be between 1 and ${MAX_EVENTS_PAGE}`)
    }
    yield* get(userId, jobId)
    return yield* rows(JobEventRows, sql`
      SELECT id, job_id, sequence, kind, state, phase, percent, message, created_at FROM job_events
      WHERE job_id = ${jobId} AND sequence > ${afterSequence} ORDER BY sequence LIMIT ${limit}`).pipe(Effect.orDie)
  })

  return { find, get, list, events } as const
}

/**
 * Moves a job and appends its event (after the `pending` progress events, if any) in one statement:
 * the job row (under its row lock), its events numbered from the job's counter, and the run record
 * of its kind (`status` when the state changes, plus `runSet`). `from` guards the transition (e.g. a
 * cancelled job is never moved back to running); returns undefined when refused, writing nothing.
 */
const makeTransition = (sql: PgClient.PgClient, rows: Rows, kinds: Context.Tag.Service<RunKinds>) =>
  Effect.fn("Jobs.transition")(function*(jobId: JobId, change: JobChange) {
    const terminal = terminalStates.includes(change.state)
    const pending = change.pending ?? []
    const now = performance.now()
    const ages = (at: number | undefined) => Math.max(0, now - (at ?? now))
    // the run record's status follows its job's state (never `paused`: runs have no such status)
    const table = kinds.byResourceType(change.resourceType)?.table
    const movesRun = table !== undefined && change.state !== "paused" &&
      (change.runSet !== undefined || !(change.from.length === 1 && change.from[0] === change.state))
    const run = movesRun
      ? sql`, r AS (
          UPDATE ${sql(table)} AS run SET status = j.state, updated_at = now()${change.runSet ? sql`, ${change.runSet}` : sql``}
          FROM j WHERE run.id = j.resource_id
        )`
      : sql``
    const [row] = yield* rows(MovedJobRows, sql`
      WITH j AS (
        UPDATE jobs SET
          state = ${change.state},
          phase = COALESCE(${change.phase ?? null}, phase),
          percent = COALESCE(${change.percent ?? null}, percent),
          message = ${change.message},
          result = COALESCE(${change.result === undefined ? null : JSON.stringify(change.result)}::jsonb, result),
          error_code = ${change.errorCode ?? null},
          error_message = ${change.errorMessage ?? null},
          attempts = GREATEST(0, attempts + ${change.attemptDelta ?? 0}),
          worker_id = COALESCE(${change.workerId ?? null}, worker_id),
          heartbeat_at = CASE WHEN ${change.state} = 'running' THEN now() ELSE heartbeat_at END,
          started_at = CASE WHEN ${change.state} = 'running' THEN COALESCE(started_at, now()) ELSE started_at END,
          finished_at = CASE WHEN ${terminal} THEN now() ELSE NULL END,
          updated_at = now(),
          event_sequence = GREATEST(event_sequence, (SELECT COALESCE(max(sequence), 0) FROM job_events WHERE job_id = ${jobId}))
                           + ${pending.length + 1}
        WHERE id = ${jobId} AND state = ANY(${pgArray(change.from)}::text[])${
      change.claim ? sql` AND worker_id = ${change.claim.workerId} AND attempts = ${change.claim.attempts}` : sql``
    }
        RETURNING ${sql.literal(jobColumns)}, event_sequence
      ), e AS (
        INSERT INTO job_events (job_id, artifact_bundle_id, sequence, kind, state, phase, percent, message, created_at)
        SELECT j.id, j.artifact_bundle_id, j.event_sequence - ${pending.length + 1} + p.n, p.kind, 'running', p.phase, p.percent, p.message,
               clock_timestamp() - make_interval(secs => p.age / 1000.0)
        FROM j, unnest(${pgArray(pending.map((p) => p.kind))}::text[], ${pgArray(pending.map((p) => p.phase))}::text[],
                       ${pgArray(pending.map((p) => p.percent))}::numeric[], ${pgArray(pending.map((p) => p.message))}::text[],
                       ${pgArray(pending.map((p) => ages(p.at)))}::float8[])
               WITH ORDINALITY AS p(kind, phase, percent, message, age, n)
        UNION ALL
        SELECT j.id, j.artifact_bundle_id, j.event_sequence, ${change.kind ?? change.state}, j.state, j.phase, j.percent, j.message,
               clock_timestamp() - make_interval(secs => ${ages(change.at)} / 1000.0)
        FROM j
      )${run}
      SELECT ${sql.literal(jobColumnsOf("j"))}${change.load ? sql.literal(`, (${change.load}) AS loaded`) : sql``} FROM j`)
    return row
  }, Effect.orDie)

/** A worker's hold on its job: the heartbeat that tells it still holds it, and handing the job back for later. */
const makeWorkerHold = (sql: PgClient.PgClient, rows: Rows, transition: ReturnType<typeof makeTransition>) => {
  /** A running job's heartbeat; false once the claim no longer holds it (cancelled, handed back, claimed again). */
  const heartbeat = (jobId: JobId, claim: JobClaim) =>
    rows(HeartbeatRows, sql`
      UPDATE jobs SET heartbeat_at = now()
      WHERE id = ${jobId} AND state = 'running' AND worker_id = ${claim.workerId} AND attempts = ${claim.attempts}
      RETURNING state`).pipe(
      Effect.orDie,
      Effect.map((rows) => rows.length > 0)
    )

  /**
   * Hands a running job back to the queue to run again in `seconds` (its kind waits for something):
   * the job row goes back to queued without spending an attempt, and a new graphile-worker job with the
   * same key is scheduled (graphile-worker clears the key of the running one, which then ends).
   */
  const requeueLater = Effect.fn("Jobs.requeueLater")(function*(jobId: JobId, later: {
    readonly task: string
    readonly seconds: number
    readonly message: string
    readonly resourceType: string
    readonly pending?: ReadonlyArray<PendingEvent>
    readonly claim: JobClaim
  }) {
    const row = yield* transition(jobId, {
      claim: later.claim,
      from: ["running"],
      state: "queued",
      message: later.message,
      kind: "deferred",
      attemptDelta: -1,
      resourceType: later.resourceType,
      pending: later.pending
    })
    if (!row) return undefined
    yield* sql`SELECT graphile_worker.add_job(${later.task}, json_build_object('jobId', ${jobId}::text),
                 job_key := ${jobId}::text, max_attempts := ${row.maxAttempts},
                 run_at := now() + make_interval(secs => ${later.seconds}))`
    return row
  }, (effect) => sql.withTransaction(effect), Effect.orDie)

  return { heartbeat, requeueLater } as const
}

/** A job that ends before its work is done: the credits it had not used go back; a user's cancel. */
const makeCancelAndRefund = (
  sql: PgClient.PgClient,
  rows: Rows,
  ledger: Ledger,
  get: ReturnType<typeof makeJobReads>["get"],
  transition: ReturnType<typeof makeTransition>
) => {
  /**
   * Refunds what a resource's debit has not yet had back, less `keepCredits` (work already done), once:
   * the refund's idempotency key is fixed per resource, so a retried failure, a cancel racing a
   * failure, or a replay cannot refund twice.
   */
  const refundRemaining = Effect.fn("Jobs.refundRemaining")(function*(
    userId: string,
    resourceType: string,
    resourceId: RunId,
    reason: string,
    bundleId: BundleId,
    keepCredits = 0
  ) {
    const [{ debited, refunded }] = yield* rows(RefundableRows, sql`
      SELECT COALESCE(SUM(amount) FILTER (WHERE type = 'debit'), 0)::int AS debited,
             COALESCE(SUM(amount) FILTER (WHERE type = 'refund'), 0)::int AS refunded
      FROM credit_ledger WHERE user_id = ${userId} AND resource_type = ${resourceType} AND resource_id = ${resourceId}`)
    const amount = debited - refunded - Math.max(0, Math.floor(keepCredits))
    if (amount <= 0) return 0
    yield* ledger.append({
      userId,
      type: "refund",
      amount,
      reason,
      resourceType,
      resourceId,
      idempotencyKey: `refund_remaining:${resourceType}:${resourceId}`,
      aiSpendBundleId: bundleId
    }).pipe(Effect.catchTag("CreditLimitExceeded", Effect.die))
    return amount
  }, (effect) => sql.withTransaction(effect), Effect.orDie)

  /** Cancels a job that has not finished; a terminal job is a 409. Unused credits are refunded in full. */
  const cancel = Effect.fn("Jobs.cancel")(function*(userId: string, jobId: JobId) {
    const job = yield* get(userId, jobId)
    if (terminalStates.includes(job.state)) {
      return yield* new Conflict({
        message: `This job is already ${job.state}; only queued, running or paused jobs can be cancelled.`,
        details: [{ state: job.state }]
      })
    }
    const cancelled = yield* transition(jobId, {
      from: ["queued", "running", "paused"],
      state: "cancelled",
      message: job.state === "queued" ? "Cancelled before it started." : "Cancelled; stopping at the next safe point.",
      kind: "cancelled",
      resourceType: job.resourceType
    })
    if (!cancelled) {
      const now = yield* get(userId, jobId)
      return yield* new Conflict({ message: `This job is already ${now.state}.`, details: [{ state: now.state }] })
    }
    yield* refundRemaining(job.userId, job.resourceType, job.resourceId, `${job.kind}_cancelled_refund`, job.artifactBundleId)
    // a queued worker job is removed; a running one sees the state and stops (Effect interruption)
    yield* sql`SELECT graphile_worker.remove_job(${jobId}::text)`.pipe(Effect.orDie)
    return cancelled
  }, (effect) => sql.withTransaction(effect), Effect.catchTag("SqlError", Effect.die))

  return { refundRemaining, cancel } as const
}

export class Jobs extends Effect.Service<Jobs>()("rubr/Jobs", {
  effect: Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const ledger = yield* Ledger
    const kinds = yield* RunKinds

    const rows = makeRows(yield* PgPool)
    const reads = makeJobReads(sql, rows)
    const transition = makeTransition(sql, rows, kinds)
    return {
      ...makeJobCreates(sql, rows),
      ...reads,
      transition,
      ...makeWorkerHold(sql, rows, transition),
      ...makeCancelAndRefund(sql, rows, ledger, reads.get, transition)
    } as const
  })
}) {}
