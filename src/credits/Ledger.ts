/**
 * The append-only credit ledger. Every change of a balance is one ledger event written in the same
 * transaction as the balance row, under that row's lock: no overdraft under any concurrency, and one
 * event per idempotency key (a retried grant, debit or refund returns the first event).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Option, Schema } from "effect"
import { PgPool } from "../db/Database.js"
import { makeRows, type Rows, rowsOf } from "../db/Query.js"
import { CreditLimitExceeded } from "../domain/Errors.js"

export const LedgerEventType = Schema.Literal("grant", "debit", "refund")
export type LedgerEventType = typeof LedgerEventType.Type

export const LedgerEvent = Schema.Struct({
  id: Schema.String,
  type: LedgerEventType,
  amount: Schema.Number,
  reason: Schema.String,
  resourceType: Schema.NullOr(Schema.String),
  resourceId: Schema.NullOr(Schema.String),
  balanceAfter: Schema.Number,
  createdAt: Schema.DateFromSelf
})
export type LedgerEvent = typeof LedgerEvent.Type
const LedgerEventRows = rowsOf("ledger event", LedgerEvent)

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

export const Balance = Schema.Struct({ balance: Schema.Number, granted: Schema.Number, debited: Schema.Number, refunded: Schema.Number })
export type Balance = typeof Balance.Type
const BalanceRows = rowsOf("credit balance", Balance)
const LockedBalanceRows = rowsOf("locked credit balance", Balance.pick("balance"))

const eventColumnNames = ["id", "type", "amount", "reason", "resource_type", "resource_id", "balance_after", "created_at"] as const
const eventColumns = eventColumnNames.join(", ")
const eventColumnsOf = (alias: string) => eventColumnNames.map((c) => `${alias}.${c}`).join(", ")

/** A row of the append statement: the event written or found, or the balance when neither. */
const AppendRow = Schema.Union(
  Schema.Struct({ outcome: Schema.Literal("written", "found"), balance: Schema.Null, ...LedgerEvent.fields }),
  Schema.Struct({ outcome: Schema.Literal("balance"), balance: Schema.Number })
)
type AppendRow = typeof AppendRow.Type
const AppendRows = rowsOf("ledger append", AppendRow)

type EventRow = Extract<AppendRow, { readonly outcome: "written" | "found" }>
const toEvent = ({ outcome: _outcome, balance: _balance, ...event }: EventRow): LedgerEvent => event

/**
 * One statement: moves the balance (unless the event's key exists or the balance cannot cover it; the
 * row's lock, and a recheck against its latest version, come with the UPDATE), inserts the event with
 * the balance after it, moves today's AI spend, and answers what happened: the event written, the
 * event found under its key, or the balance.
 */
const appendStatement = (sql: SqlClient.SqlClient, rows: Rows, entry: LedgerEntry, delta: number, spendDelta: number) =>
  rows(AppendRows, sql`
    WITH moved AS (
      UPDATE credit_balances SET
        balance = balance + ${delta},
        granted = granted + ${entry.type === "grant" ? entry.amount : 0},
        debited = debited + ${entry.type === "debit" ? entry.amount : 0},
        refunded = refunded + ${entry.type === "refund" ? entry.amount : 0},
        updated_at = now()
      WHERE user_id = ${entry.userId} AND balance + ${delta} >= 0
        AND NOT EXISTS (SELECT 1 FROM credit_ledger WHERE idempotency_key = ${entry.idempotencyKey})
      RETURNING balance
    ), ins AS (
      INSERT INTO credit_ledger (user_id, type, amount, reason, resource_type, resource_id, balance_after, idempotency_key)
      SELECT ${entry.userId}, ${entry.type}, ${entry.amount}, ${entry.reason}, ${entry.resourceType ?? null},
             ${entry.resourceId ?? null}, moved.balance, ${entry.idempotencyKey}
      FROM moved
      RETURNING ${sql.literal(eventColumns)}
    ), spent AS (
      INSERT INTO credit_daily_spend (scope, scope_id, day, net)
      SELECT s.scope, s.scope_id, (now() AT TIME ZONE 'UTC')::date, ${spendDelta}
      FROM ins, (VALUES ('user', ${entry.userId}::text), ('bundle', ${entry.aiSpendBundleId ?? null}::text), ('all', '*')) AS s(scope, scope_id)
      WHERE ${spendDelta} <> 0
      ON CONFLICT (scope, scope_id, day) DO UPDATE SET net = credit_daily_spend.net + excluded.net
    )
    SELECT 'written' AS outcome, NULL::bigint AS balance, ${sql.literal(eventColumnsOf("ins"))} FROM ins
    UNION ALL
    SELECT 'found', NULL, ${sql.literal(eventColumnsOf("e"))} FROM credit_ledger e
    WHERE e.idempotency_key = ${entry.idempotencyKey} AND NOT EXISTS (SELECT 1 FROM ins)
    UNION ALL
    SELECT 'balance', b.balance, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM credit_balances b
    WHERE b.user_id = ${entry.userId} AND NOT EXISTS (SELECT 1 FROM ins)`)

/** What an append's answer settles: the event written, or found under its key (a replay); else nothing yet. */
const settled = (answer: ReadonlyArray<AppendRow>) => {
  const written = answer.find((r): r is EventRow => r.outcome === "written")
  if (written) return { event: toEvent(written), replayed: false as const }
  const found = answer.find((r): r is EventRow => r.outcome === "found")
  if (found) return { event: toEvent(found), replayed: true as const }
  return undefined
}

/** The one write of the ledger: an event appended, in the caller's transaction or its own. */
const makeAppend = (sql: SqlClient.SqlClient, rows: Rows) => {
  /**
   * Runs `effect` in the caller's transaction, or in a transaction of its own when there is none (no
   * savepoint round trips when nested: nothing in it needs rolling back on its own).
   */
  const withinTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.flatMap(
      Effect.serviceOption(SqlClient.TransactionConnection),
      (transaction) => (Option.isSome(transaction) ? effect : sql.withTransaction(effect))
    )

  /**
   * Appends one event; a replayed idempotency key returns the event already written. Runs in the
   * caller's transaction (no savepoint: nothing in it needs rolling back on its own), or in one of its
   * own. Two statements (issue 16; there were six and a savepoint): the balance row lock, then
   * `appendStatement`, whose snapshot, taken under that lock, sees every append of this user that
   * committed before, so a concurrent append with the same key (a cancel racing a failure's refund) is
   * found and replayed.
   *
   * `fresh`: the key was made in this transaction (a new run's debit), so no other transaction can be
   * appending it: one statement, `appendStatement` alone. When it neither writes nor finds the event
   * (the balance cannot cover it, the user has no balance row yet), the answer is settled under the lock.
   */
  const append = Effect.fn("Ledger.append")(function*(entry: LedgerEntry, options?: { readonly fresh?: boolean }) {
    if (!Number.isInteger(entry.amount) || entry.amount < 0) {
      return yield* Effect.dieMessage(`ledger amount must be a non-negative integer, got ${entry.amount}`)
    }
    const delta = entry.type === "debit" ? -entry.amount : entry.amount
    const spendDelta = entry.aiSpendBundleId && entry.type !== "grant" && entry.amount > 0 ? -delta : 0
    if (options?.fresh) {
      const done = settled(yield* appendStatement(sql, rows, entry, delta, spendDelta))
      if (done) return done
    }
    const lock = rows(LockedBalanceRows, sql`SELECT balance FROM credit_balances WHERE user_id = ${entry.userId} FOR UPDATE`)
    if ((yield* lock).length === 0) {
      // a user's first ledger event: the balance row first
      yield* sql`INSERT INTO credit_balances (user_id) VALUES (${entry.userId}) ON CONFLICT (user_id) DO NOTHING`
      yield* lock
    }
    const answer = yield* appendStatement(sql, rows, entry, delta, spendDelta)
    const done = settled(answer)
    if (done) return done
    const balance = answer.find((r) => r.outcome === "balance")?.balance ?? 0
    if (balance + delta < 0) {
      return yield* new CreditLimitExceeded({
        message: `This needs ${entry.amount} credits; the balance is ${balance}.`,
        details: [{ required: entry.amount, balance }]
      })
    }
    return yield* Effect.dieMessage(`ledger append ${entry.idempotencyKey}: neither written nor found`)
  }, withinTransaction, Effect.catchTag("SqlError", Effect.die))

  return { append } as const
}

/** A user's balance and latest events. */
const makeLedgerReads = (sql: SqlClient.SqlClient, rows: Rows) => {
  const balance = Effect.fn("Ledger.balance")(function*(userId: string) {
    const [row] = yield* rows(BalanceRows, sql`
      SELECT balance, granted, debited, refunded FROM credit_balances WHERE user_id = ${userId}`)
    return row ?? { balance: 0, granted: 0, debited: 0, refunded: 0 }
  }, Effect.orDie)

  const recent = Effect.fn("Ledger.recent")(function*(userId: string, limit: number) {
    return yield* rows(LedgerEventRows, sql`
      SELECT ${sql.literal(eventColumns)} FROM credit_ledger WHERE user_id = ${userId} ORDER BY seq DESC LIMIT ${limit}`)
  }, Effect.orDie)

  return { balance, recent } as const
}

export class Ledger extends Effect.Service<Ledger>()("rubr/Ledger", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = makeRows(yield* PgPool)
    return { ...makeAppend(sql, rows), ...makeLedgerReads(sql, rows) } as const
  })
}) {}
