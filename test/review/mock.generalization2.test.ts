/**
 * Near misses from the fifth round of samples in other styles (issue 22: the rules must read structure
 * and carry to skills never seen): each wrong finding the sixteen new samples drew, as the smallest
 * text that drew it, next to the real problem the rule is for, which it must still report.
 */
import { describe, expect, it } from "@effect/vitest"
import { findingOf, lineOf, reviewText as review, ruleIds as ids, severityOf } from "./support.js"


const FRONT = "---\nname: release-notes\ndescription: Drafts release notes from merged pull requests. Use when the user asks for release notes.\n---\n\n"
const STEPS = "## Steps\n\n1. List the merged pull requests.\n2. Group them by label.\n3. Write one line per change.\n\n"

describe("SK-SAFE-DESTRUCTIVE: the question asked and the answer waited for, however they are worded", () => {
  const section = (ask: string) =>
    `${FRONT}# Release Notes\n\nTurn merged pull requests into release notes.\n\n${STEPS}## Removing old drafts\n\nList the draft branches with their last author and date.${ask}\n\n\`\`\`bash\ngit branch -D <branch>\n\`\`\`\n`

  it("reports a forced delete that nothing asks about first", () => {
    const text = section("")
    expect(findingOf(review(text), "SK-SAFE-DESTRUCTIVE")?.lineStart).toBe(lineOf(text, "git branch -D"))
  })

  it("does not report it after a quoted question and a wait for the answer, or after \"only after a yes\"", () => {
    expect(ids(review(section(" Ask: \"Delete these drafts?\" Wait for the answer.")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(section(" Show the list to the user. Only after a yes, for the branches they named:")))).not.toContain("SK-SAFE-DESTRUCTIVE")
  })

  it("does not report a command whose own line requires a confirmation", () => {
    const text = `${FRONT}# Release Notes\n\nTurn merged pull requests into release notes.\n\n${STEPS}## Removing old drafts\n\nFor a draft branch the user chose to drop, \`git branch -D <branch>\` is acceptable after a second confirmation that names the branch.\n`
    expect(ids(review(text))).not.toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-FAIL-MISSING: failure handling headed by its condition, or a condition that does not hold", () => {
  const skill = (more: string) =>
    `${FRONT}# Release Notes\n\nPublish the notes of a release.\n\n## When to use\n\nWhen the user asks to publish release notes.\n\n## Steps\n\n1. List the merged pull requests with \`gh pr list --state merged --json number,title\`.\n2. Push the tag with \`git push origin v2.3.0\`.\n3. Publish the notes with \`gh release create v2.3.0 --notes-file notes.md\`.\n\n## Checks\n\nThe release page shows the notes.\n${more}`

  it("reports a procedure that runs commands with no word on failure (\"When to use\" is no contingency)", () => {
    expect(severityOf(review(skill("")), "SK-FAIL-MISSING")).toBe("major")
  })

  it("a section headed by the condition it handles is failure handling", () => {
    const text = skill("\n## When something is off\n\n- **The tag exists already**: leave it and say so.\n- **The release page is empty**: publish the notes again.\n")
    expect(ids(review(text))).not.toContain("SK-FAIL-MISSING")
  })

  it("so is a refusal, or a condition that does not hold, with what to do", () => {
    const text = skill("\nIf `gh release create` refuses because the tag is not pushed, push it first and say so.\n")
    expect(severityOf(review(text), "SK-FAIL-MISSING")).not.toBe("major")
  })
})

describe("SK-STEPS-MISSING: a procedure in prose paragraphs, or in sections headed by their actions", () => {
  const doc = (body: string) => `${FRONT}# Release Notes\n\nRelease notes are read by users in two minutes.\n\n${body}`

  it("paragraphs opening First, Then, Finally are the steps; the same paragraphs without them are not", () => {
    const para = (a: string, b: string, c: string) =>
      doc(`## The method\n\n${a}list the merged pull requests with \`gh pr list --state merged\`.\n\n${b}group them by label into features and fixes.\n\n${c}write one line per user-visible change.\n`)
    expect(ids(review(para("First, ", "Then ", "Finally, ")))).not.toContain("SK-STEPS-MISSING")
    expect(ids(review(para("You ", "You ", "You ")))).toContain("SK-STEPS-MISSING")
  })

  it("three sibling sections headed by their actions are the steps; topic headings are not", () => {
    const sections = (a: string, b: string, c: string) =>
      doc(`## ${a}\n\nUse \`gh pr list --state merged\` for the release's range.\n\n## ${b}\n\nFeatures and fixes go apart; internal changes are left out.\n\n## ${c}\n\nOne line per user-visible change, with its pull request number.\n`)
    expect(ids(review(sections("List the merged pull requests", "Group them by label", "Write the notes")))).not.toContain("SK-STEPS-MISSING")
    expect(ids(review(sections("Pull requests", "Labels", "Notes")))).toContain("SK-STEPS-MISSING")
  })
})

describe("SK-STRUCT-NO-SECTIONS: a short skill reads whole at a glance", () => {
  const body = (extra: number) =>
    `${FRONT}# Release Notes\n\n1. List the merged pull requests with \`gh pr list --state merged\`.\n2. Group them by label.\n3. Write one line per change.\n\n${Array.from({ length: extra }, (_, k) => `Note ${k + 1}: keep each line under 100 characters.\n`).join("")}`

  it("no finding on a body of 80 lines or fewer; a longer one without '## ' sections still has one", () => {
    expect(ids(review(body(4)))).not.toContain("SK-STRUCT-NO-SECTIONS")
    expect(ids(review(body(30)))).not.toContain("SK-STRUCT-NO-SECTIONS")
    expect(ids(review(body(70)))).not.toContain("SK-STRUCT-NO-SECTIONS")
    expect(ids(review(body(85)))).toContain("SK-STRUCT-NO-SECTIONS")
  })
})

describe("SK-STRUCT-ENDS-EARLY: a closing section after a numbered run is no member of it", () => {
  const phases = (last: string) =>
    `${FRONT}# Zone Move\n\nMove a DNS zone without downtime.\n\n${[1, 2, 3].map((n) => `## Phase ${n}: Part ${n}\n\n- Do the first thing of part ${n}.\n- Do the second thing of part ${n}.\n\n`).join("")}${last}\n`

  it("an unnumbered recovery section ends the document; a fourth phase without the list the others have does not", () => {
    expect(ids(review(phases("## If something goes wrong\n\nSwitch the nameservers back; the old zone is still there.")))).not.toContain("SK-STRUCT-ENDS-EARLY")
    const cut = phases("## Phase 4: Part 4\n\nKeep the old zone for two days.")
    expect(findingOf(review(cut), "SK-STRUCT-ENDS-EARLY")?.lineStart).toBe(lineOf(cut, "## Phase 4"))
  })
})

describe("SK-STRUCT-CUT-SHORT: promised phases are counted in phase headings", () => {
  const doc = (n: number) =>
    `${FRONT}# Backfill\n\nThis skill does it in five phases, each of which can be stopped and resumed.\n\n${Array.from({ length: n }, (_, k) => `## Phase ${k + 1}: Part ${k + 1}\n\nDo part ${k + 1} and write down what you did.\n\n`).join("")}`

  it("five phase headings keep the promise; four do not", () => {
    expect(ids(review(doc(5)))).not.toContain("SK-STRUCT-CUT-SHORT")
    const cut = doc(4)
    expect(findingOf(review(cut), "SK-STRUCT-CUT-SHORT")?.message).toContain("promises 5 phases and gives 4")
  })
})

describe("SK-CLAR-VAGUE: a hedge opening a sentence instructs only when an action follows it", () => {
  const faq = (answer: string) =>
    `${FRONT}# Release Notes\n\nTurn merged pull requests into release notes.\n\n${STEPS}## Questions\n\n**Do small differences in the totals mean rounding?**\n${answer}\n`

  it("an answer with its criterion is no hedged instruction; a hedged action is", () => {
    expect(ids(review(faq("Possibly, for sums over many rows, and then the difference is in the last digits.")))).not.toContain("SK-CLAR-VAGUE")
    const hedged = faq("Possibly run the comparison again on one week.")
    expect(findingOf(review(hedged), "SK-CLAR-VAGUE")?.lineStart).toBe(lineOf(hedged, "Possibly run"))
  })
})

describe("SK-LEN-DUPLICATE: a list item's continuation lines are the item, not a paragraph repeating it", () => {
  const sub = "   2a. Start from the recommended preset and set the weekly schedule and the limits.\n   2b. Add one grouping rule per family of packages that release together.\n"
  const doc = (after: string) =>
    `${FRONT}# Renovate Setup\n\nConfigure dependency updates.\n\n## Procedure\n\n1. Read what the repository has.\n2. Write the base configuration:\n${sub}3. Open the change as a pull request.\n${after}`

  it("sub-steps 2a/2b under step 2 repeat nothing; a paragraph pasting them again does", () => {
    expect(ids(review(doc("")))).not.toContain("SK-LEN-DUPLICATE")
    const pasted = doc(`\n## Notes\n\n${sub.replace(/^ {3}/gm, "")}`)
    expect(ids(review(pasted))).toContain("SK-LEN-DUPLICATE")
  })
})

describe("SK-STRUCT-RUN-TOGETHER: a list naming a key of the config block above explains it", () => {
  const doc = (info: string, block: string, list: string) =>
    `${FRONT}# Renovate Setup\n\nConfigure dependency updates.\n\n${STEPS}## What may automerge\n\nAllow it only where a passing CI is good evidence:\n\n\`\`\`${info}\n${block}\n\`\`\`\n\n${list}\n`

  it("a config key named in the list: its own notes; a word that is only a line of a markdown sample: another part", () => {
    expect(ids(review(doc("json", "{\n  \"matchUpdateTypes\": [\"patch\"],\n  \"automerge\": true\n}", "- Never automerge a 0.x dependency.\n- Always require a review for major updates.")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    const joined = doc("markdown", "Verdict: approve\nTests: pass", "- Never approve a change whose tests you could not run.\n- Keep blocking comments for real defects.")
    expect(findingOf(review(joined), "SK-STRUCT-RUN-TOGETHER")?.lineStart).toBe(lineOf(joined, "- Never approve"))
  })
})

describe("examples in a table, and a checklist that is its own example", () => {
  it("SK-EX-NO-CODE: a table of exchanges in an examples section shows them; the same section in prose does not", () => {
    const doc = (examples: string) =>
      `${FRONT}# SQL Tutor\n\nTeach SQL by asking for a prediction first.\n\n## Topics\n\n1. Start with \`SELECT\` and \`WHERE\` on one table.\n2. Then \`GROUP BY city\` with \`COUNT(*)\`.\n3. Then \`LEFT JOIN\` on \`orders.customer_id\`.\n\n## Examples\n\n${examples}\n`
    const table = doc("| Learner | Tutor |\n|---|---|\n| \"How many orders per city?\" | \"Which two tables hold a city and an order? Write the `FROM` line first.\" |\n| \"Why does `= NULL` find nothing?\" | \"What do you think `NULL = NULL` returns? Try it.\" |")
    expect(ids(review(table))).not.toContain("SK-EX-NO-CODE")
    expect(ids(review(doc("Ask the learner to predict the rows of each query before running it, and discuss the difference.")))).toContain("SK-EX-NO-CODE")
  })

  it("SK-EX-MISSING: a checklist names the exact states to check; the same items as instructions teach commands", () => {
    const doc = (mark: string) =>
      `---\nname: release-checklist\ndescription: The checklist for shipping a mobile release. Use before submitting a build for store review.\n---\n\n# Release Checklist\n\nGo through the list with the user.\n\n## Build\n\n${mark}Version bumped to \`1.14.0\` and the build number raised.\n${mark}Release build made from the tag: \`git describe --exact-match\` prints it.\n${mark}Debug menus off: search the build settings for \`DEBUG_MENU\`.\n${mark}Crash reporting receives events from the release build.\n`
    expect(["info", undefined]).toContain(severityOf(review(doc("- [ ] ")), "SK-EX-MISSING"))
    expect(severityOf(review(doc("- Check: ")), "SK-EX-MISSING")).toBe("major")
  })
})

describe("damage the new samples hid, read from structure", () => {
  it("SK-SAFE-DESTRUCTIVE: a dry run two steps up says nothing about a command in the last step", () => {
    const text =
      `${FRONT}# Certificate Renewal\n\nRenew the certificate.\n\n## Steps\n\n1. Check the expiry with \`certbot certificates\`.\n2. Read the renewal log.\n3. Renew the certificate.\n   - Do a dry run first: \`certbot renew --dry-run\`.\n   - If it fails, go back to step 2.\n4. Reload nginx and check the new dates:\n   \`\`\`bash\n   sudo systemctl reload nginx\n   \`\`\`\n5. Start from a clean state: run \`rm -rf ./*\` in the project root.\n`
    expect(findingOf(review(text), "SK-SAFE-DESTRUCTIVE")?.lineStart).toBe(lineOf(text, "rm -rf"))
    // the step right before it still counts
    const asked = text.replace("4. Reload nginx and check the new dates:", "4. Ask the user to confirm the cleanup, then reload nginx:")
    expect(ids(review(asked))).not.toContain("SK-SAFE-DESTRUCTIVE")
  })

  it("SK-CONS-ALWAYS-NEVER: a rule with its exception (\"except when\", \"unless\") meets the unconditional opposite", () => {
    const doc = (a: string, b: string) => `${FRONT}# Branch Pruning\n\nPrune merged branches.\n\n${STEPS}## Rules\n\n- ${a}\n\n## Notes\n\n- ${b}\n`
    const text = doc("Always delete the remote copy of a merged branch, except when an open pull request targets it.", "Never delete the remote copy of a merged branch.")
    expect([lineOf(text, "Always delete"), lineOf(text, "Never delete")]).toContain(findingOf(review(text), "SK-CONS-ALWAYS-NEVER")?.lineStart)
    expect(ids(review(doc("Do not edit `de.json` yourself unless the user asks you to.", "Always edit `de.json` yourself.")))).toContain("SK-CONS-ALWAYS-NEVER")
    // the exception itself is no contradiction
    expect(ids(review(doc("Always delete the remote copy of a merged branch, except when an open pull request targets it.", "When an open pull request targets it, never delete the remote copy of a merged branch.")))).not.toContain("SK-CONS-ALWAYS-NEVER")
  })

  it("SK-CONS-ALWAYS-NEVER: a step's instruction before a long colon (\"Strip the mark if the target rejects it: `sed …`\")", () => {
    const text = `${FRONT}# CSV Encoding\n\nFix the encoding of a CSV file.\n\n## Steps\n\n1. Detect the encoding with \`uchardet data.csv\`.\n2. Convert into a new file with \`iconv -f WINDOWS-1252 -t UTF-8 data.csv > out.csv\`.\n3. Strip a byte-order mark if the target rejects it: \`sed -i '1s/^\\xEF\\xBB\\xBF//' out.csv\`.\n\n## Notes\n\nNever strip a byte-order mark if the target rejects it.\n`
    expect(ids(review(text))).toContain("SK-CONS-ALWAYS-NEVER")
  })

  it("the apply of a cut-short line keeps the complete sentences before the unfinished one", () => {
    const text = `${FRONT}# Profiling\n\nFind why an endpoint is slow.\n\n${STEPS}## Reading the profile\n\nRead the flame graph from the top of the handler down. The widest bars are where the time goes. Three shapes are worth knowing:\n`
    const r = review(text)
    expect(ids(r)).toContain("SK-STRUCT-CUT-SHORT")
    expect(r.improvedVersion!.content).toContain("Read the flame graph from the top of the handler down. The widest bars are where the time goes.\n")
    expect(r.improvedVersion!.content).not.toContain("worth knowing")
  })
})

describe("SK-STRUCT-NO-TITLE: a short skill with no heading at all still wants its title", () => {
  const body = "1. List the merged pull requests with `gh pr list --state merged`.\n2. Group them by label.\n3. Write one line per change.\n"
  it("reported without a title (the apply adds one); not with it", () => {
    const bare = `${FRONT}Release notes in three steps.\n\n${body}`
    expect(findingOf(review(bare), "SK-STRUCT-NO-TITLE")?.severity).toBe("minor")
    expect(review(bare).improvedVersion?.content).toContain("# ")
    expect(ids(review(`${FRONT}# Release Notes\n\n${body}`))).not.toContain("SK-STRUCT-NO-TITLE")
  })
})
