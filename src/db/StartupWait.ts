/**
 * At start, the database may not be up yet (a compose file or a pod starts the service beside it):
 * try it with backoff for SERVICE_DB_CONNECT_TIMEOUT_S, one plain line per failed attempt naming the
 * host and port (never the password), then start normally once it answers, or give up with one line.
 * A refusal that waiting cannot cure (a wrong password, a database that does not exist) ends the start
 * at once.
 */
import { Duration, Effect } from "effect"
import type pg from "pg"
import { say } from "../process/Say.js"
import { StartupFailure } from "../process/StartupFailure.js"
import { describeDatabaseError, isDatabaseUnavailable } from "./Availability.js"

/** SQLSTATEs that no wait will fix: bad credentials, no such database or role. */
const permanent: Record<string, string> = {
  "28P01": "PostgreSQL refused the password in DATABASE_URL",
  "28000": "PostgreSQL refused the user in DATABASE_URL",
  "3D000": "the database named in DATABASE_URL does not exist",
  "42501": "the user in DATABASE_URL may not connect to that database"
}

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code

/** The delay before attempt `n + 1`: 0.5 s, 1 s, 2 s, then every 4 s. */
const backoff = (attempt: number) => Math.min(4000, 500 * 2 ** (attempt - 1))

export const waitForDatabase = (pool: pg.Pool, target: string, timeoutS: number) =>
  Effect.gen(function*() {
    const started = performance.now()
    const elapsed = () => (performance.now() - started) / 1000
    for (let attempt = 1;; attempt++) {
      const result = yield* Effect.either(Effect.tryPromise(() => pool.query("SELECT 1")).pipe(Effect.mapError((e) => e.error)))
      if (result._tag === "Right") {
        if (attempt > 1) say(`the database at ${target} answered after ${elapsed().toFixed(1)} s; starting`)
        return
      }
      const error = result.left
      const code = codeOf(error)
      if (typeof code === "string" && permanent[code]) {
        return yield* new StartupFailure({
          problem: `${permanent[code]} (${target}: ${describeDatabaseError(error)})`,
          fix: "Correct DATABASE_URL."
        })
      }
      if (!isDatabaseUnavailable(error)) {
        return yield* new StartupFailure({
          problem: `the database at ${target} answered with an error: ${describeDatabaseError(error)}`,
          fix: "Check DATABASE_URL and the server's log."
        })
      }
      const delay = backoff(attempt)
      if (elapsed() + delay / 1000 > timeoutS) {
        return yield* new StartupFailure({
          problem: `the database at ${target} did not answer within ${timeoutS} s (last: ${describeDatabaseError(error)})`,
          fix: "Start PostgreSQL or correct DATABASE_URL; SERVICE_DB_CONNECT_TIMEOUT_S sets how long to wait."
        })
      }
      say(
        `waiting for the database at ${target} (${describeDatabaseError(error)}): attempt ${attempt}, ` +
          `next in ${(delay / 1000).toFixed(1)} s, giving up after ${timeoutS} s`
      )
      yield* Effect.sleep(Duration.millis(delay))
    }
  })
