/**
 * The use cases every kind of run repeats, written once: list a bundle's runs, read one, estimate
 * one, and the data a start answers with. A kind (audits, conversions, evals) gives its table, columns
 * and record mappers; its own `prepare` (target, estimate) and `start` stay with it.
 */
import { Effect, Schema } from "effect"
import type { Actor } from "../auth/CurrentActor.js"
import type { Pagination } from "../http/Envelope.js"
import type { JobRow } from "./Job.js"
import { toJobJson } from "./Jobs.js"
import type { RunKind } from "./RunKind.js"
import type { RowsOf } from "../db/Query.js"
import type { ListParams, RunRecords } from "./RunRecords.js"
import type { BundleId, RunId } from "../domain/Ids.js"

export interface RunReadsSpec<Row, Json, Detail, ListKey extends string> {
  /** the span prefix, e.g. `Audits` (spans `Audits.list`, `Audits.get`) */
  readonly name: string
  readonly kind: Pick<RunKind<any>, "table">
  /** how its rows decode (the run record's schema) */
  readonly rows: RowsOf<Row>
  /** the run table's columns as its record mapper reads them */
  readonly columns: string
  /** what a missing run is called in its 404, e.g. `Audit run` */
  readonly what: string
  /** the list's key for its runs, e.g. `auditRuns` */
  readonly listKey: ListKey
  readonly toJson: (row: Row) => Json
  readonly toDetail: (row: Row) => Detail
}

/** What every estimate answers: a kind's `prepare` computes it, the start debits it. */
export interface Prepared {
  readonly estimate: unknown
  readonly creditCost: unknown
  readonly target: unknown
}

/** Reading a kind's runs: one by id (404 naming it), a bundle's newest first, each behind the bundle's guard. */
export const runReads = <Row extends { readonly createdAt: Date; readonly id: string }, Json, Detail, const ListKey extends string>(
  records: RunRecords,
  spec: RunReadsSpec<Row, Json, Detail, ListKey>
) => {
  const findRun = (userId: string, bundleId: BundleId, runId: RunId) =>
    records.find(spec.kind, spec.rows, spec.columns, userId, bundleId, runId, spec.what)

  const list = Effect.fn(`${spec.name}.list`)(function*(actor: Actor, bundleId: BundleId, params: ListParams) {
    yield* records.guardBundle(actor.userId, bundleId)
    const { items, pagination } = yield* records.page(spec.kind, spec.rows, spec.columns, bundleId, params)
    const page = { [spec.listKey]: items.map(spec.toJson), pagination }
    return page as { readonly [K in ListKey]: ReadonlyArray<Json> } & { readonly pagination: Pagination }
  })

  const get = Effect.fn(`${spec.name}.get`)(function*(actor: Actor, bundleId: BundleId, runId: RunId) {
    yield* records.guardBundle(actor.userId, bundleId)
    return spec.toDetail(yield* findRun(actor.userId, bundleId, runId))
  })

  return { findRun, list, get } as const
}

/** The estimate route: the bundle's guard, then the kind's `prepare`, answered without starting anything. */
export const runEstimate = <Request, P extends Prepared, E, R>(
  records: RunRecords,
  name: string,
  prepare: (actor: Actor, bundleId: BundleId, request: Request) => Effect.Effect<P, E, R>
) =>
  Effect.fn(`${name}.estimate`)(function*(actor: Actor, bundleId: BundleId, request: Request) {
    yield* records.guardBundle(actor.userId, bundleId)
    const prepared = yield* prepare(actor, bundleId, request)
    return { estimate: prepared.estimate as P["estimate"], creditCost: prepared.creditCost as P["creditCost"], target: prepared.target as P["target"] }
  })

/**
 * A start's `respond`: the run under its key, its job, and what was prepared, encoded by the kind's
 * start schema (`StartAuditData`, …).
 */
export const startedData = <A, I, const RunKey extends string, Row>(
  schema: Schema.Schema<A, I, never>,
  runKey: RunKey,
  toJson: (row: Row) => unknown
) => {
  const encode = Schema.encode(schema)
  return (prepared: Prepared, run: Row, job: JobRow) =>
    encode({
      [runKey]: toJson(run),
      job: toJobJson(job),
      jobId: job.id,
      creditCost: prepared.creditCost,
      estimate: prepared.estimate,
      target: prepared.target
    } as A).pipe(Effect.orDie)
}
