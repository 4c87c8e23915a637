/**
 * Near misses from the seventh round of samples in other styles (issue 22: the rules must read structure
 * and carry to skills never seen): each wrong finding the fourteen new samples drew, as the smallest
 * text that drew it, next to the real problem the rule is for, which it must still report.
 */
import { describe, expect, it } from "@effect/vitest"
import { reviewWithMock } from "../../src/review/mock/MockReviewer.js"
import type { ReviewResult } from "../../src/review/Types.js"
import { fileInput, sampleBundle, withTarget } from "./support.js"

const review = (content: string, artifactType: "skill" | "command" = "skill"): ReviewResult => {
  const { target, files } = withTarget(sampleBundle(), "SKILL.md", content)
  return reviewWithMock({ ...fileInput(target, files), artifactType })
}
const ids = (r: ReviewResult) => r.findings.map((f) => f.ruleId)

const FRONT = "---\nname: release-notes\ndescription: Drafts release notes from merged pull requests. Use when the user asks for release notes.\n---\n\n"
const TITLE = "# Release Notes\n\nTurn the merged pull requests of a release into notes users read in two minutes.\n\n"
const STEPS = "## Steps\n\n1. List the merged pull requests with `gh pr list --state merged`.\n2. Group them by label.\n3. Write one line per change.\n\n"

describe("SK-SAFE-DESTRUCTIVE: a command inside a quoted sentence is reported speech", () => {
  const doc = (item: string) => `${FRONT}${TITLE}${STEPS}## Anti-patterns\n\nLines quoted from release runbooks we reviewed:\n\n- ${item}\n- \"Maybe tag the release.\"\n`

  it("a bullet quoting a bad runbook's line is not a command the skill runs; the same command as an instruction, or alone in quotes, still is", () => {
    expect(ids(review(doc("\"Run `rm -rf /srv/notes/*` to clear the old notes.\"")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("\u201cIf that fails, `DROP TABLE release_notes;` and start again.\u201d")))).not.toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Run `rm -rf /srv/notes/*` to clear the old notes.")))).toContain("SK-SAFE-DESTRUCTIVE")
    expect(ids(review(doc("Run \"rm -rf /srv/notes\" to clear the old notes.")))).toContain("SK-SAFE-DESTRUCTIVE")
  })
})
