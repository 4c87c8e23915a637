/**
 * Near misses, thirty-ninth stop (issue 22): the thirty-fifth round of skills written blind, read once.
 * Findings on good text, each as the smallest text next to the text the rule must still catch.
 */
import { describe, expect, it } from "@effect/vitest"
import { ruleIds as ids, reviewText as review, reviewWithFiles, severityOf } from "./support.js"

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

// ---------------------------------------------------------------- the thirty-sixth round

describe("SK-STEPS-MISSING: a skill that wraps one bundled script, named only in its commands", () => {
  const skill = (second: string) =>
    `---\nname: snowmaking-windows\ndescription: Turns an hourly forecast into snowmaking go/no-go windows from wet-bulb temperature. Use when a snowmaking manager asks which hours to run.\n---\n\n# Snowmaking windows\n\n## What you need from the user\n\n- The hourly forecast for each elevation.\n- The resort's threshold chart.\n\n## Running the calculation\n\n\`\`\`bash\npython3 scripts/wet_bulb.py --temp -3 --rh 65 --elevation-m 1800\n\`\`\`\n\n\`\`\`bash\n${second}\n\`\`\`\n\n## Turning hours into a recommendation\n\nLook for runs of hours at or below the threshold, and report each with its start, end and trend.\n`
  it("one script, a file of the bundle, holds the order; two tools leave the agent to infer it", () => {
    expect(severityOf(reviewWithFiles(skill("python3 scripts/wet_bulb.py --csv summit.csv --elevation-m 2450"), ["scripts/wet_bulb.py"]), "SK-STEPS-MISSING")).toBeUndefined()
    expect(severityOf(reviewWithFiles(skill("python3 scripts/windows.py --csv summit.csv"), ["scripts/wet_bulb.py", "scripts/windows.py"]), "SK-STEPS-MISSING")).toBe("major")
  })
})

describe("SK-SAFE-UNBOUNDED: the confirmation a lab result gives", () => {
  const doc = (rule: string) =>
    `---\nname: precautions-lookup\ndescription: Gives the transmission-based precautions for a suspected or confirmed infection. Use when a nurse asks which room and PPE a patient needs.\n---\n\n# Precautions lookup\n\n## Rules\n\n- The facility's infection prevention policy wins over this table.\n- ${rule}\n- When two rows apply, use the union.\n`
  it("\"Do not wait for confirmation\" after \"before a lab result comes back\" waits for no user; alone it drops the user's say", () => {
    expect(ids(review(doc("Start precautions on the **syndrome**, before a lab result comes back. Do not wait for confirmation.")))).not.toContain("SK-SAFE-UNBOUNDED")
    expect(ids(review(doc("Move the patient and start the cleaning. Do not wait for confirmation.")))).toContain("SK-SAFE-UNBOUNDED")
  })
})

describe("SK-CLAR-SHOUTING: grades a table defines", () => {
  const legend = "| Severity | Meaning |\n|---|---|\n| STOP | The step could energize the work zone |\n| MUST FIX | A step the rules require is missing |\n| SHOULD FIX | An ambiguity that invites error |\n\n"
  const findings = "| # | Step | Severity | Finding |\n|---|---|---|---|\n| 1 | 4 | STOP | No test for absence of voltage. |\n| 2 | 3 | STOP | No hold tags. |\n| 3 | 1 | MUST FIX | No phasing check. |\n| 4 | 2 | MUST FIX | A non-load-break switch opened under load. |\n| 5 | 6 | SHOULD FIX | Grounds not counted. |\n| 6 | 7 | STOP | The clearance is released before the crew is clear. |\n| 7 | 8 | MUST FIX | No count of grounds removed. |\n"
  const doc = (table: string) =>
    `---\nname: switching-review\ndescription: Reviews a written switching order for safety gaps before it is issued. Use when an engineer asks for a second pair of eyes on a switching order.\n---\n\n# Switching order review\n\n## Output\n\nReturn a findings table, most serious first.\n\n${table}${findings}`
  it("STOP and MUST FIX as the legend's grades are a vocabulary; without the legend they shout", () => {
    expect(ids(review(doc(legend)))).not.toContain("SK-CLAR-SHOUTING")
    expect(ids(review(doc("")))).toContain("SK-CLAR-SHOUTING")
  })
})

describe("SK-DESC-VAGUE: what a prediction estimates", () => {
  const skill = (description: string) =>
    `---\nname: outage-rollup\ndescription: ${description}\n---\n\n# Outage rollup\n\n## Steps\n\n1. Load the calls and the meter pings.\n2. Run the rollup script.\n3. Report the predicted device with its evidence.\n`
  it("\"predict which device probably operated\" names what is estimated; \"probably run it\" hedges the act", () => {
    expect(ids(review(skill("Groups outage calls onto the network model to predict which protective device probably operated. Use when the outage desk has a burst of calls.")))).not.toContain("SK-DESC-VAGUE")
    expect(ids(review(skill("Groups outage calls onto the network model. Use when the outage desk has a burst of calls; probably run it before dispatch.")))).toContain("SK-DESC-VAGUE")
  })
})

describe("SK-STRUCT-PROMISED: a section of what a script prints", () => {
  const doc = (pointer: string) =>
    `---\nname: shrink-variance\ndescription: Analyses a store's inventory shrink from count and sales files. Use when a store manager asks why the shrink number moved.\n---\n\n# Shrink variance analysis\n\n## Phase 1: Run the report\n\n\`\`\`bash\npython3 scripts/shrink_report.py --counts counts.csv --sales sales.csv\n\`\`\`\n\n${pointer} Duplicate rows or negative on-hand mean the headline is not yet trustworthy.\n\n## Phase 2: Recounts\n\n1. Pick the departments over the threshold.\n2. Ask the store to recount them.\n`
  it("\"the DATA PROBLEMS section\", in capitals no heading has, is the report's; \"the Data problems section\" is this document's", () => {
    expect(ids(review(doc("Read the DATA PROBLEMS section first.")))).not.toContain("SK-STRUCT-PROMISED")
    expect(ids(review(doc("Read the Data problems section first.")))).toContain("SK-STRUCT-PROMISED")
  })
})

describe("SK-STRUCT-RUN-TOGETHER: figures worked out under a table of figures", () => {
  const doc = (list: string) =>
    `---\nname: checkpoint-accuracy\ndescription: Computes map accuracy from surveyed checkpoints and writes the report. Use when a mapping deliverable needs its accuracy stated.\n---\n\n# Checkpoint accuracy\n\n## Worked example\n\nResiduals in centimetres:\n\n| Pt | dx | dy | dz |\n|---|---|---|---|\n| CP1 | 2.1 | -1.5 | 4.1 |\n| CP2 | -3.4 | 2.2 | 5.5 |\n| CP3 | 1.2 | 3.0 | 1.8 |\n\n${list}\n## Report\n\nState the accuracy class and the checkpoint count.\n`
  it("a list whose every item carries figures works the table out; a list of rules under it is a part run in", () => {
    expect(ids(review(doc("- RMSEx 2.4, RMSEy 2.0 cm; means 0.3 cm: no horizontal bias.\n- RMSE_V 4.6 cm, but mean dz is +4.3 cm.\n")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(doc("- Never drop a checkpoint to improve the result.\n- Ask the surveyor for the raw file.\n")))).toContain("SK-STRUCT-RUN-TOGETHER")
  })
})

// ---------------------------------------------------------------- the thirty-seventh round

describe("SK-LEN-DUPLICATE: entries of one list built on one frame", () => {
  const FM = "---\nname: isf-readiness\ndescription: Checks whether an Importer Security Filing can be sent on time with every element. Use when a broker prepares an ISF for an ocean shipment.\n---\n\n# ISF readiness\n\n## Data elements\n\n"
  const doc = (second: string) =>
    `${FM}1. Seller (last known entity by whom the goods are sold or agreed to be sold), name and address\n2. ${second}\n3. Country of origin\n\n## Deadline\n\nFile no later than 24 hours before the cargo is loaded at the foreign port.\n`
  it("\"Buyer (… to whom …)\" under \"Seller (… by whom …)\" is another entry; the seller's entry said again is a repeat", () => {
    expect(ids(review(doc("Buyer (last known entity to whom the goods are sold or agreed to be sold), name and address")))).not.toContain("SK-LEN-DUPLICATE")
    expect(ids(review(doc("Seller (the last known entity by whom the goods are sold or agreed to be sold), name and address")))).toContain("SK-LEN-DUPLICATE")
  })
})

// ---------------------------------------------------------------- damage held out, rounds 30 to 37

describe("SK-SAFE-SECRET: an AWS key id with no digit", () => {
  const doc = (line: string) =>
    `---\nname: pos-exceptions\ndescription: Reviews point-of-sale exception reports for patterns worth a closer look. Use when a store manager shares a void or refund report.\n---\n\n# POS exception review\n\n${line}\n\n## Steps\n\n1. Read the report.\n2. Group the exceptions by cashier.\n3. Report the patterns with their evidence.\n`
  it("AKIA and sixteen capitals is a key, digits or none; sixteen of one letter is a placeholder", () => {
    expect(severityOf(review(doc("Before you start, set the key: `export AWS_ACCESS_KEY_ID=AKIAYONHMNSTOVJFALZP`.")), "SK-SAFE-SECRET")).toBe("critical")
    expect(severityOf(review(doc("Before you start, set the key: `export AWS_ACCESS_KEY_ID=AKIAS54B5BMQSLGGM4KG`.")), "SK-SAFE-SECRET")).toBe("critical")
    expect(ids(review(doc("Before you start, set the key: `export AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX`.")))).not.toContain("SK-SAFE-SECRET")
  })
})

describe("SK-FAIL-MISSING: \"If possible\" handles no failure", () => {
  const doc = (step: string) =>
    `---\nname: marc-review\ndescription: Reviews a batch of MARC records for errors a cataloguer should fix. Use when a library loads vendor records into its catalogue.\n---\n\n# MARC record review\n\nVendor records arrive in batches and are loaded into the local catalogue and often into a shared database, where errors spread to every library that copies them. This review reads the batch and reports what a cataloguer should fix before the load; it changes nothing itself.\n\n## Steps\n\n1. Find out where the records go: the local system only, or a shared database as well.\n2. Run the checker and read its summary of missing fields and bad indicators:\n\n   \`\`\`bash\n   python3 scripts/check_marc.py batch.mrc\n   \`\`\`\n\n3. ${step}\n4. Report issues grouped by pattern (\"all 212 records lack field 338\"), not one per record, with the count and three record numbers for each.\n5. Give the cataloguer the list of fixes in order of how many records each touches.\n`
  it("\"If possible, read a sample by eye for what a script cannot judge\" is a hedge; \"If the script cannot read a file, ask for a new export\" handles a failure", () => {
    expect(ids(review(doc("If possible, read a sample of records by eye for what a script cannot judge.")))).toContain("SK-FAIL-MISSING")
    expect(ids(review(doc("If the script cannot read a file, ask the user for a new export.")))).not.toContain("SK-FAIL-MISSING")
  })
})

describe("SK-CONS-ALWAYS-NEVER: \"X but do not Y\" is two rules", () => {
  const doc = (later: string) =>
    `---\nname: em-level-audit\ndescription: Audits the level billed for an office visit against the note. Use when a coder asks whether a visit's level is supported.\n---\n\n# Office visit level audit\n\nHistory and exam must be "medically appropriate" but do not affect the level. Audit both the decision making and the time.\n\n## Steps\n\n1. Score the decision making from the note.\n2. Add up the time on the date of the visit.\n3. Report the higher supported level.\n\n## Notes\n\n${later}\n`
  it("\"must not be medically appropriate but …\" against \"must be … but …\" is a contradiction; the same rule said again is not", () => {
    expect(ids(review(doc("History and exam must not be \"medically appropriate\" but do not affect the level.")))).toContain("SK-CONS-ALWAYS-NEVER")
    expect(ids(review(doc("History and exam must be \"medically appropriate\" and are documented as usual.")))).not.toContain("SK-CONS-ALWAYS-NEVER")
  })
})

describe("SK-STRUCT-CUT-SHORT: an example that stops at its input", () => {
  const FM = "---\nname: westgard-check\ndescription: Evaluates control results against Westgard rules and says which runs to reject. Use when a lab reviews its daily QC.\n---\n\n# Westgard check\n\n**Input requirements:** one row per control result, with run, analyte, level and value.\n\n## Workflow\n\n1. Load the results and the targets.\n2. Run the rule check.\n3. Report each rejected run with the rule it broke.\n\n## Example\n\nInput (`examples/results.csv`):\n\n```\nrun_id,analyte,level,value\nR1,GLU,1,106.0\n```\n"
  it("an Input with no Output after it is cut short; the pair, or an \"Input requirements\" line alone, is whole", () => {
    expect(ids(review(FM))).toContain("SK-STRUCT-CUT-SHORT")
    expect(ids(review(`${FM}\nOutput:\n\n\`\`\`\nR1 GLU reject 1-3s\n\`\`\`\n`))).not.toContain("SK-STRUCT-CUT-SHORT")
    expect(ids(review(FM.replace(/## Example[^]*$/, "")))).not.toContain("SK-STRUCT-CUT-SHORT")
  })
})
