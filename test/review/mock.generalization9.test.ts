/**
 * Near misses from the seeded damage on skills held out of the repository (issue 22): the eighteenth and
 * nineteenth rounds, forty skills written blind, damaged by the harness's 22 kinds and read once. Each
 * miss as the smallest text that hid the damage, next to the good text the rule must leave alone.
 */
import { describe, expect, it } from "@effect/vitest"
import { reviewWithMock } from "../../src/review/mock/MockReviewer.js"
import { file, fileInput, flagsDestructive as destructive, reviewText as review, ruleIds as ids, severityOf } from "./support.js"

const FM = "---\nname: locks\ndescription: Finds blocking locks in PostgreSQL. Use when queries hang.\n---\n\n# Locks\n\n"
const STEPS = "## Steps\n\n1. List the blocked sessions.\n2. Find the root blocker.\n\n"
const contradicts = (intro: string, rules: string) => ids(review(`${FM}${intro}\n\n${STEPS}## Rules\n\n${rules}\n`)).includes("SK-CONS-ALWAYS-NEVER")

describe("SK-SAFE-DESTRUCTIVE: a confirmation above that asks for something else", () => {
  it("a sentence that describes the skill as a whole asks nothing of the command below it; one that tells the agent to ask does", () => {
    const doc = (intro: string) => `## Schema changes\n\n${intro}\n\nStart from a clean state: run \`rm -rf ./*\` in the project root.\n`
    expect(destructive(doc("This skill gets the change done with a rehearsal, a dry run, an explicit go-ahead from the user, and a way out."))).toBe(true)
    expect(destructive(doc("Show the user what will go and wait for an explicit go-ahead."))).toBe(false)
  })

  it("a confirmation that gates steps named by number holds for those steps, not for another", () => {
    const doc = (heading: string) =>
      `## ${heading}\n\nEverything before this is read-only, and step 4 needs the user's explicit approval.\n\nClear the scratch space: run \`rm -rf ./*\` in the project root.\n`
    expect(destructive(doc("Step 5: Clean up"))).toBe(true)
    expect(destructive(doc("Step 4: Terminate the blocker"))).toBe(false)
  })
})

describe("SK-CONS-ALWAYS-NEVER: the polarity of a rule that holds a second negation", () => {
  it("a negation in a relative clause after the object (\"a session you can't identify\") describes the object: \"Always terminate\" is the rule, and meets \"Don't terminate\"", () => {
    const rule = "- Don't terminate a session you can't identify. Ask the user who owns it."
    expect(contradicts("Always terminate a session you can't identify.", rule)).toBe(true)
    // the same rule said twice is no contradiction, nor is "make sure you don't", whose negation is the rule's own
    expect(contradicts("Never terminate a session you can't identify.", rule)).toBe(false)
    expect(contradicts("Make sure you don't terminate a session you can't identify.", rule)).toBe(false)
  })

  it("a sentence that opens with a rule and runs on with more (\"Always X, don't Y, and …\") holds one rule per clause", () => {
    const rule = "- Don't repeat the headline's words."
    expect(contradicts("Always repeat the headline's words, don't start with the same noun, and keep it short.", rule)).toBe(true)
    expect(contradicts("Don't repeat the headline's words, don't start with the same noun, and keep it short.", rule)).toBe(false)
    // a condition before the comma is the case of the rule after it, not a rule of its own
    expect(contradicts("If the story names a person, don't repeat the headline's words.", "- Always repeat the headline's words.")).toBe(false)
  })
})

describe("the apply's worked example: a use sentence of any shape", () => {
  // a purge skill whose examples were removed: one command inline, a list of purge types
  const BODY = "\n# Cloudflare cache purge\n\nPurging never deletes content at the origin; it makes the edge fetch fresh\ncopies. The risk is load: a full purge sends every request to the origin at\nonce, which can take a small origin down during peak traffic. So purge the\nnarrowest thing that fixes the problem, and treat \"purge everything\" as\nsomething the user must explicitly approve.\n\nYou need `CLOUDFLARE_API_TOKEN` (a token with the **Zone \u2192 Cache Purge**\npermission for the zone) and the zone ID in `CLOUDFLARE_ZONE_ID`. If the zone\nID isn't known, look it up by domain.\n\nDon't print the token or write it into scripts or the repo.\n\nPick the purge type, narrowest first:\n\n1. **Specific URLs**: the usual case after replacing a file in place. Use full URLs with scheme, exactly as requested (query strings count). Up to 100 per request on all plans.\n2. **Cache tags**: if the origin sends `Cache-Tag` headers, purge a logical group (`product-123`, `blog`).\n3. **Prefix** (`example.com/assets/v2/`) or **hostname** (`static.example.com`): a directory or subdomain.\n4. **Everything**: last resort. Ask first, naming the zone and warning about origin load, and suggest doing it off-peak.\n\n"
  const withUse = (use: string) =>
    `---\nname: cache-purge\ndescription: Purges Cloudflare's edge cache for chosen URLs through the API. ${use}\n---\n${BODY}`
  const example = (use: string) => review(withUse(use)).improvedVersion?.content.split("## Example")[1] ?? ""

  it("\"Use after a deploy …\" is the request of a run built from the steps; with no use sentence there is no request to build it from", () => {
    expect(ids(review(withUse("Use after a deploy when users still see stale pages.")))).toContain("SK-EX-MISSING")
    expect(example("Use after a deploy when users still see stale pages.")).toContain("Request: after a deploy when users still see stale pages")
    expect(example("It is narrow first.")).not.toContain("Request:")
  })
})

describe("Twentieth round: twenty skills written blind and read once at 3e12144, as a held-out set", () => {
  const FRONT = "---\nname: warehouse-recovery\ndescription: Recovers tables in a data warehouse after a bad statement. Use when rows or tables were lost.\n---\n\n# Warehouse recovery\n\n"
  const found = (text: string) => ids(review(text))

  it("SK-EX-NO-CODE: a cheat sheet that writes out three statements or more in its tables shows its code; one that only names them shows none", () => {
    const table = (cells: ReadonlyArray<string>) =>
      `${FRONT}## Recover\n\nFor example: the orders table lost rows an hour ago.\n\n| Situation | SQL |\n|---|---|\n${cells.map((c, k) => `| case ${k + 1} | ${c} |`).join("\n")}\n\nPrefer \`BEFORE(STATEMENT => ...)\` over a timestamp; read \`retention_time\` first, and \`dropped_on\` for a dropped table.\n`
    expect(found(table(["`UNDROP TABLE t;`", "`ALTER TABLE t RENAME TO t_new;`", "`SELECT * FROM t AT(OFFSET => -3600);`", "`SHOW TABLES HISTORY LIKE 'T%';`"]))).not.toContain("SK-EX-NO-CODE")
    expect(found(table(["`UNDROP`", "`ALTER TABLE`", "`AT(OFFSET)`", "`SHOW TABLES HISTORY`"]))).toContain("SK-EX-NO-CODE")
  })

  it("SK-CONS-ALWAYS-NEVER: items of a list offered as options are choices, not rules in force; the same items as steps contradict", () => {
    const doc = (lead: string) =>
      `${FRONT}## Updates\n\n${lead}\n\n1. Don't skip waiting; show a prompt when a waiting worker appears.\n2. Skip waiting, but keep the old assets available.\n`
    expect(found(doc("Options, roughly in order of preference:"))).not.toContain("SK-CONS-ALWAYS-NEVER")
    expect(found(doc("Do this for every release:"))).toContain("SK-CONS-ALWAYS-NEVER")
  })

  it("SK-CONS-ALWAYS-NEVER: \"even if X\" names no case, so the rule meets its opposite; \"if X\" is a case of its own", () => {
    const doc = (never: string) => `${FRONT}## Rules\n\n- ${never}\n\n## Notes\n\nAlways edit inside direct quotations and code.\n`
    expect(found(doc("Never edit inside direct quotations and code, even if they break the guide."))).toContain("SK-CONS-ALWAYS-NEVER")
    expect(found(doc("Never edit inside direct quotations and code if they break the guide."))).not.toContain("SK-CONS-ALWAYS-NEVER")
  })

  it("SK-STRUCT-RUN-TOGETHER: a table after a list belongs to the section whose heading names what it holds; under another heading it starts a part", () => {
    const doc = (title: string) =>
      `${FRONT}## ${title}\n\n- Three to six criteria.\n- Each criterion maps to one learning outcome.\n\n| Weak criterion | Why | Better |\n|---|---|---|\n| Effort | Not observable | Drop it |\n| Content and style | Two dimensions | Split them |\n`
    expect(found(doc("2. Choose the criteria"))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(found(doc("2. Gather the inputs"))).toContain("SK-STRUCT-RUN-TOGETHER")
  })

  it("SK-FMT-ABSOLUTE-PATH: a user's folder matched by a wildcard is a pattern; a user's folder by name is one machine's", () => {
    const doc = (path: string) => `${FRONT}## Matching\n\n| Modifier | Example |\n|---|---|\n| wildcards | \`${path}\` |\n`
    expect(found(doc("'C:\\Users\\*\\AppData\\*'"))).not.toContain("SK-FMT-ABSOLUTE-PATH")
    expect(found(doc("'C:\\Users\\alice\\AppData\\*'"))).toContain("SK-FMT-ABSOLUTE-PATH")
  })

  it("SK-SAFE-SECRET: a live key with no digit in it is still a key; a CamelCase name after the prefix is a placeholder", () => {
    const doc = (key: string) => `${FRONT}## Setup\n\n1. Authenticate with the team's key: \`export STRIPE_SECRET_KEY=${key}\`.\n2. List the tables.\n`
    expect(found(doc("sk_live_FDCIiwZZhFalDrQvNRFIysNu"))).toContain("SK-SAFE-SECRET")
    expect(found(doc("sk_live_StripeSecretKeyGoesHere"))).not.toContain("SK-SAFE-SECRET")
  })
})

describe("Twenty-first round: twenty skills written blind and read once at 376ea66, as a held-out set", () => {
  it("SK-STEPS-MISSING: a skill that calls itself a quick reference or a cheat sheet needs no steps; the same tables in a skill that says it does a job do", () => {
    const doc = (description: string) =>
      `---\nname: probe-cheatsheet\ndescription: ${description} Use when connecting a probe to a board or when a user asks for an OpenOCD command.\n---\n\n# OpenOCD cheat sheet\n\nUse this as a lookup. Ask the user before running anything that erases the chip.\n\n## Starting OpenOCD\n\n| Probe | Command |\n| --- | --- |\n| ST-Link | \`openocd -f interface/stlink.cfg -f target/stm32f4x.cfg\` |\n| J-Link | \`openocd -f interface/jlink.cfg -c "transport select swd" -f target/stm32h7x.cfg\` |\n\n## GDB\n\n| Want | Command |\n| --- | --- |\n| Connect | \`target extended-remote :3333\` |\n| Registers | \`info registers\` |\n\n## Troubleshooting\n\n- \`Error: open failed\`: the probe is not found; check the USB cable.\n- \`target not halted\`: run \`monitor reset halt\` first.\n`
    expect(ids(review(doc("Quick reference for debugging and flashing microcontrollers with OpenOCD and GDB.")))).not.toContain("SK-STEPS-MISSING")
    expect(ids(review(doc("Debugs and flashes microcontrollers with OpenOCD and GDB.")))).toContain("SK-STEPS-MISSING")
  })

  it("SK-EX-MISSING: code kept in a linked file the text sends the agent to for it (\"Vendor syntax is in …\") is a note; linked for something else it is one hop away (minor)", () => {
    const doc = (lead: string) =>
      `---\nname: peer-drain\ndescription: Drains one BGP neighbor before planned maintenance and restores it afterwards. Use when a peer's link or router needs maintenance.\n---\n\n# Draining a BGP peer\n\n${lead} [references/vendor.md](references/vendor.md). Read the section for your platform before step 3.\n\n## Procedure\n\n1. Confirm the device, the neighbor address and the maintenance window with the user.\n2. Record a baseline of prefixes received and advertised in a new file, \`baseline.md\`.\n3. Prepare the drain policy for this neighbor only.\n4. Ask the user before applying, then apply it with \`policy.attach(neighbor)\` so it rolls back on its own.\n5. Wait for the traffic to drain, then shut the session with the \`neighbor.shutdown()\` form of \`bgp.neighbors[addr]\`.\n6. Restore the session after the work, compare the counts with the baseline, and save the config.\n`
    const vendor = file("references/vendor.md", "# Vendor commands\n\n## Junos\n\n```\nset policy-options policy-statement DRAIN term 1 then local-preference 0\ncommit confirmed 10\n```\n")
    const severity = (lead: string) => {
      const target = file("SKILL.md", doc(lead), true)
      return severityOf(reviewWithMock(fileInput(target, [target, vendor])), "SK-EX-MISSING")
    }
    expect(severity("Vendor syntax is in")).toBe("info")
    expect(severity("The history of the drain is in")).toBe("minor")
  })
})

describe("Twenty-second round: twenty skills written blind and read once at 258b089, as a held-out set", () => {
  it("SK-STEPS-MISSING: a skill that writes a document and gives its parts in order is ordered by them; the same skill without the parts section is not", () => {
    const doc = (parts: string) =>
      `---\nname: board-minutes\ndescription: Draft official minutes for a board meeting from notes and an agenda. Use when asked to write up the minutes.\n---\n\n# Board minutes\n\nMinutes are the legal record of what the body did, not a transcript.\n\n## What you need before writing\n\n- The agenda and the notes.\n- The list of members present.\n\n## ${parts}\n\n- **Call to order**: time and who presided.\n- **Motions**: mover, seconder, the vote.\n- **Adjournment**: time.\n\n## Before handing back the draft\n\n- Every motion has a result.\n- Names are spelled as on the roster.\n`
    expect(severityOf(review(doc("The parts, in order")), "SK-STEPS-MISSING")).toBe("info")
    expect(severityOf(review(doc("Wording")), "SK-STEPS-MISSING")).toBe("major")
  })

  it("SK-REF-DANGLING-PATH: `./tracing.js` in a command, from a skill whose files all live in folders, is the project's; beside a file the skill ships at its root it is the bundle's", () => {
    const text = `---\nname: trace-debugging\ndescription: Finds where a distributed trace breaks. Use when spans are missing.\n---\n\n# Broken traces\n\n1. Read [the header formats](references/headers.md).\n2. In Node.js, load the SDK first: \`node --require ./tracing.js app.js\`.\n3. Report the boundary that broke.\n`
    const at = (paths: ReadonlyArray<string>) => {
      const target = file("SKILL.md", text, true)
      return ids(reviewWithMock(fileInput(target, [target, ...paths.map((p) => file(p, "# x\n"))])))
    }
    expect(at(["references/headers.md"])).not.toContain("SK-REF-DANGLING-PATH")
    expect(at(["references/headers.md", "notes.md"])).toContain("SK-REF-DANGLING-PATH")
  })

  it("SK-STRUCT-CUT-SHORT: \"the four steps\" after a count said before names what came; with no count before it promises", () => {
    const doc = (intro: string) =>
      `---\nname: trace-debugging\ndescription: Finds where a distributed trace breaks. Use when spans are missing.\n---\n\n# Broken traces\n\n${intro}\n\n## Report\n\nState the boundary, which of the four steps failed, and the evidence.\n`
    expect(ids(review(doc("Every hop does four things: inject, carry, extract, make current.")))).not.toContain("SK-STRUCT-CUT-SHORT")
    expect(ids(review(doc("Every hop carries the context across.")))).toContain("SK-STRUCT-CUT-SHORT")
  })

  it("SK-CONS-ALWAYS-NEVER: \"Always X and do not Y\" holds two rules, so \"Always X\" meets \"Do not X\"", () => {
    expect(contradicts("Always summarise the argument's merits and do not correct a speaker's facts.", "- Do not summarise the argument's merits.")).toBe(true)
    expect(contradicts("Never summarise the argument's merits and do not correct a speaker's facts.", "- Do not summarise the argument's merits.")).toBe(false)
  })

  it("SK-CONS-USE-WHEN: a body that refuses what a use sentence of any shape (\"Use at month-end close, when …\") offers contradicts it", () => {
    const doc = (use: string) =>
      `---\nname: gift-release\ndescription: Prepares the release-from-restriction entries for donor-restricted gifts. ${use}\n---\n\n# Releasing donor restrictions\n\nDo not use this skill when a program manager says restricted money has been spent.\n\n1. List the restricted gifts.\n2. Check each restriction.\n3. Draft the entries.\n`
    expect(ids(review(doc("Use at month-end close, when a program manager says restricted money has been spent.")))).toContain("SK-CONS-USE-WHEN")
    expect(ids(review(doc("Use at month-end close, when the auditor asks for a rollforward.")))).not.toContain("SK-CONS-USE-WHEN")
  })
})
