/**
 * Issue 11: proof reports end to end: created from a completed eval (or after a new one), signed,
 * exported to object storage (filesystem, S3 on a local s3rver, none, an outage), verified with the
 * public JWKS; the 404/409 rules, scopes and admission.
 */
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { type OpenJson, openJson } from "./support/Api.js"
import { type ExportDocument, verifyExport } from "../src/signing/Document.js"
import { type LocalS3, S3RVER_CREDENTIALS, startS3rver } from "./support/S3rver.js"
import { makeTestApp, TestApp } from "./support/TestApp.js"
import { bundleWith, call, count, DEPLOY_SKILL, expectError, skillBundle, waitForJob } from "./support/fixtures.js"

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true"

const post = <const P extends string>(token: string, path: P, body: unknown = {}) => call((app) => app.request("POST", path, { token, body }))
const get = <const P extends string>(token: string | undefined, path: P) => call((app) => app.request("GET", path, { token }))

/** A bundle with two versions of its skill and a completed eval of them. */
const completedEval = (token: string) =>
  Effect.gen(function*() {
    const { bundleId, files } = yield* bundleWith(token, [{ path: "SKILL.md", content: DEPLOY_SKILL }], "deploy-preview")
    yield* call((app) =>
      app.request("PUT", `/artifact-bundles/${bundleId}/files/${files[0].file.id}`, {
        token,
        body: { content: DEPLOY_SKILL.replace("2. Install dependencies", "2. Install the locked dependencies") }
      }))
    const started = yield* post(token, `/artifact-bundles/${bundleId}/evals`, { maxCases: 3 })
    expect(started.status).toBe(202)
    const job = yield* waitForJob(token, started.body.data.jobId)
    expect(job.state).toBe("completed")
    return { bundleId, evalRunId: started.body.data.evalRun.id as string, target: started.body.data.target, files }
  })

const createReport = (token: string, bundleId: string, body: unknown) => post(token, `/artifact-bundles/${bundleId}/proof-reports`, body)

const reportAndWait = (token: string, bundleId: string, body: unknown) =>
  Effect.gen(function*() {
    const created = yield* createReport(token, bundleId, body)
    expect([created.status, created.text.slice(0, 300)]).toEqual([202, created.text.slice(0, 300)])
    const job = yield* waitForJob(token, created.body.data.jobId)
    const detail = yield* get(token, `/artifact-bundles/${bundleId}/proof-reports/${created.body.data.proofReport.id}`)
    return { created: created.body.data, job, report: detail.body.data.proofReport }
  })

/** The signed export document itself, outside the envelope. */
const exportOf = (token: string, bundleId: string, id: string) =>
  call((app) => app.requestAs<ExportDocument>("GET", `/artifact-bundles/${bundleId}/proof-reports/${id}/export`, { token }))

const jwks = Effect.map(call((app) => app.request("GET", "/signing-keys")), (reply) => {
  expect(reply.status).toBe(200)
  return reply.body
})

layer(makeTestApp({ role: "all" }))("proof reports with filesystem storage", (it) => {
  it.effect("a completed eval becomes a signed, exported report that verifies, and any changed byte fails", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("prover"))
      const { bundleId, evalRunId, target } = yield* completedEval(token)
      const { created, job, report } = yield* reportAndWait(token, bundleId, { evalRunId })
      expect(created.proofReport).toMatchObject({ status: "queued", evalRunId, exportPath: null })
      expect(created.creditCost).toMatchObject({ credits: 0, reason: "proof_report" })
      expect(created.evalRun).toBeNull()
      expect(created.job.kind).toBe("proof_report")
      expect(job.state).toBe("completed")
      const events = (yield* get(token, `/jobs/${job.id}/events`)).body.data.events
      expect(events.map((e) => e.phase)).toEqual(["waiting_for_eval", "waiting_for_eval", "assembling", "signing", "exporting", "saving", "completed"])

      expect(report.status).toBe("completed")
      expect(report.source).toEqual({ fileVersionId: target.sourceFileVersionId, contentHash: target.sourceHash })
      expect(report.candidate).toEqual({ fileVersionId: target.candidateFileVersionId, contentHash: target.candidateHash })
      expect(report.export).toMatchObject({ provider: "filesystem", bucket: null })
      expect(report.exportFailure).toBeNull()
      expect(report.signature!.alg).toBe("EdDSA")
      expect(report.exportPath).toBe(`/api/v1/artifact-bundles/${bundleId}/proof-reports/${report.id}/export`)
      // everything the contract lists
      const payload = openJson(report.report)
      expect(payload.source).toMatchObject({ contentHash: target.sourceHash, versionNumber: 1, path: "SKILL.md" })
      expect(payload.candidate).toMatchObject({ contentHash: target.candidateHash, versionNumber: 2 })
      expect(payload.cases).toHaveLength(3)
      for (const c of payload.cases) {
        expect(Object.keys(c).sort()).toEqual(
          ["candidate", "expectedBehavior", "id", "input", "name", "passCriteria", "scoreDelta", "source", "type", "verdict"].sort()
        )
        expect(Object.keys(c.source).sort()).toEqual(["evidence", "observedBehavior", "passed", "score"])
      }
      expect(payload.diff).toMatchObject({ identical: false, linesAdded: 1, linesRemoved: 1 })
      expect(payload.eval).toMatchObject({ id: evalRunId, scenarioCount: 3 })
      expect(payload.eval.evaluatorVersion).toMatch(/mock/)
      expect(payload.eval.rubricVersion).toMatch(/\d{4}-\d{2}-\d{2}/)
      expect(payload.model).toMatchObject({ provider: "mock" })
      expect(payload.ai).toMatchObject({ calls: 0 })
      expect(payload.credits.eval.estimatedCredits).toBeGreaterThan(0)
      expect(payload.credits.proofReport).toEqual({ credits: 0 })
      expect(payload.knownLimitations.length).toBeGreaterThan(1)

      // the export: the document itself, not in the envelope, from object storage
      const exported = yield* exportOf(token, bundleId, report.id)
      expect(exported.status).toBe(200)
      expect(exported.headers.get("content-type")).toContain("application/json")
      expect(exported.headers.get("x-rubr-export-source")).toBe("filesystem")
      expect(exported.body.format).toBe("rubr.proof_report.v1")
      expect(exported.body).not.toHaveProperty("data")
      expect(exported.body.payload).toEqual(payload)
      const keys = yield* jwks
      expect(keys.keys.map((k) => k.kid)).toContain(report.signature!.kid)
      const verified = yield* Effect.promise(() => verifyExport(exported.body, keys))
      expect(verified).toMatchObject({ valid: true, kid: report.signature!.kid })
      // reformatting the JSON keeps it valid; any changed value fails; an unknown key id fails
      const reformatted = JSON.parse(JSON.stringify(exported.body))
      expect((yield* Effect.promise(() => verifyExport(reformatted, keys))).valid).toBe(true)
      for (const tamper of [
        (d: OpenJson) => (d.payload.cases[0].candidate.score += 1),
        (d: OpenJson) => (d.payload.candidate.contentHash = target.sourceHash),
        (d: OpenJson) => (d.payload.eval.passCount += 1),
        (d: OpenJson) => (d.payload.generatedAt = "2000-01-01T00:00:00.000Z"),
        (d: OpenJson) => (d.payload.knownLimitations = [])
      ]) {
        const copy = JSON.parse(exported.text)
        tamper(copy)
        expect((yield* Effect.promise(() => verifyExport(copy, keys))).valid).toBe(false)
      }
      const unknownKid = JSON.parse(exported.text)
      unknownKid.signature.kid = "no-such-key"
      const unknown = yield* Effect.promise(() => verifyExport(unknownKid, keys))
      expect(unknown.valid).toBe(false)
      expect(unknown.reason).toMatch(/kid|key/i)

      // the script a user runs (scripts/verify-export.ts) says the same, with its exit code
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-verify-"))
      Fs.writeFileSync(Path.join(dir, "export.json"), exported.text)
      Fs.writeFileSync(Path.join(dir, "jwks.json"), JSON.stringify(keys))
      const tampered = JSON.parse(exported.text)
      tampered.payload.eval.scoreDelta = 42
      Fs.writeFileSync(Path.join(dir, "tampered.json"), JSON.stringify(tampered))
      // asynchronous: a synchronous spawn would block the in-process server (its idle keep-alive
      // sockets then close under the next request on a loaded machine)
      const script = (file: string) =>
        Effect.promise(() =>
          new Promise<{ status: number | null; stdout: string }>((resolve) => {
            const child = ChildProcess.spawn(process.execPath, ["--import", "tsx", "scripts/verify-export.ts", Path.join(dir, file), "--keys", Path.join(dir, "jwks.json")])
            let stdout = ""
            child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
            child.on("close", (status) => resolve({ status, stdout }))
          })
        )
      const good = yield* script("export.json")
      expect([good.status, good.stdout]).toEqual([0, expect.stringContaining("VALID: signature valid")])
      const bad = yield* script("tampered.json")
      expect([bad.status, bad.stdout]).toEqual([1, expect.stringContaining("INVALID")])
      Fs.rmSync(dir, { recursive: true, force: true })

      // the object store's copy gone: the database's copy is served, the same bytes, still verifying
      const app = yield* TestApp
      Fs.rmSync(Path.join(app.dataDir, "exports", report.export!.key))
      const fallback = yield* exportOf(token, bundleId, report.id)
      expect(fallback.status).toBe(200)
      expect(fallback.headers.get("x-rubr-export-source")).toBe("database")
      expect(fallback.text).toBe(exported.text)
    }))

  it.effect("an audit can be included; 404 for unknown or foreign runs, 400 for both kinds of selection", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("careful"))
      const { bundleId, evalRunId } = yield* completedEval(token)
      const audit = yield* post(token, `/artifact-bundles/${bundleId}/audits`, {})
      const statusOf = (body: unknown) => Effect.map(createReport(token, bundleId, body), (r) => [r.status, r.body.error?.code ?? null])
      // (an audit that has not completed yet is 409: below, with a reviewer slow enough to see it)
      yield* waitForJob(token, audit.body.data.jobId)
      const { report } = yield* reportAndWait(token, bundleId, { evalRunId, auditRunId: audit.body.data.auditRun.id })
      expect(report.auditRunId).toBe(audit.body.data.auditRun.id)
      expect(openJson(report.report).audit).toMatchObject({ id: audit.body.data.auditRun.id, rubricKey: "skill" })
      expect(openJson(report.report).audit.overallScore).toBeGreaterThan(0)

      expect(yield* statusOf({ evalRunId: "00000000-0000-4000-8000-000000000000" })).toEqual([404, "not_found"])
      expect(yield* statusOf({ evalRunId, auditRunId: "00000000-0000-4000-8000-000000000000" })).toEqual([404, "not_found"])
      expect(yield* statusOf({ evalRunId, maxCases: 2 })).toEqual([400, "validation_failed"])
      expect(yield* statusOf({ evalRunId: "nope" })).toEqual([400, "validation_failed"])
      // another user's eval run, even named from their own bundle, is not found
      const other = yield* call((app) => app.token("other"))
      const theirs = yield* completedEval(other)
      expect(yield* statusOf({ evalRunId: theirs.evalRunId })).toEqual([404, "not_found"])
      expect((yield* createReport(other, bundleId, { evalRunId })).status).toBe(404)
      expect(yield* count("proof_reports", `artifact_bundle_id = '${bundleId}'`)).toBe(1)
    }))

  it.effect("scopes: evals:run creates; exports:read and artifact_bundles:read read and export; others are refused; another user gets 404", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("owner"))
      const { bundleId, evalRunId } = yield* completedEval(token)
      const runner = yield* call((app) => app.apiKey("owner", ["evals:run"]))
      const exporter = yield* call((app) => app.apiKey("owner", ["exports:read"]))
      const reader = yield* call((app) => app.apiKey("owner", ["artifact_bundles:read"]))
      const puller = yield* call((app) => app.apiKey("owner", ["artifacts:pull"]))
      const writer = yield* call((app) => app.apiKey("owner", ["exports:write", "audits:run", "files:write"]))
      for (const key of [exporter, reader, puller, writer]) expect((yield* createReport(key, bundleId, { evalRunId })).status).toBe(403)
      const created = yield* createReport(runner, bundleId, { evalRunId })
      expect(created.status).toBe(202)
      expect(created.body.data.proofReport.requestedByApiKeyId).not.toBeNull()
      yield* waitForJob(token, created.body.data.jobId)
      const id = created.body.data.proofReport.id
      const paths = [
        `/artifact-bundles/${bundleId}/proof-reports`,
        `/artifact-bundles/${bundleId}/proof-reports/${id}`,
        `/artifact-bundles/${bundleId}/proof-reports/${id}/export`
      ]
      for (const path of paths) {
        for (const key of [exporter, reader]) expect([path, (yield* get(key, path)).status]).toEqual([path, 200])
        for (const key of [runner, puller, writer]) expect([path, (yield* get(key, path)).status]).toEqual([path, 403])
      }
      const intruder = yield* call((app) => app.token("intruder"))
      for (const path of paths) expect([path, (yield* get(intruder, path)).status]).toEqual([path, 404])
      expect((yield* createReport(intruder, bundleId, { evalRunId })).status).toBe(404)
      const list = yield* get(exporter, `/artifact-bundles/${bundleId}/proof-reports`)
      expect(list.body.data.proofReports.map((r) => r.id)).toEqual([id])
    }))

  it.effect("the JWKS is public and lists the active key; the signing key persists in the data directory", () =>
    Effect.gen(function*() {
      const keys = yield* jwks
      expect(keys.keys.length).toBeGreaterThan(0)
      for (const key of keys.keys) {
        expect(key).not.toHaveProperty("d")
        expect(key.kid).toMatch(/^[A-Za-z0-9_-]{43}$/)
      }
      const reply = yield* get(undefined, "/signing-keys")
      expect(reply.headers.get("content-type")).toContain("application/jwk-set+json")
    }))
})

layer(makeTestApp({ role: "all", env: { SERVICE_MOCK_REVIEW_DELAY_MS: "600" } }))("proof reports that wait for their eval", (it) => {
  it.effect("with eval selectors a new eval starts first and the report waits for it; only the eval is charged", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("patient"))
      const { bundleId } = yield* skillBundle(token)
      const created = yield* createReport(token, bundleId, { maxCases: 2 })
      expect(created.status).toBe(202)
      const data = created.body.data
      const evalRun = data.evalRun!
      expect(evalRun).toMatchObject({ status: "queued", scenarioCount: 2 })
      expect(data.evalJobId).toBe(evalRun.jobId)
      expect(data.proofReport.evalRunId).toBe(evalRun.id)
      // while the eval runs, the same eval cannot be proved by id: 409
      const early = yield* createReport(token, bundleId, { evalRunId: evalRun.id })
      expect([early.status, early.body.error.code]).toEqual([409, "conflict"])
      const job = yield* waitForJob(token, data.jobId)
      expect(job.state).toBe("completed")
      const events = (yield* get(token, `/jobs/${data.jobId}/events`)).body.data.events
      expect(events.some((e) => e.kind === "deferred" && /Waiting for the eval run/.test(e.message))).toBe(true)
      expect(job.attempts).toBe(1)
      const evalJob = yield* waitForJob(token, data.evalJobId!)
      expect(evalJob.state).toBe("completed")
      const credits = yield* get(token, "/credits")
      expect(credits.body.data.ledger.filter((e) => e.type === "debit").map((e) => [e.reason, e.resourceId])).toEqual([
        ["eval_run", evalRun.id]
      ])
      const exported = yield* exportOf(token, bundleId, data.proofReport.id)
      const keys = yield* jwks
      expect((yield* Effect.promise(() => verifyExport(exported.body, keys))).valid).toBe(true)
      // without the service's keys nothing verifies
      expect((yield* Effect.promise(() => verifyExport(exported.body, { keys: [] }))).valid).toBe(false)
    }))

  it.effect("an audit that has not completed cannot be included yet: 409, then 202 once it has", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("hasty"))
      const { bundleId, evalRunId } = yield* completedEval(token)
      const audit = yield* post(token, `/artifact-bundles/${bundleId}/audits`, {})
      const body = { evalRunId, auditRunId: audit.body.data.auditRun.id }
      // each reviewer call takes 600 ms here: the audit is still queued or running
      const early = yield* createReport(token, bundleId, body)
      expect([early.status, early.body.error.code]).toEqual([409, "conflict"])
      expect((yield* waitForJob(token, audit.body.data.jobId)).state).toBe("completed")
      const late = yield* createReport(token, bundleId, body)
      expect([late.status, late.body.data.proofReport.auditRunId]).toEqual([202, audit.body.data.auditRun.id])
    }))

  it.effect("a report of an eval that is cancelled fails, and the export stays unavailable (409)", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("abandoned"))
      const { bundleId } = yield* skillBundle(token)
      const created = yield* createReport(token, bundleId, { maxCases: 3 })
      const data = created.body.data
      const before = yield* exportOf(token, bundleId, data.proofReport.id)
      expectError(before, 409, "conflict")
      expect((yield* post(token, `/jobs/${data.evalJobId}/cancel`)).status).toBe(200)
      const job = yield* waitForJob(token, data.jobId)
      expect(job.state).toBe("failed")
      expect(job.error!.code).toBe("eval_failed")
      const report = (yield* get(token, `/artifact-bundles/${bundleId}/proof-reports/${data.proofReport.id}`)).body.data.proofReport
      expect(report).toMatchObject({ status: "failed", error: { code: "eval_failed" }, report: null, export: null })
      expect((yield* exportOf(token, bundleId, data.proofReport.id)).status).toBe(409)
    }))
})

layer(makeTestApp({ role: "all", env: { SERVICE_EXPORT_STORAGE: "none" } }))("export storage disabled", (it) => {
  it.effect("the report completes with an export failure note and the export is served from the database", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("nostore"))
      const { bundleId, evalRunId } = yield* completedEval(token)
      const { report } = yield* reportAndWait(token, bundleId, { evalRunId })
      expect(report.status).toBe("completed")
      expect(report.export).toBeNull()
      expect(report.exportFailure).toMatchObject({ reason: "disabled" })
      const exported = yield* exportOf(token, bundleId, report.id)
      expect(exported.status).toBe(200)
      expect(exported.headers.get("x-rubr-export-source")).toBe("database")
      const keys = yield* jwks
      expect((yield* Effect.promise(() => verifyExport(exported.body, keys))).valid).toBe(true)
    }))
})

layer(makeTestApp({ role: "api", env: { SERVICE_AI_CIRCUIT_BREAKER: "open" } }))("admission", (it) => {
  it.effect("a proof report costs nothing but is still refused while the AI circuit breaker is open", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("breaker"))
      const { bundleId } = yield* skillBundle(token)
      const app = yield* TestApp
      const refused = yield* createReport(token, bundleId, {})
      expect([refused.status, refused.body.error.code]).toEqual([503, "ai_circuit_breaker_open"])
      expect(yield* count("proof_reports")).toBe(0)
      expect(yield* count("eval_runs")).toBe(0)
      expect(app.baseUrl).toContain("/api/v1")
    }))
})

let s3: LocalS3
const s3App = Layer.unwrapScoped(
  Effect.map(
    Effect.acquireRelease(Effect.promise(() => startS3rver()), (server) => Effect.promise(() => server.dispose())),
    (server) => {
      s3 = server
      return makeTestApp({
        role: "all",
        env: {
          SERVICE_EXPORT_STORAGE: "s3",
          SERVICE_S3_ENDPOINT: server.endpoint,
          SERVICE_S3_BUCKET: "rubr-proofs",
          SERVICE_S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
          SERVICE_S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
          SERVICE_S3_FORCE_PATH_STYLE: "true"
        }
      })
    }
  )
)

layer(s3App)("proof reports on S3 (a local s3rver)", (it) => {
  it.effect("the export is written to the bucket, read back byte-identical; an outage gives the failure note", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("s3-user"))
      const { bundleId, evalRunId } = yield* completedEval(token)
      const { report } = yield* reportAndWait(token, bundleId, { evalRunId })
      expect(report.export).toMatchObject({ provider: "s3", bucket: "rubr-proofs" })
      const client = new S3Client({
        endpoint: s3.endpoint,
        region: "us-east-1",
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS
      })
      const object = yield* Effect.promise(() => client.send(new GetObjectCommand({ Bucket: "rubr-proofs", Key: report.export!.key })))
      const stored = yield* Effect.promise(() => object.Body!.transformToString("utf8"))
      const exported = yield* exportOf(token, bundleId, report.id)
      expect(exported.headers.get("x-rubr-export-source")).toBe("s3")
      expect(exported.text).toBe(stored)
      const app = yield* TestApp
      const [row] = yield* app.sql<{ document: string }>`SELECT document FROM proof_reports WHERE id = ${report.id}`
      expect(stored).toBe(row!.document)
      client.destroy()

      // the store goes away: a new report still completes, with the note, and its export comes from the database
      yield* Effect.promise(() => s3.stop())
      const second = yield* reportAndWait(token, bundleId, { evalRunId })
      expect(second.report.status).toBe("completed")
      expect(second.report.export).toBeNull()
      expect(second.report.exportFailure).toMatchObject({ reason: "unavailable" })
      const fallback = yield* exportOf(token, bundleId, second.report.id)
      expect(fallback.status).toBe(200)
      expect(fallback.headers.get("x-rubr-export-source")).toBe("database")
      // and the first report's export, whose store is down, is served from the database too
      const first = yield* exportOf(token, bundleId, report.id)
      expect(first.headers.get("x-rubr-export-source")).toBe("database")
      expect(first.text).toBe(stored)
    }), { timeout: 60_000 })
})
