/** The rubr_flow format's public JSON Schema (derived from the Effect Schema in ./Format.ts). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Access, access } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"

export class RubrFlowApi extends HttpApiGroup.make("rubrFlow")
  .add(
    HttpApiEndpoint.get("rubrFlowSchema", "/rubr-flow/schema.json")
      .addSuccess(Schema.Unknown.annotations({ description: "The JSON Schema (draft 2020-12) of a rubr_flow 1.0 document" }))
      .pipe(statuses(429))
      .annotate(Access, access.public)
      .annotate(
        OpenApi.Description,
        "The JSON Schema of the rubr_flow format, derived from the same definition the validator uses. It checks shape only; `rubr validate` also checks meaning."
      )
      .annotate(OpenApi.Summary, "Get the rubr_flow JSON Schema")
  )
  .annotate(OpenApi.Title, "rubr_flow")
  .annotate(
    OpenApi.Description,
    "The rubr_flow format: a versioned procedure package an agent follows step by step, in a form a machine can check. " +
      "Its public JSON Schema lives here; `docs/rubr-flow.md` describes the format."
  )
{}
