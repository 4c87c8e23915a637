import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { CurrentActor } from "../auth/CurrentActor.js"
import { RubrApi } from "../Api.js"
import { BundleId, RunId } from "../domain/Ids.js"
import { ok } from "../http/Envelope.js"
import { runHandlers } from "../jobs/RunHandlers.js"
import { Audits } from "./Audits.js"

export const AuditsHttp = HttpApiBuilder.group(RubrApi, "audits", (handlers) =>
  Effect.gen(function*() {
    const audits = yield* Audits
    const runs = runHandlers(audits, { runKey: "auditRun", runIdParam: "auditRunId" })
    return handlers
      .handle("listAudits", runs.list)
      .handle("startAudit", runs.start)
      .handle("estimateAudit", runs.estimate)
      .handle("getAudit", runs.get)
      .handle("applyAudit", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.flatMap(audits.apply(actor, BundleId.make(path.artifactBundleId), RunId.make(path.auditRunId)), ok)))
  }))
