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
import { COVERAGE_SINCE, RUBRIC_VERSION_2026_11_29_4 } from "../../src/review/rubrics/Rubrics.js"
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

describe("coverage: examples only as labelled lines in the prose (rubric 2026-11-29.3)", () => {
  const sample = "3 topics in 45 minutes: billing export (Dana, 20 min), on-call rota (Sam, 15 min), hiring plan (Lee, 10 min)."
  const inline = `Example: ${sample}\n`
  const pinned = (content: string, version: string) =>
    reviewWithMock(fileInput(file("SKILL.md", content, true), undefined, "skill", Option.getOrThrow(getRubric(`skill@${version}`))))
  it("cost 3 points of examples, no finding; pinned to 2026-11-29.2 they cost nothing", () => {
    const r = review(body(inline))
    expect(scoreOf(r, "examples")).toBe(97)
    expect(r.scores.find((s) => s.key === "examples")!.rationale).toContain("short: examples only as labelled lines in the prose")
    expect(minorOrAbove(r)).toEqual([])
    expect(scoreOf(pinned(body(inline), "2026-11-29.2"), "examples")).toBe(100)
    expect(pinned(body(inline), "2026-11-29.2").findings).toEqual(r.findings)
  })
  it("an example that stands apart costs nothing: under a label of its own line, in a before-and-after section, in a block", () => {
    const apart = `Example:\n\n> ${sample}\n`
    const pairs = `## Before and after\n\n**Before.** Billing export, on-call, hiring.\n\n**After.** ${sample}\n`
    const block = "## Example\n\n```text\n1. Billing export (Dana): ship it Friday or wait a week? 10 min\n```\n"
    // a label on a line of its own that names what the samples under it are
    const named = "**Example topics:**\n\n- \"Billing export: ship it Friday or wait a week?\"\n- \"On-call rota: who covers the holidays?\"\n"
    for (const extra of [apart, pairs, block, named]) expect(scoreOf(review(body(extra)), "examples")).toBe(100)
  })
  it("the same skill scores higher with a whole example than with an inline one, and higher with an inline one than with none", () => {
    const [none, some, whole] = ["", inline, "## Example\n\n```text\n1. Billing export (Dana): ship it Friday or wait a week? 10 min\n```\n"].map((x) => review(body(x)).overallScore)
    expect(none).toBeLessThan(some!)
    expect(some).toBeLessThan(whole!)
  })
  it("the apply adds a whole example, and the applied text scores higher; turned off, the rule costs nothing", () => {
    const r = review(body(inline))
    expect(r.improvedVersion!.content).toContain("## Example")
    expect(review(r.improvedVersion!.content).overallScore).toBeGreaterThan(r.overallScore)
    expect(scoreOf(review(body(inline), ["SK-EX-MISSING"]), "examples")).toBe(100)
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

describe("coverage: sections enough for the length of the text", () => {
  // twelve lines of notes: with the steps and the opening, 18 lines of text
  const NOTES = [
    "Topics raised in the hallway count when someone wrote them down.",
    "A topic with two owners has none: name one.",
    "Status updates go to the written summary, not the meeting.",
    "A topic that waited two meetings goes first.",
    "Give each topic a time box of five or ten minutes.",
    "Keep the agenda to one screen.",
    "Put the decisions needed this week at the top.",
    "Link the document each topic is about.",
    "Write the question so it can be answered yes or no, or with a name.",
    "Mark a topic that needs someone from outside the team.",
    "Send the agenda the day before.",
    "Keep the settled list short: one line a topic."
  ]
  // twelve more, other lines
  const MORE = [
    "Leave ten minutes at the end for what came up during the week.",
    "The person who runs the meeting does not also take the notes.",
    "A decision made in the meeting gets written down with its owner.",
    "Guests join for their topic only, so schedule it first.",
    "Cancel the meeting when fewer than three topics need a decision.",
    "Recurring topics get a standing slot instead of a new line each week.",
    "Share slides in advance; nobody reads them for the first time live.",
    "Start on time even when people are missing.",
    "End early when the agenda is done.",
    "A topic that needs more than fifteen minutes gets its own meeting.",
    "Remote attendees speak first on each topic.",
    "Close with the list of owners and their dates."
  ]
  const notes = `Things to keep in mind:\n\n${NOTES.map((n) => `- ${n}\n`).join("")}`
  const oneSection = `${FM}# Meeting agenda\n\n${INTRO}\n\n## Steps\n\n${STEPS}\n${notes}`
  const twoSections = `${FM}# Meeting agenda\n\n${INTRO}\n\n## Steps\n\n${STEPS}\n## Notes\n\n${notes}`
  it("more than 6 lines of text a section is short of structure; the same text with a heading for its second part is less so", () => {
    const walls = review(oneSection)
    const sections = review(twoSections)
    // half a point a line a section over 6: 18 lines cost 6, 9 lines cost 1.5
    expect(scoreOf(walls, "structure")).toBe(94)
    expect(walls.scores.find((s) => s.key === "structure")!.rationale).toContain("short: 18 lines of text under 1 section heading(s), 18 a section (more than 6)")
    expect(scoreOf(sections, "structure")).toBe(98.5)
    expect(walls.overallScore).toBeLessThan(sections.overallScore)
    // a denser wall costs more: 12 lines more under the one section, 30 in all, cost 12
    const denser = review(`${oneSection}\n${MORE.join("\n")}\n`)
    expect(scoreOf(denser, "structure")).toBe(88)
    expect(denser.overallScore).toBeLessThan(walls.overallScore)
    expect(minorOrAbove(denser)).toEqual(minorOrAbove(sections))
    // no finding: how a writer splits a text is theirs to choose
    expect(minorOrAbove(walls)).toEqual(minorOrAbove(sections))
  })
  it("the apply splits the section where its next part opens, under that part's lead-in, and the applied text scores higher", () => {
    const r = review(oneSection)
    const applied = r.improvedVersion!.content
    expect(applied).toContain(`${STEPS}\n## Things to keep in mind\n\nThings to keep in mind:\n`)
    expect(r.improvedVersion!.changes.join(" ")).toContain("added the heading \"Things to keep in mind\"")
    expect(scoreOf(review(applied), "structure")).toBeGreaterThan(scoreOf(r, "structure"))
    expect(review(applied).overallScore).toBeGreaterThan(r.overallScore)
  })
  it("the apply leaves a run of entries, a part that goes on with the steps and a section of samples whole", () => {
    const faq = NOTES.map((n, i) => `**Question ${i + 1}?**\n${n}\n`).join("\n")
    const prose = `Collect the topics first.\n${NOTES.join("\n")}\n\nThen order them by who waits longest.\n${NOTES.join("\n")}\n`
    for (const section of [`## FAQ\n\n${faq}`, `## Steps\n\n${prose}`, `## Examples\n\nA short one:\n\n${NOTES.join("\n")}\n\nA long one:\n\n${NOTES.join("\n")}\n`]) {
      const text = `${FM}# Meeting agenda\n\n${INTRO}\n\n${section}`
      const r = review(text)
      expect(scoreOf(r, "structure")).toBeLessThan(100)
      const headings = (md: string) => md.split("\n").filter((l) => /^## /.test(l) && l !== "## Example")
      expect(headings(r.improvedVersion?.content ?? text)).toEqual(headings(text))
    }
  })
  it("the apply splits what it can though its splits alone leave the text over the limit: less text a section scores higher", () => {
    // 54 lines of text under two sections; three would still hold 18 a section
    const faq = NOTES.map((n, i) => `**Question ${i + 1}?**\n${n}\n${MORE[i]}\n`).join("\n")
    const text = `${FM}# Meeting agenda\n\n${INTRO}\n\n## FAQ\n\n${faq}\n## Steps\n\n${STEPS}\n${notes}`
    const r = review(text)
    const applied = r.improvedVersion!.content
    expect(applied).toContain("## Things to keep in mind\n")
    expect(applied.split("\n").filter((l) => l.startsWith("## ") && l !== "## Example")).toEqual(["## FAQ", "## Steps", "## Things to keep in mind"])
    expect(scoreOf(review(applied), "structure")).toBeGreaterThan(scoreOf(r, "structure"))
  })
  it("the apply does not split after a line that introduces what follows (\"**How to run it:**\")", () => {
    const intro = `Things to keep in mind:\n\n${NOTES.slice(0, 6).map((n) => `- ${n}\n`).join("")}\n**How to run it:**\n\n${NOTES.slice(6).join("\n")}\n`
    const r = review(`${FM}# Meeting agenda\n\n${INTRO}\n\n## Steps\n\n${STEPS}\n${intro}`)
    expect(scoreOf(r, "structure")).toBeLessThan(100)
    const applied = r.improvedVersion?.content ?? ""
    expect(applied).not.toMatch(/How to run it:\*\*\n\n## /)
  })
  it("code blocks do not count as text, and the rule turned off costs nothing", () => {
    const code = `${FM}# Meeting agenda\n\n${INTRO}\n\n## Steps\n\n${STEPS}\n\`\`\`text\n${NOTES.join("\n")}\n\`\`\`\n`
    expect(scoreOf(review(code), "structure")).toBe(100)
    expect(scoreOf(review(oneSection, ["SK-STRUCT-NO-SECTIONS"]), "structure")).toBe(100)
  })
})

describe("coverage: a text that lost half its headings, however short its sections (rubric 2026-11-29.4)", () => {
  const OWNERS = "One owner for each topic.\nThe owner brings the numbers the question needs.\nA topic with two owners has none, so name one.\nGuests join for their own topic only.\n"
  const TIME = "Give each topic five or ten minutes.\nA topic that needs more gets its own meeting.\nKeep ten minutes at the end for what came up.\nEnd early when the agenda is done.\n"
  const AFTER = "Send the notes within a day.\nThey list each decision with its owner and date.\nTopics left open go first next week.\nSettled topics leave the list.\n"
  // 17 lines of text: under four headings 4.25 a section, under two 8.5
  const four = `${FM}# Meeting agenda\n\n${INTRO}\n\n## Steps\n\n${STEPS}\n## Owners\n\n${OWNERS}\n## Time boxes\n\n${TIME}\n## After the meeting\n\n${AFTER}`
  const two = `${FM}# Meeting agenda\n\n${INTRO}\n\n## Steps\n\n${STEPS}\n${OWNERS}\n## Time boxes\n\n${TIME}\n${AFTER}`
  const pinned = (content: string, version: string) =>
    reviewWithMock(fileInput(file("SKILL.md", content, true), undefined, "skill", Option.getOrThrow(getRubric(`skill@${version}`))))
  const headings = (md: string) => md.split("\n").filter((l) => /^## /.test(l) && l !== "## Example")
  it("half a point a line a section over 6: the copy with two headings scores lower, with no finding; up to 2026-11-29.3 it did not", () => {
    expect(scoreOf(review(four), "structure")).toBe(100)
    // 8.5 a section: 2.5 lines over, 1.3 points (to a tenth)
    expect(scoreOf(review(two), "structure")).toBe(98.7)
    expect(review(two).scores.find((s) => s.key === "structure")!.rationale).toContain("short: 17 lines of text under 2 section heading(s), 8.5 a section (more than 6)")
    expect(review(two).overallScore).toBeLessThan(review(four).overallScore)
    expect(minorOrAbove(review(two))).toEqual(minorOrAbove(review(four)))
    expect(pinned(two, "2026-11-29.3").overallScore).toBe(pinned(four, "2026-11-29.3").overallScore)
  })
  it("the apply gives each part its heading back, named by its first sentence, and the applied text scores as the whole one", () => {
    const r = review(two)
    const applied = r.improvedVersion!.content
    expect(headings(applied)).toEqual(["## Steps", "## One owner for each topic", "## Time boxes", "## Send the notes within a day"])
    expect(r.improvedVersion!.changes.join(" ")).toContain("added the heading \"One owner for each topic\" where the section's next part starts (more than 6 lines of text a section)")
    expect(scoreOf(review(applied), "structure")).toBe(100)
    expect(review(applied).overallScore).toBeGreaterThan(r.overallScore)
  })
  it("a lead-in that stops mid-sentence is no title, and a title the text has is not used twice", () => {
    const usually = two.replace("One owner for each topic.\n", "The lead will usually:\n\n- Name one owner for every topic.\n")
    expect(headings(review(usually).improvedVersion!.content)).toContain("## Notes")
    const taken = two.replace("## Time boxes", "## One owner for each topic")
    const applied = review(taken).improvedVersion!.content
    expect(headings(applied).filter((h) => h === "## One owner for each topic")).toHaveLength(1)
  })
  it("a split is made when it raises the score as shown, though by less than a tenth; not when the score shows 100 already", () => {
    // eleven steps (a list is never split) and one section of two paragraphs: 21 lines under 3 headings, 7 a
    // section, half a point of structure (0.04 of the overall score) that one split takes off
    const more = ["Ask each owner for the numbers their question needs.", "Put the topics with guests first, so the guests can leave.", "Write a time box next to each topic.", "Add up the boxes and leave ten minutes free.", "Move the topics that do not fit to the next meeting.", "Send the agenda two days before the meeting.", "Name a note taker for the meeting."]
    const steps = STEPS + more.map((l, i) => `${i + 5}. ${l}`).join("\n")
    const text = `${FM}# Meeting agenda\n\n${INTRO}\n\n## Steps\n\n${steps}\n\n## Owners\n\n${OWNERS}\n${TIME}\n## Check\n\nCheck that every topic has an owner and a question, and that the time boxes fit the slot.\n`
    const withOff = (content: string, off: ReadonlyArray<string>) => review(content, ["SK-EX-MISSING", ...off])
    const r = withOff(text, [])
    expect(scoreOf(r, "structure")).toBe(99.5)
    expect(r.improvedVersion!.changes).toEqual([expect.stringContaining("added the heading \"Give each topic five or ten minutes\" where the section's next part starts")])
    expect(withOff(r.improvedVersion!.content, []).overallScore).toBeGreaterThan(r.overallScore)
    // with nothing else short, the text shows 100 (99.96): the heading would change nothing a user sees
    const full = withOff(text, ["SK-RULES-NO-SECTION", "SK-FAIL-MISSING"])
    expect([full.overallScore, scoreOf(full, "structure")]).toEqual([100, 99.5])
    expect(full.improvedVersion).toBeNull()
  })
  it("a step's section is not split, and an instruction right under a numbered list goes on with it", () => {
    const steps = `${FM}# Meeting agenda\n\n${INTRO}\n\n## Step 1: Collect the topics\n\n${STEPS}\n${OWNERS}\n${TIME}\n## Step 2: Send the notes\n\n${AFTER}`
    expect(scoreOf(review(steps), "structure")).toBeLessThan(100)
    expect(headings(review(steps).improvedVersion?.content ?? steps)).toEqual(["## Step 1: Collect the topics", "## Step 2: Send the notes"])
    const goesOn = two.replace("One owner for each topic.", "Order them by the wait, and name one owner each.")
    expect(headings(review(goesOn).improvedVersion!.content)).toEqual(["## Steps", "## Time boxes", "## Send the notes within a day"])
  })
})

describe("the apply gathers the rules or checks that close a section under a heading of their own", () => {
  const rules = "Never:\n\n- Never invite the whole team to a topic one person owns.\n- Never move a decision to next week without a name on it.\n- Do not add a topic after the agenda went out.\n"
  const tail = (section: string, extra: string) => `${FM}# Meeting agenda\n\n${INTRO}\n\n${section}\n\n${STEPS}\nOrder them by the wait, and write the time box next to each.\n\n${extra}`
  const headings = (md: string) => md.split("\n").filter((l) => /^## /.test(l) && l !== "## Example")
  it("a list of rules that ends a section gets a Rules heading above its lead-in; the rules criterion and the score rise", () => {
    const text = tail("## Steps", rules)
    const r = review(text)
    expect(scoreOf(r, "constraints")).toBeLessThan(100)
    const applied = r.improvedVersion!.content
    expect(applied).toContain("## Rules\n\nNever:\n\n- Never invite")
    expect(r.improvedVersion!.changes.join(" ")).toContain("added a \"Rules\" heading over the rules that close the section \"Steps\"")
    expect(scoreOf(review(applied), "constraints")).toBe(100)
    expect(review(applied).overallScore).toBeGreaterThan(r.overallScore)
  })
  it("paragraphs that open as rules are gathered too; a step's cautions, a list of mostly other things and paragraphs that only mention a rule are not", () => {
    const paragraphs = "Never invite the whole team to a topic one person owns.\n\nDo not add a topic after the agenda went out, unless it cannot wait.\n"
    expect(headings(review(tail("## Steps", paragraphs)).improvedVersion?.content ?? "")).toEqual(["## Steps", "## Rules"])
    const mentions = "A topic one person owns should never take the whole team's time.\n\nA topic added late can only go last, and the notes say so.\n"
    const mixed = "- Never invite the whole team to a topic one person owns.\n- Bring the numbers the topic needs.\n- Book the room with a screen.\n"
    for (const [section, extra] of [["## Step 1: Order the topics", rules], ["## Steps", mentions], ["## Steps", mixed]] as const) {
      const text = tail(section, extra)
      // (a long section may still be split where its next part starts: that heading is no Rules one)
      expect(headings(review(text).improvedVersion?.content ?? text)).not.toContain("## Rules")
    }
  })
  it("a long section whose closing rules get their heading splits above them, never a second heading over them", () => {
    const more = "One owner for each topic.\nThe owner brings the numbers the question needs.\nA topic with two owners has none, so name one.\nGuests join for their own topic only.\n\nGive each topic five or ten minutes.\nA topic that needs more gets its own meeting.\nKeep ten minutes at the end for what came up.\nEnd early when the agenda is done.\n\n"
    const r = review(tail("## Steps", `${more}${rules}`))
    const applied = r.improvedVersion!.content
    expect(applied).toContain("## Rules\n\nNever:\n")
    expect(headings(applied)).toHaveLength(4)
    // no heading right over another: the split knows where the Rules heading goes
    expect(applied).not.toMatch(/^#+ .*\n\n#+ /m)
    expect(review(applied).overallScore).toBeGreaterThan(r.overallScore)
  })
  it("a part is no step: the rules that close a \"Part 1\" section are gathered as a \"Steps\" section's are", () => {
    expect(headings(review(tail("## Part 1: Running the meeting", rules)).improvedVersion?.content ?? "")).toEqual(["## Part 1: Running the meeting", "## Rules"])
  })
})

describe("coverage and the rubric version", () => {
  const text = `${FM}# Meeting agenda\n\n${INTRO}\n\n## Steps\n\n${STEPS}`
  const withRubric = (key: string, content = text) => reviewWithMock(fileInput(file("SKILL.md", content, true), undefined, "skill", Option.getOrThrow(getRubric(key))))
  it("a run pinned to 2026-11-28 is scored without the sections 2026-11-29 asks for, and one pinned to 2026-11-29 at its flat cost", () => {
    expect(Option.getOrThrow(getRubric("skill")).version).toBe(RUBRIC_VERSION_2026_11_29_4)
    // 35 lines of text under one section: 14.5 points now (half a point a line over 6), 7 as
    // 2026-11-29.2 and .3 scored it (3 at 15, in proportion above), a flat 3 as 2026-11-29 did
    const long = `${text}\n${"Keep these in mind: a topic with two owners has none, so name one.\n".repeat(30)}`
    expect(scoreOf(withRubric("skill", long), "structure")).toBe(85.5)
    expect(scoreOf(withRubric("skill@2026-11-29.3", long), "structure")).toBe(93)
    expect(scoreOf(withRubric("skill@2026-11-29.2", long), "structure")).toBe(93)
    expect(scoreOf(withRubric("skill@2026-11-29", long), "structure")).toBe(97)
    expect(withRubric("skill@2026-11-29", long).findings).toEqual(withRubric("skill", long).findings)
    expect(scoreOf(withRubric("skill@2026-11-28", long), "structure")).toBe(100)
    expect(scoreOf(withRubric("skill@2026-11-28", long), "examples")).toBe(90)
    expect(withRubric("skill@2026-11-28", long).findings).toEqual(withRubric("skill", long).findings)
  })
  it("the latest skill rubric scores coverage; a run pinned to 2026-11-22 is scored as that version was", () => {
    expect(COVERAGE_SINCE).toBe("2026-11-28")
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
