/**
 * The reviewer contract: properties every `AiReviewer` layer must satisfy, whatever produces the
 * review (the deterministic mock, the real provider against a fake server, ...).
 *
 *   reviewerContract("mock", MockReviewerLive, { deterministic: true })
 *
 * It runs the fixture inputs below (file mode and bundle mode, several tiers and efforts) and checks:
 * a score for every rubric criterion within 0..100, overallScore the weighted mean (less the critical penalty), findings on
 * existing files with valid line ranges and rubric criteria, file mode → improvedVersion (the target)
 * or null with improvedFiles empty, bundle mode → improvedVersion null with improvedFiles on reviewed
 * files, a non-empty eval kit with unique ids, frontmatter preserved byte for byte (file mode may set
 * `name` and `description`, saying so in `changes`), and provider info
 * echoing the requested tier and reasoning effort.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { AiReviewer } from "../../src/review/AiReviewer.js"
import type { ModelTier, ReasoningEffort } from "../../src/ai/Usage.js"
import type { ImprovedFile, ReviewFile, ReviewInput, ReviewResult, Rubric } from "../../src/review/Types.js"

// ---------------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------------

export const contractRubric: Rubric = {
  key: "skill",
  version: "contract-1",
  artifactType: "skill",
  title: "Skill quality (contract fixture)",
  criteria: [
    { key: "frontmatter", label: "Frontmatter", weight: 2, description: "A valid frontmatter block." },
    { key: "description", label: "Description", weight: 3, description: "Says what the skill does and when to use it." },
    { key: "steps", label: "Concrete steps", weight: 2, description: "A numbered procedure." },
    { key: "examples", label: "Examples", weight: 1, description: "Worked examples." },
    { key: "references", label: "Bundle references", weight: 1, description: "Links resolve to bundle files." },
    { key: "clarity", label: "Clarity and precision", weight: 1, description: "No vague wording." }
  ]
}

export const SKILL_FRONTMATTER = [
  "---",
  "name: release-notes",
  "description: Writes release notes.",
  "metadata:",
  "  owner: docs-team",
  "---",
  ""
].join("\n")

export const skillFile: ReviewFile = {
  path: "SKILL.md",
  fileVersionId: "00000000-0000-4000-8000-000000000001",
  isPrimary: true,
  content: SKILL_FRONTMATTER + [
    "# Release notes",
    "",
    "Write release notes for the project as needed, etc.",
    "",
    "See [the template](templates/notes.md) and [the style guide](docs/style.md).",
    "",
    "- gather the commits",
    "- write some notes",
    ""
  ].join("\n")
}

export const templateFile: ReviewFile = {
  path: "templates/notes.md",
  fileVersionId: "00000000-0000-4000-8000-000000000002",
  isPrimary: false,
  content: "# v{{version}}\n\n## Added\n\n## Fixed\n"
}

export const scriptFile: ReviewFile = {
  path: "scripts/commits.sh",
  fileVersionId: "00000000-0000-4000-8000-000000000003",
  isPrimary: false,
  content: "#!/bin/sh\ngit log --oneline \"$1\"..HEAD\n"
}

export const fileInput = (modelTier: ModelTier = "standard", reasoningEffort: ReasoningEffort = "medium"): ReviewInput => ({
  mode: "file",
  artifactType: "skill",
  rubric: contractRubric,
  target: skillFile,
  files: [skillFile, templateFile, scriptFile],
  modelTier,
  reasoningEffort
})

export const bundleInput = (modelTier: ModelTier = "standard", reasoningEffort: ReasoningEffort = "medium"): ReviewInput => ({
  mode: "bundle",
  artifactType: "skill",
  rubric: contractRubric,
  target: null,
  files: [skillFile, templateFile, scriptFile],
  modelTier,
  reasoningEffort
})

// ---------------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------------

const lineCount = (content: string): number => {
  const lines = content.split(/\r?\n/)
  if (content.endsWith("\n")) lines.pop()
  return Math.max(lines.length, 1)
}

const FRONTMATTER = /^---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/
const frontmatterOf = (text: string) => text.match(FRONTMATTER)?.[0] ?? ""

const filesOf = (input: ReviewInput): Map<string, ReviewFile> => {
  const map = new Map<string, ReviewFile>()
  for (const f of [...(input.target ? [input.target] : []), ...input.files]) if (!map.has(f.path)) map.set(f.path, f)
  return map
}

const checkImproved = (input: ReviewInput, improved: ImprovedFile) => {
  const original = filesOf(input).get(improved.path)
  expect(original, `improved file ${improved.path} is a known file`).toBeDefined()
  expect(improved.content).not.toBe(original!.content)
  expect(Array.isArray(improved.changes)).toBe(true)
  checkFrontmatterKept(original!.content, improved)
}

/** A top-level key's lines (its `key:` line and the indented lines under it) dropped from a block. */
const withoutKey = (block: string, key: string): string => {
  const out: Array<string> = []
  let skipping = false
  for (const line of block.split("\n")) {
    if (new RegExp(`^${key}\\s*:`).test(line)) skipping = true
    else if (!/^\s/.test(line) || line.trim() === "") skipping = false
    if (!skipping) out.push(line)
  }
  return out.join("\n")
}

/**
 * The frontmatter block comes back byte for byte, except `name` and `description` when a change
 * line says the reviewer set them (the name to the folder's, a vague description rewritten).
 */
export const checkFrontmatterKept = (original: string, improved: ImprovedFile) => {
  const block = frontmatterOf(original)
  if (block === "") return
  const after = frontmatterOf(improved.content)
  let a = block
  let b = after
  for (const key of ["name", "description"]) {
    if (withoutKey(a, key) === a && withoutKey(b, key) === b) continue
    if (improved.changes.some((c) => c.includes(`\`${key}\``) || c.includes(`the ${key}`))) {
      a = withoutKey(a, key)
      b = withoutKey(b, key)
    }
  }
  expect(b, `frontmatter of ${improved.path} preserved exactly (but a name or description the changes name)`).toBe(a)
  expect(improved.content.slice(after.length).length).toBeGreaterThan(0)
}

/** Asserts the contract on one result; exported so single tests can reuse it. */
export const checkResult = (input: ReviewInput, result: ReviewResult) => {
  // scores
  const keys = input.rubric.criteria.map((c) => c.key)
  expect(result.scores.map((s) => s.key).sort()).toEqual([...keys].sort())
  for (const s of result.scores) {
    expect(Number.isFinite(s.score)).toBe(true)
    expect(s.score).toBeGreaterThanOrEqual(0)
    expect(s.score).toBeLessThanOrEqual(100)
    const criterion = input.rubric.criteria.find((c) => c.key === s.key)!
    expect(s.weight).toBe(criterion.weight)
    expect(typeof s.rationale).toBe("string")
  }
  const totalWeight = result.scores.reduce((a, s) => a + s.weight, 0)
  const mean = totalWeight > 0
    ? result.scores.reduce((a, s) => a + s.weight * s.score, 0) / totalWeight
    : result.scores.reduce((a, s) => a + s.score, 0) / Math.max(result.scores.length, 1)
  // less 10 points per distinct rule with a critical finding, at most 25
  const criticalRules = new Set(result.findings.filter((f) => f.severity === "critical").map((f) => f.ruleId))
  const expected = Math.max(0, mean - Math.min(25, 10 * criticalRules.size))
  expect(Math.abs(result.overallScore - expected), `overallScore ${result.overallScore} is the weighted mean ${mean} less the critical penalty`)
    .toBeLessThanOrEqual(0.5)
  expect(result.overallScore).toBeGreaterThanOrEqual(0)
  expect(result.overallScore).toBeLessThanOrEqual(100)

  // findings
  const files = filesOf(input)
  const ids = new Set<string>()
  for (const f of result.findings) {
    expect(ids.has(f.id), `finding id ${f.id} is unique`).toBe(false)
    ids.add(f.id)
    expect(f.id.length).toBeGreaterThan(0)
    expect(keys).toContain(f.criterionKey)
    expect(["critical", "major", "minor", "info"]).toContain(f.severity)
    const file = files.get(f.filePath)
    expect(file, `finding points at an existing file (${f.filePath})`).toBeDefined()
    expect(Number.isInteger(f.lineStart) && Number.isInteger(f.lineEnd)).toBe(true)
    expect(f.lineStart).toBeGreaterThanOrEqual(1)
    expect(f.lineEnd).toBeGreaterThanOrEqual(f.lineStart)
    expect(f.lineEnd).toBeLessThanOrEqual(lineCount(file!.content))
    expect(f.message.length).toBeGreaterThan(0)
  }

  // improved versions
  if (input.mode === "file") {
    expect(result.improvedFiles).toEqual([])
    if (result.improvedVersion !== null) {
      expect(result.improvedVersion.path).toBe(input.target!.path)
      checkImproved(input, result.improvedVersion)
    }
  } else {
    expect(result.improvedVersion).toBeNull()
    const paths = result.improvedFiles.map((f) => f.path)
    expect(new Set(paths).size).toBe(paths.length)
    for (const f of result.improvedFiles) checkImproved(input, f)
  }

  // eval kit
  expect(result.evalKit.cases.length).toBeGreaterThan(0)
  const caseIds = result.evalKit.cases.map((c) => c.id)
  expect(new Set(caseIds).size).toBe(caseIds.length)
  for (const c of result.evalKit.cases) {
    expect(["standard", "scenario"]).toContain(c.type)
    expect(c.name.length).toBeGreaterThan(0)
  }

  // provider info
  expect(result.provider.modelTier).toBe(input.modelTier)
  expect(result.provider.reasoningEffort).toBe(input.reasoningEffort)
  expect(result.provider.provider.length).toBeGreaterThan(0)
  expect(result.provider.model.length).toBeGreaterThan(0)
  if (result.usage !== null) {
    expect(result.usage.totalTokens).toBeGreaterThanOrEqual(0)
    expect(result.usage.inputTokens).toBeGreaterThanOrEqual(0)
    expect(result.usage.outputTokens).toBeGreaterThanOrEqual(0)
  }
}

export interface ContractOptions {
  /** Same input, same output (the mock). */
  readonly deterministic?: boolean
  /** The file-mode review must propose an improved version for the fixture (it has obvious flaws). */
  readonly improvesFixture?: boolean
}

const review = (input: ReviewInput) => Effect.flatMap(AiReviewer, (r) => r.review(input))

export const reviewerContract = (
  name: string,
  reviewer: Layer.Layer<AiReviewer, unknown>,
  options: ContractOptions = {}
) =>
  describe(`reviewer contract: ${name}`, () => {
    layer(reviewer, { excludeTestServices: true })((it) => {
      it.effect("file mode: scores, findings, improved version, eval kit", () =>
        Effect.gen(function*() {
          const input = fileInput()
          const result = yield* review(input)
          checkResult(input, result)
          if (options.improvesFixture) expect(result.improvedVersion).not.toBeNull()
        }))

      it.effect("bundle mode: improvedVersion null, improvedFiles on reviewed files", () =>
        Effect.gen(function*() {
          const input = bundleInput()
          const result = yield* review(input)
          checkResult(input, result)
          if (options.improvesFixture) expect(result.improvedFiles.length).toBeGreaterThan(0)
        }))

      it.effect("provider info echoes every tier and reasoning effort", () =>
        Effect.gen(function*() {
          const combos: ReadonlyArray<[ModelTier, ReasoningEffort]> = [
            ["cheap", "low"],
            ["standard", "high"],
            ["premium", "medium"]
          ]
          for (const [tier, effort] of combos) {
            const fi = fileInput(tier, effort)
            checkResult(fi, yield* review(fi))
            const bi = bundleInput(tier, effort)
            checkResult(bi, yield* review(bi))
          }
        }))

      it.effect("frontmatter of the reviewed files is preserved exactly", () =>
        Effect.gen(function*() {
          const fi = fileInput()
          const result = yield* review(fi)
          if (result.improvedVersion !== null) checkFrontmatterKept(skillFile.content, result.improvedVersion)
          // bundle mode never touches a frontmatter
          const bi = bundleInput()
          const bundle = yield* review(bi)
          for (const f of bundle.improvedFiles.filter((f) => f.path === skillFile.path)) {
            expect(f.content.startsWith(SKILL_FRONTMATTER)).toBe(true)
          }
        }))

      if (options.deterministic) {
        it.effect("deterministic: same input, same output", () =>
          Effect.gen(function*() {
            expect(yield* review(fileInput())).toEqual(yield* review(fileInput()))
            expect(yield* review(bundleInput())).toEqual(yield* review(bundleInput()))
          }))
      }
    })
  })
