/**
 * Issue 14 benchmark: the CPU cost of one mock review (every check, the improved version and the eval
 * kit) of a 10 KiB SKILL.md, in this process, as the worker runs it. Each review gets a text of its
 * own (a distinct word in every paragraph), so no per-document cache carries over between runs.
 * Goal: at most 20 ms of CPU per review. Also the whole seeded-defect harness (`npm run quality`).
 */
import { Option } from "effect"
import { runHarness } from "../quality/Harness.js"
import { reviewWithMock } from "../src/review/mock/MockReviewer.js"
import { getRubric } from "../src/review/rubrics/Registry.js"
import type { ReviewInput } from "../src/review/Types.js"
import { tenKibSkill } from "./audits.js"
import { percentile } from "./jobs.js"

const GOAL_MS = 20

const inputFor = (content: string): ReviewInput => ({
  mode: "file",
  artifactType: "skill",
  rubric: Option.getOrThrow(getRubric("skill")),
  target: { path: "SKILL.md", content, fileVersionId: "fv-skill", isPrimary: true },
  files: [
    { path: "SKILL.md", content, fileVersionId: "fv-skill", isPrimary: true },
    { path: "reference/template.md", content: "# Template\n", fileVersionId: "fv-template", isPrimary: false }
  ],
  modelTier: "cheap",
  reasoningEffort: "low",
  bundleName: "incident-review"
})

const variant = (base: string, i: number) => inputFor(base.replace(/\n\n/g, `\n\nRun ${i}. `))

export const reviewSection = async (): Promise<string> => {
  const base = tenKibSkill()
  for (let i = 0; i < 30; i++) reviewWithMock(variant(base, i)) // warm-up: JIT, regex compilation
  const runs = 200
  const inputs = Array.from({ length: runs }, (_, i) => variant(base, 1000 + i))
  const cpu: Array<number> = []
  const started = process.cpuUsage()
  for (const input of inputs) {
    const before = process.cpuUsage()
    reviewWithMock(input)
    const used = process.cpuUsage(before)
    cpu.push((used.user + used.system) / 1000)
  }
  const total = process.cpuUsage(started)
  const mean = (total.user + total.system) / 1000 / runs
  const p50 = percentile(cpu, 50)
  const p99 = percentile(cpu, 99)
  const harnessStarted = performance.now()
  const report = runHarness()
  const harnessMs = performance.now() - harnessStarted
  const reviews = report.skills.length + report.variants.length * 2 + report.variants.filter((v) => v.applied !== null).length * 2
  return [
    "| Measurement | Result | Goal |",
    "|---|---|---|",
    `| Mock review of a ${(Buffer.byteLength(inputs[0]!.target!.content) / 1024).toFixed(1)} KiB SKILL.md (${runs} reviews, each a distinct text), CPU per review | mean ${mean.toFixed(2)} ms, p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms | ≤ ${GOAL_MS} ms: **${mean <= GOAL_MS ? "met" : "missed"}** |`,
    `| Seeded-defect harness (\`npm run quality\`): ${report.variants.length} variants of ${report.skills.length} skills, ~${reviews} reviews | ${(harnessMs / 1000).toFixed(1)} s | — |`
  ].join("\n")
}
