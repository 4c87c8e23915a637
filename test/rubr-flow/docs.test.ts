/**
 * docs/rubr-flow.md stays true: its example validates cleanly, and its table lists exactly the issue
 * codes the validator can report.
 */
import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { digest } from "../../src/bundles/Detect.js"
import { analyzeSources, planBlocks } from "../../src/conversions/Analysis.js"
import { generateMock } from "../../src/conversions/mock/MockConverter.js"
import { headerOf } from "../../src/conversions/Task.js"
import type { ConversionInput, ConversionSource } from "../../src/conversions/Types.js"
import { renderFlow } from "../../src/rubr_flow/Render.js"
import { validateText } from "../../src/rubr_flow/Validator.js"
import { corpusPath } from "../support/Corpus.js"

const doc = readFileSync(new URL("../../docs/rubr-flow.md", import.meta.url), "utf8")
/** The corpus skill of the worked example, a sibling of the repository. */
const GH_FIX_CI = corpusPath("skills", "gh-fix-ci", "SKILL.md")
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

  it.skipIf(!existsSync(GH_FIX_CI))("shows the worked example exactly as the mock converts the corpus gh-fix-ci skill, and it validates", () => {
    const start = doc.indexOf("## Worked example: gh-fix-ci")
    expect(start).toBeGreaterThan(0)
    const shown = /```yaml\n([\s\S]*?)```/.exec(doc.slice(start))![1]!
    const content = readFileSync(GH_FIX_CI, "utf8")
    const sources: Array<ConversionSource> = [{
      path: "SKILL.md",
      content,
      fileVersionId: "00000000-0000-4000-8000-000000000001",
      contentHash: digest(content).contentHash,
      artifactType: "skill",
      role: "artifact"
    }]
    const input: ConversionInput = { mode: "file", sources, bundleName: "gh-fix-ci", modelTier: "cheap", reasoningEffort: "low" }
    const analysis = analyzeSources(input)
    const converted = renderFlow(generateMock(input, analysis, planBlocks(analysis)).document, { header: headerOf(sources) })
    expect(shown).toBe(converted)
    const result = validateText(shown, { sources: [{ path: "SKILL.md", content }] })
    expect(result.issues).toEqual([])
  })
})
