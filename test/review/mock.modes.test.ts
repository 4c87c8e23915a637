/** Bundle mode, every artifact type, custom rubrics and the AiReviewer layer. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { AiReviewer } from "../../src/review/AiReviewer.js"
import { MockReviewerLive, reviewWithMock } from "../../src/review/mock/MockReviewer.js"
import { decodeCustomRubric, getRubric } from "../../src/review/rubrics/Registry.js"
import type { ArtifactType } from "../../src/domain/Artifact.js"
import type { ReviewInput } from "../../src/review/Types.js"
import { file, fileInput, lineOf, rubricFor, SAMPLE_SKILL, sampleBundle, scoreOf } from "./support.js"

const AGENTS_MD = `# Acme API

This repository holds the Acme billing API, a TypeScript service on PostgreSQL.

## Setup

\`\`\`bash
npm install
npm run build
\`\`\`

## Testing

- Run \`npm test\` before every commit; all tests must pass.
- Run \`npm run lint\` and fix every warning.

## Rules

- Never commit secrets or \`.env\` files.
- Do not edit generated files under \`src/gen/\`.
- Ask before adding a dependency.
`

const PROMPT = `You are a support triage assistant. Your task is to classify one customer email.

<email>
{{email_body}}
</email>

## Rules

- Only use the categories listed below; never invent one.
- Do not answer the customer.

## Output format

Respond with JSON only:

\`\`\`json
{"category": "billing" | "bug" | "feature", "confidence": 0.0}
\`\`\`

## Example

Input: "I was charged twice this month." Output: {"category": "billing", "confidence": 0.9}
`

const COMMAND = `---
description: Create a git commit with a conventional message for the staged changes
argument-hint: [scope]
---

Write a commit for the staged changes in scope $ARGUMENTS.

1. Run \`git diff --staged\` to read the changes.
2. Summarize the change in one imperative line under 72 characters.
3. Run \`git commit -m "<type>(<scope>): <summary>"\`.

## Output

Print the commit hash and the message.

Example: \`feat(api): add CSV export\`
`

const WORKFLOW = `# Release workflow

Ship a new version of the CLI to npm after the main branch is green.

## Inputs

- \`version\`: the semver version to release.

## Steps

1. Check that CI on main is green.
2. Run \`npm version $version\`.
3. Run \`npm publish\`.
4. Verify the package page shows the new version.

## If something fails

If publishing fails, run \`npm unpublish\` within 72 hours and ask the maintainer before retrying.
`

const RUBR_FLOW = `# rubr_flow: triage-issue

Goal: label and route one new GitHub issue.

## Inputs

- issue: the issue number

## Steps

1. Read the issue title and body.
2. Apply exactly one type label.
3. Assign the owning team.

## Verification

- Check that the issue has one type label and an assignee.

## On failure

If the team cannot be determined, stop and ask the maintainer.
`

const SAMPLES: Record<Exclude<ArtifactType, "skill">, { path: string; good: string; bad: string }> = {
  agent: { path: "AGENTS.md", good: AGENTS_MD, bad: "# Notes\n\nBe careful with the code and do things properly.\n" },
  prompt: { path: "prompt.md", good: PROMPT, bad: "Summarize some stuff about the document etc.\n" },
  command: { path: "commit.md", good: COMMAND, bad: "Make a commit.\n" },
  workflow: { path: "workflow.md", good: WORKFLOW, bad: "# Release\n\nRelease the thing when ready.\n" },
  rubr_flow: { path: "triage.rubr_flow", good: RUBR_FLOW, bad: "Triage issues.\n" }
}

describe("artifact types", () => {
  for (const [type, sample] of Object.entries(SAMPLES) as Array<[Exclude<ArtifactType, "skill">, (typeof SAMPLES)["agent"]]>) {
    it(`${type}: a well-formed artifact scores high and a thin one scores low, against the ${type} rubric`, () => {
      const good = reviewWithMock(fileInput(file(sample.path, sample.good, true), [], type))
      const bad = reviewWithMock(fileInput(file(sample.path, sample.bad, true), [], type))
      expect(good.scores.map((s) => s.key)).toEqual(rubricFor(type).criteria.map((c) => c.key))
      expect(good.overallScore).toBeGreaterThanOrEqual(85)
      expect(bad.overallScore).toBeLessThan(70)
      expect(bad.findings.filter((f) => f.severity === "critical" || f.severity === "major").length).toBeGreaterThan(0)
      expect(good.findings.filter((f) => f.severity === "critical" || f.severity === "major")).toEqual([])
      expect(bad.evalKit.cases.length).toBeGreaterThan(0)
    })
  }

  it("agent: a missing test command is a major finding", () => {
    const r = reviewWithMock(fileInput(file("AGENTS.md", AGENTS_MD.replace(/^- Run `npm test`.*\n/m, ""), true), [], "agent"))
    expect(r.findings.find((f) => f.id.startsWith("commands.no_test"))?.severity).toBe("major")
    expect(scoreOf(r, "commands")).toBe(75)
  })

  it("agent: repository paths that are not in the bundle are not reported as dangling bundle files", () => {
    const r = reviewWithMock(fileInput(file("AGENTS.md", `${AGENTS_MD}\nSee \`src/billing/invoice.ts\` for the invoice model.\n`, true), [], "agent"))
    expect(r.findings.filter((f) => f.criterionKey === "references")).toEqual([])
  })

  it("prompt: a missing output format is found", () => {
    const r = reviewWithMock(fileInput(file("prompt.md", PROMPT.replace(/## Output format[\s\S]*?```\n\n/, ""), true), [], "prompt"))
    expect(r.findings.some((f) => f.criterionKey === "output_format" && f.severity !== "info")).toBe(true)
  })

  it("command: argument-hint without $ARGUMENTS is flagged at the hint's line", () => {
    const content = COMMAND.replace(" in scope $ARGUMENTS", "")
    const r = reviewWithMock(fileInput(file("commit.md", content, true), [], "command"))
    expect(r.findings.find((f) => f.id.startsWith("inputs.hint_unused"))?.lineStart).toBe(lineOf(content, "argument-hint"))
  })

  it("workflow: removing the failure handling and verification lowers those criteria", () => {
    const content = WORKFLOW.replace(/## If something fails[\s\S]*$/, "").replace("4. Verify the package page shows the new version.\n", "")
    const r = reviewWithMock(fileInput(file("workflow.md", content, true), [], "workflow"))
    expect(scoreOf(r, "error_handling")).toBeLessThan(100)
    expect(scoreOf(r, "verification")).toBeLessThan(100)
  })

  it("a skill reviewed with another type's rubric is scored on that rubric's criteria", () => {
    const files = sampleBundle()
    const r = reviewWithMock({ ...fileInput(files[0]!, files), rubric: rubricFor("workflow") })
    expect(r.scores.map((s) => s.key)).toEqual(rubricFor("workflow").criteria.map((c) => c.key))
  })
})

describe("bundle mode", () => {
  const files = [
    file("prompts/summarize.md", "Maybe summarize the document in some way.\n\nYou are a summarizer. Respond with three bullet points.\n"),
    file("prompts/translate.md", "# Translate\n\nYou are a translator. Your task is to translate the text into French.\n\nRespond with the translation only. See [glossary](../glossary.md).\n"),
    file("glossary.md", "# Glossary\n\n- API: application programming interface\n"),
    file("data/cases.json", "{\"cases\": [1, 2,]}\n"),
    file("LICENSE", "MIT License\n")
  ]
  const input: ReviewInput = {
    mode: "bundle",
    artifactType: "prompt",
    rubric: rubricFor("prompt"),
    target: null,
    files,
    modelTier: "cheap",
    reasoningEffort: "low"
  }
  const r = reviewWithMock(input)

  it("reviews every instruction file, fills improvedFiles and leaves improvedVersion null", () => {
    expect(r.improvedVersion).toBeNull()
    const paths = new Set(r.findings.map((f) => f.filePath))
    expect(paths.has("prompts/summarize.md")).toBe(true)
    expect(paths.has("LICENSE")).toBe(false)
    const improved = r.improvedFiles.find((f) => f.path === "prompts/summarize.md")
    expect(improved?.content).toBe("Summarize the document in some way.\n\nYou are a summarizer. Respond with three bullet points.\n")
    expect(improved!.changes.length).toBeGreaterThan(0)
    expect(r.improvedFiles.every((f) => files.some((x) => x.path === f.path && x.content !== f.content))).toBe(true)
  })

  it("reports invalid JSON data files and resolves links between files", () => {
    expect(r.findings.find((f) => f.id.startsWith("formatting.invalid_json"))?.filePath).toBe("data/cases.json")
    expect(r.findings.filter((f) => f.criterionKey === "references")).toEqual([])
  })

  it("averages criterion scores over the files and echoes the tier and effort", () => {
    expect(r.scores.find((s) => s.key === "clarity")!.rationale).toMatch(/^mean over 3 files/)
    expect(r.provider).toEqual({ provider: "mock", model: "rubr-mock-1", modelTier: "cheap", reasoningEffort: "low" })
    expect(JSON.stringify(reviewWithMock(input))).toBe(JSON.stringify(r))
  })

  it("in bundle mode never adds frontmatter or sections, only content-preserving fixes", () => {
    const skillish = reviewWithMock({
      ...input,
      artifactType: "skill",
      rubric: rubricFor("skill"),
      files: [file("notes.md", "Some notes about the tool   \n"), file("other.md", "# Other\n\nText.\n")]
    })
    const notes = skillish.improvedFiles.find((f) => f.path === "notes.md")!
    expect(notes.content).toBe("Some notes about the tool\n")
    expect(skillish.findings.some((f) => f.filePath === "notes.md" && f.id.startsWith("frontmatter.missing"))).toBe(true)
  })
})

describe("custom rubrics", () => {
  const files = sampleBundle(SAMPLE_SKILL.replace("(reference/checklist.md)", "(reference/gone.md)").replace("Group the", "Try to group the"))

  it("scores exactly the custom criteria with their weights, and only fixes what they cover", () => {
    const rubric = Either.getOrThrow(
      decodeCustomRubric({ key: "links-only", criteria: [{ key: "references", weight: 3 }, { key: "name", weight: 1 }] }, "skill")
    )
    const r = reviewWithMock({ ...fileInput(files[0]!, files), rubric })
    expect(r.scores.map((s) => [s.key, s.weight])).toEqual([["references", 3], ["name", 1]])
    expect(r.overallScore).toBe(Math.round((10 * (3 * scoreOf(r, "references") + 100)) / 4) / 10)
    expect(r.findings.every((f) => f.criterionKey === "references" || f.criterionKey === "name")).toBe(true)
    const improved = r.improvedVersion!.content
    expect(improved).toContain("Try to group the")
    expect(improved).not.toContain("(reference/gone.md)")
  })

  it("a criterion the mock has no rule for gets the mean of the others and says so", () => {
    const rubric = { ...Option.getOrThrow(getRubric("skill")), criteria: [
      { key: "clarity", label: "Clarity", weight: 1, description: "" },
      { key: "tone", label: "Tone", weight: 1, description: "" }
    ] }
    const r = reviewWithMock({ ...fileInput(files[0]!, files), rubric })
    expect(scoreOf(r, "tone")).toBe(scoreOf(r, "clarity"))
    expect(r.scores.find((s) => s.key === "tone")!.rationale).toMatch(/no rule/)
  })
})

describe("MockReviewerLive", () => {
  it.effect("serves the AiReviewer tag with the same result as the pure function", () =>
    Effect.gen(function*() {
      const reviewer = yield* AiReviewer
      const files = sampleBundle()
      const input = fileInput(files[0]!, files)
      const result = yield* reviewer.review(input)
      expect(result).toEqual(reviewWithMock(input))
    }).pipe(Effect.provide(MockReviewerLive)))
})

describe("pathological input", () => {
  // A hang guard, not a speed goal (speed lives in `npm run bench`): catastrophic backtracking on these
  // lines takes minutes, and the test's timeout stops it.
  it("reviews long lines of brackets, angle brackets, backticks, slashes and comma-joined rules without super-linear blow-up", () => {
    for (const junk of ["[".repeat(40000), "<a ".repeat(30000), "`a ".repeat(30000), "a/".repeat(40000), "](".repeat(30000), "Always a, ".repeat(20000)]) {
      const r = reviewWithMock(fileInput(file("SKILL.md", `${SAMPLE_SKILL}${junk}\n`, true)))
      expect(r.overallScore).toBeGreaterThan(0)
    }
  }, 60_000)
})
