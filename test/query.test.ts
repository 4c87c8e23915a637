import { expect, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql"
import { Effect } from "effect"
import { PgPool } from "../src/db/Database.js"
import { makeRows } from "../src/db/Query.js"
import { makeTestApp } from "./support/TestApp.js"

layer(makeTestApp())("hot-path statements (makeRows)", (it) => {
  it.effect("outside a transaction: the same rows as the SqlClient, names and nested JSON keys in camelCase", () =>
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const rows = makeRows(yield* PgPool)
      const statement = () =>
        sql<{ someValue: number; nestedThing: unknown; createdAt: Date }>`
          SELECT 41 + ${1}::int AS some_value, json_build_object('inner_key', 1) AS nested_thing, now() AS created_at`
      const [lean] = yield* rows(statement())
      const [viaClient] = yield* statement()
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
        const inside = yield* rows(sql<{ userCount: number }>`SELECT count(*)::int AS user_count FROM users WHERE email = ${email}`)
        expect(Object.keys(inside[0])).toEqual(["userCount"])
        const failed = yield* Effect.flip(rows(sql`SELECT * FROM no_such_table`))
        expect(failed).toBeInstanceOf(SqlError.SqlError)
        return yield* Effect.fail({ rolledBack: inside[0].userCount })
      }).pipe(sql.withTransaction, Effect.flip)
      expect(seen).toEqual({ rolledBack: 1 })
      const after = yield* rows(sql<{ n: number }>`SELECT count(*)::int AS n FROM users WHERE email = ${email}`)
      expect(after[0].n).toBe(0)
    }))

  it.effect("a failing statement is a SqlError, as through the SqlClient", () =>
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const rows = makeRows(yield* PgPool)
      const error = yield* Effect.flip(rows(sql`SELECT * FROM no_such_table`))
      expect(error).toBeInstanceOf(SqlError.SqlError)
      expect((error.cause as { code?: string }).code).toBe("42P01")
    }))
})

