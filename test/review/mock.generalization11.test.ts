/**
 * Near misses, thirty-seventh stop (issue 22): the twenty-sixth round of skills written blind, read
 * once. Findings on good text, each as the smallest text next to the text the rule must still catch.
 */
import { describe, expect, it } from "@effect/vitest"
import { findingOf, ruleIds as ids, reviewText as review, reviewWithFiles } from "./support.js"

const FM = "---\nname: table-retention\ndescription: Drops old partitions of a table after archiving them. Use when a partitioned table outgrows its retention window.\n---\n\n# Table retention\n\n"

describe("SK-SAFE-DESTRUCTIVE: an approval step earlier in a run of numbered sections", () => {
  const doc = (approval: string, drop: string) =>
    `${FM}## 1. Inventory\n\nList the partitions older than the cutoff.\n\n## 2. Archive\n\nDump each partition and verify the dump restores.\n\n## 3. Get approval\n\n${approval}\n\n## 4. Detach\n\nDetach each partition from the parent.\n\n## 5. Drop\n\n${drop}\n\n\`\`\`sql\nDROP TABLE archive.events_2023_01;\n\`\`\`\n`
  const ask = "Show the user the list, then ask:\n\n> Ready to drop these N partitions (X rows)? Reply \"drop N partitions\" to continue.\n\nWait for that reply."

  it("an earlier step that asks and waits, naming the act, gates the command steps later", () => {
    expect(ids(review(doc(ask, "Drop one partition per statement, with its name written out:")))).not.toContain("SK-SAFE-DESTRUCTIVE")
  })

  it("an approval for another act, an act named beside an ask for something else, or a command run in a case of its own, is not gated", () => {
    const other = "Show the user the archive sizes, then ask: \"Archive verified, shall I continue?\" Wait for that reply."
    expect(ids(review(doc(other, "Drop one partition per statement, with its name written out:")))).toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc(ask, "If anything fails halfway, start again from a clean table:")))).toContain("SK-SAFE-DESTRUCTIVE")
    // the act named in the section, in a sentence that asks nothing, is not what the ask is for
    const elsewhere = "A dropped header takes months to come back. Ask the user to confirm the subdomain list before adding the flag."
    expect(ids(review(doc(elsewhere, "Drop one partition per statement, with its name written out:")))).toContain("SK-SAFE-DESTRUCTIVE")
    // an approved plan to delete some rows does not cover wiping the project root two steps later
    const plan = `${FM}## 1. Discover\n\nFind the user's rows.\n\n## 2. Get approval\n\nShow the plan, then ask:\n\n> Delete user 48213 and their 31 rows? Reply "approve" to run.\n\nWait for that reply.\n\n## 3. Execute\n\n1. Delete the rows in one transaction.\n2. Start from a clean state: run \`rm -rf ./*\` in the project root.\n`
    expect(ids(review(plan))).toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("SK-STRUCT-RUN-TOGETHER: a code block nested in a list item, blank lines and all", () => {
  const doc = (indent: string) =>
    `${FM}## Decide what happens to the config\n\nTwo options:\n\n- **Migrate to CSS**: theme values become variables.\n${indent}\`\`\`css\n${indent}@import "tailwindcss";\n\n${indent}@theme {\n${indent}  --color-brand: red;\n${indent}}\n${indent}\`\`\`\n- **Keep the JS config**: load it with \`@config\`.\n`
  it("the item's own block, with a blank line inside, keeps the list whole; a block at the margin ends it", () => {
    expect(ids(review(doc("  ")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(doc("")))).toContain("SK-STRUCT-RUN-TOGETHER")
  })
})

describe("SK-EX-NO-CODE: placeholders and addresses in inline code are not code", () => {
  const doc = (a: string, last: string) =>
    `---\nname: notice-writing\ndescription: Drafts notices of action for benefit programs. Use when a caseworker needs a notice drafted.\n---\n\n# Notice writing\n\n## Steps\n\n1. Read the case notes.\n2. Draft the notice. Leave a visible placeholder such as ${a} for anything you cannot confirm.\n3. Check the draft against the required elements.\n\n## Examples\n\n**Bad:** "We have updated your case."\n\n**Good:** "Your food benefits stop on 1 March because your income is above the limit."\n\n## Privacy\n\n${last}\n`
  it("`[HEARING DEADLINE — confirm with policy]`, `example.gov`, and brackets called placeholders or marks teach no code; calls and template variables do", () => {
    expect(ids(review(doc("`[HEARING DEADLINE — confirm with policy]`", "Use obviously fictional data in samples (555 numbers, `example.gov`).")))).not.toContain("SK-EX-NO-CODE")
    expect(ids(review(doc("`[confirm]`", "Every gap stays marked `[confirm]` until the caseworker fills it.")))).not.toContain("SK-EX-NO-CODE")
    expect(ids(review(doc("`notice.addPlaceholder(field)`", "Read the tenant's name from `{tenant}` in the merge file.")))).toContain("SK-EX-NO-CODE")
    expect(ids(review(doc("`notice.addPlaceholder(field)`", "Render it with `render_notice(case_id)`.")))).toContain("SK-EX-NO-CODE")
  })
})

describe("SK-STRUCT-ENDS-EARLY: a closing section is an act of its own", () => {
  const doc = (title: string) =>
    `${FM}## Inputs\n\n- The table name.\n- The cutoff date.\n\n## Procedure\n\n1. List the partitions.\n2. Archive them.\n3. Drop them after approval.\n\n## Limits\n\n- Stop when more than 10% of rows fail to archive.\n- Never drop the default partition.\n\n## Common mistakes\n\n- Choosing partitions by name, not by bounds.\n- Trusting a dump that was never restored.\n\n## ${title}\n\nThe dumps hold customer data. When the work is done, delete the working copies you made outside the archive, and say in your final message which files you kept.\n`
  it("a last \"Cleanup\" in prose after sections of lists is complete; a last \"Troubleshooting\" in prose is not", () => {
    expect(ids(review(doc("Cleanup")))).not.toContain("SK-STRUCT-ENDS-EARLY")
    expect(ids(review(doc("Troubleshooting")))).toContain("SK-STRUCT-ENDS-EARLY")
  })
})

describe("SK-CONS-ALWAYS-NEVER: the reason a rule gives is not its case", () => {
  const doc = (rule: string) =>
    `${FM}## Inputs\n\nAsk for these before starting. ${rule}\n\n## Steps\n\n1. List the partitions.\n2. Archive them.\n3. Drop them after approval.\n\n## Rules\n\n- Always start working from a half set of files.\n`
  it("\"…, because the results look like variances when they are gaps\" holds in every case; \"… when the ledger is closed\" holds in that one", () => {
    expect(ids(review(doc("Don't start working from a half set of files, because the results will look like variances when they're really gaps in the data.")))).toContain("SK-CONS-ALWAYS-NEVER")
    expect(ids(review(doc("Don't start working from a half set of files when the ledger is already closed.")))).not.toContain("SK-CONS-ALWAYS-NEVER")
  })
})

describe("SK-CLAR-PLACEHOLDER: a marker the skill has the agent leave", () => {
  const doc = (convention: string, sample: string) =>
    `---\nname: qbr-writing\ndescription: Drafts a quarterly business review from a CSM's notes. Use when a QBR is due.\n---\n\n# QBR writing\n\n## Steps\n\n1. Read the notes.\n2. Draft the summary.\n3. ${convention}\n\n## Example\n\n**Output:**\n\n${sample}\n`
  it("bracketed in a quoted sample, or the skill's own `[TBD]` convention, it is on purpose; a bare TBD in the skill's own text is unfinished", () => {
    expect(ids(review(doc("List the data you still need.", "> Overtime fell by 29% since go-live [TBD: confirm period].")))).not.toContain("SK-CLAR-PLACEHOLDER")
    expect(ids(review(doc("Mark every figure without a source as `[TBD]`.", "Overtime fell by 29% since go-live [TBD: confirm period].")))).not.toContain("SK-CLAR-PLACEHOLDER")
    expect(ids(review(doc("List the data you still need.", "Overtime fell by 29% since go-live [TBD: confirm period].")))).toContain("SK-CLAR-PLACEHOLDER")
    expect(ids(review(doc("TBD: explain how to pick the period.", "> Overtime fell by 29% since go-live.")))).toContain("SK-CLAR-PLACEHOLDER")
  })
})

describe("SK-EX-MISSING: a link to an example file the bundle does not have shows nothing", () => {
  const body = (link: string) =>
    `---\nname: mutation-triage\ndescription: Runs mutation testing and triages the surviving mutants. Use when someone asks how good a test suite is.\n---\n\n# Mutation triage\n\n${link}\n\n## Steps\n\n1. Run \`npx stryker run --mutate "src/pricing/**/*.ts"\` on the module.\n2. Sort each survivor: missing test, weak assertion, equivalent mutant.\n3. Write a test for each missing behaviour with \`vitest\` and \`expect(price(0)).toBe(0)\`.\n4. Mark equivalents with \`// Stryker disable next-line\` and a reason.\n`
  it("the dangling example file is no example: the finding stays what it is without the link; an example file that exists is one", () => {
    const without = findingOf(reviewWithFiles(body(""), []), "SK-EX-MISSING")?.severity
    expect(without).toBeDefined()
    expect(findingOf(reviewWithFiles(body("See [the walkthrough](examples/walkthrough.md)."), []), "SK-EX-MISSING")?.severity).toBe(without)
    expect(findingOf(reviewWithFiles(body("See [the walkthrough](examples/walkthrough.md)."), ["examples/walkthrough.md"]), "SK-EX-MISSING")).toBeUndefined()
  })
})

describe("the twenty-eighth round, written blind and read once", () => {
  const skill = (body: string) => `---\nname: artifact-cleanup\ndescription: Deletes old build artifacts from a repository manager. Use when storage runs out.\n---\n\n# Artifact cleanup\n\n${body}`

  it("SK-CONS-ALWAYS-NEVER: \"If it fails, the file is incomplete. Don't pick candidates from it.\" holds in that case against a step; without the pronoun it is a rule of its own", () => {
    const steps = (note: string) => skill(`## Steps\n\n1. **List components.** Run the lister. If it exits with an error, the file is incomplete. ${note}\n2. **Pick candidates from the list.** Run the picker on the file.\n3. **Delete them** after approval.\n`)
    expect(ids(review(steps("Don't pick candidates from it.")))).not.toContain("SK-CONS-ALWAYS-NEVER")
    expect(ids(review(steps("Don't pick candidates from the list.")))).toContain("SK-CONS-ALWAYS-NEVER")
    // an "always" rule claims that case too
    expect(ids(review(`${steps("Don't pick candidates from it.")}\n## Rules\n\n- Always pick candidates from it.\n`))).toContain("SK-CONS-ALWAYS-NEVER")
  })

  it("SK-STRUCT-UNBALANCED-TAG: a tag a hard wrap put first on its line, its sentence going on, is a mention", () => {
    const tagged = (mention: string) => skill(`<instructions>\nCheck every wire against the call-back record, and write the result in the format below (see\n${mention}). Don't skip a check.\n</instructions>\n\n<output_format>\nOne block per wire.\n</output_format>\n`)
    expect(ids(review(tagged("<output_format>")))).not.toContain("SK-STRUCT-UNBALANCED-TAG")
    expect(ids(review(skill("<instructions>\nCheck every wire.\n</instructions>\n\n<output_format>\nOne block per wire.\n\n<output_format>\nThe totals.\n</output_format>\n")))).toContain("SK-STRUCT-UNBALANCED-TAG")
  })

  it("SK-SAFE-UNBOUNDED: \"Don't stop or restart anything on their word alone\" stops a process; \"don't stop or ask\" goes on unasked", () => {
    const rule = (s: string) => skill(`## Steps\n\n1. Read the order.\n2. Apply it to the next payroll.\n3. ${s}\n`)
    expect(ids(review(rule("Don't stop or restart anything on the employee's word alone; get the court notice.")))).not.toContain("SK-SAFE-UNBOUNDED")
    expect(ids(review(rule("Don't stop or ask the user; keep going until it works.")))).toContain("SK-SAFE-UNBOUNDED")
  })

  it("SK-CLAR-VAGUE: \"at least the previous year, ideally all history\" asks for more than a stated minimum", () => {
    const rule = (s: string) => skill(`## Steps\n\n1. Export the records.\n2. ${s}\n3. Count them.\n`)
    expect(ids(review(rule("Include records from before the period start: at least the previous year, ideally all history.")))).not.toContain("SK-CLAR-VAGUE")
    expect(ids(review(rule("Include records from before the period start, ideally all history.")))).toContain("SK-CLAR-VAGUE")
  })

  it("SK-STRUCT-ENDS-EARLY: a last list of habits after a cheat sheet of tables is a section of its own kind", () => {
    const table = (n: number) => `## Calls ${"ABCD"[n]}\n\n| Call | Does |\n|---|---|\n| GET /x${n} | Reads |\n\n`
    const tables = [0, 1, 2, 3].map(table).join("")
    expect(ids(review(skill(`A cheat sheet.\n\n${tables}## Habits\n\n- Log every write.\n- Read before you overwrite.\n`)))).not.toContain("SK-STRUCT-ENDS-EARLY")
    expect(ids(review(skill(`A cheat sheet.\n\n${tables}## Habits\n\nLog every write.\n`)))).toContain("SK-STRUCT-ENDS-EARLY")
  })
})

describe("held-out damage on the twenty-eighth round: an exclusion closing an offer, a sentence on every phase", () => {
  const skill = (description: string, intro: string) =>
    `---\nname: graduate-cleanup\ndescription: ${description}\n---\n\n# Graduate cleanup\n\nDeleting an account deletes the student's work. This skill runs in two phases, weeks apart. Each phase needs its own explicit approval from the user.\n\n${intro}\n\n### Step 1: Write down the plan\n\nList the graduates from the SIS.\n\n### Step 2: Suspend\n\nSuspend the accounts after approval.\n`
  const offer = "Suspends and later deletes graduates' accounts. Use at end of year when IT asks to free licenses or empty a Class-of OU"
  it("SK-CONS-USE-WHEN: \"Use when …; not for staff offboarding\" still offers what comes before the exclusion", () => {
    const forbid = "Do not use this skill when IT asks to free licenses or empty a Class-of OU."
    expect(ids(review(skill(`${offer}; not for staff offboarding.`, forbid)))).toContain("SK-CONS-USE-WHEN")
    expect(ids(review(skill("Suspends and later deletes graduates' accounts. Not for freeing licenses or emptying a Class-of OU.", forbid)))).not.toContain("SK-CONS-USE-WHEN")
  })
  it("SK-SAFE-DESTRUCTIVE: \"Each phase needs its own approval\" above a command outside every step says what the steps do", () => {
    const wipe = "Start from a clean state: run `rm -rf ./*` in the project root."
    expect(ids(review(skill(`${offer}.`, wipe)))).toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(skill(`${offer}.`, `Ask the user for approval, then: ${wipe}`)))).not.toContain("SK-SAFE-DESTRUCTIVE")
  })
})

describe("the twenty-ninth round, written blind and read once: an example worked out in prose", () => {
  const sheet = (example: string) =>
    `---\nname: cost-basis\ndescription: A cheat sheet for cost basis and wash sales on US tax returns. Use when reconciling a 1099-B.\n---\n\n# Cost basis cheat sheet\n\n## Wash sales\n\n- A loss is disallowed when the same security is bought within 30 days.\n- The disallowed loss is added to the new shares' basis.\n\n${example}\n\n## Lot methods\n\n| Method | Picks |\n|---|---|\n| FIFO | the oldest lot |\n`
  it("SK-EX-NOT-CONCRETE: \"Example:\" with its numbers worked out is concrete; \"Example:\" with none is not", () => {
    expect(ids(review(sheet("Example: buy 100 XYZ at $50 (Jan 5). Sell 100 at $40 on Mar 1 (loss $1,000). Buy 100 at $42 on Mar 20. The loss is disallowed; the new basis is $5,200.")))).not.toContain("SK-EX-NOT-CONCRETE")
    expect(ids(review(sheet("Example: a sale at a loss followed by a purchase of the same shares soon after.")))).toContain("SK-EX-NOT-CONCRETE")
  })
})

describe("held-out damage on the twenty-ninth round: a checksum of another file", () => {
  const doc = (lead: string) =>
    `---\nname: tm-cleanup\ndescription: Cleans a translation memory export. Use when a TM has grown noisy.\n---\n\n# TM cleanup\n\n## Steps\n\n1. Export the TM as TMX.\n2. ${lead}\n   \`\`\`bash\n   curl -sSL https://example.dev/tool/install.sh | sh\n   cp export.tmx original/\n   \`\`\`\n3. Audit the copy.\n`
  it("SK-SAFE-PIPE-SHELL: \"record a checksum\" of the export guards nothing the pipe downloads; a checksum of the installer does", () => {
    expect(ids(review(doc("Copy the export to `original/` and record a checksum:")))).toContain("SK-SAFE-PIPE-SHELL")
    expect(ids(review(doc("Verify the installer's sha256 checksum against the release page before it runs:")))).not.toContain("SK-SAFE-PIPE-SHELL")
  })
})
