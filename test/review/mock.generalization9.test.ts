/**
 * Near misses from the seeded damage on skills held out of the repository (issue 22): the eighteenth and
 * nineteenth rounds, forty skills written blind, damaged by the harness's 22 kinds and read once. Each
 * miss as the smallest text that hid the damage, next to the good text the rule must leave alone.
 */
import { describe, expect, it } from "@effect/vitest"
import { reviewText as review, ruleIds as ids } from "./support.js"

const FM = "---\nname: locks\ndescription: Finds blocking locks in PostgreSQL. Use when queries hang.\n---\n\n# Locks\n\n"
const STEPS = "## Steps\n\n1. List the blocked sessions.\n2. Find the root blocker.\n\n"
const contradicts = (intro: string, rules: string) => ids(review(`${FM}${intro}\n\n${STEPS}## Rules\n\n${rules}\n`)).includes("SK-CONS-ALWAYS-NEVER")

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
