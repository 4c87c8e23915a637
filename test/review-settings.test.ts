/**
 * Review quality through the REST door: a bundle's settings.disabledRules (validated at creation,
 * honoured by every audit of the bundle, recorded on the run), rule ids on stored findings, and the
 * bundle's name standing for a root SKILL.md's folder.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeTestApp } from "./support/TestApp.js"
import { call, waitForJob } from "./support/fixtures.js"

const SKILL = `---
name: release-notes
description: Drafts release notes from merged pull requests. Use when the user asks for release notes of a version.
---

# Release notes

Turn the merged pull requests of a release into notes users can read in two minutes.

## Steps

1. List the merged pull requests with \`gh pr list --state merged --base main\`.
2. Group them by label into Features, Fixes and Internal.
3. Write one line per user-visible change.
4. Publish the notes branch with \`git push --force origin main\`.

## Rules

- Never include internal-only changes.
- Ask the user when a pull request has no label.
`

const createBundle = (token: string, body: Record<string, unknown>) =>
  call((app) => app.request("POST", "/artifact-bundles", { token, body }))

const auditOf = (token: string, name: string, settings?: Record<string, unknown>) =>
  Effect.gen(function*() {
    const created = yield* createBundle(token, { name, ...(settings ? { settings } : {}) })
    expect(created.status).toBe(201)
    const bundleId = created.body.data.artifactBundle.id
    const uploaded = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/files`, { token, body: { files: [{ path: "SKILL.md", content: SKILL }] } }))
    expect(uploaded.status).toBe(201)
    const started = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
    expect(started.status).toBe(202)
    expect((yield* waitForJob(token, started.body.data.jobId)).state).toBe("completed")
    const run = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits/${started.body.data.auditRun.id}`, { token }))
    return run.body.data.auditRun
  })

layer(makeTestApp({ role: "all" }))("review settings and rule ids", (it) => {
  it.effect("settings.disabledRules: known ids only, at most 200, one clear detail per bad id", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("rules-admin"))
      const bad = yield* createBundle(token, { name: "x", settings: { disabledRules: ["SK-RULES-MISSING", "SK-NOPE"] } })
      expect(bad.status).toBe(400)
      expect(bad.body.error.code).toBe("validation_failed")
      // the optional field's "Expected undefined" echoes are not details
      expect(bad.body.error.details).toEqual([{ path: "settings.disabledRules.1", message: expect.stringContaining("unknown rule id 'SK-NOPE'") }])
      const many = yield* createBundle(token, { name: "x", settings: { disabledRules: Array.from({ length: 201 }, () => "SK-CLAR-VAGUE") } })
      expect([many.status, many.body.error.details[0].path]).toEqual([400, "settings.disabledRules"])
      const ai = yield* createBundle(token, { name: "x", settings: { disabledRules: ["SK-AI-CLARITY"] } })
      expect(ai.status).toBe(400)
      const ok = yield* createBundle(token, { name: "x", settings: { disabledRules: ["SK-SAFE-DESTRUCTIVE"] } })
      expect(ok.status).toBe(201)
      expect(ok.body.data.artifactBundle.settings).toEqual({ disabledRules: ["SK-SAFE-DESTRUCTIVE"] })
      // settings cannot change after creation (the update accepts name and description only)
      const patch = yield* call((app) => app.request("PATCH", `/artifact-bundles/${ok.body.data.artifactBundle.id}`, { token, body: { settings: { disabledRules: [] } } }))
      expect(patch.status).toBe(400)
      // nothing half-written: the failed creations left no bundle
      const list = yield* call((app) => app.request("GET", "/artifact-bundles", { token }))
      expect(list.body.data.artifactBundles.map((b) => b.settings)).toEqual([{ disabledRules: ["SK-SAFE-DESTRUCTIVE"] }])
    }))

  it.effect("an audit reports findings with rule ids; a disabled rule is not reported, scored or repaired", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("rules-user"))
      const plain = yield* auditOf(token, "release-notes")
      const destructive = plain.findings.find((f) => f.ruleId === "SK-SAFE-DESTRUCTIVE")
      expect(destructive).toMatchObject({ severity: "critical", criterionKey: "safety", filePath: "SKILL.md", lineStart: 15 })
      for (const f of plain.findings) expect(f.ruleId).toMatch(/^SK-[A-Z]+(-[A-Z0-9]+)+$/)
      expect(plain.improvedVersion!.content).toContain("Ask the user to confirm before running it")

      const off = yield* auditOf(token, "release-notes", { disabledRules: ["SK-SAFE-DESTRUCTIVE"] })
      expect(off.findings.map((f) => f.ruleId)).not.toContain("SK-SAFE-DESTRUCTIVE")
      expect(off.scores.find((s) => s.key === "safety")!.score).toBe(100)
      expect(off.overallScore).toBeGreaterThan(plain.overallScore! + 10)
      expect(off.improvedVersion?.content ?? SKILL).not.toContain("Ask the user to confirm before running it")
    }))

  it.effect("a root SKILL.md is checked against the bundle's name, and apply sets the name", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("rules-name"))
      const same = yield* auditOf(token, "release-notes")
      expect(same.findings.map((f) => f.ruleId)).not.toContain("SK-NAME-FOLDER")
      const other = yield* auditOf(token, "changelog-drafter")
      expect(other.findings.find((f) => f.ruleId === "SK-NAME-FOLDER")).toMatchObject({ severity: "major", lineStart: 2 })
      expect(other.improvedVersion!.content).toContain("\nname: changelog-drafter\n")
      expect(other.improvedVersion!.changes).toContain("Line 2: set `name` to `changelog-drafter`, the folder's name (it was `release-notes`).")
    }))

  it.effect("the bundle's name is part of what makes two audits identical", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("rules-rename"))
      const first = yield* auditOf(token, "release-notes")
      const bundleId = first.artifactBundleId ?? (yield* call((app) => app.request("GET", "/artifact-bundles", { token }))).body.data.artifactBundles[0].id
      const again = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
      expect([again.status, again.body.error?.code]).toEqual([409, "conflict"])
      const renamed = yield* call((app) => app.request("PATCH", `/artifact-bundles/${bundleId}`, { token, body: { name: "notes-writer" } }))
      expect(renamed.status).toBe(200)
      // the same files, but the review now checks the name against "notes-writer"
      const after = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
      expect(after.status).toBe(202)
      expect((yield* waitForJob(token, after.body.data.jobId)).state).toBe("completed")
      const run = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/audits/${after.body.data.auditRun.id}`, { token }))
      expect(run.body.data.auditRun.findings.map((f) => f.ruleId)).toContain("SK-NAME-FOLDER")
    }))
})
