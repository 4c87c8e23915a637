/**
 * The real AI reviewer (src/review/openai) against a fake OpenAI-compatible server on loopback:
 * request shape, decoding into ReviewResult, usage, frontmatter restoration, error mapping, timeout,
 * and the reviewer contract.
 */
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Exit, Layer } from "effect"
import { AppConfig } from "../../src/config/AppConfig.js"
import { AiReviewer } from "../../src/review/AiReviewer.js"
import { AiProviderError } from "../../src/ai/ProviderError.js"
import { isReasoningModel, layerWithoutHttpClient, OpenAiReviewerLive } from "../../src/review/openai/OpenAiReviewer.js"
import { frontmatterBlock, restoreFrontmatter } from "../../src/review/openai/Frontmatter.js"
import type { ReviewInput } from "../../src/review/Types.js"
import * as FakeOpenAi from "../support/FakeOpenAi.js"
import { bundleInput, checkResult, fileInput, reviewerContract, SKILL_FRONTMATTER, skillFile } from "./reviewerContract.js"

// ---------------------------------------------------------------------------------------------------
// Wiring
// ---------------------------------------------------------------------------------------------------

const configLayer = (env: Record<string, string>) =>
  AppConfig.layer.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))

const baseEnv = (baseUrl: string): Record<string, string> => ({
  SERVICE_AI_ENABLED: "true",
  SERVICE_AI_BASE_URL: baseUrl,
  SERVICE_AI_API_KEY: "sk-test-123",
  SERVICE_AI_MODEL: "gpt-4o-mini"
})

const reviewerLayer = (baseUrl: string, env: Record<string, string> = {}) =>
  OpenAiReviewerLive.pipe(Layer.provide(configLayer({ ...baseEnv(baseUrl), ...env })))

class Fake extends Context.Tag("test/FakeOpenAi")<Fake, FakeOpenAi.FakeOpenAi>() {}

/** Review with a reviewer built for this call (per-test settings). */
const reviewWith = (input: ReviewInput, env: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const fake = yield* Fake
    return yield* Effect.flatMap(AiReviewer, (r) => r.review(input)).pipe(
      Effect.provide(Layer.orDie(reviewerLayer(fake.baseUrl, env)))
    )
  })

const reviewError = (input: ReviewInput, env: Record<string, string> = {}) =>
  reviewWith(input, env).pipe(Effect.flip)

// ---------------------------------------------------------------------------------------------------
// Scripted answers
// ---------------------------------------------------------------------------------------------------

const improvedSkillBody = [
  "# Release notes",
  "",
  "Write release notes for a tagged release of the project.",
  "",
  "Use [the template](templates/notes.md).",
  "",
  "1. Run `scripts/commits.sh v1.2.0` to list the commits since the last tag.",
  "2. Group them under Added and Fixed.",
  ""
].join("\n")

/** A good, complete review for the contract fixtures. */
const goodReview = (mode: "file" | "bundle") => ({
  scores: [
    { key: "frontmatter", score: 90, rationale: "Valid and closed." },
    { key: "description", score: 40, rationale: "Does not say when to use the skill." },
    { key: "steps", score: 30, rationale: "Bullets, not a numbered procedure." },
    { key: "examples", score: 10, rationale: "No examples." },
    { key: "references", score: 50, rationale: "docs/style.md does not exist." },
    { key: "clarity", score: 55, rationale: "Vague wording." }
  ],
  findings: [
    {
      criterionKey: "references",
      severity: "major",
      filePath: "SKILL.md",
      lineStart: 11,
      lineEnd: 11,
      message: "docs/style.md is not in the bundle.",
      suggestion: "Remove the link or add the file."
    },
    {
      criterionKey: "clarity",
      severity: "minor",
      filePath: "SKILL.md",
      lineStart: 9,
      lineEnd: 9,
      message: "\"as needed, etc.\" is vague.",
      suggestion: "Say when release notes are written."
    }
  ],
  improvedFiles: [
    {
      path: "SKILL.md",
      content: SKILL_FRONTMATTER + improvedSkillBody,
      changes: ["Removed the dangling link to docs/style.md.", "Turned the bullets into numbered steps."]
    },
    ...(mode === "bundle"
      ? [{ path: "templates/notes.md", content: "# v{{version}}\n\n## Added\n\n## Changed\n\n## Fixed\n", changes: ["Added a Changed section."] }]
      : [])
  ],
  evalCases: [
    {
      name: "Writes notes for a tag",
      type: "standard",
      input: "Write release notes for v1.2.0",
      expectedBehavior: "Runs the commit script and fills the template.",
      passCriteria: "Notes have Added and Fixed sections."
    },
    {
      name: "No commits",
      type: "scenario",
      input: "Write release notes; there are no new commits",
      expectedBehavior: "Says there is nothing to release.",
      passCriteria: "No empty sections."
    }
  ]
})

const modeOf = (request: FakeOpenAi.RecordedRequest): "file" | "bundle" =>
  String(request.body?.messages?.[1]?.content ?? "").includes("Mode: bundle") ? "bundle" : "file"

const goodResponder: FakeOpenAi.Responder = (request) => FakeOpenAi.jsonReply(goodReview(modeOf(request)))

const FakeLive = Layer.scoped(Fake, FakeOpenAi.make())

// ---------------------------------------------------------------------------------------------------
// The contract, with the fake answering good reviews
// ---------------------------------------------------------------------------------------------------

reviewerContract(
  "openai-compatible (fake server)",
  Layer.unwrapScoped(Effect.map(FakeOpenAi.make(goodResponder), (fake) => reviewerLayer(fake.baseUrl))),
  { improvesFixture: true }
)

// ---------------------------------------------------------------------------------------------------
// Behaviour
// ---------------------------------------------------------------------------------------------------

describe("OpenAI-compatible reviewer", () => {
  layer(FakeLive, { excludeTestServices: true })((it) => {
    const fresh = Effect.map(Fake, (fake) => {
      fake.reset()
      fake.setFallback(undefined)
      return fake
    })

    it.effect("sends a chat-completions request: model, messages, bearer auth, json_schema response_format", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue(FakeOpenAi.jsonReply(goodReview("file")))
        yield* reviewWith(fileInput("standard", "medium"))
        expect(fake.requests).toHaveLength(1)
        const req = fake.requests[0]
        expect(req.method).toBe("POST")
        expect(req.url).toBe("/v1/chat/completions")
        expect(req.headers.authorization).toBe("Bearer sk-test-123")
        expect(req.headers["content-type"]).toContain("application/json")
        expect(req.body.model).toBe("gpt-4o-mini")
        expect(req.body.stream).toBe(false)
        // gpt-4o-mini is not a reasoning model: no reasoning_effort (it would answer 400)
        expect(req.body).not.toHaveProperty("reasoning_effort")
        expect(req.body.messages.map((m: any) => m.role)).toEqual(["system", "user"])
        const system: string = req.body.messages[0].content
        expect(system).toContain("JSON")
        const user: string = req.body.messages[1].content
        expect(user).toContain("Artifact type: skill")
        expect(user).toContain("Rubric skill vcontract-1")
        expect(user).toContain("- description | Description | 3 | ")
        expect(user).toContain("=== FILE SKILL.md (under review) ===")
        expect(user).toMatch(/^ 1\| ---$/m)
        expect(user).toMatch(/^11\| See \[the template\]/m)
        expect(user).toContain("=== FILE templates/notes.md (context) ===")
        const format = req.body.response_format
        expect(format.type).toBe("json_schema")
        expect(format.json_schema.name).toBe("rubr_review")
        expect(format.json_schema.strict).toBe(true)
        expect(format.json_schema.schema.type).toBe("object")
        expect(format.json_schema.schema.required).toEqual(["scores", "findings", "improvedFiles", "evalCases"])
        expect(format.json_schema.schema.additionalProperties).toBe(false)
        expect(format.json_schema.schema).not.toHaveProperty("$schema")
      }))

    it.effect("decodes the answer into a ReviewResult with provider info and usage", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue(FakeOpenAi.jsonReply(goodReview("file"), { prompt_tokens: 1234, completion_tokens: 567 }))
        const input = fileInput("cheap", "low")
        const result = yield* reviewWith(input)
        checkResult(input, result)
        expect(result.provider).toEqual({
          provider: "openai-compatible",
          model: "gpt-4o-mini",
          modelTier: "cheap",
          reasoningEffort: "low"
        })
        expect(result.usage).toEqual({ inputTokens: 1234, outputTokens: 567, totalTokens: 1801 })
        // weights 2,3,2,1,1,1 over scores 90,40,30,10,50,55
        expect(result.overallScore).toBe(Math.round(((2 * 90 + 3 * 40 + 2 * 30 + 10 + 50 + 55) / 10) * 10) / 10)
        expect(result.scores.find((s) => s.key === "description")).toEqual({
          key: "description",
          label: "Description",
          weight: 3,
          score: 40,
          rationale: "Does not say when to use the skill."
        })
        expect(result.findings).toHaveLength(2)
        expect(result.findings[0]).toMatchObject({ filePath: "SKILL.md", lineStart: 11, lineEnd: 11, severity: "major" })
        expect(result.improvedVersion?.path).toBe("SKILL.md")
        expect(result.improvedVersion?.content).toBe(SKILL_FRONTMATTER + improvedSkillBody)
        expect(result.improvedFiles).toEqual([])
        expect(result.evalKit.cases.map((c) => c.type)).toEqual(["standard", "scenario"])
      }))

    it.effect("records usage as null when the server reports none", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue(FakeOpenAi.jsonReply(goodReview("file"), null))
        const result = yield* reviewWith(fileInput())
        expect(result.usage).toBeNull()
      }))

    it.effect("clamps scores, computes the overall score itself, keeps findings on known files and lines", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        const answer = goodReview("file")
        const scripted = {
          ...answer,
          overallScore: 3, // not part of the schema's answer: ignored
          scores: answer.scores.map((s) =>
            s.key === "frontmatter" ? { ...s, score: 140 } : s.key === "examples" ? { ...s, score: -5 } : s
          ).concat([{ key: "not-a-criterion", score: 50, rationale: "extra" }]),
          findings: [
            ...answer.findings,
            { ...answer.findings[0], filePath: "missing.md", message: "on a file that does not exist" },
            { ...answer.findings[0], criterionKey: "made-up", message: "unknown criterion" },
            { ...answer.findings[0], lineStart: 400, lineEnd: 2, message: "past the end, reversed" }
          ]
        }
        fake.enqueue(FakeOpenAi.jsonReply(scripted))
        const input = fileInput()
        const result = yield* reviewWith(input)
        checkResult(input, result)
        expect(result.scores.find((s) => s.key === "frontmatter")?.score).toBe(100)
        expect(result.scores.find((s) => s.key === "examples")?.score).toBe(0)
        expect(result.scores.map((s) => s.key)).not.toContain("not-a-criterion")
        expect(result.overallScore).toBe(Math.round(((2 * 100 + 3 * 40 + 2 * 30 + 0 + 50 + 55) / 10) * 10) / 10)
        expect(result.findings.map((f) => f.message)).toEqual([
          "docs/style.md is not in the bundle.",
          "\"as needed, etc.\" is vague.",
          "past the end, reversed"
        ])
        const clamped = result.findings[2]
        expect(clamped.lineStart).toBe(2)
        expect(clamped.lineEnd).toBe(14) // SKILL.md has 14 lines
      }))

    it.effect("gives findings stable ids: the same answer twice yields the same ids", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue(FakeOpenAi.jsonReply(goodReview("file")), FakeOpenAi.jsonReply(goodReview("file")))
        const a = yield* reviewWith(fileInput())
        const b = yield* reviewWith(fileInput())
        expect(a.findings.map((f) => f.id)).toEqual(b.findings.map((f) => f.id))
        expect(a.evalKit.cases.map((c) => c.id)).toEqual(b.evalKit.cases.map((c) => c.id))
        for (const f of a.findings) expect(f.id).toMatch(/^f_[0-9a-f]{12}$/)
        expect(new Set(a.findings.map((f) => f.id)).size).toBe(a.findings.length)
      }))

    it.effect("restores the original frontmatter when the model edits or drops it, and says so", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        const edited = goodReview("file")
        edited.improvedFiles[0] = {
          ...edited.improvedFiles[0],
          content: SKILL_FRONTMATTER.replace("Writes release notes.", "Writes release notes. Use when tagging.") +
            improvedSkillBody
        }
        const dropped = goodReview("file")
        dropped.improvedFiles[0] = { ...dropped.improvedFiles[0], content: improvedSkillBody }
        fake.enqueue(FakeOpenAi.jsonReply(edited), FakeOpenAi.jsonReply(dropped))
        for (let i = 0; i < 2; i++) {
          const result = yield* reviewWith(fileInput())
          expect(result.improvedVersion?.content).toBe(SKILL_FRONTMATTER + improvedSkillBody)
          expect(result.improvedVersion?.changes.at(-1)).toMatch(/original frontmatter/)
        }
      }))

    it.effect("file mode keeps only the target as improved version; bundle mode maps every reviewed file", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        const fileAnswer = goodReview("bundle") // also rewrites a context file: ignored in file mode
        fake.enqueue(FakeOpenAi.jsonReply(fileAnswer), FakeOpenAi.jsonReply(goodReview("bundle")))
        const file = yield* reviewWith(fileInput())
        expect(file.improvedVersion?.path).toBe("SKILL.md")
        expect(file.improvedFiles).toEqual([])
        const bundle = yield* reviewWith(bundleInput())
        checkResult(bundleInput(), bundle)
        expect(bundle.improvedVersion).toBeNull()
        expect(bundle.improvedFiles.map((f) => f.path)).toEqual(["SKILL.md", "templates/notes.md"])
        const user: string = fake.requests[1].body.messages[1].content
        expect(user).toContain("Mode: bundle")
        expect(user).toContain("=== FILE templates/notes.md (under review) ===")
      }))

    it.effect("an unchanged 'improved' file is not an improvement", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        const answer = goodReview("file")
        answer.improvedFiles[0] = { ...answer.improvedFiles[0], content: skillFile.content }
        fake.enqueue(FakeOpenAi.jsonReply(answer))
        const result = yield* reviewWith(fileInput())
        expect(result.improvedVersion).toBeNull()
      }))

    it.effect("accepts JSON wrapped in a code fence", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue({ json: FakeOpenAi.completion("```json\n" + JSON.stringify(goodReview("file")) + "\n```") })
        const result = yield* reviewWith(fileInput())
        expect(result.scores).toHaveLength(6)
      }))

    it.effect("retries once on an invalid answer, asking for valid JSON, and sums the usage", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        const incomplete = { ...goodReview("file"), scores: goodReview("file").scores.slice(1) }
        fake.enqueue(
          FakeOpenAi.jsonReply(incomplete, { prompt_tokens: 100, completion_tokens: 10 }),
          FakeOpenAi.jsonReply(goodReview("file"), { prompt_tokens: 200, completion_tokens: 20 })
        )
        const result = yield* reviewWith(fileInput())
        expect(fake.requests).toHaveLength(2)
        const retry = fake.requests[1].body.messages
        expect(retry.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "user"])
        expect(retry[3].content).toContain("scores are missing for the criteria: frontmatter")
        expect(retry[3].content).toContain("valid JSON")
        expect(result.usage).toEqual({ inputTokens: 300, outputTokens: 30, totalTokens: 330 })
      }))

    it.effect("the retry prompt names the fields that did not match the schema", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        const bad = goodReview("file")
        const wrong = { ...bad, findings: [{ ...bad.findings[0], severity: "blocker SECRET-RAW" }], evalCases: undefined }
        fake.enqueue(FakeOpenAi.jsonReply(wrong), FakeOpenAi.jsonReply(goodReview("file")))
        yield* reviewWith(fileInput())
        const problem: string = fake.requests[1].body.messages[3].content
        expect(problem).toContain("findings.0.severity")
        expect(problem).toContain("evalCases: is missing")
        expect(problem).not.toContain("SECRET-RAW")
      }))

    it.effect("invalid output twice: provider_invalid_output, workDone, no raw output in the message", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue(
          { json: FakeOpenAi.completion("Sure! Here is my SECRET-RAW review: great skill") },
          { json: FakeOpenAi.completion("{\"scores\": [SECRET-RAW") }
        )
        const error = yield* reviewError(fileInput())
        expect(error).toBeInstanceOf(AiProviderError)
        expect(error.code).toBe("provider_invalid_output")
        expect(error.workDone).toBe(true)
        expect(error.message).not.toContain("SECRET-RAW")
        expect(fake.requests).toHaveLength(2)
      }))

    it.effect("a non-JSON response body is provider_invalid_output", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue({ raw: "<html>SECRET-RAW gateway page</html>" })
        const error = yield* reviewError(fileInput())
        expect(error.code).toBe("provider_invalid_output")
        expect(error.message).not.toContain("SECRET-RAW")
      }))

    it.effect("HTTP 500: provider_error, no work done, provider message never exposed", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue(FakeOpenAi.errorReply(500))
        const error = yield* reviewError(fileInput())
        expect(error).toMatchObject({ _tag: "AiProviderError", code: "provider_error", workDone: false })
        expect(error.message).toContain("HTTP 500")
        expect(error.message).not.toContain("secret-internal-detail")
        expect(fake.requests).toHaveLength(1) // HTTP errors are not retried here (the job layer decides)
      }))

    it.effect("HTTP 429 and 503: provider_unavailable; 401: provider_error", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue(FakeOpenAi.errorReply(429), FakeOpenAi.errorReply(503), FakeOpenAi.errorReply(401))
        const e429 = yield* reviewError(fileInput())
        expect(e429).toMatchObject({ code: "provider_unavailable", workDone: false })
        expect(e429.message).toContain("429")
        const e503 = yield* reviewError(fileInput())
        expect(e503).toMatchObject({ code: "provider_unavailable", workDone: false })
        const e401 = yield* reviewError(fileInput())
        expect(e401).toMatchObject({ code: "provider_error", workDone: false })
        expect(e401.message).toContain("credentials")
      }))

    it.effect("an error on the retry still reports the work done by the first attempt", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue({ json: FakeOpenAi.completion("not json") }, FakeOpenAi.errorReply(500))
        const error = yield* reviewError(fileInput())
        expect(error).toMatchObject({ code: "provider_error", workDone: true })
      }))

    it.effect("times out after SERVICE_AI_TIMEOUT_MS: provider_timeout", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue({ ...FakeOpenAi.jsonReply(goodReview("file")), delayMs: 5_000 })
        const started = Date.now()
        const error = yield* reviewError(fileInput(), { SERVICE_AI_TIMEOUT_MS: "300" })
        const elapsed = Date.now() - started
        expect(error).toMatchObject({ code: "provider_timeout", workDone: false })
        expect(error.message).toContain("300 ms")
        expect(elapsed).toBeLessThan(3_000)
      }))

    it.effect("an unreachable endpoint is provider_unavailable", () =>
      Effect.gen(function*() {
        const exit = yield* Effect.flatMap(AiReviewer, (r) => r.review(fileInput())).pipe(
          Effect.provide(Layer.orDie(reviewerLayer("http://127.0.0.1:1/v1"))),
          Effect.exit
        )
        expect(Exit.isFailure(exit)).toBe(true)
        if (Exit.isFailure(exit) && exit.cause._tag === "Fail") {
          expect(exit.cause.error).toMatchObject({ code: "provider_unavailable", workDone: false })
        } else {
          expect.fail("expected a typed failure")
        }
      }))

    it.effect("model tiers map to SERVICE_AI_MODEL_<TIER>; reasoning models get reasoning_effort", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.setFallback(goodResponder)
        const env = { SERVICE_AI_MODEL_PREMIUM: "o4-mini", SERVICE_AI_MODEL_CHEAP: "gpt-4.1-nano" }
        const premium = yield* reviewWith(fileInput("premium", "high"), env)
        const cheap = yield* reviewWith(fileInput("cheap", "low"), env)
        const standard = yield* reviewWith(fileInput("standard", "medium"), env)
        expect(fake.requests.map((r) => r.body.model)).toEqual(["o4-mini", "gpt-4.1-nano", "gpt-4o-mini"])
        expect(fake.requests[0].body.reasoning_effort).toBe("high")
        expect(fake.requests[1].body).not.toHaveProperty("reasoning_effort")
        expect(premium.provider).toMatchObject({ model: "o4-mini", modelTier: "premium", reasoningEffort: "high" })
        expect(cheap.provider.model).toBe("gpt-4.1-nano")
        expect(standard.provider.model).toBe("gpt-4o-mini")
      }))

    it.effect("SERVICE_AI_REASONING_EFFORT_PARAM and SERVICE_AI_RESPONSE_FORMAT switch the request", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.setFallback(goodResponder)
        yield* reviewWith(fileInput("standard", "low"), {
          SERVICE_AI_REASONING_EFFORT_PARAM: "always",
          SERVICE_AI_RESPONSE_FORMAT: "json_object"
        })
        yield* reviewWith(fileInput("premium", "high"), {
          SERVICE_AI_MODEL: "o3",
          SERVICE_AI_REASONING_EFFORT_PARAM: "never",
          SERVICE_AI_RESPONSE_FORMAT: "none"
        })
        expect(fake.requests[0].body.reasoning_effort).toBe("low")
        expect(fake.requests[0].body.response_format).toEqual({ type: "json_object" })
        expect(fake.requests[1].body).not.toHaveProperty("reasoning_effort")
        expect(fake.requests[1].body).not.toHaveProperty("response_format")
      }))

    it.effect("an empty SERVICE_AI_API_KEY sends no Authorization header (local servers)", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue(FakeOpenAi.jsonReply(goodReview("file")))
        yield* reviewWith(fileInput(), { SERVICE_AI_API_KEY: "" })
        expect(fake.requests[0].headers.authorization).toBeUndefined()
      }))

    it.effect("a base URL with a trailing slash still hits /v1/chat/completions", () =>
      Effect.gen(function*() {
        const fake = yield* fresh
        fake.enqueue(FakeOpenAi.jsonReply(goodReview("file")))
        yield* Effect.flatMap(AiReviewer, (r) => r.review(fileInput())).pipe(
          Effect.provide(
            layerWithoutHttpClient.pipe(
              Layer.provide(configLayer({ ...baseEnv(fake.baseUrl + "/") })),
              Layer.provide(FetchHttpClient.layer)
            )
          )
        )
        expect(fake.requests[0].url).toBe("/v1/chat/completions")
      }))
  })
})

describe("helpers", () => {
  it("restoreFrontmatter keeps the original block byte for byte", () => {
    const original = "---\r\nname: x\r\n---\r\nbody\r\n"
    expect(frontmatterBlock(original)).toBe("---\r\nname: x\r\n---\r\n")
    expect(restoreFrontmatter(original, "---\nname: y\n---\nnew body\n")).toEqual({
      content: "---\r\nname: x\r\n---\r\nnew body\n",
      restored: true
    })
    expect(restoreFrontmatter(original, "---\r\nname: x\r\n---\r\nnew\r\n")).toEqual({
      content: "---\r\nname: x\r\n---\r\nnew\r\n",
      restored: false
    })
    expect(restoreFrontmatter("no frontmatter\n", "---\na: b\n---\nx\n").restored).toBe(false)
    expect(restoreFrontmatter("---\na: b\n---", "changed").content).toBe("---\na: b\n---\nchanged")
  })

  it("isReasoningModel", () => {
    for (const m of ["o1", "o3-mini", "o4-mini", "gpt-5", "gpt-5-mini", "openai/o3"]) expect(isReasoningModel(m)).toBe(true)
    for (const m of ["gpt-4o-mini", "gpt-4.1", "llama3.1:8b", "qwen2.5"]) expect(isReasoningModel(m)).toBe(false)
  })
})
