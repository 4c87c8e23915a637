/**
 * The typed test client (test/support/Api.ts): its route map is the contract's, and a reply's body
 * follows from the endpoint, so a test reading a field the endpoint does not answer does not compile.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import { describe, expect, it } from "vitest"
import { RubrApi } from "../src/Api.js"
import { type BodyOf, routes } from "./support/Api.js"

describe("the typed test client", () => {
  it("names every endpoint of the contract under its method and path, and nothing else", () => {
    const contract: Record<string, readonly [string, string]> = {}
    HttpApi.reflect(RubrApi as unknown as HttpApi.HttpApi.AnyWithProps, {
      onGroup: () => undefined,
      onEndpoint: ({ endpoint, group }) => {
        contract[`${endpoint.method} ${endpoint.path.replace(/^\/api\/v1/, "")}`] = [group.identifier, endpoint.name]
      }
    })
    expect(routes).toEqual(contract)
  })

  it("types a reply by its route: template paths, query strings, and the error envelope elsewhere", () => {
    // compile-time checks; the runtime part only keeps the values used
    const bundle = (body: BodyOf<"GET", `/artifact-bundles/${string}`>) => body.data.artifactBundle.name
    const jobs = (body: BodyOf<"GET", `/jobs?limit=2&cursor=${string}`>) => body.data.pagination.nextCursor
    const file = (body: BodyOf<"GET", `/artifact-bundles/${string}/files/${string}`>) => body.data.content
    // @ts-expect-error a field the endpoint does not answer
    const missing = (body: BodyOf<"GET", `/artifact-bundles/${string}`>) => body.data.notAField
    // @ts-expect-error an unknown route answers only the error envelope
    const unknownRoute = (body: BodyOf<"GET", "/no-such-route">) => body.data
    // @ts-expect-error the method matters: GET /jobs/:id/cancel is no route
    const wrongMethod = (body: BodyOf<"GET", `/jobs/${string}/cancel`>) => body.data
    const error = (body: BodyOf<"GET", "/no-such-route">) => body.error.code
    expect([bundle, jobs, file, missing, unknownRoute, wrongMethod, error].every((f) => typeof f === "function")).toBe(true)
  })
})
