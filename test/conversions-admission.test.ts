/** Issue 10: conversions on the shared run pipeline: admission, credits per mode, idempotency, cancellation. */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { inOneMinuteWindow, makeTestApp, sleep } from "./support/TestApp.js"
import { balanceMatchesLedger, bundleWith, call, count, DEPLOY_SKILL, waitForJob } from "./support/fixtures.js"

const convert = (token: string, bundleId: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  call((app) => app.request("POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions`, { token, body, headers }))

const skillBundle = (token: string) => bundleWith(token, [{ path: "SKILL.md", content: DEPLOY_SKILL }], "deploy-preview")

/** Nothing of a refused start is left behind: no conversion, no job, no queued worker job, no debit. */
const nothingWritten = Effect.gen(function*() {
  expect(yield* count("rubr_flow_conversions")).toBe(0)
  expect(yield* count("jobs", "kind = 'rubr_flow_conversion'")).toBe(0)
  expect(yield* count("graphile_worker.jobs", "task_identifier = 'rubr_flow_conversion'")).toBe(0)
  expect(yield* count("credit_ledger", "type = 'debit'")).toBe(0)
})


layer(makeTestApp({ role: "api", env: { SERVICE_AUDIT_CREDIT_MODE: "flat", SERVICE_CONVERSION_RUN_CREDITS: "7", SERVICE_SIGNUP_CREDITS: "20" } }))(
  "flat mode: SERVICE_CONVERSION_RUN_CREDITS, 402, and the idempotency key",
  (it) => {
    it.effect("charges the flat price; a start the balance cannot cover is 402 and writes nothing", () =>
      Effect.gen(function*() {
        const token = yield* call((app) => app.token("flat"))
        const { bundleId } = yield* skillBundle(token)
        const first = yield* convert(token, bundleId)
        expect(first.status).toBe(202)
        expect(first.body.data.creditCost).toMatchObject({ credits: 7, mode: "flat", estimate: true })
        expect(first.body.data.estimate.dynamicEstimatedCredits).toBeGreaterThan(0)
        expect((yield* convert(token, bundleId)).status).toBe(202)
        const before = yield* count("rubr_flow_conversions")
        const refused = yield* convert(token, bundleId)
        expect(refused.status).toBe(402)
        expect(refused.body.error.code).toBe("credit_limit_exceeded")
        expect(yield* count("rubr_flow_conversions")).toBe(before)
        expect(yield* count("jobs", "kind = 'rubr_flow_conversion'")).toBe(before)
        const credits = yield* call((app) => app.request("GET", "/credits", { token }))
        expect(credits.body.data.balance).toBe(6)
        yield* balanceMatchesLedger
      }))

    it.effect("20 concurrent identical starts with one Idempotency-Key make one conversion and one debit; another body is 409", () =>
      Effect.gen(function*() {
        const token = yield* call((app) => app.token("idem"))
        const { bundleId } = yield* skillBundle(token)
        const replies = yield* call((app) =>
          Promise.all(Array.from({ length: 20 }, () =>
            app.request("POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions`, { token, body: {}, headers: { "idempotency-key": "conv-1" } })
          ))
        )
        expect(replies.map((r) => r.status)).toEqual(Array(20).fill(202))
        expect(new Set(replies.map((r) => r.body.data.conversion.id)).size).toBe(1)
        expect(replies.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19)
        for (const r of replies) expect(r.body.requestId).toBe(r.headers.get("x-request-id"))
        expect(yield* count("rubr_flow_conversions", `artifact_bundle_id = '${bundleId}'`)).toBe(1)
        const other = yield* convert(token, bundleId, { outputPath: "other.rubr_flow" }, { "idempotency-key": "conv-1" })
        expect(other.status).toBe(409)
        const credits = yield* call((app) => app.request("GET", "/credits", { token }))
        expect(credits.body.data.totals.debited).toBe(7)
        // the key is per route: the same key on the audit route is a different request
        const audit = yield* call((app) =>
          app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {}, headers: { "idempotency-key": "conv-1" } }))
        expect(audit.status).toBe(202)
      }))
  }
)

layer(makeTestApp({ role: "api", env: { SERVICE_AUDIT_CREDIT_MODE: "flat", SERVICE_CONVERSION_RUN_CREDITS: "3", SERVICE_USAGE_CAP_USER_CREDITS_PER_DAY: "4" } }))(
  "usage caps",
  (it) => {
    it.effect("a start over the daily usage cap is 429 usage_limit_exceeded and writes nothing", () =>
      Effect.gen(function*() {
        const token = yield* call((app) => app.token("capped"))
        const { bundleId } = yield* skillBundle(token)
        const refused = yield* Effect.gen(function*() {
          expect((yield* convert(token, bundleId)).status).toBe(202)
          return yield* convert(token, bundleId)
        })
        expect(refused.status).toBe(429)
        expect(refused.body.error.code).toBe("usage_limit_exceeded")
        expect(yield* count("rubr_flow_conversions")).toBe(1)
        expect(yield* count("credit_ledger", "type = 'debit'")).toBe(1)
      }))
  }
)

layer(makeTestApp({ role: "api", env: { SERVICE_AUDIT_CREDIT_MODE: "flat", SERVICE_CONVERSION_RUN_CREDITS: "3", SERVICE_USAGE_CAP_BUNDLE_CREDITS_PER_DAY: "2" } }))(
  "usage caps per bundle",
  (it) => {
    it.effect("the first start over the bundle's cap is 429 and leaves no run, job or debit", () =>
      Effect.gen(function*() {
        const token = yield* call((app) => app.token("bundle-capped"))
        const { bundleId } = yield* skillBundle(token)
        const refused = yield* convert(token, bundleId)
        expect(refused.status).toBe(429)
        expect(refused.body.error.code).toBe("usage_limit_exceeded")
        yield* nothingWritten
      }))
  }
)

layer(makeTestApp({ role: "api", env: { SERVICE_RATE_LIMIT_BUNDLE_PER_MINUTE: "4" } }))("the bundle rate limit", (it) => {
  it.effect("is 429 rate_limit_exceeded with Retry-After, and a refused start leaves nothing", () =>
    Effect.gen(function*() {
      yield* inOneMinuteWindow()
      const token = yield* call((app) => app.token("hammer"))
      const { bundleId } = yield* skillBundle(token) // the upload counted once
      // another user's requests are 404 and count nothing against this bundle's limit
      const intruder = yield* call((app) => app.token("intruder"))
      for (const path of ["rubr-flow/conversions/estimate", "audits/estimate", "rubr-flow/conversions", "audits"]) {
        for (let i = 0; i < 3; i++) {
          const reply = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/${path}`, { token: intruder, body: {} }))
          expect([path, reply.status]).toEqual([path, 404])
        }
      }
      const statuses: Array<number> = []
      for (let i = 0; i < 3; i++) {
        statuses.push((yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/rubr-flow/conversions`, { token }))).status)
      }
      expect(statuses).toEqual([200, 200, 200])
      const refused = yield* convert(token, bundleId)
      expect(refused.status).toBe(429)
      expect(refused.body.error.code).toBe("rate_limit_exceeded")
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      yield* nothingWritten
    }))
})

layer(makeTestApp({ role: "api", env: { SERVICE_AI_CIRCUIT_BREAKER: "open" } }))("circuit breaker", (it) => {
  it.effect("starting is 503 ai_circuit_breaker_open with nothing written; the estimate and reads keep working", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("paused"))
      const { bundleId } = yield* skillBundle(token)
      const refused = yield* convert(token, bundleId)
      expect(refused.status).toBe(503)
      expect(refused.body.error.code).toBe("ai_circuit_breaker_open")
      yield* nothingWritten
      expect((yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions/estimate`, { token, body: {} }))).status).toBe(200)
      expect((yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/rubr-flow/conversions`, { token }))).status).toBe(200)
    }))
})

layer(makeTestApp({ role: "all", env: { SERVICE_AUDIT_CREDIT_MODE: "free" } }))("free mode", (it) => {
  it.effect("charges nothing and still records the dynamic estimate", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("freeloader"))
      const { bundleId } = yield* skillBundle(token)
      const started = yield* convert(token, bundleId)
      expect(started.status).toBe(202)
      expect(started.body.data.creditCost).toMatchObject({ credits: 0, mode: "free" })
      expect(started.body.data.estimate.dynamicEstimatedCredits).toBeGreaterThan(0)
      const job = yield* waitForJob(token, started.body.data.jobId)
      expect(job.state).toBe("completed")
      expect(yield* count("credit_ledger", "type <> 'grant'")).toBe(0)
    }))
})

layer(makeTestApp({ role: "all", env: { SERVICE_MOCK_REVIEW_DELAY_MS: "3000" } }))("cancel during a conversion", (it) => {
  it.effect("a running conversion stops at the next safe point, writes nothing, and is refunded once", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("impatient"))
      const { bundleId } = yield* skillBundle(token)
      const started = yield* convert(token, bundleId)
      const jobId = started.body.data.jobId
      yield* waitForJob(token, jobId, ["running"])
      const cancelled = yield* call((app) => app.request("POST", `/jobs/${jobId}/cancel`, { token }))
      expect(cancelled.status).toBe(200)
      expect(cancelled.body.data.job.state).toBe("cancelled")
      yield* sleep(3500)
      const job = yield* call((app) => app.request("GET", `/jobs/${jobId}`, { token }))
      expect(job.body.data.job.state).toBe("cancelled")
      const conversion = yield* call((app) =>
        app.request("GET", `/artifact-bundles/${bundleId}/rubr-flow/conversions/${started.body.data.conversion.id}`, { token }))
      expect(conversion.body.data.conversion).toMatchObject({ status: "cancelled", outputFileId: null, outputFileVersionId: null })
      expect(yield* count("file_versions", `artifact_bundle_id = '${bundleId}' AND source = 'rubr_flow_conversion'`)).toBe(0)
      const credits = yield* call((app) => app.request("GET", "/credits", { token }))
      expect(credits.body.data.balance).toBe(100)
      expect(credits.body.data.ledger.filter((e) => e.type === "refund")).toHaveLength(1)
      expect((yield* call((app) => app.request("POST", `/jobs/${jobId}/cancel`, { token }))).status).toBe(409)
      yield* balanceMatchesLedger
    }))
})
