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
 * Times are read inside the page (performance.now(), whose origin is the navigation's start).
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { launchBrowser } from "../test/support/Chromium.js"
import { seedBundle } from "./files.js"
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
      `| diff of two 10 KiB versions, after the second arrived | p50 ${ms(percentile(diffTimes, 50))}, p95 ${ms(percentile(diffTimes, 95))} | ≤ 100 ms | side by side and unified alternately |`
    ].join("\n")
  } finally {
    await browser.close()
    await service.stop()
  }
}
