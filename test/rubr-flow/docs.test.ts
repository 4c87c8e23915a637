/**
 * docs/rubr-flow.md stays true: its example validates cleanly, and its table lists exactly the issue
 * codes the validator can report.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { renderFlow } from "../../src/rubr_flow/Render.js"
import { validateText } from "../../src/rubr_flow/Validator.js"

const doc = readFileSync(new URL("../../docs/rubr-flow.md", import.meta.url), "utf8")
const source = ["Validator.ts", "Parse.ts"]
  .map((f) => readFileSync(new URL(`../../src/rubr_flow/${f}`, import.meta.url), "utf8"))
  .join("\n")

describe("docs/rubr-flow.md", () => {
  it("has an example that validates with no issue and renders back to the same flow", () => {
    const start = doc.indexOf("## A complete example")
    const block = /```yaml\n([\s\S]*?)```/.exec(doc.slice(start))
    expect(block).not.toBeNull()
    const r = validateText(block![1])
    expect(r.issues).toEqual([])
    expect(validateText(renderFlow(r.flow as unknown as Record<string, unknown>)).flow).toEqual(r.flow)
  })

  it("documents every issue code the validator reports, and no other", () => {
    const emitted = new Set<string>()
    for (const m of source.matchAll(/(?:\berror|\bwarning)\(\s*"([a-z_]+)"|code: "([a-z_]+)"/g)) emitted.add(m[1] ?? m[2])
    const table = doc.slice(doc.indexOf("### Issue codes"))
    const documented = new Set([...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]))
    expect(emitted.size).toBeGreaterThan(30)
    expect([...documented].sort()).toEqual([...emitted].sort())
  })

  it("keeps the worked example section for the conversion work", () => {
    expect(doc).toContain("## Worked example: gh-fix-ci")
  })
})
