/**
 * Issue 10 benchmarks:
 *   - the rubr_flow validator on a ~10 KiB file, in this process on one core (validations/s);
 *   - a conversion's start→completed time at idle with the mock converter (one at a time: job
 *     created_at → finished_at, from the database clock), p50 and p99;
 *   - conversions per second end to end (HTTP start → job completed), with the audits section's
 *     harness: 8 concurrent clients, one worker process running 8 jobs at once.
 */
import { analyzeSources, planBlocks } from "../src/conversions/Analysis.js"
import { generateMock } from "../src/conversions/mock/MockConverter.js"
import type { ConversionInput } from "../src/conversions/Types.js"
import { renderFlow } from "../src/rubr_flow/Render.js"
import { validateText } from "../src/rubr_flow/Validator.js"
import { tenKibSkill } from "./audits.js"
import type { BenchContext } from "./harness.js"
import { api, grant, ms, percentile, sleep, startWorker, stopWorker, waitForJobs } from "./jobs.js"

/** A skill whose conversion is a realistic rubr_flow of about 10 KiB: many steps with commands, rules, failures. */
export const procedureSkill = () => {
  const steps = Array.from({ length: 10 }, (_, i) => {
    const n = i + 1
    return `${n}. Run \`make stage-${n} ENV=<environment>\` to prepare stage ${n} of the release and confirm that \`build/stage-${n}.ok\` exists.
   - Read the stage log in \`logs/stage-${n}.log\` and note any warning about deprecated flags.
   - If stage ${n} fails, collect the last 50 lines of the log and stop.`
  }).join("\n")
  return `---
name: staged-release
description: Runs the staged release of the service from build to rollout. Use when a maintainer asks to ship a new version.
---

# Staged release

Run every stage of the release in order, checking each one before the next starts.

## Inputs

- \`environment\`: the target environment (default \`staging\`)
- \`version\`: the version to ship

## Steps

${steps}

## Rules

- Never skip a stage, even when it looks unchanged.
- Always tag the release after the last stage passes.
- Never deploy to production on a Friday.

## Example

\`\`\`text
User: ship 2.4.0 to staging
Agent: Ran 10 stages; all passed. Tagged v2.4.0.
\`\`\`
`
}

const tenKibFlow = () => {
  const content = procedureSkill()
  const input: ConversionInput = {
    mode: "file",
    sources: [{ path: "SKILL.md", content, fileVersionId: "00000000-0000-4000-8000-000000000001", contentHash: "sha256:" + "0".repeat(64), artifactType: "skill", role: "artifact" }],
    bundleName: "staged-release",
    modelTier: "cheap",
    reasoningEffort: "low"
  }
  const analysis = analyzeSources(input)
  const draft = generateMock(input, analysis, planBlocks(analysis))
  return renderFlow(draft.document, { header: ["bench"] })
}

const validatorThroughput = (text: string, seconds: number) => {
  const check = validateText(text)
  if (!check.valid) throw new Error(`the bench flow is invalid: ${JSON.stringify(check.issues.slice(0, 3))}`)
  const until = performance.now() + 1000 // warm-up
  while (performance.now() < until) validateText(text)
  let n = 0
  const started = performance.now()
  const end = started + seconds * 1000
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++) validateText(text)
    n += 50
  }
  return n / ((performance.now() - started) / 1000)
}

const skillBundle = async (ctx: BenchContext, name: string, content: string) => {
  const bundle = (await api(ctx, "POST", "/artifact-bundles", { name })).artifactBundle
  await api(ctx, "POST", `/artifact-bundles/${bundle.id}/files`, {
    files: [{ path: "SKILL.md", content }, { path: "reference/template.md", content: "# Template\n" }]
  })
  return bundle.id as string
}

/** One conversion at a time: start, then wait for the job, so each runs on an idle worker. */
const idleLatency = async (ctx: BenchContext, bundleId: string, count: number) => {
  const latencies: Array<number> = []
  for (let i = 0; i < count; i++) {
    const data = await api(ctx, "POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions`, {})
    latencies.push(...await waitForJobs(ctx, [data.jobId], "conversions", 1))
    await sleep(5)
  }
  return latencies
}

const conversionsPerSecond = async (ctx: BenchContext, bundleId: string, conversions: number, concurrency: number) => {
  const started = performance.now()
  let next = 0
  const jobIds: Array<string> = []
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < conversions) {
      next++
      const data = await api(ctx, "POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions`, {})
      jobIds.push(data.jobId)
    }
  }))
  const latencies = await waitForJobs(ctx, jobIds, "conversions")
  const seconds = (performance.now() - started) / 1000
  return { perSecond: conversions / seconds, seconds, latencies }
}

export const conversionsSection = async (ctx: BenchContext): Promise<string> => {
  const flow = tenKibFlow()
  const validations = validatorThroughput(flow, Math.max(3, ctx.durationSeconds))
  const steps = (validateText(flow).flow?.steps.length ?? 0)

  const { worker, dataDir } = startWorker(ctx.databaseUrl)
  try {
    await grant(ctx, 1, 1_000_000)
    const bundleId = await skillBundle(ctx, "bench-conversions", tenKibSkill())
    await idleLatency(ctx, bundleId, 5) // the worker is up and warm
    const idle = await idleLatency(ctx, bundleId, 100)
    const rate = await conversionsPerSecond(ctx, bundleId, 200, 8)
    return [
      "| Measurement | Result | Goal |",
      "|---|---|---|",
      `| rubr_flow validator, ${(Buffer.byteLength(flow) / 1024).toFixed(1)} KiB file (${steps} steps), one core | ${validations.toFixed(0)} validations/s (${(1000 / validations).toFixed(2)} ms each) | ≥ 1,000/s |`,
      `| Conversion start→completed at idle, mock converter, 10 KiB SKILL.md (${idle.length} sequential) | p50 ${ms(percentile(idle, 50))} ms, p99 ${ms(percentile(idle, 99))} ms | p50 ≤ 150 ms |`,
      `| Conversions end to end, mock converter, 10 KiB SKILL.md (200 conversions, 8 concurrent clients, 1 worker × 8) | ${rate.perSecond.toFixed(1)} conversions/s (${rate.seconds.toFixed(1)} s); queue→done p50 ${ms(percentile(rate.latencies, 50))} ms, p99 ${ms(percentile(rate.latencies, 99))} ms | — |`
    ].join("\n")
  } finally {
    await stopWorker(worker, dataDir)
  }
}
