/** Seeded defects on a clean skill: each defect must produce a finding at the right line, a lower score, and (where safe) a fix. */
import { describe, expect, it } from "@effect/vitest"
import { reviewWithMock } from "../../src/review/mock/MockReviewer.js"
import { parseFrontmatter } from "../../src/markdown/Frontmatter.js"
import { fileInput, file, lineOf, SAMPLE_SKILL, sampleBundle, scoreOf, withTarget } from "./support.js"

const review = (content: string, extra: Array<ReturnType<typeof file>> = []) => {
  const { target, files } = withTarget([...sampleBundle(), ...extra], "SKILL.md", content)
  return reviewWithMock(fileInput(target, files))
}
const base = review(SAMPLE_SKILL)

describe("seeded defects", () => {
  it("the clean sample scores 100 with no findings above info", () => {
    expect(base.overallScore).toBe(100)
    expect(base.findings.filter((f) => f.severity !== "info")).toEqual([])
    expect(base.improvedVersion).toBeNull()
  })

  it("a removed description is a critical finding, scores lower, and the improved version adds one", () => {
    const content = SAMPLE_SKILL.replace(/^description: .*\n/m, "")
    const r = review(content)
    const f = r.findings.find((x) => x.criterionKey === "description" && x.severity === "critical")
    expect(f).toBeDefined()
    expect(scoreOf(r, "description")).toBe(0)
    expect(r.overallScore).toBeLessThan(base.overallScore - 10)
    const improved = r.improvedVersion!.content
    const fm = parseFrontmatter(improved)
    expect(fm.fields.find((x) => x.key === "description")!.value).toMatch(/Use when/)
    // the original frontmatter lines are all still there, in order, unchanged
    const origFm = parseFrontmatter(content).raw.split("\n").filter((l) => l !== "---" && l !== "")
    const newFm = fm.raw.split("\n")
    let j = 0
    for (const l of newFm) if (l === origFm[j]) j++
    expect(j).toBe(origFm.length)
    expect(r.improvedVersion!.changes.some((c) => /description/.test(c))).toBe(true)
  })

  it("a description without a trigger is flagged, the improved description gets a 'Use when' clause, and a second pass adds nothing", () => {
    const content = SAMPLE_SKILL
      .replace(/^description: .*$/m, "description: Drafts release notes from merged pull requests and the changelog for a version.")
      .replace(/## When to use\n\nUse this skill when a user asks what changed in a version or wants release notes drafted.\n\n/, "")
    const r = review(content)
    const f = r.findings.find((x) => x.ruleId === "SK-DESC-NO-TRIGGER")
    expect(f?.lineStart).toBe(3)
    const improved = r.improvedVersion!.content
    const description = parseFrontmatter(improved).fields.find((x) => x.key === "description")!.value
    expect(description).toBe("Drafts release notes from merged pull requests and the changelog for a version. Use when a request involves release notes.")
    expect(r.improvedVersion!.changes).toEqual([expect.stringMatching(/^Line 3: appended a "Use when" clause to the description/)])
    // every other frontmatter line is kept
    expect(improved.split("\n").filter((_, i) => i !== 2).slice(0, 6)).toEqual(content.split("\n").filter((_, i) => i !== 2).slice(0, 6))
    const again = reviewWithMock(fileInput({ ...file("SKILL.md", improved, true) }, sampleBundle(improved)))
    expect(again.findings.some((x) => x.ruleId === "SK-DESC-NO-TRIGGER")).toBe(false)
    expect(again.overallScore).toBeGreaterThan(r.overallScore)
    expect(again.improvedVersion).toBeNull()
  })

  it("a trigger-less description over several lines keeps its lines, and a 'When to use' section is added instead", () => {
    const content = SAMPLE_SKILL
      .replace(/^description: .*$/m, "description: >-\n  Drafts release notes from merged pull requests\n  and the changelog for a version.")
      .replace(/## When to use\n\nUse this skill when a user asks what changed in a version or wants release notes drafted.\n\n/, "")
    const r = review(content)
    expect(r.findings.some((x) => x.ruleId === "SK-DESC-NO-TRIGGER")).toBe(true)
    const improved = r.improvedVersion!.content
    expect(improved.startsWith(parseFrontmatter(content).raw)).toBe(true)
    expect(improved).toContain("## When to use\n\nUse this skill when a request involves release notes.")
    const again = reviewWithMock(fileInput({ ...file("SKILL.md", improved, true) }, sampleBundle(improved)))
    expect(again.improvedVersion === null || !again.improvedVersion.changes.some((c) => /When to use/.test(c))).toBe(true)
  })

  it("a dangling link is reported at its line and repointed to the file with the same name", () => {
    const content = SAMPLE_SKILL.replace("(reference/checklist.md)", "(references/checklist.md)")
    const r = review(content)
    const line = lineOf(content, "references/checklist.md")
    const f = r.findings.find((x) => x.id.startsWith("references.dangling_link"))
    expect(f).toMatchObject({ severity: "major", filePath: "SKILL.md", lineStart: line, lineEnd: line })
    expect(f!.suggestion).toContain("reference/checklist.md")
    expect(scoreOf(r, "references")).toBeLessThan(100)
    const improved = r.improvedVersion!.content
    expect(improved).toContain("[the checklist](reference/checklist.md)")
    expect(improved).not.toContain("references/checklist.md")
    const again = reviewWithMock(fileInput(file("SKILL.md", improved, true), sampleBundle(improved)))
    expect(again.findings.filter((x) => x.criterionKey === "references")).toEqual([])
  })

  it("a link to a file that does not exist anywhere is marked as missing, not silently kept", () => {
    const content = SAMPLE_SKILL.replace(
      "## Rules",
      "For edge cases read [the migration guide](reference/migrations-2019.md).\n\n## Rules"
    )
    const r = review(content)
    const line = lineOf(content, "migrations-2019.md")
    expect(r.findings.find((x) => x.id.startsWith("references.dangling_link"))?.lineStart).toBe(line)
    const improved = r.improvedVersion!.content
    expect(improved).not.toContain("](reference/migrations-2019.md)")
    expect(improved).toContain("the migration guide (not included in this bundle: `reference/migrations-2019.md`)")
    const again = reviewWithMock(fileInput(file("SKILL.md", improved, true), sampleBundle(improved)))
    expect(again.findings.filter((x) => x.id.startsWith("references.dangling"))).toEqual([])
  })

  it("a typo in a bare path is found and fixed to the near-identical file", () => {
    const content = SAMPLE_SKILL.replace("`examples/v2.md`", "`examples/v22.md`")
    const r = review(content)
    const line = lineOf(content, "examples/v22.md")
    expect(r.findings.find((x) => x.id.startsWith("references.dangling_path"))?.lineStart).toBe(line)
    expect(r.improvedVersion!.content).toContain("See `examples/v2.md` for a complete release.")
  })

  it("links inside code blocks, URLs, anchors and home or absolute paths are not bundle references", () => {
    const content = SAMPLE_SKILL.replace(
      "## Rules",
      [
        "```bash",
        "cat reference/not-here.md scripts/missing.py",
        "```",
        "",
        "See [the docs](https://example.com/guide.md), [below](#rules), `~/.config/gh/hosts.yml`, `/etc/hosts.conf`,",
        "`@modelcontextprotocol/inspector`, github.com/org/repo/file.md and CI/CD pipelines.",
        "",
        "## Rules"
      ].join("\n")
    )
    const r = review(content)
    expect(r.findings.filter((x) => x.criterionKey === "references")).toEqual([])
  })

  it("paths into the user's project and repository-rooted paths to the skill's own files are not dangling", () => {
    const content = SAMPLE_SKILL.replace(
      "## Rules",
      [
        "Save the spec to `docs/specs/YYYY-MM-DD-<topic>-design.md`; check `docs/conf.py` and `src/index.ts` first,",
        "and read `skills/release-notes/reference/style.md` before drafting (from the repository root).",
        "",
        "## Rules"
      ].join("\n")
    )
    const r = review(content)
    expect(r.findings.filter((x) => x.criterionKey === "references")).toEqual([])
  })

  it("a repository-rooted path through the skill's own folder to a missing script is dangling; a quoted TODO is not a placeholder", () => {
    const content = SAMPLE_SKILL.replace(
      "## Rules",
      "Run `node skills/.curated/release-notes/scripts/collect.js` first. Scan the draft for \"TODO\" markers.\n\n## Rules"
    )
    const r = review(content)
    expect(r.findings.find((x) => x.id.startsWith("references.dangling_path"))?.lineStart).toBe(lineOf(content, "collect.js"))
    expect(r.findings.some((x) => x.id.startsWith("clarity.placeholder"))).toBe(false)
  })

  it("a missing file in a conventional bundle folder is dangling even as a bare path", () => {
    const content = SAMPLE_SKILL.replace("## Rules", "Run `python scripts/build_notes.py --since v2.2` to collect the changes.\n\n## Rules")
    const r = review(content)
    expect(r.findings.find((x) => x.id.startsWith("references.dangling_path"))?.lineStart).toBe(lineOf(content, "build_notes.py"))
  })

  it("added vague wording is found on its line and tightened in the improved version", () => {
    const content = SAMPLE_SKILL.replace(
      "3. Group the pull requests by label into Features, Fixes and Internal.",
      "3. Try to group the pull requests as needed into various sections, etc."
    )
    const r = review(content)
    const line = lineOf(content, "Try to group")
    const f = r.findings.find((x) => x.criterionKey === "clarity" && x.lineStart === line)
    expect(f?.severity).toBe("minor")
    // the hedge is the finding; "as needed" (a condition), "various" and "etc." (an open list) are not hedges
    expect(f!.message).toMatch(/try to/)
    expect(f!.message).not.toMatch(/as needed|various|etc/)
    expect(scoreOf(r, "clarity")).toBeLessThan(100)
    const improvedLine = r.improvedVersion!.content.split("\n")[line - 1]
    // "as needed" is a condition: kept, so the action does not become mandatory
    expect(improvedLine).toBe("3. Group the pull requests as needed into various sections, etc.")
  })

  it("a removed step leaves a numbering gap that is reported and renumbered", () => {
    const content = SAMPLE_SKILL.replace(/^3\. Group .*\n/m, "")
    const r = review(content)
    const line = lineOf(content, "4. Write one line")
    const f = r.findings.find((x) => x.id.startsWith("steps.numbering_gap"))
    expect(f?.lineStart).toBe(line)
    expect(f!.message).toMatch(/from 2 to 4/)
    expect(scoreOf(r, "steps")).toBeLessThan(100)
    const improved = r.improvedVersion!.content
    expect(improved).toContain("3. Write one line per user-visible change")
    expect(improved).toContain("4. Check the draft")
  })

  it("removing every step is a major steps finding", () => {
    const content = SAMPLE_SKILL.replace(/^\d\. .*\n/gm, "")
    const r = review(content)
    expect(r.findings.find((x) => x.id.startsWith("steps.missing"))?.severity).toBe("major")
    expect(scoreOf(r, "steps")).toBeLessThanOrEqual(60)
  })

  it("missing frontmatter is critical and the improved version adds a block with name and description", () => {
    const body = SAMPLE_SKILL.slice(parseFrontmatter(SAMPLE_SKILL).raw.length)
    const r = review(body)
    expect(r.findings.find((x) => x.id.startsWith("frontmatter.missing"))).toMatchObject({ severity: "critical", lineStart: 1 })
    expect(scoreOf(r, "name")).toBe(0)
    const fm = parseFrontmatter(r.improvedVersion!.content)
    expect(fm.closed).toBe(true)
    expect(fm.fields.map((f) => f.key)).toEqual(["name", "description"])
    expect(fm.fields[0]!.value).toBe("release-notes")
    expect(r.improvedVersion!.content.endsWith(body)).toBe(true)
  })

  it("a badly formatted name is flagged on its line with the kebab-case fix", () => {
    const r = review(SAMPLE_SKILL.replace("name: release-notes", "name: Release_Notes"))
    const f = r.findings.find((x) => x.id.startsWith("name.format"))
    expect(f).toMatchObject({ lineStart: 2, severity: "major" })
    expect(f!.suggestion).toContain("release-notes")
  })

  it("an unclosed code fence, a TODO and a skipped heading level are found at their lines", () => {
    const content = SAMPLE_SKILL
      .replace("## Rules", "#### Rules")
      .replace("Turn the merged", "TODO: explain the audience. Turn the merged")
      .replace(/- Export audits as CSV \(#412\)\n```\n/, "- Export audits as CSV (#412)\n")
    const r = review(content)
    expect(r.findings.find((x) => x.id.startsWith("clarity.placeholder"))?.lineStart).toBe(lineOf(content, "TODO"))
    expect(r.findings.find((x) => x.id.startsWith("structure.unclosed_fence"))?.lineStart).toBe(lineOf(content, "```markdown"))
    // closed at the end of the text it swallowed (a bundle file list may follow)
    expect(r.improvedVersion!.changes).toContain(`Line ${lineOf(content, "```markdown")}: closed the code block left open at the end of the file.`)
    expect(r.improvedVersion!.content.split("\n").filter((l) => l.startsWith("```")).length % 2).toBe(0)
  })

  it("trailing whitespace and a missing final newline are fixed outside the frontmatter only", () => {
    const content = SAMPLE_SKILL.replace("Use this skill when a user", "Use this skill when a user   ").replace(/\n$/, "")
      .replace("license: MIT", "license: MIT  ")
    const r = review(content)
    expect(r.findings.some((x) => x.id.startsWith("formatting.no_final_newline"))).toBe(true)
    const improved = r.improvedVersion!.content
    expect(improved.endsWith("\n")).toBe(true)
    expect(improved).toContain("license: MIT  \n")
    expect(improved.startsWith(parseFrontmatter(content).raw)).toBe(true)
  })

  it("every defect lowers the overall score", () => {
    const variants = [
      SAMPLE_SKILL.replace(/^description: .*\n/m, ""),
      SAMPLE_SKILL.replace("(reference/checklist.md)", "(reference/missing.md)"),
      SAMPLE_SKILL.replace("Group the pull requests", "Try to group some of the pull requests as needed, etc."),
      SAMPLE_SKILL.replace(/^3\. Group .*\n/m, ""),
      SAMPLE_SKILL.replace(/```markdown[\s\S]*?```\n/, "").replace("See `examples/v2.md` for a complete release.", "")
        .replace("## Examples", "## Notes")
    ]
    for (const v of variants) expect(review(v).overallScore).toBeLessThan(base.overallScore)
  })
})

describe("anchors and multi-line fields", () => {
  it("flags links to heading anchors that do not exist, in the file and in linked files", () => {
    const content = SAMPLE_SKILL.replace(
      "## Rules",
      "Jump to [the rules](#rules), [the steps](#step-list) or [the tone](reference/style.md#voice); [style](reference/style.md#style) is fine.\n\n## Rules"
    )
    const r = review(content)
    const line = lineOf(content, "Jump to [the rules]")
    const anchors = r.findings.filter((x) => x.id.startsWith("references.missing_anchor"))
    expect(anchors.map((x) => [x.lineStart, x.message.match(/`([^`]+)`/)![1]])).toEqual([[line, "#step-list"], [line, "reference/style.md#voice"]])
  })

  it("a finding on a folded description covers all its lines", () => {
    const content = SAMPLE_SKILL.replace(/^description: .*$/m, "description: >\n  Drafts release notes from merged pull requests\n  for the team.")
    const r = review(content)
    expect(r.findings.find((x) => x.id.startsWith("description.no_trigger"))).toMatchObject({ lineStart: 3, lineEnd: 5 })
  })
})

describe("steps written as bullets", () => {
  it("imperative bullets without numbers are a note in a skill (issue 22: bullets are as often inputs, checks or rules), far milder than no instructions at all", () => {
    const bullets = SAMPLE_SKILL.replace(/^(\d)\. /gm, "- ")
    const none = SAMPLE_SKILL.replace(/^\d\. .*\n/gm, "")
    const rb = review(bullets)
    const rn = review(none)
    expect(rb.findings.find((x) => x.id.startsWith("steps.unordered"))).toMatchObject({ severity: "info", lineStart: lineOf(bullets, "- Read `reference/style.md`") })
    expect(scoreOf(rb, "steps")).toBe(100)
    expect(scoreOf(rn, "steps")).toBeLessThan(scoreOf(rb, "steps"))
  })
})

describe("structural improvements", () => {
  it("a second '# ' section is demoted with its subsections, and skipped levels are closed", () => {
    const content = SAMPLE_SKILL.replace("## Rules", "# Appendix\n\nNotes for maintainers.\n\n#### Rules")
    const r = review(content)
    expect(r.findings.some((x) => x.id.startsWith("structure.multiple_titles"))).toBe(true)
    const headings = r.improvedVersion!.content.split("\n").filter((l) => l.startsWith("#"))
    // "## v2.3.0" and "### Features" are inside a code block and stay as they are
    expect(headings).toEqual(["# Release Notes", "## When to use", "## Steps", "## Examples", "## v2.3.0", "### Features", "## Appendix", "### Rules", "### Verification"])
    const again = review(r.improvedVersion!.content)
    expect(again.findings.filter((x) => x.criterionKey === "structure")).toEqual([])
  })

  it("bare code fences are noted, cost nothing, and get a language tag in a bundle review: bash for commands, json when it parses, text otherwise", () => {
    const content = SAMPLE_SKILL.replace(
      "## Rules",
      "```\nnpm run release -- --dry-run\n```\n\n```\nFeatures, then Fixes.\n```\n\n```\n{\"version\": \"2.3.0\"}\n```\n\n## Rules"
    )
    const r = review(content)
    const notes = r.findings.filter((x) => x.id.startsWith("examples.no_language"))
    expect(notes.map((x) => x.severity)).toEqual(["info", "info", "info"])
    expect(scoreOf(r, "examples")).toBe(scoreOf(review(SAMPLE_SKILL), "examples"))
    // a file's apply repairs what costs: a note alone changes nothing there
    expect(r.improvedVersion?.content ?? content).toContain("```\nnpm run release")
    const bundle = reviewWithMock({ ...fileInput(file("SKILL.md", content, true), sampleBundle(content)), mode: "bundle", target: null })
    const improved = bundle.improvedFiles.find((f) => f.path === "SKILL.md")!.content
    expect(improved).toContain("```bash\nnpm run release")
    expect(improved).toContain("```json\n{\"version\"")
    expect(improved).toContain("```text\nFeatures, then Fixes.")
  })
})

describe("examples the apply writes", () => {
  const GUIDE = [
    "# Writing tests",
    "",
    "```bash",
    "pip install pytest",
    "pytest -q",
    "```",
    "",
    "A test names the behaviour it checks:",
    "",
    "```python",
    "def test_rejects_an_empty_email():",
    "    with pytest.raises(ValueError):",
    "        parse_email(\"\")",
    "```",
    ""
  ].join("\n")
  const SKILL = [
    "---",
    "name: writing-python-tests",
    "description: Writes pytest unit tests for Python functions before the code. Use when the user adds a feature or fixes a bug in Python code.",
    "---",
    "",
    "# Writing Python Tests",
    "",
    "Every change to Python code starts with a failing unit test.",
    "",
    "## Steps",
    "",
    "1. Write one failing test for the behaviour you are adding, named after that behaviour.",
    "2. Run the tests and watch the new one fail for the reason you expect.",
    "3. Write the minimal code that makes the test pass.",
    "4. Run the whole suite again and keep it green.",
    "",
    "Read [the guide](guide.md) for the conventions of a good test.",
    "",
    "## Rules",
    "",
    "- Never write production code before a failing test exists.",
    "- Do not mock the function under test.",
    ""
  ].join("\n")
  const run = (content: string) => reviewWithMock(fileInput(file("SKILL.md", content, true), [file("SKILL.md", content, true), file("guide.md", GUIDE)]))

  it("a skill that teaches code with no example gets the first code sample of a file it links, not the file's setup block", () => {
    const r = run(SKILL)
    // the code is one hop away, in the file it links: minor, not missing (issue 22, thirteenth round)
    expect(r.findings.find((f) => f.ruleId === "SK-EX-MISSING")?.severity).toBe("minor")
    const improved = r.improvedVersion!.content
    expect(improved).toContain("From `guide.md`:\n\n```python\ndef test_rejects_an_empty_email():")
    expect(improved).not.toContain("pip install pytest")
    expect(r.improvedVersion!.changes).toContainEqual(expect.stringMatching(/added an example: the first code sample of guide\.md, shown inline/))
    const again = run(improved)
    expect(again.findings.some((f) => f.ruleId.startsWith("SK-EX-"))).toBe(false)
    expect(again.overallScore).toBeGreaterThan(r.overallScore)
  })
})

describe("a skill whose product is a document", () => {
  const skill = (description: string, produce: string) => [
    "---",
    "name: reading-profiler",
    `description: ${description}`,
    "---",
    "",
    "# Reading Profiler",
    "",
    "Reads a text closely and scores how its author argues.",
    "",
    "## How to profile",
    "",
    "### Phase 1 — Evidence",
    "",
    "Collect the passages that show how the author reasons, and note where each one is.",
    "",
    "### Phase 2 — Scoring",
    "",
    "Score each of the six dimensions from 1 to 10, and cite the strongest passage for each score.",
    "",
    "## Several authors",
    "",
    `When the user gives texts by several authors, ${produce} for each author, then compare them.`,
    ""
  ].join("\n")
  const run = (content: string) => reviewWithMock(fileInput(file("SKILL.md", content, true), [file("SKILL.md", content, true)]))
  const finding = (content: string) => run(content).findings.find((f) => f.ruleId === "SK-EX-MISSING")

  it("with no sample of it anywhere is a minor finding when the body has the agent produce what the skill is named for", () => {
    const f = finding(skill("Scores how the author of a text argues, as a reasoning profile. Use when the user asks how someone thinks.", "produce individual profiles"))
    expect(f?.severity).toBe("minor")
    expect(f?.message).toMatch(/^No example of what it produces/)
  })

  it("a document made on the way, which the skill is not about, needs no sample", () => {
    expect(finding(skill("Scores how the author of a text argues. Use when the user asks how someone thinks.", "write a short summary"))?.severity).toBe("info")
  })
})
