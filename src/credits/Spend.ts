/**
 * Credits spent on AI work today (UTC), net of refunds: the basis of the per-user and per-bundle usage
 * caps and of the daily AI budget that opens the circuit breaker.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Resource types whose debits are AI work. */
export const aiResourceTypes = ["audit_run", "rubr_flow_conversion", "eval_run", "proof_report"] as const

export class Spend extends Effect.Service<Spend>()("rubr/Spend", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const net = (rows: ReadonlyArray<{ net: number | null }>) => Math.max(0, rows[0]?.net ?? 0)
    const today = sql.literal("date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'")

    const userToday = (userId: string) =>
      sql<{ net: number | null }>`
        SELECT SUM(CASE type WHEN 'debit' THEN amount WHEN 'refund' THEN -amount ELSE 0 END)::int AS net
        FROM credit_ledger WHERE user_id = ${userId} AND created_at >= ${today}
          AND resource_type IN ${sql.in(aiResourceTypes)}`.pipe(Effect.map(net), Effect.orDie)

    const bundleToday = (bundleId: string) =>
      sql<{ net: number | null }>`
        SELECT SUM(CASE l.type WHEN 'debit' THEN l.amount WHEN 'refund' THEN -l.amount ELSE 0 END)::int AS net
        FROM credit_ledger l JOIN audit_runs r ON r.id = l.resource_id AND l.resource_type = 'audit_run'
        WHERE r.artifact_bundle_id = ${bundleId} AND l.created_at >= ${today}`.pipe(Effect.map(net), Effect.orDie)

    const allToday = sql<{ net: number | null }>`
      SELECT SUM(CASE type WHEN 'debit' THEN amount WHEN 'refund' THEN -amount ELSE 0 END)::int AS net
      FROM credit_ledger WHERE created_at >= ${today} AND resource_type IN ${sql.in(aiResourceTypes)}`.pipe(
      Effect.map(net),
      Effect.orDie
    )

    return { userToday, bundleToday, allToday } as const
  })
}) {}
