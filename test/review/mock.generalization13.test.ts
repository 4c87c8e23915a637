/**
 * Near misses, thirty-ninth stop (issue 22): the thirty-fifth round of skills written blind, read once.
 * Findings on good text, each as the smallest text next to the text the rule must still catch.
 */
import { describe, expect, it } from "@effect/vitest"
import { ruleIds as ids, reviewText as review, reviewWithFiles } from "./support.js"

describe("SK-STRUCT-ENDS-EARLY: a last section of tips written as prose", () => {
  const FM = "---\nname: toast-writing\ndescription: Helps someone write a wedding toast in their own voice. Use when a guest asks for help with a toast.\n---\n\n# Toast writing\n\n"
  const section = (title: string) => `## ${title}\n\n- Ask how they met the couple.\n- Ask for one story they would tell anyway.\n\n`
  const doc = (last: string) => `${FM}${section("Their material")}${section("Shape")}${section("Voice")}${section("Revising")}## Delivery tips to pass on\n\n${last}\n`
  it("three instructions or more in the paragraph are its list; one sentence about the list to come is not", () => {
    expect(ids(review(doc("Print it in large type or put it on cards. Don't read it from a phone. Pause after each laugh line. Keep a glass within reach for the last line.")))).not.toContain("SK-STRUCT-ENDS-EARLY")
    expect(ids(review(doc("These help most speakers on the day, and the nervous ones most of all.")))).toContain("SK-STRUCT-ENDS-EARLY")
  })
})

describe("SK-EX-ONLY-IN-FILES: a template linked to be printed or filled in", () => {
  const skill = (sentence: string) =>
    `---\nname: point-count\ndescription: Runs a breeding-bird point count to a fixed protocol. Use when planning or running a point-count survey.\n---\n\n# Point count\n\n## Before the season\n\n- Set the count length and the distance bands.\n- Check each observer's hearing and identification by ear.\n\n${sentence}\n\n## At each point\n\n1. Walk in quietly and confirm the point by GPS.\n2. Fill in the header before the count starts.\n3. Start the timer and record each bird once.\n`
  const files = ["templates/datasheet.md"]
  it("\"Print the datasheet from\" the template is a form to use; \"See … for what a sheet looks like\" sends the reader to its only example", () => {
    const use = reviewWithFiles(skill("Print the datasheet from\n[templates/datasheet.md](templates/datasheet.md), or use it as the\nlayout of a tablet form."), files)
    expect(use.findings.filter((f) => f.ruleId === "SK-EX-ONLY-IN-FILES" && f.severity !== "info")).toEqual([])
    const see = reviewWithFiles(skill("See [templates/datasheet.md](templates/datasheet.md) for what a filled\nsheet looks like."), files)
    expect(see.findings.filter((f) => f.ruleId === "SK-EX-ONLY-IN-FILES" && f.severity === "minor")).toHaveLength(1)
  })
})

describe("SK-CONS-USE-WHEN: the description's \"Use when\" is its trigger, whatever comes before it", () => {
  const skill = (description: string) =>
    `---\nname: point-count\ndescription: ${description}\n---\n\n# Point count\n\nDo not use this skill when someone is setting up a point-count survey or training observers.\n\n## At each point\n\n1. Walk in quietly and confirm the point by GPS.\n2. Fill in the header before the count starts.\n3. Start the timer and record each bird once.\n`
  it("a passive \"can be used for\" in the first sentence does not hide the \"Use when\" an exclusion contradicts", () => {
    const plain = "Runs standard bird point counts. Use when someone is setting up a point-count survey or training observers."
    const passive = "Runs standard bird point counts, so that counts can be used for occupancy or trend analysis. Use when someone is setting up a point-count survey or training observers."
    expect(ids(review(skill(plain)))).toContain("SK-CONS-USE-WHEN")
    expect(ids(review(skill(passive)))).toContain("SK-CONS-USE-WHEN")
  })
})

describe("SK-LEN-DUPLICATE: a rule said again after \"Put simply,\"", () => {
  const FM = "---\nname: rack-scan\ndescription: Reconciles freezer rack scans against the LIMS. Use when a rack scan export needs checking against expected locations.\n---\n\n# Rack scan reconciliation\n\n"
  const doc = (extra: string) =>
    `${FM}## Steps\n\n1. Export the scan.\n2. Run the comparison script.\n3. Present the counts.\n\n## What you must not do\n\n- Don't update LIMS locations, statuses or lost flags yourself, even with access.\n- Don't discard or relabel any tube on the basis of this report.\n${extra}- Don't assume a systematic shift is harmless; re-scan the rack first.\n`
  it("a lead announcing a restatement is read past; the same words in another rule are not a repeat", () => {
    expect(ids(review(doc("- Put simply, don't discard or relabel any tube on the basis of this report.\n")))).toContain("SK-LEN-DUPLICATE")
    expect(ids(review(doc("- Put simply, don't ship or freeze any tube on the basis of a phone call.\n")))).not.toContain("SK-LEN-DUPLICATE")
  })
})

describe("SK-STRUCT-PROMISED: a section headed as a template that holds none", () => {
  const FM = "---\nname: donor-letters\ndescription: Drafts donor acknowledgment letters that meet the receipt rules. Use when a gift needs a thank-you letter that is also a tax receipt.\n---\n\n# Donor letters\n\n## Before drafting\n\n1. Confirm the amount and date from the gift record.\n2. Confirm what the donor received in return.\n\n"
  const doc = (body: string) => `${FM}## Letter templates\n\n${body}\n## Final check\n\n- The amount matches the record.\n- The letter names what the donor received.\n`
  it("prose alone under \"Letter templates\" is flagged; a block, a list or a linked file is the template", () => {
    const prose = "Do not add a value to the in-kind template, even if the donor asks. Valuation is the donor's responsibility.\n"
    expect(ids(review(doc(prose)))).toContain("SK-STRUCT-PROMISED")
    expect(ids(review(doc(`Cash gift:\n\n\`\`\`text\nDear {salutation},\n\nThank you for your gift of \${amount}.\n\`\`\`\n\n${prose}`)))).not.toContain("SK-STRUCT-PROMISED")
    expect(ids(review(doc(`Start from [templates/cash.md](templates/cash.md). ${prose}`)))).not.toContain("SK-STRUCT-PROMISED")
  })
})
