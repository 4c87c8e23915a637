/**
 * The process around the service: it starts the program, stops it on SIGTERM/SIGINT within the
 * shutdown deadline whatever the database is doing, and ends with one plain line on stderr saying how
 * it ended (and the exit code to match):
 *
 *   rubr: could not start: …                                   exit 1 (a start-up failure, never a stack trace)
 *   rubr: stopped on SIGTERM: drained in 0.4 s                  exit 0
 *   rubr: stopped on SIGTERM: the drain did not finish within … exit 1 (the deadline cut it short)
 *   rubr: stopped on SIGINT: a second signal cut the drain short  exit 1 (a second Ctrl-C, a second later or more)
 *
 * It also keeps a lost database from ending the process: graphile-worker and node-postgres settle some
 * promises nobody awaits, and a rejected one would crash Node. Those that say the database is
 * unreachable are logged and survived (the worker restarts itself once the database is back); any
 * other unhandled failure still ends the process, as Node would, but with one line first.
 */
import { Cause, Effect, Exit, Fiber } from "effect"
import { describeDatabaseError, isDatabaseUnavailable } from "./db/Availability.js"
import { say } from "./process/Say.js"
import { markStopping } from "./process/Stopping.js"
import { explainStartupFailure } from "./process/StartupFailure.js"

export interface ServiceProcess {
  readonly shutdownTimeoutS: number
  /** where the API listens, for a taken port's message */
  readonly listen: { readonly host: string; readonly port: number }
  /** a structured log line through the service's logger */
  readonly warn: (message: string, annotations: Record<string, unknown>) => void
}


/** The same signal again within this many milliseconds is the same request to stop, not a second one. */
const SAME_STOP_MS = 1_000

/** At most one warning per `windowMs` for the same kind of survived failure (an outage can make hundreds). */
const throttled = (windowMs: number) => {
  let last = 0
  let suppressed = 0
  return (emit: (suppressed: number) => void) => {
    const now = Date.now()
    if (now - last < windowMs) {
      suppressed++
      return
    }
    emit(suppressed)
    last = now
    suppressed = 0
  }
}

const installLastResort = (service: ServiceProcess) => {
  const warnOnce = throttled(10_000)
  const handle = (origin: "unhandledRejection" | "uncaughtException") => (error: unknown) => {
    if (isDatabaseUnavailable(error)) {
      warnOnce((suppressed) =>
        service.warn("a database call failed while the database was unreachable; the service carries on", {
          origin,
          reason: describeDatabaseError(error),
          ...(suppressed > 0 ? { similarSinceLastWarning: suppressed } : {})
        })
      )
      return
    }
    say(`internal error (${origin}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    process.exit(1)
  }
  process.on("unhandledRejection", handle("unhandledRejection"))
  process.on("uncaughtException", handle("uncaughtException"))
}

/**
 * Runs `program` (which builds the service and then runs until interrupted) as the process. `started`
 * is an effect the program runs once it is up: a failure before it is a start-up failure.
 */
export const runService = (
  program: (started: Effect.Effect<void>) => Effect.Effect<unknown, unknown>,
  service: ServiceProcess
) => {
  installLastResort(service)

  let started = false
  let signal: NodeJS.Signals | undefined
  let stopAt = 0
  let deadline: ReturnType<typeof setTimeout> | undefined
  // the event loop must stay up while the program runs, whatever it is waiting on
  const keepAlive = setInterval(() => undefined, 2 ** 31 - 1)

  const fiber = Effect.runFork(program(Effect.sync(() => {
    started = true
  })))

  const onSignal = (received: NodeJS.Signals) => {
    if (signal !== undefined) {
      // one stop often arrives twice: a terminal's Ctrl-C reaches every process of its group, npm
      // forwards what it gets to the service `npm start` runs, and so does a supervisor's group kill
      if (received === signal && performance.now() - stopAt < SAME_STOP_MS) return
      say(`stopped on ${received}: a second signal cut the drain short`)
      process.exit(1)
    }
    signal = received
    markStopping()
    stopAt = performance.now()
    deadline = setTimeout(() => {
      say(
        `stopped on ${received}: the drain did not finish within ${service.shutdownTimeoutS} s ` +
          `(SERVICE_SHUTDOWN_TIMEOUT_S); exiting with work cut short (running jobs are retried by another worker)`
      )
      process.exit(1)
    }, service.shutdownTimeoutS * 1000)
    Effect.runFork(Fiber.interrupt(fiber))
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)

  fiber.addObserver((exit) => {
    clearInterval(keepAlive)
    if (deadline) clearTimeout(deadline)
    if (signal !== undefined) {
      const seconds = ((performance.now() - stopAt) / 1000).toFixed(1)
      if (Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)) {
        say(started ? `stopped on ${signal}: drained in ${seconds} s` : `stopped on ${signal} while starting (after ${seconds} s)`)
        process.exit(0)
      }
      say(`stopped on ${signal}: the drain ended with an error after ${seconds} s: ${Cause.pretty(exit.cause).split("\n")[0]}`)
      process.exit(1)
    }
    if (Exit.isFailure(exit)) {
      say(started ? `stopped unexpectedly: ${Cause.pretty(exit.cause).split("\n")[0]}` : explainStartupFailure(exit.cause, service.listen))
      process.exit(1)
    }
    process.exit(0)
  })
}
