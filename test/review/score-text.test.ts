/**
 * A score for people is shown as scored, at every door: a criterion at 92.5 that lost 7.5 reads
 * "92.5", not "93", beside its reason (issue 22, forty-third stop: costs in tenths).
 */
import { describe, expect, it } from "@effect/vitest"
import { scoreText } from "../../src/review/Score.js"
import { render } from "../../src/mcp/Render.js"

describe("scores for people", () => {
  it("a whole score as it is, a fractional one to its tenth", () => {
    expect(scoreText(100)).toBe("100")
    expect(scoreText(92.5)).toBe("92.5")
    expect(scoreText(96.4)).toBe("96.4")
    expect(scoreText(0)).toBe("0")
  })
  it("the MCP reading of a finished audit job shows each criterion as scored, in one column", () => {
    const text = render.job({
      job: { id: "job_1", kind: "audit", state: "completed", phase: "completed", percent: 100 },
      run: { status: "completed", overallScore: 99.2, rubricKey: "skill", rubricVersion: "2026-11-29.2", scores: [{ label: "Structure and headings", score: 92.5 }, { label: "Name", score: 100 }], findings: [] }
    })
    expect(text).toContain(" 92.5  Structure and headings\n")
    expect(text).toContain("  100  Name")
  })
})
