/**
 * Issue 10: conversions with the real converter layer (SERVICE_AI_ENABLED=true) against a fake
 * OpenAI-compatible server: valid output, invalid output repaired by the model, output still invalid
 * after the repair, and a provider error, each with its credits.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { validateText } from "../src/rubr_flow/Validator.js"
import * as FakeOpenAi from "./support/FakeOpenAi.js"
import { makeTestApp } from "./support/TestApp.js"
import { bundleWith, call, count, DEPLOY_SKILL, waitForJob } from "./support/fixtures.js"

let fake: FakeOpenAi.FakeOpenAi

const app = Layer.unwrapScoped(
  Effect.map(FakeOpenAi.make(), (server) => {
    fake = server
    return makeTestApp({
      role: "all",
      env: { SERVICE_AI_ENABLED: "true", SERVICE_AI_BASE_URL: server.baseUrl, SERVICE_AI_API_KEY: "sk-test", SERVICE_AI_MODEL: "fake-model" }
    })
  })
)

/** What the prompt says about the converted file: its line count and hash, as the model must copy them. */
const sourceOf = (request: FakeOpenAi.RecordedRequest) => {
  const user = String(request.body?.messages?.[1]?.content ?? "")
  const m = user.match(/=== FILE (\S+) \(convert; (\d+) lines; content_hash (sha256:[0-9a-f]{64})\) ===/)
  if (!m) throw new Error("the prompt does not describe the source")
  return { path: m[1]!, lines: Number(m[2]), hash: m[3]! }
}

/** A flow as a strict structured-output model answers it (absent optional members are null). */
const flowFor = (source: { path: string; lines: number; hash: string }, options: { readonly emptyCheck?: boolean } = {}) => ({
  flow: {
    rubr_flow: "1.0",
    name: "deploy-preview",
    description: "Deploys a pull request to a preview environment and reports the URL.",
    when_to_use: "When a user asks for a preview deployment of a pull request.",
    sources: [{ path: source.path, content_hash: source.hash, lines: source.lines }],
    inputs: [{ id: "pr", description: "The pull request number or URL.", required: false, from: `${source.path}:12` }],
    steps: [
      {
        id: "checkout",
        title: "Check out the branch",
        action: "Run `gh pr checkout <pr>`.",
        check: options.emptyCheck ? "" : "`git branch --show-current` names the pull request's branch.",
        uses: ["pr"],
        produces: null,
        on_failure: null,
        from: `${source.path}:17`
      },
      {
        id: "deploy",
        title: "Deploy",
        action: "Run `npx vercel deploy --prebuilt`.",
        check: "The command prints a preview URL.",
        uses: null,
        produces: ["preview-url"],
        on_failure: "deploy-failed",
        from: `${source.path}:21`
      }
    ],
    outputs: [{ id: "preview-url", description: "The preview URL.", from: null }],
    guardrails: [{ never: "Deploy to production from this skill.", id: null, from: `${source.path}:26` }],
    failure_handling: [{ id: "deploy-failed", when: "The deploy fails.", then: "Report the error and stop.", resume_at: null, from: null }],
    evals: null
  },
  missingRequirements: [{ code: "no_rollback", message: "The source does not say how to remove a preview.", block: null }],
  remainingRisks: [],
  suggestedEvals: [{ name: "Deploy #42", type: "standard", input: "deploy a preview of #42", expectedBehavior: "A preview URL", passCriteria: "Reports the URL" }],
  changes: []
})

const converter = (usage: FakeOpenAi.CompletionUsage, options: { readonly emptyCheck?: boolean } = {}): FakeOpenAi.Responder => (request) =>
  FakeOpenAi.jsonReply(flowFor(sourceOf(request), options), usage)

const runConversion = (sub: string) =>
  Effect.gen(function*() {
    const token = yield* call((a) => a.token(sub))
    const { bundleId } = yield* bundleWith(token, [{ path: "SKILL.md", content: DEPLOY_SKILL }], "deploy-preview")
    const started = yield* call((a) => a.request("POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions`, { token, body: {} }))
    expect(started.status).toBe(202)
    const job = yield* waitForJob(token, started.body.data.jobId)
    const conversion = (yield* call((a) =>
      a.request("GET", `/artifact-bundles/${bundleId}/rubr-flow/conversions/${started.body.data.conversion.id}`, { token }))).body.data.conversion
    const credits = (yield* call((a) => a.request("GET", "/credits", { token }))).body.data
    return { token, bundleId, started: started.body.data, job, conversion, credits }
  })

const SMALL = { prompt_tokens: 100, completion_tokens: 50 }

layer(app)("conversions with the real converter layer", (it) => {
  it.effect("valid output is saved; the request asks for strict structured output; lower usage is refunded once", () =>
    Effect.gen(function*() {
      fake.reset()
      fake.setFallback(converter(SMALL))
      const { job, conversion, credits, started, token, bundleId } = yield* runConversion("valid")
      expect(job.state).toBe("completed")
      expect(fake.requests).toHaveLength(1)
      const request = fake.requests[0]!
      expect(request.url).toBe("/v1/chat/completions")
      expect(request.headers.authorization).toBe("Bearer sk-test")
      expect(request.body.model).toBe("fake-model")
      const format = request.body.response_format
      expect(format).toMatchObject({ type: "json_schema", json_schema: { name: "rubr_flow_conversion", strict: true } })
      // strict mode: every property of every object is required, optional ones nullable
      const step = format.json_schema.schema.$defs.FlowStep
      expect(step.required).toEqual(Object.keys(step.properties))
      expect(step.additionalProperties).toBe(false)
      expect(step.properties.uses.anyOf).toContainEqual({ type: "null" })
      expect(conversion.validation!.valid).toBe(true)
      expect(conversion.repair!.attempted).toBe(false)
      expect(conversion.resultMetadata).toMatchObject({ provider: "openai-compatible", model: "fake-model", modelTier: "cheap" })
      expect(conversion.usage).toEqual({ inputTokens: 100, outputTokens: 50, totalTokens: 150 })
      expect(conversion.missingRequirements.map((m) => m.code)).toContain("no_rollback")
      expect(conversion.blockMapping.map((b) => b.block)).toEqual(expect.arrayContaining(["steps.0", "steps.1", "guardrails.0"]))
      const charged = started.creditCost.credits
      expect(conversion.reconciliation).toMatchObject({ status: charged > 1 ? "refunded" : "matched", actualCredits: 1 })
      expect(conversion.finalChargedCredits).toBe(1)
      expect(credits.balance).toBe(99)
      const out = yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/files/${conversion.outputFileId}`, { token }))
      const validated = validateText(out.body.data.content, { sources: [{ path: "SKILL.md", content: DEPLOY_SKILL }] })
      expect(validated.valid).toBe(true)
      // nulls from strict output never reach the file
      expect(out.body.data.content).not.toContain("null")
      expect(JSON.stringify(conversion)).not.toContain("chatcmpl-")
    }))

  it.effect("invalid output gets one repair: the model is shown the validator's issues and its answer is saved", () =>
    Effect.gen(function*() {
      fake.reset()
      fake.setFallback(undefined)
      let calls = 0
      fake.setFallback((request) => {
        calls++
        return FakeOpenAi.jsonReply(flowFor(sourceOf(request), { emptyCheck: calls === 1 }), SMALL)
      })
      const { job, conversion } = yield* runConversion("repaired")
      expect(job.state).toBe("completed")
      expect(fake.requests).toHaveLength(2)
      const repairMessages = fake.requests[1]!.body.messages as Array<{ role: string; content: string }>
      expect(repairMessages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"])
      expect(repairMessages[3]!.content).toContain("missing_check")
      expect(repairMessages[3]!.content).toContain("steps.0.check")
      expect(conversion.repair).toMatchObject({ attempted: true, succeeded: true })
      expect(conversion.repair!.issuesBefore.map((i) => i.code)).toContain("missing_check")
      expect(conversion.validation!.valid).toBe(true)
      expect(conversion.usage).toEqual({ inputTokens: 200, outputTokens: 100, totalTokens: 300 })
    }))

  it.effect("output still invalid after the repair: failed, nothing saved, issues kept, only the used credits kept", () =>
    Effect.gen(function*() {
      fake.reset()
      fake.setFallback(converter(SMALL, { emptyCheck: true }))
      const { job, conversion, credits, started, bundleId } = yield* runConversion("hopeless")
      expect(job.state).toBe("failed")
      expect(job.error!.code).toBe("conversion_invalid")
      expect(fake.requests).toHaveLength(2)
      expect(conversion.status).toBe("failed")
      expect(conversion.outputFileId).toBeNull()
      expect(conversion.validation!.valid).toBe(false)
      expect(conversion.validation!.issues.map((i) => i.code)).toContain("missing_check")
      expect(conversion.repair).toMatchObject({ attempted: true, succeeded: false })
      expect(yield* count("file_versions", `artifact_bundle_id = '${bundleId}' AND source = 'rubr_flow_conversion'`)).toBe(0)
      // two small calls cost 1 credit; the rest of the estimate comes back, once
      const charged = started.creditCost.credits
      const refunds = credits.ledger.filter((e) => e.type === "refund")
      expect(refunds).toHaveLength(charged > 1 ? 1 : 0)
      if (charged > 1) expect(refunds[0].amount).toBe(charged - 1)
      expect(credits.balance).toBe(99)
    }))

  it.effect("a provider error is a safe job error and the credits come back in full, once", () =>
    Effect.gen(function*() {
      fake.reset()
      fake.setFallback(() => FakeOpenAi.errorReply(500))
      const { job, conversion, credits } = yield* runConversion("unlucky")
      expect(job.state).toBe("failed")
      expect(job.error!.code).toMatch(/^provider_/)
      expect(JSON.stringify(job)).not.toContain("secret-internal-detail")
      expect(conversion.status).toBe("failed")
      expect(conversion.error!.code).toBe(job.error!.code)
      expect(JSON.stringify(conversion)).not.toContain("secret-internal-detail")
      expect(credits.balance).toBe(100)
      expect(credits.ledger.filter((e) => e.type === "refund")).toHaveLength(1)
    }))

  it.effect("an unreadable answer is invalid output: repaired once, then failed with the issues", () =>
    Effect.gen(function*() {
      fake.reset()
      fake.setFallback(() => ({ json: FakeOpenAi.completion("I cannot produce JSON today.", { usage: SMALL }) }))
      const { job, conversion } = yield* runConversion("prose")
      expect(job.state).toBe("failed")
      expect(job.error!.code).toBe("conversion_invalid")
      expect(conversion.remainingRisks.map((r) => r.code)).toContain("model_answer_unreadable")
      expect(conversion.validation!.issues.some((i) => i.code === "unsupported_version" || i.code === "missing_field")).toBe(true)
    }))
})
