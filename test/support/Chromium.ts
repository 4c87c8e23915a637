/**
 * Chromium for the browser tests and the bench: the binary the npm package @sparticuz/chromium ships
 * (unpacked under the system's temporary folder once; nothing is downloaded), driven by
 * playwright-core, launched with the flags a closed network needs.
 */
import chromium from "@sparticuz/chromium"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { type Browser, chromium as playwright } from "playwright-core"

/** The flags of @sparticuz/chromium minus those that weaken the page (web security, mixed content), plus a closed network's. */
const launchArgs = () => {
  const weakening = new Set(["--disable-web-security", "--allow-running-insecure-content", "--single-process", "--headless='shell'"])
  return [
    ...chromium.args.filter((a) => !weakening.has(a)),
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-features=Translate,MediaRouter,OptimizationHints"
  ]
}

/** The binary is unpacked once; two test files starting at once take turns (a lock folder). */
const executablePath = async () => {
  const lock = Path.join(Os.tmpdir(), "rubr-chromium-unpack.lock")
  for (let i = 0;; i++) {
    try {
      Fs.mkdirSync(lock)
      break
    } catch {
      if (i > 600) Fs.rmSync(lock, { recursive: true, force: true })
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  try {
    return await chromium.executablePath()
  } finally {
    Fs.rmSync(lock, { recursive: true, force: true })
  }
}

export const launchBrowser = async (): Promise<Browser> =>
  playwright.launch({ executablePath: await executablePath(), args: launchArgs(), headless: true })
