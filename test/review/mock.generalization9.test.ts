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
