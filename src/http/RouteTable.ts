/**
 * What an HttpApi definition says about each route: its access rule, and which methods a path has.
 * The HTTP plumbing (errors, per-IP limits, authentication) reads it through the `RouteTable` tag; the
 * composition root builds it from the contract (src/Routes.ts), so this folder knows no feature.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import { Context, Option } from "effect"
import { AcceptsCredentials, Access, type AccessRule } from "../auth/Scopes.js"

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

const routesOf = (api: HttpApi.HttpApi.Any, extra: ReadonlyArray<{ method: string; path: string }>): ReadonlyArray<RouteInfo> => {
  const out: Array<RouteInfo> = []
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
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
  // Public pages served beside the API (the docs page), not as endpoints of it.
  for (const page of extra) {
    out.push({ method: page.method, path: page.path, pattern: toPattern(page.path), access: { kind: "public" }, hasPayload: false, acceptsIdempotencyKey: false, acceptsCredentials: false })
  }
  return out
}

export interface RouteTableShape {
  readonly routes: ReadonlyArray<RouteInfo>
  readonly accessRuleFor: (method: string, routePath: string) => AccessRule | undefined
  /** whether the route serving this method and URL path reads a JSON body (bodies sent elsewhere are ignored) */
  readonly readsBody: (method: string, urlPath: string) => boolean
  /** methods served at a concrete URL path; empty when no route matches it at all */
  readonly methodsFor: (urlPath: string) => ReadonlyArray<string>
  /** the route serving this method and URL path, if any */
  readonly routeFor: (method: string, urlPath: string) => RouteInfo | undefined
  /**
   * Whether a request counts against the per-IP limit: every public route (read off the API
   * definition, so a route added later is counted without anyone listing it) but the unthrottled ones
   * (probes). A public route that also takes credentials (MCP) counts only when the request carries
   * none: an authenticated call is limited per user and per key instead.
   */
  readonly countsPerIp: (method: string, urlPath: string, hasCredentials: boolean) => boolean
}

export class RouteTable extends Context.Tag("rubr/RouteTable")<RouteTable, RouteTableShape>() {}

export const makeRouteTable = (
  api: HttpApi.HttpApi.Any,
  options: { readonly extraPublicPages: ReadonlyArray<{ method: string; path: string }>; readonly unthrottled: ReadonlyArray<string> }
): RouteTableShape => {
  const routes = routesOf(api, options.extraPublicPages)
  const byRoute = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]))
  const unthrottled = new Set(options.unthrottled)
  const routeFor = (method: string, urlPath: string) => routes.find((r) => r.method === method && r.pattern.test(urlPath))
  return {
    routes,
    accessRuleFor: (method, routePath) => byRoute.get(`${method} ${routePath}`)?.access,
    readsBody: (method, urlPath) => routes.some((r) => r.method === method && r.hasPayload && r.pattern.test(urlPath)),
    methodsFor: (urlPath) => routes.filter((r) => r.pattern.test(urlPath)).map((r) => r.method),
    routeFor,
    countsPerIp: (method, urlPath, hasCredentials) => {
      const route = routeFor(method, urlPath)
      if (route === undefined || route.access?.kind !== "public" || unthrottled.has(`${route.method} ${route.path}`)) return false
      return !(route.acceptsCredentials && hasCredentials)
    }
  }
}
