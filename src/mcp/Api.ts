/**
 * The MCP endpoint in the API contract. Its body is JSON-RPC, read by the MCP transport itself
 * (src/mcp/Mcp.ts), so the route declares no payload schema: malformed JSON is a JSON-RPC parse error,
 * not the REST envelope. Authentication is per tool call (the request's bearer token).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { AcceptsCredentials, Access, access } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"

export class McpApi extends HttpApiGroup.make("mcp")
  .add(
    HttpApiEndpoint.post("mcp", "/mcp")
      .addSuccess(Schema.Unknown.annotations({
        description: "a JSON-RPC 2.0 response (or batch), application/json; 202 with no body for notifications only"
      }))
      .pipe(statuses(413, 429))
      .annotate(Access, access.public)
      .annotate(AcceptsCredentials, true)
      .annotate(
        OpenApi.Description,
        "Model Context Protocol, Streamable HTTP answering JSON (no SSE stream; GET is 405). Protocol versions 2025-03-26 and 2025-06-18. " +
          "Methods: initialize, notifications/initialized, ping, tools/list, tools/call, resources/list, resources/read. " +
          "Documentation tools are public; product tools take the same bearer token, scopes, limits and credits as REST. docs/mcp.md lists the tools."
      )
      .annotate(OpenApi.Summary, "Send an MCP request")
  )
  .annotate(OpenApi.Title, "MCP")
  .annotate(
    OpenApi.Description,
    "The Model Context Protocol endpoint for AI clients (JSON-RPC over HTTP): documentation tools are public; product tools take the same bearer token, scopes, rate limits, ownership checks and credits as REST."
  )
{}
