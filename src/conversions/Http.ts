import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { RubrApi } from "../Api.js"
import { runHandlers } from "../jobs/RunHandlers.js"
import { Conversions } from "./Conversions.js"

export const ConversionsHttp = HttpApiBuilder.group(RubrApi, "conversions", (handlers) =>
  Effect.gen(function*() {
    const conversions = yield* Conversions
    const runs = runHandlers(conversions, { runKey: "conversion", runIdParam: "conversionId" })
    return handlers
      .handle("listConversions", runs.list)
      .handle("startConversion", runs.start)
      .handle("estimateConversion", runs.estimate)
      .handle("getConversion", runs.get)
  }))
