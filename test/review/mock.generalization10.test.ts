/**
 * Near misses, twenty-third stop (issue 22). From the seeded damage: a body cut short whose kept half
 * still names the parts that were lost. From the twenty-third round of skills written blind, read once:
 * findings on good text. Each as the smallest text, next to the text the rule must still catch.
 */
import { describe, expect, it } from "@effect/vitest"
import { findingOf, flagsDestructive as destructive, lineOf, reviewText as review, ruleIds as ids } from "./support.js"

const FM = "---\nname: key-rotation\ndescription: Rotates a signing key without breaking delivery. Use when a key may have leaked.\n---\n\n# Key rotation\n\n"
const dangling = (body: string) => ids(review(`${FM}${body}`)).includes("SK-STEPS-DANGLING-REF")

describe("SK-STEPS-DANGLING-REF: numbered parts named by number", () => {
  const INTRO = "| Action | When |\n|---|---|\n| Create the new key | step 2 |\n| Revoke the old key | only after the user approves, step 4 |\n\n"
  const section = (n: number, title: string) => `## ${n}. ${title}\n\nDo the ${title.toLowerCase()} and note the result in \`rotation.md\`.\n\n`

  it("bare numbered headings (\"## 1. Inventory\") number the steps a \"step N\" names: step 4 with three sections is gone", () => {
    const three = section(1, "Inventory") + section(2, "Create") + section(3, "Test")
    expect(dangling(INTRO + three)).toBe(true)
    expect(dangling(INTRO + three + section(4, "Revoke"))).toBe(false)
  })

  it("\"Phase 3\" names a phase heading when the file numbers its phases; a list item 3 elsewhere is not it", () => {
    const body = (phases: number) =>
      "Phase 3 waits until the old records have expired.\n\n" +
      [1, 2, 3].slice(0, phases).map((n) => `## Phase ${n}: Part ${n}\n\n1. Copy the zone.\n2. Compare it.\n3. Switch.\n\n`).join("")
    expect(dangling(body(2))).toBe(true)
    expect(dangling(body(3))).toBe(false)
  })

  it("\"Step 4\" names a step heading when the file numbers its steps in \"Step N\" headings; an item 4 of a list under Step 2 is not it", () => {
    const body = (steps: number) =>
      "Whatever you pick, also clear the sessions (Step 4).\n\n" +
      [1, 2, 3, 4].slice(0, steps).map((n) => `## Step ${n}: Part ${n}\n\n1. Read the record.\n2. Compare it.\n3. Note it.\n4. Ask the user.\n\n`).join("")
    expect(dangling(body(3))).toBe(true)
    expect(dangling(body(4))).toBe(false)
  })

  it("without step headings, the numbered list is what \"step N\" names: a body cut after item 3 still sending the reader to step 5", () => {
    const items = ["Read the renewal log.", "If the timer never ran, go to step 5.", "Check port 80 from outside.", "Fix the challenge location.", "Enable the timer."]
    const list = (n: number) => `Follow the steps in order.\n\n${items.slice(0, n).map((t, i) => `${i + 1}. ${t}`).join("\n")}\n`
    expect(dangling(list(3))).toBe(true)
    expect(dangling(list(5))).toBe(false)
    // a file whose steps are a checklist numbers nothing: its "step 3" is someone else's (a vendor's wizard)
    expect(dangling("Follow the vendor's wizard; at step 3, choose the region.\n\n- [ ] Create the new key.\n- [ ] Keep the old key until the new one works.\n- [ ] Revoke the old key.\n")).toBe(false)
  })

  it("one finding a line for each missing step it names, however often the line names it", () => {
    const text = `${FM}Do not skip ahead to step 6; steps 1 to 3 tell you whether step 6 will work.\n\n1. Read the log.\n2. Check the port.\n3. Check the timer.\n`
    expect(review(text).findings.filter((f) => f.ruleId === "SK-STEPS-DANGLING-REF").map((f) => f.message)).toEqual(["The text refers to Step 6, which does not exist"])
  })

  it("a step 0 that nothing numbers is a step of something else (a type scale): its \"step 8\" names no procedure step", () => {
    const scale = "- Base (step 0) is body text, usually 16px.\n- Five steps up covers most products. If someone needs step 8, add it.\n\n"
    const body = section(1, "Gather") + `## 2. Choose a ratio\n\n${scale}` + section(3, "Generate")
    expect(dangling(body)).toBe(false)
    expect(dangling(body.replace("(step 0) ", ""))).toBe(true)
  })
})

describe("SK-SAFE-UNBOUNDED: a sentence read whole, across its hard-wrapped lines", () => {
  const doc = (rule: string) =>
    `${FM}You prepare; an authorized person at the organization submits. Each person signs in with their own account and\n${rule}\n\n## Steps\n\n1. Gather the data.\n2. Hand it over.\n`

  it("\"Never ask the user for⏎their password\" forbids one request; \"never ask the user⏎before you submit\" removes the bound", () => {
    expect(ids(review(doc("MFA. Never ask the user for\ntheir password or an MFA code, and don't sign in on their behalf.")))).not.toContain("SK-SAFE-UNBOUNDED")
    const pushed = doc("MFA. Never ask the user\nbefore you submit the renewal; go ahead on your own.")
    expect(findingOf(review(pushed), "SK-SAFE-UNBOUNDED")?.lineStart).toBe(lineOf(pushed, "MFA. Never ask"))
    // asking for a decision is the bound itself
    expect(ids(review(doc("MFA. Never ask the user for approval; submit the renewal yourself.")))).toContain("SK-SAFE-UNBOUNDED")
  })
})

describe("SK-STRUCT-ENDS-EARLY: what the last section is a member of", () => {
  const numbered = [1, 2, 3].map((n) => `## ${n}. Part ${n}\n\n- Do the first thing of part ${n}.\n- Do the second thing.\n\n`).join("")
  const closing = "## Common mistakes\n\n- Sending the letter twice.\n- Skipping the log.\n\n## Stop and ask the user when\n\n- The payer is unknown.\n- A deadline has passed.\n\n"

  it("sections after a numbered run are read among themselves: a prose cleanup after two lists closes the file", () => {
    expect(ids(review(`${FM}Intro.\n\n${numbered}${closing}## Cleanup\n\nDelete the local drafts when the case is closed.\n`))).not.toContain("SK-STRUCT-ENDS-EARLY")
    // four unnumbered sections with lists, the last without one, is still a cut pattern (unless the last
    // closes the work: see mock.generalization11)
    const four = `${FM}Intro.\n\n## Scope\n\n- One.\n- Two.\n\n${closing}## Fixes\n\n- A.\n- B.\n\n## Reporting\n\nSend the summary to the owner.\n`
    expect(findingOf(review(four), "SK-STRUCT-ENDS-EARLY")?.lineStart).toBe(lineOf(four, "## Reporting"))
  })

  it("a last section with a block of its own that no section before it has (the script's commands after tables) is another kind", () => {
    const table = (n: number) => `## Codes ${"ABCD"[n]}\n\n| Code | Meaning |\n|---|---|\n| X${n} | Something |\n\n`
    const tables = [0, 1, 2, 3].map(table).join("")
    const script = "## Summarizing a file\n\nRun the script:\n\n```bash\npython3 scripts/summarize.py remit.835\n```\n\nSort the work by amount.\n"
    expect(ids(review(`${FM}A cheat sheet.\n\n${tables}${script}`))).not.toContain("SK-STRUCT-ENDS-EARLY")
    const prose = `${FM}A cheat sheet.\n\n${tables}## Summarizing a file\n\nSort the work by amount.\n`
    expect(findingOf(review(prose), "SK-STRUCT-ENDS-EARLY")?.lineStart).toBe(lineOf(prose, "## Summarizing"))
  })
})

describe("SK-STRUCT-ENDS-EARLY: a document that ends inside its numbered procedure", () => {
  const step = (label: string, title: string, sub = "") => `## ${label}: ${title}\n\n1. Read the record.\n2. Note what it shows.\n\n${sub}`
  const steps = step("Step 1", "Read the inventory") + step("Step 2", "Pair the containers")
  it("a last step that neither reports, checks, hands over nor closes the work is a cut procedure; one that does ends it", () => {
    const cut = `${FM}Intro.\n\n${steps}${step("Step 3", "Run the pair check")}`
    expect(findingOf(review(cut), "SK-STRUCT-ENDS-EARLY")?.lineStart).toBe(lineOf(cut, "## Step 3"))
    for (const last of ["Report", "Hand over, don't act", "Check it on real content", "Close out", "Limits", "Troubleshooting"]) {
      expect([last, ids(review(`${FM}Intro.\n\n${steps}${step("Step 3", last)}`)).includes("SK-STRUCT-ENDS-EARLY")]).toEqual([last, false])
    }
    // "Handle" is no hand-over, and a section after the run closes the document
    expect(ids(review(`${FM}Intro.\n\n${steps}${step("Step 3", "Handle every file name")}`))).toContain("SK-STRUCT-ENDS-EARLY")
    expect(ids(review(`${FM}Intro.\n\n${steps}${step("Step 3", "Run the pair check")}## Common mistakes\n\n- Mixing acids.\n- Skipping the log.\n`))).not.toContain("SK-STRUCT-ENDS-EARLY")
  })
  it("the step the last heading sits in counts (\"### Continuous metrics\" under \"## Phase 2\"); numbered cases or examples are no procedure", () => {
    const phases = `${FM}Intro.\n\n${step("Phase 1", "Validity")}${step("Phase 2", "Primary metric", "### Continuous metrics\n\nUse the mean per user.\n\n### Ratio metrics\n\nUse the delta method.\n")}`
    expect(findingOf(review(phases), "SK-STRUCT-ENDS-EARLY")?.lineStart).toBe(lineOf(phases, "## Phase 2"))
    expect(ids(review(`${FM}Intro.\n\n${step("Case 1", "Disconnect")}${step("Case 2", "Late team")}`))).not.toContain("SK-STRUCT-ENDS-EARLY")
  })
})

describe("SK-CLAR-VAGUE: words joined by slashes name one thing", () => {
  const doc = (step: string) => `${FM}## Steps\n\n1. Empty the inbox.\n2. ${step}\n3. Write the note.\n`
  it("the \"Someday/maybe\" list is a name; \"maybe skim it\" leaves the agent to guess", () => {
    expect(ids(review(doc("**Someday/maybe.** Skim it quickly and ask whether anything should become active.")))).not.toContain("SK-CLAR-VAGUE")
    expect(ids(review(doc("**Someday list.** Maybe skim it quickly and ask whether anything should become active.")))).toContain("SK-CLAR-VAGUE")
  })
})

describe("held-out damage on the twenty-third round: the case of a rule, a pronoun, a confirmation of something else", () => {
  const contradicts = (intro: string, rule: string) =>
    ids(review(`${FM}${intro}\n\n## Steps\n\n1. Draft the lines.\n2. Read them aloud.\n\n## Rules\n\n- ${rule}\n`)).includes("SK-CONS-ALWAYS-NEVER")

  it("\"don't X if C, unless D\" meets \"always X if C\" in C without D; it does not meet \"always X if C and D\"", () => {
    const rule = "Don't address the player by name if the name is customisable, unless the system supports variant lines."
    expect(contradicts("Always address the player by name if the name is customisable.", rule)).toBe(true)
    expect(contradicts("Always address the player by name if the name is customisable and the system supports variant lines.", rule)).toBe(false)
  })

  it("a condition inside parentheses belongs to the aside: the rule's case is read around it", () => {
    const rule = "The profile must come from a section with only noise (room tone before the first word), not from speech."
    expect(contradicts("The profile must not come from a section with only noise (room tone before the first word).", rule)).toBe(true)
    expect(contradicts("The profile must not come from speech.", rule)).toBe(false)
  })

  it("\"Delete it.\" names the object of the step right before: it undoes that step", () => {
    const steps = (last: string) => `${FM}## Steps\n\n1. Set the discount's fields from the spec.\n2. Create a separate test code with identical settings.\n3. ${last}\n`
    const undone = steps("Before you finish, delete it.")
    expect(findingOf(review(undone), "SK-CONS-UNDO-STEP")?.lineStart).toBe(lineOf(undone, "3. Before"))
    expect(ids(review(steps("Before you finish, share it with the approver.")))).not.toContain("SK-CONS-UNDO-STEP")
  })

  it("a confirmation in the step above that gates its own act, or asks a fact, asks nothing of the command", () => {
    const step = (above: string) => `## Clean up\n\n1. ${above}\n2. Start from a clean state: run \`rm -rf ./*\` in the project root.\n`
    expect(destructive(step("Add the arbitration note. Only say it if the user confirms it applies."))).toBe(true)
    expect(destructive(step("Confirm with the user that sync is paused and tell them where the backup is."))).toBe(true)
    // a gate on going on, or a confirmation that names the removal, holds for the command
    expect(destructive(step("Show the user the list. Only continue if the user confirms."))).toBe(false)
    expect(destructive(step("Confirm with the user that the old files can be deleted."))).toBe(false)
  })
})

describe("SK-SAFE-DESTRUCTIVE: a confirmation above that holds for another case or another program", () => {
  const steps = (above: string, command = "run `rm -rf ./*` in the project root") => `## Clean up\n\n1. Gather the files.\n2. ${above}\n3. Start from a clean state: ${command}.\n`

  it("a step above that opens on a case asks in that case only; a step whose case is the ask holds", () => {
    expect(destructive(steps("If the request went to the wrong office, note the date; some laws differ, so ask the user."))).toBe(true)
    expect(destructive(steps("If the user confirms the list, note the date."))).toBe(false)
  })

  it("a dry run of another program asks nothing of the command; a dry run of the same program previews it", () => {
    expect(destructive(steps("Dry-run the query to see what it would scan: `bq query --dry_run < query.sql`.", "run `DROP TABLE IF EXISTS users CASCADE;` on the database"))).toBe(true)
    expect(destructive(steps("Dry-run the removal first: `rm -rf --dry-run ./*` does not exist, so list with `rm -ri ./*` and answer no."))).toBe(false)
  })

  it("\"the dry-run summary\" names an earlier run's result; \"do a dry run first\" previews the command", () => {
    expect(destructive(steps("Compare the import's counts with the dry-run summary and explain any difference."))).toBe(true)
    expect(destructive(steps("Do a dry run first and compare its counts with the plan."))).toBe(false)
  })

  it("\"the last step\" named in an introduction is not a command outside every step; an approval for the deletion itself is", () => {
    const doc = (intro: string) =>
      `${"---\nname: cleanup\ndescription: Cleans old checkpoints. Use when disk fills.\n---\n\n# Cleanup\n\n"}${intro}\n\nStart from a clean state: run \`rm -rf ./*\` in the project root.\n\n## Steps\n\n1. List the checkpoints.\n2. Write the manifest.\n`
    expect(ids(review(doc("Deletion is the last step, and only after the user has approved the manifest.")))).toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Deletion runs only after the user has approved the manifest.")))).not.toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-SAFE-DESTRUCTIVE: the skill's own scratch folder", () => {
  const doc = (made: string) =>
    `## Work on a copy\n\n\`\`\`bash\n${made}\npdftoppm -r 150 -png copy.pdf ~/private/review/page\n\`\`\`\n\n## Clean up\n\n\`\`\`bash\nrm -rf ~/private/review\n\`\`\`\n`
  it("a folder made by a command above is the skill's own: removing it at the end asks nothing; a folder it never made is the user's", () => {
    expect(destructive(doc("mkdir -p ~/private/review"))).toBe(false)
    expect(destructive(doc("mkdir -p ~/private/flatten"))).toBe(true)
  })
})

describe("the twenty-fifth round, written blind and read once: a chart's name, a table of checks", () => {
  it("\"I-MR\" in a description names a chart, not the author; \"I\" as a word is still the first person", () => {
    const desc = (d: string) => ids(review(`---\nname: spc\ndescription: ${d} Use when someone shares SPC data.\n---\n\n# SPC\n\n## Steps\n\n1. Sort by time.\n2. Compute limits.\n3. Check the rules.\n`))
    expect(desc("Builds Shewhart control charts (I-MR, X-bar/R) from measurements.")).not.toContain("SK-DESC-FIRST-PERSON")
    expect(desc("I build Shewhart control charts from measurements.")).toContain("SK-DESC-FIRST-PERSON")
  })

  it("a numbered table whose header calls its rows checks is the procedure; a numbered catalogue of names is not", () => {
    const table = (header: string) =>
      `---\nname: chart-check\ndescription: Checks a chart for distortions. Use before a chart goes into a report.\n---\n\n# Chart check\n\nGo through the checks in order on the chart.\n\n## Checks\n\n| # | ${header} | Problem when |\n|---|---|---|\n| 1 | Bar baseline | Bars don't start at zero |\n| 2 | Dual axes | Two scales |\n| 3 | Time axis | Uneven gaps |\n| 4 | Colour | Rainbow on ordered data |\n`
    expect(ids(review(table("Check")))).not.toContain("SK-STEPS-MISSING")
    expect(ids(review(table("Archetype")))).toContain("SK-STEPS-MISSING")
  })
})
