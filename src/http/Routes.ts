/** What the HttpApi definition says about each route: its access rule, and which methods a path has. */
import { HttpApi } from "@effect/platform"
import { Context, Option } from "effect"
import { Access, type AccessRule } from "../auth/Scopes.js"
import { RubrApi } from "./Api.js"

export interface RouteInfo {
  readonly method: string
  readonly path: string
  readonly pattern: RegExp
  readonly access: AccessRule | undefined
  /** whether the endpoint reads a request body at all */
  readonly hasPayload: boolean
  /** whether it takes an `Idempotency-Key` header (the start routes) */
  readonly acceptsIdempotencyKey: boolean
}

const toPattern = (path: string) =>
  new RegExp("^" + path.split("/").map((seg) => (seg.startsWith(":") ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/") + "/?$")

export const routes: ReadonlyArray<RouteInfo> = (() => {
  const out: Array<RouteInfo> = []
  HttpApi.reflect(RubrApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, mergedAnnotations }) => {
      out.push({
        method: endpoint.method,
        path: endpoint.path,
        pattern: toPattern(endpoint.path),
        access: Option.getOrUndefined(Context.getOption(mergedAnnotations, Access)),
        hasPayload: Option.isSome(endpoint.payloadSchema) && endpoint.method !== "GET",
        acceptsIdempotencyKey: Option.isSome(endpoint.headersSchema) && JSON.stringify(endpoint.headersSchema.value.ast).includes("idempotency-key")
      })
    }
  })
  // The docs page is served beside the API (HttpApiScalar), not as an endpoint of it.
  out.push({ method: "GET", path: "/api/v1/docs", pattern: toPattern("/api/v1/docs"), access: { kind: "public" }, hasPayload: false, acceptsIdempotencyKey: false })
  return out
})()

const byRoute = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]))

export const accessRuleFor = (method: string, routePath: string): AccessRule | undefined =>
  byRoute.get(`${method} ${routePath}`)?.access

/** Whether the route serving this method and URL path reads a JSON body (bodies sent elsewhere are ignored). */
export const readsBody = (method: string, urlPath: string): boolean =>
  routes.some((r) => r.method === method && r.hasPayload && r.pattern.test(urlPath))

/** Methods served at a concrete URL path; empty when no route matches it at all. */
export const methodsFor = (urlPath: string): ReadonlyArray<string> =>
  routes.filter((r) => r.pattern.test(urlPath)).map((r) => r.method)
