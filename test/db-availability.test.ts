/** What counts as "the database is unreachable" (503 for requests, a restart for the worker, survived by the process). */
import * as SqlError from "@effect/sql/SqlError"
import { Cause } from "effect"
import { describe, expect, it } from "vitest"
import { databaseTarget, describeDatabaseError, isDatabaseUnavailable } from "../src/db/Availability.js"

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code })

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
    ["a reset socket", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })],
    ["the postmaster gone", pgError("57P01", "terminating connection due to unexpected postmaster exit")],
    ["a server starting up", pgError("57P03", "the database system is starting up")],
    ["a database closed to connections", pgError("55000", 'database "x" is not currently accepting connections')],
    ["too many connections", pgError("53300", "sorry, too many clients already")],
    ["a connection lost mid-query (no code)", new Error("Connection terminated unexpectedly")],
    ["the pool's acquire timeout (no code)", new Error("timeout exceeded when trying to connect")]
  ])("%s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true)
    // as @effect/sql wraps it, and as a fiber's cause carries it (a defect, after orDie)
    const wrapped = new SqlError.SqlError({ cause: error, message: "Failed to execute statement" })
    expect(isDatabaseUnavailable(wrapped)).toBe(true)
    expect(isDatabaseUnavailable(Cause.die(wrapped))).toBe(true)
    expect(isDatabaseUnavailable(new AggregateError([new Error("other"), error]))).toBe(true)
  })

  it.each([
    ["a syntax error", pgError("42601", "syntax error at or near \"SELEC\"")],
    ["a unique violation", pgError("23505", "duplicate key value violates unique constraint")],
    ["a serialization failure", pgError("40001", "could not serialize access")],
    ["a plain bug", new TypeError("Cannot read properties of undefined")],
    ["nothing", undefined]
  ])("not %s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false)
    expect(isDatabaseUnavailable(new SqlError.SqlError({ cause: error, message: "Failed to execute statement" }))).toBe(false)
  })
})

describe("what a log line may say about the database", () => {
  it("names host and port, never the password", () => {
    expect(databaseTarget("postgres://rubr:s3cret@db.internal:6543/rubr")).toBe("db.internal:6543")
    expect(databaseTarget("postgres://rubr:s3cret@db.internal/rubr")).toBe("db.internal:5432")
    expect(databaseTarget("not a url")).toBe("the configured database")
  })

  it("gives the driver's first line, not the wrapper's", () => {
    const error = new SqlError.SqlError({ cause: pgError("57P01", "terminating connection due to administrator command\nDETAIL: x"), message: "Failed" })
    expect(describeDatabaseError(Cause.die(error))).toBe("terminating connection due to administrator command")
  })
})
