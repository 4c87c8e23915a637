/**
 * Issue 4: a worker process killed mid-job (SIGKILL, no drain) leaves the job to be retried by another
 * worker, which finishes it; the debit stays charged exactly once.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { makeTestApp, sleep, TestApp } from "./support/TestApp.js"
import { call, count, skillBundle, waitForJob } from "./support/fixtures.js"

const startWorker = (databaseUrl: string, env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.sync(() =>
      spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          SERVICE_ROLE: "worker",
          SERVICE_LOG_LEVEL: "WARN",
          SERVICE_WORKER_POLL_INTERVAL_MS: "200",
          SERVICE_JOB_STALE_AFTER_MS: "1500",
          ...env
        },
        stdio: ["ignore", "inherit", "inherit"]
      })
    ),
    (child: ChildProcess) => Effect.sync(() => child.exitCode === null && child.kill("SIGKILL"))
  )

layer(makeTestApp({ role: "api" }))("worker crash", (it) => {
  it.scoped("a job whose worker is killed mid-run is retried elsewhere, completes, and is charged once", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const token = yield* call((a) => a.token("crash-victim"))
      const { bundleId } = yield* skillBundle(token)
      const doomed = yield* startWorker(app.databaseUrl, { SERVICE_MOCK_REVIEW_DELAY_MS: "60000" })
      const started = yield* call((a) => a.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
      expect(started.status).toBe(202)
      const jobId = started.body.data.jobId
      yield* waitForJob(token, jobId, ["running"])
      doomed.kill("SIGKILL")
      yield* sleep(300)
      // a healthy worker notices the missing heartbeat, hands the job back, and runs it
      yield* startWorker(app.databaseUrl, { SERVICE_MOCK_REVIEW_DELAY_MS: "0" })
      const job = yield* waitForJob(token, jobId)
      expect(job.state).toBe("completed")
      expect(job.attempts).toBe(2)
      const events = yield* call((a) => a.request("GET", `/jobs/${jobId}/events`, { token }))
      expect(events.body.data.events.map((e) => e.kind)).toContain("worker_lost")
      const runId = started.body.data.auditRun.id
      expect(yield* count("credit_ledger", `resource_id = '${runId}' AND type = 'debit'`)).toBe(1)
      expect(yield* count("credit_ledger", `resource_id = '${runId}' AND type = 'refund'`)).toBe(0)
      const run = yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/audits/${runId}`, { token }))
      expect(run.body.data.auditRun.status).toBe("completed")
    }), { timeout: 120_000 })
})
