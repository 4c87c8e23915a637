/** The mock reviewer over the real corpus skills (../shared/corpus/skills), skipped with a message when absent. */
import { checkFrontmatterKept } from "./reviewerContract.js"
import { describe, expect, it } from "@effect/vitest"
import { reviewWithMock } from "../../src/review/mock/MockReviewer.js"
import { ReviewResult } from "../../src/review/Types.js"
import { parseFrontmatter } from "../../src/markdown/Frontmatter.js"
import { Schema } from "effect"
import { corpusAvailable, corpusSkills, fileInput, file, lineOf, loadSkill, scoreOf, withTarget } from "./support.js"

const reviewSkill = (name: string, mutate?: (s: string) => string, prefix = "") => {
  const files = loadSkill(name, prefix)
  const path = `${prefix}SKILL.md`
  const original = files.find((f) => f.path === path)!.content
  const { target, files: all } = withTarget(files, path, mutate ? mutate(original) : original)
  return { result: reviewWithMock(fileInput(target, all)), content: target.content, files: all }
}

describe.skipIf(!corpusAvailable)("mock reviewer on the corpus skills", () => {
  const skills = corpusSkills()

  it("finds all six corpus skills", () => {
    expect(skills).toEqual([
      "executing-plans",
      "gh-fix-ci",
      "internal-comms",
      "mcp-builder",
      "notion-knowledge-capture",
      "test-driven-development"
    ])
  })

  for (const name of skills) {
    describe(name, () => {
      const { result, content, files } = reviewSkill(name)
      const lines = content.split("\n")

      it("returns a schema-valid result with every criterion scored and a weighted overall score", () => {
        expect(() => Schema.decodeUnknownSync(ReviewResult)(result)).not.toThrow()
        expect(result.scores.map((s) => s.key)).toEqual(fileInput(files[0]!).rubric.criteria.map((c) => c.key))
        const w = result.scores.reduce((s, x) => s + x.weight, 0)
        expect(result.overallScore).toBe(Math.round((10 * result.scores.reduce((s, x) => s + x.weight * x.score, 0)) / w) / 10)
        for (const s of result.scores) {
          expect(s.score).toBeGreaterThanOrEqual(0)
          expect(s.score).toBeLessThanOrEqual(100)
          expect(s.rationale.length).toBeGreaterThan(0)
        }
        // real, well-maintained skills score well but not necessarily perfectly
        expect(result.overallScore).toBeGreaterThanOrEqual(80)
      })

      it("is deterministic: two runs are deep-equal and byte-identical as JSON", () => {
        const again = reviewSkill(name).result
        expect(again).toEqual(result)
        expect(JSON.stringify(again)).toBe(JSON.stringify(result))
      })

      it("points every finding at real lines of the file", () => {
        for (const f of result.findings) {
          expect(f.filePath).toBe("SKILL.md")
          expect(f.lineStart).toBeGreaterThanOrEqual(1)
          expect(f.lineEnd).toBeGreaterThanOrEqual(f.lineStart)
          expect(f.lineEnd).toBeLessThanOrEqual(lines.length)
          expect(f.suggestion.length).toBeGreaterThan(0)
        }
        expect(new Set(result.findings.map((f) => f.id)).size).toBe(result.findings.length)
      })

      it.skipIf(!result.improvedVersion)("keeps the frontmatter (but a name or description it says it set) in the improved version and never drops content lines", () => {
        const improved = result.improvedVersion!
        const raw = parseFrontmatter(content).raw
        expect(raw.length).toBeGreaterThan(0)
        // byte for byte, but a `name` set to the folder or a description given its trigger, said in `changes`
        checkFrontmatterKept(content, improved)
        expect(improved.path).toBe("SKILL.md")
        expect(improved.changes.length).toBeGreaterThan(0)
        const improvedLines = new Set(improved.content.split("\n").map((l) => l.trim()))
        const inCode = (() => {
          const flags: Array<boolean> = []
          let open = false
          for (const l of lines) {
            if (/^\s*(```|~~~)/.test(l)) {
              flags.push(true)
              open = !open
            } else flags.push(open)
          }
          return flags
        })()
        // code lines survive verbatim
        lines.forEach((l, i) => {
          if (inCode[i]) expect(improvedLines.has(l.trim())).toBe(true)
        })
      })

      it.skipIf(!result.improvedVersion)("re-reviewing the improved version scores no lower and needs no further changes", () => {
        const { result: again } = reviewSkill(name, () => result.improvedVersion!.content)
        expect(again.overallScore).toBeGreaterThanOrEqual(result.overallScore)
        expect(again.findings.length).toBeLessThan(result.findings.length)
        expect(again.improvedVersion).toBeNull()
      })

      it("produces an eval kit derived from the skill", () => {
        const cases = result.evalKit.cases
        expect(cases.length).toBeGreaterThanOrEqual(3)
        expect(cases.length).toBeLessThanOrEqual(8)
        expect(cases.map((c) => c.id)).toEqual(cases.map((_, i) => `eval-${i + 1}`))
        expect(cases.some((c) => c.type === "standard")).toBe(true)
        expect(cases.some((c) => c.type === "scenario")).toBe(true)
        const fmName = parseFrontmatter(content).fields.find((f) => f.key === "name")!.value
        expect(cases[0]!.name).toContain(fmName)
        for (const c of cases) {
          expect(c.input.length).toBeGreaterThan(10)
          expect(c.expectedBehavior.length).toBeGreaterThan(10)
          expect(c.passCriteria.length).toBeGreaterThan(10)
        }
      })

      it("echoes the mock provider and has no usage", () => {
        expect(result.usage).toBeNull()
        expect(result.provider).toEqual({ provider: "mock", model: "rubr-mock-1", modelTier: "standard", reasoningEffort: "medium" })
        expect(result.improvedFiles).toEqual([])
      })

      it("scores a copy without its description lower, with a critical finding", () => {
        const r = reviewSkill(name, (s) => s.replace(/^description:.*\n/m, "")).result
        expect(r.overallScore).toBeLessThan(result.overallScore)
        expect(r.findings.some((f) => f.criterionKey === "description" && f.severity === "critical")).toBe(true)
      })

      it("finds a dangling link added to it at the right line, and the improved version repairs it", () => {
        const existing = files.find((f) => f.path !== "SKILL.md" && f.path.endsWith(".md"))
        const mutate = (s: string) => {
          const ls = s.split("\n")
          const at = ls.findIndex((l, i) => i > 5 && l.startsWith("## "))
          const link = existing
            ? `Read [the guide](docs/${existing.path.split("/").pop()}) first.`
            : "Read [the guide](reference/does-not-exist.md) first."
          ls.splice(at, 0, link, "")
          return ls.join("\n")
        }
        const { result: r, content: c } = reviewSkill(name, mutate)
        const line = lineOf(c, "Read [the guide]")
        const f = r.findings.find((x) => x.id.startsWith("references.dangling_link") && x.lineStart === line)
        expect(f?.severity).toBe("major")
        expect(r.overallScore).toBeLessThan(result.overallScore)
        const improved = r.improvedVersion!.content
        expect(improved).not.toContain("](docs/")
        expect(improved).not.toContain("](reference/does-not-exist.md)")
        if (existing) expect(improved).toContain(`[the guide](${existing.path})`)
      })

      it("finds vague wording added to it", () => {
        const { result: r, content: c } = reviewSkill(name, (s) => s.replace(/\n## /, "\nTry to handle the various edge cases as needed, etc.\n\n## "))
        const line = lineOf(c, "Try to handle the various")
        expect(r.findings.find((f) => f.criterionKey === "clarity" && f.lineStart === line)?.severity).toBe("minor")
        expect(scoreOf(r, "clarity")).toBeLessThanOrEqual(scoreOf(result, "clarity"))
        // the hedge goes; "as needed" and "etc." are a condition and an open list, not hedges
        expect(r.improvedVersion!.content).toContain("Handle the various edge cases as needed, etc.")
      })
    })
  }

  it("gh-fix-ci: the bundled script the corpus left out is reported once, at its first mention, naming the other lines", () => {
    const { result, content } = reviewSkill("gh-fix-ci")
    const expected = content
      .split("\n")
      .map((l, i) => (l.includes("scripts/inspect_pr_checks.py") ? i + 1 : 0))
      .filter((n) => n > 0)
    const found = result.findings.filter((f) => f.id.startsWith("references.dangling_path"))
    expect(found.map((f) => f.lineStart)).toEqual([expected[0]])
    expect(found[0]!.message).toContain(`also on lines ${expected.slice(1).join(", ")}`)
    expect(scoreOf(result, "references")).toBe(80)
  })

  it("executing-plans: paths outside the skill folder are not reported", () => {
    const { result } = reviewSkill("executing-plans")
    expect(result.findings.filter((f) => f.criterionKey === "references")).toEqual([])
  })

  it("notion-knowledge-capture: bare file names and reference/*-database.md globs resolve", () => {
    const { result } = reviewSkill("notion-knowledge-capture")
    expect(result.findings.filter((f) => f.criterionKey === "references")).toEqual([])
    expect(scoreOf(result, "references")).toBe(100)
  })

  it("internal-comms: the improved version adds a title heading, and the first-person description is flagged", () => {
    const { result } = reviewSkill("internal-comms")
    expect(result.findings.find((f) => f.id.startsWith("description.first_person"))?.lineStart).toBe(3)
    expect(result.improvedVersion!.content).toContain("\n# Internal Comms\n")
  })

  it("mcp-builder: markdown links into reference/ resolve; several '# ' headings are flagged", () => {
    const { result } = reviewSkill("mcp-builder")
    expect(result.findings.filter((f) => f.id.startsWith("references.dangling"))).toEqual([])
    expect(result.findings.some((f) => f.id.startsWith("structure.multiple_titles"))).toBe(true)
  })

  it("resolves paths relative to the skill's folder when the skill is nested in the bundle", () => {
    const nested = reviewSkill("notion-knowledge-capture", undefined, "skills/notion/").result
    expect(nested.findings.filter((f) => f.criterionKey === "references")).toEqual([])
    const flat = reviewSkill("notion-knowledge-capture").result
    // only the name check differs: the folder is "notion", the name "notion-knowledge-capture"
    expect(nested.findings.find((f) => f.id.startsWith("name.folder_mismatch"))?.filePath).toBe("skills/notion/SKILL.md")
    for (const s of flat.scores) if (s.key !== "name") expect(scoreOf(nested, s.key)).toBe(s.score)
  })

  it("file mode reviews only the target even when other bundle files have problems", () => {
    const files = loadSkill("internal-comms")
    const broken = [...files, file("examples/broken.md", "# Broken\n\nSee [x](nope/missing.md).\n")]
    const r = reviewWithMock(fileInput(files.find((f) => f.path === "SKILL.md")!, broken))
    expect(r.findings.every((f) => f.filePath === "SKILL.md")).toBe(true)
  })
})
