/**
 * The mock converter (src/conversions/mock/): corpus skills convert to valid flows on the first try,
 * gh-fix-ci's structure survives the conversion, output is deterministic, and the repair pass fixes
 * what it can and refuses what it cannot. Pure: no database, no services.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { analyzeSources, assessFlow, blockMappingOf, planBlocks } from "../../src/conversions/Analysis.js"
import { RubrFlowConverter } from "../../src/conversions/Converter.js"
import { generateMock, MockConverterLive, repairMock } from "../../src/conversions/mock/MockConverter.js"
import type { ConversionDraft, ConversionInput, ConversionSource } from "../../src/conversions/Types.js"
import { parseSourceRef } from "../../src/rubr_flow/Format.js"
import { renderFlow } from "../../src/rubr_flow/Render.js"
import { lineCount, validateText, type ValidationResult } from "../../src/rubr_flow/Validator.js"
import { corpusPath } from "../support/Corpus.js"

const CORPUS_DIR = corpusPath("skills")
const corpusAvailable = fs.existsSync(CORPUS_DIR)

const sha = (content: string) => `sha256:${createHash("sha256").update(content, "utf8").digest("hex")}`

const source = (p: string, content: string, role: "artifact" | "context" = "artifact", artifactType = "skill"): ConversionSource => ({
  path: p,
  content,
  fileVersionId: `fv-${p}`,
  contentHash: sha(content),
  artifactType,
  role
})

const inputOf = (sources: ReadonlyArray<ConversionSource>, mode: "file" | "bundle" = "file", bundleName = "bundle"): ConversionInput => ({
  mode,
  sources,
  bundleName,
  modelTier: "standard",
  reasoningEffort: "medium"
})

const walk = (dir: string): Array<string> =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))

/** A corpus skill in file mode: SKILL.md is the artifact, the folder's other files its context. */
const corpusInput = (skill: string): ConversionInput => {
  const dir = path.join(CORPUS_DIR, skill)
  const files = walk(dir).map((p) => {
    const rel = path.relative(dir, p).split(path.sep).join("/")
    return source(rel, fs.readFileSync(p, "utf8"), rel === "SKILL.md" ? "artifact" : "context")
  })
  return inputOf(files, "file", skill)
}

interface Converted {
  readonly input: ConversionInput
  readonly draft: ConversionDraft
  readonly text: string
  readonly validation: ValidationResult
}

const validate = (input: ConversionInput, document: Record<string, unknown>) => {
  const text = renderFlow(document, { header: ["converted by the mock"] })
  const artifacts = input.sources.filter((s) => s.role === "artifact")
  return { text, validation: validateText(text, { sources: artifacts.map((s) => ({ path: s.path, content: s.content, contentHash: s.contentHash })) }) }
}

const convert = (input: ConversionInput): Converted => {
  const analysis = analyzeSources(input)
  const draft = generateMock(input, analysis, planBlocks(analysis))
  return { input, draft, ...validate(input, draft.document) }
}

/** Generate, and repair once when the draft is invalid (the pipeline's order). */
const convertAndRepair = (input: ConversionInput) => {
  const analysis = analyzeSources(input)
  const first = convert(input)
  const repaired = repairMock(input, analysis, first.draft, first.validation.issues)
  return { first, repaired, after: validate(input, repaired.document) }
}

const errors = (v: ValidationResult) => v.issues.filter((i) => i.severity === "error")
const codes = (v: ValidationResult) => [...new Set(v.issues.map((i) => i.code))].sort()
const arr = (x: unknown): Array<Record<string, unknown>> => (Array.isArray(x) ? (x as Array<Record<string, unknown>>) : [])
const linesOf = (text: string) => text.split("\n")

describe.skipIf(!corpusAvailable)("mock converter on the corpus skills", () => {
  const skills = corpusAvailable
    ? fs.readdirSync(CORPUS_DIR).filter((d) => fs.existsSync(path.join(CORPUS_DIR, d, "SKILL.md"))).sort()
    : []

  it("finds the six corpus skills", () => {
    expect(skills).toHaveLength(6)
  })

  for (const skill of skills) {
    it(`${skill}: a valid flow on the first try, with sources, checked steps and a mapping inside the source`, () => {
      const c = convert(corpusInput(skill))
      expect(errors(c.validation)).toEqual([])
      const doc = c.draft.document
      const skillMd = c.input.sources.find((s) => s.path === "SKILL.md")!
      expect(doc.sources).toEqual([{ path: "SKILL.md", content_hash: skillMd.contentHash, lines: lineCount(skillMd.content) }])
      const steps = arr(doc.steps)
      expect(steps.length).toBeGreaterThanOrEqual(3)
      for (const st of steps) {
        expect(String(st.check).trim()).not.toBe("")
        expect(String(st.check)).not.toBe(String(st.action))
        expect(String(st.from)).toMatch(/^SKILL\.md:\d+(-\d+)?$/)
      }
      const mapping = blockMappingOf(doc)
      expect(mapping.length).toBeGreaterThanOrEqual(steps.length)
      for (const m of mapping) {
        expect(m.path).toBe("SKILL.md")
        expect(m.lineStart).toBeGreaterThanOrEqual(1)
        expect(m.lineEnd).toBeGreaterThanOrEqual(m.lineStart)
        expect(m.lineEnd).toBeLessThanOrEqual(lineCount(skillMd.content))
      }
      // the decoded flow is what the validator saw
      expect(c.validation.flow).not.toBeNull()
      expect(c.draft.provider).toEqual({ provider: "mock", model: "rubr-mock-converter-1", modelTier: "standard", reasoningEffort: "medium" })
      expect(c.draft.usage).toBeNull()
      expect(c.draft.suggestedEvals.length).toBeGreaterThanOrEqual(1)
    })
  }

  describe("gh-fix-ci", () => {
    const c = corpusAvailable ? convert(corpusInput("gh-fix-ci")) : (null as unknown as Converted)
    const content = corpusAvailable ? c.input.sources.find((s) => s.path === "SKILL.md")!.content : ""
    const lineOf = (needle: string) => linesOf(content).findIndex((l) => l.includes(needle)) + 1

    it("turns the numbered workflow into ordered steps, one per item, with its sub-steps in the action", () => {
      const steps = arr(c.draft.document.steps)
      const workflow = linesOf(content)
        .map((l, i) => ({ l, n: i + 1 }))
        .filter((x) => /^\d+\.\s/.test(x.l))
      expect(steps).toHaveLength(workflow.length)
      steps.forEach((st, i) => {
        const r = parseSourceRef(String(st.from))!
        expect(r.start).toBe(workflow[i]!.n)
      })
      expect(String(steps[0]!.action)).toContain("`gh auth status`")
      expect(String(steps[2]!.action)).toContain("gh run view <run_id> --log")
      expect(new Set(steps.map((s) => s.id)).size).toBe(steps.length)
    })

    it("derives concrete checks: the auth check names its command", () => {
      const first = arr(c.draft.document.steps)[0]!
      expect(String(first.check)).toContain("`gh auth status`")
    })

    it("makes the 'Do not attempt Buildkite…' line a never guardrail mapped to its line", () => {
      const g = arr(c.draft.document.guardrails).find((x) => /Buildkite/.test(String(x.never ?? "")))
      expect(g).toBeDefined()
      expect(g!.must).toBeUndefined()
      expect(parseSourceRef(String(g!.from))!.start).toBe(lineOf("Do not attempt Buildkite"))
    })

    it("turns the auth failure into a failure handler and links it from the step", () => {
      const handlers = arr(c.draft.document.failure_handling)
      const auth = handlers.find((h) => /unauthenticated/i.test(String(h.when)))
      expect(auth).toBeDefined()
      expect(String(auth!.then)).toMatch(/log in/i)
      expect(parseSourceRef(String(auth!.from))!.start).toBe(lineOf("If unauthenticated"))
      const first = arr(c.draft.document.steps)[0]!
      expect(auth!.resume_at).toBe(first.id)
      expect(handlers.map((h) => h.id)).toContain(first.on_failure)
    })

    it("reads the Inputs list, optional ones as not required, and the steps use them", () => {
      const inputs = arr(c.draft.document.inputs)
      expect(inputs.map((i) => i.id)).toEqual(["repo", "pr", "gh"])
      expect(inputs.find((i) => i.id === "pr")!.required).toBe(false)
      expect(inputs.find((i) => i.id === "repo")!.required).toBe(false)
      expect(arr(c.draft.document.steps).some((s) => (s.uses as Array<string> | undefined)?.includes("pr"))).toBe(true)
    })

    it("has outputs produced by the steps that deliver them (the summary, the plan)", () => {
      const outputs = arr(c.draft.document.outputs)
      expect(outputs.length).toBeGreaterThanOrEqual(2)
      const steps = arr(c.draft.document.steps)
      for (const o of outputs) expect(steps.some((s) => (s.produces as Array<string> | undefined)?.includes(String(o.id)))).toBe(true)
      const summary = steps.find((s) => /summar/i.test(String(s.title)))!
      expect(summary.produces).toBeDefined()
    })

    it("takes when_to_use from the description's 'Use when' clause", () => {
      expect(String(c.draft.document.when_to_use)).toMatch(/^Use when a user asks to debug or fix failing PR/)
      expect(c.draft.document.name).toBe("gh-fix-ci")
    })
  })

  it("notion-knowledge-capture: the '0) If any MCP call fails' heading is a handler that resumes at step 1, not a step", () => {
    const c = convert(corpusInput("notion-knowledge-capture"))
    const steps = arr(c.draft.document.steps)
    expect(steps.some((s) => /MCP call fails/.test(String(s.title)))).toBe(false)
    const h = arr(c.draft.document.failure_handling).find((x) => /MCP/.test(String(x.when)))!
    expect(h.resume_at).toBe(steps[0]!.id)
    expect(String(h.then)).toContain("codex mcp login notion")
  })

  it("test-driven-development: rules, red flags and the 'When Stuck' table become guardrails and handlers", () => {
    const c = convert(corpusInput("test-driven-development"))
    const guardrails = arr(c.draft.document.guardrails)
    expect(guardrails.some((g) => /fix bugs without a test/i.test(String(g.never ?? "")))).toBe(true)
    const handlers = arr(c.draft.document.failure_handling)
    expect(handlers.some((h) => /Don't know how to test/.test(String(h.when)))).toBe(true)
    expect(handlers.some((h) => /Start over/.test(String(h.then)))).toBe(true)
    const steps = arr(c.draft.document.steps)
    const verifyRed = steps.find((s) => /Verify RED/.test(String(s.title)))!
    expect(String(verifyRed.check)).toMatch(/Test fails/)
    expect(arr(c.draft.document.evals).some((e) => /good example/.test(String(e.name)))).toBe(true)
  })
})

describe("determinism", () => {
  const sample = [
    "---",
    "name: deploy-service",
    "description: Deploy the service. Use when a release is tagged.",
    "---",
    "# Deploy",
    "",
    "## Steps",
    "1. Run `npm test` until all tests pass.",
    "2. Build the image with `docker build -t app .`.",
    "3. Push the image.",
    "   - If the push fails, retry once, then stop and report the error.",
    "4. Report the deployed version to the user.",
    "",
    "## Rules",
    "- Never deploy on Fridays.",
    "- Always tag the image with the version.",
    ""
  ].join("\n")

  it("the same input gives byte-identical rendered output and identical report notes", () => {
    const a = convert(inputOf([source("SKILL.md", sample)]))
    const b = convert(inputOf([source("SKILL.md", sample)]))
    expect(a.text).toBe(b.text)
    expect(JSON.stringify(a.draft)).toBe(JSON.stringify(b.draft))
    expect(errors(a.validation)).toEqual([])
  })

  it.skipIf(!corpusAvailable)("corpus output is stable across runs", () => {
    const a = convert(corpusInput("gh-fix-ci")).text
    const b = convert(corpusInput("gh-fix-ci")).text
    expect(a).toBe(b)
  })

  it("the draft carries assessFlow's notes and the mock's own; a repair recomputes them, no stale copies", () => {
    const input = inputOf([source("SKILL.md", "# Prep\n\n## Step 1: Prepare\n\n## Step 2: Run\nRun `make`.\n")])
    const analysis = analyzeSources(input)
    const draft = generateMock(input, analysis, planBlocks(analysis))
    expect(draft.missingRequirements).toEqual(assessFlow(draft.document, analysis).missingRequirements)
    expect(draft.remainingRisks.map((r) => r.code)).toContain("derived_checks")
    const v = validate(input, draft.document).validation
    const repaired = repairMock(input, analysis, draft, v.issues)
    const fresh = assessFlow(repaired.document, analysis)
    for (const m of fresh.missingRequirements) expect(repaired.missingRequirements).toContainEqual(m)
    const keys = [...repaired.missingRequirements, ...repaired.remainingRisks].map((x) => x.code)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it("the layer wraps generate and repair", async () => {
    const input = inputOf([source("SKILL.md", sample)])
    const analysis = analyzeSources(input)
    const plan = planBlocks(analysis)
    const out = await Effect.runPromise(
      Effect.gen(function*() {
        const converter = yield* RubrFlowConverter
        const draft = yield* converter.generate(input, analysis, plan)
        const repaired = yield* converter.repair(input, analysis, draft, [])
        return { draft, repaired }
      }).pipe(Effect.provide(MockConverterLive))
    )
    expect(out.draft).toEqual(generateMock(input, analysis, plan))
    expect(out.repaired.changes).toEqual([])
    expect(out.repaired.document).toEqual(out.draft.document)
  })
})

describe("repair", () => {
  it("given a valid draft, changes nothing", () => {
    const c = convert(inputOf([source("SKILL.md", "# Ship\n\n1. Run `npm test`.\n2. Publish with `npm publish`.\n")]))
    expect(c.validation.valid).toBe(true)
    const analysis = analyzeSources(c.input)
    const r = repairMock(c.input, analysis, c.draft, c.validation.issues)
    expect(r.changes).toEqual([])
    expect(r.document).toEqual(c.draft.document)
  })

  it("two sections with the same title: the second id gets -2 and references follow", () => {
    const text = [
      "# Release",
      "",
      "## Step 1: Build",
      "Run `npm run build`.",
      "- If the build fails, fix it and retry.",
      "",
      "## Step 2: Build",
      "Run `npm run build:docs`.",
      "- If the build fails, fix it and retry.",
      "",
      "## Step 3: Publish",
      "Run `npm publish`.",
      ""
    ].join("\n")
    const { first, repaired, after } = convertAndRepair(inputOf([source("RELEASE.md", text, "artifact", "workflow")]))
    expect(codes(first.validation)).toContain("duplicate_id")
    expect(after.validation.valid).toBe(true)
    const steps = arr(repaired.document.steps)
    expect(steps.map((s) => s.id)).toEqual(["build", "build-2", "publish"])
    const handlers = arr(repaired.document.failure_handling)
    expect(handlers.map((h) => h.id)).toEqual(["if-build-fails", "if-build-fails-2"])
    // each step keeps its own handler, and each handler resumes at its own step
    expect(steps[0]!.on_failure).toBe("if-build-fails")
    expect(steps[1]!.on_failure).toBe("if-build-fails-2")
    expect(handlers[1]!.resume_at).toBe("build-2")
    expect(repaired.changes.some((c) => /build-2/.test(c))).toBe(true)
  })

  it("an empty step heading is merged into the following step", () => {
    const text = ["# Migrate", "", "## Step 1: Prepare", "", "## Step 2: Run the migration", "Run `npm run migrate`.", "", "## Step 3: Verify", "Run `npm test` to confirm.", ""].join("\n")
    const { first, repaired, after } = convertAndRepair(inputOf([source("MIGRATE.md", text, "artifact", "workflow")]))
    expect(codes(first.validation)).toContain("empty_step")
    expect(after.validation.valid).toBe(true)
    const steps = arr(repaired.document.steps)
    expect(steps.map((s) => s.id)).toEqual(["run-migration", "verify"])
    expect(String(steps[0]!.action)).toMatch(/^Prepare:/)
    expect(steps[0]!.from).toBe("MIGRATE.md:3-6")
    expect(repaired.changes.some((c) => /Merged the empty step prepare/.test(c))).toBe(true)
  })

  it("a step with no derivable check gets a clearly generic one and a remaining risk", () => {
    const text = ["# Onboarding", "", "## Step 1: Create the account", "Create the account in the admin console.", "", "## Step 2: Background", "The service was written in 2019.", ""].join("\n")
    const { first, repaired, after } = convertAndRepair(inputOf([source("ONBOARD.md", text, "artifact", "workflow")]))
    expect(codes(first.validation)).toContain("missing_check")
    expect(after.validation.valid).toBe(true)
    const steps = arr(repaired.document.steps)
    expect(String(steps[0]!.check)).toMatch(/account/i)
    expect(String(steps[1]!.check)).toMatch(/carried out as written/)
    expect(repaired.remainingRisks.some((r) => r.code === "generic_check" && r.block === "steps.1")).toBe(true)
  })

  it("fixes ranges outside the source, dangling references and unproduced outputs of a malformed draft", () => {
    const content = "# Task\n\n1. Draft the report.\n2. Send the report to the team.\n"
    const input = inputOf([source("TASK.md", content, "artifact", "prompt")])
    const analysis = analyzeSources(input)
    const draft = generateMock(input, analysis, planBlocks(analysis))
    const doc = JSON.parse(JSON.stringify(draft.document)) as Record<string, unknown>
    const steps = arr(doc.steps)
    steps[0]!.from = "TASK.md:3-40"
    steps[1]!.uses = ["nowhere"]
    steps[1]!.on_failure = "missing-handler"
    for (const s of steps) delete s.produces
    const broken = { ...draft, document: doc }
    const v = validate(input, doc).validation
    expect(codes(v)).toEqual(expect.arrayContaining(["source_range_outside", "undefined_reference", "unproduced_output"]))
    const repaired = repairMock(input, analysis, broken, v.issues)
    const after = validate(input, repaired.document).validation
    expect(errors(after)).toEqual([])
    const fixed = arr(repaired.document.steps)
    expect(fixed[0]!.from).toBe("TASK.md:3-4")
    expect(fixed[1]!.uses).toBeUndefined()
    expect(fixed[1]!.on_failure).toBeUndefined()
    expect(fixed[0]!.produces).toEqual(["report"])
    expect(repaired.changes.length).toBeGreaterThanOrEqual(4)
  })

  it("mends a model-style draft: unknown keys, bad ids, missing identity, stale sources, a list given as one id", () => {
    const content = "---\nname: tidy\ndescription: Tidy the repo. Use when the tree is messy.\n---\n# Tidy\n\n1. List stray files.\n2. Remove them with `git clean -n` first.\n"
    const input = inputOf([source("SKILL.md", content)])
    const analysis = analyzeSources(input)
    const draft = generateMock(input, analysis, planBlocks(analysis))
    const doc: Record<string, unknown> = {
      rubr_flow: "1.0",
      description: "",
      when_to_use: "Use when the tree is messy.",
      sources: [{ path: "SKILL.md", lines: 3 }],
      inputs: [{ id: "Repo Root", description: "The repository root.", from: "SKILL.md:7" }],
      steps: [
        { id: "list", title: "List stray files", action: "List stray files.", verify: "Stray files are listed.", uses: "Repo Root", from: "SKILL.md:7" },
        { id: "remove", title: "Remove them", action: "Remove them with `git clean -n` first.", check: "They are removed.", from: "SKILL.md:8" }
      ],
      failure_handling: [{ id: "step-fails", when: "A step fails.", then: "Stop and ask." }]
    }
    const v = validate(input, doc).validation
    expect(codes(v)).toEqual(expect.arrayContaining(["missing_field", "unknown_field", "invalid_value", "source_lines_mismatch", "empty_text"]))
    const repaired = repairMock(input, analysis, { ...draft, document: doc }, v.issues)
    const after = validate(input, repaired.document).validation
    expect(errors(after)).toEqual([])
    const fixed = repaired.document
    expect(fixed.name).toBe("tidy")
    expect(fixed.description).toBe("Tidy the repo. Use when the tree is messy.")
    expect(arr(fixed.sources)[0]!.lines).toBe(8)
    expect(arr(fixed.inputs)[0]!.id).toBe("repo-root")
    const steps = arr(fixed.steps)
    expect(steps[0]).toMatchObject({ check: "Stray files are listed.", uses: ["repo-root"] })
    expect(steps[0]!.verify).toBeUndefined()
    expect(repaired.changes).toEqual(expect.arrayContaining([
      "Renamed the key `verify` of steps.0 to `check`.",
      "Filled the empty `name` from the source.",
      "Set the line count of the source SKILL.md to 8 (was 3)."
    ]))
  })

  it("refuses contradictory guardrails: the issue is still there after repair", () => {
    const text = ["# Release", "", "1. Run the tests with `npm test`.", "2. Tag the release with `git tag`.", "", "Always push to main.", "Never push to main.", ""].join("\n")
    const { first, repaired, after } = convertAndRepair(inputOf([source("RELEASE.md", text, "artifact", "workflow")]))
    expect(codes(first.validation)).toContain("contradictory_guardrails")
    expect(codes(after.validation)).toContain("contradictory_guardrails")
    expect(after.validation.valid).toBe(false)
    expect(arr(repaired.document.guardrails)).toHaveLength(2)
    expect(repaired.remainingRisks.some((r) => r.code === "contradictory_guardrails")).toBe(true)
  })

  it("refuses a source with only a title: no steps stay no steps", () => {
    const { first, repaired, after } = convertAndRepair(inputOf([source("EMPTY.md", "# Just a title\n", "artifact", "prompt")]))
    expect(codes(first.validation)).toContain("no_steps")
    expect(codes(after.validation)).toContain("no_steps")
    expect(arr(repaired.document.steps)).toEqual([])
    expect(repaired.missingRequirements.some((m) => m.code === "no_steps_in_source")).toBe(true)
  })
})

describe("other kinds of artifact", () => {
  it("an AGENTS.md: sections become steps, its do/don't lines guardrails, its CI failure a handler", () => {
    const text = [
      "# AGENTS.md",
      "",
      "## Setup",
      "- Install dependencies with `pnpm install`.",
      "- Copy `.env.example` to `.env`.",
      "",
      "## Testing",
      "- Run `pnpm test` before every commit.",
      "- Never commit with failing tests.",
      "",
      "## Code style",
      "- Use TypeScript strict mode.",
      "- Do not use `any`.",
      "",
      "## Pull requests",
      "- Title format: `[area] summary`.",
      "- If CI fails, fix the failure before asking for review.",
      ""
    ].join("\n")
    const c = convert(inputOf([source("AGENTS.md", text, "artifact", "agent")], "file", "acme-repo"))
    expect(errors(c.validation)).toEqual([])
    const steps = arr(c.draft.document.steps)
    expect(steps.map((s) => s.title)).toEqual(["Setup", "Testing", "Pull requests"])
    expect(String(steps[1]!.check)).toContain("`pnpm test`")
    const guardrails = arr(c.draft.document.guardrails)
    expect(guardrails).toContainEqual({ never: "Commit with failing tests.", from: "AGENTS.md:9" })
    expect(guardrails).toContainEqual({ never: "Use `any`.", from: "AGENTS.md:13" })
    expect(guardrails.some((g) => g.must === "Use TypeScript strict mode.")).toBe(true)
    const h = arr(c.draft.document.failure_handling).find((x) => /CI fails/.test(String(x.when)))!
    expect(steps[2]!.on_failure).toBe(h.id)
    expect(c.draft.remainingRisks.some((r) => r.code === "steps_from_sections")).toBe(true)
  })

  it("a plain prompt: its imperative sentences become steps, its placeholder an input", () => {
    const text = [
      "You are a release-notes writer.",
      "Read the list of merged pull requests in {{changes}}. Group them by area. Write one bullet per change in plain language.",
      "Never mention internal ticket numbers. If the list is empty, reply that there is nothing to release.",
      "Respond with a markdown list.",
      ""
    ].join("\n")
    const c = convert(inputOf([source("release-notes.prompt.md", text, "artifact", "prompt")], "file", "release-notes"))
    expect(errors(c.validation)).toEqual([])
    const doc = c.draft.document
    expect(doc.name).toBe("release-notes")
    expect(String(doc.when_to_use)).toMatch(/release-notes writer/)
    const steps = arr(doc.steps)
    expect(steps.map((s) => s.title)).toEqual([
      "Read the list of merged pull requests in {{changes}}",
      "Group them by area",
      "Write one bullet per change in plain language",
      "Respond with a markdown list"
    ])
    expect(arr(doc.inputs).map((i) => i.id)).toEqual(["changes"])
    expect(arr(doc.guardrails)).toEqual([{ never: "Mention internal ticket numbers.", from: "release-notes.prompt.md:3" }])
    expect(arr(doc.failure_handling).some((h) => /list is empty/.test(String(h.when)))).toBe(true)
    expect(arr(doc.outputs).map((o) => o.id)).toEqual(["markdown-list"])
    expect(steps[3]!.produces).toEqual(["markdown-list"])
    expect(c.validation.issues.map((i) => i.code)).not.toContain("unused_input")
  })

  it("a workflow.md: inputs, ordered steps, a retry handler and rules", () => {
    const text = [
      "---",
      "name: nightly-release",
      "description: Cut the nightly release from main.",
      "---",
      "# Nightly release",
      "",
      "## Inputs",
      "- `version`: the version to release",
      "- `dry_run`: skip publishing (optional, default false)",
      "",
      "## Steps",
      "1. Check out `main` and run `git pull`.",
      "2. Run `npm ci && npm test` until all tests pass.",
      "3. Build the package with `npm run build`.",
      "4. Publish version {{version}} with `npm publish --tag nightly`.",
      "   - If publishing fails, retry once, then stop and report the error.",
      "5. Post a summary of the release to the team channel.",
      "",
      "## Rules",
      "- Never publish from a branch other than `main`.",
      "- Always run the tests before publishing.",
      ""
    ].join("\n")
    const c = convert(inputOf([source("workflows/nightly.md", text, "artifact", "workflow")]))
    expect(errors(c.validation)).toEqual([])
    const doc = c.draft.document
    expect(arr(doc.inputs)).toEqual([
      { id: "version", description: "The version to release.", from: "workflows/nightly.md:8" },
      { id: "dry_run", description: "Skip publishing (optional, default false).", required: false, from: "workflows/nightly.md:9" }
    ])
    const steps = arr(doc.steps)
    expect(steps).toHaveLength(5)
    expect(String(steps[1]!.check)).toBe("All tests pass.")
    const handler = arr(doc.failure_handling).find((h) => /publishing fails/i.test(String(h.when)))!
    expect(steps[3]!.on_failure).toBe(handler.id)
    expect(arr(doc.guardrails).map((g) => g.never ?? g.must)).toEqual([
      "Publish from a branch other than `main`.",
      "Run the tests before publishing."
    ])
  })

  it("a YAML workflow: its steps, inputs and failure() step", () => {
    const text = [
      "name: Release",
      "on:",
      "  workflow_dispatch:",
      "    inputs:",
      "      version:",
      "        description: Version to release",
      "        required: true",
      "jobs:",
      "  release:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - uses: actions/checkout@v4",
      "      - name: Test",
      "        run: npm test",
      "      - name: Publish",
      "        run: |",
      "          npm version ${{ inputs.version }}",
      "          npm publish",
      "      - name: Report the failure",
      "        if: failure()",
      "        run: gh issue create --title \"Release failed\"",
      ""
    ].join("\n")
    const c = convert(inputOf([source(".github/workflows/release.yml", text, "artifact", "workflow")]))
    expect(errors(c.validation)).toEqual([])
    const doc = c.draft.document
    expect(doc.name).toBe("release")
    expect(doc.when_to_use).toBe("Use when the workflow is triggered (on: workflow_dispatch).")
    expect(arr(doc.inputs)).toEqual([{ id: "version", description: "Version to release.", from: ".github/workflows/release.yml:5-7" }])
    expect(arr(doc.steps).map((s) => [s.title, s.check, s.from])).toEqual([
      ["Use actions/checkout@v4", "The action `actions/checkout@v4` completes successfully.", ".github/workflows/release.yml:12"],
      ["Test", "`npm test` exits with status 0.", ".github/workflows/release.yml:13-14"],
      ["Publish", "`npm publish` exits with status 0.", ".github/workflows/release.yml:15-18"]
    ])
    const h = arr(doc.failure_handling)
    expect(h).toHaveLength(1)
    expect(h[0]).toMatchObject({ when: "An earlier step of job release fails", from: ".github/workflows/release.yml:19-21" })
    expect(String(h[0]!.then)).toContain("gh issue create")
  })

  it("bundle mode: two prompt files become one flow, steps in path order, each mapped to its own file", () => {
    const a = source("prompts/01-extract.md", "# Extract\n\n1. Read the ticket text.\n2. List every customer name in it.\n", "artifact", "prompt")
    const b = source("prompts/02-reply.md", "# Reply\n\n1. Draft a reply to the customer.\n2. Never promise a delivery date.\n3. Send the reply.\n", "artifact", "prompt")
    const c = convert(inputOf([b, a], "bundle", "support-flow"))
    expect(errors(c.validation)).toEqual([])
    const doc = c.draft.document
    expect(doc.name).toBe("support-flow")
    expect(arr(doc.sources).map((s) => s.path)).toEqual(["prompts/01-extract.md", "prompts/02-reply.md"])
    const steps = arr(doc.steps)
    // "Never promise a delivery date." is a rule, not a step
    expect(steps.map((s) => String(s.from))).toEqual([
      "prompts/01-extract.md:3",
      "prompts/01-extract.md:4",
      "prompts/02-reply.md:3",
      "prompts/02-reply.md:5"
    ])
    expect(arr(doc.guardrails).some((g) => g.never === "Promise a delivery date.")).toBe(true)
    expect(String(doc.description)).toContain("prompts/01-extract.md")
  })
})
