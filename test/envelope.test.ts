/** Issue 2: every failure, including the ones the platform raises itself, is the one error envelope. */
import { describe, expect, it as vit, layer } from "@effect/vitest"
import { Effect } from "effect"
import { keySatisfies, access } from "../src/auth/Scopes.js"
import { routes } from "../src/Routes.js"
import pg from "pg"
import { inject } from "vitest"
import { inOneMinuteWindow, makeTestApp, type OpenApiDocument, sleep, TestApp } from "./support/TestApp.js"
import { call, expectError } from "./support/fixtures.js"
import type { BodyOf } from "./support/Api.js"

layer(makeTestApp({ env: { SERVICE_MAX_BODY_BYTES: "4096" } }))("error envelope", (it) => {
  it.effect("malformed JSON is 400 validation_failed", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("env-1"))
      const reply = yield* call((app) =>
        app.request("POST", "/api-keys", { token, rawBody: '{"name": "x", ', headers: { "content-type": "application/json" } })
      )
      expectError(reply, 400, "validation_failed")
      expect(reply.body.error.message).toContain("not valid JSON")
    }))

  it.effect("a wrong content type is 400 validation_failed naming it", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("env-2"))
      const reply = yield* call((app) =>
        app.request("POST", "/api-keys", { token, rawBody: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } })
      )
      expectError(reply, 400, "validation_failed")
      expect(reply.body.error.details[0].path).toBe("content-type")
    }))

  it.effect("routes that read no body ignore its content type (one-click unsubscribe posts a form)", () =>
    Effect.gen(function*() {
      const reply = yield* call((app) =>
        app.request("POST", "/email/unsubscribe-tokens/not-a-real-token/consume", {
          rawBody: "List-Unsubscribe=One-Click",
          headers: { "content-type": "application/x-www-form-urlencoded" }
        })
      )
      expect(reply.status).toBe(400)
      expect(JSON.stringify(reply.body.error.details)).not.toContain("content-type")
    }))

  it.effect("an unknown route is 404 not_found, with or without credentials", () =>
    Effect.gen(function*() {
      expectError(yield* call((app) => app.request("GET", "/no-such-route")), 404, "not_found")
      const token = yield* call((app) => app.token("env-3"))
      expectError(yield* call((app) => app.request("POST", "/nope/deeper", { token, body: {} })), 404, "not_found")
    }))

  it.effect("a wrong method is 405 method_not_allowed with an Allow header", () =>
    Effect.gen(function*() {
      const reply = yield* call((app) => app.request("PUT", "/health", { body: {} }))
      expectError(reply, 405, "method_not_allowed")
      expect(reply.headers.get("allow")).toBe("GET")
      const keys = yield* call((app) => app.request("PATCH", "/api-keys", { body: {} }))
      expectError(keys, 405, "method_not_allowed")
      expect(keys.headers.get("allow")).toBe("GET, POST")
    }))

  it.effect("a body over the size limit is 413, declared or streamed", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("env-4"))
      const big = JSON.stringify({ name: "x".repeat(5000), scopes: ["files:read"] })
      const declared = yield* call((app) => app.request("POST", "/api-keys", { token, rawBody: big, headers: { "content-type": "application/json" } }))
      expectError(declared, 413, "payload_too_large")
      // chunked: no content-length, so the limit is enforced while reading
      const streamed = yield* call(async (app) => {
        const body = new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(big))
            controller.close()
          }
        })
        const response = await fetch(app.baseUrl + "/api-keys", {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body,
          duplex: "half"
        } as RequestInit)
        return { status: response.status, headers: response.headers, body: (await response.json()) as BodyOf<"POST", "/api-keys"> }
      })
      expectError(streamed, 413, "payload_too_large")
      const listed = yield* call((app) => app.request("GET", "/api-keys", { token }))
      expect(listed.body.data.apiKeys).toEqual([])
    }))

  it.effect("schema decode failures are 400 with details of {path, message}", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("env-5"))
      const reply = yield* call((app) => app.request("POST", "/api-keys", { token, body: { name: 42, scopes: "files:read" } }))
      expectError(reply, 400, "validation_failed")
      for (const detail of reply.body.error.details) {
        expect(Object.keys(detail).sort()).toEqual(["message", "path"])
      }
      expect(reply.body.error.details.map((d) => d.path).sort()).toEqual(["name", "scopes"])
      const array = yield* call((app) => app.request("POST", "/api-keys", { token, body: [1, 2] }))
      expectError(array, 400, "validation_failed")
    }))

  it.effect("every response carries X-Request-Id; a well-formed incoming one is honoured", () =>
    Effect.gen(function*() {
      const ok = yield* call((app) => app.request("GET", "/health"))
      expect(ok.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
      const traced = yield* call((app) => app.request("GET", "/health", { headers: { "x-request-id": "trace-abc-12345" } }))
      expect(traced.headers.get("x-request-id")).toBe("trace-abc-12345")
      expect(traced.body.requestId).toBe("trace-abc-12345")
      const hostile = yield* call((app) => app.request("GET", "/health", { headers: { "x-request-id": "<script>" } }))
      expect(hostile.headers.get("x-request-id")).not.toBe("<script>")
      const docs = yield* call((app) => fetch(app.baseUrl + "/docs"))
      expect(docs.headers.get("x-request-id")).toBeTruthy()
    }))

  it.effect("the OpenAPI document is 3.1.0, derived from the API, and shows the error envelope", () =>
    Effect.gen(function*() {
      const reply = yield* call((app) => app.requestAs<OpenApiDocument>("GET", "/openapi.json"))
      expect(reply.status).toBe(200)
      expect(reply.body.openapi).toBe("3.1.0")
      expect(Object.keys(reply.body.paths)).toEqual(expect.arrayContaining(["/api/v1/health", "/api/v1/me", "/api/v1/api-keys", "/api/v1/api-keys/{keyId}"]))
      const errors = reply.body.paths["/api/v1/api-keys"].post.responses
      expect(Object.keys(errors)).toEqual(expect.arrayContaining(["201", "400", "401", "403"]))
      expect(JSON.stringify(reply.body)).not.toContain("HttpApiDecodeError")
      const docs = yield* call((app) => fetch(app.baseUrl + "/docs").then(async (r) => ({ status: r.status, type: r.headers.get("content-type"), text: await r.text() })))
      expect(docs.status).toBe(200)
      expect(docs.type).toContain("text/html")
      // the served document (with its access extension) and Scalar's bundle, loaded on this first request
      expect(docs.text).toContain('<script id="api-reference" type="application/json">')
      expect(docs.text).toContain('"x-required-scopes"')
      expect(docs.text).toContain("@scalar/api-reference")
    }))
})

layer(makeTestApp({ env: { SERVICE_RATE_LIMIT_USER_PER_MINUTE: "3", SERVICE_RATE_LIMIT_KEY_PER_MINUTE: "2" } }))("rate limits", (it) => {
  it.effect("the per-user limit answers 429 with Retry-After, counted in PostgreSQL", () =>
    Effect.gen(function*() {
      yield* inOneMinuteWindow()
      const token = yield* call((app) => app.token("limited"))
      const statuses: Array<number> = []
      for (let i = 0; i < 4; i++) statuses.push((yield* call((app) => app.request("GET", "/me", { token }))).status)
      expect(statuses).toEqual([200, 200, 200, 429])
      const reply = yield* call((app) => app.request("GET", "/me", { token }))
      expectError(reply, 429, "rate_limit_exceeded")
      const retryAfter = Number(reply.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)
      // another user is unaffected
      expect((yield* call(async (app) => app.request("GET", "/me", { token: await app.token("unlimited") }))).status).toBe(200)
      const rows = yield* Effect.flatMap(TestApp, (app) => app.sql`SELECT hits FROM rate_limit_counters WHERE bucket LIKE 'user:%' ORDER BY hits DESC LIMIT 1`)
      expect((rows[0] as any).hits).toBe(5)
    }))

  it.effect("the per-key limit is separate from the user's", () =>
    Effect.gen(function*() {
      yield* inOneMinuteWindow()
      const raw = yield* call((app) => app.apiKey("key-limited", ["files:read"]))
      const statuses: Array<number> = []
      for (let i = 0; i < 3; i++) statuses.push((yield* call((app) => app.request("GET", "/me", { token: raw }))).status)
      expect(statuses).toEqual([200, 200, 429])
      expect((yield* call((app) => app.request("GET", "/me", { token: raw }))).body.error.details[0].scope).toBe("API key")
    }))
})

layer(makeTestApp())("defects", (it) => {
  it.effect("a defect is 500 internal_error that leaks nothing", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const token = yield* Effect.promise(() => app.token("doomed"))
      yield* app.sql`ALTER TABLE identities RENAME TO identities_gone`
      const reply = yield* Effect.promise(() => app.request("GET", "/me", { token }))
      yield* app.sql`ALTER TABLE identities_gone RENAME TO identities`
      expectError(reply, 500, "internal_error")
      expect(reply.text).not.toContain("identities")
      expect(reply.text).not.toMatch(/SqlError|relation|stack|at /)
    }))
})

layer(makeTestApp())("database outage", (it) => {
  it.effect("health and authenticated routes answer 503 service_unavailable while the database refuses connections", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const token = yield* Effect.promise(() => app.token("outage"))
      expect((yield* Effect.promise(() => app.request("GET", "/me", { token }))).status).toBe(200)
      const name = new URL(app.databaseUrl).pathname.slice(1)
      const admin = new pg.Client({ connectionString: inject("pgAdminUrl") })
      yield* Effect.promise(() => admin.connect())
      try {
        yield* Effect.promise(() => admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`))
        yield* Effect.promise(() => admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]))
        const health = yield* Effect.promise(() => app.request("GET", "/health"))
        expectError(health, 503, "service_unavailable")
        const me = yield* Effect.promise(() => app.request("GET", "/me", { token }))
        expectError(me, 503, "service_unavailable")
      } finally {
        yield* Effect.promise(() => admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`))
        yield* Effect.promise(() => admin.end())
      }
      let status = 0
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = (yield* Effect.promise(() => app.request("GET", "/me", { token }))).status
        if (status !== 200) yield* sleep(100)
      }
      expect(status).toBe(200)
    }))
})

describe("access rules", () => {
  vit("every endpoint declares its access rule beside its definition", () => {
    const missing = routes.filter((r) => r.access === undefined).map((r) => `${r.method} ${r.path}`)
    expect(missing).toEqual([])
  })

  vit("any-of and all-of scope rules", () => {
    const anyOf = access.scopes({ anyOf: ["artifact_bundles:read", "artifacts:pull"] })
    expect(keySatisfies(anyOf, new Set(["artifacts:pull"]))).toBe(true)
    expect(keySatisfies(anyOf, new Set(["files:read"]))).toBe(false)
    const allOf = access.scopes({ allOf: ["artifact_bundles:write", "files:write"] })
    expect(keySatisfies(allOf, new Set(["artifact_bundles:write"]))).toBe(false)
    expect(keySatisfies(allOf, new Set(["artifact_bundles:write", "files:write"]))).toBe(true)
    expect(keySatisfies(access.loginOnly, new Set(["files:read"]))).toBe(false)
    expect(keySatisfies(access.scopes({}), new Set(["files:read"]))).toBe(true)
  })
})
