/**
 * Issue 12: the MCP transport and JSON-RPC layer with raw requests: version negotiation and the
 * MCP-Protocol-Version header, every JSON-RPC error, batches, notifications, malformed JSON, the
 * Origin allow-list, content types and GET.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { postMcp } from "./support/Mcp.js"
import { makeTestApp, TestApp } from "./support/TestApp.js"
import { bundleWith, call } from "./support/fixtures.js"

const initialize = (protocolVersion: string, id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } }
})
const request = (method: string, params?: unknown, id: number | string = 7) => ({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) })
const V2 = { "mcp-protocol-version": "2025-06-18" }

layer(makeTestApp({ env: { SERVICE_MCP_ALLOWED_ORIGINS: "https://app.example.com", SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "10000" } }))("MCP JSON-RPC", (it) => {
  it.effect("initialize negotiates: a supported version is kept, any other is answered with the latest", () =>
    Effect.gen(function*() {
      for (const [asked, answered] of [["2025-06-18", "2025-06-18"], ["2025-03-26", "2025-03-26"], ["2024-11-05", "2025-06-18"], ["2099-01-01", "2025-06-18"]]) {
        const reply = yield* postMcp(initialize(asked!))
        expect([asked, reply.status, reply.body.result.protocolVersion]).toEqual([asked, 200, answered])
        expect(reply.headers.get("content-type")).toContain("application/json")
      }
      const reply = yield* postMcp(initialize("2025-06-18", "init-1"))
      expect(reply.body).toMatchObject({
        jsonrpc: "2.0",
        id: "init-1",
        result: {
          capabilities: { tools: expect.any(Object), resources: expect.any(Object) },
          serverInfo: { name: "rubr", version: expect.any(String) },
          instructions: expect.stringContaining("start_audit")
        }
      })
      // no session: every request stands alone, so no Mcp-Session-Id is issued
      expect(reply.headers.get("mcp-session-id")).toBeNull()
    }))

  it.effect("notifications and client responses are accepted with 202 and no body; ping answers {}", () =>
    Effect.gen(function*() {
      for (const message of [
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "user" } },
        { jsonrpc: "2.0", method: "notifications/whatever" },
        { jsonrpc: "2.0", method: "tools/list" },
        { jsonrpc: "2.0", id: 5, result: {} },
        { jsonrpc: "2.0", id: 6, error: { code: -1, message: "no" } }
      ]) {
        const reply = yield* postMcp(message, V2)
        expect([JSON.stringify(message), reply.status, reply.text]).toEqual([JSON.stringify(message), 202, ""])
      }
      const ping = yield* postMcp(request("ping", undefined, "p"), V2)
      expect([ping.status, ping.body]).toEqual([200, { jsonrpc: "2.0", id: "p", result: {} }])
    }))

  it.effect("-32700: malformed JSON and invalid UTF-8 are parse errors (HTTP 400, id null)", () =>
    Effect.gen(function*() {
      for (const body of ['{"jsonrpc":"2.0",', "{bad}", "", "nul"]) {
        const reply = yield* postMcp(body)
        expect([body, reply.status, reply.body?.error?.code, reply.body?.id]).toEqual([body, 400, -32700, null])
      }
      const app = yield* TestApp
      const invalidUtf8 = yield* Effect.promise(() =>
        fetch(`${app.baseUrl}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
      )
      expect([invalidUtf8.status, invalidUtf8.body.error.code]).toEqual([400, -32700])
    }))

  it.effect("-32600: messages that are not JSON-RPC requests (HTTP 400)", () =>
    Effect.gen(function*() {
      const cases: Array<[string, unknown]> = [
        ["no jsonrpc", { id: 1, method: "ping" }],
        ["jsonrpc 1.0", { jsonrpc: "1.0", id: 1, method: "ping" }],
        ["no method", { jsonrpc: "2.0", id: 1 }],
        ["method not a string", { jsonrpc: "2.0", id: 1, method: 42 }],
        ["id an object", { jsonrpc: "2.0", id: { a: 1 }, method: "ping" }],
        ["id a boolean", { jsonrpc: "2.0", id: true, method: "ping" }],
        ["a number", 5],
        ["a string", JSON.stringify("ping")],
        ["null", null],
        ["an empty batch", []]
      ]
      for (const [name, body] of cases) {
        const reply = yield* postMcp(body)
        expect([name, reply.status, reply.body.error.code]).toEqual([name, 400, -32600])
        expect(reply.body.jsonrpc).toBe("2.0")
      }
      // the id is echoed when it can be read
      const echoed = yield* postMcp({ jsonrpc: "1.0", id: 9, method: "ping" })
      expect(echoed.body.id).toBe(9)
    }))

  it.effect("-32601: unknown methods, and notification methods sent as requests", () =>
    Effect.gen(function*() {
      for (const method of ["tools/delete", "sampling/createMessage", "prompts/list", "notifications/initialized", "__proto__", "constructor"]) {
        const reply = yield* postMcp(request(method, {}, 3), V2)
        expect([method, reply.status, reply.body.error.code, reply.body.id]).toEqual([method, 200, -32601, 3])
        expect(reply.body.error.message).toContain(method)
      }
    }))

  it.effect("-32602: params that do not fit the method, and tool arguments that do not fit the tool", () =>
    Effect.gen(function*() {
      const cases: Array<[string, string, unknown]> = [
        ["initialize without clientInfo", "initialize", { protocolVersion: "2025-06-18", capabilities: {} }],
        ["initialize with params an array", "initialize", [1, 2]],
        ["tools/call without a name", "tools/call", { arguments: {} }],
        ["tools/call with arguments an array", "tools/call", { name: "search_docs", arguments: [1] }],
        ["tools/call of an unknown tool", "tools/call", { name: "drop_tables", arguments: {} }],
        ["search_docs without a query", "tools/call", { name: "search_docs", arguments: {} }],
        ["search_docs with an unknown argument", "tools/call", { name: "search_docs", arguments: { query: "x", everything: true } }],
        ["get_bundle with a bad id", "tools/call", { name: "get_bundle", arguments: { artifactBundleId: "not-a-uuid" } }],
        ["resources/read without a uri", "resources/read", {}],
        ["tools/list with a cursor of the wrong type", "tools/list", { cursor: 5 }]
      ]
      for (const [name, method, params] of cases) {
        const reply = yield* postMcp(request(method, params), V2)
        expect([name, reply.status, reply.body.error?.code]).toEqual([name, 200, -32602])
      }
      // argument problems say where, in the REST envelope's terms
      const bad = yield* postMcp(request("tools/call", { name: "get_bundle", arguments: { artifactBundleId: "nope" } }), V2)
      expect(bad.body.error.message).toContain("artifactBundleId")
      expect(bad.body.error.data.error).toMatchObject({ code: "validation_failed", details: [{ path: "artifactBundleId" }] })
    }))

  it.effect("tool failures are results with isError and the REST envelope, never structuredContent", () =>
    Effect.gen(function*() {
      const reply = yield* postMcp(request("tools/call", { name: "get_bundle", arguments: { artifactBundleId: crypto.randomUUID() } }), V2)
      expect(reply.status).toBe(200)
      expect(reply.body.result.isError).toBe(true)
      expect(reply.body.result.structuredContent).toBeUndefined()
      const envelope = JSON.parse(reply.body.result.content[0].text)
      expect(envelope).toEqual({ error: { code: "unauthorized", message: expect.any(String), requestId: reply.headers.get("x-request-id"), details: [] } })
      expect(reply.body.result.content[1].text).toMatch(/^unauthorized: /)
      const token = yield* call((app) => app.token("raw-user"))
      const missing = yield* postMcp(request("tools/call", { name: "get_bundle", arguments: { artifactBundleId: crypto.randomUUID() } }), {
        ...V2,
        authorization: `Bearer ${token}`
      })
      expect(JSON.parse(missing.body.result.content[0].text).error.code).toBe("not_found")
      const badToken = yield* postMcp(request("tools/call", { name: "list_bundles", arguments: {} }), { ...V2, authorization: "Bearer rubr_nonsense" })
      expect(JSON.parse(badToken.body.result.content[0].text).error.code).toBe("unauthorized")
    }))

  it.effect("successful results: structuredContent on 2025-06-18 equals the first text item; 2025-03-26 has the text only", () =>
    Effect.gen(function*() {
      const call = request("tools/call", { name: "read_doc", arguments: { slug: "readme" } })
      const latest = yield* postMcp(call, V2)
      expect(latest.body.result.isError).toBe(false)
      expect(JSON.parse(latest.body.result.content[0].text)).toEqual(latest.body.result.structuredContent)
      const older = yield* postMcp(call, { "mcp-protocol-version": "2025-03-26" })
      expect(older.body.result.structuredContent).toBeUndefined()
      expect(JSON.parse(older.body.result.content[0].text)).toEqual(latest.body.result.structuredContent)
      const noHeader = yield* postMcp(call)
      expect(noHeader.body.result.structuredContent).toBeUndefined()
      const tools = yield* postMcp(request("tools/list"), { "mcp-protocol-version": "2025-03-26" })
      expect(tools.body.result.tools.every((t: any) => t.outputSchema === undefined)).toBe(true)
    }))

  it.effect("read_file's result is serialized once and placed twice: the text item, structuredContent and the REST answer agree whatever the file holds", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("mcp-raw-json"))
      // quotes, backslashes, U+2028, and text shaped like the placeholder the raw JSON is spliced in by
      // (a file holds no NUL, so only its escaped spelling can appear)
      const content = 'say "hi" \\ \u2028 "\\u0000x:0\\u0000" \\u0000\n'
      const { bundleId, files } = yield* bundleWith(token, [{ path: "SKILL.md", content }])
      const fileId = files[0]!.file.id
      const reply = yield* postMcp(request("tools/call", { name: "read_file", arguments: { artifactBundleId: bundleId, fileId } }), {
        ...V2,
        authorization: `Bearer ${token}`
      })
      expect(reply.body.result.isError).toBe(false)
      expect(reply.body.result.structuredContent.content).toBe(content)
      expect(JSON.parse(reply.body.result.content[0].text)).toEqual(reply.body.result.structuredContent)
      const rest = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files/${fileId}`, { token }))
      expect(reply.body.result.structuredContent).toEqual(JSON.parse(JSON.stringify(rest.body.data)))
    }))

  it.effect("batches: answered in order (2025-03-26), notifications left out, all-notification batches 202; 2025-06-18 refuses them", () =>
    Effect.gen(function*() {
      const batch = [
        request("ping", undefined, 1),
        { jsonrpc: "2.0", method: "notifications/initialized" },
        request("no/such", {}, 2),
        { foo: "bar" },
        request("tools/call", { name: "read_doc", arguments: { slug: "readme" } }, 3)
      ]
      const reply = yield* postMcp(batch)
      expect(reply.status).toBe(200)
      expect(reply.body.map((r: any) => [r.id, r.error?.code ?? "ok"])).toEqual([[1, "ok"], [2, -32601], [null, -32600], [3, "ok"]])
      const sameUnder0326 = yield* postMcp(batch, { "mcp-protocol-version": "2025-03-26" })
      expect(sameUnder0326.body).toHaveLength(4)
      const onlyNotifications = yield* postMcp([{ jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 1, result: {} }])
      expect([onlyNotifications.status, onlyNotifications.text]).toEqual([202, ""])
      const refused = yield* postMcp([request("ping")], V2)
      expect([refused.status, refused.body.error.code]).toEqual([400, -32600])
      expect(refused.body.error.message).toContain("2025-06-18")
    }))

  it.effect("the MCP-Protocol-Version header: supported versions pass, others are 400", () =>
    Effect.gen(function*() {
      for (const version of ["2025-06-18", "2025-03-26"]) {
        expect((yield* postMcp(request("ping"), { "mcp-protocol-version": version })).status).toBe(200)
      }
      for (const version of ["2099-01-01", "2024-11-05", "latest", ""]) {
        const reply = yield* postMcp(request("ping"), { "mcp-protocol-version": version })
        expect([version, reply.status, reply.body.error.code]).toEqual([version, 400, -32600])
        expect(reply.body.error.message).toContain("2025-06-18")
      }
    }))

  it.effect("the Origin allow-list: loopback and configured origins pass, others are 403 (DNS rebinding)", () =>
    Effect.gen(function*() {
      for (const origin of ["http://localhost:5173", "http://127.0.0.1:3000", "https://app.example.com"]) {
        expect([origin, (yield* postMcp(request("ping"), { origin })).status]).toEqual([origin, 200])
      }
      for (const origin of ["https://evil.example", "http://localhost.evil.example", "https://app.example.com.evil.example", "null"]) {
        const reply = yield* postMcp(request("ping"), { origin })
        expect([origin, reply.status, reply.body.error.code]).toEqual([origin, 403, -32600])
      }
      // no Origin (a CLI or a desktop client): allowed
      expect((yield* postMcp(request("ping"))).status).toBe(200)
    }))

  it.effect("transport rules: GET is 405 (no SSE stream), a body must be JSON (415), the body size limit holds (413)", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const get = yield* Effect.promise(() => fetch(`${app.baseUrl}/mcp`, { headers: { accept: "text/event-stream" } }))
      expect(get.status).toBe(405)
      expect(get.headers.get("allow")).toBe("POST")
      for (const method of ["DELETE", "PUT"]) {
        expect((yield* Effect.promise(() => fetch(`${app.baseUrl}/mcp`, { method }))).status).toBe(405)
      }
      const text = yield* Effect.promise(() =>
        fetch(`${app.baseUrl}/mcp`, { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify(request("ping")) })
      )
      expect(text.status).toBe(415)
      const withCharset = yield* postMcp(request("ping"), { "content-type": "application/json; charset=utf-8" })
      expect(withCharset.status).toBe(200)
      const huge = yield* postMcp(request("tools/call", { name: "search_docs", arguments: { query: "x".repeat(11 * 1024 * 1024) } }))
      expect([huge.status, huge.body.error.code]).toEqual([413, "payload_too_large"])
    }))

  it.effect("resources: list, read, templates; an unknown URI is -32002", () =>
    Effect.gen(function*() {
      const list = yield* postMcp(request("resources/list"), V2)
      const uris = list.body.result.resources.map((r: any) => r.uri)
      expect(uris).toContain("rubr://docs/readme")
      expect(uris).toContain("rubr://openapi.json")
      for (const r of list.body.result.resources) expect(r).toMatchObject({ name: expect.any(String), mimeType: expect.any(String) })
      const templates = yield* postMcp(request("resources/templates/list"), V2)
      expect(templates.body.result).toEqual({ resourceTemplates: [] })
      const read = yield* postMcp(request("resources/read", { uri: "rubr://docs/mcp" }), V2)
      expect(read.body.result.contents[0].text).toContain("search_docs")
      for (const uri of ["rubr://docs/../package.json", "file:///etc/passwd", "rubr://docs/"]) {
        const reply = yield* postMcp(request("resources/read", { uri }), V2)
        expect([uri, reply.body.error.code]).toEqual([uri, -32002])
      }
    }))
})
