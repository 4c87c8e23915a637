/**
 * Failure paths at the process's edge, each stated in a few lines with `makeTestLayer` (src/App.ts
 * `EdgeServicesLive`, replaced through `makeTestApp({ edge })`): an AI provider that fails, an object
 * store that is down, a mailer that refuses. Any other method of the replaced service dies naming
 * itself, so a test cannot pass by reaching one nobody meant it to. The same paths against real
 * stand-ins (a fake OpenAI server, a stopped s3rver, an SMTP sink) are in audits-real-ai,
 * proof-reports and email-smtp.
 */
import { expect, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { SendFailed, Mailer } from "../src/email/Mailer.js"
import { AiReviewer } from "../src/review/AiReviewer.js"
import { AiProviderError } from "../src/ai/ProviderError.js"
import { ObjectStore } from "../src/storage/ObjectStore.js"
import { StorageError } from "../src/storage/Common.js"
import { makeTestLayer } from "./support/TestLayer.js"
import { makeTestApp, TestApp } from "./support/TestApp.js"
import { bundleWith, call, DEPLOY_SKILL, skillBundle, waitForJob } from "./support/fixtures.js"

const failingProvider = makeTestLayer(AiReviewer)({
  review: () => Effect.fail(new AiProviderError({ code: "provider_error", message: "The AI provider answered with an error.", workDone: false }))
})

layer(makeTestApp({ role: "all", edge: failingProvider }))("an AI provider that fails", (it) => {
  it.effect("the audit fails with the provider's safe error and its credits come back once", () =>
    Effect.gen(function*() {
      const token = yield* call((a) => a.token("provider-down"))
      const { bundleId } = yield* skillBundle(token)
      const started = yield* call((a) => a.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
      expect(started.status).toBe(202)
      const job = yield* waitForJob(token, started.body.data.jobId)
      expect([job.state, job.error?.code]).toEqual(["failed", "provider_error"])
      const run = (yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/audits/${started.body.data.auditRun.id}`, { token }))).body.data.auditRun
      expect([run.status, run.error?.code]).toEqual(["failed", "provider_error"])
      const credits = (yield* call((a) => a.request("GET", "/credits", { token }))).body.data
      expect(credits.balance).toBe(100)
      expect(credits.ledger.filter((e) => e.type === "refund")).toHaveLength(1)
    }), { timeout: 60_000 })
})

const storeDown = makeTestLayer(ObjectStore)({
  provider: "s3",
  put: () => Effect.fail(new StorageError({ reason: "unavailable", message: "The object store did not answer." }))
})

layer(makeTestApp({ role: "all", edge: storeDown }))("an object store that is down", (it) => {
  it.effect("a proof report still completes, with the failure note, and its export is served from the database", () =>
    Effect.gen(function*() {
      const token = yield* call((a) => a.token("store-down"))
      const { bundleId, files } = yield* bundleWith(token, [{ path: "SKILL.md", content: DEPLOY_SKILL }], "deploy-preview")
      yield* call((a) =>
        a.request("PUT", `/artifact-bundles/${bundleId}/files/${files[0].file.id}`, {
          token,
          body: { content: DEPLOY_SKILL.replace("2. Install dependencies", "2. Install the locked dependencies") }
        }))
      const evalRun = yield* call((a) => a.request("POST", `/artifact-bundles/${bundleId}/evals`, { token, body: { maxCases: 3 } }))
      expect(evalRun.status).toBe(202)
      expect((yield* waitForJob(token, evalRun.body.data.jobId)).state).toBe("completed")
      const created = yield* call((a) =>
        a.request("POST", `/artifact-bundles/${bundleId}/proof-reports`, { token, body: { evalRunId: evalRun.body.data.evalRun.id } }))
      expect(created.status).toBe(202)
      expect((yield* waitForJob(token, created.body.data.jobId)).state).toBe("completed")
      const report = (yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/proof-reports/${created.body.data.proofReport.id}`, { token })))
        .body.data.proofReport
      expect(report.status).toBe("completed")
      expect(report.export).toBeNull()
      expect(report.exportFailure).toMatchObject({ reason: "unavailable" })
      const exported = yield* call((a) => a.requestAs<unknown>("GET", `/artifact-bundles/${bundleId}/proof-reports/${report.id}/export`, { token }))
      expect(exported.status).toBe(200)
      expect(exported.headers.get("x-rubr-export-source")).toBe("database")
    }), { timeout: 60_000 })
})

const refusingMailer = makeTestLayer(Mailer)({
  send: () => Effect.fail(new SendFailed({ message: "451 mailbox busy" }))
})

/** it.effect runs on the TestClock; the worker does not, so waiting for it needs the live clock. */
const sleep = (ms: number) => Effect.sleep(ms).pipe(Effect.withClock(Clock.make()))

layer(makeTestApp({ role: "all", edge: refusingMailer, env: { SERVICE_EMAIL_SEND_ENABLED: "true", SERVICE_PUBLIC_BASE_URL: "http://rubr.test" } }))(
  "a mailer that refuses",
  (it) => {
    it.effect("the message stays in the outbox, pending, with the refusal as its last error; the request that queued it succeeded", () =>
      Effect.gen(function*() {
        const app = yield* TestApp
        const reply = yield* Effect.promise(() =>
          app.request("POST", "/newsletter/subscriptions", { body: { email: "busy@example.com", consent: true } })
        )
        expect(reply.status).toBe(200)
        const row = () =>
          Effect.map(
            app.sql<{ status: string; attempts: number; lastError: string | null }>`
              SELECT status, attempts, last_error FROM email_outbox WHERE recipient = 'busy@example.com' ORDER BY seq DESC LIMIT 1`,
            (rows) => rows[0]
          )
        let seen = yield* row()
        for (let i = 0; i < 100 && (seen === undefined || seen.attempts === 0); i++) {
          yield* sleep(100)
          seen = yield* row()
        }
        expect(seen).toMatchObject({ status: "pending", attempts: 1 })
        expect(seen!.lastError).toContain("451 mailbox busy")
      }), { timeout: 60_000 })
  }
)
