/**
 * Near misses from the sixth round of samples in other styles (issue 22: the rules must read structure
 * and carry to skills never seen): each wrong finding the sixteen new samples drew, as the smallest
 * text that drew it, next to the real problem the rule is for, which it must still report.
 */
import { describe, expect, it } from "@effect/vitest"
import { parseFrontmatter } from "../../src/markdown/Frontmatter.js"
import { findingOf, lineOf, reviewText as review, ruleIds as ids, severityOf } from "./support.js"


const FRONT = "---\nname: release-notes\ndescription: Drafts release notes from merged pull requests. Use when the user asks for release notes.\n---\n\n"
const TITLE = "# Release Notes\n\nTurn the merged pull requests of a release into notes users read in two minutes.\n\n"

describe("SK-FM-YAML: a double-quoted scalar may continue on indented lines", () => {
  const fm = (description: string) => `---\nname: release-notes\ndescription: ${description}\n---\n\n# Release Notes\n`

  it("reads a multi-line quoted description whole, escaped quotes included", () => {
    const parsed = parseFrontmatter(fm("\"Drafts release notes from \\\"merged\\\" pull requests.\n  Use when the user asks for release notes.\""))
    expect(parsed.issues).toEqual([])
    expect(parsed.fields.find((f) => f.key === "description")?.value).toBe("Drafts release notes from \"merged\" pull requests. Use when the user asks for release notes.")
  })

  it("still reports a quote that never closes, on one line or on several", () => {
    expect(parseFrontmatter(fm("\"Drafts release notes. Use when asked.")).issues.map((i) => i.severity)).toEqual(["major"])
    expect(parseFrontmatter(fm("\"Drafts release notes.\n  Use when asked.")).issues.map((i) => i.severity)).toEqual(["major"])
  })
})

describe("SK-STEPS-MISSING: steps numbered in the rows of a table", () => {
  const table = (rows: ReadonlyArray<string>) =>
    `${FRONT}${TITLE}## Procedure\n\n| Step | Command | Check |\n|---|---|---|\n${rows.map((r) => `${r}\n`).join("")}\nEach check must hold before the next step.\n`

  it("a Step | Command | Check table whose rows are numbered actions is the procedure", () => {
    const text = table([
      "| 1. List the merged pull requests | `gh pr list --state merged` | one line per pull request |",
      "| 2. Group them by label | none | every pull request in one group |",
      "| 3. Write the notes | none | one line per change |"
    ])
    expect(ids(review(text))).not.toContain("SK-STEPS-MISSING")
  })

  it("a numbered catalogue (`| 1 | **The Architect** |`) is no procedure", () => {
    const text = `${FRONT}${TITLE}## Archetypes\n\n| # | Archetype | Asks |\n|---|---|---|\n| 1 | **The Architect** | \"What is the structure?\" |\n| 2 | **The Contrarian** | \"What if the opposite holds?\" |\n| 3 | **The Empiricist** | \"What does the data show?\" |\n\nRun \`gh pr list --state merged\` and write the notes with the archetypes in mind.\n`
    expect(ids(review(text))).toContain("SK-STEPS-MISSING")
  })
})

describe("SK-STRUCT-RUN-TOGETHER: a table indented under a step is the step's own", () => {
  const doc = (indent: string, lead: string) =>
    `${FRONT}${TITLE}## Steps\n\n1. List the merged pull requests with \`gh pr list --state merged\`.\n2. Group them by label.\n3. Route each group to its section${lead}\n\n${indent}| Label | Section |\n${indent}|---|---|\n${indent}| feature | Features |\n${indent}| bug | Fixes |\n\n## Checks\n\nEvery pull request appears once.\n`

  it("no finding on a table indented inside step 3; a table right after the list at the margin is still two parts run together", () => {
    expect(ids(review(doc("   ", ":")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    const text = doc("", ".")
    expect(findingOf(review(text), "SK-STRUCT-RUN-TOGETHER")?.lineStart).toBe(lineOf(text, "| Label | Section |"))
  })
})

describe("SK-SAFE-UNBOUNDED: forbidding one request to the user is no autonomy", () => {
  const doc = (rule: string) => `${FRONT}${TITLE}## Steps\n\n1. List the merged pull requests.\n2. Group them by label.\n3. Write one line per change.\n\n## Rules\n\n- ${rule}\n- Keep internal changes out.\n`

  it("\"Never ask the user to paste the token\" forbids a request; \"never ask the user\" and \"do not ask the user to confirm\" remove the bound", () => {
    expect(ids(review(doc("Never ask the user to paste the API token into this conversation.")))).not.toContain("SK-SAFE-UNBOUNDED")
    expect(ids(review(doc("Never ask the user, just publish the notes.")))).toContain("SK-SAFE-UNBOUNDED")
    expect(ids(review(doc("Do not ask the user to confirm the publication.")))).toContain("SK-SAFE-UNBOUNDED")
  })
})

describe("SK-CLAR-SHOUTING: key words the document defines are a graded vocabulary", () => {
  const rules = "## Rules\n\n1. The reviewer MUST read the whole document first.\n2. The reviewer MUST NOT edit the contract.\n3. The reviewer MUST quote the clause text.\n4. The reviewer SHOULD note unusual clauses.\n5. The reviewer MUST list missing schedules.\n6. The reviewer MAY paraphrase after the quote.\n7. The reviewer MUST NOT give a view on signing.\n"
  const conventions = "## Conventions\n\nThe key words \"MUST\", \"MUST NOT\", \"SHOULD\" and \"MAY\" in this document are to be interpreted as described in RFC 2119.\n\n"

  it("no finding when a line defines them (RFC 2119 style); the same capitals undefined are still reported", () => {
    expect(ids(review(`${FRONT}${TITLE}${conventions}${rules}`))).not.toContain("SK-CLAR-SHOUTING")
    expect(ids(review(`${FRONT}${TITLE}${rules}`))).toContain("SK-CLAR-SHOUTING")
  })
})

describe("SK-EX-MISSING: tools called by name, and the output's wording given verbatim", () => {
  it("MCP tool names are tools, not code to show in a block; library calls named and never shown still are", () => {
    const doc = (a: string, b: string, c: string) =>
      `${FRONT}${TITLE}## Steps\n\n1. Call \`${a}\` for the merged pull requests.\n2. Call \`${b}\` for each one's labels.\n3. Save the notes with \`${c}\`.\n\n## Rules\n\n- Never publish the notes yourself.\n`
    expect(severityOf(review(doc("mcp__github__list_pulls", "mcp__github__get_labels", "mcp__notes__create_draft")), "SK-EX-MISSING")).not.toBe("major")
    expect(severityOf(review(doc("client.list_pulls(state)", "pull.get_labels()", "notes.create_draft(text)")), "SK-EX-MISSING")).toBe("major")
  })

  it("an output section that gives its lines verbatim in inline code shows the output", () => {
    const doc = (report: string) =>
      `---\nname: release-notes\ndescription: Drafts a release report from merged pull requests. Use when the user asks for release notes.\n---\n\n${TITLE}## Steps\n\n- Read the merged pull requests.\n- Sort them by label.\n\n## Report\n\n${report}\n`
    expect(severityOf(review(doc("One verdict line: `Ready to ship` / `Not ready: <what is missing>`, then a table of the changes.")), "SK-EX-MISSING")).not.toBe("minor")
    expect(severityOf(review(doc("One verdict line, then a table of the changes.")), "SK-EX-MISSING")).toBe("minor")
  })
})

describe("SK-STEPS-UNORDERED: bullets in a skill are a note, in a command a finding", () => {
  const doc = `${FRONT}${TITLE}## What to ask for\n\n- Ask which version the notes are for.\n- Ask who reads them.\n- Ask when they are due.\n\n## Writing\n\nOne line per user-visible change.\n`

  it("info in a skill (bullets are as often inputs, checks or rules); minor in a command, whose order is the point", () => {
    expect(severityOf(review(doc), "SK-STEPS-UNORDERED")).toBe("info")
    expect(severityOf(review(doc, "command"), "SK-STEPS-UNORDERED")).toBe("minor")
  })
})

describe("SK-STRUCT-ENDS-EARLY: an output section that shows its result closes the document", () => {
  const doc = (output: string) =>
    `${FRONT}${TITLE}## Rules\n\n- Never publish the notes yourself.\n- Keep internal changes out.\n\n## Inputs\n\n- The version.\n- The merged pull requests.\n\n## Steps\n\n1. Group the pull requests by label.\n2. Write one line per change.\n3. Check every pull request appears once.\n\n## Output\n\n${output}\n`

  it("no finding on an Output section with its template in a block; one with a sentence only is still short of the list the others have", () => {
    expect(ids(review(doc("Write the notes to `notes/v2.md`:\n\n```markdown\n## v2.3.0\n### Features\n- Export audits as CSV (#412)\n```")))).not.toContain("SK-STRUCT-ENDS-EARLY")
    const cut = doc("Write the notes to `notes/v2.md`.")
    expect(findingOf(review(cut), "SK-STRUCT-ENDS-EARLY")?.lineStart).toBe(lineOf(cut, "## Output"))
  })
})

describe("info notes users read: a check with its criterion, samples in other forms, enumerations, emoji headings", () => {
  it("SK-EX-MISSING: a skill that writes no document, with its commands in a table or two callouts", () => {
    const doc = (more: string) => `---\nname: release-notes\ndescription: Tags a release from the main branch. Use when the user asks to tag a release.\n---\n\n# Release Tags\n\nTag the release commit so the pipeline builds it.\n\n## Steps\n\n1. Pick the version with the user.\n2. Tag the commit.\n3. Push the tag.\n\n${more}\n`
    expect(ids(review(doc("| Task | Command |\n|---|---|\n| tag | `git tag -a v2.3.0 -m v2.3.0` |\n| push | `git push origin v2.3.0` |")))).not.toContain("SK-EX-MISSING")
    expect(severityOf(review(doc("> **Warning:** never move a pushed tag.\n\n> [!NOTE]\n> Tags are read by the pipeline.")), "SK-EX-MISSING")).toBe("info")
  })

  it("SK-VERIFY-WEAK: a one-line check that states its expected result, or opens the commands it runs, is explicit", () => {
    const doc = (check: string) => `${FRONT}${TITLE}## Steps\n\n1. List the merged pull requests with \`gh pr list --state merged\`.\n2. Write one line per change into \`notes.md\`.\n3. ${check}\n`
    expect(ids(review(doc("Check the draft: it is done when every pull request appears once.")))).not.toContain("SK-VERIFY-WEAK")
    expect(ids(review(doc("Validate the notes:\n\n   ```bash\n   markdownlint notes.md\n   ```")))).not.toContain("SK-VERIFY-WEAK")
    expect(ids(review(doc("Check the draft once more.")))).toContain("SK-VERIFY-WEAK")
  })

  it("SK-EX-MISSING: blockquoted samples or a Do | Don't table are the samples of what a skill writes", () => {
    const doc = (samples: string) => `${FRONT}${TITLE}## Writing\n\nOne line per user-visible change, in the users' words.\n\n${samples}\n`
    expect(ids(review(doc("> Export audits as CSV (#412)\n\n> Keep the cart after sign-in (#418)")))).not.toContain("SK-EX-MISSING")
    expect(ids(review(doc("| Do | Don't |\n|---|---|\n| Export audits as CSV | Refactor CSV writer |\n| Keep the cart after sign-in | Fix session bug |")))).not.toContain("SK-EX-MISSING")
    // release notes with no sample of their lines: an "e.g." in passing shows none
    expect(severityOf(review(doc("Name the change, e.g. the export.")), "SK-EX-MISSING")).toBe("minor")
  })

  it("SK-STEPS-NOT-IMPERATIVE: items that name things (what to report) are no steps written badly; passive steps still are", () => {
    const doc = (a: string, b: string, c: string) => `${FRONT}${TITLE}## What to report\n\n1. ${a}\n2. ${b}\n3. ${c}\n`
    expect(ids(review(doc("The version, and its date.", "The changes: one line each.", "The pull requests left out, with the reason.")))).not.toContain("SK-STEPS-NOT-IMPERATIVE")
    expect(ids(review(doc("The pull requests are listed.", "The labels are read.", "The notes are written.")))).toContain("SK-STEPS-NOT-IMPERATIVE")
  })

  it("SK-FAIL-WEAK: a command \"that fails\" with what to do then is a second case handled", () => {
    const doc = (more: string) => `${FRONT}${TITLE}## Steps\n\n1. List the merged pull requests with \`gh pr list --state merged\`.\n2. Publish with \`gh release create v2.3.0 --notes-file notes.md\`.\n3. Check the release page shows the notes.\n\nIf \`gh\` is not logged in, ask the user to run \`gh auth login\`.${more}\n`
    expect(ids(review(doc("\n\nA release that fails halfway leaves a draft behind: delete the draft before trying again.")))).not.toContain("SK-FAIL-WEAK")
    expect(ids(review(doc("\n\nA release takes a minute.")))).toContain("SK-FAIL-WEAK")
  })

  it("a heading with an emoji is read by its words (\"## 🐞 When It Does Nothing\" handles failures)", () => {
    const doc = (heading: string) => `${FRONT}${TITLE}## Steps\n\n1. List the merged pull requests with \`gh pr list --state merged\`.\n2. Publish with \`gh release create v2.3.0 --notes-file notes.md\`.\n3. Check the release page shows the notes.\n\n## ${heading}\n\n- **The tag exists already**: leave it and say so.\n- **gh is not logged in**: ask the user to run \`gh auth login\`.\n`
    expect(ids(review(doc("🐞 When It Does Nothing")))).not.toContain("SK-FAIL-WEAK")
    expect(ids(review(doc("🐞 When It Does Nothing")))).toEqual(ids(review(doc("When It Does Nothing"))))
  })
})

describe("the apply keeps the lines of a frontmatter that never closes", () => {
  it("closes the block and trims trailing spaces in the body only (no trailing-space finding on a YAML line)", () => {
    const text = "---\nname: release-notes   \ndescription: Drafts release notes. Use when asked.  \n\n# Release Notes\n\nTurn pull requests into notes.   \n\n## Steps\n\n1. List them.\n2. Group them.\n3. Write them.\n"
    const r = review(text)
    expect(findingOf(r, "SK-FMT-TRAILING-SPACE")?.lineStart).toBe(lineOf(text, "Turn pull requests"))
    const improved = r.improvedVersion!.content
    expect(improved).toContain("name: release-notes   \ndescription: Drafts release notes. Use when asked.  \n---\n")
    expect(improved).toContain("Turn pull requests into notes.\n")
  })
})

describe("damage the new samples hid, read from structure", () => {
  it("SK-SAFE-DESTRUCTIVE: \"…, or ask the user to, and listen\" hands the step's act over; it asks for no go-ahead", () => {
    const doc = (step: string) =>
      `${FRONT}${TITLE}## Steps\n\n1. List the merged pull requests with \`gh pr list --state merged\`.\n2. ${step}\n3. Start from a clean state: run \`rm -rf ./*\` in the project root.\n`
    const text = doc("Read the draft aloud, or ask the user to, and listen for names that read badly.")
    expect(findingOf(review(text), "SK-SAFE-DESTRUCTIVE")?.lineStart).toBe(lineOf(text, "rm -rf"))
    expect(ids(review(doc("Show the user what will be removed and ask the user to confirm it. Wait for the answer.")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Ask the user to review the list and say yes before anything is removed.")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Ask the user to select what may be removed.")))).not.toContain("SK-SAFE-DESTRUCTIVE")
  })

  it("SK-CONS-ALWAYS-NEVER: a step whose label ends \"… that do not\" (those that do not scale) is a step, not a prohibition", () => {
    const doc = (extra: string) =>
      `${FRONT}${TITLE}## Steps\n\n1. **Group the pull requests that have a label** by that label.\n2. **Sort the pull requests that do not** (next section).\n3. **Write one line per change** in the users' words.\n\n## Unlabelled pull requests\n\nAsk the author for a label.${extra}\n`
    expect(ids(review(doc("")))).not.toContain("SK-CONS-ALWAYS-NEVER")
    const text = doc("\n\nNever sort the pull requests that do not (next section).")
    expect(findingOf(review(text), "SK-CONS-ALWAYS-NEVER")?.lineStart).toBe(lineOf(text, "Never sort the pull requests"))
  })

  it("SK-STRUCT-PROMISED: \"follow this structure.\" mid-line, in a section that shows no structure anywhere", () => {
    const doc = (block: string, after = "") =>
      `${FRONT}${TITLE}## Steps\n\n1. List the merged pull requests.\n2. Group them by label.\n3. Write one line per change.\n\n## Output\n\n${block}The notes must follow this structure. Sections with nothing to report say "None."\n\n${after}Keep each line under 100 characters.\n`
    const text = doc("")
    expect(findingOf(review(text), "SK-STRUCT-PROMISED")?.lineStart).toBe(lineOf(text, "follow this structure"))
    const template = "```markdown\n## v2.3.0\n### Features\n- Export audits as CSV (#412)\n```\n\n"
    expect(ids(review(doc("", template)))).not.toContain("SK-STRUCT-PROMISED")
    expect(ids(review(doc(template)))).not.toContain("SK-STRUCT-PROMISED")
  })

  it("SK-STRUCT-PROMISED: \"see below\" with nothing below it (a Step | Command | Check table cut after its last row)", () => {
    const doc = (after: string) =>
      `${FRONT}${TITLE}## Steps\n\n| Step | Command | Check |\n|---|---|---|\n| 1. List the merged pull requests | \`gh pr list --state merged\` | one line each |\n| 2. Group them by label | none | every one in a group |\n| 3. Check the notes | see below | every pull request once |\n${after}`
    const text = doc("")
    expect(findingOf(review(text), "SK-STRUCT-PROMISED")?.lineStart).toBe(lineOf(text, "see below"))
    expect(ids(review(doc("\n## Checking the notes\n\nCount the lines against `gh pr list --state merged | wc -l`.\n")))).not.toContain("SK-STRUCT-PROMISED")
  })

  it("SK-STRUCT-CUT-SHORT: \"covers three cases\" over fewer \"Case N\" headings; none when all three are there or none is numbered", () => {
    const cases = (n: number) => Array.from({ length: n }, (_, k) => `## Case ${k + 1}: part ${k + 1}\n\n1. Read the pull requests of part ${k + 1}.\n2. Write one line each.\n3. Check each appears once.\n\n`).join("")
    const doc = (body: string) => `${FRONT}# Release Notes\n\nThis skill covers three cases. Ask which one the user needs.\n\n${body}`
    const cut = doc(cases(2))
    expect(findingOf(review(cut), "SK-STRUCT-CUT-SHORT")?.lineStart).toBe(lineOf(cut, "covers three cases"))
    expect(ids(review(doc(cases(3))))).not.toContain("SK-STRUCT-CUT-SHORT")
    expect(ids(review(doc("## A patch release\n\n1. Read the fixes.\n2. Write one line each.\n3. Check each appears once.\n")))).not.toContain("SK-STRUCT-CUT-SHORT")
  })

  it("the apply's worked run takes its steps from a Step | Command | Check table when there is no list", () => {
    const text = `---\nname: release-notes\ndescription: Flashes a release image to a board. Use when the user wants to flash an image.\n---\n\n# Flashing\n\nWrite the image, then check it.\n\n## Steps\n\n| Step | Command | Check |\n|---|---|---|\n| 1. Verify the download | \`sha256sum -c SHA256SUMS\` | prints OK |\n| 2. Unmount the card | \`sudo umount /dev/sdX1\` | no mount points |\n| 3. Write the image | \`sudo dd if=image.img of=/dev/sdX bs=4M\` after the user confirms the device | no error |\n\n## Rules\n\n- Never write to a device the user has not confirmed.\n- Stop if the checksum differs.\n`
    const r = review(text)
    expect(severityOf(r, "SK-EX-MISSING")).toBe("major")
    expect(r.improvedVersion?.content).toContain("1. Verify the download\n2. Unmount the card\n3. Write the image")
  })
})
