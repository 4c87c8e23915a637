/**
 * Issue 15 benchmark, load and memory, on the file read (`GET /artifact-bundles/{id}/files/{fileId}`,
 * a 4 KiB file, API key, as in the files section's (a)):
 *   - 1,000 concurrent keep-alive connections (BENCH_LOAD_CONNECTIONS) from autocannon make 100,000
 *     requests in all (BENCH_LOAD_REQUESTS; 100 per connection): every answer must be a 2xx, with no
 *     socket error, reset or timeout (10 s); p50/p99/max latency and requests/s are reported;
 *   - the service process's RSS (VmRSS from /proc/<pid>/status) is sampled every 100 ms during that
 *     run: the peak must stay at most 300 MB; the file descriptors it holds are sampled too, to show
 *     the connections were all open at once;
 *   - the service's heap used after full GCs (bench/heap-probe.ts, SIGUSR2) is read after a warm-up
 *     (including one round of 1,000 connections) and again after the 100,000 requests: it must be
 *     back where it started, within max(5 MB, 10%).
 */
import autocannon from "autocannon"
import * as Fs from "node:fs"
import { content4k, seedBundle } from "./files.js"
import type { BenchContext } from "./harness.js"
import type { HeapReport, HeapSample } from "./heap-probe.js"
import { sleep } from "./jobs.js"

const MB = 1024 * 1024
const RSS_GOAL_MB = 300
const HEAP_TOLERANCE_BYTES = 5 * MB
const HEAP_TOLERANCE_SHARE = 0.1

/** VmRSS of a process in bytes (Linux); NaN elsewhere. */
const rss = (pid: number | undefined) => {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(Fs.readFileSync(`/proc/${pid}/status`, "utf8"))
    return match ? Number(match[1]) * 1024 : Number.NaN
  } catch {
    return Number.NaN
  }
}

/** How many file descriptors a process holds (sockets, mostly, under load); NaN off Linux. */
const fds = (pid: number | undefined) => {
  try {
    return Fs.readdirSync(`/proc/${pid}/fd`).length
  } catch {
    return Number.NaN
  }
}

/** Samples RSS every 100 ms and the descriptor count every 500 ms until stopped. */
const sampler = (pid: number | undefined) => {
  let peakRss = rss(pid)
  let peakFds = fds(pid)
  let samples = 0
  const rssTimer = setInterval(() => {
    const now = rss(pid)
    samples++
    if (!(now <= peakRss)) peakRss = now
  }, 100)
  const fdTimer = setInterval(() => {
    const now = fds(pid)
    if (!(now <= peakFds)) peakFds = now
  }, 500)
  return () => {
    clearInterval(rssTimer)
    clearInterval(fdTimer)
    return { peakRss, peakFds, samples }
  }
}

const blast = (ctx: BenchContext, url: string, options: { connections: number; amount?: number; duration?: number }) =>
  new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      {
        url,
        connections: options.connections,
        ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? ctx.durationSeconds }),
        timeout: 10,
        headers: { authorization: `Bearer ${ctx.apiKey}` }
      },
      (error, result) => (error ? reject(error) : resolve(result))
    )
  )

/** Waits until the service holds no more descriptors than when idle (the load's sockets are closed). */
const settle = async (pid: number | undefined, idleFds: number) => {
  for (let waited = 0; waited < 20_000 && fds(pid) > idleFds + 2; waited += 200) await sleep(200)
  await sleep(500)
}

const mb = (bytes: number) => (bytes / MB).toFixed(1)

export const loadSection = async (ctx: BenchContext): Promise<string> => {
  const pid = ctx.pids.service
  const connections = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 1000)
  const requests = Number(process.env.BENCH_LOAD_REQUESTS ?? 100_000)
  const seeded = await seedBundle(ctx.pool, ctx.userId, "bench-load", [{ path: "SKILL.md", content: content4k(0), versions: 1 }])
  const url = `${ctx.urls.service}/artifact-bundles/${seeded.bundleId}/files/${seeded.fileIds[0]}`
  const probe = await fetch(url, { headers: { authorization: `Bearer ${ctx.apiKey}` } })
  if (probe.status !== 200) throw new Error(`the file read answered ${probe.status}: ${(await probe.text()).slice(0, 500)}`)
  await probe.arrayBuffer()

  const idleFds = fds(pid)
  // warm-up: the JIT at 10 connections, then one round at full concurrency so the server's
  // per-connection structures, the pool and the heap's young generation reach their working size
  process.stderr.write(`bench: load warm-up (10 connections, then ${connections} connections)\n`)
  await blast(ctx, url, { connections: 10, duration: Math.max(5, Math.round(ctx.durationSeconds / 2)) })
  await blast(ctx, url, { connections, amount: Math.max(connections, Math.round(requests / 10)) })
  await settle(pid, idleFds)
  const before: HeapReport = await ctx.heap()
  const rssIdle = rss(pid)

  process.stderr.write(`bench: load ${connections} connections, ${requests.toLocaleString("en-US")} requests\n`)
  const stop = sampler(pid)
  const startedAt = Date.now()
  const result = await blast(ctx, url, { connections, amount: requests })
  const sampled = stop()
  const inside = ctx.heapSamples(startedAt, Date.now())
  const peak = inside.reduce<HeapSample | undefined>((best, s) => (!best || s.rss > best.rss ? s : best), undefined)
  await settle(pid, idleFds)
  const after: HeapReport = await ctx.heap()
  const rssAfter = rss(pid)

  const total = result.requests.total
  const failures = result.non2xx + result.errors + result.resets
  const perSecond = total / Math.max(result.duration, 0.001)
  const growth = after.heapUsed - before.heapUsed
  const tolerance = Math.max(HEAP_TOLERANCE_BYTES, HEAP_TOLERANCE_SHARE * before.heapUsed)
  const met = (ok: boolean) => (ok ? "**met**" : "**NOT met**")
  process.stderr.write(
    `       ${perSecond.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, peak RSS ${
      mb(sampled.peakRss)
    } MB, heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)} MB\n`
  )
  const held = sampled.peakFds - idleFds
  return [
    "| Measurement | Result | Goal |",
    "|---|---|---|",
    `| ${connections.toLocaleString("en-US")} keep-alive connections, GET /artifact-bundles/{id}/files/{fileId} (4 KiB, API key), ${
      total.toLocaleString("en-US")
    } requests | ${perSecond.toFixed(0)} req/s over ${result.duration.toFixed(1)} s; latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ${
      result["2xx"].toLocaleString("en-US")
    } 2xx, ${result.non2xx} non-2xx, ${result.errors - result.timeouts} socket errors, ${result.timeouts} timeouts, ${result.resets} resets; the service held up to ${held} more descriptors than at idle | 0 errors: ${
      met(failures === 0 && result["2xx"] === total && total >= requests)
    } |`,
    `| Service RSS during that run (${sampled.samples} samples, every 100 ms) | peak ${mb(sampled.peakRss)} MB (${
      mb(rssIdle)
    } MB at idle before, ${mb(rssAfter)} MB after) | ≤ ${RSS_GOAL_MB} MB: ${met(sampled.peakRss <= RSS_GOAL_MB * MB)} |`,
    `| What the service's largest RSS sample was made of (its own samples, every 200 ms) | ${
      peak
        ? `RSS ${mb(peak.rss)} MB: V8 heap ${mb(peak.heapTotal)} MB committed (${mb(peak.heapUsed)} MB used; new space ${
          mb(peak.spaces.new_space ?? 0)
        }, old space ${mb(peak.spaces.old_space ?? 0)}, large objects ${mb(peak.spaces.large_object_space ?? 0)}, code ${
          mb(peak.spaces.code_space ?? 0)
        }), external ${mb(peak.external)} MB, the rest ${mb(peak.rss - peak.heapTotal - peak.external)} MB (node, its threads, malloc)`
        : "no samples"
    } | — |`,
    `| Service heap used after full GC, before / after the ${total.toLocaleString("en-US")} requests | ${mb(before.heapUsed)} MB / ${
      mb(after.heapUsed)
    } MB (${growth >= 0 ? "+" : ""}${mb(growth)} MB); heap total ${mb(before.heapTotal)} / ${mb(after.heapTotal)} MB, external ${
      mb(before.external)
    } / ${mb(after.external)} MB | back to start (within ${mb(tolerance)} MB): ${met(before.gc && growth <= tolerance)} |`
  ].join("\n")
}
