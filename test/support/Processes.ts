/**
 * Real processes for the fault tests: a PostgreSQL server of the test's own (the embedded server's
 * package, on a port and data directory of its own, so the test can SIGKILL its postmaster and start it
 * again on the same data), and the service as users run it (`node dist/server/main.js`, which the global
 * setup built), with its output kept line by line. The server keeps its default durability: a killed
 * postmaster must not take commits with it (the fast settings of the other tests could).
 */
import { Effect, Scope, Exit } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import pg from "pg"
import { type DevKey, generateDevKey, mintToken } from "../../src/auth/DevTokens.js"
import { freePort, startEmbedded } from "../../src/db/EmbeddedPostgres.js"
import type { BodyOf } from "./Api.js"

export const tempDir = (prefix: string) => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), prefix))
  // the embedded server runs as the `postgres` user when the tests run as root: it must walk down here
  Fs.chmodSync(dir, 0o755)
  return dir
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Polls `check` every `everyMs` until it returns a value other than undefined, or throws after `timeoutMs`. */
export const eventually = async <A>(what: string, check: () => Promise<A | undefined>, timeoutMs = 30_000, everyMs = 200): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(everyMs)
  }
}

/** A PostgreSQL server the test owns: killed (SIGKILL, no shutdown) and started again on the same data. */
export interface TestPostgres {
  readonly port: number
  readonly dataDir: string
  /** a connection string to `database` on this server */
  readonly url: (database?: string) => string
  readonly createDatabase: (name: string) => Promise<string>
  readonly kill: () => void
  readonly start: () => Promise<void>
  readonly stop: () => Promise<void>
  readonly alive: () => boolean
}

const postmasterPid = (dataDir: string) => {
  try {
    return Number(Fs.readFileSync(Path.join(dataDir, "pg", "postmaster.pid"), "utf8").split("\n")[0])
  } catch {
    return undefined
  }
}

const isAlive = (pid: number | undefined) => {
  if (!pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export const startTestPostgres = async (): Promise<TestPostgres> => {
  const dataDir = tempDir("rubr-faults-pg-")
  const port = await freePort()
  let scope = Effect.runSync(Scope.make())
  const start = async () => {
    scope = Effect.runSync(Scope.make())
    // a postmaster killed a moment ago may leave backends that still hold its shared memory: retry briefly
    for (let attempt = 1;; attempt++) {
      const exit = await Effect.runPromiseExit(Scope.extend(startEmbedded({ dataDir, port }), scope))
      if (Exit.isSuccess(exit)) return
      if (attempt >= 20) throw new Error(`test PostgreSQL did not start: ${String(exit.cause)}`)
      await sleep(250)
    }
  }
  await start()
  const url = (database = "postgres") => `postgres://postgres:rubr-embedded@127.0.0.1:${port}/${database}`
  return {
    port,
    dataDir,
    url,
    createDatabase: async (name) => {
      const client = new pg.Client({ connectionString: url() })
      await client.connect()
      try {
        await client.query(`CREATE DATABASE ${name}`)
      } finally {
        await client.end()
      }
      return url(name)
    },
    kill: () => {
      const pid = postmasterPid(dataDir)
      if (pid && isAlive(pid)) process.kill(pid, "SIGKILL")
    },
    start,
    stop: () => Effect.runPromise(Scope.close(scope, Exit.void)),
    alive: () => isAlive(postmasterPid(dataDir))
  }
}

export const ISSUER = "rubr-faults"
export const AUDIENCE = "rubr-faults-aud"

/** Identity for the services under test: a JWKS file they trust and tokens signed by its key. */
export const makeIdentity = async (dir: string) => {
  const { key, jwks } = await generateDevKey()
  const jwksFile = Path.join(dir, "jwks.json")
  Fs.writeFileSync(jwksFile, JSON.stringify(jwks))
  return {
    jwksFile,
    key: key as DevKey,
    token: (sub: string) => mintToken(key, { issuer: ISSUER, audience: AUDIENCE, sub })
  }
}

/** A service process as `npm start` runs it, with what it printed. */
export interface ServiceProcess {
  readonly child: ChildProcess
  readonly pid: number
  readonly baseUrl: string
  /** every line of stdout (structured JSON) and stderr (plain `rubr:` lines), in arrival order */
  readonly lines: () => ReadonlyArray<string>
  /** the plain lines on stderr */
  readonly stderrLines: () => ReadonlyArray<string>
  readonly waitForLine: (pattern: RegExp, timeoutMs?: number) => Promise<string>
  /** resolves when the process exits: its code and signal, and when */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly at: number }>
  readonly running: () => boolean
  /** as TestApp's: the reply body typed by the contract's endpoint for this method and path (the text when it is not JSON) */
  readonly request: <const M extends string, const P extends string>(
    method: M,
    path: P,
    options?: { token?: string; body?: unknown }
  ) => Promise<{ status: number; body: BodyOf<M, P> }>
  readonly kill: (signal?: NodeJS.Signals) => void
}

export const SERVER_MAIN = Path.resolve("dist/server/main.js")

/**
 * `env` over the defaults below. `command` runs the service another way than `node dist/server/main.js`
 * (`npm start`), from the repository's root; `detached` gives it a process group of its own, as a
 * terminal's foreground job has.
 */
export const spawnService = async (
  env: Record<string, string>,
  how: { readonly command?: readonly [string, ...Array<string>]; readonly detached?: boolean } = {}
): Promise<ServiceProcess> => {
  const port = env["PORT"] ?? String(await freePort())
  const [file, ...args] = how.command ?? [process.execPath, SERVER_MAIN]
  const child = spawn(file, args, {
    detached: how.detached ?? false,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SERVICE_AUTH_ISSUER: ISSUER,
      SERVICE_AUTH_AUDIENCE: AUDIENCE,
      SERVICE_LOG_LEVEL: "INFO",
      SERVICE_DB_POOL_SIZE: "8",
      SERVICE_WORKER_POLL_INTERVAL_MS: "300",
      PORT: port,
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const lines: Array<string> = []
  const tail = () => lines.slice(-8).map((line) => line.slice(0, 300)).join("\n")
  const stderrLines: Array<string> = []
  const waiters = new Set<() => void>()
  const collect = (into: Array<string> | undefined) => {
    let rest = ""
    return (chunk: Buffer) => {
      const parts = (rest + chunk.toString()).split("\n")
      rest = parts.pop() ?? ""
      for (const line of parts) {
        lines.push(line)
        into?.push(line)
      }
      for (const wake of waiters) wake()
    }
  }
  child.stdout!.on("data", collect(undefined))
  child.stderr!.on("data", collect(stderrLines))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on("exit", (code, signal) => {
      for (const wake of waiters) wake()
      resolve({ code, signal, at: performance.now() })
    })
  )
  const baseUrl = `http://127.0.0.1:${port}/api/v1`
  return {
    child,
    pid: child.pid!,
    baseUrl,
    lines: () => lines,
    stderrLines: () => stderrLines,
    waitForLine: (pattern, timeoutMs = 30_000) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const found = lines.find((line) => pattern.test(line))
          if (found !== undefined) {
            cleanup()
            resolve(found)
          } else if (child.exitCode !== null || child.signalCode !== null) {
            cleanup()
            reject(new Error(`the process exited before printing ${pattern}:\n${tail()}`))
          }
        }
        const timer = setTimeout(() => {
          cleanup()
          reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${tail()}`))
        }, timeoutMs)
        const cleanup = () => {
          clearTimeout(timer)
          waiters.delete(check)
        }
        waiters.add(check)
        check()
      }),
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
    request: async <const M extends string, const P extends string>(method: M, path: P, options: { token?: string; body?: unknown } = {}) => {
      const response = await fetch(baseUrl + path, {
        method,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.body !== undefined ? { "content-type": "application/json" } : {})
        },
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        signal: AbortSignal.timeout(20_000)
      })
      const text = await response.text()
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        body = text
      }
      return { status: response.status, body: body as BodyOf<M, P> }
    },
    kill: (signal = "SIGKILL") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    }
  }
}

/** The rows of one query on `databaseUrl`, on a connection of its own. */
export const query = async <A>(databaseUrl: string, text: string, params: ReadonlyArray<unknown> = []) => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return (await client.query(text, params as Array<unknown>)).rows as Array<A>
  } finally {
    await client.end()
  }
}

/** Until one of `jobIds` is running. */
export const waitForRunning = (databaseUrl: string, jobIds: ReadonlyArray<string>) =>
  eventually("a job to be running", async () => {
    const rows = await query<{ n: number }>(databaseUrl, "SELECT count(*)::int AS n FROM jobs WHERE state = 'running' AND id = ANY($1::uuid[])", [jobIds])
    return rows[0]!.n > 0 ? true : undefined
  })

/** Until the service's /health answers 200. */
export const healthy = (svc: ServiceProcess, timeoutMs = 30_000) =>
  eventually(`${svc.baseUrl}/health to answer 200`, async () => ((await svc.request("GET", "/health")).status === 200 ? true : undefined), timeoutMs)
