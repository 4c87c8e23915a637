/**
 * Issue 11 benchmarks, against the bench service (role api) plus a worker process of its own:
 *   - a 10-case eval with the mock evaluator, start→completed at idle (job created_at → finished_at,
 *     the database clock), p50 and p99;
 *   - a proof report's creation→completed at idle with filesystem storage (signing and export
 *     included), p50 and p99;
 *   - downloads of a proof report's export per second (the signed document from object storage).
 */
import autocannon from "autocannon"
import { tenKibSkill } from "./audits.js"
import type { BenchContext } from "./harness.js"
import { api, grant, ms, percentile, sleep, startWorker, stopWorker, waitForJobs } from "./jobs.js"

/** One run at a time, each on an idle worker: the start, then its job to the end. */
const sequential = async (ctx: BenchContext, count: number, start: () => Promise<string>) => {
  const latencies: Array<number> = []
  for (let i = 0; i < count; i++) {
    const jobId = await start()
    latencies.push(...await waitForJobs(ctx, [jobId], "runs", 1))
    await sleep(5)
  }
  return latencies
}

const downloads = (ctx: BenchContext, path: string) =>
  new Promise<{ requestsPerSecond: number; p50: number; p99: number; non2xx: number }>((resolve, reject) =>
    autocannon(
      {
        url: `${ctx.urls.service}${path}`,
        connections: 10,
        duration: ctx.durationSeconds,
        headers: { authorization: `Bearer ${ctx.apiKey}` }
      } as autocannon.Options,
      (error, result) =>
        error
          ? reject(error)
          : resolve({ requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx })
    )
  )

export const evalsSection = async (ctx: BenchContext): Promise<string> => {
  const { worker, dataDir } = startWorker(ctx.databaseUrl)
  try {
    await grant(ctx, 1, 1_000_000)
    const bundle = (await api(ctx, "POST", "/artifact-bundles", { name: "bench-evals" })).artifactBundle
    const [skill] = (await api(ctx, "POST", `/artifact-bundles/${bundle.id}/files`, {
      files: [{ path: "SKILL.md", content: tenKibSkill() }, { path: "reference/template.md", content: "# Template\n" }]
    })).files
    await api(ctx, "PUT", `/artifact-bundles/${bundle.id}/files/${skill.file.id}`, {
      content: tenKibSkill().replace("5. Propose actions", "5. Propose concrete actions")
    })
    // ten cases of the kinds an eval kit holds: steps, scenarios, the trigger and a negative case
    const steps = ["Collect the timeline", "Identify the trigger", "Write the summary", "List the contributing factors", "Propose actions"]
    const testCases = [
      ...steps.map((step, i) => ({
        name: `Performs step ${i + 1}: ${step}`,
        input: "An incident is resolved and the on-call engineer asks for the review.",
        expectedBehavior: `The agent performs: ${step}.`,
        passCriteria: `The transcript shows "${step}" done, in order.`
      })),
      ...["the alert never fired", "the chat log is missing", "two releases rolled back"].map((condition) => ({
        type: "scenario",
        name: `Handles: ${condition}`,
        input: `During the review, ${condition}.`,
        expectedBehavior: "The agent says what it can verify and asks for what is missing.",
        passCriteria: "No invented facts; a question for the missing part."
      })),
      { name: "Applies to a resolved incident", input: "Write the review of yesterday's checkout outage.", expectedBehavior: "The agent runs the incident review.", passCriteria: "It follows the skill's steps." },
      { name: "Stays out of unrelated requests", input: "Translate 'good morning' into French.", expectedBehavior: "The agent answers directly.", passCriteria: "No incident review is started." }
    ]
    const body = { testCases }
    const startEval = async () => (await api(ctx, "POST", `/artifact-bundles/${bundle.id}/evals`, body)).jobId as string
    const evalRun = await api(ctx, "POST", `/artifact-bundles/${bundle.id}/evals/estimate`, body)
    if (evalRun.target.caseCount !== 10) throw new Error(`the bench eval has ${evalRun.target.caseCount} cases, not 10`)
    await sequential(ctx, 5, startEval) // warm-up
    const evals = await sequential(ctx, 100, startEval)

    const completed = await api(ctx, "POST", `/artifact-bundles/${bundle.id}/evals`, body)
    await waitForJobs(ctx, [completed.jobId], "evals", 1)
    let lastReport = ""
    const startReport = async () => {
      const data = await api(ctx, "POST", `/artifact-bundles/${bundle.id}/proof-reports`, { evalRunId: completed.evalRun.id })
      lastReport = data.proofReport.id
      return data.jobId as string
    }
    await sequential(ctx, 5, startReport)
    const reports = await sequential(ctx, 100, startReport)
    const report = await api(ctx, "GET", `/artifact-bundles/${bundle.id}/proof-reports/${lastReport}`)
    const exportPath = `/artifact-bundles/${bundle.id}/proof-reports/${lastReport}/export`
    await downloads(ctx, exportPath) // warm-up
    const download = await downloads(ctx, exportPath)
    if (download.non2xx > 0) throw new Error(`${download.non2xx} export downloads failed`)

    return [
      "| Measurement | Result | Goal |",
      "|---|---|---|",
      `| 10-case eval, mock evaluator, two 10 KiB versions, start→completed at idle (${evals.length} sequential) | p50 ${ms(percentile(evals, 50))} ms, p99 ${ms(percentile(evals, 99))} ms | p50 ≤ 300 ms |`,
      `| Proof report creation→completed at idle, filesystem storage (${reports.length} sequential; ${(report.proofReport.export.sizeBytes / 1024).toFixed(1)} KiB signed export) | p50 ${ms(percentile(reports, 50))} ms, p99 ${ms(percentile(reports, 99))} ms | p50 ≤ 200 ms |`,
      `| Export downloads, GET …/proof-reports/{id}/export (10 connections) | ${download.requestsPerSecond.toFixed(0)} req/s, p50 ${download.p50} ms, p99 ${download.p99} ms | — |`
    ].join("\n")
  } finally {
    await stopWorker(worker, dataDir)
  }
}
