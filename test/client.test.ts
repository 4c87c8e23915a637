/**
 * Issue 13: the typed SDK (`rubr/client`) against the real service, and its retries against a small
 * fake server that answers 429 and 503 first.
 */
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { createClient, make, makeWithFetch, retryAfterMs, type RetryInfo, RubrError, waitForCompletion, waitForJob } from "../src/client/index.js"
import { makeTestApp, TestApp } from "./support/TestApp.js"
import { call, DEPLOY_SKILL } from "./support/fixtures.js"

const client = (apiKey?: string) => Effect.flatMap(TestApp, (app) => makeWithFetch({ baseUrl: app.baseUrl, apiKey }))

/** A server answering each request with the next of `answers` (the last one repeats); it records what it got. */
const fakeServer = (answers: ReadonlyArray<{ status: number; headers?: Record<string, string>; body?: unknown }>) =>
  Effect.acquireRelease(
    Effect.async<{ url: string; seen: Array<{ method: string; url: string; headers: Http.IncomingHttpHeaders }> }>((resume) => {
      const seen: Array<{ method: string; url: string; headers: Http.IncomingHttpHeaders }> = []
      const server = Http.createServer((req, res) => {
        const answer = answers[Math.min(seen.length, answers.length - 1)]!
        seen.push({ method: req.method!, url: req.url!, headers: req.headers })
        req.resume()
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
        res.end(answer.body === undefined ? "" : JSON.stringify(answer.body))
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(Object.assign(server, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, seen }))))
    }),
    (server) => Effect.sync(() => (server as unknown as Http.Server).close())
  )

const HEALTH = { data: { status: "ok", database: "ok" }, requestId: "r-1" }

layer(makeTestApp({ role: "all" }))("the SDK against the service", (it) => {
  it.effect("typed calls: create, upload, read; answers are decoded (dates are Dates)", () =>
    Effect.gen(function*() {
      const key = yield* call((app) => app.apiKey("sdk-user", ["artifact_bundles:read", "artifact_bundles:write", "files:read", "files:write"]))
      const rubr = yield* client(key)
      const created = yield* rubr.artifactBundles.create({ payload: { name: "sdk" } })
      const bundleId = created.data.artifactBundle.id
      expect(created.requestId).toEqual(expect.any(String))
      expect(created.data.artifactBundle.createdAt).toBeInstanceOf(Date)
      const uploaded = yield* rubr.files.upload({ path: { artifactBundleId: bundleId }, payload: { files: [{ path: "SKILL.md", content: DEPLOY_SKILL }] } })
      const fileId = uploaded.data.files[0]!.file.id
      const read = yield* rubr.files.get({ path: { artifactBundleId: bundleId, fileId } })
      expect(read.data.content).toBe(DEPLOY_SKILL)
      const list = yield* rubr.artifactBundles.list({ urlParams: { status: "active" } })
      expect(list.data.artifactBundles.map((b) => b.id)).toContain(bundleId)
    }))

  it.effect("errors are RubrError with the envelope's code, status, message and requestId", () =>
    Effect.gen(function*() {
      const anonymous = yield* client()
      const unauthorized = yield* Effect.flip(anonymous.artifactBundles.list({ urlParams: {} }))
      expect(unauthorized).toBeInstanceOf(RubrError)
      expect(unauthorized).toMatchObject({ code: "unauthorized", status: 401, requestId: expect.any(String) })
      const key = yield* call((app) => app.apiKey("sdk-errors", ["artifact_bundles:read"]))
      const rubr = yield* client(key)
      const missing = yield* Effect.flip(rubr.artifactBundles.get({ path: { artifactBundleId: crypto.randomUUID() } }))
      expect(missing).toMatchObject({ code: "not_found", status: 404 })
      const forbidden = yield* Effect.flip(rubr.artifactBundles.create({ payload: { name: "x" } }))
      expect(forbidden).toMatchObject({ code: "forbidden", status: 403 })
      expect(String(forbidden)).toContain("forbidden (403)")
      const invalid = yield* Effect.flip(rubr.artifactBundles.list({ urlParams: { limit: 100000 } } as any))
      expect(invalid).toMatchObject({ code: "validation_failed", status: 400 })
      expect(invalid.details.length).toBeGreaterThan(0)
    }))

  it.effect("starts carry an idempotency key; waitForJob reports progress and answers the ended job", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("sdk-jobs", ["artifact_bundles:read", "artifact_bundles:write", "files:write", "audits:run", "jobs:read"]))
      const sent: Array<string | undefined> = []
      const rubr = yield* make({ baseUrl: app.baseUrl, apiKey: key }).pipe(
        // what goes on the wire: the request as the SDK finished it
        Effect.updateService(HttpClient.HttpClient, (c) => HttpClient.transform(c, (send, r) => Effect.zipRight(Effect.sync(() => sent.push(r.headers["idempotency-key"])), send))),
        Effect.provide(FetchHttpClient.layer)
      )
      const bundle = (yield* rubr.artifactBundles.create({ payload: { name: "jobs" } })).data.artifactBundle
      yield* rubr.files.upload({ path: { artifactBundleId: bundle.id }, payload: { files: [{ path: "SKILL.md", content: DEPLOY_SKILL }] } })
      const started = yield* rubr.audits.startAudit({ path: { artifactBundleId: bundle.id }, payload: {} })
      expect(sent.slice(0, 2)).toEqual([undefined, undefined])
      expect(sent[2]).toMatch(/^[0-9a-f-]{36}$/)
      // a key the caller gives is kept, and replays the same run
      const again = yield* rubr.audits.startAudit({ path: { artifactBundleId: bundle.id }, payload: { force: true }, headers: { "idempotency-key": "mine-1" } })
      const replay = yield* rubr.audits.startAudit({ path: { artifactBundleId: bundle.id }, payload: { force: true }, headers: { "idempotency-key": "mine-1" } })
      expect(replay.data.auditRun.id).toBe(again.data.auditRun.id)
      expect(sent.slice(-2)).toEqual(["mine-1", "mine-1"])

      const seen: Array<{ sequence: number; state: string; phase: string }> = []
      const job = yield* waitForJob(rubr, started.data.jobId, { onProgress: (events) => seen.push(...events) })
      expect(job.state).toBe("completed")
      // every event once, in order, from queued to completed
      expect(seen.map((e) => e.sequence)).toEqual(seen.map((_, i) => i + 1))
      expect(seen[0]!.state).toBe("queued")
      expect(seen.at(-1)!.state).toBe("completed")
      expect(new Set(seen.map((e) => e.phase)).size).toBeGreaterThan(2)
      const done = yield* waitForCompletion(rubr, again.data.jobId)
      expect(done.state).toBe("completed")
    }))

  it.effect("a cancelled job is a job_failed error from waitForCompletion", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("sdk-cancel"))
      const rubr = yield* client(token)
      const bundle = (yield* rubr.artifactBundles.create({ payload: { name: "cancel" } })).data.artifactBundle
      yield* rubr.files.upload({ path: { artifactBundleId: bundle.id }, payload: { files: [{ path: "SKILL.md", content: DEPLOY_SKILL }] } })
      const started = yield* rubr.audits.startAudit({ path: { artifactBundleId: bundle.id }, payload: {} })
      yield* Effect.either(rubr.jobs.cancelJob({ path: { jobId: started.data.jobId } }))
      const outcome = yield* Effect.either(waitForCompletion(rubr, started.data.jobId))
      // the mock may finish before the cancel lands; either way the answer is consistent
      const job = (yield* rubr.jobs.getJob({ path: { jobId: started.data.jobId } })).data.job
      if (job.state === "cancelled") {
        expect(Either.isLeft(outcome) && outcome.left.code).toBe("job_failed")
      } else {
        expect(Either.isRight(outcome)).toBe(true)
      }
    }))
})

layer(makeTestApp({ role: "api" }))("SDK retries", (it) => {
  it.scoped("429 with Retry-After and 503 are retried; the start's idempotency key stays the same", () =>
    Effect.gen(function*() {
      const server = yield* fakeServer([
        { status: 429, headers: { "retry-after": "0" }, body: { error: { code: "rate_limit_exceeded", message: "slow down", requestId: "a", details: [] } } },
        { status: 503, body: { error: { code: "service_unavailable", message: "later", requestId: "b", details: [] } } },
        { status: 200, body: HEALTH }
      ])
      const retries: Array<RetryInfo> = []
      const rubr = yield* makeWithFetch({ baseUrl: server.url, onRetry: (r) => retries.push(r) })
      const health = yield* rubr.system.health()
      expect(health.data.status).toBe("ok")
      expect(server.seen).toHaveLength(3)
      expect(retries.map((r) => [r.attempt, r.reason])).toEqual([[1, "HTTP 429"], [2, "HTTP 503"]])
      expect(retries[0]!.delayMs).toBe(0)
    }))

  it.scoped("a start retried after 503 sends the same Idempotency-Key each time", () =>
    Effect.gen(function*() {
      const server = yield* fakeServer([
        { status: 503, body: { error: { code: "service_unavailable", message: "later", requestId: "b", details: [] } } },
        { status: 402, body: { error: { code: "credit_limit_exceeded", message: "no credits", requestId: "c", details: [] } } }
      ])
      const rubr = yield* makeWithFetch({ baseUrl: server.url, apiKey: "rubr_x", onRetry: () => {} , maxRetryDelay: "1 second" })
      const error = yield* Effect.flip(rubr.audits.startAudit({ path: { artifactBundleId: crypto.randomUUID() }, payload: {} }))
      expect(error).toMatchObject({ code: "credit_limit_exceeded", status: 402, requestId: "c" })
      const keys = server.seen.map((s) => s.headers["idempotency-key"])
      expect(keys).toHaveLength(2)
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
      expect(keys[1]).toBe(keys[0])
      expect(server.seen[0]!.headers.authorization).toBe("Bearer rubr_x")
    }))

  it.scoped("gives up after its retries, and does not wait for a Retry-After beyond maxRetryDelay", () =>
    Effect.gen(function*() {
      const limited = yield* fakeServer([{ status: 429, headers: { "retry-after": "3600" }, body: { error: { code: "rate_limit_exceeded", message: "an hour", requestId: "d", details: [] } } }])
      const rubr = yield* makeWithFetch({ baseUrl: limited.url })
      const error = yield* Effect.flip(rubr.system.health())
      expect(error).toMatchObject({ code: "rate_limit_exceeded", status: 429, retryAfterSeconds: 3600 })
      expect(limited.seen).toHaveLength(1)

      const down = yield* fakeServer([{ status: 503, headers: { "retry-after": "0" }, body: { error: { code: "service_unavailable", message: "down", requestId: "e", details: [] } } }])
      const twice = yield* makeWithFetch({ baseUrl: down.url, retries: 2 })
      const unavailable = yield* Effect.flip(twice.system.health())
      expect(unavailable.code).toBe("service_unavailable")
      expect(unavailable.retryAfterSeconds).toBe(0)
      expect(down.seen).toHaveLength(3)
      // an error without Retry-After carries none
      const anonymous = yield* client()
      const missing = yield* Effect.flip(anonymous.artifactBundles.get({ path: { artifactBundleId: "00000000-0000-4000-8000-000000000000" } }))
      expect(missing).toMatchObject({ code: "unauthorized", status: 401 })
      expect(missing.retryAfterSeconds ?? null).toBe(null)
    }))

  it.scoped("no answer is network_error; a POST without an idempotency key is not retried", () =>
    Effect.gen(function*() {
      const server = yield* fakeServer([{ status: 200, body: HEALTH }])
      const closedUrl = server.url.replace(/:\d+\//, ":1/")
      const retries: Array<RetryInfo> = []
      const rubr = yield* makeWithFetch({ baseUrl: closedUrl, retries: 1, onRetry: (r) => retries.push(r) })
      const error = yield* Effect.flip(rubr.system.health())
      expect(error).toMatchObject({ code: "network_error", status: null })
      expect(retries).toHaveLength(1)
      const create = yield* Effect.flip(rubr.artifactBundles.create({ payload: { name: "x" } }))
      expect(create.code).toBe("network_error")
      expect(retries).toHaveLength(1)
    }))

  it.scoped("an answer that is not the envelope is http_error; one that breaks the contract is invalid_response", () =>
    Effect.gen(function*() {
      const proxy = yield* fakeServer([{ status: 502, headers: { "content-type": "text/html" } }])
      const viaProxy = yield* makeWithFetch({ baseUrl: proxy.url, retries: 0 })
      expect((yield* Effect.flip(viaProxy.system.health())).code).toBe("http_error")
      const wrong = yield* fakeServer([{ status: 200, body: { data: { status: 42 } } }])
      const broken = yield* makeWithFetch({ baseUrl: wrong.url })
      expect((yield* Effect.flip(broken.system.health())).code).toBe("invalid_response")
    }))

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterMs("2")).toBe(2000)
    expect(retryAfterMs(undefined)).toBeUndefined()
    expect(retryAfterMs("soon")).toBeUndefined()
    const now = Date.parse("2026-11-22T10:00:00Z")
    expect(retryAfterMs("Sun, 22 Nov 2026 10:00:05 GMT", now)).toBe(5000)
    expect(retryAfterMs("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0)
  })

  it.scoped("the Promise client: the same calls, rejecting with the RubrError", () =>
    Effect.gen(function*() {
      const server = yield* fakeServer([
        { status: 200, body: HEALTH },
        { status: 404, body: { error: { code: "not_found", message: "no such bundle", requestId: "f", details: [] } } }
      ])
      const rubr = createClient({ baseUrl: server.url, apiKey: "rubr_x" })
      const health = yield* Effect.promise(() => rubr.system.health())
      expect(health.data.database).toBe("ok")
      const error = yield* Effect.promise(() => rubr.artifactBundles.get({ path: { artifactBundleId: crypto.randomUUID() } }).then(() => null, (e: unknown) => e))
      expect(error).toBeInstanceOf(RubrError)
      expect(error).toMatchObject({ code: "not_found", status: 404, requestId: "f" })
    }))
})
