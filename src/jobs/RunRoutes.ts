/**
 * The four routes every kind of run has, declared once: list a bundle's runs, start one (202 with a
 * job to poll), estimate one, and read one. A kind (audits, conversions, evals) names its routes, its
 * schemas and its words; what the routes are (paths, idempotency, access, error statuses) is here.
 * Schemas only, like every contract file: the typed client and the OpenAPI document read them.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Access, access, type Scope } from "../auth/Scopes.js"
import { type ErrorStatus, statuses } from "../http/Endpoint.js"
import { Envelope, NullableTimestamp, Pagination, Timestamp } from "../http/Envelope.js"
import { IdempotencyHeaders } from "../http/IdempotencyKey.js"
import { BundlePath, CursorPageParams } from "../http/PageParams.js"
import { CreditCost } from "../credits/Schemas.js"
import { Job } from "./Api.js"

/** A route's words in the OpenAPI document. */
export interface RouteDocs {
  readonly summary: string
  readonly description: string
}

export interface RunRoutesDef<
  ListName extends string,
  StartName extends string,
  EstimateName extends string,
  GetName extends string,
  ListKey extends string,
  RunKey extends string,
  RunIdParam extends string,
  Run extends Schema.Schema.Any,
  Detail extends Schema.Schema.Any,
  Body extends Schema.Schema.Any,
  Started extends Schema.Schema.Any,
  Estimated extends Schema.Schema.Any,
  ListParams extends Schema.Schema.Any,
  ListStatuses extends ReadonlyArray<ErrorStatus>
> {
  readonly names: { readonly list: ListName; readonly start: StartName; readonly estimate: EstimateName; readonly get: GetName }
  /** the collection, e.g. `/artifact-bundles/:artifactBundleId/audits` (the estimate is `…/estimate`) */
  readonly path: `/${string}`
  /** the list's key for its runs (`auditRuns`) and the read's key for its run (`auditRun`) */
  readonly listKey: ListKey
  readonly runKey: RunKey
  /** the run id's path parameter, e.g. `auditRunId` */
  readonly runIdParam: RunIdParam
  readonly schemas: {
    readonly run: Run
    readonly detail: Detail
    readonly request: Body
    readonly started: Started
    readonly estimated: Estimated
    /** the list's query parameters (the run lists' `limit` and `cursor` by default) */
    readonly listParams?: ListParams
  }
  /** the scope that starts and estimates this kind (reading needs `artifact_bundles:read`) */
  readonly runScope: Scope
  /** the list's error statuses as the contract lists them */
  readonly listStatuses: ListStatuses
  readonly docs: { readonly list: RouteDocs; readonly start: RouteDocs; readonly estimate: RouteDocs; readonly get: RouteDocs }
}

/** How a run ended (a safe error) and when: the last fields of a conversion's, an eval's and a proof report's answer. */
export const runEndAnswerFields = {
  error: Schema.NullOr(Schema.Struct({ code: Schema.String, message: Schema.String })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  completedAt: NullableTimestamp
}

/** What a start answers, every kind in this order: the run, its job, the credits debited, the estimate and the target. */
export const startAnswer = <const K extends string, Run extends Schema.Schema.Any, E extends Schema.Schema.Any, T extends Schema.Schema.Any>(
  runKey: K,
  run: Run,
  estimate: E,
  target: T
) =>
  Schema.Struct({ [runKey]: run, job: Job, jobId: Schema.UUID, creditCost: CreditCost, estimate, target }) as unknown as Schema.Struct<
    { [P in K]: Run } & { job: typeof Job; jobId: typeof Schema.UUID; creditCost: typeof CreditCost; estimate: E; target: T }
  >

/** What an estimate answers (a kind may add fields after these): what a start would be charged, for which target. */
export const estimateAnswerFields = <E extends Schema.Schema.Any, T extends Schema.Schema.Any>(estimate: E, target: T) => ({
  estimate,
  creditCost: CreditCost,
  target
})

const documented = (docs: RouteDocs) =>
<Ep extends HttpApiEndpoint.HttpApiEndpoint.Any>(endpoint: Ep): Ep =>
  (endpoint as any).annotate(OpenApi.Summary, docs.summary).annotate(OpenApi.Description, docs.description)

/** The list, start, estimate and get endpoints of a kind of run, for its group to `add`. */
export const runRoutes = <
  const ListName extends string,
  const StartName extends string,
  const EstimateName extends string,
  const GetName extends string,
  const ListKey extends string,
  const RunKey extends string,
  const RunIdParam extends string,
  Run extends Schema.Schema.Any,
  Detail extends Schema.Schema.Any,
  Body extends Schema.Schema.Any,
  Started extends Schema.Schema.Any,
  Estimated extends Schema.Schema.Any,
  const ListStatuses extends ReadonlyArray<ErrorStatus>,
  ListParams extends Schema.Schema.Any = typeof CursorPageParams
>(
  def: RunRoutesDef<
    ListName,
    StartName,
    EstimateName,
    GetName,
    ListKey,
    RunKey,
    RunIdParam,
    Run,
    Detail,
    Body,
    Started,
    Estimated,
    ListParams,
    ListStatuses
  >
) => {
  const { schemas } = def
  const readAccess = access.scopes({ anyOf: ["artifact_bundles:read"] })
  const runAccess = access.scopes({ anyOf: [def.runScope] })
  const listParams = (schemas.listParams ?? CursorPageParams) as ListParams
  const RunPath = Schema.Struct({ artifactBundleId: Schema.UUID, [def.runIdParam]: Schema.UUID }) as unknown as Schema.Struct<
    { artifactBundleId: typeof Schema.UUID } & { [K in RunIdParam]: typeof Schema.UUID }
  >
  const ListData = Schema.Struct({ [def.listKey]: Schema.Array(schemas.run), pagination: Pagination }) as unknown as Schema.Struct<
    { [K in ListKey]: Schema.Array$<Run> } & { pagination: typeof Pagination }
  >
  const RunData = Schema.Struct({ [def.runKey]: schemas.detail }) as unknown as Schema.Struct<{ [K in RunKey]: Detail }>
  return {
    list: HttpApiEndpoint.get(def.names.list, def.path)
      .setPath(BundlePath)
      .setUrlParams<ListParams>(listParams as any)
      .addSuccess(Envelope(ListData))
      .pipe(statuses(...def.listStatuses), documented(def.docs.list))
      .annotate(Access, readAccess),
    start: HttpApiEndpoint.post(def.names.start, def.path)
      .setPath(BundlePath)
      .setHeaders(IdempotencyHeaders)
      .setPayload(schemas.request)
      .addSuccess(Envelope(schemas.started), { status: 202 })
      .pipe(statuses(400, 401, 402, 403, 404, 409, 429, 503), documented(def.docs.start))
      .annotate(Access, runAccess),
    estimate: HttpApiEndpoint.post(def.names.estimate, `${def.path}/estimate`)
      .setPath(BundlePath)
      .setPayload(schemas.request)
      .addSuccess(Envelope(schemas.estimated))
      .pipe(statuses(400, 401, 403, 404, 409, 429), documented(def.docs.estimate))
      .annotate(Access, runAccess),
    get: HttpApiEndpoint.get(def.names.get, `${def.path}/:${def.runIdParam}`)
      .setPath<typeof RunPath>(RunPath as any) // a generic key defeats the check that the path encodes to strings (UUIDs do)
      .addSuccess(Envelope(RunData))
      .pipe(statuses(400, 401, 403, 404), documented(def.docs.get))
      .annotate(Access, readAccess)
  }
}
