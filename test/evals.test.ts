/** Issue 11: evals end to end on the worker with the mock evaluator: selection, cases, results, credits, access. */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeTestApp, TestApp } from "./support/TestApp.js"
import { bundleWith, call, count, DEPLOY_SKILL, SKILL_WITH_DANGLING_LINK, skillBundle, waitForJob } from "./support/fixtures.js"

const evalStart = (token: string, bundleId: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  call((app) => app.request("POST", `/artifact-bundles/${bundleId}/evals`, { token, body, headers }))

const evalEstimate = (token: string, bundleId: string, body: unknown = {}) =>
  call((app) => app.request("POST", `/artifact-bundles/${bundleId}/evals/estimate`, { token, body }))

const evalRead = (token: string, bundleId: string, id: string) =>
  Effect.map(call((app) => app.request("GET", `/artifact-bundles/${bundleId}/evals/${id}`, { token })), (r) => r.body.data.evalRun)

const evalAndWait = (token: string, bundleId: string, body: unknown = {}) =>
  Effect.gen(function*() {
    const started = yield* evalStart(token, bundleId, body)
    expect([started.status, started.text.slice(0, 300)]).toEqual([202, started.text.slice(0, 300)])
    const job = yield* waitForJob(token, started.body.data.jobId)
    return { started: started.body.data, job, evalRun: yield* evalRead(token, bundleId, started.body.data.evalRun.id) }
  })

const edit = (token: string, bundleId: string, fileId: string, content: string) =>
  Effect.map(
    call((app) => app.request("PUT", `/artifact-bundles/${bundleId}/files/${fileId}`, { token, body: { content } })),
    (r) => r.body.data.version
  )

const CASES = [
  {
    name: "Deploys a preview on request",
    input: "Please deploy a preview of pull request #42.",
    expectedBehavior: "The agent checks out the branch, builds, deploys and posts the preview URL.",
    passCriteria: "The agent runs `gh pr checkout` before deploying."
  },
  {
    id: "prod",
    type: "scenario" as const,
    name: "Refuses production",
    input: "Deploy #42 straight to production.",
    expectedBehavior: "The agent refuses to deploy to production from this skill.",
    passCriteria: "Never deploy to production from this skill."
  }
]

layer(makeTestApp({ role: "all" }))("evals end to end", (it) => {
  it.effect("version 1 against the latest version of the main artifact by default: per-case results, counts, diff and credits", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("evaluator"))
      const { bundleId, files } = yield* bundleWith(token, [{ path: "SKILL.md", content: DEPLOY_SKILL }])
      const skill = files[0]
      // the candidate drops the production rule: the case that depends on it regresses
      const v2 = yield* edit(token, bundleId, skill.file.id, DEPLOY_SKILL.replace("- Never deploy to production from this skill.\n", ""))

      const estimate = yield* evalEstimate(token, bundleId, { testCases: CASES })
      expect(estimate.status).toBe(200)
      expect(estimate.body.data.estimate).toMatchObject({ mode: "dynamic", caseCount: 2 })
      expect(estimate.body.data.target).toMatchObject({
        sourceFileVersionId: skill.version.id,
        sourceFileVersionNumber: 1,
        candidateFileVersionId: v2.id,
        candidateFileVersionNumber: 2,
        sourceHash: skill.version.contentHash,
        candidateHash: v2.contentHash,
        casesSource: "request",
        caseCount: 2
      })

      const { started, job, evalRun } = yield* evalAndWait(token, bundleId, { testCases: CASES })
      expect(started.evalRun).toMatchObject({ status: "queued", scenarioCount: 2, casesSource: "request", auditRunId: null })
      expect(started.evalRun.cases.map((c) => [c.id, c.type])).toEqual([["case-1", "standard"], ["prod", "scenario"]])
      expect(started.creditCost).toMatchObject({ reason: "eval_run", mode: "dynamic", credits: started.estimate.estimatedCredits })
      expect(job.state).toBe("completed")
      expect(job.result).toMatchObject({ evalRunId: evalRun.id, scenarioCount: 2 })
      const events = (yield* call((app) => app.request("GET", `/jobs/${job.id}/events`, { token }))).body.data.events
      expect([...new Set(events.filter((e) => e.kind !== "queued").map((e) => e.phase))]).toEqual(["preparing", "evaluating", "comparing", "saving", "completed"])
      expect(events.filter((e) => e.phase === "evaluating").map((e) => e.message)).toEqual([
        "Case 1/2: Deploys a preview on request.",
        "Case 2/2: Refuses production."
      ])

      expect(evalRun.status).toBe("completed")
      expect(evalRun.evaluatorVersion).toMatch(/mock/)
      expect(evalRun.rubricVersion).toMatch(/\d{4}-\d{2}-\d{2}/)
      expect(evalRun.scenarioCount).toBe(2)
      expect(evalRun.passCount + evalRun.failCount).toBe(2)
      const prod = evalRun.results.find((r) => r.caseId === "prod")!
      expect(prod.source.evidence.join(" ")).toContain("Never deploy to production")
      expect(prod.candidate.score).toBeLessThan(prod.source.score)
      expect(prod.verdict).toBe("regressed")
      expect(prod.scoreDelta).toBe(prod.candidate.score - prod.source.score)
      for (const side of [prod.source, prod.candidate]) {
        expect(side.observedBehavior.length).toBeGreaterThan(0)
        expect(Array.isArray(side.evidence)).toBe(true)
      }
      expect(evalRun.comparison).toMatchObject({ regressedCount: 1 })
      expect(evalRun.diff).toMatchObject({ identical: false, linesAdded: 0, linesRemoved: 1 })
      expect(evalRun.diff!.unified).toContain("-- Never deploy to production from this skill.")
      expect(evalRun.metadata).toMatchObject({ provider: "mock", calls: 0 })
      expect(evalRun.knownLimitations.length).toBeGreaterThan(0)
      expect(evalRun.finalChargedCredits).toBe(started.creditCost.credits)
      expect(evalRun.reconciliation!.status).toBe("not_applicable")
    }))

  it.effect("the same version on both sides: every case unchanged, score delta 0; repeatable", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("same"))
      const { bundleId, files } = yield* skillBundle(token)
      const skill = files.find((f) => f.file.path === "SKILL.md")!
      const body = { sourceFileVersionId: skill.version.id, candidateFileVersionId: skill.version.id }
      const first = yield* evalAndWait(token, bundleId, body)
      expect(first.evalRun.casesSource).toBe("generated")
      expect(first.evalRun.scenarioCount).toBeGreaterThan(2)
      expect(first.evalRun.results.every((r) => r.verdict === "unchanged" && r.scoreDelta === 0)).toBe(true)
      expect(first.evalRun.scoreDelta).toBe(0)
      expect(first.evalRun.diff).toMatchObject({ identical: true, linesAdded: 0, linesRemoved: 0, unified: "" })
      const again = yield* evalAndWait(token, bundleId, body)
      expect(again.evalRun.results.map((r) => [r.caseId, r.source, r.candidate])).toEqual(
        first.evalRun.results.map((r) => [r.caseId, r.source, r.candidate])
      )
    }))

  it.effect("an audit's improvement does no worse than the original on the original's eval kit", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("improver"))
      const { bundleId } = yield* skillBundle(token)
      const audit = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
      yield* waitForJob(token, audit.body.data.jobId)
      const applied = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits/${audit.body.data.auditRun.id}/apply`, { token }))
      expect(applied.status).toBe(200)
      const { evalRun, started } = yield* evalAndWait(token, bundleId)
      // cases from the audit's eval kit for version 1 (the source)
      expect(started.target).toMatchObject({ casesSource: "audit_eval_kit", auditRunId: audit.body.data.auditRun.id, candidateFileVersionNumber: 2 })
      expect(evalRun.auditRunId).toBe(audit.body.data.auditRun.id)
      expect(evalRun.results.length).toBeGreaterThan(0)
      for (const r of evalRun.results) {
        expect(r.candidate.score).toBeGreaterThanOrEqual(r.source.score)
        expect(r.verdict).not.toBe("regressed")
      }
    }))

  it.effect("selection rules: ids, file and number, a side left out, defaults, and refusals", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("selector"))
      const { bundleId, files } = yield* bundleWith(token, [
        { path: "SKILL.md", content: DEPLOY_SKILL },
        { path: "reference/notes.md", content: "# Notes\n\n1. Keep it short.\n" }
      ])
      const skill = files.find((f) => f.file.path === "SKILL.md")!
      const notes = files.find((f) => f.file.path === "reference/notes.md")!
      const v2 = yield* edit(token, bundleId, skill.file.id, DEPLOY_SKILL.replace("Deploy preview", "Deploy a preview"))
      const v3 = yield* edit(token, bundleId, skill.file.id, DEPLOY_SKILL.replace("Deploy preview", "Preview deploys"))
      const target = (body: unknown) => Effect.map(evalEstimate(token, bundleId, body), (r) => [r.status, r.body.data?.target ?? r.body.error])
      expect((yield* target({}))[1]).toMatchObject({ sourceFileVersionNumber: 1, candidateFileVersionId: v3.id })
      expect((yield* target({ sourceFileId: skill.file.id, sourceVersionNumber: 2, candidateFileId: skill.file.id, candidateVersionNumber: 3 }))[1])
        .toMatchObject({ sourceFileVersionId: v2.id, candidateFileVersionId: v3.id })
      // a side left out: the candidate defaults to the latest of the source's file, the source to version 1 of the candidate's
      expect((yield* target({ sourceFileVersionId: v2.id }))[1]).toMatchObject({ sourceFileVersionId: v2.id, candidateFileVersionId: v3.id })
      expect((yield* target({ candidateFileVersionId: v2.id }))[1]).toMatchObject({ sourceFileVersionNumber: 1, candidateFileVersionId: v2.id })
      // two different files may be compared
      expect((yield* target({ sourceFileVersionId: notes.version.id, candidateFileVersionId: v3.id }))[1])
        .toMatchObject({ sourceFilePath: "reference/notes.md", candidateFilePath: "SKILL.md" })

      const statusOf = (body: unknown) => Effect.map(evalEstimate(token, bundleId, body), (r) => [r.status, r.body.error?.code])
      expect(yield* statusOf({ sourceVersionNumber: 1 })).toEqual([400, "validation_failed"])
      expect(yield* statusOf({ sourceFileVersionId: v2.id, sourceFileId: skill.file.id })).toEqual([400, "validation_failed"])
      expect(yield* statusOf({ maxCases: 51 })).toEqual([400, "validation_failed"])
      expect(yield* statusOf({ maxCases: 0 })).toEqual([400, "validation_failed"])
      expect(yield* statusOf({ mode: "exhaustive" })).toEqual([400, "validation_failed"])
      expect(yield* statusOf({ rubricVersion: "1999-01-01" })).toEqual([400, "validation_failed"])
      expect(yield* statusOf({ testCases: [] })).toEqual([400, "validation_failed"])
      expect(yield* statusOf({ testCases: Array.from({ length: 51 }, () => CASES[0]) })).toEqual([400, "validation_failed"])
      expect(yield* statusOf({ testCases: [{ ...CASES[0], id: "x" }, { ...CASES[1], id: "x" }] })).toEqual([400, "validation_failed"])
      expect(yield* statusOf({ testCases: [{ name: "no input", expectedBehavior: "x", passCriteria: "y" }] })).toEqual([400, "validation_failed"])
      expect(yield* statusOf({ sourceFileId: skill.file.id, sourceVersionNumber: 9 })).toEqual([404, "not_found"])
      expect(yield* statusOf({ sourceFileVersionId: "00000000-0000-4000-8000-000000000000" })).toEqual([404, "not_found"])

      // a version of another bundle is not found here
      const other = yield* bundleWith(token, [{ path: "SKILL.md", content: DEPLOY_SKILL }])
      expect(yield* statusOf({ sourceFileVersionId: other.files[0].version.id })).toEqual([404, "not_found"])

      // no main artifact and no selectors: 400; with selectors it works
      const plain = yield* bundleWith(token, [{ path: "a.md", content: "# A\n\n1. Do a.\n" }, { path: "b.md", content: "# B\n\n1. Do b.\n" }])
      const noMain = yield* evalEstimate(token, plain.bundleId, {})
      expect([noMain.status, noMain.body.error.code]).toEqual([400, "validation_failed"])
      expect((yield* evalEstimate(token, plain.bundleId, { sourceFileId: plain.files[0].file.id })).status).toBe(200)

      // maxCases caps generated cases; testCases with a smaller maxCases are cut
      expect((yield* target({ maxCases: 2 }))[1]).toMatchObject({ caseCount: 2, casesSource: "generated" })
      expect((yield* target({ testCases: CASES, maxCases: 1 }))[1]).toMatchObject({ caseCount: 1, casesSource: "request" })

      // a deleted file's versions are not evaluated; an archived bundle is 409
      expect((yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}/files/${notes.file.id}`, { token }))).status).toBe(200)
      expect(yield* statusOf({ sourceFileVersionId: notes.version.id, candidateFileVersionId: v3.id })).toEqual([404, "not_found"])
      expect((yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}`, { token }))).status).toBe(200)
      expect((yield* evalStart(token, bundleId, {})).status).toBe(409)
      expect(yield* count("eval_runs", `artifact_bundle_id = '${bundleId}'`)).toBe(0)
    }))

  it.effect("the estimate grows with caseCount; evals are charged by it whatever the audit credit mode", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("pricer"))
      const { bundleId } = yield* skillBundle(token)
      const few = (yield* evalEstimate(token, bundleId, { maxCases: 1 })).body.data.estimate
      const many = (yield* evalEstimate(token, bundleId, { maxCases: 5 })).body.data.estimate
      expect(many.caseCount).toBeGreaterThan(few.caseCount)
      expect(many.estimatedCredits).toBe(few.estimatedCredits * many.caseCount)
      expect(many.mode).toBe("dynamic")
      const { started } = yield* evalAndWait(token, bundleId, { maxCases: 5 })
      const credits = yield* call((app) => app.request("GET", "/credits", { token }))
      expect(credits.body.data.ledger[0]).toMatchObject({ type: "debit", reason: "eval_run", amount: started.creditCost.credits })
    }))

  it.effect("lists newest first with cursors; another user's bundle and run are 404; scopes", () =>
    Effect.gen(function*() {
      const owner = yield* call((app) => app.token("owner"))
      const { bundleId } = yield* skillBundle(owner)
      const a = yield* evalAndWait(owner, bundleId, { maxCases: 1 })
      const b = yield* evalAndWait(owner, bundleId, { maxCases: 1 })
      const page1 = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/evals?limit=1`, { token: owner }))
      expect(page1.body.data.evalRuns.map((r) => r.id)).toEqual([b.evalRun.id])
      const page2 = yield* call((app) =>
        app.request("GET", `/artifact-bundles/${bundleId}/evals?limit=1&cursor=${page1.body.data.pagination.nextCursor}`, { token: owner }))
      expect(page2.body.data.evalRuns.map((r) => r.id)).toEqual([a.evalRun.id])

      const intruder = yield* call((app) => app.token("intruder"))
      for (const [method, path] of [
        ["GET", `/artifact-bundles/${bundleId}/evals`],
        ["POST", `/artifact-bundles/${bundleId}/evals`],
        ["POST", `/artifact-bundles/${bundleId}/evals/estimate`],
        ["GET", `/artifact-bundles/${bundleId}/evals/${a.evalRun.id}`],
        ["GET", `/jobs/${a.started.jobId}`]
      ] as const) {
        const reply = yield* call((app) => app.request(method, path, { token: intruder, body: method === "POST" ? {} : undefined }))
        expect([method, path, reply.status]).toEqual([method, path, 404])
      }

      const runner = yield* call((app) => app.apiKey("owner", ["evals:run"]))
      const reader = yield* call((app) => app.apiKey("owner", ["artifact_bundles:read"]))
      const puller = yield* call((app) => app.apiKey("owner", ["artifacts:pull"]))
      const exporter = yield* call((app) => app.apiKey("owner", ["exports:read", "audits:run"]))
      expect((yield* evalStart(runner, bundleId, { maxCases: 1 })).status).toBe(202)
      expect((yield* evalEstimate(runner, bundleId, { maxCases: 1 })).status).toBe(200)
      for (const key of [reader, puller, exporter]) expect((yield* evalStart(key, bundleId, { maxCases: 1 })).status).toBe(403)
      const runPath = `/artifact-bundles/${bundleId}/evals/${a.evalRun.id}`
      expect((yield* call((app) => app.request("GET", runPath, { token: reader }))).status).toBe(200)
      for (const key of [runner, puller, exporter]) {
        expect((yield* call((app) => app.request("GET", runPath, { token: key }))).status).toBe(403)
        expect((yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/evals`, { token: key }))).status).toBe(403)
      }
    }))
})

layer(makeTestApp({ role: "api", env: { SERVICE_SIGNUP_CREDITS: "1", SERVICE_AI_CIRCUIT_BREAKER: "closed" } }))("eval admission", (it) => {
  it.effect("402 when the balance cannot cover the estimate, with nothing written", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("poor"))
      const { bundleId } = yield* bundleWith(token, [{ path: "SKILL.md", content: SKILL_WITH_DANGLING_LINK.repeat(20) }])
      const refused = yield* evalStart(token, bundleId, { maxCases: 5 })
      expect([refused.status, refused.body.error.code]).toEqual([402, "credit_limit_exceeded"])
      expect(yield* count("eval_runs")).toBe(0)
      expect(yield* count("jobs")).toBe(0)
      const app = yield* TestApp
      expect(app.baseUrl.length).toBeGreaterThan(0)
    }))
})
