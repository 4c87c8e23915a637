/** The seeded-defect harness itself (quality/): clean samples, deterministic damage that always changes something. */
import { describe, expect, it } from "vitest"
import { bundleReferences, DAMAGE_KINDS, type Skill, SKILL_MD, skillMd } from "../quality/Damage.js"
import { frontmatterKept, reviewInput, runHarness } from "../quality/Harness.js"
import { fingerprints, loadLabels } from "../quality/Labels.js"
import { PRECISION_GOALS, precisionOf, summarizePrecision } from "../quality/Precision.js"
import { allGoalsMet, GOALS, renderMarkdown, summarizeKinds } from "../quality/Report.js"
import { loadAllSkills, loadCheckedIn, loadSamples } from "../quality/Skills.js"
import { reviewWithMock } from "../src/review/mock/MockReviewer.js"
import { parseFrontmatter } from "../src/markdown/Frontmatter.js"

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
    expect(fm.fields.find((f) => f.key === "description")?.value).toMatch(/\bUse (?:it )?(?:when(?:ever)?|while|during|if|at|for|before|after)\b/)
    const lines = md.split("\n").length
    expect(lines).toBeGreaterThanOrEqual(15)
    expect(lines).toBeLessThanOrEqual(500)
    // a heading, or sections written as XML tags (soap-progress-notes)
    expect(/^#{1,2} /m.test(md) || /^<[a-z_]+>\s*$/m.test(md)).toBe(true)
    const paths = new Set(skill.files.map((f) => f.path))
    for (const ref of bundleReferences(md)) expect(paths, `${folder} references ${ref}`).toContain(ref)
  })

  it("samples are 40 to 250 lines long, but for a few very short skills and one very long one", () => {
    const lengths = samples.map((s) => skillMd(s)!.split("\n").length)
    // 7%: authors writing blind (issue 22, ninth round on) wrote more very short and very long skills
    expect(lengths.filter((n) => n < 40 || n > 250).length).toBeLessThanOrEqual(Math.max(2, Math.ceil(samples.length * 0.07)))
    expect(lengths.some((n) => n < 30)).toBe(true)
    expect(lengths.some((n) => n > 400)).toBe(true)
  })

  it("most samples have a numbered list; some are references or have their steps as headings", () => {
    const numbered = samples.filter((s) => /^\s*1[.)] /m.test(skillMd(s)!))
    expect(numbered.length).toBeGreaterThanOrEqual(8)
    expect(numbered.length).toBeLessThan(samples.length)
  })

  it("some samples link to bundle files, and every bundle file is referenced", () => {
    const linked = samples.filter((s) => bundleReferences(skillMd(s)!).length > 0)
    expect(linked.length).toBeGreaterThanOrEqual(5)
    for (const s of samples) {
      // a script may be named only in the command block that runs it (`python3 scripts/redact.py app.log`)
      const named = (p: string) => new RegExp(`(?:^|[\\s(\`'"=:]|\\./)${p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=[\\s)\`'".,;:]|$)`, "m").test(skillMd(s)!)
      const refs = [...bundleReferences(skillMd(s)!), ...s.files.map((f) => f.path).filter(named)]
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

describe("the goals hold in every source, not only pooled", () => {
  const variant = (skill: string, source: string, pairwise: boolean) => ({
    skill, source, kind: "no-headings", severity: "minor" as const, clean: 100, damaged: pairwise ? 90 : 100, applied: pairwise ? 100 : null,
    pairwise, applyMade: pairwise, rises: pairwise, frontmatterPreserved: true, frontmatterProblem: null, deterministic: true, changes: [], error: null
  })
  const report = (misses: number) => {
    const skills = Array.from({ length: 40 }, (_, i) => ({ skill: `s${i}`, source: i < 20 ? "sample" : "skills", clean: 100, error: null, findings: [], infoNotes: 0 }))
    // 2 of the 20 "skills" variants missed: 90% in that source, 95% pooled
    const variants = skills.map((s, i) => variant(s.skill, s.source, !(s.source === "skills" && i - 20 < misses)))
    return { kinds: DAMAGE_KINDS.filter((k) => k.id === "no-headings"), skills, variants, notApplicable: [] }
  }
  it("a kind that meets its goals pooled but misses them in one source is not met, and the report says where", () => {
    expect(summarizeKinds(report(2))[0]!.missed).toEqual([])
    expect(allGoalsMet(report(2))).toBe(false)
    expect(renderMarkdown(report(2))).toContain("| `no-headings` | 100% / 100% (20) | 90% / 90% (20) ✗ pairwise |")
    expect(allGoalsMet(report(1))).toBe(true)
    expect(renderMarkdown(report(1))).toContain("Every kind meets every goal in each source on its own (sample, skills).")
  })
})

describe("the harness's results on the checked-in skills (samples and fixtures: what CI always has)", () => {
  const report = runHarness(loadCheckedIn())
  const kinds = summarizeKinds(report)
  /**
   * The kinds the mock cannot bring to the goal without wrong findings on good skills, explained in
   * docs/quality.md: a truncated skill often still reads as complete (its cut sections were ones its
   * kind does not need), an example removed from a skill that keeps inline samples leaves nothing a
   * rule may call missing (that kind left the list at the forty-first stop: coverage, below, sees it
   * without a finding).
   * A heading removed between two parts that each open with a paragraph leaves nothing a rule may
   * call lost without being wrong on good skills (a procedure right after a paragraph, under a heading
   * that names nothing of it, is the one sign read).
   * Held at their current level on these skills; every other kind meets every goal. The levels are
   * those of the 57 samples and 6 fixtures: the 14 samples in other layouts (issue 22, fourth round)
   * brought them down from 0.58/0.47, 0.87/0.87 and 1/1, the 16 of the fifth round from 0.65/0.37,
   * 0.82/0.75 and 0.86/0.86, the 16 of the sixth round from 0.65/0.32, 0.82/0.72 and 0.77/0.75
   * (truncated, missing-examples, removed-headings; measured 0.667/0.316, 0.830/0.698 and 0.721/0.705),
   * and the 16 of the seventh round from 0.82/0.69 and 0.72/0.70 (missing-examples, removed-headings;
   * measured 0.657/0.314, 0.800/0.677 and 0.675/0.649), and the 16 of the eighth round from 0.67 and
   * 0.67/0.64 (missing-examples' rises, removed-headings; measured 0.674/0.326, 0.823/0.646 and
   * 0.645/0.634), and the 20 of the ninth round, written blind, from 0.65, 0.64 and 0.64/0.63
   * (truncated, missing-examples' rises, removed-headings; measured 0.648/0.371, 0.814/0.639 and
   * 0.652/0.625), and the 20 of the tenth, written blind too, from 0.64 and 0.79/0.63 (truncated,
   * missing-examples; measured 0.623/0.369, 0.776/0.629 and 0.687/0.649). No variant of an earlier
   * skill was seen less each time, but one in the ninth: the truncated tls-certificate-renewal, seen
   * before only as a short body with no sections, which a body of 40 lines or fewer no longer draws.
   * The 50 of the eleventh to thirteenth rounds, written blind, brought truncated from 0.62 to 0.57
   * (measured 0.572/0.367, 0.772/0.623 and 0.688/0.665): truncated skills of 40 to 80 lines with no
   * sections left, and guidance that lost its steps, read as the short, sectionless or step-free skills
   * good authors write, which no longer draw a finding (docs/quality.md, eleventh to thirteenth rounds).
   * The 20 of the fourteenth round brought truncated to 0.55 and missing-examples to 0.75/0.61
   * (measured 0.555/0.370, 0.753/0.613 and 0.678/0.649). The fixes of the fifteenth to seventeenth
   * rounds cost missing-examples 0.006 on those skills (0.747/0.608: steps that write their commands
   * out in full, and Good/Bad pairs with code inline, show examples), and their 59 skills, written
   * blind, bring it to 0.73 (measured 0.567/0.381, 0.740/0.630 and 0.677/0.646). The fixes of the
   * twentieth to twenty-second rounds (kept out of the repository) take truncated to 0.560: a cut cheat
   * sheet is a reference now, which draws no missing steps (measured 0.560/0.381, 0.740/0.634 and
   * 0.677/0.646). The twenty-third stop's readings (step references against bare numbered headings;
   * a section after a numbered run read among the closing sections) measure 0.575/0.381, 0.736/0.634
   * and 0.677/0.650: a cut skill that still names its lost steps is seen, and one routed-away missing
   * example lost a finding drawn for a wrong reason. The twenty-sixth to twenty-eighth rounds' readings
   * leave all three where they were.
   * The forty-first stop's coverage (rubric 2026-11-28: a criterion short of a worked example, a check,
   * a failure case, a rule or a section gathering the rules or checks scores a few points lower, with
   * no finding) brought missing-examples to every goal (measured 0.988/0.951) and truncated and
   * removed-headings to 0.917/0.591 and 0.760/0.696. The forty-second's (rubric 2026-11-29: more than
   * 15 lines of text a section is short of structure, and the apply splits a long section where a part
   * opens) 0.925/0.607 and 0.837/0.734; with a document that ends inside its numbered procedure, and
   * "Step N" read against the file's Step headings, truncated 0.944/0.607 (95.2% over every corpus).
   * The forty-third's (rubric 2026-11-29.2: the cost of long sections grows with how far over the
   * text is, and the apply splits what it can when that shows in the score) removed-headings 0.863/0.757;
   * with the rules or checks that close a section gathered under a heading, 0.863/0.764.
   * The forty-fifth's (rubric 2026-11-29.4: sections from six lines of text) and the forty-sixth's (the
   * apply splits when the score as shown rises) bring removed-headings to every goal (measured
   * 0.958/0.913) and truncated to its pairwise goal (0.952/0.647); a truncated body keeps only its
   * floor for rises, which the apply cannot restore.
   */
  const LIMITS: Record<string, { readonly pairwise?: number; readonly rises?: number }> = {
    truncated: { rises: 0.6 }
  }

  it("meets every goal for every kind of damage, but the documented limits, which hold their level", () => {
    for (const k of kinds) {
      const limit = LIMITS[k.id]
      expect([k.id, k.pairwise >= (limit?.pairwise ?? GOALS.pairwise)]).toEqual([k.id, true])
      expect([k.id, k.rises >= (limit?.rises ?? GOALS.rises)]).toEqual([k.id, true])
      expect([k.id, k.risesWhenChanged, k.frontmatter, k.deterministic, k.errors]).toEqual([k.id, 1, 1, 1, 0])
    }
  }, 120_000)

  it("scores every clean, well-written skill at least 85", () => {
    for (const s of report.skills) expect([s.skill, (s.clean ?? 0) >= PRECISION_GOALS.cleanScore]).toEqual([s.skill, true])
  })

  it("never scores an apply lower than the damaged skill", () => {
    for (const v of report.variants.filter((x) => x.applied !== null)) expect([v.skill, v.kind, v.applied! >= v.damaged!]).toEqual([v.skill, v.kind, true])
  })
})

describe("precision: every finding at minor or above on a clean skill is labelled, and the goals hold", () => {
  // the checked-in skills always, every corpus folder too when it is there (clean reviews only: fast)
  const skills = runHarness(loadAllSkills(), []).skills
  const labels = loadLabels()
  const summary = summarizePrecision(skills, labels)

  it("labels every finding (quality/labels/*.json, keyed by rule, file and the line's text)", () => {
    expect(summary.unlabeled.map((u) => u.finding.key)).toEqual([])
  })

  it("meets the precision, noise and calibration goals", () => {
    expect(precisionOf(summary.majorOrAbove)).toBeGreaterThanOrEqual(PRECISION_GOALS.majorOrAbove)
    expect(precisionOf(summary.minor)).toBeGreaterThanOrEqual(PRECISION_GOALS.minor)
    expect(summary.incorrectCritical).toBe(0)
    for (const n of summary.noise) expect([n.source, n.median <= PRECISION_GOALS.noiseMedian]).toEqual([n.source, true])
    expect(summary.lowScores).toEqual([])
  })

  it("never lowers a score for info notes: removing every one changes nothing", () => {
    const sample = loadCheckedIn().find((s) => s.skill.folder === "consciousness-council") ?? loadCheckedIn()[0]!
    const r = reviewWithMock(reviewInput(sample.skill))
    const infoRules = new Set(r.findings.filter((f) => f.severity === "info").map((f) => f.ruleId))
    expect(infoRules.size).toBeGreaterThan(0)
    const off = reviewWithMock({ ...reviewInput(sample.skill), disabledRules: [...infoRules] })
    expect(off.overallScore).toBe(r.overallScore)
  })
})

describe("labels", () => {
  it("fingerprints name the rule, the file and the line's text, not its number: an edit elsewhere keeps every key", () => {
    const skill = samples.find((s) => s.folder === "brand-voice")!
    const md = skillMd(skill)!
    const hedged = md.replace(/^(1[.)] )(\w)/m, (_m, marker: string, c: string) => `${marker}Maybe ${c.toLowerCase()}`)
    const keysOf = (content: string) => {
      const r = reviewWithMock(reviewInput({ ...skill, files: skill.files.map((f) => (f.path === SKILL_MD ? { ...f, content } : f)) }))
      return fingerprints(skill.folder, r.findings, (p) => (p === SKILL_MD ? content : skill.files.find((f) => f.path === p)?.content)).map((f) => f.key)
    }
    const before = keysOf(hedged)
    expect(before.some((k) => k.startsWith("SK-CLAR-VAGUE brand-voice/SKILL.md 1"))).toBe(true)
    // three lines added above: every line number moves, no key changes
    expect(keysOf(hedged.replace(/\n# /, "\nA new opening paragraph.\n\nAnd another.\n\n# "))).toEqual(before)
  })

  it("every label has a verdict and a reason, and each key is labelled once", () => {
    const labels = loadLabels()
    expect(labels.size).toBeGreaterThan(0)
    for (const [key, l] of labels) {
      expect(key).toMatch(/^SK-[A-Z0-9-]+ [\w.-]+\/\S+/)
      expect(["correct", "incorrect"]).toContain(l.label)
      expect(l.reason.length).toBeGreaterThan(10)
    }
  })
})
