/** The documentation as HTML pages: `/guides` (the list) and `/guides/{slug}` (a page, with anchors per heading). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Access, access } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"
import { NotFoundResponse } from "../domain/Errors.js"

const Html = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/html" }))

export class GuidesApi extends HttpApiGroup.make("guides")
  .add(
    HttpApiEndpoint.get("listGuides", "/guides")
      .addSuccess(Html.annotations({ description: "an HTML page listing the guides" }))
      .pipe(statuses(429))
      .annotate(Access, access.public)
      .annotate(OpenApi.Description, "The service's documentation (README and docs/), as HTML pages people can read.")
      .annotate(OpenApi.Summary, "List the guides")
  )
  .add(
    HttpApiEndpoint.get("getGuide", "/guides/:slug")
      .setPath(Schema.Struct({ slug: Schema.String.pipe(Schema.pattern(/^[a-z0-9_-]{1,100}$/)) }))
      .addSuccess(Html.annotations({ description: "the guide as HTML; every heading has its GitHub-style anchor" }))
      .addError(NotFoundResponse)
      .pipe(statuses(400, 429))
      .annotate(Access, access.public)
      .annotate(OpenApi.Description, "One guide by slug: `readme`, or a docs/ page's name (`rubrics`, `ci`, `mcp`). Links from the CLI point into these pages.")
      .annotate(OpenApi.Summary, "Read a guide")
  )
  .annotate(OpenApi.Title, "Guides")
  .annotate(
    OpenApi.Description,
    "The service's documentation (the README and docs/) as HTML pages people can read. Public, no token needed."
  )
{}
