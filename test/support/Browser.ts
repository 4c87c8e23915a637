/**
 * The browser tests' harness: the service started as users start it (npm start's own command, on a
 * database of its own), a real Chromium driven by playwright-core, and what every page is checked for.
 *
 *   - Chromium is the binary the npm package @sparticuz/chromium ships (unpacked under the system's
 *     temporary folder once; nothing is downloaded), launched with the flags a closed network needs.
 *   - `check(page, name)`: axe-core on the page (no serious or critical violation), a screenshot under
 *     test-results/dashboard/, and no Content-Security-Policy violation so far.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Locator, Page } from "playwright-core"
import { expect } from "vitest"
import { npmStartCommand } from "../../scripts/start-command.js"
import { launchBrowser } from "./Chromium.js"
import { createDatabase } from "./TestApp.js"

export { launchBrowser }

const require = createRequire(import.meta.url)
const ROOT = fileURLToPath(new URL("../../", import.meta.url))
export const SCREENSHOTS = Path.join(ROOT, "test-results", "dashboard")

/** Where the corpus skill comes from: ../shared when it is there, else the copy checked in beside the tests. */
export const corpusSkill = (name: string) => {
  const shared = Path.resolve(ROOT, "..", "shared", "corpus", "skills", name)
  return Fs.existsSync(shared) ? shared : Path.join(ROOT, "test", "fixtures", "skills", name)
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = Net.createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as Net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })

export interface Service {
  readonly origin: string
  readonly baseUrl: string
  readonly dataDir: string
  readonly databaseUrl: string
  readonly logs: () => string
  readonly stop: () => Promise<void>
}

/** `npm start`'s command (node, its flags, dist/server/main.js, built by the test setup) on a fresh database. */
export const startService = async (env: Record<string, string> = {}, port?: number): Promise<Service> => {
  port ??= await freePort()
  const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-dashboard-"))
  const databaseUrl = await createDatabase()
  const [, ...args] = npmStartCommand(ROOT)
  let output = ""
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: "127.0.0.1",
      PORT: String(port),
      SERVICE_DATA_DIR: dataDir,
      SERVICE_LOG_LEVEL: "WARN",
      SERVICE_WORKER_POLL_INTERVAL_MS: "200",
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout!.on("data", (d) => (output += d))
  child.stderr!.on("data", (d) => (output += d))
  const origin = `http://127.0.0.1:${port}`
  for (let i = 0;; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}):\n${output}`)
    try {
      if ((await fetch(`${origin}/api/v1/health`)).ok) break
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error(`the service did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    dataDir,
    databaseUrl,
    logs: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM")
        await new Promise((r) => child.once("exit", r))
      }
      Fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

export interface Watched {
  readonly page: Page
  readonly context: BrowserContext
  /** CSP violations, console errors and uncaught errors seen so far */
  readonly problems: Array<string>
}

/** A new context (its own storage, a fresh user-data state) and page, with its problems recorded. */
export const newPage = async (browser: Browser, options: { readonly ignoreConsole?: RegExp } = {}): Promise<Watched> => {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, acceptDownloads: false, permissions: ["clipboard-read", "clipboard-write"] })
  // the machine's network is closed anyway: nothing but loopback is even tried (no stray waits)
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => route.abort("blockedbyclient"))
  const page = await context.newPage()
  page.setDefaultTimeout(15_000)
  const problems: Array<string> = []
  await page.exposeBinding("__rubrReport", (_source, kind: string, detail: string) => void problems.push(`${kind}: ${detail}`))
  await page.addInitScript(() => {
    (globalThis as any).document.addEventListener("securitypolicyviolation", (e: any) => {
      ;((globalThis as any).window as unknown as { __rubrReport: (k: string, d: string) => void }).__rubrReport(
        "CSP violation",
        `${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`
      )
    })
  })
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
  page.on("console", (message) => {
    if (message.type() !== "error") return
    const text = message.text()
    // a refused request is logged by the browser itself; the page shows it (the tests check that)
    if (/Failed to load resource|net::ERR_/.test(text) || options.ignoreConsole?.test(text)) return
    problems.push(`console error: ${text}`)
  })
  return { page, context, problems }
}

const axeSource = Fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8")

export interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly targets: ReadonlyArray<string>
}

/** axe-core's violations of impact serious or critical on the page as it is now. */
export const axeSerious = async (page: Page): Promise<Array<AxeViolation>> => {
  // evaluated through the DevTools protocol, which the page's CSP does not govern
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(axeSource)
  const result = await page.evaluate(() =>
    ((globalThis as any).window as unknown as { axe: { run: (ctx: unknown, options: unknown) => Promise<{ violations: Array<any> }> } }).axe.run((globalThis as any).document, {
      resultTypes: ["violations"]
    })
  )
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n: any) => String(n.target)) }))
}

/** Every page: a screenshot to look at, and axe's verdict. */
export const checkPage = async (page: Page, name: string) => {
  Fs.mkdirSync(SCREENSHOTS, { recursive: true })
  // quiet first: no spinner, no running transition in the picture (a page following a running job polls
  // every 400 ms and is never idle: it gets 3 s)
  await page.waitForLoadState("networkidle", { timeout: 3000 }).catch(() => undefined)
  await page.screenshot({ path: Path.join(SCREENSHOTS, `${name}.png`), fullPage: true })
  return axeSerious(page)
}

/** Checks the page as it is now: no serious or critical axe violation, a screenshot, no problem recorded. */
export const expectCleanPage = async (watched: Watched, name: string) => {
  const violations = await checkPage(watched.page, name)
  expect({ page: name, violations }).toEqual({ page: name, violations: [] })
  expect({ page: name, problems: watched.problems }).toEqual({ page: name, problems: [] })
}

/** The session's login token, as the page keeps it (sessionStorage). */
export const sessionToken = (page: Page) =>
  page.evaluate(() => {
    const raw = (globalThis as any).sessionStorage.getItem("rubr.session")
    return raw ? (JSON.parse(raw) as { token: string }).token : null
  })

/** The focused element's accessible text (its aria-label, else its text), and whether its focus ring shows. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = (globalThis as any).document.activeElement as any
    if (!el || el === (globalThis as any).document.body) return { name: "", ring: false }
    const style = (globalThis as any).getComputedStyle(el)
    const ring = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none"
    // its accessible text, roughly: the aria-label, else the text without aria-hidden parts
    const copy = el.cloneNode(true)
    copy.querySelectorAll?.("[aria-hidden='true']").forEach((hidden: any) => hidden.remove())
    return { name: (el.getAttribute("aria-label") ?? copy.textContent ?? "").trim(), ring }
  })

/**
 * Presses Tab until the element named `name` has the focus (keyboard reachability), and checks that
 * its focus ring shows; fails after `max` presses.
 */
export const tabTo = async (page: Page, name: string | RegExp, max = 80) => {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab")
    const now = await focused(page)
    if (typeof name === "string" ? now.name === name : name.test(now.name)) {
      if (!now.ring) throw new Error(`${now.name} has the focus but shows no focus ring`)
      return i + 1
    }
  }
  throw new Error(`${String(name)} is not reachable with the keyboard (${max} Tab presses)`)
}

// ---- web-first checks: poll the page until it shows what is expected (vitest's expect.poll) ----------

const poll = <T>(read: () => Promise<T>, timeout = 10_000) => expect.poll(read, { timeout, interval: 50 })

export const see = {
  /** the element's text contains `text` */
  text: (l: Locator, text: string, timeout?: number) => poll(() => l.innerText(), timeout).toContain(text),
  /** the element's text is exactly `text` (trimmed) */
  exactText: (l: Locator, text: string) => poll(async () => ((await l.textContent()) ?? "").trim()).toBe(text),
  count: (l: Locator, n: number) => poll(() => l.count()).toBe(n),
  attribute: (l: Locator, name: string, value: string | null) => poll(() => l.getAttribute(name)).toBe(value),
  checked: (l: Locator, checked = true) => poll(() => l.isChecked()).toBe(checked),
  enabled: (l: Locator, enabled = true, timeout?: number) => poll(() => l.isEnabled(), timeout).toBe(enabled),
  value: (l: Locator, value: string) => poll(() => l.inputValue()).toBe(value)
}
