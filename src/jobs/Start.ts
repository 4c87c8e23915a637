/**
 * The start of every kind of run, written once: ownership (404), the per-bundle rate limit, then in one
 * transaction under the `Idempotency-Key`: the kind's preparation (target, estimate), the job row and
 * its first event, the run record, the graphile-worker job, and admission (usage caps, the debit, the
 * circuit breaker). Any refusal rolls everything back: no run, no job, no debit.
 */
import type * as Statement from "@effect/sql/Statement"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect } from "effect"
import type { Actor } from "../auth/CurrentActor.js"
import type { RowsOf } from "../db/Query.js"
import { BundleId, JobId, RunId } from "../domain/Ids.js"
import { idempotent } from "../http/Idempotency.js"
import { Admission } from "./Admission.js"
import { type JobRow } from "./Job.js"
import { Jobs, type WithJobTimestamps } from "./Jobs.js"
import type { RunKind } from "./RunKind.js"
import { RunRecords } from "./RunRecords.js"

export interface RunIds {
  readonly runId: RunId
  readonly jobId: JobId
  readonly apiKeyId: string | null
}

/**
 * A run record's INSERT … RETURNING, for `RunStarter` to run in the job's own statement (the job row,
 * its first event, the graphile-worker job and the run in one round trip). See `StartOptions.insertRun`.
 */
export interface RunInsert<Row> {
  readonly _tag: "RunInsert"
  readonly statement: Statement.Statement<unknown>
  /** the run's row with its job's timestamps (`runInsertRowsOf`) */
  readonly rows: RowsOf<WithJobTimestamps<Row>>
}

/** Hands the run's INSERT … RETURNING (one row) to the start, to go with the job's insert. */
export const runInsert = <Row>(rows: RowsOf<WithJobTimestamps<Row>>, statement: Statement.Statement<unknown>): RunInsert<Row> => ({
  _tag: "RunInsert",
  statement,
  rows
})

const isRunInsert = (value: unknown): value is RunInsert<any> =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "RunInsert"

export interface StartOptions<P, Row, E1, R1, E2, R2, E3, R3> {
  readonly kind: RunKind<any>
  readonly actor: Actor
  readonly bundleId: BundleId
  /** the idempotency scope of the route, e.g. `POST /artifact-bundles/{id}/audits` */
  readonly route: string
  readonly idempotencyKey: string | undefined
  /** the request body as received (hashed: the same key with another body is a 409) */
  readonly request: unknown
  /** target, estimate, kind-specific refusals; runs inside the start transaction */
  readonly prepare: Effect.Effect<P, E1, R1>
  /** credits to debit at admission */
  readonly credits: (prepared: P) => number
  /**
   * Inserts the run record (its job row exists already), or, as `runInsert(sql\`INSERT … RETURNING …\`)`,
   * hands the one statement that does, to be run with the job's insert.
   */
  readonly insertRun: (prepared: P, ids: RunIds) => Effect.Effect<Row, E2, R2> | RunInsert<Row>
  /** the encoded `data` of the 202 answer */
  readonly respond: (prepared: P, run: Row, job: JobRow) => Effect.Effect<unknown, E3, R3>
}

export class RunStarter extends Effect.Service<RunStarter>()("rubr/RunStarter", {
  effect: Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const admission = yield* Admission
    const jobs = yield* Jobs
    const records = yield* RunRecords

    /**
     * Inside an open transaction: the kind's preparation, the job, the run, admission and the answer.
     * `start` wraps it; a kind that starts another run as part of its own (a proof report that runs its
     * eval first) calls it within its `prepare`, so both commit or neither does.
     */
    const startWithin = <P, Row, E1, R1, E2 = never, R2 = never, E3 = never, R3 = never>(options: StartOptions<P, Row, E1, R1, E2, R2, E3, R3>) =>
      Effect.gen(function*() {
        const { actor, bundleId, kind } = options
        const prepared = yield* options.prepare
        const ids: RunIds = {
          runId: RunId.make(crypto.randomUUID()),
          jobId: JobId.make(crypto.randomUUID()),
          apiKeyId: actor.kind === "apiKey" ? actor.apiKeyId : null
        }
        const newJob = {
          id: ids.jobId,
          userId: actor.userId,
          artifactBundleId: BundleId.make(bundleId),
          kind: kind.kind,
          task: kind.task,
          phase: kind.phases[0]?.name ?? "queued",
          message: "Queued; waiting for a worker.",
          resourceType: kind.resourceType,
          resourceId: ids.runId,
          requestedByApiKeyId: ids.apiKeyId
        }
        const insert = options.insertRun(prepared, ids)
        const { job, run } = isRunInsert(insert)
          ? yield* jobs.createWith<Row & object>(newJob, insert.statement, insert.rows)
          : { job: yield* jobs.create(newJob), run: yield* (insert as Effect.Effect<Row, E2, R2>) }
        // the answer is encoded before admission: the debit takes the balance row lock (one user's starts
        // queue on it) and holds it until COMMIT, so nothing but the commit comes after it
        const data = yield* options.respond(prepared, run, job)
        yield* admission.admit({
          userId: actor.userId,
          bundleId,
          credits: options.credits(prepared),
          resourceType: kind.resourceType,
          resourceId: ids.runId,
          reason: kind.debitReason
        })
        return { prepared, run, job, data }
      })

    const start = <P, Row, E1, R1, E2 = never, R2 = never, E3 = never, R3 = never>(options: StartOptions<P, Row, E1, R1, E2, R2, E3, R3>) =>
      Effect.gen(function*() {
        const { actor, bundleId } = options
        yield* records.guardBundle(actor.userId, bundleId)
        const work = Effect.map(startWithin(options), ({ data }) => data)
        return yield* idempotent(
          { userId: actor.userId, route: options.route, key: options.idempotencyKey, request: options.request },
          work
        ).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))
      }).pipe(Effect.withSpan("RunStarter.start", { attributes: { kind: options.kind.kind } }))

    return { start, startWithin } as const
  })
}) {}
