/**
 * Properties of the mock evaluator over the corpus skills (../shared/corpus/skills, skipped when
 * absent) and realistic samples of other kinds (an AGENTS.md, a prompt, a workflow, a command, a
 * skill with dangling links and vague wording, a skill without frontmatter):
 *   1. the same version on both sides is unchanged on every case;
 *   2. the mock reviewer's improved version does no worse than the original on the original's kit;
 *   3. real regressions (a deleted step, a removed "use when" trigger, a removed rule, commands
 *      replaced by vague wording) lower the affected cases and leave the others alone;
 *   4. determinism, scores in 0..100, evidence that quotes real lines.
 */
import { describe, expect, it } from "@effect/vitest"
import { classifyCase, evaluateMock } from "../../src/evals/mock/MockEvaluator.js"
import type { CaseResult, EvalSide, SideResult } from "../../src/evals/Types.js"
import { reviewWithMock } from "../../src/review/mock/MockReviewer.js"
import { plainText } from "../../src/markdown/Markdown.js"
import type { ArtifactType } from "../../src/domain/Artifact.js"
import type { ReviewFile } from "../../src/review/Types.js"
import type { EvalCase } from "../../src/domain/EvalCase.js"
import { corpusSkills, fileInput, loadSkill } from "../review/support.js"

// ------------------------------------------------------------------------------------ samples

const f = (path: string, content: string): ReviewFile => ({ path, content, fileVersionId: `fv-${path}`, isPrimary: false })

const AGENTS_MD = `# Payments Service

This repository holds the payments API (TypeScript, Fastify, PostgreSQL).

## Setup

1. Install dependencies with \`pnpm install\`.
2. Start the database with \`docker compose up -d db\`.
3. Run the migrations with \`pnpm db:migrate\`.

## Before you commit

1. Run \`pnpm lint\` and fix every error.
2. Run \`pnpm test\`; try to keep the suite under two minutes.
3. Update \`CHANGELOG.md\` for user-visible changes etc.

## Rules

- Never log card numbers or CVV values.
- Do not edit files under \`src/generated/\`; run \`pnpm codegen\` instead.
- If a migration fails, roll it back with \`pnpm db:rollback\` and report the error.
- When the task is unclear, ask one clarifying question before changing code.
- See [the architecture notes](docs/architecture.md) before adding a module.
`

const PROMPT = `You are a senior code reviewer. Review the diff the user pastes and report problems properly.

Steps:
1. Read the whole diff before commenting.
2. List security problems first (injection, secrets, auth checks).
3. Then list correctness bugs, and so on.
4. Suggest a fix for each problem as a code snippet.

If the diff is larger than 500 lines, review only the files the user names and say which you skipped.

Output format: a markdown list grouped by severity (critical, major, minor), one line per problem with the file and line.
`

const WORKFLOW = `---
name: release-workflow
description: Cut a release of the CLI. Use when the user asks to publish a new version.
---

# Release

## Steps

1. Check that \`main\` is green in CI with \`gh run list --branch main --limit 1\`.
2. Bump the version with \`npm version minor\` as appropriate.
3. Build the artifacts with \`npm run build\`.
4. Publish with \`npm publish\` and push the tag with \`git push --follow-tags\`.
5. Draft the release notes from [the template](templates/release-notes.md).

## When things go wrong

- If CI is red on main, stop and tell the user which job failed.
- If the publish step fails with E403, ask the user to log in with \`npm login\`.
- See [rollback guide](docs/rollback.md) to undo a bad release.
`

const VAGUE_SKILL = `---
name: csv-cleaner
description: Cleans CSV exports from the billing system into a tidy table.
---

# CSV Cleaner

Turn raw billing exports into a clean CSV that finance can load.

## Steps

1. Read the export and try to detect the delimiter properly.
2. Drop empty rows, duplicate rows, etc.
4. Normalize dates to ISO 8601 and amounts to two decimals.
5. Check the result against [the schema](reference/schema.md) and [the rules](reference/Rules.md).
6. Write the cleaned file next to the original as \`<name>.clean.csv\`.

## Notes

- If a column has various date formats, convert each one and so on.
- If the export is missing a header row, ask the user for the column names.
- Use [the examples](examples/sample.md) as a guide.
`

const NO_FRONTMATTER_SKILL = `Summarize a meeting transcript into decisions and action items.

1. Read the transcript end to end.
2. Extract every decision with who made it.
3. Extract action items with an owner and a due date.
4. Post the summary in the team channel.

If the transcript has no speaker names, state that assumption in the summary.
`

const COMMAND = `---
description: Open a pull request for the current branch
argument-hint: <title>
---

Create a pull request titled $ARGUMENTS.

1. Push the branch with \`git push -u origin HEAD\`.
2. Open the pull request with \`gh pr create --title "$ARGUMENTS" --fill\`.
3. Print the pull request URL.

If the branch is main, stop and tell the user to create a feature branch first.
`

interface Artifact {
  readonly name: string
  readonly type: ArtifactType
  readonly target: string
  readonly files: ReadonlyArray<ReviewFile>
}

const SAMPLES: ReadonlyArray<Artifact> = [
  { name: "sample AGENTS.md", type: "agent", target: "AGENTS.md", files: [f("AGENTS.md", AGENTS_MD), f("docs/architecture.md", "# Architecture\n")] },
  { name: "sample prompt", type: "prompt", target: "prompts/review.prompt", files: [f("prompts/review.prompt", PROMPT)] },
  {
    name: "sample workflow",
    type: "workflow",
    target: "release/WORKFLOW.md",
    files: [f("release/WORKFLOW.md", WORKFLOW), f("release/templates/release-notes.md", "# Notes\n")]
  },
  {
    name: "sample skill with dangling links and vague wording",
    type: "skill",
    target: "SKILL.md",
    files: [f("SKILL.md", VAGUE_SKILL), f("reference/rules.md", "# Rules\n"), f("examples/sample.md", "# Sample\n")]
  },
  { name: "sample skill without frontmatter", type: "skill", target: "meeting-notes/SKILL.md", files: [f("meeting-notes/SKILL.md", NO_FRONTMATTER_SKILL)] },
  { name: "sample command", type: "command", target: ".claude/commands/pr.md", files: [f(".claude/commands/pr.md", COMMAND)] }
]

const ARTIFACTS: ReadonlyArray<Artifact> = [
  ...corpusSkills().map((name): Artifact => ({ name, type: "skill", target: "SKILL.md", files: loadSkill(name) })),
  ...SAMPLES
]

// ------------------------------------------------------------------------------------ helpers

const contentOf = (a: Artifact) => a.files.find((x) => x.path === a.target)!.content
const kitOf = (a: Artifact): ReadonlyArray<EvalCase> => reviewWithMock(fileInput(a.files.find((x) => x.path === a.target)!, a.files, a.type)).evalKit.cases

const side = (a: Artifact, content: string, versionNumber: number): EvalSide => ({
  fileId: "file-1",
  path: a.target,
  fileVersionId: `fv-${versionNumber}`,
  versionNumber,
  contentHash: `sha256:${versionNumber}`,
  content,
  artifactType: a.type
})

const compare = (a: Artifact, source: string, candidate: string, c: EvalCase): CaseResult =>
  evaluateMock({
    source: side(a, source, 1),
    candidate: side(a, candidate, 2),
    case: c,
    bundlePaths: a.files.map((x) => x.path),
    modelTier: "standard",
    reasoningEffort: "medium"
  })

/** Line numbers a side's evidence quotes (`line N: "…"`). */
const citedLines = (r: SideResult): Set<number> =>
  new Set(r.evidence.flatMap((e) => (/^line (\d+): /.exec(e) ? [Number(/^line (\d+): /.exec(e)![1])] : [])))

const expectQuotesExist = (r: SideResult, content: string) => {
  const lines = content.split(/\r?\n/)
  for (const e of r.evidence) {
    const m = /^line (\d+): (.*)$/s.exec(e)
    if (!m) continue
    const n = Number(m[1])
    expect(n).toBeGreaterThanOrEqual(1)
    expect(n).toBeLessThanOrEqual(lines.length)
    const q = /^"(.*)"$/s.exec(m[2]!)
    if (q) expect(lines[n - 1]!.trim().startsWith(q[1]!.replace(/…$/, ""))).toBe(true)
  }
}

/** The block a line opens: a heading with its section, a list item with its sub-lines. */
const blockAt = (lines: ReadonlyArray<string>, i: number): [number, number] => {
  const h = /^ {0,3}(#{1,6})\s/.exec(lines[i]!)
  let end = i
  if (h) {
    for (let k = i + 1; k < lines.length; k++) {
      const next = /^ {0,3}(#{1,6})\s/.exec(lines[k]!)
      if (next && next[1]!.length <= h[1]!.length) break
      end = k
    }
  } else {
    const indent = lines[i]!.search(/\S/)
    for (let k = i + 1; k < lines.length; k++) {
      if (lines[k]!.trim() === "") continue
      if (lines[k]!.search(/\S/) <= indent) break
      end = k
    }
  }
  return [i, end]
}

const stepText = (l: string) =>
  plainText(l.replace(/^\s*(?:[-*+]|\d{1,4}[.)]|#{1,6})\s+/, "")).replace(/^(?:(?:step|phase|stage)\s*\d+\s*[:.)-]?|\d+[.):])\s*/i, "")

/** A version without its "use when" trigger: the description's clause, a When-to-use section, "Use this skill when" lines. */
const withoutTrigger = (content: string): string => {
  const lines = content.split("\n")
  const out: Array<string> = []
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!
    if (/^description:/.test(l)) {
      out.push(
        l
          .replace(/[;.]?\s*(?:Claude should |You should )?\b[Uu]se (?:this skill )?(?:when|whenever)\b[^.]*(\.|$)/, "$1")
          .replace(/:\s*$/, ": Helps with this task.")
      )
      continue
    }
    if (/^#{1,6}\s.*\bwhen to use\b/i.test(l)) {
      const [, end] = blockAt(lines, i)
      i = end
      continue
    }
    if (/^\s*use this skill when\b/i.test(l)) continue
    out.push(l)
  }
  return out.join("\n")
}

const verdictCounts = { compared: 0, improved: 0, unchanged: 0, regressed: 0 }
const seededCounts = { compared: 0, improved: 0, unchanged: 0, regressed: 0 }
/** the targeted cases of the regressions (3a-3d): how many were lowered, and how many went from pass to fail */
const regressionCounts = { targeted: 0, lowered: 0, flipped: 0 }
const countRegression = (r: CaseResult) => {
  regressionCounts.targeted++
  if (r.scoreDelta < 0) regressionCounts.lowered++
  if (r.source.passed && !r.candidate.passed) regressionCounts.flipped++
}

// ---------------------------------------------------------------------------------- properties

describe("mock evaluator properties", () => {
  it("has the six corpus skills and the samples to work on", () => {
    expect(ARTIFACTS.length).toBeGreaterThanOrEqual(SAMPLES.length)
    for (const a of ARTIFACTS) expect(kitOf(a).length).toBeGreaterThanOrEqual(4)
  })

  for (const a of ARTIFACTS) {
    describe(a.name, () => {
      const original = contentOf(a)
      const kit = kitOf(a)

      it("1. the same version on both sides is unchanged on every case, with identical side results", () => {
        for (const c of kit) {
          const r = compare(a, original, original, c)
          expect(r.candidate).toEqual(r.source)
          expect(r.scoreDelta).toBe(0)
          expect(r.verdict).toBe("unchanged")
        }
      })

      it("2. the mock reviewer's improved version does no worse than the original on the original's kit", () => {
        const review = reviewWithMock(fileInput(a.files.find((x) => x.path === a.target)!, a.files, a.type))
        const improved = review.improvedVersion?.content ?? original
        for (const c of kit) {
          const r = compare(a, original, improved, c)
          verdictCounts.compared++
          verdictCounts[r.verdict]++
          expect({ case: c.name, delta: r.scoreDelta >= 0 }).toEqual({ case: c.name, delta: true })
          if (r.source.passed) expect({ case: c.name, passed: r.candidate.passed }).toEqual({ case: c.name, passed: true })
          expect(r.verdict).not.toBe("regressed")
          expectQuotesExist(r.candidate, improved)
        }
      })

      it("2b. so does it on seeded defects the reviewer fixes (vague words, broken or miscased links, a lost trigger, frontmatter or title, skipped numbers, stray whitespace, an unclosed fence)", () => {
        let seed = 7
        const rnd = () => {
          seed = (seed * 1103515245 + 12345) % 2147483648
          return seed / 2147483648
        }
        const pick = <T>(xs: ReadonlyArray<T>): T => xs[Math.floor(rnd() * xs.length)]!
        const atItem = (s: string, re: RegExp, edit: (l: string) => string) => {
          const ls = s.split("\n")
          const idx = ls.map((l, i) => (re.test(l) ? i : -1)).filter((i) => i >= 0)
          if (idx.length === 0) return s
          const i = pick(idx)
          ls[i] = edit(ls[i]!)
          return ls.join("\n")
        }
        const defects: ReadonlyArray<(s: string) => string> = [
          (s) => atItem(s, /^\s*(\d+[.)]|[-*])\s/, (l) => l.replace(/\.?$/, `${pick([" properly", " as needed", ", etc.", " and so on", " various"])}.`)),
          (s) => atItem(s, /^\s*(\d+[.)]|[-*])\s+[A-Z]/, (l) => l.replace(/^(\s*(?:\d+[.)]|[-*])\s+)([A-Z])/, (_m, p: string, c: string) => `${p}Try to ${c.toLowerCase()}`)),
          (s) => s.replace(/\(([\w./-]+\.md)\)/, "(missing/$1)"),
          (s) => s.replace(/\(\.?\/?([\w-]+)\/([\w.-]+\.md)\)/, (_m, d: string, f: string) => `(${d}/${f[0]!.toUpperCase()}${f.slice(1)})`),
          (s) => atItem(s, /^\s*[-*] /, (l) => `${l} See [the guide](reference/nowhere.md) first.`),
          (s) => s.replace(/^description: (.*)$/m, (_m, d: string) => `description: ${d.replace(/\b[Uu]se (this skill )?when[^.]*\.?/, "").trim() || "Helps."}`),
          (s) => s.replace(/^---\n[\s\S]*?\n---\n/, ""),
          (s) => s.replace(/^# .*\n/m, ""),
          (s) => s.replace(/^2\. /m, "3. "),
          (s) => s.split("\n").map((l) => (rnd() < 0.1 ? `${l}  ` : l)).join("\n"),
          (s) => `${s}\n\`\`\`\nunclosed code\n`,
          (s) => s.replace(/\n## /, "\n# "),
          (s) => s.replace(/\n\n/, "\n\n\n\n")
        ]
        for (let k = 0; k < 15; k++) {
          let content = original
          for (let j = 1 + Math.floor(rnd() * 3); j > 0; j--) content = pick(defects)(content)
          const files = a.files.map((x) => (x.path === a.target ? { ...x, content } : x))
          const review = reviewWithMock(fileInput(files.find((x) => x.path === a.target)!, files, a.type))
          const improved = review.improvedVersion?.content ?? content
          const variant: Artifact = { ...a, files }
          for (const c of review.evalKit.cases) {
            const r = compare(variant, content, improved, c)
            seededCounts.compared++
            seededCounts[r.verdict]++
            expect({ case: c.name, verdict: r.verdict, delta: r.scoreDelta >= 0 }).toEqual({ case: c.name, verdict: r.verdict === "improved" ? "improved" : "unchanged", delta: true })
          }
        }
      })

      it("3a. deleting a step lowers that step's case (unless its words survive in another line) and no case it does not cite", () => {
        const lines = original.split("\n")
        for (const c of kit) {
          const k = classifyCase(c)
          if (k.kind !== "step") continue
          const i = lines.findIndex((l) => /^\s*(\d+[.)]|#{1,6})\s/.test(l) && stepText(l).startsWith(k.step.slice(0, 30)))
          expect(i).toBeGreaterThanOrEqual(0)
          const [from, to] = blockAt(lines, i)
          const mutated = lines.filter((_, j) => j < from || j > to)
          const words = k.step.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 4)
          const survives = mutated.some((l) => words.every((w) => l.toLowerCase().includes(w)))
          const deleted = new Set(Array.from({ length: to - from + 1 }, (_, j) => from + j + 1))
          for (const other of kit) {
            const r = compare(a, original, mutated.join("\n"), other)
            if (other === c) {
              countRegression(r)
              if (survives) expect(r.scoreDelta).toBeLessThanOrEqual(0)
              else expect({ case: c.name, lower: r.scoreDelta < 0 }).toEqual({ case: c.name, lower: true })
            } else if (![...citedLines(r.source)].some((n) => deleted.has(n))) {
              expect({ case: other.name, delta: r.scoreDelta }).toEqual({ case: other.name, delta: 0 })
            }
          }
        }
      })

      // an artifact with no "use when" trigger has nothing to remove
      it.skipIf(withoutTrigger(original) === original)("3b. removing the \"use when\" trigger lowers the negative case (and fails it) and the trigger case, and nothing else", () => {
        const mutated = withoutTrigger(original)
        for (const c of kit) {
          const k = classifyCase(c).kind
          const r = compare(a, original, mutated, c)
          if (k === "negative" || k === "trigger") countRegression(r)
          if (k === "negative") {
            expect(r.scoreDelta).toBeLessThan(0)
            expect(r.candidate.passed).toBe(false)
          } else if (k === "trigger") {
            expect(r.scoreDelta).toBeLessThan(0)
          } else {
            expect({ case: c.name, delta: r.scoreDelta }).toEqual({ case: c.name, delta: 0 })
          }
        }
      })

      it("3c. removing the rule a scenario depends on lowers it (usually to a fail) and no case that does not cite it", () => {
        const lines = original.split("\n")
        for (const c of kit) {
          const k = classifyCase(c)
          if (k.kind !== "conditional") continue
          const i = lines.findIndex((l) => /\b(if|when)\b/i.test(l) && stepText(l).replace(/\s+/g, " ").includes(k.condition.slice(0, 20)))
          expect(i).toBeGreaterThanOrEqual(0)
          const mutated = lines.filter((_, j) => j !== i).join("\n")
          for (const other of kit) {
            const r = compare(a, original, mutated, other)
            if (other === c) {
              countRegression(r)
              expect({ case: c.name, lower: r.scoreDelta < 0 }).toEqual({ case: c.name, lower: true })
            } else if (!citedLines(r.source).has(i + 1)) expect({ case: other.name, delta: r.scoreDelta }).toEqual({ case: other.name, delta: 0 })
          }
        }
      })

      it("3d. replacing a step's concrete commands with vague wording lowers that case only", () => {
        const lines = original.split("\n")
        for (const c of kit) {
          const k = classifyCase(c)
          if (k.kind !== "step") continue
          const i = lines.findIndex((l) => /^\s*(\d+[.)]|#{1,6})\s/.test(l) && stepText(l).startsWith(k.step.slice(0, 30)))
          if (i < 0 || !/`[^`]+`/.test(lines[i]!)) continue
          const mutated = lines.map((l, j) => (j === i ? l.replace(/`[^`]+`/g, "the usual tool as needed") : l)).join("\n")
          for (const other of kit) {
            const r = compare(a, original, mutated, other)
            if (other === c) {
              countRegression(r)
              expect({ case: c.name, lower: r.scoreDelta < 0 }).toEqual({ case: c.name, lower: true })
            } else if (!citedLines(r.source).has(i + 1)) expect({ case: other.name, delta: r.scoreDelta }).toEqual({ case: other.name, delta: 0 })
          }
        }
      })

      it("4. is deterministic, scores within 0..100, and its evidence quotes lines that exist", () => {
        const review = reviewWithMock(fileInput(a.files.find((x) => x.path === a.target)!, a.files, a.type))
        const improved = review.improvedVersion?.content ?? `${original}\n`
        // every kit, so each version also meets cases written for other artifacts
        for (const other of ARTIFACTS) {
          for (const c of kitOf(other)) {
            const r = compare(a, original, improved, c)
            expect(JSON.stringify(compare(a, original, improved, c))).toBe(JSON.stringify(r))
            for (const [s, content] of [[r.source, original], [r.candidate, improved]] as const) {
              expect(Number.isInteger(s.score)).toBe(true)
              expect(s.score).toBeGreaterThanOrEqual(0)
              expect(s.score).toBeLessThanOrEqual(100)
              expect(s.passed).toBe(s.score >= 70)
              expect(s.evidence.length).toBeGreaterThan(0)
              expect(s.observedBehavior).toMatch(/^(The instructions|The request|Nothing in the instructions)/)
              expectQuotesExist(s, content)
            }
            expect(r.scoreDelta).toBe(r.candidate.score - r.source.score)
          }
        }
      })
    })
  }

  it("over everything above, no case regressed after the mock reviewer's apply", () => {
    // the per-artifact tests ran first (vitest keeps declaration order within a file)
    expect(verdictCounts.compared).toBeGreaterThan(0)
    expect(verdictCounts.regressed).toBe(0)
    expect(seededCounts.regressed).toBe(0)
    console.info(`[mock evaluator] after apply: ${JSON.stringify(verdictCounts)}; on seeded defects: ${JSON.stringify(seededCounts)}`)
  })

  it("over everything above, the regressions lowered nearly every targeted case and usually failed it", () => {
    expect(regressionCounts.targeted).toBeGreaterThan(20)
    expect(regressionCounts.lowered / regressionCounts.targeted).toBeGreaterThanOrEqual(0.9)
    expect(regressionCounts.flipped / regressionCounts.targeted).toBeGreaterThanOrEqual(0.6)
    console.info(`[mock evaluator] regressions: ${JSON.stringify(regressionCounts)}`)
  })
})
