/** Issue 4: audits end to end on the worker, with the mock reviewer. */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeTestApp } from "./support/TestApp.js"
import { bundleWith, call, skillBundle, waitForJob } from "./support/fixtures.js"

layer(makeTestApp({ role: "all" }))("audits end to end", (it) => {
  it.effect("upload, estimate, start, watch the job, read findings, apply, and see the ledger explain it", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("author"))
      const { bundleId } = yield* skillBundle(token)

      const estimate = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits/estimate`, { token, body: {} }))
      expect(estimate.status).toBe(200)
      expect(estimate.body.data.target.targetMode).toBe("file")
      expect(estimate.body.data.target.targetFilePath).toBe("SKILL.md")
      const credits = estimate.body.data.estimate.estimatedCredits
      expect(credits).toBeGreaterThan(0)

      const started = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
      expect(started.status).toBe(202)
      expect(started.body.data.estimate).toEqual(estimate.body.data.estimate)
      expect(started.body.data.jobId).toBe(started.body.data.job.id)
      expect(started.body.data.auditRun.status).toBe("queued")
      const job = yield* waitForJob(token, started.body.data.jobId)
      expect(job.state).toBe("completed")
      const events = yield* call((app) => app.request("GET", `/jobs/${job.id}/events`, { token }))
      expect(events.body.data.events.map((e) => e.sequence)).toEqual(events.body.data.events.map((_, i) => i + 1))
      expect(events.body.data.events.map((e) => e.phase)).toEqual(expect.arrayContaining(["preparing_context", "scoring", "writing_results", "completed"]))

      const run = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits/${started.body.data.auditRun.id}`, { token }))
      expect(run.status).toBe(200)
      const detail = run.body.data.auditRun
      expect(detail.status).toBe("completed")
      expect(detail.overallScore).toBeGreaterThan(0)
      const dangling = detail.findings.find((f) => JSON.stringify(f).includes("templates/notes.md"))
      expect(dangling).toBeDefined()
      expect(dangling!.filePath).toBe("SKILL.md")
      expect(detail.improvedVersion).not.toBeNull()
      expect(detail.finalChargedCredits).toBe(credits)

      const applied = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits/${detail.id}/apply`, { token }))
      expect(applied.status).toBe(200)
      expect(applied.body.data.appliedCount).toBe(1)
      expect(applied.body.data.files[0]).toMatchObject({ path: "SKILL.md", versionNumber: 2 })
      const file = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files/${applied.body.data.files[0].fileId}`, { token }))
      expect(file.body.data.content.startsWith("---\nname: release-notes\ndescription: Writes release notes from merged pull requests. Use when preparing a release.\n---\n")).toBe(true)
      expect(file.body.data.content).not.toContain("](templates/notes.md)")
      const again = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits/${detail.id}/apply`, { token }))
      expect(again.status).toBe(409)

      const ledger = yield* call((app) => app.request("GET", "/credits", { token }))
      expect(ledger.body.data.balance).toBe(100 - credits)
      expect(ledger.body.data.ledger.map((e) => [e.type, e.amount, e.reason])).toEqual([
        ["debit", credits, "audit_run"],
        ["grant", 100, "signup_grant"]
      ])
    }))

  it.effect("bundle mode: with no primary every file is reviewed and apply writes every improved file", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("bundler"))
      const { bundleId } = yield* bundleWith(token, [
        { path: "prompts/triage.md", content: "# Triage\n\nTry to handle issues properly, etc.   \nUse the [runbook](docs/runbook.md).\n" },
        { path: "prompts/summary.md", content: "# Summary\n\nSummarize various things as needed.  \n" }
      ])
      const started = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
      expect(started.status).toBe(202)
      expect(started.body.data.target.targetMode).toBe("bundle")
      expect(started.body.data.auditRun.targetFileVersionId).toBeNull()
      const job = yield* waitForJob(token, started.body.data.jobId)
      expect(job.state).toBe("completed")
      const run = (yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits/${started.body.data.auditRun.id}`, { token }))).body.data.auditRun
      expect(run.improvedVersion).toBeNull()
      expect(run.improvedFiles.length).toBeGreaterThan(0)
      expect(new Set(run.findings.map((f) => f.filePath))).toEqual(new Set(["prompts/triage.md", "prompts/summary.md"]))
      const applied = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits/${run.id}/apply`, { token }))
      expect(applied.status).toBe(200)
      expect(applied.body.data.appliedCount).toBe(run.improvedFiles.length)
      expect(applied.body.data.files.map((f) => f.versionNumber)).toEqual(run.improvedFiles.map(() => 2))
    }))

  it.effect("apply is 409 when a file changed after the audit (and while the run is not completed: audits-admission.test.ts)", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("racer"))
      const { bundleId, files } = yield* skillBundle(token)
      const started = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
      yield* waitForJob(token, started.body.data.jobId)
      const skill = files.find((f) => f.file.path === "SKILL.md")!
      yield* call((app) => app.request("PUT", `/artifact-bundles/${bundleId}/files/${skill.file.id}`, { token, body: { content: "# Changed meanwhile\n" } }))
      const late = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits/${started.body.data.auditRun.id}/apply`, { token }))
      expect(late.status).toBe(409)
      expect(late.body.error.details[0].path).toBe("SKILL.md")
      const file = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files/${skill.file.id}`, { token }))
      expect(file.body.data.content).toBe("# Changed meanwhile\n")
      // the refused apply did not consume the run
      const run = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits/${started.body.data.auditRun.id}`, { token }))
      expect(run.body.data.auditRun.appliedAt).toBeNull()
    }))

  it.effect("the dashboard's choices: model tier and reasoning effort price the estimate; targetMode bundle reviews every file beside a main artifact", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("chooser"))
      const { bundleId } = yield* skillBundle(token)
      const estimate = (body: unknown) => call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits/estimate`, { token, body }))
      const standard = (yield* estimate({})).body.data.estimate
      expect([standard.modelTier, standard.reasoningEffort]).toEqual(["standard", "medium"])
      const premium = (yield* estimate({ modelTier: "premium", reasoningEffort: "high" })).body.data.estimate
      expect([premium.modelTier, premium.reasoningEffort]).toEqual(["premium", "high"])
      expect(premium.estimatedCredits).toBeGreaterThan(standard.estimatedCredits)
      const cheap = (yield* estimate({ modelTier: "cheap", reasoningEffort: "low" })).body.data.estimate
      expect(cheap.estimatedCredits).toBeLessThan(standard.estimatedCredits)
      const bad = yield* estimate({ modelTier: "huge" })
      expect([bad.status, bad.body.error.details[0].path]).toEqual([400, "modelTier"])

      // the same input on another tier is another audit, not a 409 "identical"
      const start = (body: unknown) => call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body }))
      const first = yield* start({ modelTier: "cheap" })
      expect(first.status).toBe(202)
      const run = (yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits/${first.body.data.auditRun.id}`, { token }))).body.data.auditRun
      expect(run.summary.estimate.modelTier).toBe("cheap")
      yield* waitForJob(token, first.body.data.jobId)
      expect((yield* start({ modelTier: "cheap" })).status).toBe(409)
      const other = yield* start({ modelTier: "premium" })
      expect(other.status).toBe(202)
      yield* waitForJob(token, other.body.data.jobId)

      // the whole bundle although SKILL.md is its main artifact: every file under review, not a 409 of the file audit
      const whole = yield* start({ targetMode: "bundle" })
      expect(whole.status).toBe(202)
      expect(whole.body.data.target).toMatchObject({ targetMode: "bundle", targetFileId: null })
      expect((yield* waitForJob(token, whole.body.data.jobId)).state).toBe("completed")
      const wholeRun = (yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits/${whole.body.data.auditRun.id}`, { token }))).body.data.auditRun
      expect(wholeRun.improvedVersion).toBeNull()
      expect(new Set(wholeRun.findings.map((f) => f.filePath)).has("SKILL.md")).toBe(true)
      const both = yield* estimate({ targetMode: "bundle", targetFileId: wholeRun.improvedFiles[0]?.fileId ?? crypto.randomUUID() })
      expect([both.status, both.body.error.details[0].path]).toEqual([400, "targetMode"])

      // file mode where there is no main artifact: said so
      const { bundleId: loose } = yield* bundleWith(token, [{ path: "notes/a.md", content: "# A\n\nSome notes.\n" }], "loose")
      const noMain = yield* call((app) => app.request("POST", `/artifact-bundles/${loose}/audits/estimate`, { token, body: { targetMode: "file" } }))
      expect([noMain.status, noMain.body.error.code]).toEqual([409, "conflict"])
      expect(noMain.body.error.message).toContain("no main artifact")
    }))
})
