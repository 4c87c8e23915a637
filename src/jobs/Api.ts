/** Polling jobs: state, progress events, cancel. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Authentication } from "../auth/Authentication.js"
import { Access, access } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"
import { Envelope, NullableTimestamp, Timestamp } from "../http/Envelope.js"
import { IntFromString } from "../http/PageParams.js"

export const JobState = Schema.Literal("queued", "running", "paused", "completed", "failed", "cancelled")

export const Job = Schema.Struct({
  id: Schema.UUID,
  kind: Schema.String,
  state: JobState,
  phase: Schema.String,
  percent: Schema.Number,
  message: Schema.String,
  artifactBundleId: Schema.UUID,
  resourceType: Schema.String,
  resourceId: Schema.UUID,
  attempts: Schema.Int,
  maxAttempts: Schema.Int,
  result: Schema.NullOr(Schema.Unknown).annotations({ description: "safe result metadata once completed" }),
  error: Schema.NullOr(Schema.Struct({ code: Schema.String, message: Schema.String })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  startedAt: NullableTimestamp,
  finishedAt: NullableTimestamp
}).annotations({ identifier: "Job" })

export const JobEvent = Schema.Struct({
  id: Schema.UUID,
  jobId: Schema.UUID,
  sequence: Schema.Int,
  kind: Schema.String,
  state: JobState,
  phase: Schema.String,
  percent: Schema.Number,
  message: Schema.String,
  createdAt: Timestamp
}).annotations({ identifier: "JobEvent" })

const JobIdParam = Schema.Struct({ jobId: Schema.UUID })
const NonNegativeInt = IntFromString.pipe(Schema.nonNegative())

export class JobsApi extends HttpApiGroup.make("jobs")
  .add(
    HttpApiEndpoint.get("getJob", "/jobs/:jobId")
      .setPath(JobIdParam)
      .addSuccess(Envelope(Schema.Struct({ job: Job })))
      .pipe(statuses(400, 401, 403, 404))
      .annotate(Access, access.scopes({ anyOf: ["jobs:read"] }))
      .annotate(OpenApi.Summary, "Get a job")
      .annotate(
        OpenApi.Description,
        "The job's latest state, phase, percent and message, timestamps, bundle and resource ids, attempts, safe result metadata, and a safe error code and message when it failed or paused. " +
          "Poll it until it is terminal. Another user's job is 404."
      )
  )
  .add(
    HttpApiEndpoint.get("listJobEvents", "/jobs/:jobId/events")
      .setPath(JobIdParam)
      .setUrlParams(Schema.Struct({
        after: Schema.optional(NonNegativeInt.annotations({ description: "only events with a larger sequence" })),
        limit: Schema.optional(NonNegativeInt.annotations({ description: "at most this many events (1..200, default 200)" }))
      }))
      .addSuccess(Envelope(Schema.Struct({ events: Schema.Array(JobEvent) })))
      .pipe(statuses(400, 401, 403, 404))
      .annotate(Access, access.scopes({ anyOf: ["jobs:read"] }))
      .annotate(OpenApi.Summary, "List a job's events")
      .annotate(
        OpenApi.Description,
        "Append-only progress events, ordered by sequence. Poll with `after` (the last sequence seen)."
      )
  )
  .add(
    HttpApiEndpoint.post("cancelJob", "/jobs/:jobId/cancel")
      .setPath(JobIdParam)
      .addSuccess(Envelope(Schema.Struct({ job: Job })))
      .pipe(statuses(400, 401, 403, 404, 409))
      .annotate(Access, access.scopes({ anyOf: ["jobs:write"] }))
      .annotate(
        OpenApi.Description,
        "Cancels a queued (never starts) or running (interrupted at the next safe point) job; unused credits are refunded. A finished job is 409."
      )
      .annotate(OpenApi.Summary, "Cancel a job")
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Jobs")
  .annotate(
    OpenApi.Description,
    "Long-running, credit-spending work (audits, conversions, evals, proof reports) runs as jobs: a start answers 202 with a job id, and the client polls the job until it is terminal (`completed`, `failed` or `cancelled`). " +
      "There is no push channel. A login token reaches its own jobs; an API key needs `jobs:read` to poll and `jobs:write` to cancel."
  )
{}
