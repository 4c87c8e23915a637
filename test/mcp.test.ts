/**
 * Issue 12: the MCP endpoint through the official SDK client (`Client` + `StreamableHTTPClientTransport`)
 * against the real server: both protocol versions, the tool list, every tool succeeding and failing
 * (unauthorized, a missing scope, another user's id), a whole flow, and the same limits as REST.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import { allScopes } from "../src/auth/Scopes.js"
import { mcpClient, postMcp } from "./support/Mcp.js"
import { inOneMinuteWindow, makeTestApp, TestApp } from "./support/TestApp.js"
import { bundleWith, call, DEPLOY_SKILL } from "./support/fixtures.js"

const TOOLS = [
  "search_docs", "read_doc", "read_openapi",
  "list_bundles", "create_bundle", "get_bundle", "upload_files", "list_files", "read_file", "update_file",
  "list_bundle_versions", "restore_bundle_version", "list_file_versions", "restore_file_version",
  "start_audit", "convert_to_rubr_flow", "start_eval", "export_proof_report", "get_job"
]
const PUBLIC_TOOLS = ["search_docs", "read_doc", "read_openapi"]

/** Polls get_job until the job has ended. */
const untilEnded = (mcp: { call: (name: string, args?: Record<string, unknown>) => Promise<any> }, jobId: string) =>
  Effect.promise(async () => {
    for (let i = 0; i < 400; i++) {
      const reply = await mcp.call("get_job", { jobId })
      if (reply.isError) throw new Error(`get_job failed: ${reply.text[0]}`)
      if (["completed", "failed", "cancelled"].includes(reply.json.job.state)) return reply
      await new Promise((r) => setTimeout(r, 50))
    }
    throw new Error(`job ${jobId} never ended`)
  })

// anonymous sessions count against the per-IP limit (one per HTTP request); this file makes many
layer(makeTestApp({ role: "all", env: { SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "10000" } }))("MCP through the official SDK client", (it) => {
  it.scoped("both protocol versions initialize and list the 19 tools; 2025-06-18 adds output schemas", () =>
    Effect.gen(function*() {
      const latest = yield* mcpClient()
      expect(latest.version).toBe("2025-06-18")
      expect(latest.client.getServerVersion()).toMatchObject({ name: "rubr", version: expect.any(String) })
      expect(latest.client.getInstructions()).toContain("get_job")
      const tools = (yield* Effect.promise(() => latest.client.listTools())).tools
      expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort())
      for (const t of tools) {
        expect(t.description!.length, t.name).toBeGreaterThan(60)
        expect(t.inputSchema.type, t.name).toBe("object")
        expect(t.outputSchema?.type, t.name).toBe("object")
        expect(t.annotations, t.name).toMatchObject({
          title: expect.any(String),
          readOnlyHint: expect.any(Boolean),
          destructiveHint: false,
          idempotentHint: expect.any(Boolean)
        })
        // a model is told which scope a product tool needs
        if (!PUBLIC_TOOLS.includes(t.name)) expect(t.description, t.name).toMatch(/Scopes?: /)
        else expect(t.description, t.name).toContain("Public")
      }
      const byName = new Map(tools.map((t) => [t.name, t]))
      expect(byName.get("read_file")!.annotations!.readOnlyHint).toBe(true)
      expect(byName.get("start_audit")!.annotations!.readOnlyHint).toBe(false)

      const older = yield* mcpClient({ version: "2025-03-26" })
      expect(older.version).toBe("2025-03-26")
      const olderTools = (yield* Effect.promise(() => older.client.listTools())).tools
      expect(olderTools.map((t) => t.name)).toEqual(tools.map((t) => t.name))
      for (const t of olderTools) expect(t.outputSchema, t.name).toBeUndefined()
    }))

  it.scoped("docs/mcp.md lists every tool with the access its description states and an example call", () =>
    Effect.gen(function*() {
      const mcp = yield* mcpClient()
      const tools = (yield* Effect.promise(() => mcp.client.listTools())).tools
      const doc = Fs.readFileSync(new URL("../docs/mcp.md", import.meta.url), "utf8")
      for (const t of tools) {
        const section = doc.split(`### \`${t.name}\``)[1]?.split("\n### ")[0]
        expect(section, t.name).toBeDefined()
        const accessSentence = /(Public: .*|Scopes?: .*)$/.exec(t.description!)![1]!
        expect(section, t.name).toContain(`- Access: ${accessSentence}`)
        // each example is valid input for the tool's schema
        const examples = [...section!.matchAll(/`(\{.*?\})`/g)].map((m) => m[1]!)
        expect(examples.length, t.name).toBeGreaterThan(0)
        for (const example of examples) {
          const args = JSON.parse(example.replace(/"([0-9a-f]{4})…"/g, (_, p) => `"${p}0000-0000-4000-8000-000000000000"`))
          expect(Object.keys(args).every((k) => k in (t.inputSchema.properties ?? {})), `${t.name} ${example}`).toBe(true)
          for (const required of t.inputSchema.required ?? []) expect(args, `${t.name} ${example}`).toHaveProperty(required)
        }
      }
    }))

  it.scoped("input schemas are the REST payloads' schemas: create_bundle takes what POST /artifact-bundles takes", () =>
    Effect.gen(function*() {
      const mcp = yield* mcpClient()
      const tools = (yield* Effect.promise(() => mcp.client.listTools())).tools
      const openApi = (yield* Effect.promise(() => mcp.call("read_openapi"))).json
      const body = openApi.paths["/api/v1/artifact-bundles"].post.requestBody.content["application/json"].schema
      const resolved = body.$ref ? openApi.components.schemas[body.$ref.split("/").pop()] : body
      const create = tools.find((t) => t.name === "create_bundle")!
      expect(Object.keys(create.inputSchema.properties ?? {}).sort()).toEqual(Object.keys(resolved.properties).sort())
      expect(create.inputSchema.required).toEqual(resolved.required)
      const upload = tools.find((t) => t.name === "upload_files")!
      expect(upload.inputSchema.required).toEqual(["artifactBundleId", "files"])
    }))

  it.scoped("documentation tools and resources are public: search, read by slug or path, the OpenAPI document", () =>
    Effect.gen(function*() {
      for (const version of ["2025-06-18", "2025-03-26"] as const) {
        const mcp = yield* mcpClient({ version })
        const search = yield* Effect.promise(() => mcp.call("search_docs", { query: "proof report signature" }))
        expect(search.isError).toBe(false)
        expect(search.json.results.length).toBeGreaterThan(0)
        expect(search.json.results[0]).toMatchObject({ slug: expect.any(String), title: expect.any(String), snippet: expect.any(String) })
        expect(search.json.results.map((r: any) => r.slug)).toContain("evals")
        // scores are ranked, best first
        const scores = search.json.results.map((r: any) => r.score)
        expect([...scores].sort((a, b) => b - a)).toEqual(scores)
        if (version === "2025-06-18") expect(search.structured).toEqual(search.json)
        else expect(search.structured).toBeUndefined()
        expect(search.text[1]).toContain(search.json.results[0].title)

        const bySlug = yield* Effect.promise(() => mcp.call("read_doc", { slug: "evals" }))
        expect(bySlug.json).toMatchObject({ slug: "evals", path: "docs/evals.md" })
        expect(bySlug.json.content).toContain("# ")
        const byPath = yield* Effect.promise(() => mcp.call("read_doc", { path: "README.md" }))
        expect(byPath.json.slug).toBe("readme")

        const openApi = yield* Effect.promise(() => mcp.call("read_openapi"))
        expect(openApi.json.openapi).toBe("3.1.0")
        expect(Object.keys(openApi.json.paths)).toContain("/api/v1/mcp")
      }
      const mcp = yield* mcpClient()
      // refusals: paths outside docs/, unknown slugs, neither or both
      for (const path of ["package.json", "../shared/spec/api-spec.md", "docs/../package.json", "/etc/passwd", "src/main.ts"]) {
        const reply = yield* Effect.promise(() => mcp.call("read_doc", { path }))
        expect([path, reply.isError, reply.json.error?.code]).toEqual([path, true, "validation_failed"])
      }
      const unknown = yield* Effect.promise(() => mcp.call("read_doc", { slug: "nope" }))
      expect([unknown.isError, unknown.json.error.code]).toEqual([true, "not_found"])
      const neither = yield* Effect.promise(() => mcp.call("read_doc", {}))
      expect([neither.isError, neither.json.error.code]).toEqual([true, "validation_failed"])
      // schema-invalid arguments are JSON-RPC invalid params
      const empty = yield* Effect.promise(() => mcp.client.callTool({ name: "search_docs", arguments: { query: "" } }).then(() => null, (e) => e))
      expect(empty?.code).toBe(-32602)
      const extra = yield* Effect.promise(() => mcp.client.callTool({ name: "read_openapi", arguments: { x: 1 } }).then(() => null, (e) => e))
      expect(extra?.code).toBe(-32602)
      const missing = yield* Effect.promise(() => mcp.client.callTool({ name: "no_such_tool", arguments: {} }).then(() => null, (e) => e))
      expect(missing?.code).toBe(-32602)

      const resources = (yield* Effect.promise(() => mcp.client.listResources())).resources
      expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(["rubr://docs/readme", "rubr://docs/evals", "rubr://openapi.json"]))
      const readme = yield* Effect.promise(() => mcp.client.readResource({ uri: "rubr://docs/readme" }))
      expect(readme.contents[0]).toMatchObject({ uri: "rubr://docs/readme", mimeType: "text/markdown" })
      expect((readme.contents[0] as any).text).toContain("rubr")
      const openApiResource = yield* Effect.promise(() => mcp.client.readResource({ uri: "rubr://openapi.json" }))
      expect(JSON.parse((openApiResource.contents[0] as any).text).openapi).toBe("3.1.0")
      const absent = yield* Effect.promise(() => mcp.client.readResource({ uri: "rubr://docs/nope" }).then(() => null, (e) => e))
      expect(absent?.code).toBe(-32002)
    }))

  it.scoped("a whole flow: create_bundle → upload_files → start_audit → get_job until it ends → the findings", () =>
    Effect.gen(function*() {
      const key = yield* call((app) => app.apiKey("flow-user", ["artifact_bundles:read", "artifact_bundles:write", "files:write", "audits:run", "jobs:read"]))
      const mcp = yield* mcpClient({ token: key })
      const created = yield* Effect.promise(() => mcp.call("create_bundle", { name: "deploy-preview" }))
      expect(created.isError).toBe(false)
      const bundleId = created.json.artifactBundle.id
      expect(created.structured).toEqual(created.json)
      const uploaded = yield* Effect.promise(() =>
        mcp.call("upload_files", { artifactBundleId: bundleId, files: [{ path: "SKILL.md", content: DEPLOY_SKILL }, { path: "reference/notes.md", content: "# Notes\n" }] })
      )
      expect(uploaded.isError).toBe(false)
      expect(uploaded.json.files.map((f: any) => [f.file.path, f.version.versionNumber])).toEqual([["SKILL.md", 1], ["reference/notes.md", 1]])
      expect(uploaded.json.files[0].file.isPrimary).toBe(true)
      expect(uploaded.text[1]).toContain("SKILL.md")

      const started = yield* Effect.promise(() => mcp.call("start_audit", { artifactBundleId: bundleId }))
      expect(started.isError).toBe(false)
      expect(started.json).toMatchObject({ auditRun: { status: "queued" }, jobId: expect.any(String), estimate: expect.any(Object) })
      const ended = yield* untilEnded(mcp, started.json.jobId)
      expect(ended.json.job.state).toBe("completed")
      expect(ended.json.events.length).toBeGreaterThan(1)
      const run = ended.json.run
      expect(run).toMatchObject({ id: started.json.auditRun.id, status: "completed", overallScore: expect.any(Number) })
      expect(run.findings.length).toBeGreaterThan(0)
      expect(run.findings[0]).toMatchObject({ severity: expect.any(String), filePath: "SKILL.md", lineStart: expect.any(Number) })
      // the reading for people: the score and the top findings
      expect(ended.text[1]).toContain(`${run.overallScore}/100`)
      expect(ended.text[1]).toContain(run.findings[0].message.slice(0, 40))

      // the same run through REST, field for field
      const rest = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits/${run.id}`, { token: key }))
      expect(rest.body.data.auditRun).toEqual(run)
    }))

  it.scoped("every product tool succeeds with the scopes it names and fails without credentials, without the scope, and on another user's ids", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const ownerKey = yield* call((a) => a.apiKey("tool-owner", allScopes))
      const intruderKey = yield* call((a) => a.apiKey("tool-intruder", allScopes))
      const unrelatedKey = yield* call((a) => a.apiKey("tool-owner", ["credits:read"], "credits only"))
      const owner = yield* mcpClient({ token: ownerKey })
      const intruder = yield* mcpClient({ token: intruderKey })
      const unrelated = yield* mcpClient({ token: unrelatedKey })
      const anonymous = yield* mcpClient()

      const ownerToken = yield* call((a) => a.token("tool-owner"))
      const { bundleId, files } = yield* bundleWith(ownerToken, [{ path: "SKILL.md", content: DEPLOY_SKILL }], "tools")
      const fileId = files[0].file.id
      const ok = async (name: string, args: Record<string, unknown>) => {
        const reply = await owner.call(name, args)
        if (reply.isError) throw new Error(`${name} failed: ${reply.text[0]}`)
        return reply.json
      }
      const succeeded = new Set<string>()
      const run = (name: string, args: Record<string, unknown>) => Effect.promise(() => ok(name, args).then((json) => (succeeded.add(name), json)))

      // bundles, files, versions
      expect((yield* run("list_bundles", {})).artifactBundles.map((b: any) => b.id)).toContain(bundleId)
      expect((yield* run("create_bundle", { name: "second" })).artifactBundle.name).toBe("second")
      expect((yield* run("get_bundle", { artifactBundleId: bundleId })).artifactBundle.id).toBe(bundleId)
      expect((yield* run("upload_files", { artifactBundleId: bundleId, files: [{ path: "notes.md", content: "# Notes\n" }] })).files).toHaveLength(1)
      expect((yield* run("list_files", { artifactBundleId: bundleId })).files).toHaveLength(2)
      const updated = yield* run("update_file", { artifactBundleId: bundleId, fileId, content: DEPLOY_SKILL.replace("Never deploy", "Do not deploy"), message: "soften" })
      expect(updated.version.versionNumber).toBe(2)
      const latest = yield* run("read_file", { artifactBundleId: bundleId, fileId })
      expect([latest.version.versionNumber, latest.content]).toEqual([2, DEPLOY_SKILL.replace("Never deploy", "Do not deploy")])
      const first = yield* run("read_file", { artifactBundleId: bundleId, fileId, versionNumber: 1 })
      expect([first.version.versionNumber, first.content]).toEqual([1, DEPLOY_SKILL])
      const rest = yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/files/${fileId}`, { token: ownerKey }))
      expect(latest).toEqual(rest.body.data)
      expect((yield* run("list_file_versions", { artifactBundleId: bundleId, fileId })).versions.map((v: any) => v.versionNumber)).toEqual([2, 1])
      expect((yield* run("list_bundle_versions", { artifactBundleId: bundleId })).versions.length).toBe(3)
      const restoredFile = yield* run("restore_file_version", { artifactBundleId: bundleId, fileId, versionNumber: 1 })
      expect(restoredFile.version.versionNumber).toBe(3)
      // bundle version 3 is the update: SKILL.md comes back as that content, in a fourth version
      const restoredBundle = yield* run("restore_bundle_version", { artifactBundleId: bundleId, versionNumber: 3 })
      expect(restoredBundle.restoredFromArtifactBundleVersionNumber).toBe(3)
      const restoredSkill = restoredBundle.restoredFiles.find((f: any) => f.file.id === fileId)
      expect(restoredSkill.version.versionNumber).toBe(4)
      expect((yield* run("read_file", { artifactBundleId: bundleId, fileId })).content).toBe(DEPLOY_SKILL.replace("Never deploy", "Do not deploy"))

      // work: each start answers a jobId at once; get_job polls it
      const audit = yield* run("start_audit", { artifactBundleId: bundleId })
      const conversion = yield* run("convert_to_rubr_flow", { artifactBundleId: bundleId })
      const evalRun = yield* run("start_eval", { artifactBundleId: bundleId, maxCases: 2 })
      for (const started of [audit, conversion, evalRun]) {
        const ended = yield* untilEnded(owner, started.jobId)
        expect([ended.json.job.kind, ended.json.job.state]).toEqual([ended.json.job.kind, "completed"])
        expect(ended.json.run).not.toBeNull()
      }
      succeeded.add("get_job")
      const proof = yield* run("export_proof_report", { artifactBundleId: bundleId, evalRunId: evalRun.evalRun.id, auditRunId: audit.auditRun.id })
      expect(proof.proofReport.status).toBe("queued")
      yield* untilEnded(owner, proof.jobId)
      const exported = yield* run("export_proof_report", { artifactBundleId: bundleId, proofReportId: proof.proofReport.id })
      expect(exported.proofReport.status).toBe("completed")
      expect(exported.export).toMatchObject({ format: expect.any(String), payload: expect.any(Object), signature: expect.any(Object) })
      const restExport = yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/proof-reports/${proof.proofReport.id}/export`, { token: ownerKey }))
      expect(exported.export).toEqual(restExport.body)
      expect([...succeeded].sort()).toEqual(TOOLS.filter((t) => !PUBLIC_TOOLS.includes(t)).sort())

      // the failures, each with the REST envelope in the result
      const argsOf: Record<string, Record<string, unknown>> = {
        list_bundles: {},
        create_bundle: { name: "nope" },
        get_bundle: { artifactBundleId: bundleId },
        upload_files: { artifactBundleId: bundleId, files: [{ path: "x.md", content: "x" }] },
        list_files: { artifactBundleId: bundleId },
        read_file: { artifactBundleId: bundleId, fileId },
        update_file: { artifactBundleId: bundleId, fileId, content: "x" },
        list_bundle_versions: { artifactBundleId: bundleId },
        restore_bundle_version: { artifactBundleId: bundleId, versionNumber: 1 },
        list_file_versions: { artifactBundleId: bundleId, fileId },
        restore_file_version: { artifactBundleId: bundleId, fileId, versionNumber: 1 },
        start_audit: { artifactBundleId: bundleId },
        convert_to_rubr_flow: { artifactBundleId: bundleId },
        start_eval: { artifactBundleId: bundleId },
        export_proof_report: { artifactBundleId: bundleId, proofReportId: proof.proofReport.id },
        get_job: { jobId: audit.jobId }
      }
      const before = yield* app.sql<{ n: number }>`SELECT (SELECT count(*) FROM file_versions) + (SELECT count(*) FROM jobs) + (SELECT count(*) FROM artifact_bundles) AS n`
      for (const [name, args] of Object.entries(argsOf)) {
        const anon = yield* Effect.promise(() => anonymous.call(name, args))
        expect([name, anon.isError, anon.json.error.code]).toEqual([name, true, "unauthorized"])
        expect(anon.json.error.requestId).toEqual(expect.any(String))
        expect(anon.structured).toBeUndefined()
        const scopeless = yield* Effect.promise(() => unrelated.call(name, args))
        expect([name, scopeless.isError, scopeless.json.error.code]).toEqual([name, true, "forbidden"])
        expect(scopeless.text[1]).toMatch(/^forbidden: /)
        if (name === "list_bundles" || name === "create_bundle") continue
        const foreign = yield* Effect.promise(() => intruder.call(name, args))
        expect([name, foreign.isError, foreign.json.error.code]).toEqual([name, true, "not_found"])
      }
      const after = yield* app.sql<{ n: number }>`SELECT (SELECT count(*) FROM file_versions) + (SELECT count(*) FROM jobs) + (SELECT count(*) FROM artifact_bundles) AS n`
      expect(after[0]!.n).toBe(before[0]!.n)
      // the intruder's own list does not show the owner's bundles
      expect((yield* Effect.promise(() => intruder.call("list_bundles"))).json.artifactBundles).toEqual([])
    }))

  it.scoped("a key's scopes split export_proof_report: reading needs exports:read or artifact_bundles:read, creating needs evals:run", () =>
    Effect.gen(function*() {
      const ownerToken = yield* call((a) => a.token("split-owner"))
      const { bundleId } = yield* bundleWith(ownerToken, [{ path: "SKILL.md", content: DEPLOY_SKILL }], "split")
      const readerKey = yield* call((a) => a.apiKey("split-owner", ["exports:read"]))
      const reader = yield* mcpClient({ token: readerKey })
      const create = yield* Effect.promise(() => reader.call("export_proof_report", { artifactBundleId: bundleId, evalRunId: crypto.randomUUID() }))
      expect([create.isError, create.json.error.code]).toEqual([true, "forbidden"])
      const readUnknown = yield* Effect.promise(() => reader.call("export_proof_report", { artifactBundleId: bundleId, proofReportId: crypto.randomUUID() }))
      expect([readUnknown.isError, readUnknown.json.error.code]).toEqual([true, "not_found"])
      const both = yield* Effect.promise(() => reader.call("export_proof_report", { artifactBundleId: bundleId }))
      expect([both.isError, both.json.error.code]).toEqual([true, "validation_failed"])
    }))

  it.scoped("get_job leaves the run out for a key without artifact_bundles:read, and says why", () =>
    Effect.gen(function*() {
      const ownerToken = yield* call((a) => a.token("jobs-owner"))
      const { bundleId } = yield* bundleWith(ownerToken, [{ path: "SKILL.md", content: DEPLOY_SKILL }], "jobs")
      const starterKey = yield* call((a) => a.apiKey("jobs-owner", ["audits:run", "jobs:read"]))
      const starter = yield* mcpClient({ token: starterKey })
      const started = yield* Effect.promise(() => starter.call("start_audit", { artifactBundleId: bundleId }))
      const ended = yield* untilEnded(starter, started.json.jobId)
      expect(ended.json.run).toBeNull()
      expect(ended.json.runNote).toContain("artifact_bundles:read")
    }))
})

layer(makeTestApp({
  role: "api",
  env: { SERVICE_AUDIT_CREDIT_MODE: "flat", SERVICE_AUDIT_RUN_CREDITS: "3", SERVICE_SIGNUP_CREDITS: "4", SERVICE_RATE_LIMIT_KEY_PER_MINUTE: "8", SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "5" }
}))("MCP under the same credits and limits as REST", (it) => {
  it.scoped("a start beyond the balance is refused with credit_limit_exceeded, and nothing is half-written", () =>
    Effect.gen(function*() {
      const token = yield* call((a) => a.token("poor"))
      const { bundleId } = yield* bundleWith(token, [{ path: "SKILL.md", content: DEPLOY_SKILL }], "poor")
      const mcp = yield* mcpClient({ token })
      const first = yield* Effect.promise(() => mcp.call("start_audit", { artifactBundleId: bundleId }))
      expect(first.isError).toBe(false)
      const second = yield* Effect.promise(() => mcp.call("start_audit", { artifactBundleId: bundleId, force: true }))
      expect([second.isError, second.json.error.code]).toEqual([true, "credit_limit_exceeded"])
      const credits = yield* call((a) => a.request("GET", "/credits", { token }))
      expect(credits.body.data.balance).toBe(1)
      const runs = yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/audits`, { token }))
      expect(runs.body.data.auditRuns).toHaveLength(1)
    }))

  it.scoped("an API key's rate limit counts MCP tool calls and REST requests together", () =>
    Effect.gen(function*() {
      yield* inOneMinuteWindow()
      const key = yield* call((a) => a.apiKey("busy", ["artifact_bundles:read"]))
      const mcp = yield* mcpClient({ token: key })
      const statuses: Array<string> = []
      for (let i = 0; i < 4; i++) statuses.push((yield* call((a) => a.request("GET", "/artifact-bundles", { token: key }))).status === 200 ? "ok" : "limited")
      for (let i = 0; i < 6; i++) {
        const reply = yield* Effect.promise(() => mcp.call("list_bundles"))
        statuses.push(reply.isError ? reply.json.error.code : "ok")
      }
      expect(statuses).toEqual(["ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "rate_limit_exceeded", "rate_limit_exceeded"])
    }))

  it.effect("MCP requests without credentials count against the per-IP limit; with a token they do not", () =>
    Effect.gen(function*() {
      yield* inOneMinuteWindow()
      const key = yield* call((a) => a.apiKey("ip-user", ["artifact_bundles:read"]))
      const search = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_docs", arguments: { query: "credits" } } }
      const statuses: Array<number> = []
      for (let i = 0; i < 6; i++) statuses.push((yield* postMcp(search)).status)
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
      const limited = yield* postMcp(search)
      expect(limited.body.error.code).toBe("rate_limit_exceeded")
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
      // a caller with a token is counted per key and user instead
      const withKey = yield* postMcp(search, { authorization: `Bearer ${key}` })
      expect([withKey.status, withKey.body.result.isError]).toEqual([200, false])
    }))
})
