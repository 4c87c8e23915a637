/**
 * Issue 15, items 1 and 2: bodies nested deeper than 64 levels are a 400 before any decoding, on every
 * route (declared or streamed); every public route counts against the per-IP limit but /health, read
 * off the API definition so a route added later is counted too.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { routes } from "../src/Routes.js"
import { openApiDocument } from "../src/system/Http.js"
import { exceedsJsonDepth, MAX_JSON_DEPTH } from "../src/http/JsonDepth.js"
import { inOneMinuteWindow, makeTestApp } from "./support/TestApp.js"
import { call } from "./support/fixtures.js"
import type { BodyOf, ErrorBody } from "./support/Api.js"

const nestedArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth)
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)

const expectDepthError = (reply: { readonly status: number; readonly body: ErrorBody }) => {
  expect(reply.status).toBe(400)
  expect(reply.body.error.code).toBe("validation_failed")
  expect(reply.body.error.message).toBe("The request body nests deeper than 64 levels.")
  expect(reply.body.error.details).toEqual([{ path: "", message: "nested deeper than 64 levels" }])
}

layer(makeTestApp({ env: { SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "1000" } }))("JSON depth", (it) => {
  it("the scan counts arrays and objects, skips strings and escapes, and stops past the limit", () => {
    expect(exceedsJsonDepth(nestedArray(MAX_JSON_DEPTH))).toBe(false)
    expect(exceedsJsonDepth(nestedArray(MAX_JSON_DEPTH + 1))).toBe(true)
    expect(exceedsJsonDepth(nestedObject(65))).toBe(true)
    expect(exceedsJsonDepth(JSON.stringify({ s: "[".repeat(500) + '\\"{{{' }))).toBe(false)
    expect(exceedsJsonDepth(`["\\\\", ${nestedArray(64)}]`)).toBe(true)
    expect(exceedsJsonDepth("[[[[")).toBe(false)
  })

  it.effect("a 5,000-deep body is a 400 on every kind of body route, never a 500", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("deep"))
      const created = yield* call((app) => app.request("POST", "/artifact-bundles", { token, body: { name: "deep" } }))
      const bundleId = created.body.data.artifactBundle.id
      const bodies = [
        nestedArray(5000),
        `{"name":"x","settings":${nestedObject(5000)}}`,
        `{"files":[{"path":"a.md","content":"x","extra":${nestedArray(5000)}}]}`
      ]
      const targets: Array<[string, string]> = [
        ["POST", "/artifact-bundles"],
        ["POST", `/artifact-bundles/${bundleId}/files`],
        ["POST", `/artifact-bundles/${bundleId}/audits`],
        ["PATCH", `/artifact-bundles/${bundleId}`],
        ["POST", "/api-keys"],
        ["POST", "/newsletter/subscriptions"],
        ["POST", "/mcp"],
        ["DELETE", `/artifact-bundles/${bundleId}`]
      ]
      for (const [method, path] of targets) {
        for (const rawBody of bodies) {
          const reply = yield* call((app) => app.request(method, path, { token, rawBody, headers: { "content-type": "application/json" } }))
          expect([method, path, reply.status]).toEqual([method, path, 400])
          expectDepthError(reply)
        }
      }
      // 64 levels is within the limit: the route decodes it (and says what is wrong with it)
      const at64 = yield* call((app) => app.request("POST", "/artifact-bundles", { token, rawBody: `{"name":"x","settings":${nestedArray(63)}}` }))
      expect(at64.status).toBe(400)
      expect(at64.body.error.message).not.toContain("nests deeper")
      // nothing was written or removed
      const list = yield* call((app) => app.request("GET", "/artifact-bundles", { token }))
      expect(list.body.data.artifactBundles.map((b) => [b.name, b.status])).toEqual([["deep", "active"]])
    }))

  it.effect("a streamed (chunked) deep body gets the same answer; a streamed good one still decodes (test/envelope: oversized is 413)", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("deep-stream"))
      const send = (text: string) =>
        call(async (app) => {
          const response = await fetch(app.baseUrl + "/artifact-bundles", {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: new ReadableStream({
              start(controller) {
                controller.enqueue(new TextEncoder().encode(text))
                controller.close()
              }
            }),
            duplex: "half"
          } as RequestInit)
          return { status: response.status, body: (await response.json()) as BodyOf<"POST", "/artifact-bundles"> }
        })
      expectDepthError(yield* send(`{"name":"x","settings":${nestedArray(5000)}}`))
      const ok = yield* send(JSON.stringify({ name: "streamed" }))
      expect(ok.status).toBe(201)
      expect(ok.body.data.artifactBundle.name).toBe("streamed")
    }))
})

const PUBLIC = routes.filter((r) => r.access?.kind === "public")

/** A request that reaches each public route (a path parameter filled in, a body where it takes one). */
const sample = (method: string, path: string) => {
  const url = path.replace(/^\/api\/v1/, "").replace(":token", "not-a-token").replace(":slug", "readme")
  const body = method === "POST"
    ? (url === "/mcp" ? { jsonrpc: "2.0", id: 1, method: "ping" } : url.startsWith("/newsletter") ? { email: "ip@example.com" } : undefined)
    : undefined
  return { url, body }
}

layer(makeTestApp({ env: { SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "3" } }))("the per-IP limit on public routes", (it) => {
  it("covers every public route of the API definition (the docs page included)", () => {
    expect(PUBLIC.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining([
      "GET /api/v1/openapi.json",
      "GET /api/v1/docs",
      "GET /api/v1/rubr-flow/schema.json",
      "GET /api/v1/signing-keys",
      "POST /api/v1/mcp",
      "GET /api/v1/guides",
      "POST /api/v1/newsletter/subscriptions",
      "GET /api/v1/health"
    ]))
  })

  it("and the contract says so: every public operation but /health lists 429", () => {
    const doc = openApiDocument() as any
    for (const route of PUBLIC) {
      if (route.path === "/api/v1/docs") continue // the HTML page beside the API, not an operation of it
      const op = doc.paths[route.path.replace(/:(\w+)/g, "{$1}")][route.method.toLowerCase()]
      expect([route.method, route.path, "429" in op.responses]).toEqual([route.method, route.path, route.path !== "/api/v1/health"])
    }
  })

  it.effect("each public route but /health answers 429 on the 4th call in a minute from one address", () =>
    Effect.gen(function*() {
      for (const route of PUBLIC) {
        const { url, body } = sample(route.method, route.path)
        const statuses: Array<number> = []
        yield* inOneMinuteWindow() // the 5 calls of a route in one window
        for (let i = 0; i < 5; i++) {
          const reply = yield* call((app) => app.request(route.method, url, body === undefined ? {} : { body }))
          statuses.push(reply.status)
          if (reply.status === 429) {
            expect(reply.body.error.code).toBe("rate_limit_exceeded")
            expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0)
          }
        }
        if (route.path === "/api/v1/health") expect([route.path, statuses.filter((s) => s === 429)]).toEqual([route.path, []])
        else expect([route.method, route.path, statuses.slice(3)]).toEqual([route.method, route.path, [429, 429]])
      }
    }))

  it.effect("MCP calls with credentials are limited per user and key, not per IP", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("mcp-ip"))
      const statuses: Array<number> = []
      for (let i = 0; i < 6; i++) {
        const reply = yield* call((app) => app.request("POST", "/mcp", { token, body: { jsonrpc: "2.0", id: i, method: "ping" } }))
        statuses.push(reply.status)
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200])
    }))
})
