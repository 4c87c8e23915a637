/**
 * Issue 26: what `rubr check` remembers between runs on one machine (src/cli/check/Memory.ts). An
 * unchanged artifact costs one request (its estimate: no file listing, no audit read), and nothing
 * remembered is trusted on its own: a bundle changed behind the CLI's back, a cache file that does
 * not parse and `--no-cache` all take the full path, with the same verdict.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { allScopes } from "../src/auth/Scopes.js"
import { cli } from "./support/Cli.js"
import { CORPUS_ROOT } from "./support/Corpus.js"
import { call, count } from "./support/fixtures.js"
import { makeTestApp, TestApp } from "./support/TestApp.js"

const SKILLS = ["gh-fix-ci", "internal-comms", "executing-plans"]

const temporary = (prefix: string) =>
  Effect.acquireRelease(
    Effect.sync(() => Fs.mkdtempSync(Path.join(Os.tmpdir(), prefix))),
    (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
  )

/** A repository of three corpus skills under skills/. */
const repository = Effect.map(temporary("rubr-memory-repo-"), (root) => {
  for (const name of SKILLS) Fs.cpSync(Path.join(CORPUS_ROOT, "skills", name), Path.join(root, "skills", name), { recursive: true })
  Fs.mkdirSync(Path.join(root, ".git"))
  return root
})

/** A proxy in front of the service that records each request as `METHOD /path` (ids as {id}). */
const recordingProxy = (target: string) =>
  Effect.acquireRelease(
    Effect.async<{ url: string; seen: Array<string>; close: () => void }>((resume) => {
      const upstream = new URL(target)
      const seen: Array<string> = []
      const server = Http.createServer((req, res) => {
        seen.push(`${req.method} ${req.url!.split("?")[0]!.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "{id}")}`)
        const forward = Http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode!, answer.headers)
          answer.pipe(res)
        })
        forward.on("error", () => res.writeHead(502).end())
        req.pipe(forward)
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, seen, close: () => server.close() })))
    }),
    (p) => Effect.sync(p.close)
  )

const tally = (seen: ReadonlyArray<string>) => {
  const out: Record<string, number> = {}
  for (const s of seen) out[s] = (out[s] ?? 0) + 1
  return out
}

/** The verdict a run printed, without what differs from run to run (timings). */
const verdictOf = (stdout: string) =>
  JSON.parse(stdout).artifacts.map((a: any) => ({ target: a.target, passed: a.passed, score: a.audit.overallScore, findings: a.findings.length }))

layer(makeTestApp({ role: "all", env: { SERVICE_SIGNUP_CREDITS: "100000" } }))("what rubr check remembers between runs", (it) => {
  it.scoped("an unchanged artifact costs one estimate; a change behind its back, a broken cache file and --no-cache take the full path with the same verdict", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("memory", allScopes))
      const proxy = yield* recordingProxy(app.baseUrl)
      const cache = yield* temporary("rubr-memory-cache-")
      const root = yield* repository
      const env = { SERVICE_BASE_URL: proxy.url, SERVICE_API_KEY: key, RUBR_CACHE_DIR: cache }
      const run = (...extra: Array<string>) =>
        Effect.gen(function*() {
          proxy.seen.length = 0
          const done = yield* cli(["check", "--fail-on", "none", "--format", "json", ...extra], { cwd: root, env })
          expect([done.code, done.stderr]).toEqual([0, expect.any(String)])
          return { stdout: done.stdout, stderr: done.stderr, requests: tally(proxy.seen) }
        })

      const first = yield* run()
      expect(first.requests["GET /api/v1/artifact-bundles/{id}/files"]).toBe(3)
      const verdict = verdictOf(first.stdout)
      // the cache is the owner's alone
      const [folder] = Fs.readdirSync(Path.join(cache, "check-v1"))
      expect(Fs.statSync(Path.join(cache, "check-v1", folder!)).mode & 0o777).toBe(0o700)
      for (const file of Fs.readdirSync(Path.join(cache, "check-v1", folder!))) {
        expect(Fs.statSync(Path.join(cache, "check-v1", folder!, file)).mode & 0o777).toBe(0o600)
      }

      // 450 older bundles on the account: the listing (newest first) stops at its first page, where
      // the repository's three are, instead of paging through all of them
      yield* app.sql`
        INSERT INTO artifact_bundles (user_id, name, created_at, updated_at)
        SELECT b.user_id, 'older-' || g, now() - interval '1 day', now() - interval '1 day'
        FROM (SELECT user_id FROM artifact_bundles WHERE name = 'skills/gh-fix-ci') b, generate_series(1, 450) g`

      // nothing changed: one listing of the bundles, and one estimate for the one rubric the three
      // audits used (its witness); the listing shows the other two bundles as they were
      const versions = yield* count("file_versions")
      const again = yield* run()
      expect(again.requests).toEqual({ "GET /api/v1/artifact-bundles": 1, "POST /api/v1/artifact-bundles/{id}/audits/estimate": 1 })
      expect(again.stderr).toContain("quote: 3 artifacts: 0 to audit (0 credits), 3 reused")
      expect(verdictOf(again.stdout)).toEqual(verdict)
      expect(yield* count("file_versions")).toBe(versions)

      // someone changes a file in the service: the estimate's inputHash differs, so that artifact is
      // synced again (its local content wins) and audited anew; the other two stay at one request
      const bundles = (yield* call((a) => a.request("GET", "/artifact-bundles?limit=200", { token: key }))).body.data.artifactBundles
      const comms = bundles.find((b) => b.name === "skills/internal-comms")!
      const files = (yield* call((a) => a.request("GET", `/artifact-bundles/${comms.id}/files?limit=200`, { token: key }))).body.data.files
      const skill = files.find((f) => f.path === "SKILL.md")!
      const changed = yield* call((a) =>
        a.request("PUT", `/artifact-bundles/${comms.id}/files/${skill.id}`, { token: key, body: { content: "---\nname: internal-comms\ndescription: changed elsewhere\n---\n# x\n" } }))
      expect(changed.status).toBe(200)
      const behind = yield* run()
      expect(behind.requests["GET /api/v1/artifact-bundles/{id}/files"]).toBe(1)
      expect(behind.requests["PUT /api/v1/artifact-bundles/{id}/files/{id}"]).toBe(1)
      expect(behind.stderr).toContain("quote: 3 artifacts: 1 to audit")
      const served = (yield* call((a) => a.request("GET", `/artifact-bundles/${comms.id}/files/${skill.id}`, { token: key }))).body.data.content
      expect(served).toBe(Fs.readFileSync(Path.join(root, "skills/internal-comms/SKILL.md"), "utf8"))
      const settled = verdictOf(behind.stdout)

      // a file deleted in the service lowers the bundle's file count in the listing: that artifact is
      // estimated, found different and synced (the file uploaded again); the verdict is unchanged
      const plans = bundles.find((b) => b.name === "skills/gh-fix-ci")!
      const planFiles = (yield* call((a) => a.request("GET", `/artifact-bundles/${plans.id}/files?limit=200`, { token: key }))).body.data.files
      expect(planFiles.length).toBeGreaterThan(1)
      const extra = planFiles.find((f) => f.path !== "SKILL.md")!
      expect((yield* call((a) => a.request("DELETE", `/artifact-bundles/${plans.id}/files/${extra.id}`, { token: key }))).status).toBe(200)
      const deleted = yield* run()
      expect(deleted.requests["GET /api/v1/artifact-bundles/{id}/files"]).toBe(1)
      expect(deleted.requests["POST /api/v1/artifact-bundles/{id}/files"]).toBe(1)
      expect(verdictOf(deleted.stdout).map((v: any) => v.target)).toEqual(settled.map((v: any) => v.target))

      // what a listing cannot show (a newer rubric version): the witness's estimate no longer names
      // its remembered audit (here forced re-audits are newer), so every artifact of that rubric is
      // estimated again, none is trusted on the listing alone
      yield* run()
      for (const name of SKILLS) {
        const bundle = bundles.find((b) => b.name === `skills/${name}`)!
        const forced = yield* call((a) => a.request("POST", `/artifact-bundles/${bundle.id}/audits`, { token: key, body: { force: true, folderName: name } }))
        expect(forced.status).toBe(202)
      }
      const doubted = yield* run()
      expect(doubted.requests["POST /api/v1/artifact-bundles/{id}/audits/estimate"]).toBe(3)
      expect(doubted.requests["GET /api/v1/artifact-bundles/{id}/files"]).toBeUndefined()
      expect(doubted.stderr).toContain("quote: 3 artifacts: 0 to audit (0 credits), 3 reused")

      // a cache file that does not parse is ignored: the full path, the same verdict
      for (const file of Fs.readdirSync(Path.join(cache, "check-v1", folder!))) Fs.writeFileSync(Path.join(cache, "check-v1", folder!, file), "{not json")
      const broken = yield* run()
      expect(broken.requests["GET /api/v1/artifact-bundles/{id}/files"]).toBe(3)
      expect(broken.requests["GET /api/v1/artifact-bundles/{id}/audits/{id}"]).toBe(3)
      expect(verdictOf(broken.stdout)).toEqual(settled)

      // --no-cache reads and writes nothing: every artifact listed and its audit read
      Fs.rmSync(cache, { recursive: true, force: true })
      const uncached = yield* run("--no-cache")
      expect(uncached.requests["GET /api/v1/artifact-bundles/{id}/files"]).toBe(3)
      expect(uncached.requests["GET /api/v1/artifact-bundles/{id}/audits/{id}"]).toBe(3)
      expect(verdictOf(uncached.stdout)).toEqual(settled)
      expect(Fs.existsSync(cache)).toBe(false)
    }), { timeout: 120_000 })
})
