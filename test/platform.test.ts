/** Issue 2: tracing, the worker wiring, migrations under concurrent starts, and config validation. */
import { describe, expect, it as vit, layer } from "@effect/vitest"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { ConfigProvider, Effect, Layer } from "effect"
import { spawnSync } from "node:child_process"
import pg from "pg"
import { inject } from "vitest"
import { AppConfig } from "../src/config/AppConfig.js"
import { listMigrations, migrate } from "../src/db/Migrations.js"
import { bundleWith, call } from "./support/fixtures.js"
import { makeTestApp, sleep, TestApp } from "./support/TestApp.js"

const exporter = new InMemorySpanExporter()

layer(makeTestApp({ spanProcessor: new SimpleSpanProcessor(exporter) }))("tracing", (it) => {
  it.effect("a request produces its server span and use-case spans in one trace", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const token = yield* Effect.promise(() => app.token("traced"))
      exporter.reset()
      const reply = yield* Effect.promise(() => app.request("GET", "/me", { token }))
      expect(reply.status).toBe(200)
      const spans = exporter.getFinishedSpans()
      const server = spans.find((s) => s.name === "http.server GET")
      expect(server).toBeDefined()
      expect(server!.attributes["rubr.request_id"]).toBe(reply.body.requestId)
      const names = spans.map((s) => s.name)
      expect(names).toEqual(expect.arrayContaining(["Authentication.authenticate", "LoginTokens.verify", "Users.signIn", "Users.get"]))
      const traceIds = new Set(spans.filter((s) => names.includes(s.name)).map((s) => s.spanContext().traceId))
      const useCase = spans.find((s) => s.name === "Users.get")!
      expect(useCase.spanContext().traceId).toBe(server!.spanContext().traceId)
      expect(traceIds.size).toBeGreaterThanOrEqual(1)
    }))

  it.effect("an API-key file read is traced on its request span, which names the key and its user", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const token = yield* Effect.promise(() => app.token("traced-key"))
      const { bundleId, files } = yield* bundleWith(token, [{ path: "SKILL.md", content: "# Skill\n" }])
      const key = yield* Effect.promise(() => app.apiKey("traced-key", ["artifacts:pull"]))
      const [row] = yield* app.sql<{ id: string; userId: string }>`SELECT id, user_id FROM api_keys WHERE name = 'test key'`
      exporter.reset()
      const reply = yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/files/${files[0].file.id}`, { token: key }))
      expect(reply.status).toBe(200)
      const spans = exporter.getFinishedSpans()
      const server = spans.find((s) => s.name === "http.server GET")!
      expect(server.attributes).toMatchObject({
        "rubr.request_id": reply.body.requestId,
        "rubr.actor": "apiKey",
        "rubr.api_key_id": row.id,
        "rubr.user_id": row.userId
      })
      // neither the key check nor this one-statement read opens a span of its own
      expect(spans.map((s) => s.name)).toEqual(["http.server GET"])
    }))
})

layer(makeTestApp({ role: "all" }))("worker", (it) => {
  it.effect("a job queued with graphile_worker.add_job in SQL runs in this process's worker", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      yield* app.sql`SELECT graphile_worker.add_job('rubr_heartbeat', '{}'::json)`
      let done = 0
      for (let i = 0; i < 100 && done === 0; i++) {
        yield* sleep(50)
        const rows = yield* app.sql<{ jobsDone: number }>`SELECT jobs_done FROM worker_heartbeats`
        done = rows.reduce((n, r) => n + r.jobsDone, 0)
      }
      expect(done).toBe(1)
      // graphile-worker records the completion (removes its job) just after the task returns, batched
      let pending = -1
      for (let i = 0; i < 100 && pending !== 0; i++) {
        if (i > 0) yield* sleep(50)
        pending = (yield* app.sql<{ pending: number }>`SELECT count(*)::int AS pending FROM graphile_worker.jobs`)[0]!.pending
      }
      expect(pending).toBe(0)
    }))
})

describe("migrations", () => {
  vit("apply once, in order, when several processes start at the same moment", async () => {
    const adminUrl = inject("pgAdminUrl")
    const name = `rubr_m_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`
    const admin = new pg.Client({ connectionString: adminUrl })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url.toString(), max: 2 }))
    try {
      const results = await Promise.all(pools.map((pool) => Effect.runPromise(migrate(pool))))
      const appliedEverywhere = results.flat()
      const files = listMigrations().map((m) => m.name)
      expect(appliedEverywhere.sort()).toEqual([...files].sort())
      const again = await Effect.runPromise(migrate(pools[0]))
      expect(again).toEqual([])
      const { rows } = await pools[0].query("SELECT name FROM schema_migrations ORDER BY name")
      expect(rows.map((r) => r.name)).toEqual(files)
    } finally {
      await Promise.all(pools.map((p) => p.end()))
    }
  })
})

describe("configuration", () => {
  const load = (env: Record<string, string>) =>
    Effect.runPromiseExit(
      Effect.provide(AppConfig, AppConfig.layer.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))))
    )

  vit("defaults match the contract", async () => {
    const exit = await load({})
    expect(exit._tag).toBe("Success")
    if (exit._tag !== "Success") return
    const c = exit.value
    expect([c.host, c.port, c.role]).toEqual(["127.0.0.1", 3000, "all"])
    expect(c.auth.allowedProviders).toEqual(["google.com", "github.com"])
    expect(c.credits).toMatchObject({ signupCredits: 100, auditMode: "dynamic" })
    expect(c.limits).toMatchObject({
      pageLimitDefault: 50,
      pageLimitMax: 200,
      maxFileBytes: 1048576,
      maxFilesPerUpload: 100,
      maxFilesPerBundle: 500,
      maxBodyBytes: 10485760,
      rateLimitUserPerMinute: 600,
      rateLimitKeyPerMinute: 600,
      rateLimitBundlePerMinute: 300,
      rateLimitPublicIpPerMinute: 60,
      trustProxy: false
    })
    expect(c.ai.enabled).toBe(false)
    expect(c.email.sendEnabled).toBe(false)
  })

  vit.each([
    ["PORT", "abc"],
    ["SERVICE_ROLE", "everything"],
    ["SERVICE_AUDIT_CREDIT_MODE", "cheap"],
    ["SERVICE_SIGNUP_CREDITS", "-5"],
    ["SERVICE_AUTH_JWKS_URL", "not a url"],
    ["SERVICE_TRUST_PROXY", "maybe"]
  ])("a wrong %s stops the start with an error naming it", async (name, value) => {
    const exit = await load({ [name]: value })
    expect(exit._tag).toBe("Failure")
    expect(String(exit._tag === "Failure" ? exit.cause : "")).toContain(name)
  })

  vit("npm start with a wrong value prints one clear line naming it and exits 1, before anything starts", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "src/main.ts"], {
      env: { ...process.env, PORT: "not-a-port", DATABASE_URL: "postgres://127.0.0.1:1/none" },
      encoding: "utf8",
      timeout: 30_000
    })
    expect(result.status).toBe(1)
    const lines = result.stderr.trim().split("\n").filter((l) => l.startsWith("rubr:"))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("PORT")
    expect(lines[0]).toMatch(/configuration table/)
    // nothing was started: no structured log line at all
    expect(result.stdout.trim()).toBe("")
  })
})
