/**
 * The analysis and mapping phases (src/conversions/Analysis.ts): what is found in a source, the block
 * plan, the block mapping of any document and the report notes. Pure: no database, no services.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { analyzeSources, assessFlow, blockMappingOf, planBlocks, type PlannedBlock } from "../../src/conversions/Analysis.js"
import { generateMock } from "../../src/conversions/mock/MockConverter.js"
import type { ConversionInput, ConversionSource } from "../../src/conversions/Types.js"
import { corpusPath } from "../support/Corpus.js"

const CORPUS_DIR = corpusPath("skills")
const corpusAvailable = fs.existsSync(CORPUS_DIR)

const sha = (content: string) => `sha256:${createHash("sha256").update(content, "utf8").digest("hex")}`
const source = (p: string, content: string, role: "artifact" | "context" = "artifact", artifactType = "skill"): ConversionSource => ({
  path: p,
  content,
  fileVersionId: `fv-${p}`,
  contentHash: sha(content),
  artifactType,
  role
})
const inputOf = (sources: ReadonlyArray<ConversionSource>, mode: "file" | "bundle" = "file", bundleName = "bundle"): ConversionInput => ({
  mode,
  sources,
  bundleName,
  modelTier: "cheap",
  reasoningEffort: "low"
})
const one = (content: string, p = "SKILL.md", artifactType = "skill") => analyzeSources(inputOf([source(p, content, "artifact", artifactType)])).files[0]!

const skillInput = (skill: string): ConversionInput => {
  const dir = path.join(CORPUS_DIR, skill)
  const walk = (d: string): Array<string> =>
    fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1)).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]))
  return inputOf(
    walk(dir).map((p) => {
      const rel = path.relative(dir, p).split(path.sep).join("/")
      return source(rel, fs.readFileSync(p, "utf8"), rel === "SKILL.md" ? "artifact" : "context")
    }),
    "file",
    skill
  )
}

describe.skipIf(!corpusAvailable)("analysis of corpus skills", () => {
  it("gh-fix-ci: identity, outline, the workflow procedure, rules, inputs, failures and a missing bundled script", () => {
    const a = analyzeSources(skillInput("gh-fix-ci"))
    expect(a.files).toHaveLength(1)
    const f = a.files[0]!
    expect(f.path).toBe("SKILL.md")
    expect(f.lines).toBe(71)
    expect(f.frontmatter).toMatchObject({ present: true, name: "gh-fix-ci", otherKeys: ["metadata"], lineStart: 1, lineEnd: 6 })
    expect(f.title).toEqual({ text: "Gh Pr Checks Plan Fix", line: 8 })
    expect(f.outline.find((s) => s.title === "Workflow")).toMatchObject({ level: 2, lineStart: 28, lineEnd: 60, role: "procedure" })
    expect(f.outline.find((s) => s.title === "Inputs")!.role).toBe("inputs")
    expect(f.procedures).toHaveLength(1)
    const p = f.procedures[0]!
    expect(p).toMatchObject({ kind: "ordered_list", section: "Workflow", lineStart: 30, lineEnd: 60 })
    expect(p.steps.map((s) => s.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(p.steps[2]!.commands).toContain("gh run view <run_id> --log")
    expect(f.rules).toEqual([expect.objectContaining({ polarity: "never", lineStart: 51 })])
    expect(f.inputs.map((i) => [i.id, i.required])).toEqual([["repo", false], ["pr", false], ["gh", true]])
    expect(f.failures.map((x) => x.lineStart)).toEqual([15, 32, 33, 43])
    expect(f.references).toContainEqual({ line: 25, path: "scripts/inspect_pr_checks.py", exists: false })
    expect(f.whenToUse?.origin).toBe("description")
    expect(a.sourceSummary).toEqual({
      mode: "file",
      files: [{ path: "SKILL.md", lines: 71, words: f.words, title: "Gh Pr Checks Plan Fix", headings: f.outline.length, steps: 8, rules: 1, examples: f.examples.length }],
      totals: { files: 1, lines: 71, words: f.words, headings: f.outline.length, steps: 8, rules: 1, examples: f.examples.length }
    })
  })

  it("step headings: 'Step N:' headings with their lists, and phases whose numbered sub-headings are the steps", () => {
    const plans = analyzeSources(skillInput("executing-plans")).files[0]!.procedures
    expect(plans.flatMap((p) => p.steps.map((s) => [s.number, s.title, s.origin]))).toEqual([
      [1, "Load and Review Plan", "heading"],
      [2, "Execute Tasks", "heading"],
      [3, "Complete Development", "heading"]
    ])
    expect(plans[0]!.steps[0]!.subItems).toBe(5)
    const mcp = analyzeSources(skillInput("mcp-builder")).files[0]!
    const steps = mcp.procedures.flatMap((p) => p.steps)
    expect(steps).toHaveLength(13)
    // the phase heading and its intro belong to its first sub-step
    expect(steps[0]!.lineStart).toBe(21)
    expect(steps[0]!.title).toBe("Understand Modern MCP Design")
    expect(steps.find((s) => s.title === "Evaluation Requirements")!.statedCheck).toMatch(/^Each question is: independent/)
  })

  it("analysis and plan are plain JSON", () => {
    for (const skill of ["gh-fix-ci", "test-driven-development", "notion-knowledge-capture"]) {
      const a = analyzeSources(skillInput(skill))
      const plan = planBlocks(a)
      expect(JSON.parse(JSON.stringify(a))).toEqual(a)
      expect(JSON.parse(JSON.stringify(plan))).toEqual(plan)
    }
  })
})

describe("analysis of kinds of structure", () => {
  it("rule lines: must, never, always, do not, don't, required, important, bold STOP", () => {
    const f = one([
      "# Rules demo",
      "",
      "## Steps",
      "1. Read the request.",
      "2. Answer it.",
      "",
      "## Notes",
      "**IMPORTANT:** Always cite the source file.",
      "Do not invent APIs.",
      "You must never print secrets.",
      "Don't skip the tests; they are the contract.",
      "A review is required before merging.",
      "**STOP** if the request touches billing.",
      "You don't need to explain obvious steps.",
      ""
    ].join("\n"))
    expect(f.rules.map((r) => [r.polarity, r.text, r.lineStart])).toEqual([
      ["must", "Cite the source file.", 8],
      ["never", "Invent APIs.", 9],
      ["never", "Print secrets.", 10],
      ["never", "Skip the tests; they are the contract.", 11],
      ["must", "A review is required before merging.", 12],
      ["must", "Stop if the request touches billing.", 13]
    ])
  })

  it("a rules section: every bullet is a guardrail", () => {
    const f = one("# X\n\n1. Do the work.\n2. Report it.\n\n## Remember\n- Review the plan first\n- Don't guess\n")
    expect(f.rules.map((r) => [r.polarity, r.text])).toEqual([
      ["must", "Review the plan first."],
      ["never", "Guess."]
    ])
  })

  it("inputs: an Inputs section, $ARGUMENTS with an argument-hint, and {{placeholders}}", () => {
    const f = one(
      [
        "---",
        "description: Fix an issue",
        "argument-hint: <issue-number>",
        "---",
        "Fix issue $ARGUMENTS.",
        "",
        "## Parameters",
        "- **branch**: the branch to work on (optional)",
        "",
        "Use {{style_guide}} for formatting.",
        ""
      ].join("\n"),
      ".claude/commands/fix.md",
      "command"
    )
    expect(f.inputs.map((i) => [i.id, i.kind, i.required, i.lineStart])).toEqual([
      ["branch", "list", false, 8],
      ["arguments", "arguments", true, 5],
      ["style_guide", "placeholder", true, 10]
    ])
    expect(f.inputs[1]!.description).toBe("The command's arguments: <issue-number>.")
  })

  it("examples: fenced code, an Example section, <Good>/<Bad> blocks with their captions", () => {
    const f = one([
      "# Tests",
      "",
      "## Write the test",
      "<Good>",
      "```ts",
      "test('adds', () => expect(add(1, 2)).toBe(3))",
      "```",
      "Clear name",
      "</Good>",
      "",
      "<Bad>",
      "```ts",
      "test('t1', () => {})",
      "```",
      "Vague",
      "</Bad>",
      "",
      "## Example: a bug",
      "**Bug:** empty email accepted",
      "",
      "```bash",
      "npm test",
      "```",
      ""
    ].join("\n"))
    expect(f.examples.map((e) => [e.kind, e.lineStart, e.lineEnd])).toEqual([
      ["good_bad", 4, 16],
      ["section", 18, 23]
    ])
    expect(f.examples[0]).toMatchObject({ good: "Clear name", bad: "Vague" })
    expect(f.examples[1]!.excerpt).toBe("Bug: empty email accepted")
  })

  it("failure text: if … fails, when stuck, on error, stop-and-ask lists, problem/solution tables", () => {
    const f = one([
      "# Deploy",
      "",
      "1. Run `make deploy`.",
      "   - If the deploy fails, roll back with `make rollback` and retry.",
      "2. Check the dashboard.",
      "",
      "When stuck, ask the user for the runbook.",
      "On error, stop and report the error message.",
      "Stop and ask the user when the target environment is unclear.",
      "",
      "## When to stop",
      "**Stop and ask when:**",
      "- The dashboard is red",
      "- You cannot reach the cluster",
      "",
      "## Troubleshooting",
      "| Problem | Fix |",
      "|---|---|",
      "| Timeout | Retry once |",
      ""
    ].join("\n"))
    expect(f.failures.map((x) => [x.kind, x.when, x.lineStart])).toEqual([
      ["conditional", "The deploy fails", 4],
      ["conditional", "Stuck", 7],
      ["conditional", "On error", 8],
      ["conditional", "The target environment is unclear", 9],
      ["condition_list", "The dashboard is red; You cannot reach the cluster", 12],
      ["table", "Timeout", 19]
    ])
    expect(f.failures[0]!.resumeSameStep).toBe(true)
    expect(f.failures[3]!.then).toBe("Stop and ask the user.")
    expect(f.failures[4]!.then).toBe("Stop and ask.")
    const steps = f.procedures.flatMap((p) => p.steps)
    // the handled failure is not repeated in the step's action
    expect(steps[0]!.action).toBe("Run `make deploy`.")
  })

  it("outputs: an Output section and a step that summarizes for the user", () => {
    const f = one([
      "# Review",
      "",
      "1. Read the diff.",
      "2. Summarize the risks for the user.",
      "",
      "## Output format",
      "A markdown table of risks with a severity column.",
      ""
    ].join("\n"))
    // the Output section names the deliverable, produced by the last step; one output per step
    expect(f.outputs.map((o) => [o.id, o.kind, o.stepLine, o.description])).toEqual([
      ["markdown-table", "section", 4, "A markdown table of risks with a severity column."]
    ])
    const plan = planBlocks(analyzeSources(inputOf([source("SKILL.md", "# Review\n\n1. Read the diff.\n2. Summarize the risks for the user.\n")])))
    const out = plan.blocks.find((b) => b.kind === "output")!
    expect(out).toMatchObject({ id: "risk-summary", producedBy: "summarize-risks", description: "A summary of the risks for the user." })
  })

  it("a file with CRLF line endings and no trailing newline maps to the same lines", () => {
    const lf = "# T\n\n1. Run `npm test`.\n2. Never push to main.\n3. Open a PR."
    const crlf = lf.replace(/\n/g, "\r\n")
    const a = one(lf)
    const b = one(crlf)
    expect(b.lines).toBe(5)
    expect(b.procedures.flatMap((p) => p.steps.map((s) => [s.lineStart, s.title]))).toEqual(a.procedures.flatMap((p) => p.steps.map((s) => [s.lineStart, s.title])))
    expect(b.rules).toEqual(a.rules)
  })

  it("empty and odd sources do not throw", () => {
    for (const content of ["", "\n\n", "---\n", "---\nname: x\n---\n", "```\nunclosed", "| a | b |\n", "- \n1.\n#\n"]) {
      const a = analyzeSources(inputOf([source("X.md", content)]))
      const plan = planBlocks(a)
      expect(() => generateMock(inputOf([source("X.md", content)]), a, plan)).not.toThrow()
    }
  })
})

describe("the block plan", () => {
  const RANK: Record<PlannedBlock["kind"], number> = { identity: 0, input: 1, step: 2, output: 3, guardrail: 4, failure_handling: 5, eval: 6 }
  const text = [
    "---",
    "name: triage",
    "description: Triage a bug report. Use when a new issue arrives.",
    "---",
    "# Triage",
    "",
    "## Inputs",
    "- `issue`: the issue URL",
    "",
    "## Steps",
    "1. Read the issue.",
    "   - If the issue is empty, ask the reporter for details.",
    "2. Reproduce the bug with `npm test`.",
    "3. Write a triage note for the team.",
    "",
    "## Rules",
    "- Never close an issue without a comment.",
    ""
  ].join("\n")

  it("lists identity, inputs, steps, outputs, guardrails, failure handlers and evals, in that order, with ranges", () => {
    const plan = planBlocks(analyzeSources(inputOf([source("SKILL.md", text)])))
    const ranks = plan.blocks.map((b) => RANK[b.kind])
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks)
    expect(plan.blocks[0]).toMatchObject({ kind: "identity", name: "triage", lineStart: 1, lineEnd: 5, whenToUse: "Use when a new issue arrives." })
    const steps = plan.blocks.filter((b) => b.kind === "step")
    expect(steps.map((s) => [s.id, s.lineStart, s.lineEnd])).toEqual([
      ["read-issue", 11, 12],
      ["reproduce-bug", 13, 13],
      ["write-triage-note", 14, 14]
    ])
    const first = steps[0]!
    expect(first.kind === "step" && first.uses).toEqual(["issue"])
    expect(first.kind === "step" && first.onFailure).toBe("if-issue-is-empty")
    const handler = plan.blocks.find((b) => b.kind === "failure_handling")!
    expect(handler).toMatchObject({ stepId: "read-issue", lineStart: 12, resumeAt: "read-issue" })
    expect(plan.blocks.find((b) => b.kind === "output")).toMatchObject({ id: "triage-note", producedBy: "write-triage-note" })
    expect(plan.blocks.find((b) => b.kind === "guardrail")).toMatchObject({ polarity: "never", text: "Close an issue without a comment.", lineStart: 17 })
  })

  it("bundle mode: the steps of each artifact in path order; context files are not converted", () => {
    const a = source("b/second.md", "1. Second one.\n2. Second two.\n", "artifact", "prompt")
    const b = source("a/first.md", "1. First one.\n2. First two.\n", "artifact", "prompt")
    const ctx = source("notes.md", "1. Not a step.\n2. Not either.\n", "context", "prompt")
    const plan = planBlocks(analyzeSources(inputOf([a, ctx, b], "bundle", "two")))
    expect(plan.blocks.filter((x) => x.kind === "step").map((x) => `${x.path}:${x.lineStart}`)).toEqual([
      "a/first.md:1",
      "a/first.md:2",
      "b/second.md:1",
      "b/second.md:2"
    ])
  })
})

describe("blockMappingOf", () => {
  it("reads the from fields of a malformed document, skipping what it cannot read", () => {
    const doc = {
      steps: [{ id: "a", from: "SKILL.md:3-5" }, "junk", null, { from: "SKILL.md:7" }, { id: "c", from: 12 }, { id: "d", from: "no range" }],
      guardrails: [{ never: "x", from: "SKILL.md:9-9" }],
      failure_handling: { not: "a list" },
      evals: [{ id: "e", from: "other/file.md:1-2" }]
    }
    expect(blockMappingOf(doc)).toEqual([
      { block: "steps.0", kind: "step", id: "a", path: "SKILL.md", lineStart: 3, lineEnd: 5 },
      { block: "steps.3", kind: "step", id: null, path: "SKILL.md", lineStart: 7, lineEnd: 7 },
      { block: "guardrails.0", kind: "guardrail", id: null, path: "SKILL.md", lineStart: 9, lineEnd: 9 },
      { block: "evals.0", kind: "eval", id: "e", path: "other/file.md", lineStart: 1, lineEnd: 2 }
    ])
    expect(blockMappingOf({})).toEqual([])
  })
})

describe("assessFlow", () => {
  const assess = (content: string, extra: ReadonlyArray<ConversionSource> = []) => {
    const input = inputOf([source("SKILL.md", content), ...extra])
    const a = analyzeSources(input)
    const draft = generateMock(input, a, planBlocks(a))
    return assessFlow(draft.document, a)
  }

  it("notes what the source does not say, pointing at the default handler", () => {
    const r = assess("# Build\n\n1. Run `npm run build`.\n2. Upload `dist/` to the bucket.\n")
    const codes = r.missingRequirements.map((m) => m.code)
    expect(codes).toEqual(expect.arrayContaining(["no_failure_handling_in_source", "no_inputs_in_source", "no_outputs_in_source", "no_checks_in_source", "no_guardrails_in_source"]))
    expect(r.missingRequirements.find((m) => m.code === "no_failure_handling_in_source")!.block).toBe("failure_handling.0")
    expect(r.remainingRisks.find((x) => x.code === "derived_checks")!.block).toBe("steps.0")
  })

  it("flags state-changing commands unless a guardrail asks for confirmation", () => {
    const risky = assess("# Clean\n\n1. Run `rm -rf build/` to start fresh.\n2. Run `git push --force` to publish.\n")
    expect(risky.remainingRisks.filter((x) => x.code === "destructive_command").map((x) => x.block)).toEqual(["steps.0", "steps.1"])
    const guarded = assess("# Clean\n\n1. Run `rm -rf build/` to start fresh.\n\nAlways ask the user to confirm before deleting files.\n")
    expect(guarded.remainingRisks.some((x) => x.code === "destructive_command")).toBe(false)
  })

  it("flags references to files the conversion lacks, not those its context has", () => {
    const content = "# Use\n\n1. Run `python scripts/check.py`.\n2. Read `reference/guide.md`.\n"
    const r = assess(content, [source("reference/guide.md", "# Guide\n", "context")])
    expect(r.remainingRisks.filter((x) => x.code === "missing_reference").map((x) => [x.message.includes("scripts/check.py"), x.block])).toEqual([[true, "steps.0"]])
  })

  it("reports source lines no block maps", () => {
    const r = assess("# T\n\nSome background nobody maps.\n\n## Steps\n1. Do the thing.\n2. Check the thing.\n\n## History\nWritten in 2019.\n")
    const cov = r.remainingRisks.find((x) => x.code === "unmapped_source_lines")!
    expect(cov.message).toMatch(/lines 10\b/)
  })
})
