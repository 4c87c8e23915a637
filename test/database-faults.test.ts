/**
 * Issue 21: the database going away. Real processes: the service as `npm start` runs it, on a
 * PostgreSQL of the test's own that the test kills (SIGKILL of the postmaster, as a crash or a failover
 * does) and starts again on the same data directory.
 */
import { beforeEach, describe, expect, it } from "vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { freePort } from "../src/db/EmbeddedPostgres.js"
import {
  eventually,
  healthy,
  query,
  type ServiceProcess,
  sleep,
  spawnService,
  tempDir,
  waitForRunning
} from "./support/Processes.js"
import { useServiceFixture } from "./support/ServiceFixture.js"

const SHUTDOWN_TIMEOUT_S = 8
const SKILL = "---\nname: faults\ndescription: Use when testing how audits survive a database outage.\n---\n# Faults\n\n1. Read the input.\n2. Check the result.\n"

const fx = useServiceFixture("faults")

// a test that failed halfway may have left the server killed: the next one starts with it up
beforeEach(async () => {
  if (!fx.postgres.alive()) await fx.postgres.start()
}, 60_000)

const newDatabase = fx.newDatabase

/** A service process on the test's PostgreSQL (or its own embedded one when `databaseUrl` is undefined). */
const service = async (databaseUrl: string | undefined, role: "all" | "api" | "worker", env: Record<string, string> = {}) => {
  const svc = await spawnService({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    SERVICE_ROLE: role,
    SERVICE_DATA_DIR: tempDir("rubr-faults-data-"),
    SERVICE_AUTH_JWKS_FILE: fx.identity.jwksFile,
    SERVICE_JOB_STALE_AFTER_MS: "3000",
    SERVICE_SHUTDOWN_TIMEOUT_S: String(SHUTDOWN_TIMEOUT_S),
    SERVICE_MOCK_REVIEW_DELAY_MS: "1500",
    SERVICE_SIGNUP_CREDITS: "1000",
    SERVICE_DB_ACQUIRE_TIMEOUT_MS: "2000",
    ...env
  })
  return fx.track(svc)
}

const ready = async (svc: ServiceProcess, role: "all" | "api" | "worker") => {
  if (role !== "worker") await healthy(svc)
  if (role !== "api") await svc.waitForLine(/"worker started"/)
}

/** `n` bundles with a skill, each audited: the admitted jobs and their runs. */
const auditBurst = async (api: ServiceProcess, token: string, n: number) => {
  const admitted: Array<{ jobId: string; runId: string; bundleId: string }> = []
  for (let i = 0; i < n; i++) {
    const bundle = await api.request("POST", "/artifact-bundles", { token, body: { name: `faults-${Date.now()}-${i}` } })
    expect(bundle.status).toBe(201)
    const bundleId = bundle.body.data.artifactBundle.id
    expect((await api.request("POST", `/artifact-bundles/${bundleId}/files`, { token, body: { files: [{ path: "SKILL.md", content: SKILL }] } })).status).toBe(201)
    const audit = await api.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} })
    expect(audit.status).toBe(202)
    admitted.push({ jobId: audit.body.data.jobId, runId: audit.body.data.auditRun.id, bundleId })
  }
  return admitted
}

/** Every admitted job ended; each failed one was refunded exactly once, each completed one never; the ledger adds up. */
const everyJobEndedAndTheLedgerAddsUp = async (databaseUrl: string, admitted: ReadonlyArray<{ jobId: string; runId: string }>) => {
  const jobs = await eventually("every admitted job to end", async () => {
    const rows = await query<{ id: string; state: string }>(databaseUrl, "SELECT id, state FROM jobs WHERE id = ANY($1::uuid[])", [
      admitted.map((a) => a.jobId)
    ])
    return rows.length === admitted.length && rows.every((r) => ["completed", "failed", "cancelled"].includes(r.state)) ? rows : undefined
  }, 90_000, 500)
  expect(jobs.filter((j) => j.state === "completed").length).toBeGreaterThan(0)
  for (const { jobId, runId } of admitted) {
    const state = jobs.find((j) => j.id === jobId)!.state
    const [ledger] = await query<{ debits: number; refunds: number }>(
      databaseUrl,
      `SELECT count(*) FILTER (WHERE type = 'debit')::int AS debits, count(*) FILTER (WHERE type = 'refund')::int AS refunds
       FROM credit_ledger WHERE resource_id = $1`,
      [runId]
    )
    expect(ledger!.debits).toBe(1)
    expect(ledger!.refunds).toBe(state === "completed" ? 0 : 1)
    const [run] = await query<{ status: string }>(databaseUrl, "SELECT status FROM audit_runs WHERE id = $1", [runId])
    expect(run!.status).toBe(state)
  }
  // balance = grants - debits + refunds, for every user, and never below zero on the way
  const users = await query<{ userId: string; computed: number; last: number; lowest: number }>(
    databaseUrl,
    `SELECT user_id AS "userId",
            SUM(CASE type WHEN 'debit' THEN -amount ELSE amount END)::int AS computed,
            (array_agg(balance_after ORDER BY created_at DESC, id DESC))[1]::int AS last,
            MIN(balance_after)::int AS lowest
     FROM credit_ledger GROUP BY user_id`
  )
  for (const user of users) {
    expect(user.last).toBe(user.computed)
    expect(user.lowest).toBeGreaterThanOrEqual(0)
  }
}

const expectOutageAnswers = async (api: ServiceProcess, token: string, bundleId: string) => {
  // a start while the database is away: the envelope, answered (no request waits for the pool's whole wait)
  const start = await api.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: { modelTier: "standard" } })
  expect(start.status).toBe(503)
  expect(start.body.error.code).toBe("service_unavailable")
  expect(typeof start.body.error.requestId).toBe("string")
  const health = await api.request("GET", "/health")
  expect(health.status).toBe(503)
  expect(health.body.error.code).toBe("service_unavailable")
  expect(health.body.error.details).toEqual([{ database: "unreachable" }])
}

describe("the database killed while audits run", () => {
  it("one process (API + worker): it stays up, answers 503 meanwhile, and every job ends once the database is back", async () => {
    const databaseUrl = await newDatabase()
    const svc = await service(databaseUrl, "all")
    await ready(svc, "all")
    const token = await fx.identity.token("faults-one")
    const admitted = await auditBurst(svc, token, 6)
    await waitForRunning(databaseUrl, admitted.map((a) => a.jobId))

    fx.postgres.kill()
    await sleep(300)
    await expectOutageAnswers(svc, token, admitted[0]!.bundleId)
    await sleep(1500) // the worker sees its jobs' heartbeats fail
    expect(svc.running()).toBe(true)

    await fx.postgres.start()
    await eventually("health 200 again", async () => ((await svc.request("GET", "/health")).status === 200 ? true : undefined), 30_000)
    await everyJobEndedAndTheLedgerAddsUp(databaseUrl, admitted)
    // the same process all along, and it said what happened
    expect(svc.running()).toBe(true)
    expect(svc.lines().some((l) => l.includes("the worker lost its database"))).toBe(true)
    expect(svc.lines().some((l) => l.includes("the database answers again; the worker restarts"))).toBe(true)
  }, 180_000)

  it("a separate API process and worker process: both stay up, and every job ends once the database is back", async () => {
    const databaseUrl = await newDatabase()
    const api = await service(databaseUrl, "api")
    const worker = await service(databaseUrl, "worker")
    await Promise.all([ready(api, "api"), ready(worker, "worker")])
    const token = await fx.identity.token("faults-two")
    const admitted = await auditBurst(api, token, 6)
    await waitForRunning(databaseUrl, admitted.map((a) => a.jobId))

    fx.postgres.kill()
    await sleep(300)
    await expectOutageAnswers(api, token, admitted[0]!.bundleId)
    await sleep(1500)
    expect(api.running() && worker.running()).toBe(true)

    await fx.postgres.start()
    await eventually("health 200 again", async () => ((await api.request("GET", "/health")).status === 200 ? true : undefined), 30_000)
    await everyJobEndedAndTheLedgerAddsUp(databaseUrl, admitted)
    expect(api.running() && worker.running()).toBe(true)
  }, 180_000)
})

/** SIGTERM, then the exit: within the timeout, with the one line saying how it ended. */
const terminateWithinTimeout = async (svc: ServiceProcess) => {
  const sent = performance.now()
  svc.kill("SIGTERM")
  const exit = await svc.exited
  const seconds = (exit.at - sent) / 1000
  // the deadline is the contract: a drain may finish early, never later than the timeout (plus the exit itself)
  expect(seconds).toBeLessThan(SHUTDOWN_TIMEOUT_S + 2)
  const verdict = svc.stderrLines().filter((l) => l.startsWith("rubr: stopped on SIGTERM"))
  expect(verdict).toHaveLength(1)
  if (exit.code === 0) expect(verdict[0]).toMatch(/drained in/)
  else {
    expect(exit.code).toBe(1)
    expect(verdict[0]).toMatch(/did not finish within/)
  }
  return exit
}

describe("SIGTERM while the database is down", () => {
  it("on a DATABASE_URL (one process, jobs in flight): the process exits within SERVICE_SHUTDOWN_TIMEOUT_S", async () => {
    const databaseUrl = await newDatabase()
    const svc = await service(databaseUrl, "all")
    await ready(svc, "all")
    const admitted = await auditBurst(svc, await fx.identity.token("faults-term"), 2)
    await waitForRunning(databaseUrl, admitted.map((a) => a.jobId))
    fx.postgres.kill()
    await sleep(500)
    try {
      // the drain does not wait for jobs that could not finish anyway: it ends, and says so
      expect((await terminateWithinTimeout(svc)).code).toBe(0)
    } finally {
      await fx.postgres.start()
    }
    // the jobs it held are not lost: a new worker finishes them
    const next = await service(databaseUrl, "worker")
    await everyJobEndedAndTheLedgerAddsUp(databaseUrl, admitted)
    next.kill("SIGTERM")
  }, 120_000)

  it("a separate API process and a separate worker process each exit within the timeout", async () => {
    const databaseUrl = await newDatabase()
    const api = await service(databaseUrl, "api")
    const worker = await service(databaseUrl, "worker")
    await Promise.all([ready(api, "api"), ready(worker, "worker")])
    const admitted = await auditBurst(api, await fx.identity.token("faults-term-2"), 2)
    await waitForRunning(databaseUrl, admitted.map((a) => a.jobId))
    fx.postgres.kill()
    await sleep(500)
    try {
      const exits = await Promise.all([terminateWithinTimeout(api), terminateWithinTimeout(worker)])
      expect(exits.map((exit) => exit.code)).toEqual([0, 0])
    } finally {
      await fx.postgres.start()
    }
  }, 120_000)

  it("on the embedded database: its killed server is restarted by the service, and SIGTERM right after a kill still exits in time", async () => {
    const dataDir = tempDir("rubr-faults-embedded-")
    const svc = await service(undefined, "all", { SERVICE_DATA_DIR: dataDir })
    await ready(svc, "all")
    const pidFile = Path.join(dataDir, "pg", "postmaster.pid")
    const postmaster = () => Number(Fs.readFileSync(pidFile, "utf8").split("\n")[0])

    // killed once: the service starts it again, and answers 200 again without a restart of its own
    const first = postmaster()
    process.kill(first, "SIGKILL")
    await svc.waitForLine(/embedded PostgreSQL exited unexpectedly; restarting it/)
    await svc.waitForLine(/embedded PostgreSQL restarted/)
    await healthy(svc)
    expect(postmaster()).not.toBe(first)

    // killed again, then SIGTERM at once: the drain does not wait on the dead server
    process.kill(postmaster(), "SIGKILL")
    await sleep(200)
    const exit = await terminateWithinTimeout(svc)
    expect(exit.code).toBe(0)
  }, 120_000)
})

describe("no database at start", () => {
  for (const role of ["all", "worker"] as const) {
    it(`role ${role}: waits with one line per attempt naming host and port (never the password), then starts once the database appears`, async () => {
      const databaseUrl = await newDatabase()
      await fx.postgres.stop()
      let svc: ServiceProcess
      try {
        svc = await service(databaseUrl, role, { SERVICE_DB_CONNECT_TIMEOUT_S: "60" })
        const waiting = await svc.waitForLine(/^rubr: waiting for the database at /)
        expect(waiting).toContain(`127.0.0.1:${fx.postgres.port}`)
        await svc.waitForLine(/^rubr: waiting for the database at .*attempt 2/)
        expect(svc.running()).toBe(true)
      } finally {
        await fx.postgres.start()
      }
      await ready(svc, role)
      expect(svc.stderrLines().some((l) => /^rubr: the database at 127\.0\.0\.1:\d+ answered after [\d.]+ s; starting$/.test(l))).toBe(true)
      expect(svc.lines().some((l) => l.includes("rubr-embedded"))).toBe(false)
      if (role === "worker") {
        // and it works: an audit started through another process runs here
        const api = await service(databaseUrl, "api")
        await ready(api, "api")
        const [audit] = await auditBurst(api, await fx.identity.token(`faults-late-${role}`), 1)
        await everyJobEndedAndTheLedgerAddsUp(databaseUrl, [audit!])
        api.kill("SIGTERM")
      }
      svc.kill("SIGTERM")
    }, 120_000)
  }

  it("gives up after SERVICE_DB_CONNECT_TIMEOUT_S with one line saying why, exit 1", async () => {
    const port = await freePort()
    const svc = await service(`postgres://rubr:secret-password@127.0.0.1:${port}/none`, "all", { SERVICE_DB_CONNECT_TIMEOUT_S: "2" })
    const exit = await svc.exited
    expect(exit.code).toBe(1)
    const last = svc.stderrLines().filter((l) => l.startsWith("rubr:")).at(-1)!
    expect(last).toMatch(new RegExp(`the database at 127\\.0\\.0\\.1:${port} did not answer within 2 s`))
    expect(last).toMatch(/SERVICE_DB_CONNECT_TIMEOUT_S/)
    expect(svc.lines().some((l) => l.includes("secret-password"))).toBe(false)
  }, 60_000)

  it("a wrong password is not waited on: one line, exit 1", async () => {
    const svc = await service(`postgres://postgres:wrong@127.0.0.1:${fx.postgres.port}/postgres`, "all")
    const exit = await svc.exited
    expect(exit.code).toBe(1)
    const lines = svc.stderrLines().filter((l) => l.startsWith("rubr:"))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/refused the password in DATABASE_URL/)
  }, 60_000)
})

describe("start-up failures are one line", () => {
  const plainLines = (svc: ServiceProcess) => svc.stderrLines().filter((l) => l.startsWith("rubr:"))

  it("a second process on a taken port exits 1 naming the port; the first keeps serving (DATABASE_URL and embedded)", async () => {
    const databaseUrl = await newDatabase()
    const port = String(await freePort())
    const first = await service(databaseUrl, "all", { PORT: port })
    await ready(first, "all")
    for (const role of ["all", "api"] as const) {
      const second = await service(databaseUrl, role, { PORT: port })
      expect((await second.exited).code).toBe(1)
      expect(plainLines(second)).toHaveLength(1)
      expect(plainLines(second)[0]).toMatch(new RegExp(`port ${port} is already in use.*set PORT to a free port`, "i"))
    }
    expect((await first.request("GET", "/health")).status).toBe(200)
    expect(first.running()).toBe(true)

    // `npm start` twice in one folder (the embedded database): the second touches nothing of the first
    const dataDir = tempDir("rubr-faults-twice-")
    const embeddedPort = String(await freePort())
    const one = await service(undefined, "all", { SERVICE_DATA_DIR: dataDir, PORT: embeddedPort })
    await ready(one, "all")
    const two = await service(undefined, "all", { SERVICE_DATA_DIR: dataDir, PORT: embeddedPort })
    expect((await two.exited).code).toBe(1)
    expect(plainLines(two)[0]).toMatch(new RegExp(`port ${embeddedPort} is already in use`))
    // on another port, the same data directory is refused: it is the first one's database
    const three = await service(undefined, "all", { SERVICE_DATA_DIR: dataDir })
    expect((await three.exited).code).toBe(1)
    expect(plainLines(three)).toHaveLength(1)
    expect(plainLines(three)[0]).toMatch(/embedded database in .* is in use by another rubr process/)
    await healthy(one)
    expect(one.running()).toBe(true)
    one.kill("SIGTERM")
    first.kill("SIGTERM")
  }, 120_000)

  it("an unusable data directory, a missing signing key file, a taken embedded-database port: one line each, exit 1", async () => {
    const dir = tempDir("rubr-faults-files-")
    const notADir = Path.join(dir, "a-file")
    Fs.writeFileSync(notADir, "not a folder")
    const badDataDir = await service(undefined, "all", { SERVICE_DATA_DIR: notADir })
    expect((await badDataDir.exited).code).toBe(1)
    expect(plainLines(badDataDir)).toHaveLength(1)
    expect(plainLines(badDataDir)[0]).toMatch(new RegExp(`cannot use the data directory ${notADir}.*SERVICE_DATA_DIR`))

    const databaseUrl = await newDatabase()
    const missingKey = await service(databaseUrl, "all", { SERVICE_SIGNING_KEY_FILE: Path.join(dir, "missing.jwk.json") })
    expect((await missingKey.exited).code).toBe(1)
    expect(plainLines(missingKey)).toHaveLength(1)
    expect(plainLines(missingKey)[0]).toMatch(/SERVICE_SIGNING_KEY_FILE.*missing\.jwk\.json: no such file/)

    const takenPgPort = await service(undefined, "all", { SERVICE_DATA_DIR: tempDir("rubr-faults-pgport-"), SERVICE_EMBEDDED_PG_PORT: String(fx.postgres.port) })
    expect((await takenPgPort.exited).code).toBe(1)
    expect(plainLines(takenPgPort)).toHaveLength(1)
    expect(plainLines(takenPgPort)[0]).toMatch(new RegExp(`127\\.0\\.0\\.1:${fx.postgres.port}.*already in use.*SERVICE_EMBEDDED_PG_PORT`))
  }, 120_000)
})
