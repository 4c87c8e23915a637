/**
 * The proof report use cases: create (of a completed eval run, or of a new eval started in the same
 * transaction), list, read, and the export document. Proof reports cost 0 credits but pass the run
 * pipeline's admission like every start (rate limits, circuit breaker).
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Schema } from "effect"
import { PgPool } from "../db/Database.js"
import { type BundleId, RunId } from "../domain/Ids.js"
import { RunStatus } from "../jobs/Job.js"
import { makeRows, type Rows, rowsOf } from "../db/Query.js"
import type { Actor } from "../auth/CurrentActor.js"
import { Conflict, NotFound, ValidationFailed } from "../domain/Errors.js"
import { EvalRequestFields } from "../evals/Api.js"
import { Evals } from "../evals/Evals.js"
import { toEvalRunJson } from "../evals/Records.js"
import { toJobJson } from "../jobs/Jobs.js"
import { type ListParams, RunRecords } from "../jobs/RunRecords.js"
import { RunStarter } from "../jobs/Start.js"
import { sha256Tag } from "../domain/ContentHash.js"
import { ObjectStore, type ObjectStoreShape } from "../storage/ObjectStore.js"
import { CreateProofReportData, type ProofReportRequest } from "./Api.js"
import { ProofReportKind } from "./Kind.js"
import { proofColumns, ProofReportRows, toProofReportDetail, toProofReportJson } from "./Records.js"

const encodeCreate = Schema.encode(CreateProofReportData)

export const PROOF_REPORT_CREDIT_COST = {
  credits: 0,
  reason: "proof_report",
  estimate: false,
  mode: "free",
  finalChargedCredits: 0
} as const

const evalFieldNames = Object.keys(EvalRequestFields) as ReadonlyArray<keyof typeof EvalRequestFields>

const RunStatusRows = rowsOf("run status", Schema.Struct({ id: RunId, status: RunStatus }))
const ComparedHashRows = rowsOf("compared content hashes", Schema.Struct({ sourceHash: Schema.String, candidateHash: Schema.String }))

/** The create: of a completed eval run, or of a new eval started in the same transaction. */
const makeCreate = (sql: PgClient.PgClient, query: Rows, starter: RunStarter, evals: Evals) => {
  /** A completed run of this kind in the caller's bundle: 404 when unknown or foreign, 409 while not completed. */
  const completedRun = (table: "eval_runs" | "audit_runs", what: string, userId: string, bundleId: BundleId, id: RunId) =>
    Effect.gen(function*() {
      const [row] = yield* query(RunStatusRows, sql`
        SELECT id, status FROM ${sql(table)} WHERE id = ${id} AND artifact_bundle_id = ${bundleId} AND user_id = ${userId}`).pipe(
        Effect.orDie
      )
      if (!row) return yield* NotFound.of(what)
      if (row.status !== "completed") {
        return yield* new Conflict({
          message: `This ${what.toLowerCase()} is ${row.status}; a proof report needs a completed one.`,
          details: [{ [`${table === "eval_runs" ? "evalRunId" : "auditRunId"}`]: id, status: row.status }]
        })
      }
    })

  const create = Effect.fn("ProofReports.create")(function*(
    actor: Actor,
    bundleId: BundleId,
    request: ProofReportRequest,
    idempotencyKey: string | undefined
  ) {
    const { evalRunId, auditRunId, ...evalRequest } = request
    const givenEvalFields = evalFieldNames.filter((k) => evalRequest[k] !== undefined)
    if (evalRunId !== undefined && givenEvalFields.length > 0) {
      return yield* ValidationFailed.of(
        "Give either evalRunId (a completed eval) or eval selectors (to run a new eval first), not both.",
        givenEvalFields.map((k) => ({ path: k, message: "cannot be combined with evalRunId" }))
      )
    }
    return yield* starter.start({
      kind: ProofReportKind,
      actor,
      bundleId,
      route: `POST /artifact-bundles/${bundleId}/proof-reports`,
      idempotencyKey,
      request,
      prepare: Effect.gen(function*() {
        if (auditRunId !== undefined) yield* completedRun("audit_runs", "Audit run", actor.userId, bundleId, RunId.make(auditRunId))
        if (evalRunId !== undefined) {
          yield* completedRun("eval_runs", "Eval run", actor.userId, bundleId, RunId.make(evalRunId))
          const run = yield* evals.findRun(actor.userId, bundleId, RunId.make(evalRunId))
          return { evalRun: run, started: null }
        }
        // no eval yet: start one with these selectors, in this transaction; the report waits for it
        const started = yield* starter.startWithin(evals.startOptions(actor, bundleId, evalRequest, undefined))
        return { evalRun: started.run, started }
      }),
      credits: () => 0,
      insertRun: ({ evalRun }, ids) =>
        Effect.gen(function*() {
          const [hashes] = yield* query(ComparedHashRows, sql`
            SELECT (SELECT content_hash FROM file_versions WHERE id = ${evalRun.sourceFileVersionId}) AS source_hash,
                   (SELECT content_hash FROM file_versions WHERE id = ${evalRun.candidateFileVersionId}) AS candidate_hash`).pipe(
            Effect.orDie
          )
          const [row] = yield* query(ProofReportRows, sql`
            INSERT INTO proof_reports (id, artifact_bundle_id, user_id, job_id, requested_by_api_key_id, eval_run_id, audit_run_id,
              source_file_version_id, source_content_hash, candidate_file_version_id, candidate_content_hash, summary)
            VALUES (${ids.runId}, ${bundleId}, ${actor.userId}, ${ids.jobId}, ${ids.apiKeyId}, ${evalRun.id}, ${auditRunId ?? null},
              ${evalRun.sourceFileVersionId}, ${hashes!.sourceHash}, ${evalRun.candidateFileVersionId}, ${hashes!.candidateHash},
              ${JSON.stringify({ creditCost: PROOF_REPORT_CREDIT_COST })}::jsonb)
            RETURNING ${sql.literal(proofColumns)}`).pipe(Effect.orDie)
          return row!
        }),
      respond: ({ started }, run, job) =>
        encodeCreate({
          proofReport: toProofReportJson(run),
          job: toJobJson(job),
          jobId: job.id,
          creditCost: PROOF_REPORT_CREDIT_COST,
          evalRun: started ? toEvalRunJson(started.run) : null,
          evalJobId: started ? started.job.id : null
        }).pipe(Effect.orDie)
    })
  })

  return { create } as const
}

/** The reads: a bundle's reports, one report, its export document. */
const makeReportReads = (records: RunRecords, store: ObjectStoreShape) => {
  const findReport = (userId: string, bundleId: BundleId, id: RunId) =>
    records.find(ProofReportKind, ProofReportRows, proofColumns, userId, bundleId, id, "Proof report")

  const list = Effect.fn("ProofReports.list")(function*(actor: Actor, bundleId: BundleId, params: ListParams) {
    yield* records.guardBundle(actor.userId, bundleId)
    const { items, pagination } = yield* records.page(ProofReportKind, ProofReportRows, proofColumns, bundleId, params)
    return { proofReports: items.map(toProofReportJson), pagination }
  })

  const get = Effect.fn("ProofReports.get")(function*(actor: Actor, bundleId: BundleId, id: RunId) {
    yield* records.guardBundle(actor.userId, bundleId)
    return toProofReportDetail(yield* findReport(actor.userId, bundleId, id))
  })

  /**
   * The export document as stored: from object storage when the export was written there (and its
   * bytes still hash as recorded), else the database's copy. 409 until the report is completed.
   */
  const exportDocument = Effect.fn("ProofReports.export")(function*(actor: Actor, bundleId: BundleId, id: RunId) {
    yield* records.guardBundle(actor.userId, bundleId)
    const row = yield* findReport(actor.userId, bundleId, id)
    if (row.status !== "completed" || row.document === null) {
      return yield* new Conflict({
        message: `This proof report is ${row.status}; its export exists once it is completed.`,
        details: [{ proofReportId: id, status: row.status }]
      })
    }
    const fromDatabase = { body: row.document, source: "database" as const }
    if (row.export === null) return fromDatabase
    const exported = row.export
    return yield* store.get(exported.key).pipe(
      Effect.map((bytes) => {
        const text = Buffer.from(bytes).toString("utf8")
        return sha256Tag(bytes) === exported.sha256 ? { body: text, source: exported.provider } : fromDatabase
      }),
      Effect.catchAll((error) =>
        Effect.as(
          Effect.logWarning("export read from object storage failed; serving the database copy").pipe(
            Effect.annotateLogs({ proofReportId: id, reason: error.reason })
          ),
          fromDatabase
        )
      )
    )
  })

  return { list, get, exportDocument } as const
}

export class ProofReports extends Effect.Service<ProofReports>()("rubr/ProofReports", {
  effect: Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const query = makeRows(yield* PgPool)
    const starter = yield* RunStarter
    const records = yield* RunRecords
    const evals = yield* Evals
    const store = yield* ObjectStore
    return { ...makeCreate(sql, query, starter, evals), ...makeReportReads(records, store) } as const
  })
}) {}
