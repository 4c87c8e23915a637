/** rubr_flow conversions: estimate, start (async job), list, read the report. */
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Authentication } from "../auth/Authentication.js"
import { chargeFields, CreditCost, usageFields, WorkEstimate } from "../credits/Schemas.js"
import { estimateAnswerFields, runEndAnswerFields, runRoutes, startAnswer } from "../jobs/RunRoutes.js"
import { ResultMetadata } from "../ai/Usage.js"
import { EvalCase } from "../domain/EvalCase.js"
import { TargetFields, TargetSelection } from "../targets/Schemas.js"

export const DEFAULT_OUTPUT_PATH = "generated/rubr_flow.rubr_flow"

export const ConversionRequest = Schema.Struct({
  ...TargetSelection,
  outputPath: Schema.optional(Schema.String).annotations({
    description: `where the rubr_flow file is written (a new version each time); default ${DEFAULT_OUTPUT_PATH}. ` +
      "A relative path ending in .rubr_flow."
  })
}).annotations({ identifier: "ConversionRequest", parseOptions: { errors: "all" } })
export type ConversionRequest = typeof ConversionRequest.Type

/** An empty body selects the defaults. */
export const ConversionRequestBody = Schema.NullOr(ConversionRequest)

export const ConversionTarget = Schema.Struct({
  ...TargetFields,
  outputPath: Schema.String
}).annotations({ identifier: "ConversionTarget" })

export const ValidationIssue = Schema.Struct({
  code: Schema.String,
  severity: Schema.Literal("error", "warning"),
  message: Schema.String,
  line: Schema.Int.annotations({ description: "1-based line of the generated rubr_flow text" }),
  path: Schema.String.annotations({ description: "location inside the document, e.g. steps.2.check" })
}).annotations({ identifier: "RubrFlowValidationIssue" })

export const ConversionValidation = Schema.Struct({
  valid: Schema.Boolean,
  validatorVersion: Schema.String,
  errorCount: Schema.Int,
  warningCount: Schema.Int,
  issues: Schema.Array(ValidationIssue)
}).annotations({ identifier: "ConversionValidation" })

export const ConversionRepair = Schema.Struct({
  attempted: Schema.Boolean,
  succeeded: Schema.NullOr(Schema.Boolean).annotations({ description: "null when no repair was needed" }),
  reason: Schema.String,
  issuesBefore: Schema.Array(ValidationIssue).annotations({ description: "the first draft's issues" }),
  changes: Schema.Array(Schema.String).annotations({ description: "one line per change the repair made" })
}).annotations({ identifier: "ConversionRepair" })

export const ConversionAttempt = Schema.Struct({
  attempt: Schema.Int.annotations({ description: "1: the first draft; 2: the repair" }),
  kind: Schema.Literal("draft", "repair"),
  text: Schema.String.annotations({ description: "the rubr_flow text as the validator checked it: the issues' line numbers count in it" }),
  validation: ConversionValidation,
  changes: Schema.Array(Schema.String).annotations({ description: "what the repair changed (empty for the draft)" })
}).annotations({ identifier: "ConversionAttempt" })

export const SourceFile = Schema.Struct({
  path: Schema.String,
  fileVersionId: Schema.UUID,
  contentHash: Schema.String,
  lines: Schema.Int,
  role: Schema.Literal("artifact", "context")
})

export const Count = Schema.Int.pipe(Schema.nonNegative())

/** the analysis' counts over the converted files */
export const SourceTotals = Schema.Struct({
  files: Count,
  lines: Count,
  words: Count,
  headings: Count,
  steps: Count,
  rules: Count,
  examples: Count
})

export const SourceSummary = Schema.Struct({
  mode: Schema.Literal("file", "bundle"),
  files: Schema.Array(Schema.Struct({
    path: Schema.String,
    fileVersionId: Schema.UUID,
    contentHash: Schema.String,
    role: Schema.Literal("artifact", "context").annotations({ description: "artifact: converted; context: read only" }),
    bytes: Count,
    lines: Count,
    words: Schema.optional(Count),
    title: Schema.optional(Schema.NullOr(Schema.String)),
    headings: Schema.optional(Count),
    steps: Schema.optional(Count).annotations({ description: "procedure steps the analysis found" }),
    rules: Schema.optional(Count).annotations({ description: "must / never / always lines the analysis found" }),
    examples: Schema.optional(Count)
  })).annotations({ description: "every input file; the analysis fields appear on converted files once the analysis ran" }),
  totals: Schema.optional(SourceTotals)
}).annotations({ identifier: "ConversionSourceSummary" })

export const SourceMapping = Schema.Struct({
  sources: Schema.Array(SourceFile),
  totalLines: Schema.NullOr(Schema.Int).annotations({
    description: "content lines of the converted sources (not blank, not headings); null until the analysis ran"
  }),
  mappedLines: Schema.NullOr(Schema.Int).annotations({ description: "of those, lines some block came from" }),
  coverage: Schema.NullOr(Schema.Number).annotations({ description: "mappedLines / totalLines, 0..1" }),
  unmappedRanges: Schema.Array(Schema.Struct({ path: Schema.String, lineStart: Schema.Int, lineEnd: Schema.Int }))
}).annotations({ identifier: "ConversionSourceMapping" })

export const BlockMappingEntry = Schema.Struct({
  block: Schema.String.annotations({ description: "document path of the block, e.g. steps.2" }),
  kind: Schema.Literal("identity", "input", "step", "output", "guardrail", "failure_handling", "eval"),
  id: Schema.NullOr(Schema.String),
  path: Schema.String,
  lineStart: Schema.Int,
  lineEnd: Schema.Int
}).annotations({ identifier: "BlockMappingEntry" })

/** a missing requirement or a remaining risk */
export const Note = Schema.Struct({ code: Schema.String, message: Schema.String, block: Schema.NullOr(Schema.String) })

export const ConversionSummary = Schema.Struct({
  estimate: WorkEstimate,
  target: ConversionTarget,
  creditCost: CreditCost
})

export const Conversion = Schema.Struct({
  id: Schema.UUID,
  artifactBundleId: Schema.UUID,
  jobId: Schema.UUID,
  requestedByApiKeyId: Schema.NullOr(Schema.UUID),
  status: Schema.Literal("queued", "running", "completed", "failed", "cancelled"),
  targetMode: Schema.Literal("file", "bundle"),
  sourceFileVersionId: Schema.NullOr(Schema.UUID).annotations({ description: "the converted file version (null in bundle mode)" }),
  outputPath: Schema.String,
  outputFileId: Schema.NullOr(Schema.UUID),
  outputFileVersionId: Schema.NullOr(Schema.UUID),
  validatorVersion: Schema.String,
  formatVersion: Schema.String,
  sourceSummary: SourceSummary,
  sourceMapping: SourceMapping,
  summary: ConversionSummary,
  ...chargeFields,
  ...runEndAnswerFields
}).annotations({ identifier: "RubrFlowConversion" })

export const ConversionReport = Schema.Struct({
  ...Conversion.fields,
  blockMapping: Schema.Array(BlockMappingEntry),
  missingRequirements: Schema.Array(Note),
  validation: Schema.NullOr(ConversionValidation),
  repair: Schema.NullOr(ConversionRepair),
  attempts: Schema.Array(ConversionAttempt).annotations({
    description: "every text the validator checked, in order, with its issues: a failed conversion's too (nothing of it was saved)"
  }),
  suggestedEvals: Schema.Array(EvalCase),
  remainingRisks: Schema.Array(Note),
  resultMetadata: Schema.NullOr(ResultMetadata),
  ...usageFields
}).annotations({ identifier: "RubrFlowConversionReport" })

export const StartConversionData = startAnswer("conversion", Conversion, WorkEstimate, ConversionTarget)

export const EstimateConversionData = Schema.Struct(estimateAnswerFields(WorkEstimate, ConversionTarget))

const routes = runRoutes({
  names: { list: "listConversions", start: "startConversion", estimate: "estimateConversion", get: "getConversion" },
  path: "/artifact-bundles/:artifactBundleId/rubr-flow/conversions",
  listKey: "conversions",
  runKey: "conversion",
  runIdParam: "conversionId",
  schemas: { run: Conversion, detail: ConversionReport, request: ConversionRequestBody, started: StartConversionData, estimated: EstimateConversionData },
  runScope: "rubr_flow:convert",
  listStatuses: [400, 401, 403, 404, 429],
  docs: {
    list: {
      summary: "List conversions",
      description: "Conversions of this bundle, newest first."
    },
    start: {
      summary: "Start a rubr_flow conversion",
      description:
        "Admits (rate limits, usage caps, credits, circuit breaker), debits the estimate, queues the conversion job and answers 202 at once. " +
        "The job runs analysis → mapping → generation → validation → repair → saving; poll GET /jobs/{jobId}, then read the report. " +
        "Target selection follows the audit rules. Output that fails validation gets one repair attempt; still invalid, nothing is saved. " +
        "The output is written as a new version of `outputPath` (default generated/rubr_flow.rubr_flow)."
    },
    estimate: {
      summary: "Estimate a rubr_flow conversion",
      description: "The cost and target a start with the same body would have; starts nothing."
    },
    get: {
      summary: "Get a conversion report",
      description: "The conversion report: validation, repair, block mapping, missing requirements, risks, suggested evals."
    }
  }
})

export class ConversionsApi extends HttpApiGroup.make("conversions")
  .add(routes.list)
  .add(routes.start)
  .add(routes.estimate)
  .add(routes.get)
  .middleware(Authentication)
  .annotate(OpenApi.Title, "rubr_flow conversions")
  .annotate(
    OpenApi.Description,
    "Conversion of an artifact into a rubr_flow procedure package, through the phases analysis, mapping, generation, validation, repair and saving. " +
      "Valid output is saved as a new version of the output file (source `rubr_flow_conversion`); output still invalid after one repair attempt is never saved."
  )
{}
