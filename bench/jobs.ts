/**
 * What the job sections share: a worker process of their own, the bench user's API calls, credits,
 * waiting for jobs, percentiles.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Os from "node:os"
import * as Path from "node:path"
import { type BenchContext, root, startNodeFlags } from "./harness.js"

export const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}
export const ms = (n: number) => n.toFixed(1)
export const sleep = (n: number) => new Promise((resolve) => setTimeout(resolve, n))


/**
 * A worker process (role worker) on the bench database, 8 jobs at once, from this checkout or from
 * `cwd` (another checkout, `BENCH_COMPARE_WITH`, with its own npm start flags); `env` adds settings
 * (the dashboard section's AI provider).
 */
export const startWorker = (databaseUrl: string, cwd = root, env: Record<string, string> = {}) => {
  const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-bench-worker-"))
  // npm start's node flags, as the bench service gets them (a deployed worker is `npm start` with
  // SERVICE_ROLE=worker); BENCH_WORKER_NODE_ARGS (e.g. --cpu-prof) after them, as BENCH_SERVICE_NODE_ARGS
  const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? "").split(" ").filter((arg) => arg.length > 0)
  const worker: ChildProcess = spawn(process.execPath, [...startNodeFlags(cwd), ...nodeArgs, "--import", "tsx", "src/main.ts"], {
    cwd,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SERVICE_ROLE: "worker",
      SERVICE_DATA_DIR: dataDir,
      SERVICE_LOG_LEVEL: "WARN",
      SERVICE_WORKER_CONCURRENCY: "8",
      SERVICE_DB_POOL_SIZE: "12",
      ...env
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  return { worker, dataDir }
}

export const stopWorker = async (worker: ChildProcess, dataDir: string) => {
  worker.kill("SIGTERM")
  await new Promise((resolve) => {
    worker.once("exit", resolve)
    setTimeout(() => {
      worker.kill("SIGKILL")
      resolve(undefined)
    }, 10_000).unref()
  })
  Fs.rmSync(dataDir, { recursive: true, force: true })
}

export const grant = async (ctx: BenchContext, events: number, amount: number, userId = ctx.userId) => {
  await ctx.pool.query(`INSERT INTO credit_balances (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING`, [userId])
  const { rows: [{ balance }] } = await ctx.pool.query(`SELECT balance FROM credit_balances WHERE user_id = $1`, [userId])
  await ctx.pool.query(
    `INSERT INTO credit_ledger (user_id, type, amount, reason, balance_after, idempotency_key)
     SELECT $1, 'grant', $3::int, 'bench_grant', $4::bigint + g * $3::int, 'bench:' || gen_random_uuid()
     FROM generate_series(1, $2::int) g`,
    [userId, events, amount, balance]
  )
  await ctx.pool.query(
    `UPDATE credit_balances SET balance = balance + $2::bigint * $3::int, granted = granted + $2::bigint * $3::int WHERE user_id = $1`,
    [userId, events, amount]
  )
}

/**
 * One JSON request with the bench's API key, over a keep-alive agent of node:http: the client shares the
 * machine's cores with what it measures, and node:http costs it about half of what fetch does.
 */
const agent = new Http.Agent({ keepAlive: true, maxSockets: 64 })
export const api = (ctx: BenchContext, method: string, path: string, body?: unknown): Promise<any> =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const request = Http.request(ctx.urls.service + path, {
      method,
      agent,
      headers: {
        authorization: `Bearer ${ctx.apiKey}`,
        ...(payload === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) })
      }
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        try {
          const json = JSON.parse(Buffer.concat(chunks).toString("utf8"))
          const status = response.statusCode ?? 0
          if (status < 200 || status > 299) reject(new Error(`${method} ${path}: ${status} ${JSON.stringify(json)}`))
          else resolve(json.data)
        } catch (error) {
          reject(error)
        }
      })
      response.on("error", reject)
    })
    request.on("error", reject)
    request.end(payload)
  })

/** Waits until every job is completed (a failed one fails the bench); returns their queue→done times. */
export const waitForJobs = async (ctx: BenchContext, jobIds: ReadonlyArray<string>, what: string, pollMs = 20) => {
  for (;;) {
    const { rows: [{ done, failed }] } = await ctx.pool.query(
      `SELECT count(*) FILTER (WHERE state = 'completed')::int AS done, count(*) FILTER (WHERE state = 'failed')::int AS failed
       FROM jobs WHERE id = ANY($1::uuid[])`,
      [jobIds]
    )
    if (failed > 0) throw new Error(`${failed} bench ${what} failed`)
    if (done === jobIds.length) break
    await sleep(pollMs)
  }
  const { rows } = await ctx.pool.query(
    `SELECT extract(epoch FROM (finished_at - created_at)) * 1000 AS ms FROM jobs WHERE id = ANY($1::uuid[])`,
    [jobIds]
  )
  return rows.map((r) => Number(r.ms))
}
