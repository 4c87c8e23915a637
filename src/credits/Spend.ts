/**
 * Credits spent on AI work today (UTC), net of refunds: the basis of the per-user and per-bundle usage
 * caps and of the daily AI budget that opens the circuit breaker. One row each (credit_daily_spend),
 * maintained by the ledger in the same transaction as every AI debit and refund.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Schema } from "effect"
import { PgPool } from "../db/Database.js"
import { makeRows, rowsOf } from "../db/Query.js"
import type { BundleId } from "../domain/Ids.js"

const SpendRows = rowsOf("daily spend", Schema.Struct({ net: Schema.Number }))

export class Spend extends Effect.Service<Spend>()("rubr/Spend", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = makeRows(yield* PgPool)
    const today = (scope: "user" | "bundle" | "all", id: string) =>
      rows(SpendRows, sql`
        SELECT net FROM credit_daily_spend
        WHERE scope = ${scope} AND scope_id = ${id} AND day = (now() AT TIME ZONE 'UTC')::date`).pipe(
        Effect.map((rows) => Math.max(0, rows[0]?.net ?? 0)),
        Effect.orDie
      )
    return {
      userToday: (userId: string) => today("user", userId),
      bundleToday: (bundleId: BundleId) => today("bundle", bundleId),
      allToday: today("all", "*")
    } as const
  })
}) {}
