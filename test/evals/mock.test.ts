/** The mock evaluator, rule by rule: how cases are read, how each kind is judged, the result and the layer. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Evaluator } from "../../src/evals/Evaluator.js"
import {
  classifyCase,
  evaluateMock,
  judgeSide,
  MOCK_EVALUATOR_MODEL,
  MOCK_EVALUATOR_VERSION,
  MockEvaluatorLive,
  PASS_SCORE
} from "../../src/evals/mock/MockEvaluator.js"
import { type CaseInput, type EvalSide, verdictOf } from "../../src/evals/Types.js"
import { reviewWithMock } from "../../src/review/mock/MockReviewer.js"
import type { EvalCase } from "../../src/domain/EvalCase.js"
import { corpusAvailable, corpusSkills, fileInput, lineOf, loadSkill, SAMPLE_SKILL, sampleBundle } from "../review/support.js"

const BUNDLE = sampleBundle().map((f) => f.path)

const side = (content: string, versionNumber = 1, artifactType = "skill", path = "SKILL.md"): EvalSide => ({
  fileId: "file-1",
  path,
  fileVersionId: `fv-${versionNumber}`,
  versionNumber,
  contentHash: `sha256:${versionNumber}`,
  content,
  artifactType
})

const judge = (content: string, c: EvalCase, bundle: ReadonlyArray<string> = BUNDLE) => judgeSide(side(content), c, bundle)

const kase = (partial: Partial<EvalCase> & Pick<EvalCase, "name" | "expectedBehavior">): EvalCase => ({
  id: "eval-1",
  type: "standard",
  input: "Draft the release notes for v2.3. Carry the task through to the end.",
  passCriteria: "",
  ...partial
})

const kit = reviewWithMock(fileInput(sampleBundle()[0]!, sampleBundle())).evalKit.cases
const kitCase = (prefix: string) => kit.find((c) => c.name.startsWith(prefix))!

const stepCase = (n: number, step: string) =>
  kase({
    name: `Performs step ${n}: ${step}`,
    expectedBehavior: `After the earlier steps, the agent performs: ${step}.`,
    passCriteria: `The transcript shows "${step}" done, in order, without skipping it.`
  })

describe("reading cases", () => {
  it("recognises every kind of case the eval kit writes", () => {
    const kinds = kit.map((c) => [c.name.replace(/:.*$/, ""), classifyCase(c).kind])
    expect(kinds).toEqual([
      ["Applies release-notes to a matching request", "trigger"],
      ["Performs step 2", "step"],
      ["Performs step 3", "step"],
      ["Performs step 4", "step"],
      ["Stays out of unrelated requests", "negative"],
      ["Reports an unreadable reference instead of guessing", "missing_reference"],
      ["Asks for missing information", "missing_info"]
    ])
    expect(classifyCase(kitCase("Applies"))).toEqual({
      kind: "trigger",
      situation: "The user asks for release notes, a changelog entry or a summary of what shipped in a version.",
      firstStep: "Read reference/style.md for the tone and the section order"
    })
    expect(classifyCase(kitCase("Reports an unreadable"))).toEqual({ kind: "missing_reference", file: "reference/style.md" })
  })

  it.skipIf(!corpusAvailable)("reads the kits of the corpus skills by their names", () => {
    const expected: Record<string, string> = {
      "Applies": "trigger",
      "Performs step": "step",
      "Stays out": "negative",
      "Handles the case": "conditional",
      "Reports an unreadable": "missing_reference",
      "Asks for missing": "missing_info"
    }
    for (const name of corpusSkills()) {
      const files = loadSkill(name)
      for (const c of reviewWithMock(fileInput(files.find((f) => f.path === "SKILL.md")!, files)).evalKit.cases) {
        const prefix = Object.keys(expected).find((p) => c.name.startsWith(p))!
        expect({ name: c.name, kind: classifyCase(c).kind }).toEqual({ name: c.name, kind: expected[prefix] })
      }
    }
  })

  it("recognises the same kinds written in other words (cases from a request body)", () => {
    expect(classifyCase(kase({ name: "Ignores weather questions", expectedBehavior: "The skill is not invoked; the agent answers normally." })).kind).toBe(
      "negative"
    )
    expect(
      classifyCase(
        kase({
          name: "Underspecified request",
          type: "scenario",
          input: "Write the release notes.",
          expectedBehavior: "The agent asks a clarifying question about which version before drafting.",
          passCriteria: "A clarifying question comes first."
        })
      ).kind
    ).toBe("missing_info")
    expect(
      classifyCase(
        kase({
          name: "Style guide gone",
          type: "scenario",
          input: "Draft the notes. The file `reference/style.md` cannot be read.",
          expectedBehavior: "Says the style guide is unavailable."
        })
      )
    ).toEqual({ kind: "missing_reference", file: "reference/style.md" })
    expect(
      classifyCase(kase({ name: "Lists the pull requests", expectedBehavior: "After the earlier steps, the agent performs: List the merged pull requests." }))
    ).toEqual({ kind: "step", step: "List the merged pull requests" })
    expect(
      classifyCase(
        kase({
          name: "Unlabelled pull request",
          type: "scenario",
          input: "Draft notes for v2.3. One pull request has no label.",
          expectedBehavior: "The agent asks the user how to classify it."
        })
      )
    ).toEqual({ kind: "conditional", condition: "One pull request has no label", action: "asks the user how to classify it" })
    expect(
      classifyCase(
        kase({
          name: "Links every change",
          expectedBehavior: "Every line of the notes links its pull request.",
          passCriteria: 'Each line ends with "(#123)" style links, and "one line per change" holds.'
        })
      )
    ).toEqual({
      kind: "generic",
      expected: "Every line of the notes links its pull request.",
      criteria: 'Each line ends with "(#123)" style links, and "one line per change" holds.',
      input: "Draft the release notes for v2.3. Carry the task through to the end.",
      quotes: ["one line per change"]
    })
  })
})

describe("judging a step", () => {
  const group = stepCase(3, "Group the pull requests by label into Features, Fixes and Internal")

  it("passes a numbered step with earlier steps, quoting it", () => {
    const r = judge(SAMPLE_SKILL, group)
    const n = lineOf(SAMPLE_SKILL, "3. Group the pull requests")
    expect(r.score).toBe(100)
    expect(r.passed).toBe(true)
    expect(r.evidence).toEqual([`line ${n}: "3. Group the pull requests by label into Features, Fixes and Internal."`])
    expect(r.observedBehavior).toBe(
      `The instructions cover the step "Group the pull requests by label into Features, Fixes and Internal": line ${n} says "Group the pull requests by label into Features, Fixes and Internal.", as step 3 of its sequence.`
    )
  })

  it("scores a step only mentioned in passing prose lower, and fails it", () => {
    const content = SAMPLE_SKILL.replace(/^3\. Group .*\n/m, "").replace(
      "Turn the merged pull requests",
      "The pull requests are grouped by label into Features, Fixes and Internal.\n\nTurn the merged pull requests"
    )
    const r = judge(content, group)
    expect(r.score).toBeLessThan(PASS_SCORE)
    expect(r.passed).toBe(false)
    expect(r.observedBehavior).toMatch(/only in passing prose, not as a step/)
  })

  it("gives 0 when nothing mentions the step, and says so", () => {
    const r = judge(SAMPLE_SKILL, stepCase(2, "Deploy the website to staging"))
    expect(r.score).toBe(0)
    expect(r.observedBehavior).toBe('The instructions never mention the step "Deploy the website to staging": no line has "Deploy", "website" and "staging".')
    expect(r.evidence).toEqual(['no line of the version has "Deploy", "website" and "staging"'])
  })

  it("lowers a step worded vaguely and names the vague words", () => {
    const vague = SAMPLE_SKILL.replace("Fixes and Internal.", "Fixes and Internal as appropriate.")
    const r = judge(vague, group)
    expect(r.score).toBe(90)
    expect(r.evidence).toContain(`line ${lineOf(vague, "3. Group")}: vague wording "as appropriate"`)
    expect(r.observedBehavior).toMatch(/Its wording is vague \("as appropriate"\)\.$/)
  })

  it("lowers a step that relies on a file the bundle lacks, but not once the file is marked as missing", () => {
    const c = stepCase(5, "Check the draft against the checklist before sharing it")
    const without = BUNDLE.filter((p) => p !== "reference/checklist.md")
    const dangling = judge(SAMPLE_SKILL, c, without)
    expect(judge(SAMPLE_SKILL, c).score).toBe(100)
    expect(dangling.score).toBe(85)
    expect(dangling.evidence).toContain(`line ${lineOf(SAMPLE_SKILL, "5. Check")}: names \`reference/checklist.md\`, which is not in the bundle`)
    const marked = SAMPLE_SKILL.replace("[the checklist](reference/checklist.md)", "the checklist (not included in this bundle: `reference/checklist.md`)")
    expect(judge(marked, c, without).score).toBe(100)
  })

  it("matches words in other forms and file names moved to another folder", () => {
    const c = stepCase(2, "Lists merged pull-requests using reference/old/style.md")
    const r = judge(SAMPLE_SKILL.replace("with `gh pr list", "and read `reference/style.md`, using `gh pr list"), c)
    expect(r.score).toBe(100)
  })
})

describe("judging the trigger case", () => {
  const trigger = kitCase("Applies")

  it("passes when the description says when to use it and the first step comes first", () => {
    const r = judge(SAMPLE_SKILL, trigger)
    expect(r.score).toBe(100)
    expect(r.evidence[0]).toMatch(/^line 3: "description: Drafts release notes from merged pull requests/)
    expect(r.evidence[1]).toBe(`line ${lineOf(SAMPLE_SKILL, "1. Read")}: "1. Read \`reference/style.md\` for the tone and the section order."`)
    expect(r.observedBehavior).toMatch(/^The request matches 100% of its key words on line 3, which says when to use it\. /)
  })

  it("scores lower when the expected first step is no longer first", () => {
    const swapped = SAMPLE_SKILL.replace(
      /1\. (Read `reference\/style.md`[^\n]*)\n2\. (List [^\n]*)\n/,
      "1. $2\n2. $1\n"
    )
    const r = judge(swapped, trigger)
    expect(r.score).toBeLessThan(100)
    expect(r.observedBehavior).toMatch(/as step 2 of its sequence, not the first step/)
  })
})

describe("judging the negative case", () => {
  const negative = kitCase("Stays out")
  const noTrigger = SAMPLE_SKILL.replace(
    " Use when the user asks for release notes, a changelog entry or a summary of what shipped in a version.",
    ""
  ).replace(/## When to use\n\nUse this skill when[^\n]*\n\n/, "")

  it("passes a version that says when to use it and fails one that does not", () => {
    const ok = judge(SAMPLE_SKILL, negative)
    expect(ok.passed).toBe(true)
    expect(ok.observedBehavior).toMatch(/^The instructions say when to use them \(line 3\)/)
    const r = judge(noTrigger, negative)
    expect(r.passed).toBe(false)
    expect(r.score).toBe(35)
    expect(r.observedBehavior).toBe("The instructions never say when to use them; only line 3 states what they are about.")
  })

  it("credits an explicit exclusion and refuses a trigger that matches the request itself", () => {
    const excluded = SAMPLE_SKILL.replace("drafted.", "drafted. Do not use it for translations or general writing.")
    expect(judge(excluded, negative).score).toBe(100)
    const translator = SAMPLE_SKILL.replace(
      "Use this skill when a user asks what changed in a version or wants release notes drafted.",
      "Use this skill when a user wants a sentence translated into French, such as a meeting moved to Thursday."
    )
    expect(judge(translator, negative).score).toBeLessThan(judge(SAMPLE_SKILL, negative).score)
  })
})

describe("judging missing information", () => {
  const missing = kitCase("Asks for missing")

  it("passes an instruction to ask when something is missing, and fails without one", () => {
    const r = judge(SAMPLE_SKILL, missing)
    expect(r.passed).toBe(true)
    expect(r.evidence).toEqual([`line ${lineOf(SAMPLE_SKILL, "Ask the user when")}: "- Ask the user when a pull request has no label."`])
    const none = judge(SAMPLE_SKILL.replace("- Ask the user when a pull request has no label.\n", ""), missing)
    expect(none.score).toBe(0)
    expect(none.passed).toBe(false)
    expect(none.observedBehavior).toBe(
      "The instructions never say what to do when information is missing: no line says to ask, clarify or state an assumption."
    )
  })

  it("counts declared inputs and a stated default, less than a question", () => {
    const defaults = SAMPLE_SKILL.replace("- Ask the user when a pull request has no label.\n", "- The version defaults to the latest tag.\n").replace(
      "## Steps",
      "## Inputs\n\n- `version`: the release to describe.\n\n## Steps"
    )
    const r = judge(defaults, missing)
    expect(r.score).toBeGreaterThan(0)
    expect(r.score).toBeLessThan(judge(SAMPLE_SKILL, missing).score + 15)
    expect(r.observedBehavior).toMatch(/^The instructions state a default instead of asking/)
    expect(r.observedBehavior).toMatch(/They declare what input they need/)
  })
})

describe("judging an unreadable reference", () => {
  const unreadable = kitCase("Reports an unreadable")

  it("fails a version that relies on the file without saying what to do when it cannot be read", () => {
    const r = judge(SAMPLE_SKILL, unreadable)
    expect(r.passed).toBe(false)
    expect(r.observedBehavior).toBe(
      `The instructions rely on reference/style.md (line ${lineOf(SAMPLE_SKILL, "reference/style.md")}) but never say what to do when it cannot be opened.`
    )
  })

  it("passes once the version says what to do with an unreadable file", () => {
    const handled = SAMPLE_SKILL.replace("## Rules\n", "## Rules\n\n- If a reference file cannot be read, say so and never invent its content.\n")
    expect(judge(handled, unreadable).passed).toBe(true)
  })

  it("gives 100 to a version that no longer refers to the file: nothing depends on it", () => {
    const r = judge(SAMPLE_SKILL.replace("1. Read `reference/style.md` for the tone and the section order.\n", ""), unreadable)
    expect(r.score).toBe(100)
    expect(r.observedBehavior).toBe("The instructions do not refer to reference/style.md, so nothing in them depends on it being readable.")
  })
})

describe("judging a scenario", () => {
  const AGENTS = "# Service\n\n## Rules\n\n- If a migration fails, roll it back with `pnpm db:rollback` and report the error.\n- Never log card numbers.\n"
  const scenario = kase({
    name: "Handles the case: a migration fails",
    type: "scenario",
    input: "Add a column. During the task this condition arises: a migration fails.",
    expectedBehavior: "As the agent instructions instruct, the agent does this: roll it back with pnpm db:rollback and report the error.",
    passCriteria: "The response handles \"a migration fails\" as written: roll it back with pnpm db:rollback and report the error."
  })
  const j = (content: string, c: EvalCase) => judgeSide(side(content, 1, "agent", "AGENTS.md"), c, ["AGENTS.md"])

  it("passes the written handling and lowers a condition whose handling is gone", () => {
    const r = j(AGENTS, scenario)
    expect(r.score).toBe(100)
    expect(r.observedBehavior).toBe(
      'The instructions handle "a migration fails" as expected: line 5 says "If a migration fails, roll it back with pnpm db:rollback and report the error.".'
    )
    const gone = j(AGENTS.replace("roll it back with `pnpm db:rollback` and report the error", "keep going"), scenario)
    expect(gone.passed).toBe(false)
    expect(gone.observedBehavior).toMatch(/^The instructions mention "a migration fails" \(line 5 says .*\) but not the expected handling/)
  })

  it("judges other cases by the key words of the expected behaviour", () => {
    const c = kase({
      name: "Keeps card data out of logs",
      input: "Add debug logging of the payment payload.",
      expectedBehavior: "The agent never logs card numbers.",
      passCriteria: "No card number appears in the logging code."
    })
    const r = j(AGENTS, c)
    expect(r.passed).toBe(true)
    expect(r.evidence).toEqual(['line 6: "- Never log card numbers."'])
    expect(j("# Service\n", c).passed).toBe(false)
  })
})

describe("edge cases", () => {
  it("judges an empty version and a case without key words without failing", () => {
    for (const c of kit) {
      const r = judge("", c)
      expect(r.score).toBeGreaterThanOrEqual(0)
      expect(r.score).toBeLessThanOrEqual(100)
      expect(r.evidence.length).toBeGreaterThan(0)
    }
    const r = judge(SAMPLE_SKILL, kase({ name: "x", expectedBehavior: "", passCriteria: "", input: "" }))
    expect(r.score).toBeGreaterThanOrEqual(0)
    expect(r.score).toBeLessThanOrEqual(100)
  })

  it("reads CRLF line endings like LF", () => {
    const crlf = SAMPLE_SKILL.replace(/\n/g, "\r\n")
    for (const c of kit) expect(judge(crlf, c)).toEqual(judge(SAMPLE_SKILL, c))
  })
})

describe("evaluateMock and the layer", () => {
  const input = (candidate: string): CaseInput => ({
    source: side(SAMPLE_SKILL, 1),
    candidate: side(candidate, 2),
    case: kitCase("Stays out"),
    bundlePaths: BUNDLE,
    modelTier: "cheap",
    reasoningEffort: "high"
  })
  const weaker = SAMPLE_SKILL.replace(/## When to use\n\nUse this skill when[^\n]*\n\n/, "").replace(
    " Use when the user asks for release notes, a changelog entry or a summary of what shipped in a version.",
    ""
  )

  it("returns both sides, the delta, the shared verdict, no calls and the mock provider", () => {
    const r = evaluateMock(input(weaker))
    expect(r.scoreDelta).toBe(r.candidate.score - r.source.score)
    expect(r.scoreDelta).toBeLessThan(0)
    expect(r.verdict).toBe(verdictOf(r.source, r.candidate))
    expect(r.verdict).toBe("regressed")
    expect(r.calls).toEqual([])
    expect(r.provider).toEqual({ provider: "mock", model: MOCK_EVALUATOR_MODEL, modelTier: "cheap", reasoningEffort: "high" })
    expect(evaluateMock(input(SAMPLE_SKILL)).verdict).toBe("unchanged")
  })

  it.effect("serves the Evaluator tag with its version and limitations", () =>
    Effect.gen(function*() {
      const evaluator = yield* Evaluator
      expect(evaluator.version).toBe(MOCK_EVALUATOR_VERSION)
      expect(evaluator.version).toMatch(/^rubr-mock-evaluator\/\d+\.\d+\.\d+$/)
      expect(evaluator.limitations.length).toBeGreaterThan(0)
      const r = yield* evaluator.evaluateCase(input(weaker))
      expect(r).toEqual(evaluateMock(input(weaker)))
    }).pipe(Effect.provide(MockEvaluatorLive)))
})
