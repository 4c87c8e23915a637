/**
 * Whether an error means "the database cannot be reached right now" (refused, shut down, restarting,
 * connection lost, no connection within the acquire timeout), as opposed to a query that is wrong.
 * One answer for every door: requests turn it into 503 `service_unavailable`, the worker into a
 * restart once the database is back, the process's last-resort handler into a warning instead of a
 * crash (docs/deploy.md, "When the database fails over").
 */
import { Cause } from "effect"

/** SQLSTATE classes and node socket errors of an unreachable server. */
const unavailableCodes = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "ENOTFOUND", "EAI_AGAIN",
  "57P01", // admin_shutdown ("terminating connection due to administrator command" or postmaster exit)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down, in recovery)
  "08000", "08001", "08003", "08004", "08006", // connection exceptions
  "53300", // too_many_connections
  "55000" // object_not_in_prerequisite_state: "database … is not currently accepting connections"
])

/** What node-postgres and pg-pool say when a connection dies or none can be had (they set no code). */
const unavailableMessages =
  /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated unexpectedly|Client was closed and is not queryable|terminating connection due to|the database system is (starting up|shutting down|in recovery)/i

const MAX_DEPTH = 6

const check = (error: unknown, depth: number): boolean => {
  if (depth > MAX_DEPTH || typeof error !== "object" || error === null) return false
  if (Cause.isCause(error)) return check(Cause.squash(error), depth + 1)
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown }
  if (typeof e.code === "string" && unavailableCodes.has(e.code)) return true
  if (typeof e.message === "string" && unavailableMessages.test(e.message)) return true
  // @effect/sql's SqlError keeps the driver's error as its cause; AggregateError (several failed connects) its errors
  if (Array.isArray(e.errors) && e.errors.some((inner) => check(inner, depth + 1))) return true
  return e.cause !== undefined && e.cause !== error && check(e.cause, depth + 1)
}

/** True when `error` (an Error, a SqlError, a Cause, an AggregateError) says the database is unreachable. */
export const isDatabaseUnavailable = (error: unknown): boolean => check(error, 0)

/** `host:port` of a connection string, never its password (for log lines and start-up messages). */
export const databaseTarget = (connectionString: string): string => {
  try {
    const url = new URL(connectionString)
    const host = url.hostname === "" ? "localhost" : url.hostname
    return `${host}:${url.port === "" ? "5432" : url.port}`
  } catch {
    return "the configured database"
  }
}

/** A short reason for a log line: the driver's code and message, without a stack. */
export const describeDatabaseError = (error: unknown): string => {
  const found = Cause.isCause(error) ? Cause.squash(error) : error
  const inner = (found as { cause?: unknown } | null)?.cause
  const e = (typeof inner === "object" && inner !== null && (found as { _tag?: unknown })._tag === "SqlError" ? inner : found) as {
    code?: unknown
    message?: unknown
    errors?: ReadonlyArray<unknown>
  }
  const message = typeof e?.message === "string" && e.message !== ""
    ? e.message
    : Array.isArray(e?.errors) && e.errors.length > 0
    ? describeDatabaseError(e.errors[0])
    : String(found)
  return message.split("\n")[0]!
}
