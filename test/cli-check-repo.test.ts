/**
 * Issue 26: `rubr check` over a repository, against a running service: a fixture repository built
 * from the shared corpus in the layouts teams use (skills/*, plugins/*\/skills/*, a skill nested in
 * another, AGENTS.md, a Claude command, .gitignore), discovery and --list, the quote and
 * --max-credits, per-path gates, every format read by a real tool (SARIF against its schema with ajv,
 * JUnit with an XML parser, the Code Quality JSON), --changed-since in a real git repository,
 * --fix and --diff, bad input, and concurrency with a slow reviewer.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { allScopes } from "../src/auth/Scopes.js"
import { cli, countingServer } from "./support/Cli.js"
import { call, count, REPAIRABLE_SKILL } from "./support/fixtures.js"
import { sarifSchemaErrors } from "./support/Sarif.js"
import { makeTestApp, TestApp } from "./support/TestApp.js"
import { CORPUS_ROOT } from "./support/Corpus.js"

const CORPUS = CORPUS_ROOT
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" })
const asArray = <T>(x: T | ReadonlyArray<T> | undefined): ReadonlyArray<T> => (x === undefined ? [] : Array.isArray(x) ? x : [x as T])

const ARTIFACTS = [
  ".claude/commands/review.md",
  "AGENTS.md",
  "plugins/science/skills/dhdna-profiler",
  "plugins/science/skills/tiledbvcf",
  "plugins/science/skills/zarr-python",
  "skills/executing-plans",
  "skills/gh-fix-ci",
  "skills/gh-fix-ci/extras/what-if-oracle",
  "skills/internal-comms",
  "skills/test-driven-development"
]

/** The fixture repository, removed when the scope ends. */
const repository = (extra: Record<string, string> = {}) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const root = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-repo-"))
      const copy = (from: string, to: string) => Fs.cpSync(Path.join(CORPUS, from), Path.join(root, to), { recursive: true })
      for (const name of ["executing-plans", "gh-fix-ci", "internal-comms", "test-driven-development"]) copy(`skills/${name}`, `skills/${name}`)
      for (const name of ["dhdna-profiler", "tiledbvcf", "zarr-python"]) copy(`skills-extra/${name}`, `plugins/science/skills/${name}`)
      // a skill inside another skill's folder is a skill of its own
      copy("skills-extra/what-if-oracle", "skills/gh-fix-ci/extras/what-if-oracle")
      const files: Record<string, string | Uint8Array> = {
        "AGENTS.md": "# Agents\n\nRun `npm test` before every commit. Keep changes small.\n",
        ".claude/commands/review.md": "---\ndescription: Review the staged diff\n---\n\nReview the staged changes for bugs and missing tests. List each problem with its file and line.\n",
        ".gitignore": "build/\n",
        "build/SKILL.md": "---\nname: build\ndescription: ignored\n---\n",
        "README.md": "# A skills repository\n",
        // never uploaded: a binary file and one over 1 MiB
        "skills/gh-fix-ci/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
        "skills/executing-plans/big.txt": "x".repeat(1024 * 1024 + 10),
        ...extra
      }
      for (const [path, content] of Object.entries(files)) {
        Fs.mkdirSync(Path.dirname(Path.join(root, path)), { recursive: true })
        Fs.writeFileSync(Path.join(root, path), content)
      }
      return root
    }),
    (root) => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true }))
  )

const git = (root: string, ...args: Array<string>) =>
  execFileSync("git", ["-C", root, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { stdio: "pipe" }).toString()


const envFor = (baseUrl: string, apiKey?: string) => ({ SERVICE_BASE_URL: baseUrl, ...(apiKey ? { SERVICE_API_KEY: apiKey } : {}) })

// enough credits for several whole-repository runs (a run of the fixture costs about 100)
layer(makeTestApp({ role: "all", env: { SERVICE_SIGNUP_CREDITS: "100000" } }))("rubr check over a repository", (it) => {
  it.scoped("--list: every artifact and its bundle (nested skills apart, .gitignore honoured), with no request", () =>
    Effect.gen(function*() {
      const server = yield* countingServer
      const root = yield* repository()
      const listed = yield* cli(["check", "--list", "--format", "json"], { cwd: root, env: envFor(server.url, "rubr_x") })
      expect(listed.code).toBe(0)
      const found = JSON.parse(listed.stdout)
      expect(found.artifacts.map((a: any) => a.path)).toEqual(ARTIFACTS)
      const byPath = new Map(found.artifacts.map((a: any) => [a.path, a]))
      expect(byPath.get("skills/gh-fix-ci")).toMatchObject({ kind: "skill", bundle: "skills/gh-fix-ci" })
      // the nested skill's files are its own, not its parent's
      expect((byPath.get("skills/gh-fix-ci") as any).files.some((f: string) => f.includes("what-if-oracle"))).toBe(false)
      expect(byPath.get("AGENTS.md")).toMatchObject({ kind: "agent-instructions" })
      expect(byPath.get(".claude/commands/review.md")).toMatchObject({ kind: "command" })
      const text = yield* cli(["check", "skills", "--list"], { cwd: root, env: envFor(server.url) })
      expect(text.stdout).toContain("skills/gh-fix-ci/extras/what-if-oracle")
      expect(text.stdout).not.toContain("AGENTS.md")
      // a configured prefix names the bundles
      Fs.writeFileSync(Path.join(root, ".rubr.yaml"), "bundlePrefix: acme/\nexclude: [\"plugins/**\"]\n")
      const configured = JSON.parse((yield* cli(["check", "--list", "--format", "json"], { cwd: root, env: envFor(server.url) })).stdout)
      expect(configured.artifacts.map((a: any) => a.bundle)).toEqual(ARTIFACTS.filter((a) => !a.startsWith("plugins/")).map((a) => `acme/${a}`))
      expect(server.hits()).toBe(0)
    }))

  it.scoped("bad input: a missing path, a bad configuration, --fix over conflict markers: exit 2 naming the file, no request", () =>
    Effect.gen(function*() {
      const server = yield* countingServer
      const root = yield* repository()
      const env = envFor(server.url, "rubr_x")
      const missing = yield* cli(["check", "skills/nope"], { cwd: root, env })
      expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining("skills/nope: no such file or folder")])
      Fs.writeFileSync(Path.join(root, "rubr.config.json"), JSON.stringify({ include: ["skills/**"], minScroe: 50 }))
      const unknownKey = yield* cli(["check"], { cwd: root, env })
      expect([unknownKey.code, unknownKey.stderr]).toEqual([2, expect.stringMatching(/rubr\.config\.json: minScroe: .*not a setting/)])
      Fs.writeFileSync(Path.join(root, "rubr.config.json"), JSON.stringify({ exclude: ["skills/[a-"] }))
      const badGlob = yield* cli(["check"], { cwd: root, env })
      expect([badGlob.code, badGlob.stderr]).toEqual([2, expect.stringContaining("rubr.config.json: exclude: \"skills/[a-\" is not a glob")])
      Fs.writeFileSync(Path.join(root, "rubr.config.json"), JSON.stringify({ rules: { "SK-NOT-A-RULE": "off" } }))
      const badRule = yield* cli(["check"], { cwd: root, env })
      expect([badRule.code, badRule.stderr]).toEqual([2, expect.stringContaining("rules.SK-NOT-A-RULE")])
      Fs.rmSync(Path.join(root, "rubr.config.json"))
      Fs.appendFileSync(Path.join(root, "AGENTS.md"), "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n")
      const conflicted = yield* cli(["check", "--fix"], { cwd: root, env })
      expect([conflicted.code, conflicted.stderr]).toEqual([2, expect.stringContaining("AGENTS.md: has git conflict markers")])
      expect(server.hits()).toBe(0)
    }))

  // root reads every file: an unreadable one can only be made by another user
  it.scoped.skipIf(process.getuid?.() === 0)("an unreadable file: exit 2 naming it, no request", () =>
    Effect.gen(function*() {
      const server = yield* countingServer
      const root = yield* repository()
      Fs.chmodSync(Path.join(root, "skills/internal-comms/SKILL.md"), 0)
      const unreadable = yield* cli(["check", "skills"], { cwd: root, env: envFor(server.url, "rubr_x") })
      expect([unreadable.code, unreadable.stderr]).toEqual([2, expect.stringContaining("skills/internal-comms/SKILL.md: cannot be read")])
      expect(server.hits()).toBe(0)
    }))

  it.scoped("one quote first: --max-credits below it stops before any audit starts (exit 4)", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("repo-quote", allScopes))
      const root = yield* repository()
      const before = yield* count("audit_runs")
      const stopped = yield* cli(["check", "--max-credits", "1"], { cwd: root, env: envFor(app.baseUrl, key) })
      expect(stopped.code).toBe(4)
      expect(stopped.stderr).toMatch(/quote: 10 artifacts: 10 to audit \(\d+ credits\), 0 reused/)
      expect(stopped.stderr).toContain("more than --max-credits 1; nothing was started")
      expect(yield* count("audit_runs")).toBe(before)
    }))

  it.scoped("a repository: one verdict per artifact with per-path gates, every format read by a real tool; a second run reuses every audit", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("repo-check", allScopes))
      const env = envFor(app.baseUrl, key)
      const root = yield* repository({
        // the override names gh-fix-ci's SKILL.md: a folder glob (skills/gh-fix-ci/**) would take in the skill nested in it too
      "rubr.config.json": JSON.stringify({ failOn: "none", overrides: [{ files: ["skills/gh-fix-ci/SKILL.md"], minScore: 100 }] })
      })
      const first = yield* cli(["check", "--format", "json"], { cwd: root, env })
      expect(first.code).toBe(1)
      const report = JSON.parse(first.stdout)
      expect(report.artifacts.map((a: any) => a.target)).toEqual(ARTIFACTS)
      expect(report.quote).toMatchObject({ artifacts: 10, toAudit: 10, reused: 0 })
      expect(report.quote.credits).toBeGreaterThan(0)
      const byTarget = new Map<string, any>(report.artifacts.map((a: any) => [a.target, a]))
      // the override fails gh-fix-ci alone (no audit scores 100); the others pass under failOn none
      expect(byTarget.get("skills/gh-fix-ci").passed).toBe(false)
      expect(byTarget.get("skills/gh-fix-ci").gates.find((g: any) => g.name === "min-score").passed).toBe(false)
      for (const a of report.artifacts.filter((a: any) => a.target !== "skills/gh-fix-ci")) expect([a.target, a.passed]).toEqual([a.target, true])
      expect(report.passed).toBe(false)
      // every finding points at a file of the repository
      for (const a of report.artifacts) for (const f of a.findings) expect(Fs.existsSync(Path.join(root, f.path))).toBe(true)
      // the binary and the oversized file were listed, not sent
      expect(report.skipped.map((s: any) => s.path).sort()).toEqual(["skills/executing-plans/big.txt", "skills/gh-fix-ci/logo.png"])
      expect(first.stderr).toContain("skipped skills/gh-fix-ci/logo.png: not a text file")
      expect(yield* count("bundle_files", "path IN ('logo.png', 'big.txt')")).toBe(0)
      // one progress line per artifact (no terminal: plain lines)
      for (const path of ARTIFACTS) expect(first.stderr).toContain(` ${path}  `)

      // nothing changed: every audit reused, nothing spent
      const audits = yield* count("audit_runs")
      const versions = yield* count("file_versions")
      const text = yield* cli(["check"], { cwd: root, env })
      expect(text.code).toBe(1)
      expect(text.stderr).toContain("quote: 10 artifacts: 0 to audit (0 credits), 10 reused")
      expect(text.stdout).toMatch(/ARTIFACT\s+KIND\s+SCORE\s+CRITICAL\s+MAJOR\s+MINOR\s+INFO\s+GATE/)
      expect(text.stdout).toMatch(/skills\/gh-fix-ci\s+skill\s+[\d.]+\*.*FAILED \(min-score\)/)
      expect(text.stdout).toContain("FAILED: 1 of 10 artifacts")
      expect([yield* count("audit_runs"), yield* count("file_versions")]).toEqual([audits, versions])

      const sarif = yield* cli(["check", "--format", "sarif"], { cwd: root, env })
      const log = JSON.parse(sarif.stdout)
      expect(sarifSchemaErrors(log)).toEqual([])
      expect(log.runs).toHaveLength(1)
      const results = log.runs[0].results
      expect(results.length).toBe(report.artifacts.reduce((n: number, a: any) => n + a.findings.length, 0))
      for (const r of results) {
        const uri = r.locations[0].physicalLocation.artifactLocation.uri
        expect(Fs.existsSync(Path.join(root, decodeURIComponent(uri)))).toBe(true)
        expect(log.runs[0].tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId)
      }
      expect(new Set(results.map((r: any) => r.locations[0].physicalLocation.artifactLocation.uri.split("/")[0]))).toEqual(new Set(["skills", "plugins", "AGENTS.md", ".claude"].filter((top) => results.some((r: any) => r.locations[0].physicalLocation.artifactLocation.uri.startsWith(top)))))

      const junit = yield* cli(["check", "--format", "junit"], { cwd: root, env })
      expect(XMLValidator.validate(junit.stdout)).toBe(true)
      const suites = asArray<any>(xml.parse(junit.stdout).testsuites.testsuite)
      expect(suites.map((s) => s.name)).toEqual(ARTIFACTS.map((a) => `rubr check ${a}`))
      expect(suites.filter((s) => Number(s.failures) > 0).map((s) => s.name)).toEqual(["rubr check skills/gh-fix-ci"])

      const quality = yield* cli(["check", "--format", "codeclimate"], { cwd: root, env })
      const issues = JSON.parse(quality.stdout)
      expect(Array.isArray(issues)).toBe(true)
      expect(issues.length).toBe(results.length + 1)
      for (const issue of issues) {
        expect(issue).toMatchObject({ type: "issue", check_name: expect.any(String), description: expect.any(String), fingerprint: expect.stringMatching(/^[0-9a-f]{64}-\d+$/) })
        expect(["info", "minor", "major", "critical", "blocker"]).toContain(issue.severity)
        expect(issue.location.lines.begin).toBeGreaterThanOrEqual(1)
        expect(Fs.existsSync(Path.join(root, issue.location.path))).toBe(true)
      }
      expect(new Set(issues.map((i: any) => i.fingerprint)).size).toBe(issues.length)
      expect(issues.find((i: any) => i.check_name === "rubr/min-score").location.path).toBe("skills/gh-fix-ci/SKILL.md")

      // a rule turned off in the configuration is off in the audits (new audits: the review options changed)
      const counts = new Map<string, number>()
      for (const a of report.artifacts) for (const f of a.findings) counts.set(f.ruleId, (counts.get(f.ruleId) ?? 0) + 1)
      const common = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]
      Fs.writeFileSync(Path.join(root, "rubr.config.json"), JSON.stringify({ rules: { [common]: "off" } }))
      const offRun = yield* cli(["check", "--format", "json"], { cwd: root, env })
      expect([offRun.code, offRun.stderr]).toEqual([0, expect.any(String)])
      const off = JSON.parse(offRun.stdout)
      expect(off.quote.toAudit).toBe(10)
      expect(off.artifacts.flatMap((a: any) => a.findings).filter((f: any) => f.ruleId === common)).toEqual([])
    }), { timeout: 120_000 })

  it.scoped("--changed-since REF: only the artifacts whose files differ from the ref, asked of git; not a repository or an unknown ref: exit 2", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("repo-git", allScopes))
      const env = envFor(app.baseUrl, key)
      const root = yield* repository()
      const notRepo = yield* cli(["check", "--list", "--changed-since", "main"], { cwd: root, env })
      expect([notRepo.code, notRepo.stderr]).toEqual([2, expect.stringContaining("needs a git repository")])
      git(root, "init", "-q", "-b", "main")
      git(root, "add", "-A")
      git(root, "commit", "-q", "-m", "skills")
      const unknownRef = yield* cli(["check", "--list", "--changed-since", "no-such-branch"], { cwd: root, env })
      expect([unknownRef.code, unknownRef.stderr]).toEqual([2, expect.stringContaining("no-such-branch: git knows no such commit")])
      const nothing = yield* cli(["check", "--changed-since", "main", "--format", "json"], { cwd: root, env })
      expect([nothing.code, JSON.parse(nothing.stdout).artifacts]).toEqual([0, []])

      // an edited skill file, a file deleted from another skill, a new untracked command
      Fs.appendFileSync(Path.join(root, "skills/internal-comms/SKILL.md"), "\nKeep every update under 200 words.\n")
      git(root, "rm", "-q", "-r", "plugins/science/skills/zarr-python/" + Fs.readdirSync(Path.join(root, "plugins/science/skills/zarr-python")).find((f) => f !== "SKILL.md")!)
      Fs.writeFileSync(Path.join(root, ".claude/commands/ship.md"), "Ship the release: run the tests, tag the version, push the tag.\n")
      const listed = JSON.parse((yield* cli(["check", "--list", "--changed-since", "main", "--format", "json"], { cwd: root, env })).stdout)
      expect(listed.artifacts.map((a: any) => a.path)).toEqual([".claude/commands/ship.md", "plugins/science/skills/zarr-python", "skills/internal-comms"])
      expect(listed.unchanged).toBe(ARTIFACTS.length - 2)
      // from a subfolder, the same repository
      const checked = yield* cli(["check", "skills", "--changed-since", "main", "--format", "json"], { cwd: root, env })
      expect(JSON.parse(checked.stdout).artifacts.map((a: any) => a.target)).toEqual(["skills/internal-comms"])
    }), { timeout: 120_000 })

  it.scoped("--diff shows the improved files as a unified diff; --fix writes them (only into the artifact's files), for one skill and for a repository", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("repo-fix", allScopes))
      const env = envFor(app.baseUrl, key)
      // named tidy-release in a folder called release-tidy: the audit's improved version renames it
      const root = yield* repository({ "skills/release-tidy/SKILL.md": REPAIRABLE_SKILL })
      const skill = Path.join(root, "skills/release-tidy/SKILL.md")
      const diff = yield* cli(["check", "skills/release-tidy", "--diff"], { cwd: root, env })
      expect(diff.stdout).toContain("--- a/skills/release-tidy/SKILL.md")
      expect(diff.stdout).toContain("+++ b/skills/release-tidy/SKILL.md")
      expect(diff.stdout).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@/m)
      // no terminal: no colours
      expect(diff.stdout).not.toContain("\x1b[")
      expect(Fs.readFileSync(skill, "utf8")).toBe(REPAIRABLE_SKILL)

      const fixed = yield* cli(["check", "skills/release-tidy", "--fix", "--format", "json"], { cwd: root, env })
      expect(JSON.parse(fixed.stdout).fixed).toEqual(["skills/release-tidy/SKILL.md"])
      expect(fixed.stderr).toContain("fixed skills/release-tidy/SKILL.md")
      const after = Fs.readFileSync(skill, "utf8")
      expect(after).not.toBe(REPAIRABLE_SKILL)
      // the improvement applied locally is the audit's improved version
      const auditId = JSON.parse(fixed.stdout).audit.id
      const bundleId = JSON.parse(fixed.stdout).bundle.id
      const detail = (yield* call((a) => a.request("GET", `/artifact-bundles/${bundleId}/audits/${auditId}`, { token: key }))).body.data.auditRun
      expect(after).toBe(detail.improvedVersion!.content)

      // over the repository: every rewritten file is inside its own artifact; other files are untouched
      const before = new Map(ARTIFACTS.map((a) => [a, Fs.readFileSync(Path.join(root, a.endsWith(".md") ? a : `${a}/SKILL.md`), "utf8")]))
      const repoDiff = yield* cli(["check", "--diff", "--format", "json"], { cwd: root, env })
      const report = JSON.parse(repoDiff.stdout)
      const shown = [...repoDiff.stderr.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1]!)
      for (const [a, content] of before) expect(Fs.readFileSync(Path.join(root, a.endsWith(".md") ? a : `${a}/SKILL.md`), "utf8")).toBe(content)
      const repoFix = yield* cli(["check", "--fix", "--format", "json"], { cwd: root, env })
      const written = JSON.parse(repoFix.stdout).artifacts.flatMap((a: any) => (a.fixed ?? []).map((f: string) => [a.target, f]))
      expect(written.map(([, f]: Array<string>) => f).sort()).toEqual(shown.sort())
      for (const [target, file] of written) expect(file === target || file.startsWith(`${target}/`)).toBe(true)
      expect(report.artifacts).toHaveLength(ARTIFACTS.length + 1)
    }), { timeout: 120_000 })
})

layer(makeTestApp({ role: "all", env: { SERVICE_MOCK_REVIEW_DELAY_MS: "1500", SERVICE_SIGNUP_CREDITS: "100000" } }))("rubr check over a repository with a slow reviewer", (it) => {
  it.scoped("--concurrency bounds how many audits run at once; --fix refuses a file that changed since it was uploaded", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("repo-slow", allScopes))
      const env = envFor(app.baseUrl, key)
      const root = yield* repository()
      /** the most audit jobs that ran at the same time, from the jobs' own start and end */
      const overlap = Effect.map(
        app.sql<{ n: number }>`
          SELECT coalesce(max(n), 0)::int AS n FROM (
            SELECT (SELECT count(*) FROM jobs o WHERE o.kind = 'audit' AND o.started_at <= j.started_at AND o.finished_at > j.started_at) AS n
            FROM jobs j WHERE j.kind = 'audit' AND j.started_at IS NOT NULL
          ) s`.pipe(Effect.orDie),
        (rows) => rows[0]!.n
      )
      const one = yield* cli(["check", "skills", "--concurrency", "1", "--format", "json"], { cwd: root, env })
      expect(JSON.parse(one.stdout).artifacts).toHaveLength(5)
      expect(yield* overlap).toBe(1)
      const four = yield* cli(["check", "plugins", "AGENTS.md", ".claude", "--concurrency", "4", "--format", "json"], { cwd: root, env })
      expect(JSON.parse(four.stdout).artifacts).toHaveLength(5)
      expect(yield* overlap).toBeGreaterThanOrEqual(2)

      // the file changes while its audit runs: nothing is written, the new edit stays
      const skill = Path.join(root, "skills/release-tidy/SKILL.md")
      Fs.mkdirSync(Path.dirname(skill), { recursive: true })
      Fs.writeFileSync(skill, REPAIRABLE_SKILL)
      const fixing = cli(["check", "skills/release-tidy", "--fix"], { cwd: root, env })
      const editMeanwhile = Effect.gen(function*() {
        for (let i = 0; i < 200; i++) {
          const running = yield* app.sql<{ id: string }>`SELECT id FROM jobs WHERE kind = 'audit' AND state IN ('queued', 'running') LIMIT 1`.pipe(Effect.orDie)
          if (running[0]) {
            Fs.appendFileSync(skill, "\nA late edit.\n")
            return
          }
          yield* Effect.sleep("25 millis")
        }
        throw new Error("no audit started")
      })
      const [refused] = yield* Effect.all([fixing, editMeanwhile], { concurrency: 2 })
      expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining("skills/release-tidy/SKILL.md changed since it was uploaded")])
      expect(Fs.readFileSync(skill, "utf8")).toBe(`${REPAIRABLE_SKILL}\nA late edit.\n`)
    }), { timeout: 120_000 })
})
