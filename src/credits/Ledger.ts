/**
 * The append-only credit ledger. Every change of a balance is one ledger event written in the same
 * transaction as the balance row, under that row's lock: no overdraft under any concurrency, and one
 * event per idempotency key (a retried grant, debit or refund returns the first event).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { CreditLimitExceeded } from "../domain/Errors.js"

export type LedgerEventType = "grant" | "debit" | "refund"

export interface LedgerEvent {
  readonly id: string
  readonly type: LedgerEventType
  readonly amount: number
  readonly reason: string
  readonly resourceType: string | null
  readonly resourceId: string | null
  readonly balanceAfter: number
  readonly createdAt: Date
}

export interface LedgerEntry {
  readonly userId: string
  readonly type: LedgerEventType
  readonly amount: number
  readonly reason: string
  readonly resourceType?: string | null
  readonly resourceId?: string | null
  /** Unique per (reason, resource): the database refuses a second event with the same key. */
  readonly idempotencyKey: string
  /** For debits and refunds of AI work: counts towards today's spend of the user, this bundle and everyone. */
  readonly aiSpendBundleId?: string | null
}

export interface Balance {
  readonly balance: number
  readonly granted: number
  readonly debited: number
  readonly refunded: number
}

const eventColumns = "id, type, amount, reason, resource_type, resource_id, balance_after, created_at"

export class Ledger extends Effect.Service<Ledger>()("rubr/Ledger", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Appends one event; a replayed idempotency key returns the event already written. */
    const append = Effect.fn("Ledger.append")(function*(entry: LedgerEntry) {
      if (!Number.isInteger(entry.amount) || entry.amount < 0) {
        return yield* Effect.dieMessage(`ledger amount must be a non-negative integer, got ${entry.amount}`)
      }
      yield* sql`INSERT INTO credit_balances (user_id) VALUES (${entry.userId}) ON CONFLICT (user_id) DO NOTHING`
      const [current] = yield* sql<Balance>`
        SELECT balance, granted, debited, refunded FROM credit_balances WHERE user_id = ${entry.userId} FOR UPDATE`
      const [existing] = yield* sql<LedgerEvent>`
        SELECT ${sql.literal(eventColumns)} FROM credit_ledger WHERE idempotency_key = ${entry.idempotencyKey}`
      if (existing) return { event: existing, replayed: true as const }
      const delta = entry.type === "debit" ? -entry.amount : entry.amount
      const balanceAfter = current.balance + delta
      if (balanceAfter < 0) {
        return yield* new CreditLimitExceeded({
          message: `This needs ${entry.amount} credits; the balance is ${current.balance}.`,
          details: [{ required: entry.amount, balance: current.balance }]
        })
      }
      yield* sql`
        UPDATE credit_balances SET
          balance = ${balanceAfter},
          granted = granted + ${entry.type === "grant" ? entry.amount : 0},
          debited = debited + ${entry.type === "debit" ? entry.amount : 0},
          refunded = refunded + ${entry.type === "refund" ? entry.amount : 0},
          updated_at = now()
        WHERE user_id = ${entry.userId}`
      const [event] = yield* sql<LedgerEvent>`
        INSERT INTO credit_ledger (user_id, type, amount, reason, resource_type, resource_id, balance_after, idempotency_key)
        VALUES (${entry.userId}, ${entry.type}, ${entry.amount}, ${entry.reason}, ${entry.resourceType ?? null},
                ${entry.resourceId ?? null}, ${balanceAfter}, ${entry.idempotencyKey})
        RETURNING ${sql.literal(eventColumns)}`
      if (entry.aiSpendBundleId && entry.type !== "grant" && entry.amount > 0) {
        const delta = entry.type === "debit" ? entry.amount : -entry.amount
        yield* sql`
          INSERT INTO credit_daily_spend (scope, scope_id, day, net)
          VALUES ('user', ${entry.userId}, (now() AT TIME ZONE 'UTC')::date, ${delta}),
                 ('bundle', ${entry.aiSpendBundleId}, (now() AT TIME ZONE 'UTC')::date, ${delta}),
                 ('all', '*', (now() AT TIME ZONE 'UTC')::date, ${delta})
          ON CONFLICT (scope, scope_id, day) DO UPDATE SET net = credit_daily_spend.net + excluded.net`
      }
      return { event, replayed: false as const }
    }, (effect) => sql.withTransaction(effect), Effect.catchTag("SqlError", Effect.die))

    const balance = Effect.fn("Ledger.balance")(function*(userId: string) {
      const [row] = yield* sql<Balance>`
        SELECT balance, granted, debited, refunded FROM credit_balances WHERE user_id = ${userId}`
      return row ?? { balance: 0, granted: 0, debited: 0, refunded: 0 }
    }, Effect.orDie)

    const recent = Effect.fn("Ledger.recent")(function*(userId: string, limit: number) {
      return yield* sql<LedgerEvent>`
        SELECT ${sql.literal(eventColumns)} FROM credit_ledger WHERE user_id = ${userId} ORDER BY seq DESC LIMIT ${limit}`
    }, Effect.orDie)

    return { append, balance, recent } as const
  })
}) {}
