/**
 * Stale-job recovery (src/jobs/Runner.ts, recoverStaleJobs): a running job whose worker stopped beating is
 * handed back while attempts remain, or failed with a refund at its last attempt; the lost worker's
 * graphile-worker job is unlocked only by the pass's commit, after the job is queued in our table (the
 * other order let a healthy worker claim the job and then see it moved back under it). The API role runs
 * no worker, so nothing but the pass touches the job here.
 */
import { JobId } from "../src/domain/Ids.js"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { AuditKind } from "../src/audits/Kind.js"
import { Ledger } from "../src/credits/Ledger.js"
import { Jobs } from "../src/jobs/Jobs.js"
import { RunKinds } from "../src/jobs/RunKind.js"
import { recoverStaleJobs } from "../src/jobs/Runner.js"
import { MockReviewerLive } from "../src/review/mock/MockReviewer.js"
import { makeTestApp, TestApp } from "./support/TestApp.js"
import { call, count, skillBundle } from "./support/fixtures.js"

/** An audit started over HTTP whose job is then made to look like a lost worker's, at `attempts`. */
const lostAudit = (name: string, attempts: number) =>
  Effect.gen(function*() {
    const app = yield* TestApp
    const token = yield* call((a) => a.token(name))
    const { bundleId } = yield* skillBundle(token)
    const started = yield* call((a) => a.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
    expect(started.status).toBe(202)
    const jobId: string = started.body.data.jobId
    const ghost = `ghost-${name}`
    yield* app.sql.unsafe(
      `UPDATE jobs SET state = 'running', attempts = $2, worker_id = $3, heartbeat_at = now() - interval '1 hour' WHERE id = $1`,
      [jobId, attempts, ghost]
    )
    yield* app.sql.unsafe(`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = $2 WHERE key = $1`, [jobId, ghost])
    return { token, jobId, runId: started.body.data.auditRun.id as string }
  }).pipe(Effect.orDie)

const graphileJob = (jobId: string) =>
  Effect.flatMap(TestApp, (app) =>
    app.sql.unsafe<{ lockedAt: Date | null; lockedBy: string | null }>(
      `SELECT locked_at, locked_by FROM graphile_worker._private_jobs WHERE key = $1`,
      [jobId]
    )).pipe(Effect.orDie, Effect.map((rows) => rows[0]))

/** What a worker's recovery pass runs with: the jobs service and the audit kind, on the test app's database. */
const JobsLive = Jobs.Default.pipe(
  Layer.provideMerge(RunKinds.layer(AuditKind).pipe(Layer.provide(MockReviewerLive))),
  Layer.provide(Ledger.Default)
)
const recover = recoverStaleJobs(Duration.minutes(1)).pipe(Effect.provide(JobsLive))

layer(makeTestApp({ role: "api" }))("stale-job recovery", (it) => {
  it.effect("with attempts left: the job is queued again with a worker_lost event, and its graphile-worker job unlocked", () =>
    Effect.gen(function*() {
      const { token, jobId } = yield* lostAudit("lost-early", 1)
      expect((yield* graphileJob(jobId))?.lockedBy).toBe("ghost-lost-early")
      expect(yield* recover).toBeGreaterThanOrEqual(1)
      const job = yield* call((a) => a.request("GET", `/jobs/${jobId}`, { token }))
      expect(job.body.data.job.state).toBe("queued")
      const events = yield* call((a) => a.request("GET", `/jobs/${jobId}/events`, { token }))
      expect(events.body.data.events.map((e) => e.kind)).toEqual(["queued", "worker_lost"])
      expect(yield* graphileJob(jobId)).toEqual({ lockedAt: null, lockedBy: null })
      // a second pass finds nothing of it to do
      yield* recover
      expect(yield* count("job_events", `job_id = '${jobId}' AND kind = 'worker_lost'`)).toBe(1)
    }))

  it.effect("at the last attempt: the job fails as worker_lost, the credits are refunded once, and it never runs again", () =>
    Effect.gen(function*() {
      const { token, jobId, runId } = yield* lostAudit("lost-late", 3)
      yield* recover
      const job = yield* call((a) => a.request("GET", `/jobs/${jobId}`, { token }))
      expect(job.body.data.job.state).toBe("failed")
      expect(job.body.data.job.error!.code).toBe("worker_lost")
      expect(yield* count("credit_ledger", `resource_id = '${runId}' AND type = 'refund'`)).toBe(1)
      const graphile = yield* graphileJob(jobId)
      expect(graphile === undefined || graphile.lockedBy === null).toBe(true)
      yield* recover
      expect(yield* count("credit_ledger", `resource_id = '${runId}' AND type = 'refund'`)).toBe(1)
    }))

  it.effect("a queued job fetched by a worker that died before claiming it is unlocked; a fresh lock is left alone", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const token = yield* call((a) => a.token("never-claimed"))
      const { bundleId } = yield* skillBundle(token)
      const started = yield* call((a) => a.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
      const jobId: string = started.body.data.jobId
      // locked by a worker long ago, never claimed in our table (it died between the fetch and the claim)
      yield* app.sql.unsafe(
        `UPDATE graphile_worker._private_jobs SET locked_at = now() - interval '2 minutes', locked_by = 'ghost-unclaimed' WHERE key = $1`,
        [jobId]
      ).pipe(Effect.orDie)
      const { bundleId: other } = yield* skillBundle(token)
      const fresh = yield* call((a) => a.request("POST", `/artifact-bundles/${other}/audits`, { token, body: {} }))
      // locked a moment ago by a live worker about to claim it
      yield* app.sql.unsafe(
        `UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'live-pool' WHERE key = $1`,
        [fresh.body.data.jobId]
      ).pipe(Effect.orDie)
      yield* recover
      expect(yield* graphileJob(jobId)).toEqual({ lockedAt: null, lockedBy: null })
      expect((yield* graphileJob(fresh.body.data.jobId))?.lockedBy).toBe("live-pool")
      const job = yield* call((a) => a.request("GET", `/jobs/${jobId}`, { token }))
      expect(job.body.data.job.state).toBe("queued")
    }))

  it.effect("a run that lost its job (handed back, claimed again elsewhere) can no longer move it: its claim no longer holds", () =>
    Effect.gen(function*() {
      const token = yield* call((a) => a.token("fenced"))
      const { bundleId } = yield* skillBundle(token)
      const started = yield* call((a) => a.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
      const jobId: string = started.body.data.jobId
      const claimAs = (workerId: string) =>
        Effect.flatMap(Jobs, (jobs) =>
          jobs.transition(JobId.make(jobId), {
            from: ["queued", "running"],
            state: "running",
            message: "Started.",
            kind: "started",
            attemptDelta: 1,
            workerId,
            resourceType: "audit_run"
          }))
      const first = yield* claimAs("pool-old").pipe(Effect.provide(JobsLive))
      const second = yield* claimAs("pool-new").pipe(Effect.provide(JobsLive))
      const old = { workerId: "pool-old", attempts: first!.attempts }
      const current = { workerId: "pool-new", attempts: second!.attempts }
      const outcome = (claim: typeof old) =>
        Effect.flatMap(Jobs, (jobs) =>
          jobs.transition(JobId.make(jobId), { claim, from: ["running"], state: "completed", message: "Completed.", result: { by: claim.workerId }, resourceType: "audit_run" })
        ).pipe(Effect.provide(JobsLive))
      const beat = (claim: typeof old) => Effect.flatMap(Jobs, (jobs) => jobs.heartbeat(JobId.make(jobId), claim)).pipe(Effect.provide(JobsLive))
      // the old run: its heartbeat says stop, its completion changes nothing
      expect(yield* beat(old)).toBe(false)
      expect(yield* outcome(old)).toBeUndefined()
      // the current one holds the job
      expect(yield* beat(current)).toBe(true)
      expect((yield* outcome(current))?.state).toBe("completed")
      const job = yield* call((a) => a.request("GET", `/jobs/${jobId}`, { token }))
      expect(job.body.data.job.result).toEqual({ by: "pool-new" })
    }))

  it.effect("two passes at once handle a lost job once", () =>
    Effect.gen(function*() {
      const { jobId } = yield* lostAudit("lost-twice", 1)
      yield* Effect.all([recover, recover], { concurrency: 2 })
      expect(yield* count("job_events", `job_id = '${jobId}' AND kind = 'worker_lost'`)).toBe(1)
    }))
})
