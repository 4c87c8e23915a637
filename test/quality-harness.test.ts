/** The seeded-defect harness itself (quality/): clean samples, deterministic damage that always changes something. */
import { describe, expect, it } from "vitest"
import { bundleReferences, DAMAGE_KINDS, type Skill, SKILL_MD, skillMd } from "../quality/Damage.js"
import { frontmatterKept, runHarness } from "../quality/Harness.js"
import { GOALS, summarizeKinds } from "../quality/Report.js"
import { loadSamples } from "../quality/Skills.js"
import { parseFrontmatter } from "../src/review/text/Frontmatter.js"

const samples = loadSamples()

const differs = (a: Skill, b: Skill): boolean =>
  a.files.length !== b.files.length || a.files.some((f, i) => f.path !== b.files[i]!.path || f.content !== b.files[i]!.content)

describe("quality samples", () => {
  it("has at least 8 samples", () => {
    expect(samples.length).toBeGreaterThanOrEqual(8)
  })

  it.each(samples.map((s) => [s.folder, s] as const))("%s is clean by construction", (folder, skill) => {
    const md = skillMd(skill)!
    const fm = parseFrontmatter(md)
    expect(fm.closed).toBe(true)
    expect(fm.issues).toEqual([])
    expect(fm.fields.find((f) => f.key === "name")?.value).toBe(folder)
    expect(fm.fields.find((f) => f.key === "description")?.value).toMatch(/\bUse when\b/)
    const lines = md.split("\n").length
    expect(lines).toBeGreaterThanOrEqual(40)
    expect(lines).toBeLessThanOrEqual(250)
    expect(md).toMatch(/^#{1,2} /m)
    expect(md).toMatch(/^\s*1[.)] /m)
    const paths = new Set(skill.files.map((f) => f.path))
    for (const ref of bundleReferences(md)) expect(paths, `${folder} references ${ref}`).toContain(ref)
  })

  it("some samples link to bundle files, and every bundle file is referenced", () => {
    const linked = samples.filter((s) => bundleReferences(skillMd(s)!).length > 0)
    expect(linked.length).toBeGreaterThanOrEqual(5)
    for (const s of samples) {
      const refs = bundleReferences(skillMd(s)!)
      for (const f of s.files) if (f.path !== SKILL_MD) expect(refs, `${s.folder}: ${f.path}`).toContain(f.path)
    }
  })
})

describe("damage kinds", () => {
  it("at least 13 kinds with unique kebab-case ids", () => {
    const ids = DAMAGE_KINDS.map((k) => k.id)
    expect(ids.length).toBeGreaterThanOrEqual(13)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  })

  it.each(DAMAGE_KINDS.map((k) => [k.id, k] as const))(
    "%s is deterministic, never a no-op, and applies to at least 3 samples",
    (_, kind) => {
      let applied = 0
      for (const skill of samples) {
        const before = JSON.stringify(skill)
        const a = kind.apply(skill)
        const b = kind.apply(skill)
        expect(JSON.stringify(skill), `${skill.folder}: the input is not modified`).toBe(before)
        expect(b).toEqual(a)
        if (a === null) continue
        applied++
        expect(a.folder).toBe(skill.folder)
        expect(skillMd(a), `${skill.folder}: SKILL.md is kept`).toBeDefined()
        expect(differs(skill, a), `${skill.folder}: the damage changes something`).toBe(true)
      }
      expect(applied).toBeGreaterThanOrEqual(3)
    }
  )
})

describe("frontmatter kept after apply", () => {
  const damaged = "---\nname: x\ndescription: Does x. Use when y.\nmetadata:\n  short-description: X\n  version: \"2\"\n---\n\n# X\n"

  it("every key keeps its value; name and description may change when the changes say so", () => {
    expect(frontmatterKept(damaged, damaged.replace("# X", "# X\n\nMore."), [])).toBeNull()
    expect(frontmatterKept(damaged, damaged.replace("  short-description: X\n", ""), [])).toMatch(/short-description/)
    const renamed = damaged.replace("name: x", "name: y")
    expect(frontmatterKept(damaged, renamed, [])).toMatch(/name/)
    expect(frontmatterKept(damaged, renamed, ["Line 2: set the name to the folder name."])).toBeNull()
  })

  it("an unclosed block must come back closed with its keys", () => {
    const unclosed = damaged.replace("---\n\n# X", "\n# X")
    expect(frontmatterKept(unclosed, unclosed, [])).toMatch(/not closed/)
    expect(frontmatterKept(unclosed, damaged, [])).toBeNull()
    expect(frontmatterKept(unclosed, damaged.replace("description: Does x. Use when y.\n", ""), [])).toMatch(/description/)
  })
})

describe("the harness's results (the table of docs/quality.md)", () => {
  const report = runHarness()
  const kinds = summarizeKinds(report)
  /**
   * The two goals the mock cannot reach, explained in docs/quality.md: a truncated skill's apply
   * cannot write the content that was cut (it invents nothing), and a lost heading in a skill made
   * only of prose and code leaves nothing but meaning to see it by. Held at their current level.
   */
  const LIMITS: Record<string, { readonly goal: "pairwise" | "rises"; readonly atLeast: number }> = {
    truncated: { goal: "rises", atLeast: 0.7 },
    "removed-headings": { goal: "pairwise", atLeast: 0.94 }
  }

  it("meets every goal for every kind of damage, but the two documented limits, which hold their level", () => {
    for (const k of kinds) {
      const limit = LIMITS[k.id]
      expect([k.id, k.pairwise >= (limit?.goal === "pairwise" ? limit.atLeast : GOALS.pairwise)]).toEqual([k.id, true])
      expect([k.id, k.rises >= (limit?.goal === "rises" ? limit.atLeast : GOALS.rises)]).toEqual([k.id, true])
      expect([k.id, k.risesWhenChanged, k.frontmatter, k.deterministic, k.errors]).toEqual([k.id, 1, 1, 1, 0])
    }
  }, 60_000)

  it("scores every clean, well-written skill at least 85", () => {
    for (const s of report.skills) expect([s.skill, (s.clean ?? 0) >= 85]).toEqual([s.skill, true])
  })

  it("never scores an apply lower than the damaged skill", () => {
    for (const v of report.variants.filter((x) => x.applied !== null)) expect([v.skill, v.kind, v.applied! >= v.damaged!]).toEqual([v.skill, v.kind, true])
  })
})
