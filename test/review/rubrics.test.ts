/** The rubric registry: built-in rubrics, versions, defaults, custom rubrics and rubric selection. */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { CRITERION_KEYS, isCriterionKey } from "../../src/review/rubrics/Criteria.js"
import {
  decodeCustomRubric,
  defaultRubricKeyFor,
  getRubric,
  listRubrics,
  resolveRubric
} from "../../src/review/rubrics/Registry.js"
import { CHECKS } from "../../src/review/mock/Checks.js"
import { RULES } from "../../src/review/rules/Rules.js"
import { RULES_START, withRuleReference } from "../../src/review/rules/Reference.js"
import { ArtifactType } from "../../src/domain/Artifact.js"
import { Rubric } from "../../src/review/Types.js"
import { Schema } from "effect"

const TYPES = ArtifactType.literals

describe("built-in rubrics", () => {
  it("has schema-valid rubrics keyed by artifact type, every version's weights summing to 100", () => {
    const rubrics = listRubrics()
    expect([...new Set(rubrics.map((r) => r.key))]).toEqual([...TYPES].sort())
    // older versions stay, so a pinned audit can be re-run exactly
    expect(new Set(rubrics.map((r) => `${r.key}@${r.version}`)).size).toBe(rubrics.length)
    for (const r of rubrics) {
      expect(() => Schema.decodeUnknownSync(Rubric)(r)).not.toThrow()
      expect(r.version).toMatch(/^\d{4}-\d{2}-\d{2}(?:\.\d+)?$/)
      expect(r.criteria.reduce((s, c) => s + c.weight, 0)).toBe(100)
      expect(new Set(r.criteria.map((c) => c.key)).size).toBe(r.criteria.length)
      for (const c of r.criteria) {
        expect(isCriterionKey(c.key)).toBe(true)
        expect(c.label.length).toBeGreaterThan(0)
        expect(c.description.length).toBeGreaterThan(0)
      }
    }
  })

  it("every catalogue criterion has a mock scorer", () => {
    expect(Object.keys(CHECKS).sort()).toEqual([...CRITERION_KEYS].sort())
  })

  it("gets the latest version by key, a pinned one by key and version or key@version, and none for unknown ones", () => {
    const latest = Option.getOrThrow(getRubric("skill"))
    expect(latest.artifactType).toBe("skill")
    expect(Option.getOrThrow(getRubric("skill", latest.version))).toBe(latest)
    expect(Option.getOrThrow(getRubric(`skill@${latest.version}`))).toBe(latest)
    expect(Option.isNone(getRubric("skill", "1999-01-01"))).toBe(true)
    expect(Option.isNone(getRubric("nope"))).toBe(true)
  })

  it("defaults each artifact type to its own rubric", () => {
    for (const t of TYPES) expect(Option.getOrThrow(getRubric(defaultRubricKeyFor(t))).artifactType).toBe(t)
  })
})

describe("custom rubrics", () => {
  it("builds a rubric from catalogue keys with a content-hash version", () => {
    const a = Either.getOrThrow(decodeCustomRubric({ criteria: [{ key: "references", weight: 2 }, { key: "clarity", weight: 1, label: "Wording" }] }, "prompt"))
    expect(a).toMatchObject({ key: "custom", artifactType: "prompt", title: "Custom rubric" })
    expect(a.version).toMatch(/^custom-[0-9a-f]{12}$/)
    expect(a.criteria.map((c) => [c.key, c.weight, c.label])).toEqual([["references", 2, "Bundle references"], ["clarity", 1, "Wording"]])
    const same = Either.getOrThrow(decodeCustomRubric({ criteria: [{ key: "references", weight: 2 }, { key: "clarity", weight: 1, label: "Wording" }] }, "prompt"))
    expect(same.version).toBe(a.version)
    const other = Either.getOrThrow(decodeCustomRubric({ criteria: [{ key: "references", weight: 3 }, { key: "clarity", weight: 1, label: "Wording" }] }, "prompt"))
    expect(other.version).not.toBe(a.version)
    expect(Either.getOrThrow(decodeCustomRubric({ key: "team-v2", version: "7", criteria: [{ key: "steps", weight: 1 }] }, "skill")))
      .toMatchObject({ key: "team-v2", version: "7" })
  })

  it("rejects unknown keys, duplicates, bad weights, empty criteria, extra fields and built-in keys with paths", () => {
    const fail = (v: unknown) => {
      const r = decodeCustomRubric(v, "skill")
      expect(Either.isLeft(r)).toBe(true)
      return Either.isLeft(r) ? r.left : (undefined as never)
    }
    const unknown = fail({ criteria: [{ key: "tone", weight: 1 }] })
    expect(unknown.details).toEqual([{ path: "customRubric.criteria.0.key", message: expect.stringMatching(/unknown criterion key 'tone'; allowed: frontmatter/) }])
    expect(fail({ criteria: [{ key: "steps", weight: 1 }, { key: "steps", weight: 2 }] }).message).toMatch(/duplicate criterion key 'steps'/)
    expect(fail({ criteria: [{ key: "steps", weight: 0 }] }).details[0]!.path).toBe("customRubric.criteria.0.weight")
    expect(fail({ criteria: [] }).details[0]!.path).toBe("customRubric.criteria")
    expect(fail({ criteria: [{ key: "steps", weight: 1 }], extra: true }).details[0]!.path).toBe("customRubric.extra")
    expect(fail({ key: "skill", criteria: [{ key: "steps", weight: 1 }] }).details[0]!.path).toBe("customRubric.key")
    expect(fail("nope")._tag).toBe("ValidationFailed")
  })
})

describe("resolveRubric", () => {
  const custom = { key: "team", criteria: [{ key: "clarity", weight: 1 }] }

  it.effect("uses the requested key, else the custom rubric, else settings.defaultRubricKey, else the type's default", () =>
    Effect.gen(function*() {
      expect((yield* resolveRubric({ artifactType: "skill", rubricKey: "prompt", customRubric: custom })).key).toBe("prompt")
      expect((yield* resolveRubric({ artifactType: "skill", rubricKey: "custom", customRubric: custom })).key).toBe("team")
      expect((yield* resolveRubric({ artifactType: "skill", rubricKey: "team", customRubric: custom })).key).toBe("team")
      expect((yield* resolveRubric({ artifactType: "skill", customRubric: custom, settings: { defaultRubricKey: "agent" } })).key).toBe("team")
      expect((yield* resolveRubric({ artifactType: "skill", customRubric: {}, settings: { defaultRubricKey: "agent" } })).key).toBe("agent")
      expect((yield* resolveRubric({ artifactType: "command", customRubric: {} })).key).toBe("command")
    }))

  it.effect("fails with validation_failed naming the field for an unknown key or an invalid custom rubric", () =>
    Effect.gen(function*() {
      const e1 = yield* Effect.flip(resolveRubric({ artifactType: "skill", rubricKey: "nope" }))
      expect(e1.details).toEqual([{ path: "rubricKey", message: expect.stringMatching(/unknown rubric 'nope'/) }])
      const e2 = yield* Effect.flip(resolveRubric({ artifactType: "skill", settings: { defaultRubricKey: "custom" } }))
      expect(e2.details[0]!.path).toBe("settings.defaultRubricKey")
      const e3 = yield* Effect.flip(resolveRubric({ artifactType: "skill", customRubric: { criteria: [{ key: "x", weight: 1 }] } }))
      expect(e3.details[0]!.path).toBe("customRubric.criteria.0.key")
    }))

  it.effect("a second version of one day is pinned by its suffix; a suffix that was never fixed is an unknown rubric", () =>
    Effect.gen(function*() {
      expect((yield* resolveRubric({ artifactType: "skill", rubricKey: "skill@2026-11-29.2" })).version).toBe("2026-11-29.2")
      expect((yield* resolveRubric({ artifactType: "skill", rubricKey: "skill@2026-11-29" })).version).toBe("2026-11-29")
      expect((yield* resolveRubric({ artifactType: "skill", rubricKey: "skill@2026-11-29.3" })).version).toBe("2026-11-29.3")
      expect((yield* resolveRubric({ artifactType: "skill", rubricKey: "skill@2026-11-29.4" })).version).toBe("2026-11-29.4")
      const e = yield* Effect.flip(resolveRubric({ artifactType: "skill", rubricKey: "skill@2026-11-29.5" }))
      expect(e.details).toEqual([{ path: "rubricKey", message: expect.stringMatching(/unknown rubric 'skill@2026-11-29\.5'/) }])
    }))
})

describe("docs/rubrics.md", () => {
  const docs = fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs/rubrics.md"), "utf8")

  it("documents every criterion and every rubric with its current version and weights", () => {
    for (const key of CRITERION_KEYS) expect(docs).toContain(`### \`${key}\``)
    for (const r of listRubrics()) {
      expect(docs).toContain(`\`${r.key}\``)
      expect(docs).toContain(r.version)
    }
    const latest = TYPES.map((t) => Option.getOrThrow(getRubric(t)))
    const table = docs.split("\n").filter((l) => /^\| `[a-z_]+` \|/.test(l))
    const header = docs.split("\n").find((l) => l.startsWith("| criterion |"))!.split("|").map((c) => c.trim()).filter(Boolean).slice(1)
    for (const r of latest) {
      const col = header.indexOf(r.key)
      expect(col, r.key).toBeGreaterThanOrEqual(0)
      for (const c of r.criteria) {
        const row = table.find((l) => l.startsWith(`| \`${c.key}\` |`))!.split("|").map((x) => x.trim()).slice(1, -1)
        expect(row[col + 1], `${r.key}.${c.key}`).toBe(String(c.weight))
      }
    }
  })
})

describe("the rule catalogue", () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

  it("has unique, well-formed ids, one rule per criterion code, each with an example and a fix", () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length)
    expect(new Set(RULES.map((r) => `${r.criterion}.${r.code}`)).size).toBe(RULES.length)
    for (const r of RULES) {
      expect(r.id).toMatch(/^SK-[A-Z]+(-[A-Z0-9]+)+$/)
      expect(r.id.startsWith("SK-AI-")).toBe(false)
      expect(isCriterionKey(r.criterion)).toBe(true)
      expect(r.example.length).toBeGreaterThan(0)
      expect(r.fix.length).toBeGreaterThan(0)
    }
  })

  it("covers every finding code the mock's checks can emit", () => {
    const dir = path.join(root, "src/review/mock/checks")
    const codes = new Set<string>()
    for (const f of fs.readdirSync(dir)) {
      for (const m of fs.readFileSync(path.join(dir, f), "utf8").matchAll(/\.issue\(\s*([^,]+),/g)) {
        // every code is a literal (or a choice of literals), so a new one cannot slip past this test
        const literals = [...m[1]!.trim().matchAll(/(?:^|[?:]\s*)"([a-z_0-9]+)"/g)].map((x) => x[1]!)
        expect(literals.length, `${f}: ${m[1]}`).toBeGreaterThan(0)
        expect(m[1]!.replace(/"[a-z_0-9]+"/g, "").replace(/[\w\s?:.!=<>&|()]/g, ""), `${f}: ${m[1]}`).toBe("")
        for (const c of literals) codes.add(c)
      }
    }
    expect(codes.size).toBeGreaterThan(50)
    const catalogued = new Set(RULES.map((r) => r.code))
    expect([...codes].filter((c) => !catalogued.has(c))).toEqual([])
  })

  it("is what docs/rubrics.md's rule reference says (npm run docs:rules rewrites it)", () => {
    const docs = fs.readFileSync(path.join(root, "docs/rubrics.md"), "utf8")
    expect(docs).toContain(RULES_START)
    expect(withRuleReference(docs)).toBe(docs)
    for (const r of RULES) expect(docs).toContain(`#### \`${r.id}\``)
  })
})
