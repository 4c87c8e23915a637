/** Public routes: health, the derived OpenAPI document (and the browsable docs page, in Server.ts). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
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
      .annotate(OpenApi.Summary, "Check the service's health")
      .annotate(
        OpenApi.Description,
        "200 `{status: \"ok\", database: \"ok\"}` while the service and its database answer; 503 `service_unavailable` when the database is unreachable. " +
          "For probes and load balancers."
      )
  )
  .add(
    HttpApiEndpoint.get("openapi", "/openapi.json")
      .addSuccess(Schema.Unknown.annotations({ description: "The OpenAPI 3.1.0 document of this API" }))
      .pipe(statuses(429))
      .annotate(Access, access.public)
      .annotate(OpenApi.Summary, "Get the OpenAPI document")
      .annotate(
        OpenApi.Description,
        "This document: the OpenAPI 3.1.0 contract of the REST API, derived from the service's API definition, never hand-written. " +
          "`GET /api/v1/docs` is a browsable reference page of it."
      )
  )
  .annotate(OpenApi.Title, "System")
  .annotate(
    OpenApi.Description,
    "The service itself: a health probe and this OpenAPI document, the contract every route follows. Public, no token needed."
  )
{}
