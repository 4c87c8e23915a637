/**
 * `BENCH_SECTIONS=faults npm run bench`: the database going away (issue 21), timed. Its own PostgreSQL
 * (durable settings: a killed postmaster must not lose commits) and the service as `npm start` runs it
 * (dist/server/main.js, role all), like test/database-faults.test.ts; BENCH_FAULT_ROUNDS outages (3).
 * Each round: a burst of audits (mock reviewer, 1 s each) is admitted, the postmaster is SIGKILLed while
 * they run, requests are timed during the outage, the server is started again on the same data.
 */
import { execFileSync } from "node:child_process"
import {
  eventually,
  makeIdentity,
  sleep,
  spawnService,
  startTestPostgres,
  tempDir
} from "../test/support/Processes.js"
import { root } from "./harness.js"

const SKILL = "---\nname: faults\ndescription: Use when timing outages.\n---\n# Faults\n\n1. Read the input.\n2. Check the result.\n"

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

const ms = (n: number) => `${n.toFixed(0)} ms`

export const faultsSection = async (): Promise<string> => {
  execFileSync(process.execPath, ["scripts/build.mjs", "--server"], { cwd: root, stdio: "ignore" })
  const rounds = Number(process.env.BENCH_FAULT_ROUNDS ?? 3)
  const postgres = await startTestPostgres()
  const identity = await makeIdentity(tempDir("rubr-bench-faults-"))
  const databaseUrl = await postgres.createDatabase("bench_faults")
  const env = {
    DATABASE_URL: databaseUrl,
    SERVICE_DATA_DIR: tempDir("rubr-bench-faults-data-"),
    SERVICE_AUTH_JWKS_FILE: identity.jwksFile,
    SERVICE_MOCK_REVIEW_DELAY_MS: "1000",
    SERVICE_SIGNUP_CREDITS: "100000",
    SERVICE_LOG_LEVEL: "WARN"
  }
  const svc = await spawnService(env)
  const rows: Array<string> = []
  try {
    await eventually("the service", async () => ((await svc.request("GET", "/health")).status === 200 ? true : undefined))
    const token = await identity.token("bench-faults")
    const outage503: Array<number> = []
    const toHealthy: Array<number> = []
    const toAllEnded: Array<number> = []
    let admittedTotal = 0
    let completed = 0
    for (let round = 1; round <= rounds; round++) {
      const jobs: Array<string> = []
      for (let i = 0; i < 8; i++) {
        const bundle = await svc.request("POST", "/artifact-bundles", { token, body: { name: `bench-faults-${round}-${i}` } })
        const id = bundle.body.data.artifactBundle.id
        await svc.request("POST", `/artifact-bundles/${id}/files`, { token, body: { files: [{ path: "SKILL.md", content: SKILL }] } })
        jobs.push((await svc.request("POST", `/artifact-bundles/${id}/audits`, { token, body: {} })).body.data.jobId)
      }
      admittedTotal += jobs.length
      await sleep(500)
      postgres.kill()
      await sleep(300)
      for (let i = 0; i < 20; i++) {
        const started = performance.now()
        const reply = await svc.request("GET", "/me", { token })
        if (reply.status !== 503) throw new Error(`expected 503 during the outage, got ${reply.status}`)
        outage503.push(performance.now() - started)
      }
      await sleep(2000)
      await postgres.start()
      const back = performance.now()
      await eventually("health 200", async () => ((await svc.request("GET", "/health")).status === 200 ? true : undefined), 60_000, 50)
      toHealthy.push(performance.now() - back)
      const states = await eventually("every job to end", async () => {
        const all = await Promise.all(jobs.map(async (jobId) => (await svc.request("GET", `/jobs/${jobId}`, { token })).body?.data?.job?.state))
        return all.every((s) => ["completed", "failed", "cancelled"].includes(s)) ? all : undefined
      }, 120_000, 100)
      toAllEnded.push(performance.now() - back)
      completed += states.filter((s) => s === "completed").length
    }
    rows.push(`| requests during an outage (GET /me, ${outage503.length}) | 503 in ${ms(percentile(outage503, 50))} p50, ${ms(percentile(outage503, 100))} max |`)
    rows.push(`| database back → /health 200 (${rounds} outages) | ${ms(percentile(toHealthy, 50))} p50, ${ms(percentile(toHealthy, 100))} max |`)
    rows.push(`| database back → every admitted job ended | ${ms(percentile(toAllEnded, 50))} p50, ${ms(percentile(toAllEnded, 100))} max; ${completed} of ${admittedTotal} completed, the rest failed and refunded |`)
    rows.push(`| the process | the same pid after ${rounds} outages: ${svc.running() ? "yes" : "NO"} |`)

    // SIGTERM with the database down, jobs in flight: the drain's length and how it ended
    for (let i = 0; i < 4; i++) {
      const bundle = await svc.request("POST", "/artifact-bundles", { token, body: { name: `bench-faults-term-${i}` } })
      const id = bundle.body.data.artifactBundle.id
      await svc.request("POST", `/artifact-bundles/${id}/files`, { token, body: { files: [{ path: "SKILL.md", content: SKILL }] } })
      await svc.request("POST", `/artifact-bundles/${id}/audits`, { token, body: {} })
    }
    await sleep(500)
    postgres.kill()
    await sleep(300)
    const sent = performance.now()
    svc.kill("SIGTERM")
    const exit = await svc.exited
    rows.push(`| SIGTERM with the database down, jobs in flight | exited ${exit.code} after ${ms(exit.at - sent)}: ${svc.stderrLines().at(-1)?.replace(/\|/g, "/")} |`)
    await postgres.start()

    // the start with no database: how long after the database appears the service answers
    await postgres.stop()
    const late = await spawnService(env)
    await late.waitForLine(/^rubr: waiting for the database/)
    await sleep(3000)
    await postgres.start()
    const up = performance.now()
    await eventually("the late service", async () => ((await late.request("GET", "/health")).status === 200 ? true : undefined), 60_000, 50)
    rows.push(`| started with no database; the database appears → /health 200 | ${ms(performance.now() - up)} (${late.stderrLines().filter((l) => l.includes("waiting for the database")).length} waiting lines) |`)
    late.kill("SIGTERM")
    await late.exited
  } finally {
    svc.kill("SIGKILL")
    await postgres.stop()
  }
  return `| measurement | result |\n|---|---|\n${rows.join("\n")}`
}
