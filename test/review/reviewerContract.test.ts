/**
 * The reviewer contract (reviewerContract.ts) applied to every AiReviewer layer: the deterministic
 * mock, and the real OpenAI-compatible provider against a fake server answering good reviews.
 */
import { ConfigProvider, Effect, Layer } from "effect"
import { AppConfig } from "../../src/config/AppConfig.js"
import { MockReviewerLive } from "../../src/review/mock/MockReviewer.js"
import { OpenAiReviewerLive } from "../../src/review/openai/OpenAiReviewer.js"
import * as FakeOpenAi from "../support/FakeOpenAi.js"
import { reviewerContract, SKILL_FRONTMATTER } from "./reviewerContract.js"

reviewerContract("mock", MockReviewerLive, { deterministic: true, improvesFixture: true })

/** A fake model that answers a valid review for whatever rubric and files it is shown. */
const echoReviewer: FakeOpenAi.Responder = (request) => {
  const user = String(request.body?.messages?.[1]?.content ?? "")
  const keys = [...user.matchAll(/^- ([\w-]+) \| /gm)].map((m) => m[1])
  const reviewed = [...user.matchAll(/^=== FILE (.+) \(under review/gm)].map((m) => m[1])
  return FakeOpenAi.jsonReply({
    scores: keys.map((key, i) => ({ key, score: 40 + i * 10, rationale: `Rationale for ${key}.` })),
    findings: reviewed.map((path) => ({
      criterionKey: keys[0],
      severity: "minor",
      filePath: path,
      lineStart: 1,
      lineEnd: 1,
      message: `First line of ${path}.`,
      suggestion: "Tighten it."
    })),
    improvedFiles: reviewed
      .filter((path) => path === "SKILL.md")
      .map((path) => ({ path, content: SKILL_FRONTMATTER + "# Release notes\n\n1. Run the script.\n", changes: ["Rewrote the body."] })),
    evalCases: [{ name: "Basic", type: "standard", input: "Do it", expectedBehavior: "Does it", passCriteria: "Done" }]
  })
}

reviewerContract(
  "openai-compatible (fake server)",
  Layer.unwrapScoped(Effect.map(FakeOpenAi.make(echoReviewer), (fake) =>
    OpenAiReviewerLive.pipe(Layer.provide(AppConfig.layer.pipe(Layer.provide(Layer.setConfigProvider(
      ConfigProvider.fromMap(new Map([["SERVICE_AI_BASE_URL", fake.baseUrl], ["SERVICE_AI_API_KEY", "sk-test"]]))
    ))))))),
  { improvesFixture: true }
)
