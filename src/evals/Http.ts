import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { RubrApi } from "../Api.js"
import { runHandlers } from "../jobs/RunHandlers.js"
import { Evals } from "./Evals.js"

export const EvalsHttp = HttpApiBuilder.group(RubrApi, "evals", (handlers) =>
  Effect.gen(function*() {
    const evals = yield* Evals
    const runs = runHandlers(evals, { runKey: "evalRun", runIdParam: "evalRunId" })
    return handlers
      .handle("listEvals", runs.list)
      .handle("startEval", runs.start)
      .handle("estimateEval", runs.estimate)
      .handle("getEval", runs.get)
  }))
