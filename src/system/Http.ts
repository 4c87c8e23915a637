import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as OpenApi from "@effect/platform/OpenApi"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { ServiceUnavailable } from "../domain/Errors.js"
import { RubrApi } from "../Api.js"
import { ok } from "../http/Envelope.js"

/** The OpenAPI document, derived from the HttpApi definition (3.1.0). */
export const openApiDocument = () => {
  const spec = OpenApi.fromApi(RubrApi) as any
  spec.openapi = "3.1.0"
  return spec
}

export const SystemHttp = HttpApiBuilder.group(RubrApi, "system", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const spec = openApiDocument()
    return handlers
      .handle("health", () =>
        sql`SELECT 1`.pipe(
          Effect.timeout("2 seconds"),
          Effect.mapError(() => new ServiceUnavailable({ message: "The database is unreachable.", details: [{ database: "unreachable" }] })),
          Effect.zipRight(ok({ status: "ok" as const, database: "ok" as const }))
        ))
      .handle("openapi", () => Effect.succeed(HttpServerResponse.unsafeJson(spec)))
  }))
