/**
 * Issue 13: the real CLI (`node bin/rubr.js`, the bundle users run) against a real service started
 * here: every command, every format, every exit code 0-5, dry runs that make no request, JUnit
 * parsed with an XML parser and SARIF checked against the SARIF 2.1.0 schema.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { XMLParser, XMLValidator } from "fast-xml-parser"
import * as Fs from "node:fs"
import { execFileSync, spawn } from "node:child_process"
import * as Os from "node:os"
import * as Path from "node:path"
import { allScopes } from "../src/auth/Scopes.js"
import { BIN, cli, countingServer, folderWith } from "./support/Cli.js"
import { makeTestApp, TestApp } from "./support/TestApp.js"
import { call, count, DEPLOY_SKILL } from "./support/fixtures.js"
import { sarifSchemaErrors } from "./support/Sarif.js"

const VALID_FLOW = Fs.readFileSync(new URL("../docs/rubr-flow.md", import.meta.url), "utf8").match(/```yaml\n([\s\S]*?)```/)![1]!
const INVALID_FLOW = `rubr_flow: "1.0"\nname: broken\ndescription: A flow with a typo.\nwhen_to_use: Never.\nsteps:\n  - id: one\n    title: First\n    action: Do it.\n    chek: It is done.\n`

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" })
const asArray = <T>(x: T | ReadonlyArray<T> | undefined): ReadonlyArray<T> => (x === undefined ? [] : Array.isArray(x) ? x : [x as T])


/** `script` gives the CLI a pseudo-terminal (stdout and stderr together); without it the terminal test is skipped. */
const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()

const envFor = (baseUrl: string, apiKey?: string) => ({ SERVICE_BASE_URL: baseUrl, ...(apiKey ? { SERVICE_API_KEY: apiKey } : {}) })

layer(makeTestApp({ role: "all" }))("the rubr CLI against the service", (it) => {
  it.effect("--help, --version and usage errors (exit 2); a command without a key is exit 2", () =>
    Effect.gen(function*() {
      const help = yield* cli(["--help"])
      expect(help.code).toBe(0)
      for (const command of ["check", "validate", "verify", "bundles", "files", "versions", "audits", "convert", "eval", "proof", "jobs", "credits"]) {
        expect(help.stdout).toContain(`- ${command}`)
      }
      // no terminal: no colour codes
      expect(help.stdout).not.toContain("\x1b[")
      expect((yield* cli(["check", "--help"])).stdout).toContain("--min-score")
      const version = yield* cli(["--version"])
      expect([version.code, version.stdout.trim()]).toEqual([0, "0.1.0"])

      const unknown = yield* cli(["deploy"])
      expect(unknown.code).toBe(2)
      // PATH defaults to the working directory: an empty one holds nothing to check
      const empty = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-empty-"))
      const missing = yield* cli(["check"], { cwd: empty })
      expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining("holds no artifact")])
      const badValue = yield* cli(["check", ".", "--min-score", "lots"])
      expect(badValue.code).toBe(2)
      const outOfRange = yield* cli(["check", ".", "--min-score", "101"])
      expect([outOfRange.code, outOfRange.stderr]).toEqual([2, expect.stringContaining("0-100")])
      // every integer flag carries its range in its schema (Options.withSchema), checked as it is parsed
      const tooMany = yield* cli(["check", ".", "--concurrency", "33"])
      expect([tooMany.code, tooMany.stderr]).toEqual([2, expect.stringContaining("--concurrency is 1-32")])
      const noPage = yield* cli(["bundles", "list", "--limit", "0"])
      expect([noPage.code, noPage.stderr]).toEqual([2, expect.stringContaining("--limit is 1 or more")])
      const badFormat = yield* cli(["credits", "--format", "junit"])
      expect([badFormat.code, badFormat.stderr]).toEqual([2, expect.stringContaining("text or json")])
      const app = yield* TestApp
      const noKey = yield* cli(["credits"], { env: envFor(app.baseUrl) })
      expect([noKey.code, noKey.stderr]).toEqual([2, expect.stringContaining("SERVICE_API_KEY")])
      const badUrl = yield* cli(["credits", "--base-url", "not a url"], { env: { SERVICE_API_KEY: "rubr_x" } })
      expect(badUrl.code).toBe(2)
    }))

  it.scoped("validate: offline, every format; exit 0 valid, 1 invalid, 2 for a missing file", () =>
    Effect.gen(function*() {
      const { dir } = yield* folderWith("flows", { "good.rubr_flow": VALID_FLOW, "nested/bad.rubr_flow": INVALID_FLOW, "notes.md": "# not a flow\n" })
      // no service anywhere: validation makes no request
      const offline = { SERVICE_BASE_URL: "http://127.0.0.1:1/api/v1" }
      const good = yield* cli(["validate", Path.join(dir, "good.rubr_flow")], { env: offline })
      expect([good.code, good.stdout]).toEqual([0, expect.stringContaining("1 valid")])
      const both = yield* cli(["validate", dir], { env: offline })
      expect(both.code).toBe(1)
      expect(both.stdout).toContain("bad.rubr_flow:9")
      expect(both.stdout).toContain("unknown_field")

      const json = yield* cli(["validate", dir, "--format", "json"], { env: offline })
      const report = JSON.parse(json.stdout)
      expect(report.passed).toBe(false)
      expect(report.files.map((f: any) => [f.file.endsWith("good.rubr_flow"), f.valid])).toEqual([[true, true], [false, false]])
      expect(report.files[1].issues.find((i: any) => i.code === "unknown_field")).toMatchObject({ severity: "error", line: 9, path: "steps.0.chek", message: expect.stringContaining("check") })

      const junit = yield* cli(["validate", dir, "--format", "junit"], { env: offline })
      expect(junit.code).toBe(1)
      expect(XMLValidator.validate(junit.stdout)).toBe(true)
      const suites = xml.parse(junit.stdout).testsuites
      expect(Number(suites.failures)).toBeGreaterThan(0)
      expect(asArray(suites.testsuite)).toHaveLength(2)

      const sarif = yield* cli(["validate", dir, "--format", "sarif"], { env: offline })
      const log = JSON.parse(sarif.stdout)
      expect(sarifSchemaErrors(log)).toEqual([])
      expect(log.runs[0].results.map((r: any) => [r.ruleId, r.level])).toContainEqual(["unknown_field", "error"])

      const absent = yield* cli(["validate", Path.join(dir, "nope.rubr_flow")], { env: offline })
      expect([absent.code, absent.stderr]).toEqual([2, expect.stringContaining("No such file")])
    }))

  it.scoped("check: syncs the folder, audits, judges the gates; a second run writes nothing and spends nothing", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("cli-checker", allScopes))
      const env = envFor(app.baseUrl, key)
      const { dir } = yield* folderWith("deploy-preview", {
        "SKILL.md": DEPLOY_SKILL,
        "reference/notes.md": "# Notes\n\nPreview URLs expire after 7 days.\n",
        "logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
        ".git/config": "[core]\n"
      })
      const first = yield* cli(["check", dir], { env })
      expect([first.code, first.stderr]).toEqual([0, expect.stringContaining("audit")])
      expect(first.stdout).toContain("bundle deploy-preview")
      expect(first.stdout).toContain("2 uploaded")
      expect(first.stdout).toContain("PASSED")
      expect(first.stderr).toContain("skipped logo.png: not a text file")
      // progress lines went to stderr, as plain lines without a terminal
      expect(first.stderr).toMatch(/audit: (queued|preparing_context|completed)/)
      expect(first.stderr).not.toContain("\r")

      const versionsBefore = yield* count("file_versions")
      const auditsBefore = yield* count("audit_runs")
      const creditsBefore = (yield* call((a) => a.request("GET", "/credits", { token: key }))).body.data.balance
      const second = yield* cli(["check", dir, "--format", "json"], { env })
      expect(second.code).toBe(0)
      const report = JSON.parse(second.stdout)
      expect(report.sync).toMatchObject({ uploaded: 0, updated: 0, unchanged: 2 })
      expect(report.audit.fresh).toBe(false)
      expect(yield* count("file_versions")).toBe(versionsBefore)
      expect(yield* count("audit_runs")).toBe(auditsBefore)
      expect((yield* call((a) => a.request("GET", "/credits", { token: key }))).body.data.balance).toBe(creditsBefore)
      expect(report.gates.map((g: any) => [g.name, g.passed])).toEqual([["min-score", true], ["fail-on", true]])
      expect(report.findings.length).toBeGreaterThan(0)

      // a changed file is a new version of that file only
      Fs.writeFileSync(Path.join(dir, "reference/notes.md"), "# Notes\n\nPreview URLs expire after 3 days.\n")
      const third = yield* cli(["check", dir, "--format", "json", "--min-score", "100", "--fail-on", "minor"], { env })
      expect(third.code).toBe(1)
      const failed = JSON.parse(third.stdout)
      expect(failed.sync).toMatchObject({ uploaded: 0, updated: 1, unchanged: 1 })
      expect(failed.audit.fresh).toBe(true)
      expect(failed.passed).toBe(false)
      expect(failed.audit.overallScore).toBeLessThan(100)
      expect(failed.gates.find((g: any) => g.name === "min-score").passed).toBe(false)
      // --fail-on minor: failing findings are exactly those at minor or worse
      for (const f of failed.findings) expect(f.failing).toBe(["critical", "major", "minor"].includes(f.severity))
      expect(failed.gates.find((g: any) => g.name === "fail-on").passed).toBe(failed.findings.every((f: any) => !f.failing))
      expect(yield* count("file_versions")).toBe(versionsBefore + 1)
    }))

  it.scoped("check --bundle NAME: a root SKILL.md is named after the folder it was read from, not after the bundle", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("cli-folder", allScopes))
      const env = envFor(app.baseUrl, key)
      const nameFindings = (report: any) => report.findings.filter((f: any) => f.ruleId === "SK-NAME-FOLDER")
      // the folder matches the skill's name; the bundle is called something else
      const { dir } = yield* folderWith("deploy-preview", { "SKILL.md": DEPLOY_SKILL })
      const named = yield* cli(["check", dir, "--bundle", "team-skills", "--format", "json"], { env })
      expect(named.code).toBe(0)
      expect(nameFindings(JSON.parse(named.stdout))).toEqual([])
      // a copied folder keeps the old name: reported against the folder's name, whatever the bundle
      const copy = yield* folderWith("preview-copy", { "SKILL.md": DEPLOY_SKILL })
      const copied = yield* cli(["check", copy.dir, "--bundle", "deploy-preview", "--format", "json"], { env })
      const found = nameFindings(JSON.parse(copied.stdout))
      expect(found.map((f: any) => f.severity)).toEqual(["major"])
      expect(found[0].message).toContain("'preview-copy' (the folder the files were read from)")
    }))

  it.scoped("check --format junit and sarif: one testcase per gate and per finding; SARIF valid for code scanning", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("cli-reports", allScopes))
      const env = envFor(app.baseUrl, key)
      const { dir, root } = yield* folderWith("release-notes", {
        "SKILL.md": "---\nname: release-notes\ndescription: Notes.\n---\n\n# Release notes\n\nWrite the notes if needed.\n"
      })
      // run from the folder's parent, as CI runs from the repository root: paths are relative to it
      const junit = yield* cli(["check", "release-notes", "--format", "junit", "--fail-on", "major"], { env, cwd: root })
      expect(XMLValidator.validate(junit.stdout)).toBe(true)
      const suite = xml.parse(junit.stdout).testsuites.testsuite
      const cases = asArray<any>(suite.testcase)
      const gates = cases.filter((c) => c.classname === "rubr.gates")
      const findings = cases.filter((c) => c.classname.startsWith("rubr.findings."))
      expect(gates.map((g) => g.name)).toEqual(["min-score", "fail-on"])
      expect(findings.length).toBeGreaterThan(0)
      expect(cases).toHaveLength(gates.length + findings.length)
      const failingFindings = findings.filter((f) => f.failure !== undefined)
      expect(failingFindings.length).toBeGreaterThan(0)
      for (const f of failingFindings) expect(["critical", "major"]).toContain(f.failure.type)
      expect(findings.every((f) => f.file === "release-notes/SKILL.md")).toBe(true)
      expect(junit.code).toBe(1)

      const sarif = yield* cli(["check", "release-notes", "--format", "sarif", "--fail-on", "major"], { env, cwd: root })
      expect(sarif.code).toBe(1)
      const log = JSON.parse(sarif.stdout)
      expect(sarifSchemaErrors(log)).toEqual([])
      const run = log.runs[0]
      expect(run.results.length).toBe(findings.length)
      for (const r of run.results) {
        expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId)
        expect(r.locations[0].physicalLocation.artifactLocation.uri).toBe("release-notes/SKILL.md")
        expect(r.locations[0].physicalLocation.region.startLine).toBeGreaterThanOrEqual(1)
      }
      // every rule is a catalogue id, linked to its own anchor in the rubrics guide
      for (const rule of run.tool.driver.rules) {
        expect(rule.id).toMatch(/^SK-[A-Z]+(-[A-Z0-9]+)+$/)
        expect(rule.helpUri).toBe(`${app.baseUrl}/guides/rubrics#${rule.id.toLowerCase()}`)
      }
      const guide = yield* Effect.promise(() => fetch(`${app.baseUrl}/guides/rubrics`).then((r) => r.text()))
      for (const rule of run.tool.driver.rules) expect(guide).toContain(`id="${rule.id.toLowerCase()}"`)
      // the JUnit classnames name the same rules
      expect(new Set(findings.map((f) => f.classname.replace("rubr.findings.", "")))).toEqual(new Set(run.results.map((r: any) => r.ruleId)))
      expect(Fs.existsSync(Path.join(dir, "SKILL.md"))).toBe(true)
    }))

  it.scoped("check --baseline: a regression against the baseline fails the check (audit and eval, one verdict)", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("cli-baseline", allScopes))
      const env = envFor(app.baseUrl, key)
      const { dir, root } = yield* folderWith("deploy", { "SKILL.md": DEPLOY_SKILL })
      expect((yield* cli(["check", dir], { env })).code).toBe(0)
      Fs.writeFileSync(Path.join(root, "baseline.md"), DEPLOY_SKILL)
      // the edit drops the failure handling of step 2, which the baseline's eval kit tests
      Fs.writeFileSync(Path.join(dir, "SKILL.md"), DEPLOY_SKILL.replace("   - If the install fails, report the error and stop.\n", ""))
      const regressed = yield* cli(["check", dir, "--baseline", "1", "--format", "json"], { env })
      const report = JSON.parse(regressed.stdout)
      expect(report.eval).toMatchObject({ baseline: "1", scenarioCount: expect.any(Number) })
      expect(report.eval.regressedCount).toBeGreaterThan(0)
      expect(report.eval.regressedCases.map((c: any) => c.name)).toContain("Handles the case: the install fails")
      expect(regressed.stdout).not.toContain("PASSED")
      expect(report.gates.find((g: any) => g.name === "no-regression")).toMatchObject({ passed: false })
      expect(regressed.code).toBe(1)

      // a local baseline file with the same content as version 1 is version 1: no upload
      const filesBefore = yield* count("bundle_files")
      const local = yield* cli(["check", dir, "--baseline", Path.join(root, "baseline.md"), "--format", "json"], { env })
      expect(JSON.parse(local.stdout).eval.sourceFileVersionId).toBe(report.eval.sourceFileVersionId)
      expect(yield* count("bundle_files")).toBe(filesBefore)
      // the baseline being the current version: nothing to compare, the gate holds
      const same = yield* cli(["check", dir, "--baseline", "2", "--format", "json"], { env })
      expect(JSON.parse(same.stdout).gates.find((g: any) => g.name === "no-regression").passed).toBe(true)
      const bad = yield* cli(["check", dir, "--baseline", "no-such-file.md"], { env })
      expect(bad.code).toBe(2)
    }))

  it.scoped("--dry-run prints the requests and makes none, with no key needed", () =>
    Effect.gen(function*() {
      const server = yield* countingServer
      const { dir } = yield* folderWith("dry", { "SKILL.md": DEPLOY_SKILL })
      const env = { SERVICE_BASE_URL: server.url }
      const check = yield* cli(["check", dir, "--dry-run", "--baseline", "1"], { env })
      expect(check.code).toBe(0)
      const lines = check.stdout.trim().split("\n")
      // the request as the typed client builds it: query parameters in the contract's order
      expect(lines[0]).toBe("GET /api/v1/artifact-bundles?limit=200&offset=0&status=active")
      expect(lines).toContain("POST /api/v1/artifact-bundles")
      expect(lines).toContain("POST /api/v1/artifact-bundles/{artifactBundleId}/files")
      expect(lines).toContain("POST /api/v1/artifact-bundles/{artifactBundleId}/audits")
      expect(lines).toContain("POST /api/v1/artifact-bundles/{artifactBundleId}/evals")
      for (const line of lines) expect(line).toMatch(/^(GET|POST|PUT|DELETE|PATCH) \/api\/v1\//)
      const id = "0b7c6a52-56f8-4c8e-9d55-0a0c1b1f9a11"
      for (
        const args of [
          ["credits"], ["bundles", "list"], ["bundles", "archive", "x"], ["audits", "start", "--bundle", "x"], ["audits", "show", id, "--bundle", "x"],
          ["versions", "list", "--bundle", "x", "--file", "SKILL.md"], ["convert", "--bundle", "x"], ["eval", "--bundle", "x"],
          ["jobs", "watch", id], ["jobs", "cancel", id], ["files", "pull", dir, "--bundle", "x"]
        ]
      ) {
        const run = yield* cli([...args, "--dry-run"], { env })
        expect([args.join(" "), run.code]).toEqual([args.join(" "), 0])
        expect(run.stdout.trim().length).toBeGreaterThan(0)
      }
      expect(server.hits()).toBe(0)
    }))

  it.scoped("bundles, files, versions: list, create, show, push, pull (with an artifacts:pull key), restore, archive", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("cli-areas", allScopes))
      const env = envFor(app.baseUrl, key)
      const created = yield* cli(["bundles", "create", "areas", "--description", "CLI areas", "--format", "json"], { env })
      expect(created.code).toBe(0)
      const bundleId = JSON.parse(created.stdout).artifactBundle.id
      const { dir, root } = yield* folderWith("areas", { "SKILL.md": DEPLOY_SKILL, "docs/a.md": "# A\n" })
      const pushed = yield* cli(["files", "push", dir, "--bundle", "areas"], { env })
      expect([pushed.code, pushed.stdout]).toEqual([0, expect.stringContaining("2 uploaded")])
      expect((yield* cli(["bundles", "list"], { env })).stdout).toContain("areas")
      const shown = yield* cli(["bundles", "show", "areas"], { env })
      expect(shown.stdout).toContain("SKILL.md")
      expect(shown.stdout).toContain("main")
      expect(JSON.parse((yield* cli(["bundles", "show", bundleId, "--format", "json"], { env })).stdout).files).toHaveLength(2)
      expect((yield* cli(["files", "list", "--bundle", "areas"], { env })).stdout).toContain("docs/a.md")

      Fs.writeFileSync(Path.join(dir, "docs/a.md"), "# A, changed\n")
      Fs.rmSync(Path.join(dir, "SKILL.md"))
      const pruned = yield* cli(["files", "push", dir, "--bundle", "areas", "--prune", "--format", "json"], { env })
      expect(JSON.parse(pruned.stdout)).toMatchObject({ updated: ["docs/a.md"], removed: ["SKILL.md"] })

      const fileVersions = yield* cli(["versions", "list", "--bundle", "areas", "--file", "docs/a.md", "--format", "json"], { env })
      expect(JSON.parse(fileVersions.stdout).versions.map((v: any) => v.versionNumber)).toEqual([2, 1])
      const restoredFile = yield* cli(["versions", "restore", "1", "--bundle", "areas", "--file", "docs/a.md"], { env })
      expect([restoredFile.code, restoredFile.stdout]).toEqual([0, expect.stringContaining("v1 restored as v3")])
      const bundleVersions = yield* cli(["versions", "list", "--bundle", "areas"], { env })
      expect(bundleVersions.stdout.split("\n").length).toBeGreaterThan(3)
      const restoredBundle = yield* cli(["versions", "restore", "3", "--bundle", "areas", "--format", "json"], { env })
      expect(JSON.parse(restoredBundle.stdout).restoredFromArtifactBundleVersionNumber).toBe(3)

      // a pull-only key downloads the current files
      const pullKey = yield* call((a) => a.apiKey("cli-areas", ["artifacts:pull"], "pull only"))
      const target = Path.join(root, "pulled")
      const pulled = yield* cli(["files", "pull", target, "--bundle", "areas"], { env: envFor(app.baseUrl, pullKey) })
      expect([pulled.code, pulled.stderr]).toEqual([0, expect.any(String)])
      expect(Fs.readFileSync(Path.join(target, "docs/a.md"), "utf8")).toBe("# A, changed\n")
      expect(Fs.existsSync(Path.join(target, "SKILL.md"))).toBe(false)
      // and may not write (exit 3)
      Fs.writeFileSync(Path.join(dir, "docs/b.md"), "# B\n")
      const denied = yield* cli(["files", "push", dir, "--bundle", "areas"], { env: envFor(app.baseUrl, pullKey) })
      expect([denied.code, denied.stderr]).toEqual([3, expect.stringContaining("forbidden")])

      const archived = yield* cli(["bundles", "archive", "areas"], { env })
      expect([archived.code, archived.stdout]).toEqual([0, expect.stringContaining("Archived")])
      const gone = yield* cli(["bundles", "show", "areas"], { env })
      expect([gone.code, gone.stderr]).toEqual([2, expect.stringContaining("No active bundle")])
    }), { timeout: 180_000 }) // about thirty CLI processes one after another: minutes on a loaded machine

  it.scoped("audits, convert, eval, proof, verify, jobs, credits", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("cli-work", allScopes))
      const env = envFor(app.baseUrl, key)
      const { dir, root } = yield* folderWith("work", { "SKILL.md": DEPLOY_SKILL })
      expect((yield* cli(["files", "push", dir], { env })).code).toBe(0)

      const audit = yield* cli(["audits", "start", "--bundle", "work", "--format", "json"], { env })
      expect(audit.code).toBe(0)
      const auditRun = JSON.parse(audit.stdout)
      expect(auditRun).toMatchObject({ status: "completed", overallScore: expect.any(Number) })
      const shown = yield* cli(["audits", "show", "--bundle", "work"], { env })
      expect(shown.stdout).toContain(`Audit ${auditRun.id} completed`)
      const applied = yield* cli(["audits", "apply", "--bundle", "work", auditRun.id], { env })
      expect([applied.code, applied.stdout]).toEqual([0, expect.stringContaining("Applied audit")])
      const again = yield* cli(["audits", "apply", "--bundle", "work", auditRun.id], { env })
      expect([again.code, again.stderr]).toEqual([2, expect.stringContaining("conflict")])

      const converted = yield* cli(["convert", "--bundle", "work"], { env })
      expect([converted.code, converted.stdout]).toEqual([0, expect.stringContaining("generated/rubr_flow.rubr_flow written")])
      const evaluated = yield* cli(["eval", "--bundle", "work", "--format", "json"], { env })
      expect(evaluated.code).toBe(0)
      const evalRun = JSON.parse(evaluated.stdout)
      expect(evalRun.status).toBe("completed")

      const proof = yield* cli(["proof", "create", "--bundle", "work", "--eval", evalRun.id, "--audit", auditRun.id, "--format", "json"], { env })
      expect(proof.code).toBe(0)
      const proofId = JSON.parse(proof.stdout).proofReport.id
      const exportFile = Path.join(root, "proof.json")
      const exported = yield* cli(["proof", "export", proofId, "--bundle", "work", "-o", exportFile], { env })
      expect([exported.code, exported.stdout]).toEqual([0, expect.stringContaining("rubr verify")])
      const verified = yield* cli(["verify", exportFile], { env: { SERVICE_BASE_URL: app.baseUrl } })
      expect([verified.code, verified.stdout]).toEqual([0, expect.stringContaining("VALID")])
      const keysFile = Path.join(root, "keys.json")
      Fs.writeFileSync(keysFile, (yield* call((a) => a.request("GET", "/signing-keys"))).text)
      // with --keys it needs no service at all
      const offline = yield* cli(["verify", exportFile, "--keys", keysFile, "--format", "json"], { env: { SERVICE_BASE_URL: "http://127.0.0.1:1/api/v1" } })
      expect([offline.code, JSON.parse(offline.stdout).valid]).toEqual([0, true])
      const tampered = JSON.parse(Fs.readFileSync(exportFile, "utf8"))
      tampered.payload.eval.passCount += 1
      Fs.writeFileSync(exportFile, JSON.stringify(tampered))
      const invalid = yield* cli(["verify", exportFile, "--keys", keysFile], {})
      expect([invalid.code, invalid.stdout]).toEqual([1, expect.stringContaining("INVALID")])

      const job = yield* cli(["jobs", "show", auditRun.jobId], { env })
      expect([job.code, job.stdout]).toEqual([0, expect.stringContaining("completed")])
      const watched = yield* cli(["jobs", "watch", auditRun.jobId, "--format", "json"], { env })
      expect(JSON.parse(watched.stdout).job.state).toBe("completed")
      const cancelDone = yield* cli(["jobs", "cancel", auditRun.jobId], { env })
      expect(cancelDone.code).toBe(2)
      const credits = yield* cli(["credits", "--format", "json"], { env })
      expect(JSON.parse(credits.stdout)).toMatchObject({ balance: expect.any(Number), ledger: expect.any(Array) })
      expect((yield* cli(["credits"], { env })).stdout).toContain("Balance:")
    }))

  it.scoped.skipIf(!hasScript)("on a terminal: one live progress line and colours; NO_COLOR turns the colours off", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("cli-tty", allScopes))
      const { dir } = yield* folderWith("tty", { "SKILL.md": DEPLOY_SKILL })
      // asynchronously: the service answering the CLI runs in this process
      const inTerminal = (extra: Record<string, string>) =>
        Effect.promise(() =>
          new Promise<string>((resolve, reject) => {
            const child = spawn("script", ["-qfec", `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} check ${JSON.stringify(dir)} --force`, "/dev/null"], {
              env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: "xterm", ...envFor(app.baseUrl, key), ...extra },
              stdio: ["ignore", "pipe", "pipe"]
            })
            let out = ""
            child.stdout.on("data", (c: Buffer) => (out += c.toString()))
            child.on("error", reject)
            child.on("close", () => resolve(out))
          }))
      const coloured = yield* inTerminal({})
      expect(coloured).toContain("\r\x1b[2Kaudit: ")
      expect(coloured).toMatch(/\x1b\[32m/)
      expect(coloured).toContain("PASSED")
      const plain = yield* inTerminal({ NO_COLOR: "1" })
      expect(plain).toContain("\r\x1b[2Kaudit: ")
      expect(plain).not.toMatch(/\x1b\[(1|2|22|31|32|33|39)m/)
      expect(plain).toContain("PASSED")
    }))

  it.effect("exit 3 for a bad key or a missing scope; exit 5 when the service cannot be reached", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const wrong = yield* cli(["credits"], { env: envFor(app.baseUrl, "rubr_not_a_real_key_at_all_000000000000000") })
      expect([wrong.code, wrong.stderr]).toEqual([3, expect.stringContaining("unauthorized")])
      const readOnly = yield* call((a) => a.apiKey("cli-scopes", ["credits:read"]))
      const scopeless = yield* cli(["bundles", "create", "x"], { env: envFor(app.baseUrl, readOnly) })
      expect([scopeless.code, scopeless.stderr]).toEqual([3, expect.stringContaining("forbidden")])
      const down = yield* cli(["credits"], { env: envFor("http://127.0.0.1:1/api/v1", "rubr_x") })
      expect([down.code, down.stderr]).toEqual([5, expect.stringContaining("network_error")])
    }))
})

layer(makeTestApp({ role: "all", env: { SERVICE_AUDIT_CREDIT_MODE: "flat", SERVICE_AUDIT_RUN_CREDITS: "5", SERVICE_SIGNUP_CREDITS: "3" } }))(
  "the rubr CLI when credits run out",
  (it) => {
    it.scoped("exit 4 when the audit cannot be paid for; nothing is half-written", () =>
      Effect.gen(function*() {
        const app = yield* TestApp
        const key = yield* call((a) => a.apiKey("cli-poor", allScopes))
        const { dir } = yield* folderWith("poor", { "SKILL.md": DEPLOY_SKILL })
        const check = yield* cli(["check", dir], { env: envFor(app.baseUrl, key) })
        expect([check.code, check.stderr]).toEqual([4, expect.stringContaining("credit_limit_exceeded")])
        expect(check.stderr).toContain("rubr credits")
        expect(yield* count("audit_runs")).toBe(0)
      }))
  }
)

layer(makeTestApp({ role: "all", env: { SERVICE_MOCK_REVIEW_DELAY_MS: "3000" } }))("the rubr CLI with a slow reviewer", (it) => {
  it.scoped("--detach answers at once; a cancelled job is exit 5 for watch and check", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* call((a) => a.apiKey("cli-slow", allScopes))
      const env = envFor(app.baseUrl, key)
      const { dir } = yield* folderWith("slow", { "SKILL.md": DEPLOY_SKILL })
      expect((yield* cli(["files", "push", dir], { env })).code).toBe(0)
      const started = yield* cli(["audits", "start", "--bundle", "slow", "--detach", "--format", "json"], { env })
      expect(started.code).toBe(0)
      const jobId = JSON.parse(started.stdout).jobId
      // it answered without waiting: the job it printed has not ended, where a wait would have printed
      // the completed job (no timing: a loaded machine may take seconds just to start the process)
      expect(["queued", "running"]).toContain(JSON.parse(started.stdout).job.state)
      const cancelled = yield* cli(["jobs", "cancel", jobId, "--format", "json"], { env })
      expect([cancelled.code, JSON.parse(cancelled.stdout).job.state]).toEqual([0, "cancelled"])
      const watched = yield* cli(["jobs", "watch", jobId], { env })
      expect([watched.code, watched.stderr]).toEqual([5, expect.stringContaining("cancelled")])

      // a check whose audit is cancelled meanwhile ends with exit 5 and the job's state
      const checking = cli(["check", dir, "--force"], { env })
      const cancelLater = Effect.gen(function*() {
        for (let i = 0; i < 100; i++) {
          const jobs = yield* app.sql<{ id: string }>`SELECT id FROM jobs WHERE state IN ('queued', 'running') LIMIT 1`.pipe(Effect.orDie)
          if (jobs[0]) return yield* cli(["jobs", "cancel", jobs[0].id], { env })
          yield* Effect.sleep("50 millis")
        }
        throw new Error("no job to cancel")
      })
      const [check] = yield* Effect.all([checking, cancelLater], { concurrency: 2 })
      expect([check.code, check.stderr]).toEqual([5, expect.stringContaining("job_failed")])
    }), { timeout: 180_000 })
})
