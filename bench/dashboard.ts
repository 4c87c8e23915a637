/**
 * Bench section "dashboard" (issue 23), in real Chromium (@sparticuz/chromium, playwright-core) against
 * a service started as `npm start` runs it (dist/server/main.js) on loopback, signed in as the local
 * developer:
 *
 *   - JavaScript sent for the first page: the sign-in page, the bundle list (the first page after signing
 *     in) and a deep link to a bundle whose main file is rendered markdown; as sent (brotli) and as gzip
 *     (the goal's unit: the precompressed .gz of each script); every asset compressed and immutable;
 *   - navigation to a bundle page showing its tree, 100 files: p50 and p95 of RUNS page loads, with the
 *     browser's cache warm (a returning user) and cold (a new context);
 *   - the tree of a 1,000-file bundle: from the bundle's answer arriving (its resource timing) to the tree
 *     in the page (a MutationObserver), p50;
 *   - a diff of two 10 KiB versions: from the second version's answer arriving to the diff in the page, p50.
 *
 * And the work pages (issue 24), with a worker of its own (the mock reviewer, then a fake slow provider):
 *
 *   - JavaScript sent for deep links to an audit, a conversion, an eval, a proof report and the jobs page;
 *   - an audit of a 10 KiB SKILL.md with 40 findings: navigation to its page showing the file with every
 *     finding's gutter mark, p50 and p95, warm and cold;
 *   - the diff of its improved version (10 KiB each side): from the last answer it needs arriving to the
 *     diff in the page;
 *   - a job's progress in the page: an eval on a provider that answers each call after 150 ms (an event per
 *     case), the time from each event's record (its createdAt) to its message in the page.
 *
 * Times are read inside the page (performance.now(), whose origin is the navigation's start).
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { launchBrowser } from "../test/support/Chromium.js"
import { Effect, Exit, Scope } from "effect"
import { jsonReply, make as makeFakeOpenAi, messagesOf, textReply } from "../test/support/FakeOpenAi.js"
import { seedBundle } from "./files.js"
import { grant, startWorker, stopWorker } from "./jobs.js"
import { buildBundle } from "./load.js"
import type { BenchContext } from "./harness.js"
import { root } from "./harness.js"

const RUNS = Number(process.env.BENCH_DASHBOARD_RUNS ?? 15)

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
const ms = (n: number) => `${n.toFixed(0)} ms`
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`

/** A 10 KiB SKILL.md-like text; `edit` changes every seventh line. */
const tenKib = (edit: boolean) => {
  const lines: Array<string> = ["---", "name: bench-skill", "description: A skill to measure diffs with.", "---", ""]
  for (let i = 0; lines.join("\n").length < 10 * 1024; i++) {
    const changed = edit && i % 7 === 3
    lines.push(i % 12 === 0 ? `## Step ${i / 12 + 1}` : `${changed ? "Always" : "Then"} check item ${i}: run the command, read the output, record what it said.`)
  }
  return lines.join("\n").slice(0, 10 * 1024)
}

/** Paths in folders, as a large skill or a repository's prompts would have them. */
const treePaths = (n: number) =>
  Array.from({ length: n }, (_, i) => (i === 0 ? "SKILL.md" : `references/area-${i % 10}/topic-${Math.floor(i / 10) % 10}/note-${i}.md`))

/** Records in the page when the tree holds `expected` file links, and when resources answered. */
const treeProbe = (expected: number) => `
  (() => {
    const done = () => document.querySelectorAll('[data-testid="file-tree"] a[data-path]').length >= ${expected}
    new MutationObserver((_, observer) => {
      if (done()) { window.__treeAt = performance.now(); observer.disconnect() }
    }).observe(document, { childList: true, subtree: true })
  })()`


/**
 * A 10 KiB SKILL.md the mock reviewer finds 40 problems in: a frontmatter and an opening that break a
 * dozen rules once each, and a link to a missing file every fourth line (one finding each).
 */
const fortyFindings = () => {
  const lines = ["---", "name: Bench_Skill", "description: I help with various things as needed, etc.", "---", "", "Helps with stuff.", ""]
  for (let i = 0; lines.join("\n").length < 10 * 1024; i++) {
    if (i % 10 === 0) lines.push(`## Section ${i / 10 + 1}`, "")
    lines.push(i % 4 === 2 && i < 130 ? `See [notes ${i}](missing/notes-${i}.md) for the details of item ${i}.` : `Run the check for item ${i}, read its output, and write the result in the release log.`)
  }
  return lines.join("\n").slice(0, 10 * 1024)
}

/** Records in the page when every gutter mark (`expected`) is in the file, and when the improved version's diff is. */
const workProbe = (expected: number) => `
  (() => {
    new MutationObserver((_, observer) => {
      if (window.__marksAt === undefined && document.querySelectorAll('[data-testid="annotated-source"] .gutter-mark').length >= ${expected}) window.__marksAt = performance.now()
      if (window.__diffAt === undefined && document.querySelector('[data-testid="diff"] table tr')) window.__diffAt = performance.now()
    }).observe(document, { childList: true, subtree: true })
  })()`

/** Records in the page when each job-log message first shows (Date.now(), the clock the service's timestamps share). */
const progressProbe = `
  (() => {
    window.__shown = {}
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="job-log"] .job-log-message')) {
        const text = el.textContent
        if (!(text in window.__shown)) window.__shown[text] = Date.now()
      }
    }).observe(document, { childList: true, subtree: true, characterData: true })
  })()`

const signIn = async (page: Page, origin: string) => {
  await page.goto(`${origin}/`)
  await page.getByRole("button", { name: "Continue as a local developer" }).click()
  await page.getByRole("heading", { name: "Bundles", level: 1 }).waitFor()
}

interface Sent {
  readonly scripts: number
  readonly sentBytes: number
  readonly gzipBytes: number
  readonly allCompressed: boolean
  readonly allImmutable: boolean
}

/** The scripts a page load fetched: bytes on the wire, and the same files' gzip size (dist/dashboard/*.gz). */
const scriptsSent = async (context: BrowserContext, origin: string, open: (page: Page) => Promise<void>): Promise<Sent> => {
  const page = await context.newPage()
  const seen: Array<Promise<{ url: string; sent: number; encoding: string | undefined; cache: string | undefined }>> = []
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return
    seen.push((async () => {
      const sizes = await response.request().sizes()
      const headers = await response.allHeaders()
      return { url: response.url(), sent: sizes.responseBodySize, encoding: headers["content-encoding"], cache: headers["cache-control"] }
    })())
  })
  await open(page)
  await page.waitForLoadState("networkidle")
  const scripts = await Promise.all(seen)
  await page.close()
  const gzipOf = (url: string) => Fs.statSync(Path.join(root, "dist", "dashboard", `${new URL(url).pathname}.gz`)).size
  return {
    scripts: scripts.length,
    sentBytes: scripts.reduce((s, r) => s + r.sent, 0),
    gzipBytes: scripts.reduce((s, r) => s + gzipOf(r.url), 0),
    allCompressed: scripts.every((r) => r.encoding === "br" || r.encoding === "gzip"),
    allImmutable: scripts.every((r) => r.cache === "public, max-age=31536000, immutable")
  }
}

/** Navigation start to the tree in the page, in ms. */
const treeLoad = async (page: Page, url: string, files: number) => {
  await page.goto(url, { waitUntil: "commit" })
  await page.waitForFunction(() => typeof (globalThis as any).__treeAt === "number", undefined, { timeout: 30_000 })
  return page.evaluate(() => (globalThis as any).__treeAt)
}

export const dashboardSection = async (ctx: BenchContext): Promise<string> => {
  if (!Fs.existsSync(Path.join(root, "dist", "dashboard", "meta.json"))) throw new Error("bench: the dashboard is not built; run npm run build")
  // the service as `npm start` runs it (dist/server/main.js, its node flags), on the bench's database
  const service = await ctx.startService({ label: "dashboard", bundle: await buildBundle() })
  const origin = service.url.replace(/\/api\/v1\/?$/, "")
  const browser: Browser = await launchBrowser()
  try {
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 } })
    // no page.route()/context.route() here: Playwright turns the browser's HTTP cache off while routing
    const page = await context.newPage()
    await signIn(page, origin)
    const token = await page.evaluate(() => JSON.parse((globalThis as any).sessionStorage.getItem("rubr.session")).token as string)
    const me = await (await fetch(`${service.url}/me`, { headers: { authorization: `Bearer ${token}` } })).json() as { data: { user: { id: string } } }
    const userId = me.data.user.id

    // the bundles, written straight in SQL (the bench's files section does the same)
    const skill = Fs.readFileSync(Path.join(root, "test", "fixtures", "skills", "internal-comms", "SKILL.md"), "utf8")
    const small = await seedBundle(ctx.pool, userId, "bench-100", treePaths(100).map((path, i) => ({ path, content: i === 0 ? skill : `# Note ${i}\n`, versions: 1 })))
    const large = await seedBundle(ctx.pool, userId, "bench-1000", treePaths(1000).map((path, i) => ({ path, content: i === 0 ? skill : `# Note ${i}\n`, versions: 1 })))
    const diffBundle = await seedBundle(ctx.pool, userId, "bench-diff", [{ path: "SKILL.md", content: tenKib(false), versions: 1 }])
    const diffFile = diffBundle.fileIds[0]!
    const put = await fetch(`${service.url}/artifact-bundles/${diffBundle.bundleId}/files/${diffFile}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ content: tenKib(true) })
    })
    if (put.status !== 200) throw new Error(`bench: the second version was refused: ${put.status}`)

    // 1. scripts sent for a first page, each in a new context (an empty cache)
    const fresh = async () => {
      const c = await browser.newContext()
      await c.addInitScript(`sessionStorage.setItem("rubr.session", ${JSON.stringify(JSON.stringify({ kind: "dev", token, expiresAt: Date.now() + 50 * 60_000 }))})`)
      return c
    }
    const signInContext = await browser.newContext()
    const signInPage = await scriptsSent(signInContext, origin, async (p) => {
      await p.goto(`${origin}/`)
      await p.getByRole("button", { name: "Continue as a local developer" }).waitFor()
    })
    await signInContext.close()
    const listContext = await fresh()
    const listPage = await scriptsSent(listContext, origin, async (p) => {
      await p.goto(`${origin}/bundles`)
      await p.locator("[data-bundle-name]").first().waitFor()
    })
    await listContext.close()
    const bundleContext = await fresh()
    const bundlePage = await scriptsSent(bundleContext, origin, async (p) => {
      await p.goto(`${origin}/bundles/${small.bundleId}`)
      await p.locator(".markdown h2").first().waitFor()
    })
    await bundleContext.close()

    // 2. navigation to the tree of 100 files, warm and cold
    await page.addInitScript(treeProbe(100))
    const bundleUrl = `${origin}/bundles/${small.bundleId}`
    await treeLoad(page, bundleUrl, 100) // warms the cache and the service
    const warm: Array<number> = []
    for (let i = 0; i < RUNS; i++) warm.push(await treeLoad(page, bundleUrl, 100))
    const cold: Array<number> = []
    for (let i = 0; i < Math.min(RUNS, 8); i++) {
      const c = await fresh()
      await c.addInitScript(treeProbe(100))
      const p = await c.newPage()
      cold.push(await treeLoad(p, bundleUrl, 100))
      await c.close()
    }

    // 3. the 1,000-file tree, after its data arrived
    const largeContext = await fresh()
    await largeContext.addInitScript(treeProbe(1000))
    const largePage = await largeContext.newPage()
    const afterData: Array<number> = []
    for (let i = 0; i < RUNS; i++) {
      const treeAt = await treeLoad(largePage, `${origin}/bundles/${large.bundleId}`, 1000)
      const arrived = await largePage.evaluate((id) =>
        (globalThis as any).performance.getEntriesByType("resource").filter((e: any) => e.name.endsWith(`/api/v1/artifact-bundles/${id}`)).map((e: any) => e.responseEnd as number).at(-1), large.bundleId)
      afterData.push(treeAt - (arrived as number))
    }
    await largeContext.close()

    // 4. the diff of two 10 KiB versions, after the second version arrived
    const diffContext = await fresh()
    await diffContext.addInitScript(`
      new MutationObserver((_, o) => {
        if (document.querySelector('[data-testid="diff"] table tr')) { window.__diffAt = performance.now(); o.disconnect() }
      }).observe(document, { childList: true, subtree: true })`)
    const diffPage = await diffContext.newPage()
    const diffTimes: Array<number> = []
    for (let i = 0; i < RUNS; i++) {
      await diffPage.goto(`${origin}/bundles/${diffBundle.bundleId}/files/${diffFile}/history?from=1&to=2&view=${i % 2 === 0 ? "split" : "unified"}`, { waitUntil: "commit" })
      await diffPage.waitForFunction(() => typeof (globalThis as any).__diffAt === "number", undefined, { timeout: 30_000 })
      diffTimes.push(await diffPage.evaluate(() => {
        const arrived = Math.max(...(globalThis as any).performance.getEntriesByType("resource").filter((e: any) => /\/versions\/\d+$/.test(e.name)).map((e: any) => e.responseEnd as number))
        return (globalThis as any).__diffAt - arrived
      }))
    }
    await diffContext.close()

    // ---- the work pages (issue 24) ------------------------------------------------------------
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body)
      })
      const json = await response.json() as { data: any }
      if (!response.ok) throw new Error(`bench: ${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
      return json.data
    }
    const ended = async (jobId: string) => {
      for (;;) {
        const { job } = await call("GET", `/jobs/${jobId}`)
        if (job.state === "completed") return job
        if (job.state === "failed" || job.state === "cancelled") throw new Error(`bench: job ${jobId} ${job.state}: ${JSON.stringify(job.error)}`)
        await new Promise((r) => setTimeout(r, 50))
      }
    }
    await grant(ctx, 1, 100_000, userId)
    const mockWorker = startWorker(ctx.databaseUrl)
    const { artifactBundle: workBundle } = await call("POST", "/artifact-bundles", { name: "bench-work" })
    const workBase = `${origin}/bundles/${workBundle.id}`
    await call("POST", `/artifact-bundles/${workBundle.id}/files`, { files: [{ path: "SKILL.md", content: fortyFindings() }] })
    const startedAudit = await call("POST", `/artifact-bundles/${workBundle.id}/audits`, {})
    await ended(startedAudit.jobId)
    const { auditRun } = await call("GET", `/artifact-bundles/${workBundle.id}/audits/${startedAudit.auditRun.id}`)
    const findings = auditRun.findings.filter((f: { filePath: string }) => f.filePath === "SKILL.md").length
    const improvedBytes = Buffer.byteLength(auditRun.improvedVersion?.content ?? "")
    const startedConversion = await call("POST", `/artifact-bundles/${workBundle.id}/rubr-flow/conversions`, {})
    await ended(startedConversion.jobId)
    await call("POST", `/artifact-bundles/${workBundle.id}/audits/${auditRun.id}/apply`)
    const startedEval = await call("POST", `/artifact-bundles/${workBundle.id}/evals`, { maxCases: 5 })
    await ended(startedEval.jobId)
    const startedProof = await call("POST", `/artifact-bundles/${workBundle.id}/proof-reports`, { evalRunId: startedEval.evalRun.id, auditRunId: auditRun.id })
    await ended(startedProof.jobId)
    await stopWorker(mockWorker.worker, mockWorker.dataDir)
    const auditUrl = `${workBase}/audits/${auditRun.id}`

    // 5. scripts sent for a deep link to each work page
    const deepLink = async (path: string, ready: (p: Page) => Promise<unknown>) => {
      const c = await fresh()
      const sent = await scriptsSent(c, origin, async (p) => {
        await p.goto(`${origin}${path}`)
        await ready(p)
      })
      await c.close()
      return sent
    }
    const workPath = new URL(workBase).pathname
    const auditPage = await deepLink(`${workPath}/audits/${auditRun.id}`, (p) => p.locator(".gutter-mark").first().waitFor())
    const conversionPage = await deepLink(`${workPath}/conversions/${startedConversion.conversion.id}`, (p) => p.getByTestId("annotated-source").waitFor())
    const evalPage = await deepLink(`${workPath}/evals/${startedEval.evalRun.id}`, (p) => p.getByTestId("cases").waitFor())
    const proofPage = await deepLink(`${workPath}/proof-reports/${startedProof.proofReport.id}`, (p) => p.locator("[data-testid=signature-verdict][data-verdict=valid]").waitFor())
    const jobsPage = await deepLink("/jobs", (p) => p.getByTestId("jobs").waitFor())

    // 6. navigation → the audited file with every gutter mark, warm and cold
    const marksLoad = async (p: Page, url: string) => {
      await p.goto(url, { waitUntil: "commit" })
      await p.waitForFunction(() => typeof (globalThis as any).__marksAt === "number", undefined, { timeout: 30_000 })
      return p.evaluate(() => (globalThis as any).__marksAt as number)
    }
    const auditContext = await fresh()
    await auditContext.addInitScript(workProbe(findings))
    const auditTab = await auditContext.newPage()
    await marksLoad(auditTab, auditUrl) // warms the cache and the service
    const marksWarm: Array<number> = []
    for (let i = 0; i < RUNS; i++) marksWarm.push(await marksLoad(auditTab, auditUrl))
    const marksCold: Array<number> = []
    for (let i = 0; i < Math.min(RUNS, 8); i++) {
      const c = await fresh()
      await c.addInitScript(workProbe(findings))
      marksCold.push(await marksLoad(await c.newPage(), auditUrl))
      await c.close()
    }

    // 7. the improved version's diff, after the last answer it needs (the audit, the audited version)
    const improvedDiff: Array<number> = []
    for (let i = 0; i < RUNS; i++) {
      await auditTab.goto(`${auditUrl}?tab=improved&view=${i % 2 === 0 ? "split" : "unified"}`, { waitUntil: "commit" })
      await auditTab.waitForFunction(() => typeof (globalThis as any).__diffAt === "number", undefined, { timeout: 30_000 })
      improvedDiff.push(await auditTab.evaluate(() => {
        const arrived = Math.max(...(globalThis as any).performance.getEntriesByType("resource")
          .filter((e: any) => /\/audits\/[0-9a-f-]{36}$|\/versions\/\d+$/.test(e.name)).map((e: any) => e.responseEnd as number))
        return (globalThis as any).__diffAt - arrived
      }))
    }
    await auditContext.close()

    // 8. progress in the page: an eval on a provider that takes 150 ms a call, its page open while it runs
    const scope = Effect.runSync(Scope.make())
    const fake = await Effect.runPromise(Scope.extend(makeFakeOpenAi((request) => {
      if (messagesOf(request).schema === "rubr_eval_judgement") {
        const verdict = { passed: true, score: 80, evidence: ["the answer follows the instructions"] }
        return { ...jsonReply({ a: verdict, b: verdict }, { prompt_tokens: 300, completion_tokens: 60 }), delayMs: 150 }
      }
      return { ...textReply("I follow the skill's steps for this request.", { prompt_tokens: 300, completion_tokens: 40 }), delayMs: 150 }
    }), scope))
    const aiWorker = startWorker(ctx.databaseUrl, root, { SERVICE_AI_ENABLED: "true", SERVICE_AI_BASE_URL: fake.baseUrl, SERVICE_AI_API_KEY: "bench" })
    const progressContext = await fresh()
    await progressContext.addInitScript(progressProbe)
    const progressTab = await progressContext.newPage()
    const lateness: Array<number> = []
    try {
      for (let run = 0; run < 3; run++) {
        const started = await call("POST", `/artifact-bundles/${workBundle.id}/evals`, { maxCases: 8 })
        await progressTab.goto(`${workBase}/evals/${started.evalRun.id}`)
        await progressTab.locator("[data-testid=eval][data-status=completed]").waitFor({ timeout: 60_000 })
        const shown = await progressTab.evaluate(() => (globalThis as any).__shown as Record<string, number>)
        const { events } = await call("GET", `/jobs/${started.jobId}/events?limit=200`)
        // the events recorded while the page was already following the job (the first poll answered)
        const following = Math.min(...Object.values(shown))
        for (const e of events as Array<{ message: string; createdAt: string; state: string }>) {
          const at = Date.parse(e.createdAt)
          if (at <= following || e.message === "" || !(e.message in shown) || e.state !== "running") continue
          lateness.push(shown[e.message]! - at)
        }
      }
    } finally {
      await progressContext.close()
      await stopWorker(aiWorker.worker, aiWorker.dataDir)
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }

    const sentRow = (label: string, s: Sent) =>
      `| JavaScript sent for the first page: ${label} | ${kib(s.gzipBytes)} gzip (${kib(s.sentBytes)} sent as brotli), ${s.scripts} files | ≤ 200 KiB gzipped | ${s.allCompressed ? "all compressed" : "NOT all compressed"}, ${s.allImmutable ? "all immutable" : "NOT all immutable"} |`
    return [
      `Chromium ${browser.version()} (headless, @sparticuz/chromium), ${RUNS} runs per timing unless said; times measured inside the page.`,
      "",
      "| measurement | result | goal | notes |",
      "|---|---|---|---|",
      sentRow("the sign-in page", signInPage),
      sentRow("the bundle list (first page after signing in)", listPage),
      sentRow("a bundle, its main file rendered (deep link)", bundlePage),
      `| navigation → bundle page showing its tree, 100 files, warm cache | p50 ${ms(percentile(warm, 50))}, p95 ${ms(percentile(warm, 95))} | p50 ≤ 500 ms | a returning user: assets from the browser's cache |`,
      `| navigation → bundle page showing its tree, 100 files, cold cache | p50 ${ms(percentile(cold, 50))}, p95 ${ms(percentile(cold, 95))} (${cold.length} runs) | p50 ≤ 500 ms | a first visit: every asset fetched |`,
      `| tree of a 1,000-file bundle, after its data arrived | p50 ${ms(percentile(afterData, 50))}, p95 ${ms(percentile(afterData, 95))} | ≤ 300 ms | decoding the answer (the typed client) and rendering the tree |`,
      `| diff of two 10 KiB versions, after the second arrived | p50 ${ms(percentile(diffTimes, 50))}, p95 ${ms(percentile(diffTimes, 95))} | ≤ 100 ms | side by side and unified alternately |`,
      sentRow("an audit's page (deep link)", auditPage),
      sentRow("a conversion's page (deep link)", conversionPage),
      sentRow("an eval's page (deep link)", evalPage),
      sentRow("a proof report's page, its signature checked (deep link)", proofPage),
      sentRow("the jobs page (deep link)", jobsPage),
      `| navigation → audit page showing the 10 KiB SKILL.md with every gutter mark (${findings} findings), warm cache | p50 ${ms(percentile(marksWarm, 50))}, p95 ${ms(percentile(marksWarm, 95))} | p50 ≤ 400 ms | the audit and the audited version requested at boot, beside the page's chunks |`,
      `| the same, cold cache | p50 ${ms(percentile(marksCold, 50))}, p95 ${ms(percentile(marksCold, 95))} (${marksCold.length} runs) | (the goal's case is the warm one) | a first visit: every asset fetched |`,
      `| diff of the improved version (${(improvedBytes / 1024).toFixed(1)} KiB after, 10 KiB before), after its data arrived | p50 ${ms(percentile(improvedDiff, 50))}, p95 ${ms(percentile(improvedDiff, 95))} | ≤ 100 ms | side by side and unified alternately |`,
      `| a job's progress event → its message in the page | p50 ${ms(percentile(lateness, 50))}, p95 ${ms(percentile(lateness, 95))}, max ${ms(Math.max(...lateness))} (${lateness.length} events) | ≤ 1 s | evals of 8 cases on a provider answering each call after 150 ms; the page polls every 400 ms; from the event's createdAt (the progress buffer writes within 200 ms) |`
    ].join("\n")
  } finally {
    await browser.close()
    await service.stop()
  }
}
