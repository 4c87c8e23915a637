/** Issue 10: rubr_flow conversions end to end on the worker, with the mock converter. */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { rubrFlowJsonSchema } from "../src/rubr_flow/Format.js"
import { validateText } from "../src/rubr_flow/Validator.js"
import { inOneMinuteWindow, makeTestApp, TestApp } from "./support/TestApp.js"
import {
  bundleWith,
  call,
  CONTRADICTORY_SKILL,
  count,
  DEPLOY_SKILL,
  REPAIRABLE_SKILL,
  waitForJob
} from "./support/fixtures.js"

const PHASES = ["analysis", "mapping", "generation", "validation", "repair", "saving"]

const convert = (token: string, bundleId: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  call((app) => app.request("POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions`, { token, body, headers }))

const report = (token: string, bundleId: string, conversionId: string) =>
  Effect.map(
    call((app) => app.request("GET", `/artifact-bundles/${bundleId}/rubr-flow/conversions/${conversionId}`, { token })),
    (reply) => reply.body.data.conversion
  )

const convertAndWait = (token: string, bundleId: string, body: unknown = {}) =>
  Effect.gen(function*() {
    const started = yield* convert(token, bundleId, body)
    expect([started.status, started.text.slice(0, 300)]).toEqual([202, started.text.slice(0, 300)])
    const job = yield* waitForJob(token, started.body.data.jobId)
    return { started: started.body.data, job, conversion: yield* report(token, bundleId, started.body.data.conversion.id) }
  })

const deployBundle = (token: string) =>
  bundleWith(token, [
    { path: "SKILL.md", content: DEPLOY_SKILL },
    { path: "reference/vercel.md", content: "# Vercel\n\nPreview deployments live for 30 days.\n" }
  ], "deploy-preview")

const fileAt = (token: string, bundleId: string, path: string) =>
  Effect.map(call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files`, { token })), (reply) =>
    reply.body.data.files.find((f) => f.path === path)!)

layer(makeTestApp({ role: "all" }))("rubr_flow conversions end to end", (it) => {
  it.effect("converts a skill: phases in order, a new output file the validator accepts, a full report; again appends a version", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("converter"))
      const { bundleId, files } = yield* deployBundle(token)
      const skill = files.find((f) => f.file.path === "SKILL.md")!

      const estimate = yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions/estimate`, { token, body: {} }))
      expect(estimate.status).toBe(200)
      expect(estimate.body.data.estimate).toMatchObject({ modelTier: "cheap", rubricCount: 0, mode: "dynamic" })
      expect(estimate.body.data.target).toMatchObject({ targetMode: "file", targetFilePath: "SKILL.md", outputPath: "generated/rubr_flow.rubr_flow" })

      const started = yield* convert(token, bundleId)
      expect(started.status).toBe(202)
      const data = started.body.data
      expect(data.jobId).toBe(data.job.id)
      expect(data.job.kind).toBe("rubr_flow_conversion")
      expect(data.job.phase).toBe("analysis")
      expect(data.conversion).toMatchObject({
        status: "queued",
        sourceFileVersionId: skill.version.id,
        outputFileId: null,
        outputFileVersionId: null,
        outputPath: "generated/rubr_flow.rubr_flow"
      })
      expect(data.conversion.validatorVersion).toMatch(/\d/)
      expect(data.estimate).toEqual(estimate.body.data.estimate)
      expect(data.target).toEqual(estimate.body.data.target)
      expect(data.creditCost).toMatchObject({ credits: data.estimate.estimatedCredits, reason: "rubr_flow_conversion", mode: "dynamic" })
      expect(data.conversion.sourceMapping.sources.map((s) => s.path)).toEqual(["SKILL.md"])

      const job = yield* waitForJob(token, data.jobId)
      expect(job.state).toBe("completed")
      expect(job.result).toMatchObject({ conversionId: data.conversion.id, outputPath: "generated/rubr_flow.rubr_flow", outputVersionNumber: 1 })
      const events = (yield* call((app) => app.request("GET", `/jobs/${job.id}/events`, { token }))).body.data.events
      const progress = events.filter((e) => e.kind === "progress" || e.kind === "started")
      const phases = [...new Set(progress.map((e) => e.phase))]
      expect(phases).toEqual(PHASES)
      for (const e of progress) expect(e.message.length).toBeGreaterThan(0)
      const percents = progress.map((e) => Number(e.percent))
      expect([...percents].sort((a, b) => a - b)).toEqual(percents)
      expect(events.at(-1)).toMatchObject({ kind: "completed", state: "completed", percent: 100 })

      const conversion = yield* report(token, bundleId, data.conversion.id)
      expect(conversion.status).toBe("completed")
      expect(conversion.outputFileId).not.toBeNull()
      expect(conversion.validation).toMatchObject({ valid: true, errorCount: 0 })
      expect(conversion.repair).toMatchObject({ attempted: false, succeeded: null, changes: [] })
      expect(conversion.blockMapping.length).toBeGreaterThan(3)
      const sourceLines = DEPLOY_SKILL.split("\n").length - 1
      for (const b of conversion.blockMapping) {
        expect(b.path).toBe("SKILL.md")
        expect(b.lineStart).toBeGreaterThanOrEqual(1)
        expect(b.lineEnd).toBeLessThanOrEqual(sourceLines)
      }
      expect(conversion.blockMapping.map((b) => b.kind)).toEqual(expect.arrayContaining(["identity", "input", "step", "guardrail"]))
      // the identity comes from the frontmatter and the opening
      expect(conversion.blockMapping.find((b) => b.kind === "identity")).toMatchObject({ block: "identity", lineStart: 1 })
      expect(conversion.sourceMapping.coverage).toBeGreaterThan(0.5)
      expect(conversion.sourceSummary.mode).toBe("file")
      expect(Array.isArray(conversion.missingRequirements)).toBe(true)
      expect(Array.isArray(conversion.remainingRisks)).toBe(true)
      expect(conversion.suggestedEvals.length).toBeGreaterThan(0)
      expect(conversion.resultMetadata).toMatchObject({ provider: "mock", modelTier: "cheap" })
      expect(conversion.finalChargedCredits).toBe(data.creditCost.credits)
      expect(conversion.reconciliation!.status).toBe("not_applicable")

      // the output file: version 1, source rubr_flow_conversion, a rubr_flow file the validator accepts
      const out = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files/${conversion.outputFileId}`, { token }))
      expect(out.status).toBe(200)
      expect(out.body.data.file).toMatchObject({ path: "generated/rubr_flow.rubr_flow", artifactType: "rubr_flow", latestVersionNumber: 1 })
      expect(out.body.data.version).toMatchObject({ id: conversion.outputFileVersionId, source: "rubr_flow_conversion", versionNumber: 1 })
      const text: string = out.body.data.content
      expect(text.startsWith("# rubr_flow 1.0")).toBe(true)
      const validated = validateText(text, { sources: [{ path: "SKILL.md", content: DEPLOY_SKILL }] })
      expect(validated.issues.filter((i) => i.severity === "error")).toEqual([])
      expect(validated.flow!.steps.length).toBeGreaterThanOrEqual(5)
      expect(validated.flow!.guardrails.some((g) => "never" in g && /production/i.test(g.never))).toBe(true)

      // converting again appends a version to the same file; the mock is deterministic
      const second = yield* convertAndWait(token, bundleId)
      expect(second.job.state).toBe("completed")
      expect(second.conversion.outputFileId).toBe(conversion.outputFileId)
      const out2 = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files/${conversion.outputFileId}`, { token }))
      expect(out2.body.data.version).toMatchObject({ versionNumber: 2, source: "rubr_flow_conversion", parentVersionId: conversion.outputFileVersionId })
      expect(out2.body.data.content).toBe(text)

      const list = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/rubr-flow/conversions?limit=1`, { token }))
      expect(list.status).toBe(200)
      expect(list.body.data.conversions.map((c) => c.id)).toEqual([second.started.conversion.id])
      expect(list.body.data.pagination.nextCursor).not.toBeNull()
      const page2 = yield* call((app) =>
        app.request("GET", `/artifact-bundles/${bundleId}/rubr-flow/conversions?limit=1&cursor=${list.body.data.pagination.nextCursor}`, { token }))
      expect(page2.body.data.conversions.map((c) => c.id)).toEqual([data.conversion.id])
      expect(page2.body.data.pagination.nextCursor).toBeNull()
      const badCursor = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/rubr-flow/conversions?cursor=nope`, { token }))
      expect(badCursor.status).toBe(400)

      const credits = yield* call((app) => app.request("GET", "/credits", { token }))
      expect(credits.body.data.ledger.filter((e) => e.reason === "rubr_flow_conversion")).toHaveLength(2)
    }))

  it.effect("repair that succeeds: the first draft is invalid, one repair fixes it, the report shows both", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("repairer"))
      const { bundleId } = yield* bundleWith(token, [{ path: "SKILL.md", content: REPAIRABLE_SKILL }])
      const { job, conversion } = yield* convertAndWait(token, bundleId)
      expect(job.state).toBe("completed")
      expect(conversion.repair!.attempted).toBe(true)
      expect(conversion.repair!.succeeded).toBe(true)
      expect(conversion.repair!.issuesBefore.filter((i) => i.severity === "error").length).toBeGreaterThan(0)
      expect(conversion.repair!.changes.length).toBeGreaterThan(0)
      expect(conversion.validation!.valid).toBe(true)
      const events = (yield* call((app) => app.request("GET", `/jobs/${job.id}/events`, { token }))).body.data.events
      expect(events.find((e) => e.phase === "repair")!.message).toMatch(/repair/i)
      const out = yield* fileAt(token, bundleId, "generated/rubr_flow.rubr_flow")
      expect(out.latestVersionNumber).toBe(1)
      // both texts the validator checked, each with its issues, so each issue can be shown on its line
      expect(conversion.attempts.map((a) => [a.attempt, a.kind, a.validation.valid])).toEqual([[1, "draft", false], [2, "repair", true]])
      expect(conversion.attempts[0].validation.issues).toEqual(conversion.repair!.issuesBefore)
      expect(conversion.attempts[1].validation).toEqual(conversion.validation)
      expect(conversion.attempts[1].changes).toEqual(conversion.repair!.changes)
      const draftLines = conversion.attempts[0].text.split("\n")
      for (const issue of conversion.attempts[0].validation.issues) expect(issue.line).toBeLessThanOrEqual(draftLines.length)
      const saved = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files/${conversion.outputFileId}`, { token }))
      expect(saved.body.data.content).toBe(conversion.attempts[1].text)
    }))

  it.effect("repair that fails: still invalid, the conversion fails, nothing is written, the issues are kept, credits come back", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("contradicted"))
      const { bundleId } = yield* bundleWith(token, [{ path: "SKILL.md", content: CONTRADICTORY_SKILL }])
      const { job, conversion, started } = yield* convertAndWait(token, bundleId)
      expect(job.state).toBe("failed")
      expect(job.error!.code).toBe("conversion_invalid")
      expect(conversion.status).toBe("failed")
      expect(conversion.error!.code).toBe("conversion_invalid")
      expect(conversion.outputFileId).toBeNull()
      expect(conversion.validation!.valid).toBe(false)
      expect(conversion.validation!.issues.map((i) => i.code)).toContain("contradictory_guardrails")
      expect(conversion.repair).toMatchObject({ attempted: true, succeeded: false })
      expect(conversion.repair!.issuesBefore.map((i) => i.code)).toContain("contradictory_guardrails")
      // nothing saved, but the text the issues point into is in the report
      expect(conversion.attempts.map((a) => [a.kind, a.validation.valid])).toEqual([["draft", false], ["repair", false]])
      const contradiction = conversion.attempts[1].validation.issues.find((i) => i.code === "contradictory_guardrails")
      expect(conversion.attempts[1].text.split("\n")[contradiction!.line - 1]).toMatch(/\S/)
      expect(yield* fileAt(token, bundleId, "generated/rubr_flow.rubr_flow")).toBeUndefined()
      expect(yield* count("file_versions", `artifact_bundle_id = '${bundleId}' AND source = 'rubr_flow_conversion'`)).toBe(0)
      const credits = yield* call((app) => app.request("GET", "/credits", { token }))
      expect(credits.body.data.balance).toBe(100)
      const refunds = credits.body.data.ledger.filter((e) => e.type === "refund")
      expect(refunds).toHaveLength(1)
      expect(refunds[0]).toMatchObject({ amount: started.creditCost.credits, resourceId: started.conversion.id })
    }))

  it.effect("targets: a file version, a bundle version event, the current primary, bundle mode; rubr_flow files are never input", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("targeter"))
      const { bundleId, files } = yield* deployBundle(token)
      const skill = files.find((f) => f.file.path === "SKILL.md")!
      const edit = yield* call((app) =>
        app.request("PUT", `/artifact-bundles/${bundleId}/files/${skill.file.id}`, { token, body: { content: DEPLOY_SKILL.replace("Deploy preview", "Deploy a preview") } }))
      expect(edit.status).toBe(200)
      const estimate = (body: unknown) =>
        call((app) => app.request("POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions/estimate`, { token, body }))
      const byVersion = yield* estimate({ targetFileId: skill.file.id, targetVersionNumber: 1 })
      expect(byVersion.status).toBe(200)
      expect(byVersion.body.data.target).toMatchObject({ targetMode: "file", targetFileVersionId: skill.version.id, targetFileVersionNumber: 1 })
      const byEvent = yield* estimate({ artifactBundleVersionNumber: 3 })
      expect(byEvent.body.data.target).toMatchObject({ targetFileVersionId: edit.body.data.version.id, artifactBundleVersionNumber: 3 })
      const current = yield* estimate(null)
      expect(current.body.data.target).toMatchObject({ targetFileVersionId: edit.body.data.version.id, targetFilePath: "SKILL.md" })
      expect((yield* estimate({ targetFileId: skill.file.id, targetVersionNumber: 9 })).status).toBe(404)
      expect((yield* estimate({ artifactBundleVersionNumber: 99 })).status).toBe(404)

      // a conversion of version 1 converts exactly version 1
      const old = yield* convertAndWait(token, bundleId, { targetFileId: skill.file.id, targetVersionNumber: 1 })
      expect(old.conversion.sourceFileVersionId).toBe(skill.version.id)
      expect(old.job.state).toBe("completed")
      // the generated rubr_flow file cannot be converted
      const refused = yield* convert(token, bundleId, { targetFileId: old.conversion.outputFileId })
      expect(refused.status).toBe(409)
      expect(refused.body.error.code).toBe("conflict")

      // bundle mode: no main artifact, every instruction file is converted into one flow
      const plain = yield* bundleWith(token, [
        { path: "prompts/triage.md", content: "# Triage\n\n1. Read the issue.\n2. Label it as bug or feature.\n" },
        { path: "prompts/summary.md", content: "# Summary\n\n1. Summarize the thread in three bullet points.\n" }
      ])
      const bundled = yield* convertAndWait(token, plain.bundleId)
      expect(bundled.started.target).toMatchObject({ targetMode: "bundle", targetFileId: null, targetFileVersionId: null })
      expect(bundled.conversion.sourceFileVersionId).toBeNull()
      expect(bundled.job.state).toBe("completed")
      expect(bundled.conversion.sourceMapping.sources.map((s) => s.path).sort()).toEqual(["prompts/summary.md", "prompts/triage.md"])
      expect(new Set(bundled.conversion.blockMapping.map((b) => b.path))).toEqual(new Set(["prompts/summary.md", "prompts/triage.md"]))
      // the generated flow is now the bundle's main artifact, yet a new conversion still reads the sources
      const again = yield* convertAndWait(token, plain.bundleId)
      expect(again.started.target.targetMode).toBe("bundle")
      expect(again.started.target.inputVersionIds).toEqual(bundled.started.target.inputVersionIds)
      expect(again.job.state).toBe("completed")
      const out = yield* fileAt(token, plain.bundleId, "generated/rubr_flow.rubr_flow")
      expect(out.latestVersionNumber).toBe(2)
    }))

  it.effect("bad input: output paths, selectors, archived, empty and unknown bundles", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("picky"))
      const { bundleId, files } = yield* deployBundle(token)
      const bad = [
        { outputPath: "../escape.rubr_flow" },
        { outputPath: "/abs.rubr_flow" },
        { outputPath: "notes.md" },
        { outputPath: "" },
        { outputPath: "a//b.rubr_flow" },
        { outputPath: 7 },
        { targetVersionNumber: 1 },
        { targetFileId: "nope" },
        { targetFileId: files[0].file.id, artifactBundleVersionNumber: 1 },
        { targetVersionNumber: 0, targetFileId: files[0].file.id }
      ]
      for (const body of bad) {
        const reply = yield* convert(token, bundleId, body)
        expect([JSON.stringify(body), reply.status, reply.body.error.code]).toEqual([JSON.stringify(body), 400, "validation_failed"])
      }
      expect(yield* count("rubr_flow_conversions", `artifact_bundle_id = '${bundleId}'`)).toBe(0)
      const custom = yield* convertAndWait(token, bundleId, { outputPath: "flows/deploy.rubr_flow" })
      expect(custom.job.state).toBe("completed")
      expect((yield* fileAt(token, bundleId, "flows/deploy.rubr_flow")).artifactType).toBe("rubr_flow")
      const empty = yield* bundleWith(token, [])
      expect((yield* convert(token, empty.bundleId)).status).toBe(409)
      expect((yield* convert(token, "00000000-0000-4000-8000-000000000000")).status).toBe(404)
      expect((yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}`, { token }))).status).toBe(200)
      const archived = yield* convert(token, bundleId)
      expect(archived.status).toBe(409)
      expect(archived.body.error.message).toMatch(/archived/)
      // the history stays readable, and a permanent delete takes the conversions with it
      expect((yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/rubr-flow/conversions`, { token }))).body.data.conversions).toHaveLength(1)
      expect((yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}/permanent`, { token }))).status).toBe(200)
      expect(yield* count("rubr_flow_conversions", `artifact_bundle_id = '${bundleId}'`)).toBe(0)
    }))

  it.effect("another user's bundle, conversion and job are 404 on every route", () =>
    Effect.gen(function*() {
      const owner = yield* call((app) => app.token("owner"))
      const { bundleId } = yield* deployBundle(owner)
      const { started } = yield* convertAndWait(owner, bundleId)
      const intruder = yield* call((app) => app.token("intruder"))
      const routes: Array<[string, string]> = [
        ["GET", `/artifact-bundles/${bundleId}/rubr-flow/conversions`],
        ["POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions`],
        ["POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions/estimate`],
        ["GET", `/artifact-bundles/${bundleId}/rubr-flow/conversions/${started.conversion.id}`],
        ["GET", `/jobs/${started.jobId}`],
        ["GET", `/jobs/${started.jobId}/events`]
      ]
      for (const [method, path] of routes) {
        const reply = yield* call((app) => app.request(method, path, { token: intruder, body: method === "POST" ? {} : undefined }))
        expect([method, path, reply.status, reply.body.error.code]).toEqual([method, path, 404, "not_found"])
      }
      // the intruder's own bundle cannot reach the owner's conversion either
      const theirs = yield* bundleWith(intruder, [{ path: "SKILL.md", content: DEPLOY_SKILL }])
      const cross = yield* call((app) =>
        app.request("GET", `/artifact-bundles/${theirs.bundleId}/rubr-flow/conversions/${started.conversion.id}`, { token: intruder }))
      expect(cross.status).toBe(404)
    }))

  it.effect("scopes: rubr_flow:convert starts, artifact_bundles:read reads, artifacts:pull and others never see conversions", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("scoped"))
      const { bundleId } = yield* deployBundle(token)
      const converter = yield* call((app) => app.apiKey("scoped", ["rubr_flow:convert"]))
      const reader = yield* call((app) => app.apiKey("scoped", ["artifact_bundles:read"]))
      const puller = yield* call((app) => app.apiKey("scoped", ["artifacts:pull"]))
      const auditor = yield* call((app) => app.apiKey("scoped", ["audits:run", "files:write", "artifact_bundles:write"]))
      for (const key of [reader, puller, auditor]) {
        expect((yield* convert(key, bundleId)).status).toBe(403)
        expect((yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions/estimate`, { token: key, body: {} }))).status).toBe(403)
      }
      const started = yield* convert(converter, bundleId)
      expect(started.status).toBe(202)
      expect(started.body.data.conversion.requestedByApiKeyId).not.toBeNull()
      const listPath = `/artifact-bundles/${bundleId}/rubr-flow/conversions`
      const onePath = `${listPath}/${started.body.data.conversion.id}`
      for (const path of [listPath, onePath]) {
        expect((yield* call((app) => app.request("GET", path, { token: reader }))).status).toBe(200)
        for (const key of [converter, puller, auditor]) {
          const reply = yield* call((app) => app.request("GET", path, { token: key }))
          expect(reply.status).toBe(403)
          expect(reply.body.error.code).toBe("forbidden")
        }
      }
    }))
})

layer(makeTestApp({ role: "api", env: { SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "3" } }))("the rubr_flow JSON Schema", (it) => {
  it.effect("is public, derived from the format definition, and counted against the per-IP limit", () =>
    Effect.gen(function*() {
      yield* inOneMinuteWindow()
      const app = yield* TestApp
      const reply = yield* Effect.promise(() => app.requestAs<ReturnType<typeof rubrFlowJsonSchema>>("GET", "/rubr-flow/schema.json"))
      expect(reply.status).toBe(200)
      expect(reply.headers.get("content-type")).toContain("application/schema+json")
      expect(reply.body).toEqual(rubrFlowJsonSchema())
      expect(reply.body.$schema).toBe("https://json-schema.org/draft/2020-12/schema")
      const statuses: Array<number> = []
      for (let i = 0; i < 3; i++) statuses.push((yield* Effect.promise(() => app.requestAs<ReturnType<typeof rubrFlowJsonSchema>>("GET", "/rubr-flow/schema.json"))).status)
      expect(statuses.at(-1)).toBe(429)
    }))
})
