import { expect, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql"
import { Cause, Effect, Exit, Schema } from "effect"
import { PgPool } from "../src/db/Database.js"
import { anyRows, makeRows, RowDecodeError, rowsOf } from "../src/db/Query.js"

const ValueRows = rowsOf("value", Schema.Struct({
  someValue: Schema.Number,
  nestedThing: Schema.Struct({ innerKey: Schema.Number }),
  createdAt: Schema.DateFromSelf
}))
const CountRows = rowsOf("count", Schema.Struct({ userCount: Schema.Number }))
const NRows = rowsOf("n", Schema.Struct({ n: Schema.Number }))
import { makeTestApp } from "./support/TestApp.js"

layer(makeTestApp())("hot-path statements (makeRows)", (it) => {
  it.effect("outside a transaction: the same rows as the SqlClient, names and nested JSON keys in camelCase", () =>
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const rows = makeRows(yield* PgPool)
      const statement = () =>
        sql`
          SELECT 41 + ${1}::int AS some_value, json_build_object('inner_key', 1) AS nested_thing, now() AS created_at`
      const [lean] = yield* rows(ValueRows, statement())
      const [viaClient] = (yield* statement()) as ReadonlyArray<{ nestedThing: unknown }>
      expect(Object.keys(lean)).toEqual(["someValue", "nestedThing", "createdAt"])
      expect(lean.someValue).toBe(42)
      expect(lean.nestedThing).toEqual(viaClient.nestedThing)
      expect(lean.nestedThing).toEqual({ innerKey: 1 })
      expect(lean.createdAt).toBeInstanceOf(Date)
    }))

  it.effect("inside a transaction it runs on the transaction's connection (sees its uncommitted rows), with the same names and errors", () =>
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const rows = makeRows(yield* PgPool)
      const email = `query-${crypto.randomUUID()}@rubr.test`
      const seen = yield* Effect.gen(function*() {
        yield* sql`INSERT INTO users (email) VALUES (${email})`
        const inside = yield* rows(CountRows, sql`SELECT count(*)::int AS user_count FROM users WHERE email = ${email}`)
        expect(Object.keys(inside[0])).toEqual(["userCount"])
        const failed = yield* Effect.flip(rows(anyRows, sql`SELECT * FROM no_such_table`))
        expect(failed).toBeInstanceOf(SqlError.SqlError)
        return yield* Effect.fail({ rolledBack: inside[0].userCount })
      }).pipe(sql.withTransaction, Effect.flip)
      expect(seen).toEqual({ rolledBack: 1 })
      const after = yield* rows(NRows, sql`SELECT count(*)::int AS n FROM users WHERE email = ${email}`)
      expect(after[0].n).toBe(0)
    }))

  it.effect("a failing statement is a SqlError, as through the SqlClient", () =>
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const rows = makeRows(yield* PgPool)
      const error = yield* Effect.flip(rows(anyRows, sql`SELECT * FROM no_such_table`))
      expect(error).toBeInstanceOf(SqlError.SqlError)
      expect((error.cause as { code?: string }).code).toBe("42P01")
    }))

  it.effect("a row its Schema refuses is a defect naming the row and the field, never a silently wrong value", () =>
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const rows = makeRows(yield* PgPool)
      const exit = yield* Effect.exit(rows(NRows, sql`SELECT 'not a number' AS n`))
      expect(Exit.isFailure(exit)).toBe(true)
      const defect = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
      expect(defect).toBeInstanceOf(RowDecodeError)
      expect((defect as RowDecodeError).message).toContain("A n row did not decode")
      expect((defect as RowDecodeError).message).toContain("[\"n\"]")
    }))
})
