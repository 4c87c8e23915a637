/**
 * Near misses from the fifteenth to seventeenth rounds (issue 22): sixty skills written blind. The
 * seventeenth round was read once, at the start of this work, as a held-out set; its wrong findings
 * were fixed after. Most came from rules that still read a line alone (a rule's case on the next wrapped
 * line, a tag named mid-sentence), or from shapes the rules had not met (a Good/Bad pair with code
 * written out inline, the skill's own scratch folder deleted in the cleanup). Each wrong finding as the
 * smallest text that drew it, next to the real problem the rule is for, which it must still report.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  flagsDestructive as destructive,
  REBUILD_FRONT as FRONT,
  REBUILD_STEPS as STEPS,
  REBUILD_TITLE as TITLE,
  reviewText as review,
  reviewWithFiles,
  ruleIds as ids,
  severityOf
} from "./support.js"

/** Does the text, as one section after the rebuild fixture, draw the rule? */
const draws = (rule: string, section: string) => ids(review(`${FRONT}${TITLE}${STEPS}${section}`)).includes(rule)

describe("SK-CONS-ALWAYS-NEVER: a rule read as it renders", () => {
  it("a prohibition whose case is on the next wrapped line holds only in that case; the same prohibition with no case contradicts the step", () => {
    const doc = (rule: string) =>
      `## Rolling restart\n\nRepeat for each replica, one at a time. ${rule}\n\n1. Stop the replica cleanly.\n2. Start the replica with its original config.\n3. Wait for it to catch up.\n`
    expect(draws("SK-CONS-ALWAYS-NEVER", doc("Do not start the replica until\nthe previous one is back in sync."))).toBe(false)
    expect(draws("SK-CONS-ALWAYS-NEVER", doc("Do not start the replica\nwith its original config."))).toBe(true)
  })

  it("a stop inside bold ends its sentence: the prohibition after a bold lead is unconditional, and meets the opposite rule", () => {
    const doc = (lead: string) =>
      `## Sharing\n\n${lead} Don't submit drafts to a portal.\n\n## Submitting\n\n- Always submit drafts to a portal.\n`
    expect(draws("SK-CONS-ALWAYS-NEVER", doc("**Nothing leaves without a person.**"))).toBe(true)
    expect(draws("SK-CONS-ALWAYS-NEVER", doc("When nothing leaves without a person,"))).toBe(false)
  })
})

describe("SK-SAFE-DESTRUCTIVE and the skill's own scratch", () => {
  it("deleting a folder the skill made in an earlier step is cleanup; deleting one it did not make is not", () => {
    const doc = (make: string) =>
      `## Sampling\n\n\`\`\`bash\n${make}aws sqs receive-message --queue-url "$DLQ" > "samples/batch-1.json"\n\`\`\`\n\n## Clean up\n\n- Delete the local samples, which may hold personal data: \`rm -rf samples/\`\n`
    expect(destructive(doc("mkdir -p samples\n"))).toBe(false)
    expect(destructive(doc(""))).toBe(true)
  })

  it("a \"never\" about something else does not make the list below it prohibited; \"Also never:\" does", () => {
    const doc = (lead: string) => `## Phases\n\n${lead}\n\n1. Fetch the dependencies with \`npm ci --ignore-scripts\`.\n2. Start from a clean state: run \`rm -rf ./*\` in the project root.\n`
    expect(destructive(doc("Split the run so that network access and execution never overlap:"))).toBe(true)
    expect(destructive(doc("Also never:"))).toBe(false)
  })
})

describe("SK-REF-DANGLING-PATH: `./name` with nothing shipped", () => {
  // (since the twenty-second round, a skill whose files all live in folders ships nothing beside itself either)
  it("a script run from the working folder by a skill that ships no file beside itself is the host's; the same from a skill that ships scripts beside SKILL.md is a missing bundle file", () => {
    const text = `${FRONT}${TITLE}${STEPS}## Offboarding a runner\n\nTake the runner offline with \`./config.sh remove --token "$TOKEN"\` after the user agrees.\n`
    expect(ids(reviewWithFiles(text, []))).not.toContain("SK-REF-DANGLING-PATH")
    expect(ids(reviewWithFiles(text, ["scripts/check.sh"]))).not.toContain("SK-REF-DANGLING-PATH")
    expect(ids(reviewWithFiles(text, ["check.sh"]))).toContain("SK-REF-DANGLING-PATH")
  })
})

describe("examples shown in other forms", () => {
  const FM = "---\nname: race-review\ndescription: Reviews diffs for data races and lost updates. Use when reviewing code that touches shared state.\n---\n\n# Race review\n\n"
  const PATTERNS =
    "## Patterns\n\n| Pattern | Smell | Fix |\n|---|---|---|\n| Lost update | `v = get(); v += 1; set(v)` | `sync.Mutex`, an atomic increment |\n| Check-then-act | `if not exists(x): create(x)` | `putIfAbsent`, a unique constraint |\n| Lazy init | `cache = cache or build()` | `sync.Once`, `functools.cache` |\n\n"
  it("a Good/Bad pair with the code written out inline shows it; the names alone, with the same pair, show nothing of the code", () => {
    const pair = "## Writing the comment\n\n**Bad:**\n> This isn't thread-safe.\n\n**Good:**\n> Two requests read `reserved = 4` and both write 5; one reservation is lost.\n"
    const found = (patterns: string) => ids(review(`${FM}${patterns}${pair}`)).filter((r) => r.startsWith("SK-EX-"))
    expect(found(PATTERNS)).toEqual([])
    const names = PATTERNS.replace("`v = get(); v += 1; set(v)`", "`get`, `set`").replace("`if not exists(x): create(x)`", "`exists`").replace("`cache = cache or build()`", "`build`")
    expect(found(names)).toContain("SK-EX-NO-CODE")
  })

  it("a verdict label opens a sample only when a sample follows it", () => {
    const doc = (after: string) => `${FM}## Reporting\n\nName the model, its random effects and how p-values were computed.\n\n${after}\n`
    expect(ids(review(doc("Bad: \"A mixed model showed a significant effect (p = .03).\"\n\nGood: \"We fitted a linear mixed model of log RT with random intercepts for subject.\"")))).not.toContain("SK-EX-MISSING")
    expect(ids(review(doc("Good: anything that names the model.\n\nBad: anything that does not.")))).toContain("SK-EX-MISSING")
  })
})

describe("words named rather than used", () => {
  it("SK-CLAR-PLACEHOLDER: a placeholder named as what not to use is no placeholder; one left in the text is", () => {
    expect(draws("SK-CLAR-PLACEHOLDER", "## Checks\n\n- [ ] Render a real page (not lorem ipsum) at 360px and 1280px.\n")).toBe(false)
    expect(draws("SK-CLAR-PLACEHOLDER", "## Checks\n\n- [ ] Render the hero with lorem ipsum at 360px and 1280px.\n")).toBe(true)
  })

  it("SK-STRUCT-UNBALANCED-TAG: a tag named mid-sentence refers to a section; a tag opened at the start of a line and never closed is unbalanced", () => {
    const doc = (extra: string) => `## Rules\n\n<constraints>\nRemove one grant at a time.\n</constraints>\n\n${extra}\n`
    expect(draws("SK-STRUCT-UNBALANCED-TAG", doc("Bulk removal is not used here (see <constraints>)."))).toBe(false)
    expect(draws("SK-STRUCT-UNBALANCED-TAG", doc("<constraints>\nNever remove a super admin."))).toBe(true)
  })

  it("SK-CLAR-VAGUE: \"possibly\" or \"probably\" before a fact judges it; before an action it leaves the action open", () => {
    expect(draws("SK-CLAR-VAGUE", "## Secrets\n\nAnything you print ends up in the transcript, and possibly in logs you don't control.\n")).toBe(false)
    expect(draws("SK-CLAR-VAGUE", "## Length\n\nIf it can't fit, you probably haven't decided what the bottom line is.\n")).toBe(false)
    expect(draws("SK-CLAR-VAGUE", "## Secrets\n\nRun `rotate.sh`, and possibly delete the old key.\n")).toBe(true)
  })

  it("SK-SAFE-UNBOUNDED: \"keep going with hints\" names what goes on; \"keep going until it works\" bounds nothing", () => {
    expect(draws("SK-SAFE-UNBOUNDED", "## Coursework\n\nDo not write the solution for them. Explain that you'll help, and keep going with hints.\n")).toBe(false)
    expect(draws("SK-SAFE-UNBOUNDED", "## Coursework\n\nDo not write the solution for them. Explain that you'll help, and keep going until it works.\n")).toBe(true)
  })
})

describe("SK-STRUCT-CUT-SHORT: a promise the list below keeps", () => {
  it("\"the five steps\" over five bullets, one per step, is kept; over four it is cut short", () => {
    const doc = (items: string) => `## Why\n\nEach of the five steps in \`onMutate\` is there for a reason:\n\n${items}\n`
    const four = "- Skip the cancel and a stale refetch lands.\n- Skip the snapshot and you can't roll back.\n- Mutate in place and nothing re-renders.\n- Skip the rollback and the error stays on screen."
    expect(draws("SK-STRUCT-CUT-SHORT", doc(`${four}\n- Skip the invalidation and the cache drifts.`))).toBe(false)
    expect(draws("SK-STRUCT-CUT-SHORT", doc(four))).toBe(true)
  })
})

describe("what a short read-only skill needs", () => {
  const FM = "---\nname: repo-orientation\ndescription: Orients in an unfamiliar repository before any change. Use at the start of a task in a repo you have not seen.\n---\n\n# Orientation\n\nBuild a map before you edit anything.\n\n"
  const steps = (cmds: ReadonlyArray<string>) => `## Steps\n\n${cmds.map((c, i) => `${i + 1}. ${c}\n`).join("")}\nThen write the user a short map of what you found.\n`
  const READS = ["Read the README and the top of `go.mod`.", "List the files with `git ls-files | head -200`.", "See what moves with `git log --oneline -20`.", "Run the tests once with `go test ./...`."]

  it("SK-FAIL-MISSING: steps that only read leave nothing half-done (minor); steps that call a service can fail and act (major)", () => {
    expect(severityOf(review(`${FM}${steps(READS)}`), "SK-FAIL-MISSING")).toBe("minor")
    expect(severityOf(review(`${FM}${steps([...READS.slice(0, 3), "Call the staging API with `curl -s https://staging.example.com/health`."])}`), "SK-FAIL-MISSING")).toBe("major")
  })

  it("SK-EX-MISSING: steps that write their commands out in full show them (`go.mod` is a file); steps that only name the tools do not", () => {
    expect(severityOf(review(`${FM}${steps(READS)}`), "SK-EX-MISSING")).toBe("info")
    expect(severityOf(review(`${FM}${steps(["Read the README and the top of `go.mod`.", "List the files with `git ls-files`.", "See what moves with `git log`.", "Run the tests with `go test`."])}`), "SK-EX-MISSING")).toBe("minor")
  })
})

describe("examples that live in a file", () => {
  const FM = "---\nname: prior-art\ndescription: Runs a prior-art search for a claimed invention and writes a claim chart. Use when asked whether an idea is new.\n---\n\n# Prior art\n\n## Steps\n\n1. Break the claim into elements.\n2. Search patents and papers for each element.\n3. Map every element to a pinpoint citation.\n\n"
  it("SK-EX-ONLY-IN-FILES: a template linked from the section that defines the output is where the format lives; linked from a note it is one hop away", () => {
    const only = (section: string) => severityOf(reviewWithFiles(`${FM}${section}\n`, ["templates/report.md"]), "SK-EX-ONLY-IN-FILES")
    expect(only("## Output\n\nUse [templates/report.md](templates/report.md): summary, search log, claim chart.")).toBe("info")
    expect(only("## Notes\n\nThe house style is in [templates/report.md](templates/report.md).")).toBe("minor")
  })
})

describe("the apply's headings", () => {
  it("a bold run-in step label that ends on a stop is no heading to mark; a bold phrase alone on its line is", () => {
    const body = (label: string) =>
      `---\nname: med-rec\ndescription: Reconciles a patient's medication lists at a transition of care. Use when admitting, transferring or discharging.\n---\n\nMedication reconciliation\n\nCompare what the patient takes with what is ordered.\n\n**1. Gather sources.** The patient, the pharmacy, the last discharge letter.\n\n${label}\n\n| Type | Action |\n|---|---|\n| Omission | flag it |\n\n**3. Report.** One row per discrepancy.\nName the source of each row.\nKeep the patient's own words.\nDate every list you used.\nFlag what you could not confirm.\n`
    const improved = (label: string) => review(body(label)).improvedVersion?.content ?? ""
    expect(improved("**2. Classify each discrepancy.**")).not.toContain("## 2. Classify")
    expect(improved("**Discrepancy types**")).toContain("## Discrepancy types")
  })
})

describe("SK-DESC-NO-TRIGGER: a use sentence of any shape", () => {
  it("\"Use at the start of a task …\" says when; a description with no use sentence does not", () => {
    const desc = (d: string) => ids(review(`---\nname: repo-orientation\ndescription: ${d}\n---\n\n# Orientation\n\n${STEPS}`))
    expect(desc("Orients in an unfamiliar repository before any change. Use at the start of a task in a repo you have not seen.")).not.toContain("SK-DESC-NO-TRIGGER")
    expect(desc("Orients in an unfamiliar repository before any change, and writes the user a short map of it.")).toContain("SK-DESC-NO-TRIGGER")
  })
})

describe("Eighteenth round: twenty skills written blind and read once at 4cbb657, as a held-out set", () => {
  it("SK-SAFE-DESTRUCTIVE: a table that \"Ask before the action if any of these is true:\" leads into asks first for each row; the same table after a plain lead-in does not", () => {
    const doc = (lead: string) => `## Checkpoints\n\n${lead}\n\n| Test | Examples |\n|---|---|\n| Rewrites shared history | \`git push --force\` to a shared branch, deleting remote tags |\n`
    expect(destructive(doc("Ask before the action if any of these is true:"))).toBe(false)
    expect(destructive(doc("Run the cleanup that fits the case:"))).toBe(true)
  })

  it("SK-STRUCT-RUN-TOGETHER: a table right after a list is the section's own when the paragraph that opens the section names what it holds", () => {
    const doc = (opener: string) =>
      `## House conventions\n\n${opener} Common defaults:\n\n- Sentence case.\n- Present tense for past events.\n- Numerals for all numbers.\n\n| Variant | Typical length | Notes |\n|---|---|---|\n| Print | set by the layout | ask the desk |\n| Web | 60 to 70 characters | search results cut the rest |\n`
    expect(draws("SK-STRUCT-RUN-TOGETHER", doc("Ask the editor for the style guide and length limits if they are not given."))).toBe(false)
    expect(draws("SK-STRUCT-RUN-TOGETHER", doc("Ask the editor for the style guide if it is not given."))).toBe(true)
  })
})

describe("Nineteenth round: twenty skills written blind and read once at a864347, as a held-out set", () => {
  it("SK-EX-NO-CODE: a skill that writes no code and judges samples holding inline code shows its examples; the same code with no judged sample shows none", () => {
    const FM = "---\nname: alt-text\ndescription: Writes alt text for images in articles and apps. Use when an image needs a text alternative.\n---\n\n# Alt text\n\n## Roles\n\n| Role | Write | Example |\n|---|---|---|\n| Functional | what happens | `alt=\"Search\"` |\n| Decorative | nothing | `alt=\"\"` |\n| Text in an image | the text | `alt=\"Spring sale: 30% off\"` |\n\n"
    const pairs = "## Good and bad\n\n- Bad: `alt=\"image\"` says nothing.\n- Good: `alt=\"Children queuing at the doors of the library.\"`\n"
    const found = (text: string) => review(text).findings.filter((f) => f.ruleId.startsWith("SK-EX-") && f.severity !== "info").map((f) => f.ruleId)
    expect(found(`${FM}${pairs}`)).toEqual([])
    expect(found(`${FM}## Notes\n\n- Keep \`alt\` under two sentences.\n- Use \`aria-describedby\` for long descriptions.\n`)).toEqual(["SK-EX-MISSING"])
  })
})
