/**
 * Issue 26: the lean CLI package (packages/cli, built by scripts/build.mjs in the global setup).
 * `npm pack` of it, installed offline into an empty prefix: nothing but the package itself is
 * installed, it takes at most 5 MB, and its `rubr` answers `--version` and runs `rubr check`
 * against a running service.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { execFileSync, spawn, spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { allScopes } from "../src/auth/Scopes.js"
import { VERSION } from "../src/Version.js"
import { folderWith } from "./support/Cli.js"
import { call, DEPLOY_SKILL } from "./support/fixtures.js"
import { makeTestApp, TestApp } from "./support/TestApp.js"

const PACKAGE = fileURLToPath(new URL("../packages/cli", import.meta.url))

const start = (bin: string, args: ReadonlyArray<string>, env: Record<string, string>) =>
  spawn(bin, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME, RUBR_CACHE_DIR: Path.join(Os.tmpdir(), `rubr-package-cache-${process.pid}`), ...env }, stdio: ["ignore", "pipe", "pipe"] })

const sizeOf = (path: string): number => {
  const stat = Fs.lstatSync(path)
  return stat.isDirectory() ? Fs.readdirSync(path).reduce((sum, name) => sum + sizeOf(Path.join(path, name)), 0) : stat.size
}

/** npm with a cache of its own, so nothing of the machine's configuration or cache is used. */
const npm = (args: ReadonlyArray<string>, dir: string) =>
  execFileSync("npm", [...args, "--cache", Path.join(dir, "npm-cache"), "--no-audit", "--no-fund", "--loglevel", "error"], { cwd: dir, encoding: "utf8", stdio: "pipe" })

layer(makeTestApp({ role: "all" }))("the lean CLI package", (it) => {
  it.scoped("packed and installed offline into an empty prefix: no dependencies, at most 5 MB, and `rubr check` works against the service", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-pack-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true })))
      const tarball = Path.join(dir, npm(["pack", PACKAGE, "--pack-destination", dir], dir).trim().split("\n").at(-1)!)
      expect(Path.basename(tarball)).toBe(`rubr-cli-${VERSION}.tgz`)
      const prefix = Path.join(dir, "prefix")
      Fs.mkdirSync(prefix)
      npm(["install", "--offline", "--prefix", prefix, tarball], dir)
      // the package alone: the CLI is one bundle, the SDK's Effect is an optional peer
      expect(Fs.readdirSync(Path.join(prefix, "node_modules")).filter((n) => !n.startsWith("."))).toEqual(["rubr-cli"])
      expect(sizeOf(Path.join(prefix, "node_modules"))).toBeLessThanOrEqual(5 * 1024 * 1024)
      const rubr = Path.join(prefix, "node_modules/.bin/rubr")
      expect(execFileSync(rubr, ["--version"], { encoding: "utf8" }).trim()).toBe(VERSION)

      const key = yield* call((a) => a.apiKey("lean-cli", allScopes))
      const { dir: skill } = yield* folderWith("deploy-preview", { "SKILL.md": DEPLOY_SKILL })
      // asynchronously: the service answering it runs in this process
      const checked = yield* Effect.promise(() =>
        new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
          const child = start(rubr, ["check", skill, "--format", "json"], { SERVICE_BASE_URL: app.baseUrl, SERVICE_API_KEY: key })
          let stdout = ""
          let stderr = ""
          child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()))
          child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()))
          child.on("close", (code) => resolve({ code, stdout, stderr }))
        }))
      expect([checked.code, checked.stderr]).toEqual([0, expect.any(String)])
      expect(JSON.parse(checked.stdout)).toMatchObject({ bundle: { name: "deploy-preview" }, passed: true, audit: { overallScore: expect.any(Number) } })
      // no service needed to list
      const listed = spawnSync(rubr, ["check", "--list", skill], { encoding: "utf8", env: { PATH: process.env.PATH } })
      expect([listed.status, listed.stdout]).toEqual([0, expect.stringContaining("deploy-preview")])
    }), { timeout: 120_000 })
})
