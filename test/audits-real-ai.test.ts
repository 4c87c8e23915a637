/**
 * Issue 4: the same audit flow with the real provider layer (SERVICE_AI_ENABLED=true) against a fake
 * OpenAI-compatible server: usage reconciliation (refund once / overage recorded, never charged) and
 * provider failures becoming a safe job error with a full refund.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as FakeOpenAi from "./support/FakeOpenAi.js"
import { makeTestApp } from "./support/TestApp.js"
import { call, count, skillBundle, waitForJob } from "./support/fixtures.js"

let fake: FakeOpenAi.FakeOpenAi

/** A model that answers a valid review for whatever rubric and files it is shown. */
const reviewer = (usage: FakeOpenAi.CompletionUsage): FakeOpenAi.Responder => (request) => {
  const user = String(request.body?.messages?.[1]?.content ?? "")
  const keys = [...user.matchAll(/^- ([\w-]+) \| /gm)].map((m) => m[1])
  const reviewed = [...user.matchAll(/^=== FILE (.+) \(under review/gm)].map((m) => m[1])
  return FakeOpenAi.jsonReply({
    scores: keys.map((key) => ({ key, score: 70, rationale: `Rationale for ${key}.` })),
    findings: reviewed.map((path) => ({
      criterionKey: keys[0],
      severity: "major",
      filePath: path,
      lineStart: 1,
      lineEnd: 2,
      message: `Check ${path}.`,
      suggestion: "Tighten it."
    })),
    // the model drops the frontmatter: the provider layer must put it back byte for byte
    improvedFiles: reviewed.map((path) => ({ path, content: "# Release notes\n\n1. List merged pull requests.\n", changes: ["Shorter."] })),
    evalCases: [{ name: "Basic", type: "standard", input: "Write notes for v1", expectedBehavior: "Notes", passCriteria: "Has notes" }]
  }, usage)
}

const app = Layer.unwrapScoped(
  Effect.map(FakeOpenAi.make(), (server) => {
    fake = server
    return makeTestApp({
      role: "all",
      env: { SERVICE_AI_ENABLED: "true", SERVICE_AI_BASE_URL: server.baseUrl, SERVICE_AI_API_KEY: "sk-test", SERVICE_AI_MODEL: "fake-model" }
    })
  })
)

const runAudit = (sub: string) =>
  Effect.gen(function*() {
    const token = yield* call((a) => a.token(sub))
    const { bundleId } = yield* skillBundle(token)
    const started = yield* call((a) => a.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
    expect(started.status).toBe(202)
    const job = yield* waitForJob(token, started.body.data.jobId)
    const run = yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/audits/${started.body.data.auditRun.id}`, { token }))
    const credits = yield* call((a) => a.request("GET", "/credits", { token }))
    return { token, bundleId, started: started.body.data, job, run: run.body.data.auditRun, credits: credits.body.data }
  })

layer(app)("audits with the real provider layer", (it) => {
  it.effect("lower actual usage is refunded once; provider metadata and usage are recorded", () =>
    Effect.gen(function*() {
      fake.setFallback(reviewer({ prompt_tokens: 100, completion_tokens: 50 }))
      const { job, run, credits, started } = yield* runAudit("thrifty")
      expect(job.state).toBe("completed")
      const estimated = started.creditCost.credits
      expect(estimated).toBeGreaterThan(1)
      expect(run.usage).toEqual({ inputTokens: 100, outputTokens: 50, totalTokens: 150 })
      expect(run.reconciliation).toMatchObject({ status: "refunded", estimatedCredits: estimated, actualCredits: 1, refundedCredits: estimated - 1 })
      expect(run.finalChargedCredits).toBe(1)
      expect(run.resultMetadata).toMatchObject({ provider: "openai-compatible", model: "fake-model", modelTier: "standard", reasoningEffort: "medium" })
      expect(run.improvedVersion!.content.startsWith("---\nname: release-notes\n")).toBe(true)
      expect(credits.balance).toBe(99)
      expect(credits.ledger.filter((e) => e.type === "refund")).toHaveLength(1)
      const request = fake.requests[fake.requests.length - 1]
      expect(request.url).toBe("/v1/chat/completions")
      expect(request.headers.authorization).toBe("Bearer sk-test")
      expect(request.body.model).toBe("fake-model")
      expect(JSON.stringify(run)).not.toContain("chatcmpl-")
    }))

  it.effect("higher actual usage is recorded for calibration and never charged", () =>
    Effect.gen(function*() {
      fake.setFallback(reviewer({ prompt_tokens: 200_000, completion_tokens: 100_000 }))
      const { run, credits, started } = yield* runAudit("hungry")
      const estimated = started.creditCost.credits
      expect(run.reconciliation!.status).toBe("overage_recorded")
      expect(run.reconciliation!.overageCredits).toBeGreaterThan(0)
      expect(run.finalChargedCredits).toBe(estimated)
      expect(credits.balance).toBe(100 - estimated)
      expect(credits.ledger.filter((e) => e.type === "refund")).toHaveLength(0)
    }))

  it.effect("a provider failure is a safe job error and the credits come back in full, once", () =>
    Effect.gen(function*() {
      fake.setFallback(() => FakeOpenAi.errorReply(500))
      const { job, run, credits } = yield* runAudit("unlucky")
      expect(job.state).toBe("failed")
      expect(job.error!.code).toMatch(/^provider_/)
      expect(JSON.stringify(job)).not.toContain("secret-internal-detail")
      expect(run.status).toBe("failed")
      expect(run.error!.code).toBe(job.error!.code)
      expect(JSON.stringify(run)).not.toContain("secret-internal-detail")
      expect(credits.balance).toBe(100)
      expect(credits.ledger.filter((e) => e.type === "refund")).toHaveLength(1)
      expect(yield* count("audit_runs", "result IS NOT NULL AND status = 'failed'")).toBe(0)
    }))
})
