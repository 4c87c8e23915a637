import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { CurrentActor } from "../auth/CurrentActor.js"
import { RubrApi } from "../Api.js"
import { BundleId, JobId } from "../domain/Ids.js"
import { ok } from "../http/Envelope.js"
import { Jobs, toJobJson } from "./Jobs.js"

export const JobsHttp = HttpApiBuilder.group(RubrApi, "jobs", (handlers) =>
  Effect.gen(function*() {
    const jobs = yield* Jobs
    return handlers
      .handle("listJobs", ({ urlParams }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          const { items, pagination } = yield* jobs.list(actor.userId, {
            ...urlParams,
            artifactBundleId: urlParams.artifactBundleId === undefined ? undefined : BundleId.make(urlParams.artifactBundleId)
          })
          return yield* ok({ jobs: items.map(toJobJson), pagination })
        }))
      .handle("getJob", ({ path }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok({ job: toJobJson(yield* jobs.get(actor.userId, JobId.make(path.jobId))) })
        }))
      .handle("listJobEvents", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok({ events: yield* jobs.events(actor.userId, JobId.make(path.jobId), urlParams.after ?? 0, urlParams.limit) })
        }))
      .handle("cancelJob", ({ path }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok({ job: toJobJson(yield* jobs.cancel(actor.userId, JobId.make(path.jobId))) })
        }))
  }))
