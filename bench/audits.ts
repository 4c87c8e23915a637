/**
 * Issue 4 benchmarks, against the bench service (role api) plus a worker process of its own:
 *   - job pickup latency: from graphile_worker.add_job (the job row's created_at) to the task starting,
 *     both read from the database clock, for sequential heartbeat probes;
 *   - audits per second end to end with the mock reviewer on a 10 KiB SKILL.md bundle (HTTP start →
 *     job completed), and each audit's queue-to-done time: 200 on cold processes, then the steady rate
 *     over 2,000 after 800 more; and one audit at a time at idle (issue 16). With BENCH_COMPARE_WITH,
 *     the compared checkout's API process and a worker of its own (the only one running then) first;
 *   - GET /credits (the balance read) with 10 and with 1,000,000 ledger events.
 */
import * as Path from "node:path"
import autocannon from "autocannon"
import { allScopes } from "../src/auth/Scopes.js"
import { generateRawKey, hashKey } from "../src/identity/ApiKeys.js"
import { type BenchContext, root } from "./harness.js"
import { api, grant, ms, percentile, sleep, startWorker, stopWorker, waitForJobs } from "./jobs.js"

/** A realistic skill padded to ~10 KiB: frontmatter, steps, examples, references. */
export const tenKibSkill = () => {
  const head = `---
name: incident-review
description: Runs a blameless incident review from the timeline and chat logs. Use when an incident is resolved and a review is due.
---

# Incident review

Turn the incident timeline, alerts and chat logs into a blameless review with actions.

## When to use

Use after an incident is resolved and the on-call engineer asks for the review document.

## Steps

1. Collect the timeline from the incident channel and the alerting tool.
2. Identify the trigger, the detection gap and the mitigation, see [the template](reference/template.md).
3. Write the summary in three sentences for the status page.
4. List the contributing factors; avoid naming people.
5. Propose actions with an owner and a due date for each.

`
  let body = head
  let i = 1
  while (Buffer.byteLength(body) < 10 * 1024 - 400) {
    body += `## Example ${i}

\`\`\`md
### Timeline ${i}
- 10:0${i % 10} alert fired for error rate above 5% on checkout
- 10:1${i % 10} on-call acknowledged and rolled back release ${i}
\`\`\`

The review should explain why detection took as long as it did, and which dashboard would have shown it sooner.

`
    i++
  }
  return body + "## References\n\n- [Template](reference/template.md)\n"
}

const pickupLatency = async (ctx: BenchContext, probes: number) => {
  const latencies: Array<number> = []
  for (let i = 0; i < probes; i++) {
    const { rows: [{ before }] } = await ctx.pool.query(`SELECT count(*)::int AS before FROM worker_pickups`)
    await ctx.pool.query(
      `SELECT graphile_worker.add_job('rubr_heartbeat', json_build_object('probe', true, 'enqueuedAt', clock_timestamp()))`
    )
    for (let waited = 0; waited < 10_000; waited += 2) {
      const { rows: [{ n }] } = await ctx.pool.query(`SELECT count(*)::int AS n FROM worker_pickups`)
      if (n > before) break
      await sleep(2)
    }
    await sleep(5)
  }
  const { rows } = await ctx.pool.query(
    `SELECT extract(epoch FROM (started_at - enqueued_at)) * 1000 AS ms FROM worker_pickups ORDER BY id DESC LIMIT $1`,
    [probes]
  )
  for (const row of rows) latencies.push(Number(row.ms))
  return latencies
}

const auditsPerSecond = async (ctx: BenchContext, audits: number, concurrency: number) => {
  const bundle = (await api(ctx, "POST", "/artifact-bundles", { name: "bench-audits" })).artifactBundle
  await api(ctx, "POST", `/artifact-bundles/${bundle.id}/files`, {
    files: [{ path: "SKILL.md", content: tenKibSkill() }, { path: "reference/template.md", content: "# Template\n" }]
  })
  const started = performance.now()
  let next = 0
  const jobIds: Array<string> = []
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < audits) {
      next++
      const data = await api(ctx, "POST", `/artifact-bundles/${bundle.id}/audits`, { force: true })
      jobIds.push(data.jobId)
    }
  }))
  const latencies = await waitForJobs(ctx, jobIds, "audits")
  const seconds = (performance.now() - started) / 1000
  return { perSecond: audits / seconds, seconds, latencies }
}

/** `count` audits one after another, each started once the previous completed: their start→completed times. */
const idleAudits = async (ctx: BenchContext, count: number) => {
  const bundle = (await api(ctx, "POST", "/artifact-bundles", { name: "bench-audits-idle" })).artifactBundle
  await api(ctx, "POST", `/artifact-bundles/${bundle.id}/files`, { files: [{ path: "SKILL.md", content: tenKibSkill() }] })
  const times: Array<number> = []
  for (let i = 0; i < count + 5; i++) {
    const { jobId } = await api(ctx, "POST", `/artifact-bundles/${bundle.id}/audits`, { force: true })
    const [latency] = await waitForJobs(ctx, [jobId], "audits", 2)
    if (i >= 5) times.push(latency!) // the first few warm the path up
    await sleep(20)
  }
  return times
}

/** A second user with its own all-scopes key, so two ledger sizes can be measured side by side. */
const secondUser = async (ctx: BenchContext) => {
  const raw = generateRawKey()
  const { rows: [user] } = await ctx.pool.query(`INSERT INTO users (email) VALUES ('bench-ledger@rubr.local') RETURNING id`)
  await ctx.pool.query(
    `INSERT INTO api_keys (user_id, name, prefix, key_hash, scopes) VALUES ($1, 'bench-ledger', $2, $3, $4)`,
    [user.id, raw.slice(0, 12), hashKey(raw), [...allScopes]]
  )
  return { userId: user.id as string, apiKey: raw }
}

interface Read {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
}

const readCredits = (ctx: BenchContext, apiKey: string) =>
  new Promise<Read>((resolve, reject) =>
    autocannon(
      {
        url: `${ctx.urls.service}/credits?limit=10`,
        connections: 10,
        duration: ctx.durationSeconds,
        headers: { authorization: `Bearer ${apiKey}` }
      } as autocannon.Options,
      (error, result) =>
        error ? reject(error) : resolve({ requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 })
    )
  )

/** Alternating rounds, best run of each kept, so load from elsewhere does not land on one side only. */
const balanceReads = async (ctx: BenchContext, small: string, large: string) => {
  const best: Record<"small" | "large", Read | undefined> = { small: undefined, large: undefined }
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (["small", "large"] as const) : (["large", "small"] as const)
    for (const which of order) {
      await readCredits(ctx, which === "small" ? small : large) // warm-up
      const read = await readCredits(ctx, which === "small" ? small : large)
      if (!best[which] || read.requestsPerSecond > best[which]!.requestsPerSecond) best[which] = read
    }
  }
  return { small: best.small!, large: best.large! }
}

/**
 * The balance read's SQL alone (what GET /credits runs after authentication: balance row, newest 10
 * ledger events, today's spend row), timed from this process for both users in interleaved batches,
 * so HTTP-stack noise cannot hide or fake a dependence on ledger size.
 */
const balanceSql = async (ctx: BenchContext, userIds: Record<"small" | "large", string>, iterations: number) => {
  const client = await ctx.pool.connect()
  const read = async (userId: string) => {
    await client.query(`SELECT balance, granted, debited, refunded FROM credit_balances WHERE user_id = $1`, [userId])
    await client.query(
      `SELECT id, type, amount, reason, resource_type, resource_id, balance_after, created_at FROM credit_ledger
       WHERE user_id = $1 ORDER BY seq DESC LIMIT 10`,
      [userId]
    )
    await client.query(
      `SELECT net FROM credit_daily_spend WHERE scope = 'user' AND scope_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date`,
      [userId]
    )
  }
  const times: Record<"small" | "large", Array<number>> = { small: [], large: [] }
  try {
    for (let i = 0; i < iterations; i++) {
      for (const which of i % 2 === 0 ? (["small", "large"] as const) : (["large", "small"] as const)) {
        const started = performance.now()
        await read(userIds[which])
        times[which].push(performance.now() - started)
      }
    }
  } finally {
    client.release()
  }
  return times
}

/** The audit measurements on one side: the service and a worker of this checkout, or the compared one's. */
const auditRates = async (ctx: BenchContext, target: "service" | "baseline", checkout: string) => {
  // the side's API process answers the starts; its worker (only one runs at a time) runs the jobs
  const on: BenchContext = { ...ctx, urls: { ...ctx.urls, service: ctx.urls[target] } }
  const { worker, dataDir } = startWorker(ctx.databaseUrl, checkout)
  try {
    await pickupLatency(ctx, 3) // the worker is ready once it has picked up a probe
    // one audit at a time on an idle service and worker: start→completed on the database's clock
    const idle = await idleAudits(on, 30)
    // the first 200 run on a service and a worker whose audit path V8 has not optimized yet (what a CI job
    // hitting a fresh deployment sees); then, after 800 more to warm up, the steady rate over 2,000
    const cold = await auditsPerSecond(on, 200, 8)
    await auditsPerSecond(on, 800, 8)
    const steady = await auditsPerSecond(on, 2000, 8)
    return { idle, cold, steady }
  } finally {
    await stopWorker(worker, dataDir)
  }
}

export const auditsSection = async (ctx: BenchContext): Promise<string> => {
  const { worker, dataDir } = startWorker(ctx.databaseUrl)
  let pickups: Array<number>
  let ledger: string[]
  try {
    // the worker is ready once it has picked up a probe
    await pickupLatency(ctx, 3)
    pickups = await pickupLatency(ctx, 200)

    // the bench user holds the large ledger; a fresh second user the small one
    const smallUser = await secondUser(ctx)
    await grant(ctx, 10, 100_000, smallUser.userId)
    await grant(ctx, 10, 100_000)
    await grant(ctx, 1_000_000 - 10, 1)
    // let autovacuum's work after a million inserts not land inside the measurement
    await ctx.pool.query("VACUUM ANALYZE credit_ledger")
    const count = async (userId: string) =>
      (await ctx.pool.query(`SELECT count(*)::int AS n FROM credit_ledger WHERE user_id = $1`, [userId])).rows[0].n as number
    const [few, many] = [await count(smallUser.userId), await count(ctx.userId)]
    const { small: balanceFew, large: balanceMany } = await balanceReads(ctx, smallUser.apiKey, ctx.apiKey)
    const sqlTimes = await balanceSql(ctx, { small: smallUser.userId, large: ctx.userId }, 3000)
    ledger = [
      `| GET /credits?limit=10 with ${few} ledger events | ${balanceFew.requestsPerSecond.toFixed(0)} req/s, p50 ${balanceFew.p50} ms, p99 ${balanceFew.p99} ms | — |`,
      `| GET /credits?limit=10 with ${many.toLocaleString("en-US")} ledger events | ${balanceMany.requestsPerSecond.toFixed(0)} req/s, p50 ${balanceMany.p50} ms, p99 ${balanceMany.p99} ms | not slower than with ${few} |`,
      `| Balance read SQL alone (3 statements, 3,000 interleaved reads each), ${few} events | p50 ${(percentile(sqlTimes.small, 50) * 1000).toFixed(0)} µs, p99 ${(percentile(sqlTimes.small, 99) * 1000).toFixed(0)} µs | — |`,
      `| Balance read SQL alone, ${many.toLocaleString("en-US")} events | p50 ${(percentile(sqlTimes.large, 50) * 1000).toFixed(0)} µs, p99 ${(percentile(sqlTimes.large, 99) * 1000).toFixed(0)} µs | not slower than with ${few} |`
    ]
  } finally {
    await stopWorker(worker, dataDir)
  }

  // with BENCH_COMPARE_WITH, the compared checkout's service and worker first, on the same database
  const compareWith = process.env.BENCH_COMPARE_WITH
  const before = compareWith ? await auditRates(ctx, "baseline", Path.resolve(compareWith)) : undefined
  const after = await auditRates(ctx, "service", root)
  type Rate = Awaited<ReturnType<typeof auditsPerSecond>>
  const rate = (r: Rate) =>
    `${r.perSecond.toFixed(1)} audits/s (${r.seconds.toFixed(1)} s); queue→done p50 ${ms(percentile(r.latencies, 50))} ms, p99 ${ms(percentile(r.latencies, 99))} ms`
  const idle = (times: ReadonlyArray<number>) => `p50 ${ms(percentile(times, 50))} ms, p99 ${ms(percentile(times, 99))} ms`
  const sides = (of: (side: Awaited<ReturnType<typeof auditRates>>) => string) =>
    before ? `${of(after)}; **before** (${compareWith}): ${of(before)}` : of(after)

  return [
    "| Measurement | Result | Goal |",
    "|---|---|---|",
    `| Job pickup latency (add_job → task start, ${pickups.length} sequential probes) | p50 ${ms(percentile(pickups, 50))} ms, p99 ${ms(percentile(pickups, 99))} ms, max ${ms(Math.max(...pickups))} ms | p50 < 10 ms, p99 < 50 ms |`,
    `| Audits end to end, mock reviewer, 10 KiB SKILL.md (200 audits, 8 concurrent clients, 1 worker × 8), on cold processes | ${sides((s) => rate(s.cold))} | — |`,
    `| The same, steady state: 2,000 audits after 1,000 to warm up | ${sides((s) => rate(s.steady))} | ≥ 200 audits/s (issue 16) |`,
    `| One audit at a time at idle (30 audits, start→completed on the database clock) | ${sides((s) => idle(s.idle))} | p50 ≤ 50 ms (issue 16) |`,
    ...ledger
  ].join("\n")
}
