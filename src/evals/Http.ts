import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { CurrentActor } from "../auth/CurrentActor.js"
import { RubrApi } from "../Api.js"
import { ok } from "../http/Envelope.js"
import { startedResponse } from "../http/Idempotency.js"
import { Evals } from "./Evals.js"

export const EvalsHttp = HttpApiBuilder.group(RubrApi, "evals", (handlers) =>
  Effect.gen(function*() {
    const evals = yield* Evals
    return handlers
      .handle("listEvals", ({ path, urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.flatMap(evals.list(actor, path.artifactBundleId, urlParams), ok)))
      .handle("startEval", ({ path, payload, headers }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* startedResponse(yield* evals.start(actor, path.artifactBundleId, payload ?? {}, headers["idempotency-key"]))
        }))
      .handle("estimateEval", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.flatMap(evals.estimate(actor, path.artifactBundleId, payload ?? {}), ok)))
      .handle("getEval", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          Effect.flatMap(evals.get(actor, path.artifactBundleId, path.evalRunId), (evalRun) => ok({ evalRun }))))
  }))
