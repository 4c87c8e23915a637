/** Issue 4: admission control, credits under concurrency, idempotency, access, targets and cancellation. */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { inOneMinuteWindow, makeTestApp, sleep, TestApp } from "./support/TestApp.js"
import { bundleWith, call, count, skillBundle, waitForJob } from "./support/fixtures.js"

const start = (token: string, bundleId: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body, headers }))

const balanceMatchesLedger = Effect.gen(function*() {
  const app = yield* TestApp
  const rows = yield* app.sql<{ userId: string; balance: number; sum: number }>`
    SELECT b.user_id, b.balance,
      (SELECT COALESCE(SUM(CASE type WHEN 'debit' THEN -amount ELSE amount END), 0)::int FROM credit_ledger l WHERE l.user_id = b.user_id) AS sum
    FROM credit_balances b`
  for (const row of rows) expect(row.balance).toBe(row.sum)
  return rows.length
})

layer(makeTestApp({ role: "all", env: { SERVICE_AUDIT_CREDIT_MODE: "flat", SERVICE_AUDIT_RUN_CREDITS: "3", SERVICE_SIGNUP_CREDITS: "10" } }))(
  "credits under concurrency (flat 3 credits, balance 10)",
  (it) => {
    it.effect("20 concurrent starts admit exactly 3, never overdraw, and the rest leave nothing behind", () =>
      Effect.gen(function*() {
        const token = yield* call((app) => app.token("spender"))
        const { bundleId } = yield* skillBundle(token)
        const replies = yield* call((app) =>
          Promise.all(Array.from({ length: 20 }, () => app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: { force: true } })))
        )
        const statuses = replies.map((r) => r.status).sort()
        expect(statuses.filter((s) => s === 202)).toHaveLength(3)
        expect(statuses.filter((s) => s === 402)).toHaveLength(17)
        const refused = replies.find((r) => r.status === 402)!
        expect(refused.body.error.code).toBe("credit_limit_exceeded")
        expect(yield* count("audit_runs")).toBe(3)
        expect(yield* count("jobs")).toBe(3)
        expect(yield* count("graphile_worker.jobs", "task_identifier = 'rubr_audit'")).toBeLessThanOrEqual(3)
        const credits = yield* call((app) => app.request("GET", "/credits", { token }))
        expect(credits.body.data.balance).toBe(1)
        expect(credits.body.data.totals).toEqual({ granted: 10, debited: 9, refunded: 0 })
        expect(yield* balanceMatchesLedger).toBeGreaterThan(0)
      }))

    it.effect("the Idempotency-Key replays one run for 20 concurrent identical requests; another body is 409", () =>
      Effect.gen(function*() {
        const token = yield* call((app) => app.token("idem"))
        const { bundleId } = yield* skillBundle(token)
        const replies = yield* call((app) =>
          Promise.all(Array.from({ length: 20 }, () =>
            app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {}, headers: { "idempotency-key": "k-1" } })
          ))
        )
        expect(replies.map((r) => r.status)).toEqual(Array(20).fill(202))
        expect(new Set(replies.map((r) => r.body.data.auditRun.id)).size).toBe(1)
        expect(replies.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19)
        for (const r of replies) expect(r.body.requestId).toBe(r.headers.get("x-request-id"))
        expect(yield* count("audit_runs", `artifact_bundle_id = '${bundleId}'`)).toBe(1)
        const other = yield* start(token, bundleId, { force: true }, { "idempotency-key": "k-1" })
        expect(other.status).toBe(409)
        expect(other.body.error.code).toBe("conflict")
        const credits = yield* call((app) => app.request("GET", "/credits", { token }))
        expect(credits.body.data.totals.debited).toBe(3)
      }))

    it.effect("402 for a start the balance cannot cover; the estimate still answers", () =>
      Effect.gen(function*() {
        const token = yield* call((app) => app.token("poor"))
        const { bundleId } = yield* skillBundle(token)
        for (let i = 0; i < 3; i++) expect((yield* start(token, bundleId, { force: true })).status).toBe(202)
        const before = yield* count("audit_runs", `artifact_bundle_id = '${bundleId}'`)
        const refused = yield* start(token, bundleId, { force: true })
        expect(refused.status).toBe(402)
        expect(yield* count("audit_runs", `artifact_bundle_id = '${bundleId}'`)).toBe(before)
        const estimate = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits/estimate`, { token, body: {} }))
        expect(estimate.status).toBe(200)
        expect(estimate.body.data.creditCost).toMatchObject({ credits: 3, mode: "flat", estimate: true })
        expect(estimate.body.data.estimate.dynamicEstimatedCredits).toBeGreaterThan(0)
      }))
  }
)

layer(makeTestApp({ role: "api", env: { SERVICE_AUDIT_CREDIT_MODE: "flat", SERVICE_AUDIT_RUN_CREDITS: "3", SERVICE_USAGE_CAP_USER_CREDITS_PER_DAY: "4", SERVICE_RATE_LIMIT_BUNDLE_PER_MINUTE: "6" } }))(
  "usage caps and the bundle rate limit",
  (it) => {
    it.effect("a start over the daily usage cap is 429 usage_limit_exceeded and writes nothing", () =>
      Effect.gen(function*() {
        const token = yield* call((app) => app.token("capped"))
        const { bundleId } = yield* skillBundle(token)
        expect((yield* start(token, bundleId)).status).toBe(202)
        const refused = yield* start(token, bundleId, { force: true })
        expect(refused.status).toBe(429)
        expect(refused.body.error.code).toBe("usage_limit_exceeded")
        expect(yield* count("audit_runs", `artifact_bundle_id = '${bundleId}'`)).toBe(1)
        const credits = yield* call((app) => app.request("GET", "/credits", { token }))
        expect(credits.body.data.limits.spentTodayCredits).toBe(3)
        expect(credits.body.data.limits.usageCapUserCreditsPerDay).toBe(4)
      }))

    it.effect("the per-bundle rate limit is 429 rate_limit_exceeded with Retry-After", () =>
      Effect.gen(function*() {
        yield* inOneMinuteWindow()
        const token = yield* call((app) => app.token("hammer"))
        const { bundleId } = yield* bundleWith(token, [])
        const statuses: Array<number> = []
        for (let i = 0; i < 8; i++) {
          statuses.push((yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits`, { token }))).status)
        }
        expect(statuses.slice(-1)[0]).toBe(429)
        const reply = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits`, { token }))
        expect(reply.body.error.code).toBe("rate_limit_exceeded")
        expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0)
      }))
  }
)

layer(makeTestApp({ role: "api", env: { SERVICE_AI_CIRCUIT_BREAKER: "open" } }))("circuit breaker: environment override", (it) => {
  it.effect("starting is 503 ai_circuit_breaker_open with nothing written; estimates and reads keep working", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("paused"))
      const { bundleId } = yield* skillBundle(token)
      const refused = yield* start(token, bundleId)
      expect(refused.status).toBe(503)
      expect(refused.body.error.code).toBe("ai_circuit_breaker_open")
      expect(yield* count("audit_runs")).toBe(0)
      expect(yield* count("credit_ledger", "type = 'debit'")).toBe(0)
      expect((yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits/estimate`, { token, body: {} }))).status).toBe(200)
      expect((yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token }))).status).toBe(200)
    }))
})

layer(makeTestApp({ role: "api", env: { SERVICE_AUDIT_CREDIT_MODE: "flat", SERVICE_AUDIT_RUN_CREDITS: "3", SERVICE_AI_DAILY_BUDGET_CREDITS: "3" } }))(
  "circuit breaker: database setting and daily budget",
  (it) => {
    it.effect("the daily budget opens the breaker once reached; the database setting opens it too", () =>
      Effect.gen(function*() {
        const token = yield* call((app) => app.token("budget"))
        const { bundleId } = yield* skillBundle(token)
        expect((yield* start(token, bundleId)).status).toBe(202)
        const refused = yield* start(token, bundleId, { force: true })
        expect(refused.status).toBe(503)
        expect(refused.body.error.details[0].reason).toBe("daily AI budget reached")
        const app = yield* TestApp
        yield* app.sql`INSERT INTO service_settings (key, value) VALUES ('ai_circuit_breaker', '{"state":"open"}')`
        const other = yield* call((a) => a.token("budget-2"))
        const second = yield* skillBundle(other)
        const byDb = yield* start(other, second.bundleId)
        expect(byDb.status).toBe(503)
        expect(byDb.body.error.details[0].reason).toBe("operator setting")
        expect(yield* count("audit_runs")).toBe(1)
      }))
  }
)

layer(makeTestApp({ role: "api" }))("access, targets and cancel before start", (it) => {
  it.effect("another user's bundle, run and job are 404 on every audit and job route", () =>
    Effect.gen(function*() {
      const owner = yield* call((app) => app.token("owner"))
      const { bundleId } = yield* skillBundle(owner)
      const started = yield* start(owner, bundleId)
      const runId = started.body.data.auditRun.id
      const jobId = started.body.data.jobId
      const intruder = yield* call((app) => app.token("intruder"))
      const routes: Array<[string, string]> = [
        ["GET", `/artifact-bundles/${bundleId}/audits`],
        ["POST", `/artifact-bundles/${bundleId}/audits`],
        ["POST", `/artifact-bundles/${bundleId}/audits/estimate`],
        ["GET", `/artifact-bundles/${bundleId}/audits/${runId}`],
        ["POST", `/artifact-bundles/${bundleId}/audits/${runId}/apply`],
        ["GET", `/jobs/${jobId}`],
        ["GET", `/jobs/${jobId}/events`],
        ["POST", `/jobs/${jobId}/cancel`]
      ]
      for (const [method, path] of routes) {
        const reply = yield* call((app) => app.request(method, path, { token: intruder, body: method === "POST" ? {} : undefined }))
        expect([method, path, reply.status]).toEqual([method, path, 404])
        expect(reply.body.error.code).toBe("not_found")
      }
      const job = yield* call((app) => app.request("GET", `/jobs/${jobId}`, { token: owner }))
      expect(job.body.data.job.state).toBe("queued")
    }))

  it.effect("scopes: audits:run starts, artifact_bundles:read reads history, artifacts:pull never sees it, jobs need jobs:read/write", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("scoped"))
      const { bundleId } = yield* skillBundle(token)
      const runner = yield* call((app) => app.apiKey("scoped", ["audits:run"]))
      const reader = yield* call((app) => app.apiKey("scoped", ["artifact_bundles:read"]))
      const puller = yield* call((app) => app.apiKey("scoped", ["artifacts:pull"]))
      const poller = yield* call((app) => app.apiKey("scoped", ["jobs:read"]))
      expect((yield* start(reader, bundleId)).status).toBe(403)
      expect((yield* start(puller, bundleId)).status).toBe(403)
      const started = yield* start(runner, bundleId)
      expect(started.status).toBe(202)
      expect(started.body.data.auditRun.requestedByApiKeyId).not.toBeNull()
      const runPath = `/artifact-bundles/${bundleId}/audits/${started.body.data.auditRun.id}`
      expect((yield* call((app) => app.request("GET", runPath, { token: runner }))).status).toBe(403)
      expect((yield* call((app) => app.request("GET", runPath, { token: reader }))).status).toBe(200)
      expect((yield* call((app) => app.request("GET", runPath, { token: puller }))).status).toBe(403)
      expect((yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits`, { token: puller }))).status).toBe(403)
      const jobPath = `/jobs/${started.body.data.jobId}`
      expect((yield* call((app) => app.request("GET", jobPath, { token: runner }))).status).toBe(403)
      expect((yield* call((app) => app.request("GET", jobPath, { token: poller }))).status).toBe(200)
      expect((yield* call((app) => app.request("POST", `${jobPath}/cancel`, { token: poller }))).status).toBe(403)
      expect((yield* call((app) => app.request("GET", "/credits", { token: poller }))).status).toBe(403)
    }))

  it.effect("bad bodies are 400; archived and empty bundles and identical audits are 409", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("picky"))
      const { bundleId, files } = yield* skillBundle(token)
      const bad = [
        { targetVersionNumber: 1 },
        { targetFileId: "nope" },
        { artifactType: "novel" },
        { rubricKey: "no-such-rubric" },
        { targetFileId: files[0].file.id, artifactBundleVersionNumber: 1 },
        { force: "yes" }
      ]
      for (const body of bad) {
        const reply = yield* start(token, bundleId, body)
        expect([JSON.stringify(body), reply.status]).toEqual([JSON.stringify(body), 400])
        expect(reply.body.error.code).toBe("validation_failed")
      }
      expect(yield* count("audit_runs", `artifact_bundle_id = '${bundleId}'`)).toBe(0)
      const first = yield* start(token, bundleId)
      expect(first.status).toBe(202)
      const duplicate = yield* start(token, bundleId)
      expect(duplicate.status).toBe(409)
      expect(duplicate.body.error.details[0].auditRunId).toBe(first.body.data.auditRun.id)
      expect((yield* start(token, bundleId, { force: true })).status).toBe(202)
      const empty = yield* bundleWith(token, [])
      expect((yield* start(token, empty.bundleId)).status).toBe(409)
      expect((yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}`, { token }))).status).toBe(200)
      expect((yield* start(token, bundleId, { force: true })).status).toBe(409)
      expect((yield* start(token, "00000000-0000-4000-8000-000000000000")).status).toBe(404)
    }))

  it.effect("targets: a file version, a bundle version event, the current primary, or bundle mode", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("targeter"))
      const { bundleId, files } = yield* skillBundle(token)
      const skill = files.find((f) => f.file.path === "SKILL.md")!
      const v1 = skill.version.id
      const edit = yield* call((app) =>
        app.request("PUT", `/artifact-bundles/${bundleId}/files/${skill.file.id}`, { token, body: { content: "# Release notes\n\nNow shorter.\n" } })
      )
      expect(edit.status).toBe(200)
      const estimate = (body: unknown) =>
        call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits/estimate`, { token, body }))
      const byVersion = yield* estimate({ targetFileId: skill.file.id, targetVersionNumber: 1 })
      expect(byVersion.status).toBe(200)
      expect(byVersion.body.data.target).toMatchObject({ targetMode: "file", targetFileVersionId: v1, targetFileVersionNumber: 1 })
      const byEvent = yield* estimate({ artifactBundleVersionNumber: 3 })
      expect(byEvent.body.data.target).toMatchObject({ targetFileVersionId: edit.body.data.version.id, artifactBundleVersionNumber: 3 })
      const current = yield* estimate(null)
      expect(current.body.data.target.targetFileVersionId).toBe(edit.body.data.version.id)
      expect(current.body.data.target.inputVersionIds).toHaveLength(2)
      expect(current.body.data.target.inputHash).toMatch(/^sha256:[0-9a-f]{64}$/)
      expect((yield* estimate({ targetFileId: skill.file.id, targetVersionNumber: 9 })).status).toBe(404)
      expect((yield* estimate({ artifactBundleVersionNumber: 99 })).status).toBe(404)
      const plain = yield* bundleWith(token, [{ path: "notes/a.md", content: "# A\n\nDo a thing.\n" }, { path: "notes/b.md", content: "# B\n" }])
      const bundleMode = yield* call((app) => app.request("POST", `/artifact-bundles/${plain.bundleId}/audits/estimate`, { token, body: {} }))
      expect(bundleMode.body.data.target).toMatchObject({ targetMode: "bundle", targetFileId: null, targetFileVersionId: null })
      expect(bundleMode.body.data.estimate.breakdown.every((b) => b.role === "artifact")).toBe(true)
    }))

  it.effect("cancel before start: the job never starts, the run is cancelled, the debit is refunded once; a second cancel is 409", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("quitter"))
      const { bundleId } = yield* skillBundle(token)
      const started = yield* start(token, bundleId)
      const jobId = started.body.data.jobId
      const cancelled = yield* call((app) => app.request("POST", `/jobs/${jobId}/cancel`, { token }))
      expect(cancelled.status).toBe(200)
      expect(cancelled.body.data.job.state).toBe("cancelled")
      expect(yield* count("graphile_worker.jobs", `key = '${jobId}'`)).toBe(0)
      const run = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits/${started.body.data.auditRun.id}`, { token }))
      expect(run.body.data.auditRun.status).toBe("cancelled")
      const again = yield* call((app) => app.request("POST", `/jobs/${jobId}/cancel`, { token }))
      expect(again.status).toBe(409)
      const credits = yield* call((app) => app.request("GET", "/credits", { token }))
      const cost = started.body.data.creditCost.credits
      expect(credits.body.data.totals).toMatchObject({ debited: cost, refunded: cost })
      expect(credits.body.data.balance).toBe(100)
      const events = yield* call((app) => app.request("GET", `/jobs/${jobId}/events`, { token }))
      expect(events.body.data.events.map((e) => e.state)).toEqual(["queued", "cancelled"])
      yield* balanceMatchesLedger
    }))
})

layer(makeTestApp({ role: "all", env: { SERVICE_MOCK_REVIEW_DELAY_MS: "4000" } }))("cancel during a run", (it) => {
  it.effect("a running job cannot be applied (409), is interrupted at the next safe point, stays cancelled, stores no result and is refunded once", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("impatient"))
      const { bundleId } = yield* skillBundle(token)
      const started = yield* start(token, bundleId)
      const jobId = started.body.data.jobId
      yield* waitForJob(token, jobId, ["running"])
      const early = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits/${started.body.data.auditRun.id}/apply`, { token }))
      expect([early.status, early.body.error.code]).toEqual([409, "conflict"])
      const cancelled = yield* call((app) => app.request("POST", `/jobs/${jobId}/cancel`, { token }))
      expect(cancelled.status).toBe(200)
      yield* sleep(4500)
      const job = yield* call((app) => app.request("GET", `/jobs/${jobId}`, { token }))
      expect(job.body.data.job.state).toBe("cancelled")
      const run = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits/${started.body.data.auditRun.id}`, { token }))
      expect(run.body.data.auditRun.status).toBe("cancelled")
      expect(run.body.data.auditRun.scores).toEqual([])
      const credits = yield* call((app) => app.request("GET", "/credits", { token }))
      expect(credits.body.data.balance).toBe(100)
      expect(credits.body.data.ledger.filter((e) => e.type === "refund")).toHaveLength(1)
    }))
})

layer(makeTestApp({ role: "all", env: { SERVICE_AUDIT_CREDIT_MODE: "free" } }))("free mode", (it) => {
  it.effect("charges nothing and still records the dynamic estimate", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("freeloader"))
      const { bundleId } = yield* skillBundle(token)
      const started = yield* start(token, bundleId)
      expect(started.status).toBe(202)
      expect(started.body.data.creditCost).toMatchObject({ credits: 0, mode: "free" })
      expect(started.body.data.estimate.dynamicEstimatedCredits).toBeGreaterThan(0)
      const job = yield* waitForJob(token, started.body.data.jobId)
      expect(job.state).toBe("completed")
      expect(yield* count("credit_ledger", "type <> 'grant'")).toBe(0)
    }))
})
