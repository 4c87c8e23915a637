/** Rubric audits: estimate, start (async job), list, read, apply. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Authentication } from "../auth/Authentication.js"
import { Access, access } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"
import { Envelope, NullableTimestamp, Timestamp } from "../http/Envelope.js"
import { IntFromString } from "../http/PageParams.js"
import { estimateAnswerFields, runRoutes, startAnswer } from "../jobs/RunRoutes.js"
import { chargeFields, CreditCost, usageFields, WorkEstimate } from "../credits/Schemas.js"
import { ModelTier, ReasoningEffort, ResultMetadata } from "../ai/Usage.js"
import { ArtifactType } from "../domain/Artifact.js"
import { CriterionScore, Finding } from "../review/Types.js"
import { EvalCase } from "../domain/EvalCase.js"
import { TargetFields, TargetSelection } from "../targets/Schemas.js"
import { isRuleId } from "../review/rules/Rules.js"

export const AuditRequest = Schema.Struct({
  ...TargetSelection,
  artifactType: Schema.optional(ArtifactType),
  modelTier: Schema.optional(ModelTier).annotations({ description: "the model tier the review runs on (default standard); the estimate scales with it" }),
  reasoningEffort: Schema.optional(ReasoningEffort).annotations({ description: "the reasoning effort asked of the model (default medium); the estimate scales with it" }),
  rubricKey: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))),
  folderName: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255))).annotations({
    description: "the name of the folder the bundle's files were read from (`rubr check DIR` sends DIR's name): a SKILL.md at the bundle root must be named after it; without it, the bundle's name stands in"
  }),
  disabledRules: Schema.optional(
    Schema.Array(
      Schema.String.pipe(Schema.filter((id) => isRuleId(id) || `unknown rule id '${id}'; the rubrics guide lists them (SK-NAME-FOLDER, SK-CLAR-VAGUE, …)`))
    ).pipe(Schema.maxItems(200))
  ).annotations({
    description: "rule ids (SK-…) left out of this audit, on top of the bundle's settings.disabledRules (`rubr check` sends a repository configuration's rules turned off)"
  }),
  force: Schema.optional(Schema.Boolean).annotations({
    description: "run even when an identical audit (same input versions, mode, rubric, tier and effort) is queued, running or completed"
  })
}).annotations({ identifier: "AuditRequest", parseOptions: { errors: "all" } })
export type AuditRequest = typeof AuditRequest.Type

/** An empty body selects the defaults. */
export const AuditRequestBody = Schema.NullOr(AuditRequest)

export const AuditEstimate = WorkEstimate
export { CreditCost }

export const AuditTarget = Schema.Struct(TargetFields).annotations({ identifier: "AuditTarget" })

export const AuditSummary = Schema.Struct({
  estimate: AuditEstimate,
  target: AuditTarget,
  creditCost: CreditCost,
  rubricTitle: Schema.String
})

export const AuditRun = Schema.Struct({
  id: Schema.UUID,
  artifactBundleId: Schema.UUID,
  jobId: Schema.UUID,
  targetFileVersionId: Schema.NullOr(Schema.UUID),
  requestedByApiKeyId: Schema.NullOr(Schema.UUID),
  status: Schema.Literal("queued", "running", "completed", "failed", "cancelled"),
  rubricKey: Schema.String,
  rubricVersion: Schema.String,
  artifactType: Schema.String,
  summary: AuditSummary,
  overallScore: Schema.NullOr(Schema.Number),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  completedAt: NullableTimestamp
}).annotations({ identifier: "AuditRun" })

export const ImprovedFileResult = Schema.Struct({
  fileId: Schema.UUID,
  path: Schema.String,
  baseFileVersionId: Schema.UUID,
  content: Schema.String,
  changes: Schema.Array(Schema.String)
})

export const AuditRunDetail = Schema.Struct({
  ...AuditRun.fields,
  scores: Schema.Array(CriterionScore),
  findings: Schema.Array(Finding).annotations({ description: "most severe first" }),
  improvedVersion: Schema.NullOr(ImprovedFileResult),
  improvedFiles: Schema.Array(ImprovedFileResult),
  evalKit: Schema.NullOr(Schema.Struct({ cases: Schema.Array(EvalCase) })),
  targetVersionIds: Schema.Struct({
    targetFileVersionId: Schema.NullOr(Schema.UUID),
    inputVersionIds: Schema.Array(Schema.UUID)
  }),
  error: Schema.NullOr(Schema.Struct({ code: Schema.String, message: Schema.String })),
  resultMetadata: Schema.NullOr(ResultMetadata),
  ...chargeFields,
  ...usageFields,
  appliedAt: NullableTimestamp
}).annotations({ identifier: "AuditRunDetail" })

export const StartAuditData = startAnswer("auditRun", AuditRun, AuditEstimate, AuditTarget)

export const EstimateAuditData = Schema.Struct({
  ...estimateAnswerFields(AuditEstimate, AuditTarget),
  identicalAuditRun: Schema.NullOr(Schema.Struct({ id: Schema.UUID, status: Schema.Literal("queued", "running", "completed") }))
})

const RunParam = Schema.Struct({ artifactBundleId: Schema.UUID, auditRunId: Schema.UUID })

const routes = runRoutes({
  names: { list: "listAudits", start: "startAudit", estimate: "estimateAudit", get: "getAudit" },
  path: "/artifact-bundles/:artifactBundleId/audits",
  listKey: "auditRuns",
  runKey: "auditRun",
  runIdParam: "auditRunId",
  schemas: {
    run: AuditRun,
    detail: AuditRunDetail,
    request: AuditRequestBody,
    started: StartAuditData,
    estimated: EstimateAuditData,
    listParams: Schema.Struct({ limit: Schema.optional(IntFromString), cursor: Schema.optional(Schema.String) })
  },
  runScope: "audits:run",
  listStatuses: [400, 401, 403, 404],
  docs: {
    list: { summary: "List audits", description: "Audit runs of this bundle, newest first." },
    start: {
      summary: "Start an audit",
      description:
        "Admits (rate limits, usage caps, credits, circuit breaker), debits the estimate, queues the audit job and answers 202 at once. " +
        "Poll GET /jobs/{jobId}, then read the run. " +
        "An empty body audits the current state: the main artifact with the other files as context, or, with no main artifact, every current file (bundle-level mode). " +
        "`targetFileId` with `targetVersionNumber`, or `artifactBundleVersionNumber` alone, selects a file version or a bundle version event. " +
        "An identical audit already queued, running or completed is a 409 unless `force` is true."
    },
    estimate: {
      summary: "Estimate an audit",
      description:
        "The estimate, credit cost and target a start with the same body would have; starts nothing and spends no credits. " +
        "`identicalAuditRun` names the identical audit (same input versions, rubric and review options) already queued, running or completed, which a start without `force` would answer 409 for: it costs nothing to reuse."
    },
    get: {
      summary: "Get an audit",
      description:
        "The audit run with its stored result: scores, findings (most severe first), the improved version (`improvedFiles` for a whole-bundle audit), the eval kit, target versions, safe errors, credits and provider usage. " +
        "Raw provider responses are never exposed."
    }
  }
})

export class AuditsApi extends HttpApiGroup.make("audits")
  .add(routes.list)
  .add(routes.start)
  .add(routes.estimate)
  .add(routes.get)
  .add(
    HttpApiEndpoint.post("applyAudit", "/artifact-bundles/:artifactBundleId/audits/:auditRunId/apply")
      .setPath(RunParam)
      .addSuccess(Envelope(Schema.Struct({
        appliedCount: Schema.Int,
        files: Schema.Array(Schema.Struct({ fileId: Schema.UUID, path: Schema.String, versionNumber: Schema.Int }))
      })))
      .pipe(statuses(400, 401, 403, 404, 409))
      .annotate(Access, access.scopes({ anyOf: ["audits:run"] }))
      .annotate(
        OpenApi.Description,
        "Writes one new version per rewritten file (frontmatter preserved). 409 when the run is not completed, was already applied, or a file changed since the audit."
      )
      .annotate(OpenApi.Summary, "Apply an audit's improvements")
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Audits")
  .annotate(
    OpenApi.Description,
    "Rubric audits score an artifact against a rubric, point at the lines that need work and write an improved version that can be applied. " +
      "Credit-spending and asynchronous: the start answers 202 with a job to poll."
  )
{}
