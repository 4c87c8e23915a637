/** Issue 4: audits end to end on the worker, with the mock reviewer. */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeTestApp, sleep, TestApp } from "./support/TestApp.js"

const SKILL = `---
name: release-notes
description: Writes release notes from merged pull requests. Use when preparing a release.
---

# Release notes

Collect the merged pull requests and write the notes.

## Steps

1. List merged pull requests since the last tag.
2. Group them by label, see [the style guide](reference/style.md).
3. Write the notes using [the template](templates/notes.md).

## Example

\`\`\`md
## v1.2.0
- Added export to CSV (#123)
\`\`\`
`

const call = <T = any>(f: (app: typeof TestApp.Service) => Promise<T>) =>
  Effect.flatMap(TestApp, (app) => Effect.promise(() => f(app)))

const waitForJob = (token: string, jobId: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 200; i++) {
      const reply = yield* call((app) => app.request("GET", `/jobs/${jobId}`, { token }))
      if (["completed", "failed", "cancelled"].includes(reply.body.data.job.state)) return reply.body.data.job
      yield* sleep(50)
    }
    throw new Error("job did not finish")
  })

layer(makeTestApp({ role: "all" }))("audits end to end", (it) => {
  it.effect("upload, estimate, start, watch the job, read findings, apply, and see the ledger explain it", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("author"))
      const created = yield* call((app) => app.request("POST", "/artifact-bundles", { token, body: { name: "release-notes" } }))
      expect(created.status).toBe(201)
      const bundleId = created.body.data.artifactBundle.id
      const uploaded = yield* call((app) =>
        app.request("POST", `/artifact-bundles/${bundleId}/files`, {
          token,
          body: { files: [{ path: "SKILL.md", content: SKILL }, { path: "reference/style.md", content: "# Style\n\nShort bullet points.\n" }] }
        })
      )
      expect(uploaded.status).toBe(201)

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
      expect(events.body.data.events.map((e: any) => e.sequence)).toEqual(events.body.data.events.map((_: any, i: number) => i + 1))
      expect(events.body.data.events.map((e: any) => e.phase)).toEqual(expect.arrayContaining(["preparing_context", "scoring", "writing_results", "completed"]))

      const run = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits/${started.body.data.auditRun.id}`, { token }))
      expect(run.status).toBe(200)
      const detail = run.body.data.auditRun
      expect(detail.status).toBe("completed")
      expect(detail.overallScore).toBeGreaterThan(0)
      const dangling = detail.findings.find((f: any) => JSON.stringify(f).includes("templates/notes.md"))
      expect(dangling).toBeDefined()
      expect(dangling.filePath).toBe("SKILL.md")
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
      expect(ledger.body.data.ledger.map((e: any) => [e.type, e.amount, e.reason])).toEqual([
        ["debit", credits, "audit_run"],
        ["grant", 100, "signup_grant"]
      ])
    }))
})
