/**
 * Issue 16: the audit pipeline with fewer round trips. Progress events are buffered and written with the
 * next write of their job (in order, numbered from the job's counter), a long job's events still appear
 * while it runs, concurrent writes of one job never share a sequence number, and the ledger's
 * two-statement append keeps its guarantees (replays, no overdraft, a first event for a new user).
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { AuditKind } from "../src/audits/Kind.js"
import { Ledger } from "../src/credits/Ledger.js"
import { Jobs, type PendingEvent } from "../src/jobs/Jobs.js"
import { declareRunKind, RunKinds } from "../src/jobs/RunKind.js"
import { runTrackedJob } from "../src/jobs/Runner.js"
import { JobId } from "../src/domain/Ids.js"
import { MockReviewerLive } from "../src/review/mock/MockReviewer.js"
import { makeTestApp, sleep, TestApp } from "./support/TestApp.js"
import { balanceMatchesLedger, call, skillBundle, waitForJob } from "./support/fixtures.js"
import { openJson } from "./support/Api.js"

interface EventRow {
  readonly sequence: number
  readonly kind: string
  readonly state: string
  readonly phase: string
  readonly percent: number
  readonly message: string
  readonly createdAt: Date
}

const eventsOf = (jobId: string) =>
  Effect.flatMap(TestApp, (app) =>
    app.sql<EventRow>`SELECT sequence, kind, state, phase, percent, message, created_at FROM job_events
                      WHERE job_id = ${jobId} ORDER BY sequence`.pipe(Effect.orDie))

const startAudit = (token: string, bundleId: string) =>
  Effect.map(call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: { force: true } })), (reply) => {
    expect(reply.status).toBe(202)
    return reply.body.data as {
      jobId: string
      job: Record<string, unknown>
      auditRun: { id: string; summary: { estimate: { estimatedCredits: number } } }
    }
  })

const expectAuditEvents = (events: ReadonlyArray<EventRow>) => {
  expect(events.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6])
  expect(events.map((e) => [e.kind, e.state, e.phase, Number(e.percent)])).toEqual([
    ["queued", "queued", "preparing_context", 0],
    ["started", "running", "preparing_context", 5],
    ["progress", "running", "preparing_context", 10],
    ["progress", "running", "scoring", 30],
    ["progress", "running", "writing_results", 85],
    ["completed", "completed", "completed", 100]
  ])
  expect(events[2]!.message).toMatch(/^Loading 2 input file version/)
  expect(events[3]!.message).toMatch(/^Scoring against /)
  expect(events[4]!.message).toMatch(/^Scored [\d.]+\/100 with \d+ finding/)
  // each event's time is when it happened, in order, even when written together with later ones
  const times = events.map((e) => e.createdAt.getTime())
  expect([...times].sort((a, b) => a - b)).toEqual(times)
}

layer(makeTestApp({ role: "all" }))("a short audit", (it) => {
  it.effect("writes its progress with its completion: six events in order, numbered 1 to 6; the run and the ledger as before", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("quick"))
      const { bundleId } = yield* skillBundle(token)
      for (let round = 0; round < 3; round++) {
        // the same input every round: the second and third review come from the mock's memo
        const started = yield* startAudit(token, bundleId)
        const job = yield* waitForJob(token, started.jobId)
        expect(job.state).toBe("completed")
        expect(job.result).toMatchObject({ auditRunId: started.auditRun.id })
        expectAuditEvents(yield* eventsOf(started.jobId))
        const api = yield* call((app) => app.request("GET", `/jobs/${started.jobId}/events`, { token }))
        expect(api.body.data.events.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6])
        const run = (yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits/${started.auditRun.id}`, { token }))).body.data.auditRun
        expect(run.status).toBe("completed")
        expect(run.completedAt).not.toBeNull()
        expect(run.overallScore).toBe(openJson(job.result).overallScore)
        expect(run.findings.length).toBe(openJson(job.result).findingCount)
        expect(run.finalChargedCredits).toBe(started.auditRun.summary.estimate.estimatedCredits)
        expect(run.reconciliation).toMatchObject({ status: "not_applicable", refundedCredits: 0 })
        expect(run.resultMetadata).toMatchObject({ provider: "mock" })
      }
      expect(yield* balanceMatchesLedger).toBeGreaterThan(0)
    }))
})

layer(makeTestApp({ role: "all", env: { SERVICE_MOCK_REVIEW_DELAY_MS: "1500" } }))("a long audit", (it) => {
  it.effect("shows its progress while it runs: buffered events are written within the flush interval", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("patient"))
      const { bundleId } = yield* skillBundle(token)
      const started = yield* startAudit(token, bundleId)
      yield* waitForJob(token, started.jobId, ["running"])
      // the review takes 1.5 s; the scoring phase is visible long before it ends
      let seen: ReadonlyArray<EventRow> = []
      for (let i = 0; i < 40 && !seen.some((e) => e.phase === "scoring"); i++) {
        yield* sleep(25)
        seen = yield* eventsOf(started.jobId)
      }
      expect(seen.map((e) => e.phase)).toEqual(["preparing_context", "preparing_context", "preparing_context", "scoring"])
      const job = (yield* call((app) => app.request("GET", `/jobs/${started.jobId}`, { token }))).body.data.job
      expect(job).toMatchObject({ state: "running", phase: "scoring", percent: 30 })
      expect((yield* waitForJob(token, started.jobId)).state).toBe("completed")
      expectAuditEvents(yield* eventsOf(started.jobId))
    }), { timeout: 30_000 })
})

/** The jobs service on the test app's database, with the audit kind registered. */
const JobsLive = Jobs.Default.pipe(
  Layer.provideMerge(RunKinds.layer(AuditKind).pipe(Layer.provide(MockReviewerLive))),
  Layer.provide(Ledger.Default)
)

layer(makeTestApp({ role: "api" }))("job transitions and the ledger", (it) => {
  it.effect("concurrent writes of one job, each with a batch of events, never share a sequence number and keep each batch in order", () =>
    Effect.gen(function*() {
      const jobs = yield* Jobs
      const token = yield* call((app) => app.token("writer"))
      const { bundleId } = yield* skillBundle(token)
      const started = yield* startAudit(token, bundleId) // no worker here: the job stays queued
      // the 202's job and run (one statement inserted both) are the rows as stored
      const job = yield* call((app) => app.request("GET", `/jobs/${started.jobId}`, { token }))
      expect(job.body.data.job).toEqual(started.job)
      const list = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits`, { token }))
      expect(list.body.data.auditRuns).toEqual([started.auditRun])
      const claimed = yield* jobs.transition(JobId.make(started.jobId), {
        from: ["queued"],
        state: "running",
        phase: "preparing_context",
        percent: 5,
        message: "Started.",
        kind: "started",
        attemptDelta: 1,
        workerId: "test",
        resourceType: "audit_run"
      })
      expect(claimed?.state).toBe("running")
      const pending = (writer: number, n: number): Array<PendingEvent> =>
        Array.from({ length: n }, (_, i) => ({ kind: "progress", phase: `w${writer}`, percent: 10, message: `${writer}.${i}`, at: performance.now() }))
      yield* Effect.forEach(
        Array.from({ length: 12 }, (_, writer) => writer),
        (writer) =>
          jobs.transition(JobId.make(started.jobId), {
            from: ["running"],
            state: "running",
            phase: `w${writer}`,
            percent: 20,
            message: `${writer}.last`,
            kind: "progress",
            pending: pending(writer, writer % 4),
            resourceType: "audit_run"
          }),
        { concurrency: "unbounded" }
      )
      const events = yield* eventsOf(started.jobId)
      const expected = 2 + Array.from({ length: 12 }, (_, w) => (w % 4) + 1).reduce((a, b) => a + b, 0)
      expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: expected }, (_, i) => i + 1))
      for (let writer = 0; writer < 12; writer++) {
        const mine = events.filter((e) => e.phase === `w${writer}`)
        expect(mine.map((e) => e.message)).toEqual([...pending(writer, writer % 4).map((p) => p.message), `${writer}.last`])
        // one statement wrote them: consecutive numbers
        expect(mine.map((e) => e.sequence - mine[0]!.sequence)).toEqual(mine.map((_, i) => i))
      }
      // a refused transition writes nothing
      const done = yield* jobs.transition(JobId.make(started.jobId), { from: ["queued"], state: "running", message: "no", resourceType: "audit_run" })
      expect(done).toBeUndefined()
      expect((yield* eventsOf(started.jobId)).length).toBe(expected)
      // the run's status followed the claim; progress did not touch it
      const [run] = yield* Effect.flatMap(TestApp, (app) =>
        app.sql<{ status: string }>`SELECT status FROM audit_runs WHERE id = ${started.auditRun.id}`.pipe(Effect.orDie))
      expect(run!.status).toBe("running")
    }).pipe(Effect.provide(JobsLive)))

  it.effect("a transaction that completes a job while a flush of its progress is due does not wait for that flush (no deadlock)", () =>
    Effect.gen(function*() {
      const jobs = yield* Jobs
      const app = yield* TestApp
      const token = yield* call((a) => a.token("locker"))
      const { bundleId } = yield* skillBundle(token)
      const started = yield* startAudit(token, bundleId)
      // a kind whose result write holds the bundle row lock (as a conversion writing its output file
      // does) past the moment its buffered progress event is due; a job event's foreign key needs that row
      const kind = declareRunKind({
        ...AuditKind,
        work: (ctx) =>
          Effect.gen(function*() {
            yield* ctx.phase("scoring", "buffered: within the flush interval of the claim")
            return yield* ctx.complete(Effect.gen(function*() {
              yield* app.sql`SELECT id FROM artifact_bundles WHERE id = ${bundleId} FOR UPDATE`.pipe(Effect.orDie)
              yield* sleep(600)
              return { done: true }
            }))
          })
      })
      yield* runTrackedJob(kind, JobId.make(started.jobId), "test").pipe(Effect.timeout("10 seconds"))
      const job = yield* jobs.find(JobId.make(started.jobId))
      expect(job?.state).toBe("completed")
      expect((yield* eventsOf(started.jobId)).map((e) => [e.sequence, e.kind, e.phase])).toEqual([
        [1, "queued", "preparing_context"],
        [2, "started", "preparing_context"],
        [3, "progress", "scoring"],
        [4, "completed", "completed"]
      ])
    }).pipe(Effect.provide(JobsLive)), { timeout: 30_000 })

  it.effect("the ledger: one event per key under concurrency (the rest replay it), no overdraft, a first event for a new user", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger
      const app = yield* TestApp
      const [user] = yield* app.sql<{ id: string }>`INSERT INTO users (email) VALUES ('ledger@rubr.test') RETURNING id`.pipe(Effect.orDie)
      const userId = user!.id
      // no balance row yet, no transaction around it: the append makes both
      const grant = yield* ledger.append({ userId, type: "grant", amount: 10, reason: "test_grant", idempotencyKey: `grant:${userId}` })
      expect(grant).toMatchObject({ replayed: false, event: { type: "grant", amount: 10, balanceAfter: 10 } })
      // 20 concurrent refunds with one key (a cancel racing a failure): one is written, 19 replay it
      const refunds = yield* Effect.forEach(
        Array.from({ length: 20 }, () => 0),
        () =>
          app.sql.withTransaction(
            ledger.append({ userId, type: "refund", amount: 2, reason: "test_refund", idempotencyKey: `refund:${userId}` })
          ),
        { concurrency: "unbounded" }
      )
      expect(refunds.filter((r) => !r.replayed)).toHaveLength(1)
      expect(new Set(refunds.map((r) => r.event.id)).size).toBe(1)
      // 20 concurrent debits of 5 from 12: exactly two fit
      const debits = yield* Effect.forEach(
        Array.from({ length: 20 }, (_, i) => i),
        (i) =>
          app.sql.withTransaction(ledger.append({
            userId,
            type: "debit",
            amount: 5,
            reason: "test_debit",
            idempotencyKey: `debit:${userId}:${i}`,
            aiSpendBundleId: null
          })).pipe(Effect.either),
        { concurrency: "unbounded" }
      )
      expect(debits.filter((d) => d._tag === "Right")).toHaveLength(2)
      for (const d of debits) if (d._tag === "Left") expect(d.left._tag).toBe("CreditLimitExceeded")
      expect(yield* ledger.balance(userId)).toEqual({ balance: 2, granted: 10, debited: 10, refunded: 2 })
      // a replayed debit answers the first event even when the balance could not pay it again
      const first = debits.find((d) => d._tag === "Right")!
      const key = first._tag === "Right" ? first.right.event : undefined
      const replay = yield* ledger.recent(userId, 50).pipe(
        Effect.map((events) => events.find((e) => e.id === key?.id)!),
        Effect.flatMap((event) =>
          ledger.append({ userId, type: "debit", amount: 5, reason: "test_debit", idempotencyKey: `debit:${userId}:${debits.indexOf(first)}` }).pipe(
            Effect.map((r) => [r.replayed, r.event.id === event.id])
          )
        )
      )
      expect(replay).toEqual([true, true])
      // `fresh` (a key made in this transaction: one statement): the same answers
      const [other] = yield* app.sql<{ id: string }>`INSERT INTO users (email) VALUES ('fresh@rubr.test') RETURNING id`.pipe(Effect.orDie)
      const otherId = other!.id
      const freshGrant = yield* ledger.append({ userId: otherId, type: "grant", amount: 7, reason: "test_grant", idempotencyKey: `grant:${otherId}` }, { fresh: true })
      expect(freshGrant).toMatchObject({ replayed: false, event: { balanceAfter: 7 } })
      const freshDebits = yield* Effect.forEach(
        Array.from({ length: 10 }, (_, i) => i),
        (i) =>
          app.sql.withTransaction(ledger.append({
            userId: otherId,
            type: "debit",
            amount: 3,
            reason: "test_debit",
            idempotencyKey: `debit:${otherId}:${i}`,
            aiSpendBundleId: null
          }, { fresh: true })).pipe(Effect.either),
        { concurrency: "unbounded" }
      )
      expect(freshDebits.filter((d) => d._tag === "Right")).toHaveLength(2)
      for (const d of freshDebits) if (d._tag === "Left") expect(d.left._tag).toBe("CreditLimitExceeded")
      const again = yield* ledger.append({ userId: otherId, type: "grant", amount: 7, reason: "test_grant", idempotencyKey: `grant:${otherId}` }, { fresh: true })
      expect([again.replayed, again.event.id]).toEqual([true, freshGrant.event.id])
      expect(yield* ledger.balance(otherId)).toEqual({ balance: 1, granted: 7, debited: 6, refunded: 0 })
      expect(yield* balanceMatchesLedger).toBeGreaterThan(1)
    }).pipe(Effect.provide(Ledger.Default)))
})
