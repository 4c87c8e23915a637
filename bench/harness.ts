/**
 * The benchmark harness shared by every section: one embedded PostgreSQL with a migrated database (fast
 * or durable settings, see `PostgresMode`), the service and the baseline as child processes on it, a
 * seeded user with an all-scopes API key, and an autocannon runner (autocannon runs in this process;
 * the servers are separate processes). `ctx.startService` starts further service processes with
 * `--expose-gc` and bench/heap-probe.ts preloaded, whose heap can be read after a full GC.
 */
import autocannon from "autocannon"
import { Effect, Exit, Scope } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import pg from "pg"
import { runMigrations as runWorkerMigrations } from "graphile-worker"
import { allScopes } from "../src/auth/Scopes.js"
import { freePort, startEmbedded } from "../src/db/EmbeddedPostgres.js"
import { migrate } from "../src/db/Migrations.js"
import { generateRawKey, hashKey } from "../src/identity/ApiKeys.js"
import type { HeapReport, HeapSample } from "./heap-probe.js"
import { npmStartCommand } from "../scripts/start-command.js"

export const root = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")

export type Target = "service" | "baseline"

export interface Measurement {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly total: number
  readonly non2xx: number
  readonly errors: number
  /** CPU time (user + system) the server process spent per request during the run; NaN off Linux. */
  readonly cpuMsPerRequest: number
  /** CPU time the PostgreSQL processes spent per request during the run; NaN off Linux. */
  readonly postgresCpuMsPerRequest: number
}

export interface Row {
  readonly name: string
  readonly service: Measurement
  readonly baseline: Measurement
}

/**
 * How the embedded PostgreSQL runs: `fast` (fsync, synchronous_commit and full_page_writes off, as in
 * the tests; the default) or `durable` (PostgreSQL's defaults, all on, as in production).
 */
export type PostgresMode = "fast" | "durable"

export const postgresModes: Record<PostgresMode, string> = {
  fast: "fast: fsync=off, synchronous_commit=off, full_page_writes=off",
  durable: "durable: fsync=on, synchronous_commit=on, full_page_writes=on (production settings)"
}

export interface BenchContext {
  readonly postgres: PostgresMode
  readonly pool: pg.Pool
  readonly databaseUrl: string
  readonly urls: Record<Target, string>
  readonly userId: string
  readonly apiKey: string
  readonly durationSeconds: number
  readonly run: (options: RunOptions) => Promise<Measurement>
  /** The server processes' ids (for /proc sampling). */
  readonly pids: Record<Target, number | undefined>
  /**
   * Another service process (role api) on the same database, apart from the shared one, with the heap
   * probe preloaded; stopped with the bench, or earlier with `stop`.
   */
  readonly startService: (options: ServiceOptions) => Promise<ServiceProcess>
}

export interface ServiceOptions {
  /** Names its log, bench/results/service-<label>.log. */
  readonly label: string
  /** Node flags after npm start's (a later V8 flag wins over an earlier one). */
  readonly nodeArgs?: ReadonlyArray<string>
  /** Leave npm start's node flags out: `nodeArgs` are all the flags. */
  readonly withoutStartFlags?: boolean
  /**
   * A prebuilt ESM bundle of src/main.ts (dist/server/main.js, as `npm start` runs it) and of
   * bench/heap-probe.ts, run by plain node, instead of src/main.ts through tsx. Paths are from the
   * repository root.
   */
  readonly bundle?: { readonly main: string; readonly probe: string }
}

export interface ServiceProcess {
  /** The base URL, with /api/v1. */
  readonly url: string
  readonly pid: number | undefined
  /** The heap after full GCs (bench/heap-probe.ts, through SIGUSR2). */
  readonly heap: () => Promise<HeapReport>
  /** The process's memory samples (every 200 ms, bench/heap-probe.ts) taken between two Date.now() times. */
  readonly heapSamples: (since: number, until: number) => Array<HeapSample>
  readonly stop: () => Promise<void>
}

export interface RunOptions {
  readonly target: Target
  readonly url: string
  readonly method?: "GET" | "PUT" | "POST"
  readonly connections?: number
  readonly duration?: number
  /** Called for each request; returns the body to send (for writes). */
  readonly body?: (n: number) => string
  /** Called for each request; returns the path (with /api/v1) to request instead of the URL's. */
  readonly path?: (n: number) => string
  /** Sent besides the API key and the JSON content type. */
  readonly headers?: Record<string, string>
}

const waitFor = (child: ChildProcess, pattern: RegExp, label: string) =>
  new Promise<void>((resolve, reject) => {
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (pattern.test(output)) {
        child.stdout?.off("data", onData)
        resolve()
      }
    }
    child.stdout?.on("data", onData)
    child.stderr?.on("data", (c: Buffer) => (output += c.toString()))
    child.once("exit", (code) => reject(new Error(`${label} exited with ${code}:\n${output.slice(-2000)}`)))
    setTimeout(() => reject(new Error(`${label} did not start in time:\n${output.slice(-2000)}`)), 60_000).unref()
  })

/**
 * The node flags `npm start` runs the service with (package.json), e.g. the young-generation size. Both
 * servers get them, so the baseline runs on the same V8 settings as the service.
 */
export const startNodeFlags = (cwd: string): Array<string> =>
  npmStartCommand(cwd).filter((arg) => arg.startsWith("--") && !arg.startsWith("--import"))

/** Extra node flags from an environment variable (space-separated), e.g. BENCH_SERVICE_NODE_ARGS. */
const nodeArgsFrom = (name: string) => (process.env[name] ?? "").split(" ").filter((arg) => arg.length > 0)

const tsx = (
  script: string,
  env: Record<string, string>,
  nodeArgs: ReadonlyArray<string> = [],
  cwd = root
) =>
  spawn(process.execPath, [...startNodeFlags(cwd), ...nodeArgs, "--import", "tsx", script], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })

/** The fields of /proc/<pid>/stat after the command name (Linux); field 11 is utime, 12 stime, 13-14 children's. */
const procStat = (pid: number | string) => {
  const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number)
}

/** utime + stime of a process in milliseconds (Linux /proc; clock ticks are 100 Hz there). */
const cpuMs = (pid: number | undefined) => {
  try {
    const fields = procStat(pid ?? -1)
    return (fields[11] + fields[12]) * 10
  } catch {
    return Number.NaN
  }
}

/** CPU of the embedded PostgreSQL (postmaster, live and exited backends) in milliseconds, from /proc. */
const postgresCpuMs = (dataDir: string) => {
  try {
    const postmaster = Number(Fs.readFileSync(Path.join(dataDir, "pg", "postmaster.pid"), "utf8").split("\n")[0])
    let total = 0
    for (const entry of Fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue
      try {
        const fields = procStat(entry)
        // the postmaster's own time plus what its exited backends used (cutime/cstime), and every live backend
        if (Number(entry) === postmaster) total += (fields[11] + fields[12] + fields[13] + fields[14]) * 10
        else if (fields[1] === postmaster) total += (fields[11] + fields[12]) * 10
      } catch {
        // the process ended meanwhile
      }
    }
    return total
  } catch {
    return Number.NaN
  }
}

// one counter across every run (warm-ups, rounds, targets), so generated paths never repeat
let n = 0

/** autocannon against one URL with the bench API key; a warm-up run first. */
const runner = (apiKey: string, durationSeconds: number, pids: Record<Target, number | undefined>, dataDir: string) =>
async (options: RunOptions): Promise<Measurement> => {
  const once = (duration: number) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...options.headers }
      autocannon(
        {
          url: options.url,
          connections: options.connections ?? Number(process.env.BENCH_CONNECTIONS ?? 10),
          duration,
          method: options.method ?? "GET",
          headers,
          requests: options.body || options.path
            ? [{
              method: options.method ?? "GET",
              setupRequest: (request: any) => {
                const i = n++
                return {
                  ...request,
                  ...(options.path ? { path: options.path(i) } : {}),
                  ...(options.body ? { body: options.body(i) } : {})
                }
              }
            }]
            : undefined
        } as autocannon.Options,
        (error, result) => (error ? reject(error) : resolve(result))
      )
    })
  // warm-up: long enough for V8 to finish optimizing the servers (the service has far more code to tier up)
  await once(Math.max(5, Math.round((options.duration ?? durationSeconds) / 2)))
  const cpuBefore = cpuMs(pids[options.target])
  const postgresBefore = postgresCpuMs(dataDir)
  const result = await once(options.duration ?? durationSeconds)
  const cpu = cpuMs(pids[options.target]) - cpuBefore
  const postgres = postgresCpuMs(dataDir) - postgresBefore
  const requests = Math.max(1, result.requests.total)
  return {
    cpuMsPerRequest: cpu / requests,
    postgresCpuMsPerRequest: postgres / requests,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts
  }
}

/** Starts everything; `use` runs the sections; everything stops afterwards, whatever happens. */
export const withBench = async <A>(
  use: (ctx: BenchContext) => Promise<A>,
  options: { readonly postgres?: PostgresMode } = {}
): Promise<A> => {
  const mode = options.postgres ?? "fast"
  const scope = Effect.runSync(Scope.make())
  Fs.mkdirSync(Path.join(root, "bench", "results"), { recursive: true })
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-bench-"))
  Fs.chmodSync(dir, 0o755)
  const fsType = filesystemOf(dir)
  if (mode === "durable" && fsType === "tmpfs") {
    process.stderr.write(`bench: WARNING: ${dir} is on tmpfs, where fsync costs nothing; set TMPDIR to a disk for durable numbers\n`)
  }
  const children: Array<ChildProcess> = []
  let pool: pg.Pool | undefined
  try {
    const server = await Effect.runPromise(Scope.extend(startEmbedded({ dataDir: dir, fast: mode === "fast" }), scope))
    const admin = new pg.Client({ connectionString: server.url })
    await admin.connect()
    await admin.query("CREATE DATABASE rubr_bench")
    await admin.end()
    const url = new URL(server.url)
    url.pathname = "/rubr_bench"
    const databaseUrl = url.toString()
    pool = new pg.Pool({ connectionString: databaseUrl, max: 4 })
    pool.on("error", () => undefined)
    pool.on("connect", (client) => client.on("error", () => undefined))
    await Effect.runPromise(migrate(pool))
    await runWorkerMigrations({ pgPool: pool })

    const raw = generateRawKey()
    const { rows: [user] } = await pool.query(`INSERT INTO users (email) VALUES ('bench@rubr.local') RETURNING id`)
    await pool.query(
      `INSERT INTO api_keys (user_id, name, prefix, key_hash, scopes) VALUES ($1, 'bench', $2, $3, $4)`,
      [user.id, raw.slice(0, 12), hashKey(raw), [...allScopes]]
    )

    const [servicePort, baselinePort] = [await freePort(), await freePort()]
    const generous = "1000000000"
    const serviceEnv = (port: number) => ({
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      SERVICE_ROLE: "api",
      SERVICE_DATA_DIR: dir,
      SERVICE_LOG_LEVEL: "WARN",
      SERVICE_DB_POOL_SIZE: "20",
      SERVICE_RATE_LIMIT_USER_PER_MINUTE: generous,
      SERVICE_RATE_LIMIT_KEY_PER_MINUTE: generous,
      SERVICE_RATE_LIMIT_BUNDLE_PER_MINUTE: generous,
      SERVICE_MAX_FILES_PER_BUNDLE: generous
    })
    const serviceNodeArgs = nodeArgsFrom("BENCH_SERVICE_NODE_ARGS")
    const service = tsx("src/main.ts", serviceEnv(servicePort), serviceNodeArgs)
    children.push(service)
    // keep the service's own output (warnings, errors) for after the run
    keepLog(service, "service.log")
    // BENCH_COMPARE_WITH=<another checkout>: that checkout's service stands in for the baseline (A/B of a change)
    const compareWith = process.env.BENCH_COMPARE_WITH
    const baseline = compareWith
      ? tsx("src/main.ts", serviceEnv(baselinePort), serviceNodeArgs, Path.resolve(compareWith))
      : tsx(
        "bench/baseline.ts",
        { DATABASE_URL: databaseUrl, PORT: String(baselinePort), POOL_SIZE: "20" },
        nodeArgsFrom("BENCH_BASELINE_NODE_ARGS")
      )
    children.push(baseline)
    // the service logs its start line at INFO; with WARN we wait for the port instead
    if (compareWith) await waitForPort(`http://127.0.0.1:${baselinePort}/api/v1/health`, baseline)
    else await waitFor(baseline, /baseline listening/, "baseline")
    await waitForPort(`http://127.0.0.1:${servicePort}/api/v1/health`, service)

    let started = 0
    // --expose-gc and the heap probe let a section read the process's heap after a GC (SIGUSR2) and
    // what its memory was made of during a run (samples every 200 ms)
    const startService = async (options: ServiceOptions): Promise<ServiceProcess> => {
      const port = await freePort()
      const heapFile = Path.join(dir, `heap-${++started}.json`)
      const sampleFile = Path.join(dir, `heap-samples-${started}.jsonl`)
      const env = { ...serviceEnv(port), BENCH_HEAP_REPORT_FILE: heapFile, BENCH_HEAP_SAMPLE_FILE: sampleFile }
      const nodeArgs = ["--expose-gc", ...(options.withoutStartFlags ? [] : startNodeFlags(root)), ...(options.nodeArgs ?? [])]
      const child = options.bundle
        ? spawn(
          process.execPath,
          [...nodeArgs, "--import", pathToFileURL(Path.join(root, options.bundle.probe)).href, options.bundle.main],
          { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] }
        )
        : spawn(
          process.execPath,
          [...nodeArgs, "--import", "tsx", "--import", pathToFileURL(Path.join(root, "bench", "heap-probe.ts")).href, "src/main.ts"],
          { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] }
        )
      children.push(child)
      keepLog(child, `service-${options.label}.log`)
      await waitForPort(`http://127.0.0.1:${port}/api/v1/health`, child)
      return {
        url: `http://127.0.0.1:${port}/api/v1`,
        pid: child.pid,
        heap: () => readHeap(child, heapFile),
        heapSamples: (since, until) =>
          (Fs.existsSync(sampleFile) ? Fs.readFileSync(sampleFile, "utf8") : "")
            .split("\n")
            .filter((line) => line.length > 0)
            .map((line) => JSON.parse(line) as HeapSample)
            .filter((sample) => sample.at >= since && sample.at <= until),
        stop: () => stopChild(child)
      }
    }

    const durationSeconds = Number(process.env.BENCH_DURATION ?? 10)
    const pids = { service: service.pid, baseline: baseline.pid }
    return await use({
      postgres: mode,
      pids,
      startService,
      pool,
      databaseUrl,
      urls: { service: `http://127.0.0.1:${servicePort}/api/v1`, baseline: `http://127.0.0.1:${baselinePort}/api/v1` },
      userId: user.id,
      apiKey: raw,
      durationSeconds,
      run: runner(raw, durationSeconds, pids, dir)
    })
  } finally {
    for (const child of children) await stopChild(child)
    await pool?.end()
    await Effect.runPromise(Scope.close(scope, Exit.void))
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** SIGTERM, then SIGKILL after 10 s. */
const stopChild = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill("SIGTERM")
  await new Promise((resolve) => {
    child.once("exit", resolve)
    setTimeout(() => {
      child.kill("SIGKILL")
      resolve(undefined)
    }, 10_000).unref()
  })
}

/** A server's stdout and stderr into bench/results/<name>, and how it ended. */
const keepLog = (child: ChildProcess, name: string) => {
  const log = Fs.createWriteStream(Path.join(root, "bench", "results", name))
  child.stdout?.pipe(log)
  child.stderr?.pipe(log)
  child.once("exit", (code, signal) => log.write(`\nservice exited: code ${code}, signal ${signal}\n`))
}

/** The type of the filesystem a path is on, from /proc/mounts (the longest mount point above it). */
const filesystemOf = (path: string) => {
  try {
    let best = { point: "", type: "unknown" }
    for (const line of Fs.readFileSync("/proc/mounts", "utf8").split("\n")) {
      const [, point, type] = line.split(" ")
      if (!point || !type) continue
      const inside = point === "/" || path === point || path.startsWith(`${point}/`)
      if (inside && point.length > best.point.length) best = { point, type }
    }
    return best.type
  } catch {
    return "unknown"
  }
}

/** Asks the service for a heap report (SIGUSR2 to bench/heap-probe.ts) and waits for the file. */
const readHeap = async (child: ChildProcess, file: string): Promise<HeapReport> => {
  Fs.rmSync(file, { force: true })
  child.kill("SIGUSR2")
  const started = Date.now()
  while (Date.now() - started < 30_000) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode} before its heap report`)
    if (Fs.existsSync(file)) return JSON.parse(Fs.readFileSync(file, "utf8")) as HeapReport
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error("the service wrote no heap report in 30 s (is bench/heap-probe.ts preloaded?)")
}

const waitForPort = async (url: string, child: ChildProcess) => {
  let stderr = ""
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()))
  const started = Date.now()
  while (Date.now() - started < 60_000) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}: ${stderr.slice(-2000)}`)
    try {
      const response = await fetch(url)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`service did not start: ${stderr.slice(-2000)}`)
}

const fmt = (n: number, digits = 1) => n.toFixed(digits)

/** One markdown table for all rows. */
export const table = (rows: ReadonlyArray<Row>) => {
  const lines = [
    "| Scenario | Service req/s | Service p50 / p99 (ms) | Baseline req/s | Baseline p50 / p99 (ms) | Ratio (req/s) | Server CPU ms/req (service / baseline) | PostgreSQL CPU ms/req (service / baseline) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|"
  ]
  for (const row of rows) {
    const s = row.service
    const b = row.baseline
    const bad = s.non2xx + s.errors + b.non2xx + b.errors
    lines.push(
      `| ${row.name}${bad > 0 ? ` (non-2xx/errors: ${s.non2xx + s.errors}/${b.non2xx + b.errors})` : ""} | ${fmt(s.requestsPerSecond)} | ${s.p50} / ${s.p99} | ${
        fmt(b.requestsPerSecond)
      } | ${b.p50} / ${b.p99} | ${fmt((100 * s.requestsPerSecond) / Math.max(b.requestsPerSecond, 0.001), 0)}% | ${
        fmt(s.cpuMsPerRequest, 2)
      } / ${fmt(b.cpuMsPerRequest, 2)} | ${fmt(s.postgresCpuMsPerRequest, 2)} / ${fmt(b.postgresCpuMsPerRequest, 2)} |`
    )
  }
  return lines.join("\n")
}
