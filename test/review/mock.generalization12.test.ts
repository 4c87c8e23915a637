/**
 * Near misses, thirty-eighth stop (issue 22): the thirtieth round of skills written blind, read once.
 * Findings on good text, each as the smallest text next to the text the rule must still catch.
 */
import { describe, expect, it } from "@effect/vitest"
import { ruleIds as ids, reviewText as review, reviewWithFiles, severityOf } from "./support.js"

const FM = "---\nname: ont-turnup\ndescription: Provisions a fibre ONT on an OLT and verifies it. Use when a work order asks for a new subscriber turn-up.\n---\n\n# ONT turn-up\n\n"

describe("SK-STRUCT-RUN-TOGETHER: each command with the results to expect from it", () => {
  const check = (command: string, results: string) => `\`\`\`\n${command}\n\`\`\`\n- ${results}\n`
  const doc = (pairs: ReadonlyArray<string>) =>
    `${FM}## Provision\n\n1. Add the ONT by serial number.\n2. Bind the service profile.\n3. Save the configuration.\n\n## Verify\n\nAll of these must pass before you close the work order:\n\n${pairs.join("\n")}\nThen ask the field tech to confirm the subscriber gets an address.\n`
  it("a list under a code block twice or more in a section is its layout; once, on another subject, it is a part run in", () => {
    const state = check("display ont info 0 1 3 5", "`Run state: online`, `Config state: normal`, `Match state: match`")
    const power = check("display ont optical-info 3 5", "Receive power between about -8 and -27 dBm; worse than -25 is marginal.")
    const vlan = check("display service-port port 0/1/3 ont 5", "One entry, state `up`, on the expected VLAN.")
    expect(ids(review(doc([state, power, vlan])))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(doc([state.replace(/- .*\n$/, "\n"), "- Keep the work order open until the tech leaves.\n- Note the serial in the ticket.\n"])))).toContain("SK-STRUCT-RUN-TOGETHER")
  })
})

describe("SK-STRUCT-ENDS-EARLY: a note that closes the document", () => {
  const doc = (title: string) =>
    `${FM}## Hard stops\n\n- The bin is being unloaded.\n- No one is stationed outside.\n\n## Rules\n\n- Lock out every auger.\n- Test the air before entry.\n\n## Producing the permit\n\n1. Ask for the bin and the crew.\n2. Fill in the template, leaving readings blank.\n\n## ${title}\n\nThe standard covers grain handling facilities, and many family farms fall outside its enforcement. The hazards are the same, so use it as the minimum everywhere.\n`
  it("a last \"Scope note\" or \"Caveats\" in prose is complete; a last \"Troubleshooting\" in prose is not", () => {
    expect(ids(review(doc("Scope note")))).not.toContain("SK-STRUCT-ENDS-EARLY")
    expect(ids(review(doc("Caveats")))).not.toContain("SK-STRUCT-ENDS-EARLY")
    expect(ids(review(doc("Troubleshooting")))).toContain("SK-STRUCT-ENDS-EARLY")
  })
})

describe("SK-CLAR-VAGUE: forbidding the attempt is precise", () => {
  const doc = (line: string) =>
    `${FM}## Calibrate\n\n1. Time the tractor over the course.\n2. Compare the average to the target.\n   - Off by more than 10%: change the speed or the nozzle size. ${line}\n3. Record the result.\n`
  it("\"Do not try to force it\" forbids; \"Try to force it\" hedges", () => {
    expect(ids(review(doc("Do not try to force a large correction with pressure.")))).not.toContain("SK-CLAR-VAGUE")
    expect(ids(review(doc("Try to keep the correction small with pressure.")))).toContain("SK-CLAR-VAGUE")
  })
})

describe("SK-STEPS-MISSING: a skill that runs nothing and shows its output worked out", () => {
  const doc = (examples: string) =>
    `---\nname: reharmonize\ndescription: Suggests new chords under an existing melody, checking each against the melody note. Use when a songwriter wants fresher chords under a tune.\n---\n\n# Reharmonize\n\n## What to get from the user\n\nKey, meter, the chords with bar lines, the melody notes on strong beats, a style and how adventurous to be.\n\n## Toolbox\n\n| Device | Move |\n|---|---|\n| Secondary dominant | V7/x before chord x |\n| Tritone sub | V7 to the dominant a tritone away |\n\n## The melody check\n\nFor each new chord, classify the melody note over it: a chord tone is fine, an available tension is fine, an avoid note rejects the chord.\n\n## Output format\n\nGive two or three options with the chart, one line per changed chord, and a melody check line.\n\n${examples}`
  it("an output format and a worked example section make steps a note; without the examples the work is left to infer", () => {
    const worked = "## Examples\n\n**Input**\nKey C, chords `| C | Am | F | G7 |`, melody `| E | C | A | D |`.\n\n**Output**\n`| Cmaj7 A7 | Dm9 | Fmaj7 | G7sus4 |`: melody E is the 5th of A7.\n"
    expect(severityOf(review(doc(worked)), "SK-STEPS-MISSING")).toBe("info")
    expect(severityOf(review(doc("## Tone\n\nWrite it warmly, as a teacher would.\n")), "SK-STEPS-MISSING")).toBe("major")
  })
})

describe("SK-STRUCT-RUN-TOGETHER: a checklist after a table, in a document of checklists", () => {
  const doc = (second: string) =>
    `---\nname: stem-export\ndescription: Prepares multitrack stems for a mix engineer. Use when a producer hands a session off for mixing.\n---\n\n# Stem export\n\n## Alignment\n\n- [ ] Every file starts at bar 1.\n- [ ] Every file ends past the last reverb tail.\n\n## What to print\n\n| Keep it printed | Export dry |\n|---|---|\n| Amp sims | Reverb used only for space |\n| Virtual instruments | Bus compression |\n\n${second}\n## Naming\n\nUse \`NN_Instrument_Detail.wav\`.\n`
  it("a checklist under the table goes on with the document's checklists; a plain list under it starts a part", () => {
    expect(ids(review(doc("- [ ] **Master bus processing is bypassed**: no limiter, no clipper.\n- [ ] **Sidechain effects** that make the sound are printed.\n")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(doc("- Zip the files with the session name.\n- Upload them to the shared drive.\n")))).toContain("SK-STRUCT-RUN-TOGETHER")
  })
})

describe("SK-CONS-ALWAYS-NEVER: the rule word is the rule's, not its reason's", () => {
  const doc = (extra: string) =>
    `${FM}## Rules\n\n- Inspect the harness and the anchor. The lifeline must be rigged so that the entrant cannot sink deeper than waist level.\n- Test the air before entry.\n\n## Notes\n\nKeep the permit with the bin records.${extra}\n`
  it("\"must be rigged so that … cannot sink\" is a positive rule its negation contradicts", () => {
    expect(ids(review(doc("")))).not.toContain("SK-CONS-ALWAYS-NEVER")
    expect(ids(review(doc(" The lifeline must not be rigged so that the entrant cannot sink deeper than waist level.")))).toContain("SK-CONS-ALWAYS-NEVER")
  })
})

describe("SK-STEPS-MISSING: sections of worked examples carry out a calculation", () => {
  const doc = (rest: string) =>
    `---\nname: backtiming\ndescription: Back-times a broadcast rundown and says whether the show is heavy or light. Use when a producer asks whether the show fits or how much to cut.\n---\n\n# Rundown back-timing\n\n## The three numbers\n\nThe back time of an item is the hard out minus the durations of everything after it. Heavy means the show is longer than its slot; light means shorter.\n\n${rest}## Rules for answers\n\n- Lead with heavy or light and by how much.\n- Never propose shortening a commercial break.\n`
  it("worked example sections make steps a note; with none the finding stands", () => {
    const worked = "## Example 1: Does the planned show fit?\n\nInput: hard out 18:29:30, items 3:00, 2:30, 4:10.\n\nOutput: back times 18:19:50, 18:22:50, 18:25:20; the show is 40 seconds heavy.\n\n"
    expect(severityOf(review(doc(worked)), "SK-STEPS-MISSING")).toBe("info")
    expect(severityOf(review(doc("## Output\n\nSay heavy or light, by how much, and the back time of the next item.\n\n")), "SK-STEPS-MISSING")).toBe("major")
  })
})

describe("SK-CLAR-PLACEHOLDER: a marker the data may hold", () => {
  const doc = (line: string) => `${FM}## Rules\n\n- Lead with the total.\n- ${line}\n`
  it("\"missing or marked TBD\" is what the agent meets; a bare TBD in the skill's own text is unfinished", () => {
    expect(ids(review(doc("If durations are missing or marked TBD (a live shot), give the back time for the item after it.")))).not.toContain("SK-CLAR-PLACEHOLDER")
    expect(ids(review(doc("If durations are missing, TBD.")))).toContain("SK-CLAR-PLACEHOLDER")
  })
})

describe("SK-FAIL-MISSING: asking for what is missing, telling someone in a case", () => {
  const doc = (inputs: string, last: string) =>
    `---\nname: rooming-check\ndescription: Checks a hotel rooming list against the contracted block. Use when an agent has a rooming list to send to a hotel.\n---\n\n# Rooming list check\n\nA rooming list tells the hotel who sleeps where, on which nights, at the group rate. Errors in it surface at the front desk, so check it against the block before it leaves the agency.\n\n## Inputs\n\n${inputs}\n\n- The rooming list, one row per guest: room, names, room type, arrival and departure.\n- The contracted block, one row per night and room type, from the signed contract.\n\n## Procedure\n\n1. Run the check:\n\n   \`\`\`bash\n   python3 scripts/check.py rooming.csv --block block.csv\n   \`\`\`\n\n   It prints a table of block against pickup and never changes the input files.\n2. List duplicate guests and the nights over the block, with room counts.\n3. ${last}\n4. Produce the summary for the agent: decisions needed first, then nights over the block, then pickup.\n\n## Guardrails\n\n- Never email the list to the hotel; the agent sends it.\n- Keep names exactly as supplied, accents included.\n`
  it("\"Ask for anything missing\" and \"If pickup is below the floor, tell the agent\" handle failure; with neither, nothing does", () => {
    const withFiles = (md: string) => ids(reviewWithFiles(md, ["scripts/check.py"]))
    expect(withFiles(doc("Ask for anything missing; do not rebuild a block from memory.", "Compare pickup with the block."))).not.toContain("SK-FAIL-MISSING")
    expect(withFiles(doc("Both come from the agent.", "If pickup is below the attrition floor, tell the agent before the cutoff."))).not.toContain("SK-FAIL-MISSING")
    expect(withFiles(doc("Both come from the agent.", "Compare pickup with the block."))).toContain("SK-FAIL-MISSING")
  })
})

describe("SK-CLAR-VAGUE: an optional item at the end of a list of things", () => {
  const doc = (line: string) => `${FM}## Step 1: Get an inventory\n\n${line}\n\n## Step 2: Classify\n\n1. Assign each container a class.\n2. List the pairs that share a cabinet.\n`
  it("\"chemical name and, if possible, quantity\" asks for what exists; \"and, if possible, delete the copies\" and \"and ideally the smallest quantity\" hedge", () => {
    expect(ids(review(doc("You need, per container: **storage location at the level of one storage unit** (a cabinet or a shelf bay, not just a room), container ID, chemical name and, if possible, quantity.")))).not.toContain("SK-CLAR-VAGUE")
    expect(ids(review(doc("Copy the inventory, keep the original, and, if possible, delete the copies afterwards.")))).toContain("SK-CLAR-VAGUE")
    // "ideally" before an item leaves open whether it is required
    expect(ids(review(doc("Each entry you write should name the container, the class, and ideally the smallest quantity that matters.")))).toContain("SK-CLAR-VAGUE")
  })
})

describe("SK-STEPS-MISSING: the title names the skill, not a section", () => {
  const doc = (title: string, extra: string) =>
    `---\nname: wire-check\ndescription: Guards the moment a homebuyer wires closing funds. Use whenever a user shares wiring instructions or says a closing wire was sent.\n---\n\n# ${title}\n\nCriminals who read an agent's mailbox send new wiring instructions at the last minute. Treat every set of instructions as unverified until the user has confirmed them by voice.\n\n## Your rules\n\n- You never send, schedule or approve a wire.\n- Instructions are verified only when the user has phoned the closing company at a number they found themselves.\n- Any change of bank is a red flag.\n\n## How it sounds\n\n> **User:** The title company emailed new instructions. Can you fill in the wire form?\n>\n> **You:** I won't fill it in from this email. Please call the title company on a number from your contract first.\n${extra}`
  it("\"# Closing wire verification\" over rules and dialogues is no task to order; a verification section is", () => {
    expect(severityOf(review(doc("Closing wire verification", "")), "SK-STEPS-MISSING")).not.toBe("major")
    expect(severityOf(review(doc("Closing wires", "\n## Verification\n\nThe user reads back the last four digits, and the closing company confirms them.\n")), "SK-STEPS-MISSING")).toBe("major")
  })
})

describe("SK-STRUCT-NO-SECTIONS: sections a level down are sections", () => {
  const step = (n: number) => `### Step ${n}: Check part ${n}\n\n${Array.from({ length: 12 }, (_, k) => `- Record reading ${k + 1} of part ${n} in the log before you go on.`).join("\n")}\n`
  const doc = (heading: (n: number) => string) => `${FM}${[1, 2, 3, 4, 5, 6, 7].map(heading).join("\n")}`
  it("\"### Step N\" under the title is the skipped level's finding alone; with no heading below the title the document has no sections", () => {
    const deeper = review(doc(step))
    expect(ids(deeper)).not.toContain("SK-STRUCT-NO-SECTIONS")
    expect(ids(deeper)).toContain("SK-STRUCT-SKIPPED-LEVEL")
    expect(ids(review(doc((n) => step(n).replace(/^### (.*)$/m, "**$1**"))))).toContain("SK-STRUCT-NO-SECTIONS")
  })
})

describe("SK-STEPS-MISSING: a decision table routes each case to its action", () => {
  const doc = (header: string) =>
    `---\nname: delivery-exceptions\ndescription: Triage rules for failed last-mile deliveries, deciding reattempt, hold or return. Use when a dispatcher reviews the day's failed stops.\n---\n\n# Failed delivery exceptions\n\nEach failed stop needs three decisions: was the attempt genuine, what happens to the parcel next, and what we tell the customer.\n\n## Rules\n\n- A scan more than 150 m from the geocode, or one made while the vehicle was moving, is an unverified attempt.\n- An unverified attempt does not count toward the attempt limit, and goes to the driver's supervisor, not into the customer message.\n- Customers never get the driver's name, phone number or location history, and drivers get no customer data beyond the stop.\n- Return to sender is final for most shippers: the attempt count and the shipper's rule come first.\n- Perishables, medication and age-restricted items follow the shipper's special-handling rule, which beats everything below.\n\n## Cases\n\n| Exception | ${header} |\n|---|---|---|\n| Not home | Customer replies in time | Next-day reattempt |\n| Address not found | A correction passes geocoding | Hold one day |\n| Refused | Never | Return to sender |\n| Damaged | Never | Photograph and hold |\n\n## Customer messages\n\nKeep them short and factual. Say what happened, what happens next and when, and how to change it.\n\n> We tried to deliver your parcel today at 14:10 but nobody was home. We will try again tomorrow between 9:00 and 13:00. Reply to this message to choose a pickup point instead.\n\n> We could not find the address on your parcel. Reply with the full street address and any access notes, and we will deliver it tomorrow.\n\n## End-of-shift summary for the dispatcher\n\nGive the counts of unverified attempts, returns and holds, with the stops of each.\n`
  it("a header that branches (\"if…\", \"Otherwise\", \"Next step\") is a procedure; a table of facts is not", () => {
    expect(severityOf(review(doc("Same-day reattempt if… | Otherwise")), "SK-STEPS-MISSING")).not.toBe("major")
    expect(severityOf(review(doc("Cause | Next step")), "SK-STEPS-MISSING")).not.toBe("major")
    expect(severityOf(review(doc("Share of stops | Typical cause")), "SK-STEPS-MISSING")).toBe("major")
  })
})

describe("SK-STEPS-MISSING: a report's template orders the writing", () => {
  const doc = (title: string) =>
    `---\nname: staff-report\ndescription: Drafts a zoning variance staff report for a planner to sign. Use when a planner needs a staff report for a variance hearing.\n---\n\n# Variance staff report\n\nYou are drafting a staff report for a planner who will sign it and defend it at a hearing.\n\n## Before you write\n\nGet the exact criteria from the local code, the standard being varied and what is proposed.\n\n## How to analyse each criterion\n\nTake the criteria in the order the code lists them. For each, quote it, give the facts with their source, and write a finding: met, not met, or insufficient information.\n\n## ${title}\n\n\`\`\`markdown\n# Staff Report — Variance <case no.>\n\n## Request\n\n## Findings\n\n## Recommendation\n\`\`\`\n`
  it("\"## Template\" over the report's skeleton gives the order; a section of another name holding it does not", () => {
    expect(severityOf(review(doc("Template")), "SK-STEPS-MISSING")).toBe("info")
    expect(severityOf(review(doc("Hearing day")), "SK-STEPS-MISSING")).toBe("major")
  })
})

describe("SK-STRUCT-RUN-TOGETHER: a formula in a block, then its worked cases", () => {
  const doc = (list: string) =>
    `${FM}## Phase 4: Order quantity\n\nMultiply the consumption by the order.\n\n\`\`\`\nfabric to book = per-garment consumption × order quantity\n\`\`\`\n\n${list}\n`
  it("items computing the formula with numbers belong to it; items on something else start a part", () => {
    expect(ids(review(doc("- Shirts: 1.655 m × 3,000 pcs = 4,965 m.\n- T-shirts: 2.613 kg/dz × 500 dz = 1,306 kg.")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(doc("- Send the booking to the mill buyer.\n- Keep a copy with the style file.")))).toContain("SK-STRUCT-RUN-TOGETHER")
  })
})

describe("SK-CLAR-VAGUE: \"before\" and \"after\" name a pair only as a pair", () => {
  const doc = (title: string) =>
    `${FM}## Provision\n\n1. Add the ONT by serial number.\n2. Bind the service profile.\n\n## ${title}\n\n1. You might want to rerun the check with the new serial.\n2. Report the result to the field tech.\n`
  it("a section named for a moment (\"Re-checking after a swap\") holds instructions; \"Before / after\" holds samples", () => {
    expect(ids(review(doc("Re-checking after a module swap")))).toContain("SK-CLAR-VAGUE")
    expect(ids(review(doc("Before you start")))).toContain("SK-CLAR-VAGUE")
    expect(ids(review(doc("Before / after")))).not.toContain("SK-CLAR-VAGUE")
  })
})

describe("SK-CLAR-VAGUE: a hedge before a colon, and \"below\" that measures nothing", () => {
  const doc = (line: string) => `${FM}## Workflow\n\n1. ${line}\n2. Run the checks on the file.\n3. Report issues grouped by pattern.\n`
  it("\"You might want to find out the context: …\" hedges; \"Step 1: find out the context\" does not", () => {
    expect(ids(review(doc("You might want to find out the context: local catalogue only, or also a shared one.")))).toContain("SK-CLAR-VAGUE")
    expect(ids(review(doc("Step one: find out the context, local catalogue only or also a shared one.")))).not.toContain("SK-CLAR-VAGUE")
  })
  it("\"If possible, read … (table below, …\" hedges; \"If possible, keep it under 5 minutes\" states its measure", () => {
    // hard-wrapped inside the parenthesis, as authors wrap
    expect(ids(review(doc("If possible, read a sample of records by eye (table below, rows marked\n   *judgement*): is the title as on the source.")))).toContain("SK-CLAR-VAGUE")
    expect(ids(review(doc("If possible, keep each check under 5 minutes.")))).not.toContain("SK-CLAR-VAGUE")
  })
})

describe("SK-EX-NO-CODE: markers in doubled brackets and labels as written on equipment", () => {
  const doc = (a: string, b: string) =>
    `---\nname: mop-authoring\ndescription: Drafts a method of procedure for a change to live data center power. Use when an engineer needs a MOP drafted for review.\n---\n\n# MOP authoring\n\nThis skill produces a draft. Where a detail is unknown, leave a visible ${a} marker; never fill it with a guess.\n\n## Rules\n\n- One physical action per step.\n- Name devices exactly as labelled: ${b}.\n- Every switching step is followed by a verification step.\n\n## Examples\n\n**Bad:** "Switch the UPS to bypass."\n\n**Good:** "Close the maintenance bypass breaker; confirm the mimic panel shows bypass."\n`
  it("`[[TBD: …]]` and `UPS-2A output breaker Q4 (UPS-2A cabinet)` teach no code; a call and a command line do", () => {
    expect(ids(review(doc("`[[TBD: breaker number]]`", "`UPS-2A output breaker Q4 (UPS-2A cabinet)`")))).not.toContain("SK-EX-NO-CODE")
    expect(ids(review(doc("`render_marker(step_id)`", "`set_label(panel=\"UPS-2A\")`")))).toContain("SK-EX-NO-CODE")
  })
})

describe("SK-EX-NO-CODE: a to-do marker the skill has the agent leave", () => {
  const doc = (a: string, b: string) =>
    `---\nname: kickoff-plan\ndescription: Drafts a customer kickoff agenda and success plan from sales notes. Use when a customer success manager prepares a kickoff.\n---\n\n# Kickoff plan\n\n## Gather\n\n- Goals in the customer's words.\n- Promises made during the sale.\n\nQuote the source for every promise. If something is not in the material, leave a visible ${a} instead of filling it in.\n\n## Examples\n\n> **Input:** "They want better visibility into support."\n> **Output:** "Support leads see first-response time by queue weekly, by 15 March."\n\n## Before it goes out\n\n- [ ] No ${b} items left in the customer version.\n- [ ] The CSM has reviewed it.\n`
  it("`TODO(ask):` is a marker; a call is code", () => {
    expect(ids(review(doc("`TODO(ask):`", "`TODO(ask): target FRT`")))).not.toContain("SK-EX-NO-CODE")
    expect(ids(review(doc("`mark_gap(field)`", "`list_gaps(plan)`")))).toContain("SK-EX-NO-CODE")
  })
})

describe("SK-STRUCT-RUN-TOGETHER: rules under the table that opens their section", () => {
  const doc = (list: string) =>
    `---\nname: plant-tags\ndescription: Writes nursery plant tags and bench cards. Use when a grower needs tag copy for a new crop.\n---\n\n# Plant tags\n\nA tag tells the shopper what the plant is and how to keep it alive.\n\n## Name formatting\n\n| Element | Rule | Example |\n|---|---|---|\n| Genus | Capitalized, italic | *Salvia* |\n| Cultivar | Single quotes, not italic | *Salvia nemorosa* 'Caradonna' |\n| Trade name | No quotes, never replacing the cultivar | Cloudburst™ *Hydrangea* |\n\n${list}\n## Claims that need a source\n\nDo not state a hardiness zone the grower has not given.\n`
  it("a list on what the table holds goes on with it; a list on something else, or of links, starts a part", () => {
    expect(ids(review(doc("- Never use double quotes for a cultivar.\n- Write ™ exactly as the trade name's owner does.\n")))).not.toContain("SK-STRUCT-RUN-TOGETHER")
    expect(ids(review(doc("- Print bench cards on waterproof stock.\n- Keep a copy of every card in the shared drive.\n")))).toContain("SK-STRUCT-RUN-TOGETHER")
    // links to the docs of what the table names are a resources part whose heading was lost
    expect(ids(review(doc("- Cultivar names, the ICNCP: https://example.org/icncp\n- Trade name rules: https://example.org/trade-names\n")))).toContain("SK-STRUCT-RUN-TOGETHER")
  })
})

describe("SK-CLAR-VAGUE: \"sample\" names samples of text only alone or with the text it samples", () => {
  const doc = (title: string) =>
    `---\nname: pourthru\ndescription: Runs the PourThru test on container crops and reads pH and EC. Use when a grower wants substrate pH and EC checked.\n---\n\n# PourThru testing\n\n## Calibrate\n\n1. Calibrate the pH meter with pH 7 and pH 4 buffers.\n2. Check the EC meter against a 1.413 mS/cm standard.\n\n## ${title}\n\n1. Water the crop an hour before.\n2. If possible, set the container in a clean saucer on a level surface.\n3. Pour enough distilled water to collect about 50 ml.\n`
  it("\"## Collecting a sample\" of soil holds instructions; \"## Sample output\" holds samples", () => {
    expect(ids(review(doc("Collecting a sample")))).toContain("SK-CLAR-VAGUE")
    expect(ids(review(doc("Sample output")))).not.toContain("SK-CLAR-VAGUE")
  })
})
