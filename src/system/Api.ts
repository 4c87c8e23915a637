/** Public routes: health, the derived OpenAPI document (and the browsable docs page, in Server.ts). */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Access, access } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"
import { Envelope } from "../http/Envelope.js"

export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Envelope(Schema.Struct({ status: Schema.Literal("ok"), database: Schema.Literal("ok") })))
      .pipe(statuses(503))
      .annotate(Access, access.public)
  )
  .add(
    HttpApiEndpoint.get("openapi", "/openapi.json")
      .addSuccess(Schema.Unknown.annotations({ description: "The OpenAPI 3.1.0 document of this API" }))
      .annotate(Access, access.public)
  )
  .annotate(OpenApi.Title, "System")
{}
