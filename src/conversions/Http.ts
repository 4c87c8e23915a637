import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { CurrentActor } from "../auth/CurrentActor.js"
import { RubrApi } from "../Api.js"
import { ok } from "../http/Envelope.js"
import { startedResponse } from "../http/Idempotency.js"
import { Conversions } from "./Conversions.js"

export const ConversionsHttp = HttpApiBuilder.group(RubrApi, "conversions", (handlers) =>
  Effect.gen(function*() {
    const conversions = yield* Conversions
    return handlers
      .handle("listConversions", ({ path, urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.flatMap(conversions.list(actor, path.artifactBundleId, urlParams), ok)))
      .handle("startConversion", ({ path, payload, headers }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* startedResponse(yield* conversions.start(actor, path.artifactBundleId, payload ?? {}, headers["idempotency-key"]))
        }))
      .handle("estimateConversion", ({ path, payload }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.flatMap(conversions.estimate(actor, path.artifactBundleId, payload ?? {}), ok)))
      .handle("getConversion", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          Effect.flatMap(conversions.get(actor, path.artifactBundleId, path.conversionId), (conversion) => ok({ conversion }))))
  }))
