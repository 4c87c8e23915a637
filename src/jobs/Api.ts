/** Polling jobs: state, progress events, cancel. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Authentication } from "../auth/Authentication.js"
import { Access, access } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"
import { Envelope, NullableTimestamp, Pagination, Timestamp } from "../http/Envelope.js"
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

/** `active`: queued, running or paused; `ended`: completed, failed or cancelled. */
export const JobStateFilter = Schema.Literal("queued", "running", "paused", "completed", "failed", "cancelled", "active", "ended")
const NonNegativeInt = IntFromString.pipe(Schema.nonNegative())

export class JobsApi extends HttpApiGroup.make("jobs")
  .add(
    HttpApiEndpoint.get("listJobs", "/jobs")
      .setUrlParams(Schema.Struct({
        state: Schema.optional(JobStateFilter.annotations({ description: "one state, or active (queued, running, paused) or ended (completed, failed, cancelled)" })),
        artifactBundleId: Schema.optional(Schema.UUID.annotations({ description: "only this bundle's jobs" })),
        limit: Schema.optional(IntFromString.annotations({ description: "page size, 1..200 (default 50)" })),
        cursor: Schema.optional(Schema.String.annotations({ description: "nextCursor of the previous page" }))
      }))
      .addSuccess(Envelope(Schema.Struct({ jobs: Schema.Array(Job), pagination: Pagination })))
      .pipe(statuses(400, 401, 403))
      .annotate(Access, access.scopes({ anyOf: ["jobs:read"] }))
      .annotate(OpenApi.Summary, "List jobs")
      .annotate(
        OpenApi.Description,
        "Your jobs, newest first, every bundle's (or one bundle's): what is queued or running now, and what ended. A dashboard's jobs page; poll each running one with GET /jobs/{jobId}/events."
      )
  )
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
