/**
 * A lean way to run one statement on the hot path (the request's authentication, the bundle-scoped
 * reads every route starts with, the statements of a run's start and of its jobs).
 *
 * @effect/sql's own execution opens a span and a scope and provides them for every statement, which cost
 * about 0.2 ms of CPU per statement under load (docs/performance.md). Outside a transaction the statement
 * runs straight on the shared `pg` pool instead; inside one, straight on the transaction's own connection
 * (`Connection.execute`, what @effect/sql itself ends in). Either way the caller gets the same rows
 * (names transformed as the SqlClient does) and the same SqlError on failure.
 *
 * Every statement names the Schema its rows decode with (`RowsOf`, compiled once per schema at module
 * level): a row that does not decode is a defect (RowDecodeError), never a silently wrong type.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlError from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import { Data, Effect, Either, Option, ParseResult, Schema, String as Str } from "effect"
import type pg from "pg"

/** snake_case → camelCase, remembered per column name (the same few dozen names come back every time). */
export const columnToField: (name: string) => string = (() => {
  const known = new Map<string, string>()
  return (name) => {
    let field = known.get(name)
    if (field === undefined) {
      field = Str.snakeToCamel(name)
      if (known.size < 10_000) known.set(name, field)
    }
    return field
  }
})()

const transformRows = Statement.defaultTransforms(columnToField).array

/** A row the database returned that its Schema refuses: the code and the schema disagree (a defect). */
export class RowDecodeError extends Data.TaggedError("RowDecodeError")<{ readonly message: string }> {}

/** The decoder of one row shape, compiled once: what `makeRows` checks a statement's rows with. */
export interface RowsOf<A> {
  readonly name: string
  readonly decode: (rows: ReadonlyArray<unknown>) => Either.Either<ReadonlyArray<A>, RowDecodeError>
}

/**
 * Compiles `schema` (the Type of a row: camelCase fields, `Schema.DateFromSelf` for timestamps, the
 * parsed value for JSON) into a row decoder. Call it at module level: the decoder is built once.
 */
export const rowsOf = <A, I>(name: string, schema: Schema.Schema<A, I, never>): RowsOf<A> => {
  const decodeAll = ParseResult.decodeUnknownEither(Schema.Array(schema), { onExcessProperty: "ignore" })
  return {
    name,
    decode: (rows) =>
      Either.mapLeft(decodeAll(rows), (issue) =>
        new RowDecodeError({ message: `A ${name} row did not decode: ${ParseResult.TreeFormatter.formatIssueSync(issue)}` }))
  }
}

const rawRows = (pool: pg.Pool, statement: Statement.Statement<unknown>): Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError> =>
  Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (transaction) => {
    const [text, params] = statement.compile()
    // the transaction's own connection, without the span and scope @effect/sql opens per statement
    if (Option.isSome(transaction)) return transaction.value[0].execute(text, params, transformRows)
    return Effect.async<ReadonlyArray<unknown>, SqlError.SqlError>((resume) => {
      // not cancellable: an interrupted request lets its statement finish and the client return to the pool
      pool.query(text, params as Array<unknown>, (cause, result) => {
        resume(
          cause
            ? Effect.fail(new SqlError.SqlError({ cause, message: "Failed to execute statement" }))
            : Effect.succeed(transformRows(result.rows))
        )
      })
    })
  })

/**
 * Runs `statement` and returns its rows decoded by `rows`; see the module comment for where it runs.
 * A row that does not decode dies with a RowDecodeError.
 */
export const makeRows = (pool: pg.Pool) =>
<A>(rows: RowsOf<A>, statement: Statement.Statement<unknown>): Effect.Effect<ReadonlyArray<A>, SqlError.SqlError> =>
  Effect.flatMap(rawRows(pool, statement), decodeRows(rows))

/**
 * The rows of a statement run through the SqlClient (outside the hot path), decoded by `rows`:
 * `sql\`…\`.pipe(Effect.flatMap(decodeRows(XRows)))`. A row that does not decode dies with a RowDecodeError.
 */
export const decodeRows = <A>(rows: RowsOf<A>) => (raw: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<A>> => {
  const decoded = rows.decode(raw)
  return Either.isRight(decoded) ? Effect.succeed(decoded.right) : Effect.die(decoded.left)
}

/** The type `makeRows(pool)` returns: what a service keeps to run its statements. */
export type Rows = ReturnType<typeof makeRows>

/** Rows of statements that return nothing worth reading (`RETURNING 1`, a count the caller ignores). */
export const anyRows: RowsOf<unknown> = { name: "unread", decode: Either.right }

