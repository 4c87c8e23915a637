/**
 * Coverage (issue 22, forty-first stop): a criterion scores what the text shows of what it asks for. A
 * skill with no worked example, no check of its result, no failure case or no rule may need none: no
 * finding says it is wrong, but it scores a little below the same skill with the part, and the apply
 * adds what it can.
 */
import { describe, expect, it } from "@effect/vitest"
import { reviewWithMock } from "../../src/review/mock/MockReviewer.js"
import { Option } from "effect"
import { getRubric } from "../../src/review/rubrics/Registry.js"
import { COVERAGE_SINCE } from "../../src/review/rubrics/Rubrics.js"
import { file, fileInput, scoreOf } from "./support.js"

/** The SKILL.md reviewed alone, with nothing else in its bundle. */
const review = (content: string, disabledRules: ReadonlyArray<string> = []) => reviewWithMock({ ...fileInput(file("SKILL.md", content, true)), disabledRules })
const FM = "---\nname: meeting-agenda\ndescription: Plans the agenda of a team meeting from the topics people raised. Use when a lead asks for next week's agenda.\n---\n\n"
const INTRO = "A good agenda keeps the meeting short and gives every topic an owner and a question to settle. Topics without a question become status updates, which belong in writing."
const STEPS = "1. Collect the topics raised since the last meeting, with who raised each one.\n2. Set aside the topics already settled in chat; list them at the end as settled.\n3. For each remaining topic, write the question the meeting must answer and who owns it.\n4. Order the topics by who is waiting on the answer, the longest wait first.\n"
const body = (extra: string) => `${FM}# Meeting agenda\n\n${INTRO}\n\n## Steps\n\n${STEPS}\n${extra}`
/** Findings at minor or above: what a user is told is wrong. */
const minorOrAbove = (r: ReturnType<typeof review>) => r.findings.filter((f) => f.severity !== "info").map((f) => f.ruleId)

describe("coverage: the examples criterion without a worked example", () => {
  const example = "## Example\n\n```text\n1. Billing export (Dana): ship it Friday or wait a week? 10 min\n2. On-call rota (Sam): who covers the holidays? 5 min\n```\n"
  it("the same skill with a code block scores higher on examples; without one no finding says it is wrong", () => {
    const without = review(body(""))
    const withOne = review(body(example))
    expect(scoreOf(withOne, "examples")).toBe(100)
    expect(scoreOf(without, "examples")).toBe(90)
    expect(without.overallScore).toBeLessThan(withOne.overallScore)
    expect(minorOrAbove(without)).not.toContain("SK-EX-MISSING")
    expect(without.scores.find((s) => s.key === "examples")!.rationale).toContain("short: no worked example")
  })
  it("inline samples alone or example files alone are short of one too; an <example> tag is one", () => {
    expect(scoreOf(review(body("A topic reads like \"Billing export: ship it Friday or wait a week?\", e.g. for a release.\n")), "examples")).toBe(90)
    expect(scoreOf(review(body("<example>\n1. Billing export (Dana): ship it Friday or wait a week? 10 min\n</example>\n")), "examples")).toBe(100)
  })
  it("the apply adds an example, and the applied text scores higher", () => {
    const r = review(body(""))
    expect(r.improvedVersion).not.toBeNull()
    expect(r.improvedVersion!.content).toContain("## Example")
    expect(review(r.improvedVersion!.content).overallScore).toBeGreaterThan(r.overallScore)
  })
  it("with no steps, the example is the request and the result the description names", () => {
    const prose = `${FM}# Meeting agenda\n\n${INTRO} Give each topic the question the meeting must answer and its owner, order the topics by who has waited longest, and leave the settled ones for the end.\n`
    const r = review(prose)
    expect(r.improvedVersion!.content).toContain("Request: a lead asks for next week's agenda")
    expect(r.improvedVersion!.content).toContain("Result: Plans the agenda of a team meeting from the topics people raised.")
  })
  it("a text sectioned by XML tags takes an <example> tag, not a first markdown heading", () => {
    const tagged = `${FM}<purpose>\n${INTRO}\n</purpose>\n\n<steps>\n${STEPS}</steps>\n`
    const r = review(tagged)
    const applied = r.improvedVersion!.content
    expect(applied).toContain("<example>")
    expect(applied).not.toContain("## Example")
    expect(review(applied).overallScore).toBeGreaterThan(r.overallScore)
  })
  it("a rule the bundle turned off costs nothing", () => {
    expect(scoreOf(review(body("")), "examples")).toBe(90)
    expect(scoreOf(review(body(""), ["SK-EX-MISSING"]), "examples")).toBe(100)
  })
})

describe("coverage: a check of the result, a failure case and a rule", () => {
  const check = "## Check\n\nCheck that every topic has an owner and a question, and that the time boxes fit the slot.\n\n"
  const failure = "## If something is missing\n\nIf a topic has no owner, ask the lead who takes it before putting it on the agenda.\n\n"
  const rules = "## Rules\n\n- Never put a topic on the agenda without its question.\n- Always list the settled topics at the end.\n\n"
  it("each part the skill shows raises its criterion; none of their absences is a finding", () => {
    const bare = review(body(""))
    for (const [part, key] of [[check, "verification"], [failure, "error_handling"], [rules, "constraints"]] as const) {
      const withPart = review(body(part))
      expect(scoreOf(withPart, key)).toBeGreaterThan(scoreOf(bare, key))
      expect(withPart.overallScore).toBeGreaterThan(bare.overallScore)
    }
    expect(minorOrAbove(bare)).toEqual([])
  })
  it("a section that gathers the rules or the checks raises its criterion over the same lines in the steps", () => {
    // the same three lines, as the last steps or as a section of their own
    const inSteps = (lines: ReadonlyArray<string>) => `${FM}# Meeting agenda\n\n${INTRO}\n\n## Steps\n\n${STEPS}${lines.map((l, i) => `${5 + i}. ${l}\n`).join("")}`
    const inSection = (title: string, lines: ReadonlyArray<string>) => `${FM}# Meeting agenda\n\n${INTRO}\n\n## Steps\n\n${STEPS}\n## ${title}\n\n${lines.map((l) => `- ${l}\n`).join("")}`
    const cases = [
      ["constraints", "Rules", ["Never put a topic on the agenda without its question.", "Always list the settled topics at the end.", "Do not move a topic the lead fixed."]],
      ["verification", "Check", ["Check that every topic has an owner.", "Verify that the time boxes fit the slot.", "Confirm the settled topics are listed at the end."]]
    ] as const
    for (const [key, title, lines] of cases) {
      const scattered = review(inSteps(lines))
      const gathered = review(inSection(title, lines))
      expect(scoreOf(gathered, key)).toBeGreaterThan(scoreOf(scattered, key))
      expect(scattered.scores.find((x) => x.key === key)!.rationale).toMatch(/short: no section/)
      expect(minorOrAbove(scattered)).toEqual(minorOrAbove(gathered))
    }
    // failure cases belong in the step that fails: no section is asked for
    const failures = ["If a topic has no owner, ask the lead who takes it.", "If the slot is too short, stop and ask which topics can wait."]
    expect(scoreOf(review(inSteps(failures)), "error_handling")).toBe(100)
  })
  it("a clean skill with every part scores 100", () => {
    const example = "## Example\n\n```text\n1. Billing export (Dana): ship it Friday or wait a week? 10 min\n```\n"
    expect(review(body(`${check}${failure}${rules}${example}`)).overallScore).toBe(100)
  })
})

describe("coverage and the rubric version", () => {
  const text = `${FM}# Meeting agenda\n\n${INTRO}\n\n## Steps\n\n${STEPS}`
  const withRubric = (key: string) => reviewWithMock(fileInput(file("SKILL.md", text, true), undefined, "skill", Option.getOrThrow(getRubric(key))))
  it("the latest skill rubric scores coverage; a run pinned to 2026-11-22 is scored as that version was", () => {
    expect(Option.getOrThrow(getRubric("skill")).version).toBe(COVERAGE_SINCE)
    expect(scoreOf(withRubric("skill"), "examples")).toBe(90)
    expect(scoreOf(withRubric("skill@2026-11-22"), "examples")).toBe(100)
    expect(withRubric("skill@2026-11-22").overallScore).toBeGreaterThan(withRubric("skill").overallScore)
    // the same findings either way: coverage is no finding
    expect(withRubric("skill@2026-11-22").findings).toEqual(withRubric("skill").findings)
  })
})

describe("the apply states a hedged instruction in bold directly", () => {
  it("\"Maybe **upgrade …**\" becomes \"**Upgrade …**\", and the applied text scores higher", () => {
    const text = body("## Notes\n\n- Maybe **send the agenda a day ahead**, so people can prepare.\n- You might want to **keep five minutes** for what comes up.\n")
    const r = review(text)
    expect(r.findings.filter((f) => f.ruleId === "SK-CLAR-VAGUE")).toHaveLength(2)
    const applied = r.improvedVersion!.content
    expect(applied).toContain("- **Send the agenda a day ahead**, so people can prepare.")
    expect(applied).toContain("- **Keep five minutes** for what comes up.")
    expect(review(applied).findings.filter((f) => f.ruleId === "SK-CLAR-VAGUE")).toEqual([])
    expect(review(applied).overallScore).toBeGreaterThan(r.overallScore)
  })
})
