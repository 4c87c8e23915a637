/** What the HttpApi definition says about each route: its access rule, and which methods a path has. */
import * as HttpApi from "@effect/platform/HttpApi"
import { Context, Option } from "effect"
import { AcceptsCredentials, Access, type AccessRule } from "../auth/Scopes.js"
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
  /** a public route whose calls may also carry a bearer token (MCP: its product tools need one) */
  readonly acceptsCredentials: boolean
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
        acceptsIdempotencyKey: Option.isSome(endpoint.headersSchema) && JSON.stringify(endpoint.headersSchema.value.ast).includes("idempotency-key"),
        acceptsCredentials: Option.getOrElse(Context.getOption(mergedAnnotations, AcceptsCredentials), () => false)
      })
    }
  })
  // The docs page is served beside the API (src/http/DocsPage.ts), not as an endpoint of it.
  out.push({ method: "GET", path: "/api/v1/docs", pattern: toPattern("/api/v1/docs"), access: { kind: "public" }, hasPayload: false, acceptsIdempotencyKey: false, acceptsCredentials: false })
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

/** The route serving this method and URL path, if any. */
export const routeFor = (method: string, urlPath: string): RouteInfo | undefined =>
  routes.find((r) => r.method === method && r.pattern.test(urlPath))

/** Probes poll it: the one public route the per-IP limit leaves alone. */
const UNTHROTTLED = new Set(["GET /api/v1/health"])

/**
 * Whether a request counts against the per-IP limit: every public route (read off the API definition,
 * so a route added later is counted without anyone listing it) but `/health`. A public route that
 * also takes credentials (MCP) counts only when the request carries none: an authenticated call is
 * limited per user and per key instead.
 */
export const countsPerIp = (method: string, urlPath: string, hasCredentials: boolean): boolean => {
  const route = routeFor(method, urlPath)
  if (route === undefined || route.access?.kind !== "public" || UNTHROTTLED.has(`${route.method} ${route.path}`)) return false
  return !(route.acceptsCredentials && hasCredentials)
}
