import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Effect } from "effect"
import { RubrApi } from "../Api.js"
import { Mcp } from "./Mcp.js"

export const McpHttp = HttpApiBuilder.group(RubrApi, "mcp", (handlers) =>
  Effect.gen(function*() {
    const mcp = yield* Mcp
    return handlers.handle("mcp", () => Effect.flatMap(HttpServerRequest.HttpServerRequest, mcp.handleHttp))
  }))
