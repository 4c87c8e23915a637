/**
 * Near misses from the seeded damage, twenty-third stop (issue 22): a body cut short, whose kept half
 * still names the parts that were lost. Each miss as the smallest text that hid the damage, next to
 * the good text the rule must leave alone.
 */
import { describe, expect, it } from "@effect/vitest"
import { reviewText as review, ruleIds as ids } from "./support.js"

const FM = "---\nname: key-rotation\ndescription: Rotates a signing key without breaking delivery. Use when a key may have leaked.\n---\n\n# Key rotation\n\n"
const dangling = (body: string) => ids(review(`${FM}${body}`)).includes("SK-STEPS-DANGLING-REF")

describe("SK-STEPS-DANGLING-REF: numbered parts named by number", () => {
  const INTRO = "| Action | When |\n|---|---|\n| Create the new key | step 2 |\n| Revoke the old key | only after the user approves, step 4 |\n\n"
  const section = (n: number, title: string) => `## ${n}. ${title}\n\nDo the ${title.toLowerCase()} and note the result in \`rotation.md\`.\n\n`

  it("bare numbered headings (\"## 1. Inventory\") number the steps a \"step N\" names: step 4 with three sections is gone", () => {
    const three = section(1, "Inventory") + section(2, "Create") + section(3, "Test")
    expect(dangling(INTRO + three)).toBe(true)
    expect(dangling(INTRO + three + section(4, "Revoke"))).toBe(false)
  })

  it("\"Phase 3\" names a phase heading when the file numbers its phases; a list item 3 elsewhere is not it", () => {
    const body = (phases: number) =>
      "Phase 3 waits until the old records have expired.\n\n" +
      [1, 2, 3].slice(0, phases).map((n) => `## Phase ${n}: Part ${n}\n\n1. Copy the zone.\n2. Compare it.\n3. Switch.\n\n`).join("")
    expect(dangling(body(2))).toBe(true)
    expect(dangling(body(3))).toBe(false)
  })

  it("a step 0 that nothing numbers is a step of something else (a type scale): its \"step 8\" names no procedure step", () => {
    const scale = "- Base (step 0) is body text, usually 16px.\n- Five steps up covers most products. If someone needs step 8, add it.\n\n"
    const body = section(1, "Gather") + `## 2. Choose a ratio\n\n${scale}` + section(3, "Generate")
    expect(dangling(body)).toBe(false)
    expect(dangling(body.replace("(step 0) ", ""))).toBe(true)
  })
})
