/**
 * A lean way to run one statement on the hot path (the request's authentication, the bundle-scoped
 * reads every route starts with, the statements of a run's start and of its jobs).
 *
 * @effect/sql's own execution opens a span and a scope and provides them for every statement, which cost
 * about 0.2 ms of CPU per statement under load (docs/performance.md). Outside a transaction the statement
 * runs straight on the shared `pg` pool instead; inside one, straight on the transaction's own connection
 * (`Connection.execute`, what @effect/sql itself ends in). Either way the caller gets the same rows
 * (names transformed as the SqlClient does) and the same SqlError on failure.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlError from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import { Effect, Option, String as Str } from "effect"
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

/** Runs `statement` and returns its rows; see the module comment for where it runs. */
export const makeRows = (pool: pg.Pool) =>
<A extends object>(statement: Statement.Statement<A>): Effect.Effect<ReadonlyArray<A>, SqlError.SqlError> =>
  Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (transaction) => {
    const [text, params] = statement.compile()
    // the transaction's own connection, without the span and scope @effect/sql opens per statement
    if (Option.isSome(transaction)) return transaction.value[0].execute(text, params, transformRows)
    return Effect.async<ReadonlyArray<A>, SqlError.SqlError>((resume) => {
      // not cancellable: an interrupted request lets its statement finish and the client return to the pool
      pool.query(text, params as Array<unknown>, (cause, result) => {
        resume(
          cause
            ? Effect.fail(new SqlError.SqlError({ cause, message: "Failed to execute statement" }))
            : Effect.succeed(transformRows(result.rows) as ReadonlyArray<A>)
        )
      })
    })
  })
