/**
 * The typed test client's types: a request's reply body follows from its method and path, read off the
 * contract (`RubrApi`), so a test that reads a field the endpoint does not answer fails to typecheck.
 *
 * HttpApi keeps an endpoint's path out of its type, so `routes` names the endpoint (group and name)
 * behind each method and path; test/typed-client.test.ts holds it equal to the contract's own list.
 */
import type * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type { Brand } from "effect"
import type { RubrApi } from "../../src/Api.js"
import type { ErrorDetail } from "../../src/domain/Errors.js"

/** Every endpoint of the contract as `"METHOD /path"` (under /api/v1) → [group, endpoint]. */
export const routes = {
  "GET /health": ["system", "health"],
  "GET /openapi.json": ["system", "openapi"],
  "GET /me": ["identity", "me"],
  "GET /api-keys": ["identity", "listApiKeys"],
  "POST /api-keys": ["identity", "createApiKey"],
  "DELETE /api-keys/:keyId": ["identity", "revokeApiKey"],
  "GET /artifact-bundles": ["artifactBundles", "list"],
  "POST /artifact-bundles": ["artifactBundles", "create"],
  "GET /artifact-bundles/:artifactBundleId": ["artifactBundles", "get"],
  "PATCH /artifact-bundles/:artifactBundleId": ["artifactBundles", "update"],
  "DELETE /artifact-bundles/:artifactBundleId": ["artifactBundles", "archive"],
  "POST /artifact-bundles/:artifactBundleId/unarchive": ["artifactBundles", "unarchive"],
  "DELETE /artifact-bundles/:artifactBundleId/permanent": ["artifactBundles", "deletePermanently"],
  "GET /artifact-bundles/:artifactBundleId/files": ["files", "list"],
  "POST /artifact-bundles/:artifactBundleId/files": ["files", "upload"],
  "GET /artifact-bundles/:artifactBundleId/files/:fileId": ["files", "get"],
  "PUT /artifact-bundles/:artifactBundleId/files/:fileId": ["files", "update"],
  "DELETE /artifact-bundles/:artifactBundleId/files/:fileId": ["files", "delete"],
  "GET /artifact-bundles/:artifactBundleId/versions": ["versions", "listBundleVersions"],
  "POST /artifact-bundles/:artifactBundleId/restore": ["versions", "restoreBundle"],
  "GET /artifact-bundles/:artifactBundleId/files/:fileId/versions": ["versions", "listFileVersions"],
  "GET /artifact-bundles/:artifactBundleId/files/:fileId/versions/:versionNumber": ["versions", "getFileVersion"],
  "POST /artifact-bundles/:artifactBundleId/files/:fileId/versions/:versionNumber/restore": ["versions", "restoreFileVersion"],
  "GET /me/email-preferences": ["emailPreferences", "getEmailPreferences"],
  "PATCH /me/email-preferences": ["emailPreferences", "updateEmailPreferences"],
  "POST /newsletter/subscriptions": ["newsletter", "subscribeNewsletter"],
  "POST /newsletter/unsubscribe": ["newsletter", "unsubscribeNewsletter"],
  "POST /email/unsubscribe-tokens/:token/consume": ["newsletter", "consumeUnsubscribeToken"],
  "GET /email/unsubscribe-tokens/:token/consume": ["newsletter", "unsubscribePage"],
  "GET /jobs": ["jobs", "listJobs"],
  "GET /jobs/:jobId": ["jobs", "getJob"],
  "GET /jobs/:jobId/events": ["jobs", "listJobEvents"],
  "POST /jobs/:jobId/cancel": ["jobs", "cancelJob"],
  "GET /credits": ["credits", "getCredits"],
  "GET /artifact-bundles/:artifactBundleId/audits": ["audits", "listAudits"],
  "POST /artifact-bundles/:artifactBundleId/audits": ["audits", "startAudit"],
  "POST /artifact-bundles/:artifactBundleId/audits/estimate": ["audits", "estimateAudit"],
  "GET /artifact-bundles/:artifactBundleId/audits/:auditRunId": ["audits", "getAudit"],
  "POST /artifact-bundles/:artifactBundleId/audits/:auditRunId/apply": ["audits", "applyAudit"],
  "GET /artifact-bundles/:artifactBundleId/rubr-flow/conversions": ["conversions", "listConversions"],
  "POST /artifact-bundles/:artifactBundleId/rubr-flow/conversions": ["conversions", "startConversion"],
  "POST /artifact-bundles/:artifactBundleId/rubr-flow/conversions/estimate": ["conversions", "estimateConversion"],
  "GET /artifact-bundles/:artifactBundleId/rubr-flow/conversions/:conversionId": ["conversions", "getConversion"],
  "GET /rubr-flow/schema.json": ["rubrFlow", "rubrFlowSchema"],
  "GET /artifact-bundles/:artifactBundleId/evals": ["evals", "listEvals"],
  "POST /artifact-bundles/:artifactBundleId/evals": ["evals", "startEval"],
  "POST /artifact-bundles/:artifactBundleId/evals/estimate": ["evals", "estimateEval"],
  "GET /artifact-bundles/:artifactBundleId/evals/:evalRunId": ["evals", "getEval"],
  "GET /artifact-bundles/:artifactBundleId/proof-reports": ["proofReports", "listProofReports"],
  "POST /artifact-bundles/:artifactBundleId/proof-reports": ["proofReports", "createProofReport"],
  "GET /artifact-bundles/:artifactBundleId/proof-reports/:proofReportId": ["proofReports", "getProofReport"],
  "GET /artifact-bundles/:artifactBundleId/proof-reports/:proofReportId/export": ["proofReports", "exportProofReport"],
  "GET /signing-keys": ["signingKeys", "signingKeys"],
  "POST /mcp": ["mcp", "mcp"],
  "GET /guides": ["guides", "listGuides"],
  "GET /guides/:slug": ["guides", "getGuide"],
  "POST /dev/sign-in": ["development", "signInAsLocalDeveloper"]
} as const

type Routes = typeof routes

/** The error envelope's `error` (src/domain/Errors.ts, `envelopeBody`). */
export interface ApiError {
  readonly code: string
  readonly message: string
  readonly requestId: string
  readonly details: ReadonlyArray<ErrorDetail>
}

/** A value as JSON carries it: dates as ISO strings, branded ids as plain strings. */
export type Json<T> = T extends Date ? string
  : T extends Brand.Brand<any> ? (T extends string ? string : T extends number ? number : T)
  : T extends string | number | boolean | null | undefined ? T
  : T extends ReadonlyArray<infer A> ? ReadonlyArray<Json<A>>
  : T extends object ? { readonly [K in keyof T]: Json<T[K]> }
  : T

type Groups = RubrApi extends HttpApi.HttpApi<infer _Id, infer G, infer _E, infer _R> ? G : never
type Endpoint<Route> = Route extends readonly [infer G extends string, infer N extends string]
  ? HttpApiEndpoint.HttpApiEndpoint.WithName<HttpApiGroup.HttpApiGroup.EndpointsWithName<Groups, G>, N>
  : never

type Segments<S extends string> = S extends `${infer Head}/${infer Tail}` ? [Head, ...Segments<Tail>] : [S]
type PathOnly<P extends string> = P extends `${infer Base}?${string}` ? Base : P
/** A route segment `:name` takes any one segment of the path; any other takes only itself. */
type SegmentsMatch<Pattern extends ReadonlyArray<string>, Path extends ReadonlyArray<string>> = Pattern extends [
  infer PH extends string,
  ...infer PT extends Array<string>
] ? Path extends [infer SH extends string, ...infer ST extends Array<string>]
    ? (PH extends `:${string}` ? (SH extends "" ? false : true) : [SH] extends [PH] ? true : false) extends true ? SegmentsMatch<PT, ST> : false
  : false
  : Path extends [] ? true
  : false

/** The route serving `method` at `path` (a literal or a template such as `/jobs/${string}`), or never. */
export type RouteOf<M extends string, P extends string> = string extends M ? never : string extends P ? never : {
  [K in keyof Routes]: K extends `${M} ${infer Pattern}` ? SegmentsMatch<Segments<Pattern>, Segments<PathOnly<P>>> extends true ? K : never
    : never
}[keyof Routes]

/** The body of an error reply; every reply may be one (a test checks the status before reading `data`). */
export interface ErrorBody {
  readonly error: ApiError
}

/** The reply body a route answers on success (as JSON), beside the error envelope. */
export type BodyOf<M extends string, P extends string> = [RouteOf<M, P>] extends [never] ? ErrorBody
  : HttpApiEndpoint.HttpApiEndpoint.Success<Endpoint<Routes[RouteOf<M, P>]>> extends infer S
    ? [S] extends [void] ? ErrorBody : Json<Exclude<S, void>> & ErrorBody
  : never

/**
 * A JSON value the contract leaves open (`Schema.Unknown`, a free-form record): the escape hatch for a
 * test that reads into it, so each untyped read is named where it happens.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OpenJson = any
export const openJson = (value: unknown): OpenJson => value
