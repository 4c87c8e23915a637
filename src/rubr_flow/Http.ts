import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import { RubrApi } from "../Api.js"
import { rubrFlowJsonSchema } from "./Format.js"

export const RubrFlowHttp = HttpApiBuilder.group(RubrApi, "rubrFlow", (handlers) =>
  Effect.gen(function*() {
    const body = JSON.stringify(rubrFlowJsonSchema(), null, 2)
    return handlers.handle("rubrFlowSchema", () =>
      Effect.succeed(HttpServerResponse.text(body, { contentType: "application/schema+json" })))
  }))
