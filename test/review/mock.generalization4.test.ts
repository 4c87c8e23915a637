/**
 * Near misses from the seventh round of samples in other styles (issue 22: the rules must read structure
 * and carry to skills never seen): each wrong finding the sixteen new samples drew, as the smallest
 * text that drew it, next to the real problem the rule is for, which it must still report.
 */
import { describe, expect, it } from "@effect/vitest"
import { reviewText as review, ruleIds as ids } from "./support.js"


const FRONT = "---\nname: release-notes\ndescription: Drafts release notes from merged pull requests. Use when the user asks for release notes.\n---\n\n"
const TITLE = "# Release Notes\n\nTurn the merged pull requests of a release into notes users read in two minutes.\n\n"
const STEPS = "## Steps\n\n1. List the merged pull requests with `gh pr list --state merged`.\n2. Group them by label.\n3. Write one line per change.\n\n"

describe("SK-SAFE-DESTRUCTIVE: a command inside a quoted sentence is reported speech", () => {
  const doc = (item: string) => `${FRONT}${TITLE}${STEPS}## Anti-patterns\n\nLines quoted from release runbooks we reviewed:\n\n- ${item}\n- \"Maybe tag the release.\"\n`

  it("a bullet quoting a bad runbook's line is not a command the skill runs; the same command as an instruction, or alone in quotes, still is", () => {
    expect(ids(review(doc("\"Run `rm -rf /srv/notes/*` to clear the old notes.\"")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("\u201cIf that fails, `DROP TABLE release_notes;` and start again.\u201d")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Run `rm -rf /srv/notes/*` to clear the old notes.")))).toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Run \"rm -rf /srv/notes\" to clear the old notes.")))).toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-STRUCT-RUN-TOGETHER: a table a step points down at, a checklist closing its section", () => {
  const table = "| Label | Section |\n|---|---|\n| feature | Features |\n| bug | Fixes |\n"
  const steps = (third: string) => `${FRONT}${TITLE}## Steps\n\n1. List the merged pull requests with \`gh pr list --state merged\`.\n2. Group them by label.\n3. ${third}\n4. Write one line per change.\n\n${table}\n## Checks\n\nEvery pull request appears once.\n`

  it("a table after the list whose step says \"the table below\" is that step's lookup; with no pointer it is still two parts run together", () => {
    expect(ids(review(steps("Route each group to its section with the table below.")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(steps("Route each group to its section.")))).toContain("SK-STRUCT-RUN-TOGETHER")
    // with another table further down, "the table below" may mean that one: this table may have lost its heading
    expect(ids(review(`${steps("Route each group to its section with the table below.")}\n## Labels\n\n| Label | Colour |\n|---|---|\n| feature | green |\n`))).toContain("SK-STRUCT-RUN-TOGETHER")
  })

  const phase = (list: string, after = "") =>
    `${FRONT}${TITLE}## Phase 1: Collect\n\n\`\`\`bash\ngh pr list --state merged --json number,title,labels > prs.json\n\`\`\`\n\n${list}${after}\n## Phase 2: Write\n\n1. Group the pull requests by label.\n2. Write one line per change.\n3. Read the notes aloud once.\n`

  it("a `- [ ]` checklist closing the section after its code is the section's checks; bullets, or a checklist followed by more, still run together", () => {
    expect(ids(review(phase("- [ ] The file lists every merged pull request.\n- [ ] No pull request is listed twice.\n")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(phase("- Keep internal changes out.\n- Name every contributor.\n")))).toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(phase("- [ ] The file lists every merged pull request.\n- [ ] No pull request is listed twice.\n", "\nThen group them.\n")))).toContain("SK-STRUCT-RUN-TOGETHER")
  })
})

describe("SK-STEPS-MISSING: a decision tree, a lookup of labelled fixes, a paragraph of instructions", () => {
  const doc = (body: string) => `${FRONT}${TITLE}${body}\n## Output\n\nThe notes, one line per change.\n`

  it("bullets asking questions with their answers nested under them are the procedure; questions with nothing nested are not", () => {
    const tree = "## The tree\n\n- **Is the pull request merged?**\n  - No → leave it out.\n  - Yes:\n    - **Does it change what users see?**\n      - Yes → write a line under its label's section.\n      - No → list it under Internal.\n"
    expect(ids(review(doc(tree)))).not.toContain("SK-STEPS-MISSING")
    const flat = "## Questions\n\n- Is the pull request merged?\n- Does it change what users see?\n- Which label does it carry?\n"
    expect(ids(review(doc(flat)))).toContain("SK-STEPS-MISSING")
  })

  it("entries whose repeated bold label gives an action each time are small procedures; labels that define terms are not", () => {
    const entry = (s: string, f: string) => `**Symptom:** ${s}\n**Fix:** ${f}\n\n`
    const lookup = `## Symptom and fix\n\n${entry("the notes list a pull request twice.", "remove the duplicate and check the label query.")}${entry("a change has no section.", "add its label to the table.")}${entry("the CLI prints `no pull requests`.", "run `gh auth status` and log in again.")}`
    expect(ids(review(doc(lookup)))).not.toContain("SK-STEPS-MISSING")
    const terms = "## Terms\n\n**Change:** a merged pull request.\n\n**Section:** a heading of the notes.\n\n**Label:** the GitHub label of a pull request.\n"
    expect(ids(review(doc(terms)))).toContain("SK-STEPS-MISSING")
  })

  it("a paragraph of four instructions is a procedure in prose; one sentence with a \"then\" is not", () => {
    expect(ids(review(doc("## Method\n\nWork one pull request at a time. Read its title and description. Then write one line saying what changed for users. Keep each line under twenty words. Put the line under the section of its label.\n")))).not.toContain("SK-STEPS-MISSING")
    expect(ids(review(doc("## Method\n\nBuild the notes, then publish them and post the link.\n")))).toContain("SK-STEPS-MISSING")
  })
})

describe("SK-EX-MISSING: quoted tool messages and source file names are not code taught", () => {
  const RFRONT = "---\nname: rust-build-fixes\ndescription: Diagnoses Rust build failures from the compiler output. Use when cargo build fails with an error the code change does not explain.\n---\n\n# Rust Build Fixes\n\nMatch the symptom, confirm it with its check, apply the fix.\n\n"
  const entry = (symptom: string, check: string, fix: string) => `## ${symptom.replace(/`/g, "")}\n\n- Symptom: ${symptom}\n- Check: ${check}\n- Fix: ${fix}\n\n`

  it("a lookup quoting the compiler's messages and naming build.rs, with its commands in full inline, shows its examples", () => {
    const text = `${RFRONT}${entry("`error[E0658]: use of unstable library feature` on CI only", "run `rustc --version` in the CI log", "pin the toolchain the workspace declares")}${entry("`error: failed to run custom build command for` a crate", "read the stderr of `build.rs`", "install the tool it names")}${entry("a stale artifact hid a missing file", "run `git status --ignored` and look for files under `src/`", "generate the file in `build.rs`")}${entry("`error[E0599]: no method named` on a type you own", "run `cargo tree -e features -i serde`", "enable the feature that adds the method")}`
    expect(review(text).findings.find((f) => f.ruleId === "SK-EX-MISSING")?.severity ?? "info").toBe("info")
  })

  it("library calls named without a sample are still code taught with no example", () => {
    const text = `${RFRONT}${entry("the pool hangs", "call `pool.status()` and read `idle_count`", "call `pool.resize(8)` before `Client::connect()`")}${entry("queries time out", "call `client.timeout()`", "set `Config::with_timeout(30)`")}`
    expect(review(text).findings.find((f) => f.ruleId === "SK-EX-MISSING")?.severity).toBe("major")
  })
})

describe("SK-FAIL-MISSING: a step that reviews an endpoint runs nothing", () => {
  const AFRONT = "---\nname: api-review\ndescription: Reviews a proposed HTTP endpoint against the house rules. Use when a pull request adds or changes a public endpoint.\n---\n\n# API Review\n\nEvery comment cites a house rule.\n\n"
  const doc = (steps: ReadonlyArray<string>) => `${AFRONT}## How to review\n\n${steps.map((s, i) => `${i + 1}. ${s}\n`).join("")}\n## Verdict\n\nApprove, or request changes.\n`

  it("steps that read the endpoint's schema are a review; steps that call the API can fail", () => {
    expect(review(doc([
      "Read the proposal and note whether the endpoint is new or already public.",
      "Check each rule against every request and response schema of the endpoint.",
      "Write one comment per violation, citing its rule.",
      "End with a verdict line."
    ])).findings.find((f) => f.ruleId === "SK-FAIL-MISSING")?.severity ?? "info").toBe("info")
    expect(review(doc([
      "Call the staging API with each example request of the proposal.",
      "Compare each response from the endpoint with the documented schema.",
      "Write one comment per difference, citing its rule.",
      "End with a verdict line."
    ])).findings.find((f) => f.ruleId === "SK-FAIL-MISSING")?.severity).toBe("major")
  })
})

describe("SK-CONS-UNDO-STEP: a step whose command takes nothing back is its own act", () => {
  const doc = (first: string, last: string) => `${FRONT}${TITLE}## Steps\n\n1. ${first}\n2. Collect the merged pull requests with \`gh pr list --state merged > out/prs.txt\`.\n3. Write one line per change.\n4. ${last}\n\n## Checks\n\nEvery pull request appears once.\n`
  const clock = "Start the clock: `date -u +%FT%TZ | tee out/started`."

  it("\"Stop the clock\" with a command that writes the end time ends a measurement; with no command, or a command that stops what step 1 started, it undoes step 1", () => {
    expect(ids(review(doc(clock, "Stop the clock: `date -u +%FT%TZ | tee out/finished`.")))).not.toContain("SK-CONS-UNDO-STEP")
    expect(ids(review(doc(clock, "Stop the clock.")))).toContain("SK-CONS-UNDO-STEP")
    expect(ids(review(doc("Start the preview server: `docker start notes-preview`.", "Stop the preview server: `docker stop notes-preview`.")))).toContain("SK-CONS-UNDO-STEP")
    // a path in inline code is the step's object, not its command
    expect(ids(review(doc("Create `notes/draft.md` from the template.", "Delete `notes/draft.md`.")))).toContain("SK-CONS-UNDO-STEP")
  })
})

describe("SK-DESC-FIRST-PERSON: a question reported from the user keeps the asker's words", () => {
  const fm = (description: string) => `---\nname: release-notes\ndescription: ${description}\n---\n\n${TITLE}${STEPS}`

  it("\"when a maintainer asks how we group changes\" is the asker speaking; \"Helps me draft\" and \"the notes we publish\" are the description's own voice", () => {
    expect(ids(review(fm("Drafts release notes from merged pull requests. Use when the user asks for release notes, or when a maintainer asks how we group changes.")))).not.toContain("SK-DESC-FIRST-PERSON")
    expect(ids(review(fm("Helps me draft release notes from merged pull requests. Use when the user asks for release notes.")))).toContain("SK-DESC-FIRST-PERSON")
    expect(ids(review(fm("Drafts the release notes we publish each month. Use when the user asks how the notes are grouped.")))).toContain("SK-DESC-FIRST-PERSON")
  })
})

describe("apply: headings that skipped a level together are raised together", () => {
  it("\"### Step 1\" to \"### Step 3\" under the \"# \" title all become \"## \", and their own subsections follow them", () => {
    const text = `${FRONT}# Release Notes\n\nTurn the merged pull requests of a release into notes users read in two minutes.\n\n### Step 1 — List the pull requests\n\nRun \`gh pr list --state merged\`.\n\n#### When the list is empty\n\nCheck the milestone name.\n\n### Step 2 — Group them by label\n\nOne group per label.\n\n### Step 3 — Write the notes\n\nOne line per change.\n\n## Checks\n\nEvery pull request appears once.\n`
    const r = review(text)
    expect(ids(r)).toContain("SK-STRUCT-SKIPPED-LEVEL")
    const headings = (r.improvedVersion?.content ?? "").split("\n").filter((l) => l.startsWith("#"))
    expect(headings.slice(0, 6)).toEqual(["# Release Notes", "## Step 1 — List the pull requests", "### When the list is empty", "## Step 2 — Group them by label", "## Step 3 — Write the notes", "## Checks"])
    expect(ids(review(r.improvedVersion!.content))).not.toContain("SK-STEPS-HEADING-GAP")
  })
})

describe("apply: no heading that makes the last section look cut short", () => {
  const doc = (done: string) =>
    `${FRONT}${TITLE}## Inputs\n\n- The milestone name.\n- The previous tag.\n\n1. List the merged pull requests with \`gh pr list --state merged\`.\n2. Group them by label.\n3. Write one line per change.\n\n## If something fails\n\n- **No pull requests**: check the milestone name.\n- **No previous tag**: ask the user for the first commit.\n\n## Done\n\n${done}\n`

  it("a \"Steps\" heading that would make a fourth sibling section and leave the closing paragraph the only one without a list is not added; with a list in the last section it is", () => {
    const closing = review(doc("The notes are done when every pull request appears once."))
    expect(ids(closing)).toContain("SK-STRUCT-RUN-TOGETHER")
    expect(closing.improvedVersion?.content ?? "").not.toContain("## Steps")
    if (closing.improvedVersion) expect(review(closing.improvedVersion.content).overallScore).toBeGreaterThanOrEqual(closing.overallScore)
    const listed = review(doc("- Every pull request appears once.\n- No internal change is listed."))
    expect(listed.improvedVersion?.content ?? "").toContain("## Steps")
  })
})

describe("SK-SAFE-DESTRUCTIVE: a backup named as a noun guards nothing", () => {
  const doc = (above: string) => `${FRONT}${TITLE}## Steps\n\n1. List the merged pull requests with \`gh pr list --state merged\`.\n2. Compare the list with last week's notes. ${above}\n3. Clear the notes folder: run \`rm -rf /srv/notes/*\`.\n`

  it("\"the backup's end time\" above an `rm -rf` asks nothing (seen on restore-drill); \"take a backup first\" still guards it", () => {
    expect(ids(review(doc("Rows written since the backup's end time explain small differences.")))).toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Take a backup of the notes folder first.")))).not.toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-EX-MISSING (info): bold Before / After labels open a worked pair", () => {
  const doc = (examples: string) => `${FRONT}${TITLE}## How to write a line\n\nSay what changed for users, in one sentence under twenty words.\n\n${examples}`

  it("\"**Before.** … **After.** …\" paragraphs are the examples; a passing \"e.g.\" is not", () => {
    expect(ids(review(doc("## Before and after\n\n**Before.** Refactored the AuthProvider to use the new token cache (#412).\n\n**After.** Signing in is faster on slow connections.\n")))).not.toContain("SK-EX-MISSING")
    expect(ids(review(doc("Name the change users see, e.g. faster sign-in.\n")))).toContain("SK-EX-MISSING")
  })
})

describe("SK-VERIFY (info): a \"Before handing over\" section is the check", () => {
  const steps = "## Steps\n\n1. List the merged pull requests with `gh pr list --state merged`.\n2. Fetch their labels with `gh pr view --json labels`.\n3. Write one line per change.\n\n"
  const doc = (title: string) => `${FRONT}${TITLE}${steps}## ${title}\n\nRead each line as a user would, and confirm every pull request appears once.\n`

  it("\"## Before handing over\" verifies the work; \"## Before you start\" does not", () => {
    expect(ids(review(doc("Before handing over"))).filter((id) => id.startsWith("SK-VERIFY"))).toEqual([])
    expect(ids(review(doc("Before you start"))).filter((id) => id.startsWith("SK-VERIFY"))).not.toEqual([])
  })
})

describe("SK-STRUCT-CUT-SHORT: a tag opened on its own line and never closed", () => {
  const doc = (end: string) => `${FRONT}${TITLE}${STEPS}## Examples\n\n<example>\nInput: three merged pull requests, one labelled internal.\nOutput: two lines, one per user-facing change.\n${end}`

  it("a text that stops inside <example> is cut short; the closed tag, and an unclosed void tag, are not", () => {
    const cut = review(doc(""))
    expect(cut.findings.find((f) => f.message.includes("stops inside <example>"))?.severity).toBe("major")
    expect(review(doc("</example>\n")).findings.some((f) => f.message.includes("stops inside"))).toBe(false)
    expect(review(doc("Done: two lines.</example>\n")).findings.some((f) => f.message.includes("stops inside"))).toBe(false)
    expect(review(`${FRONT}${TITLE}${STEPS}## Notes\n\nOne line per change.\n\n<br>\n`).findings.some((f) => f.message.includes("stops inside"))).toBe(false)
  })
})

describe("SK-STRUCT-PROMISED: commands counted in a section that shows fewer", () => {
  const doc = (shown: string) => `${FRONT}${TITLE}## Step 1 — Check the tree\n\n${shown}Why: a release from a dirty tree ships files nobody reviewed.\n\nDone when: both commands exit 0.\n\n## Step 2 — Write the notes\n\nOne line per change.\n`

  it("\"both commands exit 0\" with the commands gone points at nothing; with both shown, inline or in a block, it is complete", () => {
    expect(review(doc("")).findings.some((f) => f.ruleId === "SK-STRUCT-PROMISED" && f.message.includes("two commands"))).toBe(true)
    expect(review(doc("Run `git status --short` and `git diff --exit-code`.\n\n")).findings.some((f) => f.ruleId === "SK-STRUCT-PROMISED")).toBe(false)
    expect(review(doc("```bash\ngit status --short\ngit diff --exit-code\n```\n\n")).findings.some((f) => f.ruleId === "SK-STRUCT-PROMISED")).toBe(false)
    expect(review(doc("Then all three commands run in CI.\n\n")).findings.some((f) => f.message.includes("three commands"))).toBe(true)
  })
})
