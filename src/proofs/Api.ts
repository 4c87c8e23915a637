/**
 * Proof reports: the signed evidence of a completed eval, bound to the exact bytes of both versions.
 * Create (async job), list, read, and the export document itself.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Authentication } from "../auth/Authentication.js"
import { Access, access } from "../auth/Scopes.js"
import { CreditCost } from "../credits/Schemas.js"
import { EvalRequestFields, EvalRun } from "../evals/Api.js"
import { statuses } from "../http/Endpoint.js"
import { Envelope, Pagination } from "../http/Envelope.js"
import { IdempotencyHeaders } from "../http/IdempotencyKey.js"
import { BundlePath, CursorPageParams } from "../http/PageParams.js"
import { Job } from "../jobs/Api.js"
import { runEndAnswerFields } from "../jobs/RunRoutes.js"

export const ProofReportRequest = Schema.Struct({
  evalRunId: Schema.optional(Schema.UUID).annotations({
    description: "a completed eval run of this bundle; without it, the eval selectors below start a new eval first"
  }),
  auditRunId: Schema.optional(Schema.UUID).annotations({ description: "a completed audit of this bundle to include" }),
  ...EvalRequestFields
}).annotations({ identifier: "ProofReportRequest", parseOptions: { errors: "all" } })
export type ProofReportRequest = typeof ProofReportRequest.Type

export const ProofReportRequestBody = Schema.NullOr(ProofReportRequest)

const BoundVersion = Schema.Struct({
  fileVersionId: Schema.UUID,
  contentHash: Schema.String.annotations({ description: "sha256 of the exact bytes the report is bound to" })
})

export const ExportMetadata = Schema.Struct({
  provider: Schema.Literal("filesystem", "s3"),
  key: Schema.String,
  bucket: Schema.NullOr(Schema.String),
  sizeBytes: Schema.Int,
  sha256: Schema.String,
  storedAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp" })
}).annotations({ identifier: "ExportMetadata" })

export const ExportFailure = Schema.Struct({
  reason: Schema.String.annotations({ description: "unavailable, disabled, …" }),
  message: Schema.String,
  at: Schema.String.annotations({ description: "ISO 8601 UTC timestamp" })
}).annotations({
  identifier: "ExportFailure",
  description: "the export could not be written to object storage; the document is served from the database"
})

export const ProofReport = Schema.Struct({
  id: Schema.UUID,
  artifactBundleId: Schema.UUID,
  jobId: Schema.UUID,
  requestedByApiKeyId: Schema.NullOr(Schema.UUID),
  status: Schema.Literal("queued", "running", "completed", "failed", "cancelled"),
  evalRunId: Schema.UUID,
  auditRunId: Schema.NullOr(Schema.UUID),
  source: BoundVersion,
  candidate: BoundVersion,
  creditCost: CreditCost,
  signature: Schema.NullOr(Schema.Struct({ alg: Schema.String, kid: Schema.String })),
  export: Schema.NullOr(ExportMetadata),
  exportFailure: Schema.NullOr(ExportFailure),
  exportPath: Schema.NullOr(Schema.String).annotations({ description: "the export route, once the report is completed" }),
  ...runEndAnswerFields
}).annotations({ identifier: "ProofReport" })

export const ProofReportDetail = Schema.Struct({
  ...ProofReport.fields,
  report: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })).annotations({
    description: "the signed payload (docs/evals.md lists its fields), once completed"
  })
}).annotations({ identifier: "ProofReportDetail" })

export const CreateProofReportData = Schema.Struct({
  proofReport: ProofReport,
  job: Job,
  jobId: Schema.UUID,
  creditCost: CreditCost,
  evalRun: Schema.NullOr(EvalRun).annotations({ description: "the eval started first, when the request gave eval selectors" }),
  evalJobId: Schema.NullOr(Schema.UUID)
})

const ReportParam = Schema.Struct({ artifactBundleId: Schema.UUID, proofReportId: Schema.UUID })
const readAccess = access.scopes({ anyOf: ["artifact_bundles:read", "exports:read"] })

export class ProofReportsApi extends HttpApiGroup.make("proofReports")
  .add(
    HttpApiEndpoint.get("listProofReports", "/artifact-bundles/:artifactBundleId/proof-reports")
      .setPath(BundlePath)
      .setUrlParams(CursorPageParams)
      .addSuccess(Envelope(Schema.Struct({ proofReports: Schema.Array(ProofReport), pagination: Pagination })))
      .pipe(statuses(400, 401, 403, 404, 429))
      .annotate(Access, readAccess)
      .annotate(OpenApi.Description, "Proof reports of this bundle, newest first.")
      .annotate(OpenApi.Summary, "List proof reports")
  )
  .add(
    HttpApiEndpoint.post("createProofReport", "/artifact-bundles/:artifactBundleId/proof-reports")
      .setPath(BundlePath)
      .setHeaders(IdempotencyHeaders)
      .setPayload(ProofReportRequestBody)
      .addSuccess(Envelope(CreateProofReportData), { status: 202 })
      .pipe(statuses(400, 401, 402, 403, 404, 409, 429, 503))
      .annotate(Access, access.scopes({ anyOf: ["evals:run"] }))
      .annotate(
        OpenApi.Description,
        "Creates a proof report of a completed eval run (409 while it is not completed), or starts an eval with the given selectors first. " +
          "Costs 0 credits (an eval it starts is charged as an eval) and passes the same admission. The job assembles, signs and exports the report."
      )
      .annotate(OpenApi.Summary, "Create a proof report")
  )
  .add(
    HttpApiEndpoint.get("getProofReport", "/artifact-bundles/:artifactBundleId/proof-reports/:proofReportId")
      .setPath(ReportParam)
      .addSuccess(Envelope(Schema.Struct({ proofReport: ProofReportDetail })))
      .pipe(statuses(400, 401, 403, 404))
      .annotate(Access, readAccess)
      .annotate(OpenApi.Summary, "Get a proof report")
      .annotate(
        OpenApi.Description,
        "The proof report: the versions it is bound to, its status, signature and export metadata (or an export failure note when object storage was unavailable), and the signed payload once completed."
      )
  )
  .add(
    HttpApiEndpoint.get("exportProofReport", "/artifact-bundles/:artifactBundleId/proof-reports/:proofReportId/export")
      .setPath(ReportParam)
      .addSuccess(Schema.Unknown.annotations({
        description: "the signed export document itself (not in the envelope): {format, payload, signature}; verify it with GET /signing-keys"
      }))
      .pipe(statuses(400, 401, 403, 404, 409))
      .annotate(Access, access.scopes({ anyOf: ["exports:read", "artifact_bundles:read"] }))
      .annotate(OpenApi.Summary, "Download a proof report's signed export")
      .annotate(
        OpenApi.Description,
        "The signed export document, once the report is completed (409 before). " +
          "Any change to any byte of the signed content makes verification fail; verify it with the keys at GET /signing-keys (or `rubr verify`)."
      )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Proof reports")
  .annotate(
    OpenApi.Description,
    "A proof report is the signed evidence of a completed eval, bound to the exact bytes (content hashes) of the source and candidate versions. " +
      "Its export is signed by the service; verify it with the keys at `GET /signing-keys`."
  )
{}
