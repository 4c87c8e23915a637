/** Evals: estimate, start (async job), list, read. Two immutable file versions compared on test cases. */
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Authentication } from "../auth/Authentication.js"
import { chargeFields, CreditCost, usageFields, WorkEstimate } from "../credits/Schemas.js"
import { estimateAnswerFields, runEndAnswerFields, runRoutes, startAnswer } from "../jobs/RunRoutes.js"
import { Usage } from "../ai/Usage.js"
import { EvalCase } from "../domain/EvalCase.js"

export const MAX_CASES = 50
export const DEFAULT_MAX_CASES = 10

const PositiveInt = Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))
const Text = (max: number) => Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max))

/** A test case as a request gives it: ids are assigned and `type` defaults to standard when missing. */
export const TestCaseInput = Schema.Struct({
  id: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/))),
  name: Schema.optional(Text(200)),
  type: Schema.optional(Schema.Literal("standard", "scenario")),
  input: Text(20_000),
  expectedBehavior: Text(5_000),
  passCriteria: Text(5_000)
}).annotations({ identifier: "TestCaseInput" })

/** The selectors of the two versions (each side: a version id, or a file id with a version number). */
export const EvalSelectors = {
  sourceFileVersionId: Schema.optional(Schema.UUID),
  candidateFileVersionId: Schema.optional(Schema.UUID),
  sourceFileId: Schema.optional(Schema.UUID),
  sourceVersionNumber: Schema.optional(PositiveInt),
  candidateFileId: Schema.optional(Schema.UUID),
  candidateVersionNumber: Schema.optional(PositiveInt)
}

export const EvalRequestFields = {
  ...EvalSelectors,
  rubricVersion: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))),
  maxCases: Schema.optional(PositiveInt.pipe(Schema.lessThanOrEqualTo(MAX_CASES))).annotations({
    description: `cases run at most (default ${DEFAULT_MAX_CASES}, at most ${MAX_CASES}; with testCases, default their number)`
  }),
  mode: Schema.optional(Schema.Literal("standard")),
  testCases: Schema.optional(Schema.Array(TestCaseInput).pipe(Schema.minItems(1), Schema.maxItems(MAX_CASES)))
}

export const EvalRequest = Schema.Struct(EvalRequestFields).annotations({
  identifier: "EvalRequest",
  parseOptions: { errors: "all" }
})
export type EvalRequest = typeof EvalRequest.Type

/** An empty body selects the defaults: version 1 against the latest version of the main artifact. */
export const EvalRequestBody = Schema.NullOr(EvalRequest)

export const EvalTarget = Schema.Struct({
  artifactBundleId: Schema.UUID,
  sourceFileId: Schema.UUID,
  sourceFilePath: Schema.String,
  sourceFileVersionId: Schema.UUID,
  sourceFileVersionNumber: Schema.Int,
  sourceHash: Schema.String,
  candidateFileId: Schema.UUID,
  candidateFilePath: Schema.String,
  candidateFileVersionId: Schema.UUID,
  candidateFileVersionNumber: Schema.Int,
  candidateHash: Schema.String,
  caseCount: Schema.Int,
  casesSource: Schema.Literal("request", "audit_eval_kit", "generated"),
  auditRunId: Schema.NullOr(Schema.UUID).annotations({ description: "the audit whose eval kit supplied the cases" })
}).annotations({ identifier: "EvalTarget" })

export const EvalEstimate = Schema.Struct({
  ...WorkEstimate.fields,
  caseCount: Schema.Int
}).annotations({ identifier: "EvalEstimate" })

const Side = Schema.Struct({
  observedBehavior: Schema.String,
  passed: Schema.Boolean,
  score: Schema.Number.annotations({ description: "0..100" }),
  evidence: Schema.Array(Schema.String)
})

export const CallRecord = Schema.Struct({
  purpose: Schema.Literal("run_source", "run_candidate", "judge_source_first", "judge_candidate_first"),
  provider: Schema.String,
  model: Schema.String,
  modelTier: Schema.String,
  reasoningEffort: Schema.String,
  usage: Schema.NullOr(Usage),
  durationMs: Schema.Number
}).annotations({ identifier: "EvalCallRecord" })

export const EvalCaseResult = Schema.Struct({
  caseId: Schema.String,
  name: Schema.String,
  type: Schema.Literal("standard", "scenario"),
  input: Schema.String,
  expectedBehavior: Schema.String,
  passCriteria: Schema.String,
  source: Side.annotations({ description: "how the source version behaved, judged against passCriteria" }),
  candidate: Side.annotations({ description: "how the candidate version behaved, judged against passCriteria" }),
  scoreDelta: Schema.Number.annotations({ description: "candidate.score - source.score" }),
  verdict: Schema.Literal("improved", "regressed", "unchanged"),
  calls: Schema.Array(CallRecord)
}).annotations({ identifier: "EvalCaseResult" })

export const EvalDiff = Schema.Struct({
  identical: Schema.Boolean,
  linesAdded: Schema.Int,
  linesRemoved: Schema.Int,
  unified: Schema.String.annotations({ description: "unified diff of source → candidate (3 lines of context)" }),
  truncated: Schema.Boolean
}).annotations({ identifier: "EvalDiff" })

/** the counts of a run's cases, its verdicts and mean scores */
export const EvalComparison = Schema.Struct({
  sourcePassCount: Schema.Int,
  sourceFailCount: Schema.Int,
  candidatePassCount: Schema.Int,
  candidateFailCount: Schema.Int,
  improvedCount: Schema.Int,
  regressedCount: Schema.Int,
  unchangedCount: Schema.Int,
  sourceMeanScore: Schema.Number,
  candidateMeanScore: Schema.Number,
  scoreDelta: Schema.Number
})

/** who evaluated a completed run, with how many calls and for how long */
export const EvalMetadata = Schema.Struct({
  evaluatorVersion: Schema.String,
  provider: Schema.String,
  model: Schema.String,
  modelTier: Schema.String,
  reasoningEffort: Schema.String,
  calls: Schema.Int,
  durationMs: Schema.Number
})

export const EvalSummary = Schema.Struct({ estimate: EvalEstimate, target: EvalTarget, creditCost: CreditCost })

export const EvalRun = Schema.Struct({
  id: Schema.UUID,
  artifactBundleId: Schema.UUID,
  auditRunId: Schema.NullOr(Schema.UUID),
  jobId: Schema.UUID,
  requestedByApiKeyId: Schema.NullOr(Schema.UUID),
  status: Schema.Literal("queued", "running", "completed", "failed", "cancelled"),
  mode: Schema.String,
  evaluatorVersion: Schema.String,
  rubricKey: Schema.String,
  rubricVersion: Schema.String,
  sourceFileVersionId: Schema.UUID,
  candidateFileVersionId: Schema.UUID,
  casesSource: Schema.Literal("request", "audit_eval_kit", "generated"),
  scenarioCount: Schema.Int.annotations({ description: "cases run" }),
  passCount: Schema.Int.annotations({ description: "cases the candidate passed" }),
  failCount: Schema.Int.annotations({ description: "cases the candidate failed" }),
  scoreDelta: Schema.NullOr(Schema.Number).annotations({ description: "mean candidate - source score over the cases" }),
  cases: Schema.Array(EvalCase),
  summary: EvalSummary,
  ...chargeFields,
  ...runEndAnswerFields
}).annotations({ identifier: "EvalRun" })

export const EvalRunDetail = Schema.Struct({
  ...EvalRun.fields,
  results: Schema.Array(EvalCaseResult).annotations({ description: "per case, as judged; kept as evidence when the run fails" }),
  comparison: Schema.NullOr(EvalComparison),
  diff: Schema.NullOr(EvalDiff),
  metadata: Schema.NullOr(EvalMetadata),
  knownLimitations: Schema.Array(Schema.String),
  ...usageFields
}).annotations({ identifier: "EvalRunDetail" })

export const StartEvalData = startAnswer("evalRun", EvalRun, EvalEstimate, EvalTarget)

export const EstimateEvalData = Schema.Struct(estimateAnswerFields(EvalEstimate, EvalTarget))

const routes = runRoutes({
  names: { list: "listEvals", start: "startEval", estimate: "estimateEval", get: "getEval" },
  path: "/artifact-bundles/:artifactBundleId/evals",
  listKey: "evalRuns",
  runKey: "evalRun",
  runIdParam: "evalRunId",
  schemas: { run: EvalRun, detail: EvalRunDetail, request: EvalRequestBody, started: StartEvalData, estimated: EstimateEvalData },
  runScope: "evals:run",
  listStatuses: [400, 401, 403, 404, 429],
  docs: {
    list: {
      summary: "List evals",
      description: "Eval runs of this bundle, newest first."
    },
    start: {
      summary: "Start an eval",
      description:
        "Compares two immutable versions of this bundle on test cases (from the body, else the latest completed audit's eval kit for the source, else generated). " +
        "With no selectors, version 1 and the latest version of the main artifact are compared; with no main artifact, file selectors are required. " +
        "Admits (rate limits, usage caps, credits, circuit breaker), debits the dynamic estimate (it grows with caseCount), queues the job and answers 202. " +
        "Poll GET /jobs/{jobId}."
    },
    estimate: {
      summary: "Estimate an eval",
      description: "The cost, versions and cases a start with the same body would have; starts nothing."
    },
    get: {
      summary: "Get an eval",
      description: "The eval run with its per-case results, comparison, diff and metadata."
    }
  }
})

export class EvalsApi extends HttpApiGroup.make("evals")
  .add(routes.list)
  .add(routes.start)
  .add(routes.estimate)
  .add(routes.get)
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Evals")
  .annotate(
    OpenApi.Description,
    "Evals compare two immutable file versions of one bundle on test cases, recording observed behaviour, pass/fail for each side, score deltas and a diff. " +
      "Credit-spending and asynchronous; failed cases are kept as evidence."
  )
{}
