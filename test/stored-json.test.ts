/**
 * The JSON columns of the run tables (summaries, results, reports, usage, exports) are decoded by the
 * schemas of what the code stores, most of them the API's own: a row that does not match dies with a
 * RowDecodeError naming the row and the field, while every shape older code wrote still decodes.
 */
import { expect, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Cause, Effect, Exit } from "effect"
import { AuditRunRows, runColumns } from "../src/audits/Records.js"
import { conversionColumns, ConversionRows } from "../src/conversions/Records.js"
import { PgPool } from "../src/db/Database.js"
import { makeRows, RowDecodeError, type RowsOf } from "../src/db/Query.js"
import { evalColumns, EvalRunRows } from "../src/evals/Records.js"
import { proofColumns, ProofReportRows } from "../src/proofs/Records.js"
import { makeTestApp, TestApp } from "./support/TestApp.js"
import { bundleWith, call, DEPLOY_SKILL, expectError, waitForJob } from "./support/fixtures.js"

interface Runs {
  readonly token: string
  readonly bundleId: string
  readonly auditRunId: string
  readonly conversionId: string
  readonly evalRunId: string
  readonly proofReportId: string
}

let made: Runs | undefined

/** One completed audit, conversion, eval and proof report of a bundle whose skill has two versions (made once per file). */
const completedRuns = Effect.gen(function*() {
  if (made) return made
  const app = yield* TestApp
  const token = yield* Effect.promise(() => app.token("stored-json"))
  const { bundleId, files } = yield* bundleWith(token, [
    { path: "SKILL.md", content: DEPLOY_SKILL },
    { path: "reference/vercel.md", content: "# Vercel\n\nPreview deployments live for 30 days.\n" }
  ], "deploy-preview")
  const skill = files.find((f) => f.file.path === "SKILL.md")!
  yield* call((a) =>
    a.request("PUT", `/artifact-bundles/${bundleId}/files/${skill.file.id}`, {
      token,
      body: { content: DEPLOY_SKILL.replace("2. Install dependencies", "2. Install the locked dependencies") }
    }))
  const audit = yield* call((a) => a.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} }))
  const conversion = yield* call((a) => a.request("POST", `/artifact-bundles/${bundleId}/rubr-flow/conversions`, { token, body: {} }))
  const proof = yield* call((a) => a.request("POST", `/artifact-bundles/${bundleId}/proof-reports`, { token, body: { maxCases: 2 } }))
  expect([audit.status, conversion.status, proof.status]).toEqual([202, 202, 202])
  for (const jobId of [audit.body.data.jobId, conversion.body.data.jobId, proof.body.data.jobId]) {
    expect((yield* waitForJob(token, jobId)).state).toBe("completed")
  }
  made = {
    token,
    bundleId,
    auditRunId: audit.body.data.auditRun.id,
    conversionId: conversion.body.data.conversion.id,
    evalRunId: proof.body.data.proofReport.evalRunId,
    proofReportId: proof.body.data.proofReport.id
  }
  return made
})

/** The RowDecodeError reading one run row after `update`, inside a transaction rolled back afterwards. */
const decodeErrorAfter = <A>(update: string, rows: RowsOf<A>, columns: string, table: string, id: string) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const query = makeRows(yield* PgPool)
    const outcome = yield* Effect.gen(function*() {
      yield* sql.unsafe(`UPDATE ${table} SET ${update} WHERE id = $1`, [id])
      const exit = yield* Effect.exit(query(rows, sql`SELECT ${sql.literal(columns)} FROM ${sql(table)} WHERE id = ${id}`))
      return yield* Effect.fail({ exit })
    }).pipe(sql.withTransaction, Effect.flip)
    if (!("exit" in outcome)) return yield* Effect.die(outcome)
    expect(Exit.isFailure(outcome.exit), `${table}: ${update} still decoded`).toBe(true)
    const defect = Exit.isFailure(outcome.exit) ? Cause.squash(outcome.exit.cause) : undefined
    expect(defect).toBeInstanceOf(RowDecodeError)
    return (defect as RowDecodeError).message
  })

layer(makeTestApp({ role: "all" }))("stored JSON columns", (it) => {
  it.effect("a column that does not match what the code stores dies with a RowDecodeError naming the row and the field", () =>
    Effect.gen(function*() {
      const runs = yield* completedRuns
      const cases: ReadonlyArray<readonly [string, RowsOf<unknown>, string, string, string, ReadonlyArray<string>]> = [
        ["audit_runs", AuditRunRows, runColumns, runs.auditRunId, "summary = summary - 'rubricTitle'", ["audit run row", `["summary"]`, `["rubricTitle"]`, "is missing"]],
        ["audit_runs", AuditRunRows, runColumns, runs.auditRunId, `result = jsonb_set(result, '{findings,0,severity}', '"urgent"')`, [`["result"]`, `["findings"]`, `["severity"]`]],
        ["audit_runs", AuditRunRows, runColumns, runs.auditRunId, `usage = '{"inputTokens": "12", "outputTokens": 3, "totalTokens": 15}'`, [`["usage"]`, `["inputTokens"]`]],
        ["rubr_flow_conversions", ConversionRows, conversionColumns, runs.conversionId, "summary = summary #- '{sourceMapping,sources}'", ["conversion row", `["summary"]`, `["sources"]`]],
        ["rubr_flow_conversions", ConversionRows, conversionColumns, runs.conversionId, `report = jsonb_set(report, '{validation,errorCount}', '"none"')`, [`["report"]`, `["validation"]`, `["errorCount"]`]],
        ["eval_runs", EvalRunRows, evalColumns, runs.evalRunId, `cases = jsonb_set(cases, '{0,type}', '"edge"')`, ["eval run row", `["cases"]`, `["type"]`]],
        ["eval_runs", EvalRunRows, evalColumns, runs.evalRunId, `results = jsonb_set(results, '{0,verdict}', '"better"')`, [`["results"]`, `["verdict"]`]],
        ["eval_runs", EvalRunRows, evalColumns, runs.evalRunId, "aggregate = aggregate - 'diff'", [`["aggregate"]`, `["diff"]`, "is missing"]],
        ["eval_runs", EvalRunRows, evalColumns, runs.evalRunId, `reconciliation = jsonb_set(reconciliation, '{status}', '"waived"')`, [`["reconciliation"]`, `["status"]`]],
        ["proof_reports", ProofReportRows, proofColumns, runs.proofReportId, `summary = '{"creditCost": {"credits": 0}}'`, ["proof report row", `["summary"]`, `["reason"]`]],
        ["proof_reports", ProofReportRows, proofColumns, runs.proofReportId, `export = jsonb_set(export, '{sizeBytes}', '"big"')`, [`["export"]`, `["sizeBytes"]`]]
      ]
      for (const [table, rows, columns, id, update, named] of cases) {
        const message = yield* decodeErrorAfter(update, rows, columns, table, id)
        for (const part of named) expect(message, `${table}: ${update}`).toContain(part)
      }
      // the request reading such a row answers the logged 500, never a wrong body
      const app = yield* TestApp
      yield* app.sql`UPDATE audit_runs SET summary = summary - 'rubricTitle' WHERE id = ${runs.auditRunId}`
      const reply = yield* call((a) => a.request("GET", `/artifact-bundles/${runs.bundleId}/audits/${runs.auditRunId}`, { token: runs.token }))
      expectError(reply, 500, "internal_error")
      yield* app.sql`UPDATE audit_runs SET summary = summary || jsonb_build_object('rubricTitle', 'restored') WHERE id = ${runs.auditRunId}`
    }))

  it.effect("rows as older code wrote them still decode: an audit without review options or rule ids, a report with the analysis' own source summary", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const { token, bundleId, auditRunId, conversionId } = yield* completedRuns
      const auditPath = `/artifact-bundles/${bundleId}/audits/${auditRunId}` as const
      const before = (yield* call((a) => a.request("GET", auditPath, { token }))).body.data.auditRun
      expect(before.findings.length).toBeGreaterThan(0)
      yield* app.sql`
        UPDATE audit_runs SET summary = summary - 'review',
          result = jsonb_set(result, '{findings}', (SELECT jsonb_agg(f - 'ruleId') FROM jsonb_array_elements(result -> 'findings') f))
        WHERE id = ${auditRunId}`
      const older = yield* call((a) => a.request("GET", auditPath, { token }))
      expect(older.status).toBe(200)
      expect(older.body.data.auditRun.summary).toEqual(before.summary)
      expect(older.body.data.auditRun.findings).toHaveLength(before.findings.length)
      for (const finding of older.body.data.auditRun.findings) expect(finding.ruleId).toMatch(/^[A-Z]+-/)

      const conversionPath = `/artifact-bundles/${bundleId}/rubr-flow/conversions/${conversionId}` as const
      const current = (yield* call((a) => a.request("GET", conversionPath, { token }))).body.data.conversion
      expect(current.attempts.length).toBeGreaterThan(0)
      // before the source summary was typed, a report kept the analysis' summary of the converted files only
      const analysed = {
        mode: current.sourceSummary.mode,
        files: current.sourceSummary.files.filter((f) => f.words !== undefined).map((f) => ({
          path: f.path,
          lines: f.lines,
          words: f.words,
          title: f.title,
          headings: f.headings,
          steps: f.steps,
          rules: f.rules,
          examples: f.examples
        })),
        totals: current.sourceSummary.totals
      }
      expect(analysed.files.length).toBeGreaterThan(0)
      yield* app.sql`
        UPDATE rubr_flow_conversions SET report = jsonb_set(report, '{sourceSummary}', ${JSON.stringify(analysed)}::jsonb) - 'attempts'
        WHERE id = ${conversionId}`
      const older2 = yield* call((a) => a.request("GET", conversionPath, { token }))
      expect(older2.status).toBe(200)
      expect(older2.body.data.conversion).toEqual({ ...current, attempts: [] })
    }))
})
