/**
 * Issue 15, item 4: the authorization matrix, generated from the OpenAPI document, so a route added
 * later is covered without a line written for it. For every operation:
 *   - no token, or a malformed one: 401 (public operations: never);
 *   - API keys: each of the 13 scopes alone, every scope, and each rule's `allOf` set: 403 exactly when
 *     the operation's `x-required-scopes` (read from the document) denies the key, never otherwise;
 *     login tokens are never refused;
 *   - another user's ids, every kind filled with a real resource of user A: 404 on reads, never a 2xx
 *     on writes, and A's resources unchanged afterwards;
 *   - the document's `x-required-scopes` agree with the endpoint tables of the API specification.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { type AccessRule, allScopes, keySatisfies } from "../src/auth/Scopes.js"
import { openApiDocument } from "../src/system/Http.js"
import { makeTestApp, type Reply, TestApp } from "./support/TestApp.js"
import { bundleWith, call, DEPLOY_SKILL, waitForJob } from "./support/fixtures.js"

interface Operation {
  readonly method: string
  readonly path: string
  readonly rule: AccessRule
  readonly hasBody: boolean
}

const doc = openApiDocument() as any
const OPERATIONS: ReadonlyArray<Operation> = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
  Object.entries<any>(item)
    .filter(([, op]) => typeof op === "object" && op !== null && typeof op.operationId === "string")
    .map(([method, op]) => ({ method: method.toUpperCase(), path, rule: op["x-required-scopes"] as AccessRule, hasBody: op.requestBody !== undefined }))
)
const GUARDED = OPERATIONS.filter((op) => op.rule.kind !== "public")
const PARAM = /\{(\w+)\}/g
const paramsOf = (path: string) => [...path.matchAll(PARAM)].map((m) => m[1]!)

/** The path with its parameters filled, and the API prefix off (the test app's base has it). */
const urlOf = (op: Operation, ids: Readonly<Record<string, string>>) =>
  op.path.replace(/^\/api\/v1/, "").replace(PARAM, (_, name: string) => encodeURIComponent(ids[name] ?? "00000000-0000-4000-8000-000000000000"))

/** Ids that exist nowhere: a request passing the access check then ends in a 404, changing nothing. */
const NOWHERE: Record<string, string> = {
  versionNumber: "1",
  token: "not-a-token",
  slug: "readme"
}

const send = (op: Operation, ids: Readonly<Record<string, string>>, token: string | undefined, headers: Record<string, string> = {}) =>
  call((app) =>
    app.request(op.method, urlOf(op, ids), {
      ...(token !== undefined ? { token } : {}),
      headers,
      ...(op.hasBody ? { body: {} } : {})
    }))

const label = (op: Operation) => `${op.method} ${op.path}`

layer(makeTestApp({
  role: "all",
  env: {
    SERVICE_RATE_LIMIT_USER_PER_MINUTE: "100000",
    SERVICE_RATE_LIMIT_KEY_PER_MINUTE: "100000",
    SERVICE_RATE_LIMIT_BUNDLE_PER_MINUTE: "100000",
    SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "100000"
  }
}))("the authorization matrix", (it) => {
  it("covers every operation of the document, each with its access rule", () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(50)
    for (const op of OPERATIONS) expect([label(op), ["public", "loginOnly", "scoped"].includes(op.rule?.kind)]).toEqual([label(op), true])
  })

  it.effect("no token, or a malformed one, is a 401 on every guarded operation", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const revoked = yield* call(async (a) => {
        const key = await a.apiKey("matrix-revoked", [...allScopes])
        const token = await a.token("matrix-revoked")
        const keys = await a.request("GET", "/api-keys", { token })
        await a.request("DELETE", `/api-keys/${keys.body.data.apiKeys[0].id}`, { token })
        return key
      })
      const forged = (yield* call((a) => a.token("matrix-forged"))).replace(/\.[^.]+$/, ".c2lnbmF0dXJl")
      const malformed: ReadonlyArray<[string, Record<string, string>]> = [
        ["no header", {}],
        ["empty bearer", { authorization: "Bearer " }],
        ["not bearer", { authorization: "Basic dXNlcjpwYXNz" }],
        ["garbage", { authorization: "Bearer not-a-token" }],
        ["an unknown key", { authorization: "Bearer rubr_0000000000000000000000000000000000000000" }],
        ["a revoked key", { authorization: `Bearer ${revoked}` }],
        ["a forged signature", { authorization: `Bearer ${forged}` }]
      ]
      let requests = 0
      for (const op of GUARDED) {
        for (const [what, headers] of malformed) {
          const reply = yield* send(op, NOWHERE, undefined, headers)
          requests++
          expect([label(op), what, reply.status, reply.body?.error?.code]).toEqual([label(op), what, 401, "unauthorized"])
        }
      }
      // public operations never ask for one
      for (const op of OPERATIONS.filter((o) => o.rule.kind === "public")) {
        const reply = yield* send(op, NOWHERE, undefined)
        requests++
        expect([label(op), reply.status === 401 || reply.status === 403]).toEqual([label(op), false])
      }
      console.log(`authz matrix, credentials: ${GUARDED.length} guarded operations × ${malformed.length} bad credentials, ${requests} requests`)
      expect(app.baseUrl).toBeTruthy()
    }))

  it.effect("API keys get exactly what each operation's x-required-scopes allows, and 403 otherwise", () =>
    Effect.gen(function*() {
      const sub = "matrix-keys"
      const login = yield* call((a) => a.token(sub))
      const sets: Array<ReadonlyArray<string>> = [...allScopes.map((s) => [s]), [...allScopes]]
      for (const op of GUARDED) if (op.rule.kind === "scoped" && op.rule.allOf.length > 1) sets.push(op.rule.allOf)
      const keys = yield* Effect.forEach(sets, (scopes, i) =>
        Effect.map(call((a) => a.apiKey(sub, scopes, `matrix ${i}`)), (key) => ({ scopes, key })))
      let requests = 0
      let denied = 0
      for (const op of GUARDED) {
        for (const { scopes, key } of keys) {
          const allowed = keySatisfies(op.rule, new Set(scopes))
          const reply = yield* send(op, NOWHERE, key)
          requests++
          if (allowed) expect([label(op), scopes, reply.status === 401 || reply.status === 403]).toEqual([label(op), scopes, false])
          else {
            denied++
            expect([label(op), scopes, reply.status, reply.body?.error?.code]).toEqual([label(op), scopes, 403, "forbidden"])
          }
        }
        // a login token passes every access rule
        const reply = yield* send(op, NOWHERE, login)
        requests++
        expect([label(op), "login", reply.status === 401 || reply.status === 403]).toEqual([label(op), "login", false])
      }
      console.log(`authz matrix, scopes: ${GUARDED.length} operations × ${keys.length} scope sets (13 single scopes, all, ${keys.length - 14} allOf sets) + a login token: ${requests} requests, ${denied} denials`)
    }))

  it.effect("another user's ids: every read is a 404, no write succeeds, and nothing of theirs changes", () =>
    Effect.gen(function*() {
      // user A: one resource of every kind an id names
      const alice = yield* call((a) => a.token("matrix-alice"))
      const aliceKey = yield* call((a) => a.apiKey("matrix-alice", ["files:read"], "alice's key"))
      expect(aliceKey).toBeTruthy()
      const { bundleId, files } = yield* bundleWith(alice, [{ path: "SKILL.md", content: DEPLOY_SKILL }], "deploy-preview")
      const fileId = files[0].file.id as string
      yield* call((a) => a.request("PUT", `/artifact-bundles/${bundleId}/files/${fileId}`, {
        token: alice,
        body: { content: DEPLOY_SKILL.replace("2. Install dependencies", "2. Install the locked dependencies") }
      }))
      const start = <const P extends string>(path: P, body: unknown) =>
        call((a) => a.request("POST", `/artifact-bundles/${bundleId}${path}`, { token: alice, body }))
      const completed = <D extends { readonly jobId: string }>(path: string, started: Reply<{ readonly data: D }>) =>
        Effect.gen(function*() {
          expect([path, started.status]).toEqual([path, 202])
          expect((yield* waitForJob(alice, started.body.data.jobId)).state).toBe("completed")
          return started.body.data
        })
      const audit = yield* completed("/audits", yield* start("/audits", {}))
      const conversion = yield* completed("/rubr-flow/conversions", yield* start("/rubr-flow/conversions", {}))
      const evalRun = yield* completed("/evals", yield* start("/evals", { maxCases: 2 }))
      const proof = yield* completed("/proof-reports", yield* start("/proof-reports", { evalRunId: evalRun.evalRun.id }))
      const keyList = yield* call((a) => a.request("GET", "/api-keys", { token: alice }))
      const ids: Record<string, string> = {
        artifactBundleId: bundleId,
        fileId,
        versionNumber: "1",
        keyId: keyList.body.data.apiKeys[0].id,
        jobId: audit.jobId,
        auditRunId: audit.auditRun.id,
        conversionId: conversion.conversion.id,
        evalRunId: evalRun.evalRun.id,
        proofReportId: proof.proofReport.id,
        token: "not-a-token",
        slug: "readme"
      }
      const before = yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/files/${fileId}`, { token: alice }))

      // user B, with a login token and with a key holding every scope, tries each of them
      const bob = yield* call((a) => a.token("matrix-bob"))
      const bobKey = yield* call((a) => a.apiKey("matrix-bob", [...allScopes], "bob's key"))
      const withIds = GUARDED.filter((op) => paramsOf(op.path).some((p) => p !== "token" && p !== "slug"))
      let requests = 0
      for (const op of withIds) {
        for (const [who, token] of [["login", bob], ["key", bobKey]] as const) {
          const reply = yield* send(op, ids, token)
          requests++
          if (op.method === "GET") expect([label(op), who, reply.status, reply.body?.error?.code]).toEqual([label(op), who, 404, "not_found"])
          else expect([label(op), who, reply.status >= 200 && reply.status < 300, reply.status >= 500]).toEqual([label(op), who, false, false])
        }
      }
      console.log(`authz matrix, other users' ids: ${withIds.length} operations × 2 credentials, ${requests} requests`)

      // A's resources are as they were
      const after = yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/files/${fileId}`, { token: alice }))
      expect(after.body.data).toEqual(before.body.data)
      const bundle = yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}`, { token: alice }))
      expect(bundle.body.data.artifactBundle.status).toBe("active")
      const aliceKeys = yield* call((a) => a.request("GET", "/api-keys", { token: alice }))
      expect(aliceKeys.body.data.apiKeys.map((k) => k.revokedAt ?? null)).toEqual([null])
      const job = yield* call((a) => a.request("GET", `/jobs/${audit.jobId}`, { token: alice }))
      expect(job.body.data.job.state).toBe("completed")
      const applied = yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/audits/${audit.auditRun.id}`, { token: alice }))
      expect(applied.body.data.auditRun.appliedAt).toBeNull()
    }), 120_000)
})

/** The specification's endpoint tables, when the specification is beside the repository. */
// beside the repository, or under /work/shared when the repository is cloned elsewhere (CI)
const SPEC = [Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "../../shared/spec/api-spec.md"), "/work/shared/spec/api-spec.md"]
  .find((p) => Fs.existsSync(p)) ?? "../shared/spec/api-spec.md"

type SpecRule = { readonly kind: string; readonly anyOf?: ReadonlyArray<string>; readonly allOf?: ReadonlyArray<string> }

/** Where service-contract.md widens a table's rule: "Scopes: the spec's; reads also accept exports:read." */
const WIDENED: Record<string, ReadonlyArray<string>> = {
  "GET /artifact-bundles/{artifactBundleId}/proof-reports/{proofReportId}": ["exports:read"]
}

layer(makeTestApp())("x-required-scopes against the specification", (it) => {
  it.skipIf(!Fs.existsSync(SPEC))("every endpoint the spec's tables list has the access rule they give", () => {
    const rows = Fs.readFileSync(SPEC, "utf8").split("\n").filter((l) => /^\| (GET|POST|PUT|PATCH|DELETE) \| \//.test(l))
    let compared = 0
    for (const row of rows) {
      const [method, path, access] = row.split("|").slice(1, 4).map((c) => c.trim())
      const op = OPERATIONS.find((o) => o.method === method && o.path === `/api/v1${path}`)
      expect(op, `${method} ${path} is in the document`).toBeDefined()
      if (op!.rule.kind === "public") continue // newsletter and unsubscribe routes: public by the contract's Limits
      const widened = WIDENED[`${method} ${path}`] ?? []
      const scopes = /K: ([\w:, ]+(?: (?:or|and) [\w:]+)*)/.exec(access!)?.[1]
      const expected: SpecRule = access === "L only"
        ? { kind: "loginOnly" }
        : scopes === undefined
        ? { kind: "scoped", anyOf: [], allOf: [] }
        : scopes.includes(" and ")
        ? { kind: "scoped", anyOf: [], allOf: scopes.split(" and ").map((x) => x.trim()) }
        : { kind: "scoped", anyOf: [...scopes.split(" or ").map((x) => x.trim()), ...widened], allOf: [] }
      const sort = (r: SpecRule) => (r.kind === "scoped" ? { ...r, anyOf: [...r.anyOf!].sort(), allOf: [...r.allOf!].sort() } : r)
      expect([method, path, sort(op!.rule)]).toEqual([method, path, sort(expected)])
      compared++
    }
    expect(compared).toBeGreaterThanOrEqual(35)
  })
})
