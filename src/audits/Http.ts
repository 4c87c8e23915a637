import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { CurrentActor } from "../auth/CurrentActor.js"
import { RubrApi } from "../Api.js"
import { ok } from "../http/Envelope.js"
import { startedResponse } from "../http/Idempotency.js"
import { Audits } from "./Audits.js"

export const AuditsHttp = HttpApiBuilder.group(RubrApi, "audits", (handlers) =>
  Effect.gen(function*() {
    const audits = yield* Audits
    return handlers
      .handle("listAudits", ({ path, urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.flatMap(audits.list(actor, path.artifactBundleId, urlParams), ok)))
      .handle("startAudit", ({ path, payload, headers }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* startedResponse(yield* audits.start(actor, path.artifactBundleId, payload ?? {}, headers["idempotency-key"]))
        }))
      .handle("estimateAudit", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.flatMap(audits.estimate(actor, path.artifactBundleId, payload ?? {}), ok)))
      .handle("getAudit", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          Effect.flatMap(audits.get(actor, path.artifactBundleId, path.auditRunId), (auditRun) => ok({ auditRun }))))
      .handle("applyAudit", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.flatMap(audits.apply(actor, path.artifactBundleId, path.auditRunId), ok)))
  }))
