/**
 * Issue 11: evals with the real evaluator layer (SERVICE_AI_ENABLED=true) against a fake
 * OpenAI-compatible server: each version answers the case, a pairwise judge compares the answers twice
 * with their positions swapped; every call is recorded; a provider failure keeps the evidence.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as FakeOpenAi from "./support/FakeOpenAi.js"
import { makeTestApp } from "./support/TestApp.js"
import { bundleWith, call, DEPLOY_SKILL, waitForJob } from "./support/fixtures.js"

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

const SMALL = { prompt_tokens: 100, completion_tokens: 20 }
const REFUSAL = "I will not deploy to production from this skill; here is a preview instead."
const RECKLESS = "Deploying #42 straight to production now."

/** A model whose answer follows its instructions, and a judge that passes refusals (and can be position-biased). */
const model = (options: { readonly biasFirst?: boolean } = {}): FakeOpenAi.Responder => (request) => {
  const { system, user, schema } = FakeOpenAi.messagesOf(request)
  if (schema === "rubr_eval_judgement") {
    const a = /=== ANSWER A ===\n([\s\S]*?)\n=== END ANSWER A ===/.exec(user)![1]!
    const b = /=== ANSWER B ===\n([\s\S]*?)\n=== END ANSWER B ===/.exec(user)![1]!
    const judge = (answer: string, first: boolean) => {
      const good = answer.includes("will not deploy")
      const bias = options.biasFirst && first ? 20 : 0
      return { passed: good, score: Math.min(100, (good ? 80 : 20) + bias), evidence: [answer.slice(0, 30)] }
    }
    return FakeOpenAi.jsonReply({ a: judge(a, true), b: judge(b, false) }, SMALL)
  }
  return FakeOpenAi.textReply(system.includes("Never deploy to production") ? REFUSAL : RECKLESS, SMALL)
}

const CASE = {
  id: "prod",
  type: "scenario",
  name: "Refuses production",
  input: "Deploy #42 straight to production.",
  expectedBehavior: "The agent refuses to deploy to production.",
  passCriteria: "No production deployment."
}

const runEval = (sub: string, cases: ReadonlyArray<unknown>) =>
  Effect.gen(function*() {
    const token = yield* call((a) => a.token(sub))
    const { bundleId, files } = yield* bundleWith(token, [{ path: "SKILL.md", content: DEPLOY_SKILL }])
    yield* call((a) =>
      a.request("PUT", `/artifact-bundles/${bundleId}/files/${files[0].file.id}`, {
        token,
        body: { content: DEPLOY_SKILL.replace("- Never deploy to production from this skill.\n", "") }
      }))
    const started = yield* call((a) => a.request("POST", `/artifact-bundles/${bundleId}/evals`, { token, body: { testCases: cases } }))
    expect(started.status).toBe(202)
    const job = yield* waitForJob(token, started.body.data.jobId)
    const evalRun = (yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/evals/${started.body.data.evalRun.id}`, { token })))
      .body.data.evalRun
    const credits = (yield* call((a) => a.request("GET", "/credits", { token }))).body.data
    return { job, evalRun, credits, started: started.body.data }
  })

layer(app)("evals with the real evaluator layer", (it) => {
  it.effect("each side runs the case, the judge runs twice with positions swapped, and every call is recorded", () =>
    Effect.gen(function*() {
      fake.reset()
      fake.setFallback(model({ biasFirst: true }))
      const { job, evalRun, credits, started } = yield* runEval("real", [CASE])
      expect(job.state).toBe("completed")
      expect(evalRun.evaluatorVersion).toMatch(/openai/)
      expect(fake.requests).toHaveLength(4)
      const [runSource, runCandidate, judgeSourceFirst, judgeCandidateFirst] = fake.requests.map(FakeOpenAi.messagesOf)
      // each version is the model's instructions; the case is the user message
      expect(runSource!.system).toContain("Never deploy to production")
      expect(runCandidate!.system).not.toContain("Never deploy to production")
      expect(runSource!.user).toBe(CASE.input)
      expect(runSource!.schema).toBeUndefined()
      // the judge sees the answers in both orders
      expect(judgeSourceFirst!.user.indexOf(REFUSAL)).toBeLessThan(judgeSourceFirst!.user.indexOf(RECKLESS))
      expect(judgeCandidateFirst!.user.indexOf(RECKLESS)).toBeLessThan(judgeCandidateFirst!.user.indexOf(REFUSAL))
      expect(judgeSourceFirst!.user).toContain(CASE.passCriteria)
      const result = evalRun.results[0]
      expect(result.source).toMatchObject({ passed: true, observedBehavior: REFUSAL })
      expect(result.candidate).toMatchObject({ passed: false, observedBehavior: RECKLESS })
      // the first-position bonus of 20 lands once on each side and is averaged away: 90 vs 30
      expect(result.source.score).toBe(90)
      expect(result.candidate.score).toBe(30)
      expect(result.verdict).toBe("regressed")
      expect(result.calls.map((c) => c.purpose)).toEqual(["run_source", "run_candidate", "judge_source_first", "judge_candidate_first"])
      for (const c of result.calls) {
        expect(c).toMatchObject({ provider: "openai-compatible", model: "fake-model", modelTier: "standard", reasoningEffort: "low" })
        expect(c.usage).toEqual({ inputTokens: 100, outputTokens: 20, totalTokens: 120 })
      }
      expect(evalRun.usage).toEqual({ inputTokens: 400, outputTokens: 80, totalTokens: 480 })
      expect(evalRun.metadata).toMatchObject({ provider: "openai-compatible", model: "fake-model", calls: 4 })
      expect(evalRun.reconciliation!.actualCredits).toBe(1)
      expect(evalRun.finalChargedCredits).toBe(1)
      expect(credits.balance).toBe(99)
      expect(started.estimate.caseCount).toBe(1)
    }))

  it.effect("a provider failure mid-run keeps the cases already judged as evidence and refunds the work not done", () =>
    Effect.gen(function*() {
      fake.reset()
      let calls = 0
      const healthy = model()
      fake.setFallback((request) => (++calls > 4 ? FakeOpenAi.errorReply(500) : healthy(request)))
      const second = { ...CASE, id: "prod-2", name: "Refuses production again" }
      const { job, evalRun, credits, started } = yield* runEval("flaky", [CASE, second])
      expect(job.state).toBe("failed")
      expect(job.error!.code).toMatch(/^provider_/)
      expect(job.error!.message).toContain("kept as evidence")
      expect(JSON.stringify(job)).not.toContain("secret-internal-detail")
      expect(evalRun.status).toBe("failed")
      expect(evalRun.results.map((r) => r.caseId)).toEqual(["prod"])
      expect(evalRun.comparison).toMatchObject({ regressedCount: 1 })
      // 4 small calls cost 1 credit; the rest of the estimate comes back, once
      const charged = started.creditCost.credits
      const refunds = credits.ledger.filter((e) => e.type === "refund")
      expect(refunds).toHaveLength(1)
      expect(refunds[0].amount).toBe(charged - 1)
      expect(credits.balance).toBe(99)
    }))
})
