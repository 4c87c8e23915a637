/**
 * Fixed one-minute request windows counted in PostgreSQL, so every API process shares them.
 * One statement per request counts all the buckets it touches (user, key, bundle or IP).
 */
import type * as Statement from "@effect/sql/Statement"
import * as PgClient from "@effect/sql-pg/PgClient"
import { pgArray, PgPool } from "../db/Database.js"
import { makeRows, type Rows, rowsOf, type RowsOf } from "../db/Query.js"
import { Duration, Effect, Schedule, Schema } from "effect"
import { RateLimitExceeded } from "../domain/Errors.js"

export interface Bucket {
  readonly key: string
  readonly limit: number
  readonly label: string
}

export const Counter = Schema.Struct({ bucket: Schema.String, hits: Schema.Number, resetSeconds: Schema.Number })
export type Counter = typeof Counter.Type
const CounterRows = rowsOf("rate limit counter", Counter)

/** What `countedSelect` adds to its row: the bucket's count, null when nothing was found to count. */
const countedFields = { rateHits: Schema.NullOr(Schema.Number), rateResetSeconds: Schema.NullOr(Schema.Number) }
type Counted = Schema.Struct.Type<typeof countedFields>

/** The rows of a `countedSelect` that finds an `A`. */
export interface CountedRows<A> {
  readonly rows: RowsOf<A & Counted>
}

/** The rows of a `countedSelect` over rows of `row` (compile at module level, like `rowsOf`). */
export const countedRowsOf = <F extends Schema.Struct.Fields>(name: string, row: Schema.Struct<F>): CountedRows<Schema.Struct.Type<F>> => ({
  rows: rowsOf(name, Schema.Struct({ ...row.fields, ...countedFields }) as unknown as Schema.Schema<Schema.Struct.Type<F> & Counted, any>)
})

/** The first exceeded bucket, in the caller's order (most specific first), as a 429. */
export const checkCounters = (buckets: ReadonlyArray<Bucket>, rows: ReadonlyArray<Counter>) => {
  for (const bucket of buckets) {
    const row = rows.find((r) => r.bucket === bucket.key)
    if (row && row.hits > bucket.limit) {
      const retryAfterSeconds = Math.max(1, row.resetSeconds)
      return Effect.fail(
        new RateLimitExceeded({
          message: `Rate limit of ${bucket.limit} requests per minute per ${bucket.label} reached; retry in ${retryAfterSeconds} s.`,
          details: [{ scope: bucket.label, limit: bucket.limit, retryAfterSeconds }],
          retryAfterSeconds
        })
      )
    }
  }
  return Effect.void
}

/**
 * Runs `select` (at most one row: the caller's bundle, file or run) and, only when it finds a row, counts
 * the request in `bucket` in the same statement: one round trip instead of two, and another user's ids
 * find nothing and count nothing. The row, undefined when there is none, or the bucket's 429.
 */
export const countedSelect = <A extends object>(
  sql: PgClient.PgClient,
  run: Rows,
  counted: CountedRows<A>,
  bucket: Bucket,
  select: Statement.Fragment
): Effect.Effect<A | undefined, RateLimitExceeded> =>
  Effect.gen(function*() {
    const [row] = yield* run(counted.rows, sql`
      WITH target AS (${select}),
      hit AS (
        INSERT INTO rate_limit_counters (bucket, window_start, hits)
        SELECT ${bucket.key}, date_trunc('minute', now()), 1 FROM (SELECT 1 FROM target LIMIT 1) AS found
        ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
        RETURNING hits, ceil(extract(epoch FROM (window_start + interval '1 minute' - now())))::int AS reset_seconds
      )
      SELECT target.*, hit.hits AS rate_hits, hit.reset_seconds AS rate_reset_seconds FROM target LEFT JOIN hit ON true`).pipe(
      Effect.orDie
    )
    if (!row) return undefined
    if (row.rateHits !== null) {
      yield* checkCounters([bucket], [{ bucket: bucket.key, hits: row.rateHits, resetSeconds: row.rateResetSeconds ?? 60 }])
    }
    const { rateHits: _hits, rateResetSeconds: _reset, ...found } = row
    return found as A
  })

export class RateLimiter extends Effect.Service<RateLimiter>()("rubr/RateLimiter", {
  effect: Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const run = makeRows(yield* PgPool)

    const hit = Effect.fn("RateLimiter.hit")(function*(buckets: ReadonlyArray<Bucket>) {
      if (buckets.length === 0) return
      const rows = yield* run(CounterRows, sql`
        INSERT INTO rate_limit_counters (bucket, window_start, hits)
        SELECT b, date_trunc('minute', now()), 1 FROM unnest(${pgArray(buckets.map((b) => b.key))}::text[]) AS b
        ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
        RETURNING bucket, hits, ceil(extract(epoch FROM (window_start + interval '1 minute' - now())))::int AS reset_seconds`).pipe(
        Effect.orDie
      )
      return yield* checkCounters(buckets, rows)
    })

    /** Old windows are dead weight; any process may sweep them. */
    const sweep = sql`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '5 minutes'`.pipe(
      Effect.asVoid,
      // a sweep missed (the database is away) is made up by the next
      Effect.catchAllCause(() => Effect.void)
    )

    return { hit, sweep } as const
  })
}) {}

export const RateLimitSweeper = Effect.gen(function*() {
  const limiter = yield* RateLimiter
  yield* limiter.sweep.pipe(Effect.repeat(Schedule.spaced(Duration.minutes(1))), Effect.forkScoped)
})
