/**
 * Issue 15 benchmark, load and memory, on the file read (`GET /artifact-bundles/{id}/files/{fileId}`,
 * a 4 KiB file, API key, as in the files section's (a)). Each configuration gets a fresh service
 * process of its own (role api, on the bench database, bench/heap-probe.ts preloaded):
 *   - 1,000 concurrent keep-alive connections (BENCH_LOAD_CONNECTIONS) from autocannon make 100,000
 *     requests in all (BENCH_LOAD_REQUESTS; 100 per connection): every answer must be a 2xx, with no
 *     socket error, reset or timeout (10 s); p50/p99/max latency, requests/s and the server's CPU per
 *     request are reported;
 *   - the process's RSS (VmRSS from /proc/<pid>/status) is sampled every 100 ms during that run: the
 *     peak must stay at most 300 MB. The process's own samples (every 200 ms) say what the largest one
 *     was made of; its open descriptors are sampled to show the connections were all open at once;
 *   - the heap used after full GCs is read after a warm-up (including one round at full concurrency)
 *     and again after the 100,000 requests: it must be back where it started, within max(5 MB, 10%).
 *
 * Configurations (BENCH_LOAD_VARIANTS, default `start,tsx,previous`, run in the order given):
 *   - `start`: as `npm start` runs the service: dist/server/main.js (built here by
 *     `scripts/build.mjs --server`, as npm start does) on plain node with npm start's node flags;
 *   - `tsx`: the same flags on src/main.ts through tsx, as the bench's other sections run the service;
 *   - `previous`: the bundle with `--max-semi-space-size=64` alone, npm start's flags before issue 15
 *     (a young generation four times larger, and no cap on the old generation): what the cap costs
 *     in requests/s and saves in memory.
 * With BENCH_LOAD_NODE_ARGS set (space-separated node flags), `custom` is one more: the bundle with
 * those flags in place of npm start's (to try other settings).
 */
import autocannon from "autocannon"
import { build } from "esbuild"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { content4k, seedBundle } from "./files.js"
import { type BenchContext, root, type ServiceProcess, startNodeFlags } from "./harness.js"
import type { HeapReport, HeapSample } from "./heap-probe.js"
import { sleep } from "./jobs.js"

const MB = 1024 * 1024
const RSS_GOAL_MB = 300
const HEAP_TOLERANCE_BYTES = 5 * MB
const HEAP_TOLERANCE_SHARE = 0.1
const PREVIOUS_FLAGS = ["--max-semi-space-size=64"]

interface Variant {
  readonly description: string
  /** node flags in place of npm start's; npm start's when absent */
  readonly nodeArgs?: ReadonlyArray<string>
  readonly bundle: boolean
}

const customFlags = (process.env.BENCH_LOAD_NODE_ARGS ?? "").split(" ").filter((arg) => arg.length > 0)

const variants: Record<string, Variant> = {
  start: { description: `as \`npm start\` runs it (dist/server/main.js, \`${startNodeFlags(root).join(" ")}\`)`, bundle: true },
  tsx: { description: `src/main.ts through tsx, npm start's flags`, bundle: false },
  previous: { description: `dist/server/main.js with \`${PREVIOUS_FLAGS.join(" ")}\` (npm start's flags before issue 15)`, nodeArgs: PREVIOUS_FLAGS, bundle: true },
  ...(customFlags.length > 0
    ? { custom: { description: `dist/server/main.js with \`${customFlags.join(" ")}\``, nodeArgs: customFlags, bundle: true } }
    : {})
}

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

/** utime + stime of a process in milliseconds (Linux, 100 Hz clock ticks); NaN elsewhere. */
const cpuMs = (pid: number | undefined) => {
  try {
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number)
    return (fields[11] + fields[12]) * 10
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

const blast = (apiKey: string, url: string, options: { connections: number; amount?: number; duration?: number }) =>
  new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      {
        url,
        connections: options.connections,
        ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 5 }),
        timeout: 10,
        headers: { authorization: `Bearer ${apiKey}` }
      },
      (error, result) => (error ? reject(error) : resolve(result))
    )
  )

/** Waits until the process holds no more descriptors than when idle (the load's sockets are closed). */
const settle = async (pid: number | undefined, idleFds: number) => {
  for (let waited = 0; waited < 20_000 && fds(pid) > idleFds + 2; waited += 200) await sleep(200)
  await sleep(500)
}

/** The service as npm start builds it (dist/server/), and the heap probe bundled beside it. */
export const buildBundle = async () => {
  execFileSync(process.execPath, [Path.join(root, "scripts", "build.mjs"), "--server"], { cwd: root, stdio: "inherit" })
  const common = { bundle: true, platform: "node", format: "esm", packages: "external", logLevel: "warning" } as const
  await build({ ...common, entryPoints: [Path.join(root, "bench", "heap-probe.ts")], outfile: Path.join(root, "bench", "tmp", "load-heap-probe.mjs") })
  return { main: "dist/server/main.js", probe: "bench/tmp/load-heap-probe.mjs" }
}

interface Outcome {
  readonly name: string
  readonly variant: Variant
  readonly result: autocannon.Result
  readonly connections: number
  readonly requests: number
  readonly cpuMsPerRequest: number
  readonly rssIdle: number
  readonly rssAfter: number
  readonly peakRss: number
  readonly rssSamples: number
  readonly heldDescriptors: number
  readonly peak: HeapSample | undefined
  readonly before: HeapReport
  readonly after: HeapReport
}

const measure = async (
  ctx: BenchContext,
  service: ServiceProcess,
  name: string,
  variant: Variant,
  path: string
): Promise<Outcome> => {
  const pid = service.pid
  const connections = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 1000)
  const requests = Number(process.env.BENCH_LOAD_REQUESTS ?? 100_000)
  const url = `${service.url}${path}`
  const probe = await fetch(url, { headers: { authorization: `Bearer ${ctx.apiKey}` } })
  if (probe.status !== 200) throw new Error(`the file read answered ${probe.status}: ${(await probe.text()).slice(0, 500)}`)
  await probe.arrayBuffer()

  const idleFds = fds(pid)
  // warm-up: the JIT at 10 connections, then one round at full concurrency so the server's
  // per-connection structures, the pool and the heap reach their working size
  process.stderr.write(`bench: load [${name}] warm-up (10 connections, then ${connections} connections)\n`)
  await blast(ctx.apiKey, url, { connections: 10, duration: Math.max(5, Math.round(ctx.durationSeconds / 2)) })
  await blast(ctx.apiKey, url, { connections, amount: Math.max(connections, Math.round(requests / 10)) })
  await settle(pid, idleFds)
  const before = await service.heap()
  const rssIdle = rss(pid)

  process.stderr.write(`bench: load [${name}] ${connections} connections, ${requests.toLocaleString("en-US")} requests\n`)
  const stop = sampler(pid)
  const startedAt = Date.now()
  const cpuBefore = cpuMs(pid)
  const result = await blast(ctx.apiKey, url, { connections, amount: requests })
  const cpu = cpuMs(pid) - cpuBefore
  const sampled = stop()
  const peak = service.heapSamples(startedAt, Date.now()).reduce<HeapSample | undefined>(
    (best, s) => (!best || s.rss > best.rss ? s : best),
    undefined
  )
  await settle(pid, idleFds)
  const after = await service.heap()
  const outcome: Outcome = {
    name,
    variant,
    result,
    connections,
    requests,
    cpuMsPerRequest: cpu / Math.max(1, result.requests.total),
    rssIdle,
    rssAfter: rss(pid),
    peakRss: sampled.peakRss,
    rssSamples: sampled.samples,
    heldDescriptors: sampled.peakFds - idleFds,
    peak,
    before,
    after
  }
  process.stderr.write(
    `       ${(result.requests.total / result.duration).toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${
      result.errors
    } errors, peak RSS ${mb(sampled.peakRss)} MB, heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)} MB\n`
  )
  return outcome
}

const mb = (bytes: number) => (bytes / MB).toFixed(1)
const n = (x: number) => x.toLocaleString("en-US")

const goals = (o: Outcome) => {
  const r = o.result
  const clean = r.non2xx + r.errors + r.resets === 0 && r["2xx"] === r.requests.total && r.requests.total >= o.requests
  const growth = o.after.heapUsed - o.before.heapUsed
  const tolerance = Math.max(HEAP_TOLERANCE_BYTES, HEAP_TOLERANCE_SHARE * o.before.heapUsed)
  return {
    clean,
    rssOk: o.peakRss <= RSS_GOAL_MB * MB,
    heapOk: o.before.gc && growth <= tolerance,
    growth,
    tolerance
  }
}

const report = (outcomes: ReadonlyArray<Outcome>) => {
  const yes = (ok: boolean) => (ok ? "met" : "**NOT met**")
  const lines = [
    `${n(outcomes[0]?.connections ?? 0)} concurrent keep-alive connections, ${
      n(outcomes[0]?.requests ?? 0)
    } requests in all, on GET /artifact-bundles/{id}/files/{fileId} (4 KiB, API key); a fresh service process per row.`,
    "",
    "| Service process | req/s | p50 / p99 / max (ms) | Answers | Server CPU ms/req | Peak RSS (idle before) | Heap after GC, before → after | 0 errors | RSS ≤ 300 MB | Heap back to start |",
    "|---|---:|---:|---|---:|---:|---:|---|---|---|"
  ]
  for (const o of outcomes) {
    const r = o.result
    const g = goals(o)
    lines.push(
      `| ${o.name}: ${o.variant.description} | ${(r.requests.total / Math.max(r.duration, 0.001)).toFixed(0)} | ${r.latency.p50} / ${r.latency.p99} / ${r.latency.max} | ${
        n(r["2xx"])
      } 2xx, ${r.non2xx} non-2xx, ${r.errors - r.timeouts} socket errors, ${r.timeouts} timeouts, ${r.resets} resets | ${
        o.cpuMsPerRequest.toFixed(2)
      } | ${mb(o.peakRss)} MB (${mb(o.rssIdle)}) | ${mb(o.before.heapUsed)} → ${mb(o.after.heapUsed)} MB (${g.growth >= 0 ? "+" : ""}${
        mb(g.growth)
      }) | ${yes(g.clean)} | ${yes(g.rssOk)} | ${yes(g.heapOk)} (tolerance ${mb(g.tolerance)} MB) |`
    )
  }
  lines.push("", "What the largest RSS sample of each run was made of (the process's own samples, every 200 ms):", "")
  for (const o of outcomes) {
    const p = o.peak
    lines.push(
      p
        ? `- ${o.name}: RSS ${mb(p.rss)} MB = V8 heap ${mb(p.heapTotal)} MB committed (${mb(p.heapUsed)} MB used; new space ${
          mb(p.spaces.new_space ?? 0)
        }, old space ${mb(p.spaces.old_space ?? 0)}, large objects ${mb(p.spaces.large_object_space ?? 0)}, code ${
          mb(p.spaces.code_space ?? 0)
        }) + external ${mb(p.external)} MB + the rest ${mb(p.rss - p.heapTotal - p.external)} MB (node itself, threads, malloc${
          o.variant.bundle ? "" : ", tsx's loader thread"
        }); up to ${o.heldDescriptors} more descriptors open than at idle; RSS after the run ${mb(o.rssAfter)} MB.`
        : `- ${o.name}: no samples`
    )
  }
  return lines.join("\n")
}

export const loadSection = async (ctx: BenchContext): Promise<string> => {
  const selected = (process.env.BENCH_LOAD_VARIANTS ?? "start,tsx,previous")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
  for (const name of selected) {
    if (!variants[name]) throw new Error(`unknown load configuration ${name}; known: ${Object.keys(variants).join(", ")}`)
  }
  const seeded = await seedBundle(ctx.pool, ctx.userId, "bench-load", [{ path: "SKILL.md", content: content4k(0), versions: 1 }])
  const path = `/artifact-bundles/${seeded.bundleId}/files/${seeded.fileIds[0]}`
  const bundle = selected.some((name) => variants[name].bundle) ? await buildBundle() : undefined
  const outcomes: Array<Outcome> = []
  for (const name of selected) {
    const variant = variants[name]
    const service = await ctx.startService({
      label: `load-${name}`,
      ...(variant.nodeArgs ? { nodeArgs: variant.nodeArgs, withoutStartFlags: true } : {}),
      ...(variant.bundle ? { bundle } : {})
    })
    try {
      outcomes.push(await measure(ctx, service, name, variant, path))
    } finally {
      await service.stop()
    }
  }
  return report(outcomes)
}
