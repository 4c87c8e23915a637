/**
 * Near misses from skills written in other styles (issue 22: the rules must read structure and carry
 * to skills never seen): each wrong finding the new quality samples drew, as the smallest text that
 * drew it, next to the real problem the rule is for, which it must still report.
 */
import { describe, expect, it } from "@effect/vitest"
import { findingOf, lineOf, reviewText as review, ruleIds as ids, SAMPLE_SKILL } from "./support.js"


const withStep = (step: string) =>
  SAMPLE_SKILL.replace(
    "5. Check the draft against [the checklist](reference/checklist.md) before sharing it.\n",
    `5. Check the draft against [the checklist](reference/checklist.md) before sharing it.\n6. ${step}\n`
  )
const withRule = (rule: string) =>
  SAMPLE_SKILL.replace("- Ask the user when a pull request has no label.\n", `- Ask the user when a pull request has no label.\n- ${rule}\n`)

const FRONT = "---\nname: release-notes\ndescription: Drafts release notes from merged pull requests. Use when the user asks for release notes.\n---\n\n"

describe("SK-SAFE-UNBOUNDED reads what the agent may not stop, and a prohibition that asks first", () => {
  it("reports an agent told never to stop or ask", () => {
    for (const rule of ["Do not stop, even if a check fails.", "Never stop to ask the user; make any change you need.", "Make any changes you need without asking."]) {
      const text = withRule(rule)
      expect(findingOf(review(text), "SK-SAFE-UNBOUNDED")?.lineStart, rule).toBe(lineOf(text, rule))
    }
  })

  it("does not report stopping something else, or going on through a list that ends", () => {
    expect(ids(review(withRule("Do not stop the preview server between drafts.")))).not.toContain("SK-SAFE-UNBOUNDED")
    expect(ids(review(withRule("Do not stop at the first unlabeled pull request; list all of them.")))).not.toContain("SK-SAFE-UNBOUNDED")
  })

  it("does not report a prohibition of acting without the user's say: it asks first", () => {
    expect(ids(review(withRule("Never stop running containers to free space without asking.")))).not.toContain("SK-SAFE-UNBOUNDED")
    expect(ids(review(withRule("Never make any changes to the published notes without approval.")))).not.toContain("SK-SAFE-UNBOUNDED")
  })
})

describe("SK-CONS-UNDO-STEP: a step that names the removal prepares it", () => {
  it("a step asking which ones to delete, then the deletion, undoes nothing", () => {
    const text = withStep("List the draft branches nobody has pushed to in 30 days.\n7. Ask the user which of the listed branches to delete.\n8. Delete the branches the user named.")
    expect(ids(review(text))).not.toContain("SK-CONS-UNDO-STEP")
  })

  it("a step deleting what an earlier step created is still reported", () => {
    const text = withStep("Create the branch `notes/v2.3.0` for the draft.\n7. Delete the branch `notes/v2.3.0`.")
    expect(findingOf(review(text), "SK-CONS-UNDO-STEP")?.lineStart).toBe(lineOf(text, "7. Delete"))
  })
})

describe("example tags (<example>, <good>/<bad>) are samples, read like a code block", () => {
  const good = "<example>\n<good>\nerror: config file `deploy.yaml` not found\n  looked in: ./deploy.yaml, ./config/deploy.yaml\n</good>\n</example>\n"

  it("a path inside an example is the sample's, not a missing bundle file; the same line outside one is", () => {
    const inside = SAMPLE_SKILL.replace("## Rules\n", `${good}\n## Rules\n`)
    expect(ids(review(inside))).not.toContain("SK-REF-DANGLING-PATH")
    const outside = SAMPLE_SKILL.replace("## Rules\n", "Look in ./config/deploy.yaml first.\n\n## Rules\n")
    expect(findingOf(review(outside), "SK-REF-DANGLING-PATH")?.lineStart).toBe(lineOf(outside, "./config/deploy.yaml"))
  })

  it("code taught inline is shown by an example block as by a code block (SK-EX-NO-CODE)", () => {
    const taught = withStep("Parse the changelog with `parseChangelog(text)` and group the entries with `groupBy(entries, \"label\")`.")
    const bare = taught.replace(/```markdown[\s\S]*?```\n\nSee `examples\/v2.md` for a complete release.\n/, "Ask for the notes of a version and get one line per change.\n")
    expect(ids(review(bare))).toContain("SK-EX-NO-CODE")
    const shown = taught.replace(
      /```markdown[\s\S]*?```\n\nSee `examples\/v2.md` for a complete release.\n/,
      "<example>\nparseChangelog(text) gives [{ label: \"feature\", title: \"Export audits as CSV\" }]\n</example>\n"
    )
    expect(ids(review(shown))).not.toContain("SK-EX-NO-CODE")
  })
})

describe("SK-STRUCT-NO-SECTIONS: sections written as XML tags are sections", () => {
  // a body over 40 lines: a shorter one reads whole and needs no sections at all
  const NOTES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].flatMap((part) => ["Group the changes by label.", "Name the pull request of each change.", "Leave out reverted changes.", "Keep each line under 100 characters.", "Put breaking changes first.", "Link the migration guide when there is one.", "Thank first-time contributors by name.", "Date the notes in UTC."].map((l) => `${l} (part ${part})\n`)).join("")
  const body = (open: (t: string) => string, close: (t: string) => string) =>
    `${FRONT}# Release Notes\n\n${open("instructions")}\nList the merged pull requests with \`gh pr list --state merged\` and write one line per change.\n${NOTES}${close("instructions")}\n\n${open("rules")}\nNever include internal-only changes.\n${close("rules")}\n`

  it("a title and XML sections: no finding; the same text without its tags has no sections", () => {
    expect(ids(review(body((t) => `<${t}>`, (t) => `</${t}>`)))).not.toContain("SK-STRUCT-NO-SECTIONS")
    expect(ids(review(body(() => "", () => "")))).toContain("SK-STRUCT-NO-SECTIONS")
  })
})

describe("SK-STRUCT-ENDS-EARLY: a list written in a sentence is a list", () => {
  const doc = (output: string) =>
    `${FRONT}# Release Notes\n\nTurn merged pull requests into release notes.\n\n## Before you start\n\n- Know the version.\n- Have \`gh\` signed in.\n\n## Steps\n\n1. List the merged pull requests.\n2. Group them by label.\n3. Write one line per change.\n\n## Rules\n\n- Never include internal-only changes.\n- Ask the user when a pull request has no label.\n\n## Output\n\n${output}\n`

  it("a last section that gives its items in a sentence is complete; one with no items in any form is not", () => {
    expect(ids(review(doc("The release description, with: the version, the date, one line per change, and the pull request numbers.")))).not.toContain("SK-STRUCT-ENDS-EARLY")
    const bare = doc("The release description goes on the release page.")
    expect(findingOf(review(bare), "SK-STRUCT-ENDS-EARLY")?.lineStart).toBe(lineOf(bare, "## Output"))
  })
})

describe("SK-STRUCT-RUN-TOGETHER: notes on the code right above are not another part", () => {
  const after = (bullets: string) =>
    SAMPLE_SKILL.replace(
      "See `examples/v2.md` for a complete release.\n\n## Rules\n\n",
      `See \`examples/v2.md\` for a complete release.\n\n\`\`\`bash\ngh pr list --state merged --limit 200\n\`\`\`\n\n${bullets}\n## Rules\n\n`
    )

  it("a list naming the block's flag comments on it; a list naming nothing of it ran into it", () => {
    expect(ids(review(after("- `--limit 200` covers a release of any size; raise it for a longer one.\n- Leave out drafts.\n")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    const joined = after("- Keep one line per change.\n- Name the author of each change.\n")
    expect(findingOf(review(joined), "SK-STRUCT-RUN-TOGETHER")?.lineStart).toBe(lineOf(joined, "- Keep one line"))
  })
})

describe("SK-EX-MISSING: a table of the exact commands shows them in use", () => {
  const text = SAMPLE_SKILL.replace(/## Examples\n\n```markdown[\s\S]*?```\n\nSee `examples\/v2.md` for a complete release.\n\n/, "")
    .replace(/description: .*\n/, "description: Groups the merged pull requests of a release by label. Use when the user asks what changed in a version.\n")

  it("minor without one, nothing with one (issue 22, sixth round: the table is the example, no note)", () => {
    expect(findingOf(review(text), "SK-EX-MISSING")?.severity).toBe("minor")
    const table = text.replace(
      "## Rules\n",
      "## Commands\n\n| task | command |\n|---|---|\n| merged pull requests | `gh pr list --state merged --base main` |\n| one release | `gh release view v2.3.0` |\n\n## Rules\n"
    )
    expect(findingOf(review(table), "SK-EX-MISSING")).toBeUndefined()
  })
})

describe("damage read from structure in skills of other layouts", () => {
  it("SK-STRUCT-RUN-TOGETHER: a procedure with no introduction, after its section's own code, lost its heading; a lead-in or a bold label introduces one", () => {
    const section = (intro: string) =>
      `${FRONT}# Release Notes\n\nTurn merged pull requests into release notes.\n\n## Where things live\n\n\`\`\`text\nnotes/\n└── v2.3.0.md\n\`\`\`\n\nEach release has one file, named after its tag.\n\n${intro}1. List the merged pull requests.\n2. Group them by label.\n3. Write one line per change.\n`
    const joined = section("")
    expect(findingOf(review(joined), "SK-STRUCT-RUN-TOGETHER")?.lineStart).toBe(lineOf(joined, "1. List"))
    expect(ids(review(section("To write the notes of a release:\n\n")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(section("**Writing a release**\n\n")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
  })

  it("SK-STRUCT-RUN-TOGETHER: so does a procedure in a code block; a table after a paragraph, or a procedure led into, labelled, under its heading or about what the heading names, does not", () => {
    const base = (heading: string) =>
      `${FRONT}# Release Notes\n\nTurn merged pull requests into release notes.\n\n## ${heading}\n\n- Know the version.\n- Have \`gh\` signed in.\n\nThe notes go to the release page.\n\n`
    const code = "```text\n1. List the merged pull requests.\n2. Group them by label.\n3. Write one line per change.\n```\n"
    const joined = base("Before you start") + code
    expect(findingOf(review(joined), "SK-STRUCT-RUN-TOGETHER")?.lineStart).toBe(lineOf(joined, "```text"))
    expect(ids(review(base("Before you start").replace("The notes go to the release page.", "The notes go to the release page, in three steps:") + code))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(base("Before you start").replace("The notes go to the release page.", "The notes go to the release page; the steps are below.") + code))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(`${base("Before you start")}## Steps\n\n${code}`))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(base("Writing the notes") + code))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    // a table after a paragraph is often introduced by it without a colon ("Each label maps to a section.")
    expect(ids(review(`${base("Before you start")}| label | section |\n|---|---|\n| feature | Features |\n| bug | Fixes |\n`))).not.toContain("SK-STRUCT-RUN-TOGETHER")
  })

  it("SK-EX-NOT-CONCRETE: an example tag block with its sample in it is concrete; an Examples section of prose is not", () => {
    const doc = (examples: string) =>
      `---\nname: sql-style\ndescription: Formats SQL queries to the team style. Use when the user asks to tidy a query.\n---\n\n# SQL Style\n\n## Rules\n\n1. Write keywords in upper case.\n2. Put one clause per line.\n3. Use explicit joins.\n\n## Examples\n\n${examples}\n`
    const prose = doc("Upper-case keywords, one clause per line and explicit joins, as in the rules.")
    expect(findingOf(review(prose), "SK-EX-NOT-CONCRETE")?.lineStart).toBe(lineOf(prose, "## Examples"))
    expect(ids(review(doc("<example>\n<good>\nSELECT o.id\nFROM orders AS o\nJOIN customers AS c ON c.id = o.customer_id\n</good>\n</example>")))).not.toContain("SK-EX-NOT-CONCRETE")
  })

  it("SK-STRUCT-PROMISED: \"the format below\" with no block, table or quote below it points at nothing", () => {
    const step = (after: string) => SAMPLE_SKILL.replace("## Rules\n", `Write each entry in the format below.\n\n${after}## Rules\n`)
    const gone = step("")
    expect(findingOf(review(gone), "SK-STRUCT-PROMISED")?.lineStart).toBe(lineOf(gone, "in the format below"))
    expect(ids(review(step("```text\n- <change> (#<number>)\n```\n\n")))).not.toContain("SK-STRUCT-PROMISED")
    expect(ids(review(step("> - Export audits as CSV (#412)\n\n")))).not.toContain("SK-STRUCT-PROMISED")
  })

  it("SK-CONS-ALWAYS-NEVER: a step whose instruction comes before a colon is read by that instruction", () => {
    const step = SAMPLE_SKILL.replace("3. Group the pull requests by label into Features, Fixes and Internal.", "3. Group the pull requests by label: Features, Fixes and Internal.")
    const text = step.replace("## Verification", "## Notes\n\nNever group the pull requests by label.\n\n## Verification")
    expect(findingOf(review(text), "SK-CONS-ALWAYS-NEVER")?.lineStart).toBe(lineOf(text, "Never group"))
    // a label that is no instruction is still set apart: the step is what follows it
    const labelled = SAMPLE_SKILL.replace("3. Group the pull requests", "3. **Grouping**: Group the pull requests")
      .replace("## Verification", "## Notes\n\nNever group the pull requests by label into Features, Fixes and Internal.\n\n## Verification")
    expect(ids(review(labelled))).toContain("SK-CONS-ALWAYS-NEVER")
  })

  it("SK-CONS-ALWAYS-NEVER: the apply removes a contradicting sentence that holds inline code", () => {
    const text = withRule("Never delete anything under `/var/lib/notes` by hand.").replace("## Verification", "## Notes\n\nAlways delete anything under `/var/lib/notes` by hand.\n\n## Verification")
    const r = review(text)
    expect(ids(r)).toContain("SK-CONS-ALWAYS-NEVER")
    expect(r.improvedVersion).not.toBeNull()
    expect(r.improvedVersion!.content).not.toContain("Always delete anything")
    expect(r.improvedVersion!.content).toContain("Never delete anything under `/var/lib/notes` by hand.")
  })

  it("SK-CONS-UNDO-STEP: what a step makes is its object, not the place it puts it", () => {
    const text = withStep("Add the summary next to the old notes.\n7. Remove the summary.")
    expect(findingOf(review(text), "SK-CONS-UNDO-STEP")?.lineStart).toBe(lineOf(text, "7. Remove"))
    expect(ids(review(withStep("Add a temporary summary next to the notes.\n7. Remove the summary.")))).not.toContain("SK-CONS-UNDO-STEP")
  })

  it("SK-STEPS-MISSING: a description that diagnoses or troubleshoots does a job", () => {
    const body = (verb: string) =>
      `---\nname: release-notes\ndescription: ${verb} failed release-note builds from their logs. Use when the notes job fails.\n---\n\n# Release Notes Builds\n\nThe job logs say what went wrong.\n\n\`\`\`bash\ngh run view --log-failed\ngh run list --workflow notes.yml\n\`\`\`\n`
    expect(ids(review(body("Diagnoses")))).toContain("SK-STEPS-MISSING")
    expect(ids(review(body("Troubleshoots")))).toContain("SK-STEPS-MISSING")
  })
})

describe("the apply of an unclosed frontmatter", () => {
  it("closes it after its last key and edits none of its lines, though the checks read them as body", () => {
    const yaml = [
      "---",
      "name: release-notes",
      "description: >-",
      "  Drafts release notes from merged pull requests. Use when the user asks for release notes.",
      "version: 1.4.0",
      "allowed-tools:",
      "  - Bash(gh pr list:*)",
      "  - Bash(gh release view:*)",
      "  - Read",
      "metadata:",
      "  author: platform-team",
      "  tags: [releases, notes, changelog]",
      "  min-gh: \"2.40\"",
      "  reviewed: \"2025-01-20\""
    ]
    const text = `${yaml.join("\n")}\n${SAMPLE_SKILL.slice(SAMPLE_SKILL.indexOf("\n# Release Notes"))}`
    const r = review(text)
    expect(ids(r)).toContain("SK-FM-UNCLOSED")
    // the map once read as a paragraph repeating the list item above it (it is that item's continuation,
    // and is read as such since the fifth round); whatever the checks make of these lines, none is edited
    const improved = r.improvedVersion!.content.split("\n")
    expect(improved.slice(0, yaml.length + 1)).toEqual([...yaml, "---"])
    expect(r.improvedVersion!.changes.every((c) => Number(/^Lines? (\d+)/.exec(c)?.[1] ?? yaml.length + 1) > yaml.length)).toBe(true)
  })
})
