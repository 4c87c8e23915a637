/**
 * What the OpenAPI document says about access, read off the same `Access` annotation the
 * authentication middleware enforces (never written by hand per endpoint): every operation carries an
 * `x-required-scopes` extension and ends its description with a sentence saying who may call it.
 *
 * `RubrApi` applies `documentAccess` as its `OpenApi.Transform`, so every reader of
 * `OpenApi.fromApi(RubrApi)` gets it: `/api/v1/openapi.json`, the `/api/v1/docs` page and MCP's
 * `read_openapi`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import { Context, Option } from "effect"
import { Access, type AccessRule, type Scope } from "../auth/Scopes.js"

/** The name of the extension on every operation. */
export const REQUIRED_SCOPES = "x-required-scopes"

/**
 * The extension's value: the endpoint's access rule as JSON.
 * - `{kind: "public"}`: no token needed (an Authorization header is not checked).
 * - `{kind: "loginOnly"}`: a login token only; an API key is 403 `forbidden`.
 * - `{kind: "scoped", anyOf, allOf}` (both arrays always present): a login token, or an API key that
 *   holds at least one scope of `anyOf` (when `anyOf` is not empty) and every scope of `allOf`; both
 *   empty means any valid API key. Another key is 403 `forbidden`.
 * Missing or invalid credentials are 401 `unauthorized` on every rule but `public`.
 */
export type RequiredScopes =
  | { readonly kind: "public" }
  | { readonly kind: "loginOnly" }
  | { readonly kind: "scoped"; readonly anyOf: ReadonlyArray<Scope>; readonly allOf: ReadonlyArray<Scope> }

export const requiredScopes = (rule: AccessRule): RequiredScopes => {
  switch (rule.kind) {
    case "public":
      return { kind: "public" }
    case "loginOnly":
      return { kind: "loginOnly" }
    case "scoped":
      return { kind: "scoped", anyOf: [...rule.anyOf], allOf: [...rule.allOf] }
  }
}

const code = (scope: string) => `\`${scope}\``
const either = (scopes: ReadonlyArray<string>) =>
  scopes.length === 1 ? code(scopes[0]) : `${scopes.slice(0, -1).map(code).join(", ")} or ${code(scopes.at(-1)!)}`
const every = (scopes: ReadonlyArray<string>) =>
  scopes.length === 1 ? code(scopes[0]) : `${scopes.slice(0, -1).map(code).join(", ")} and ${code(scopes.at(-1)!)}`

/** The sentence every operation's description ends with, read off its access rule. */
export const accessSentence = (rule: AccessRule): string => {
  switch (rule.kind) {
    case "public":
      return "**Access:** public; no token needed."
    case "loginOnly":
      return "**Access:** login tokens only; an API key is refused with 403 `forbidden`."
    case "scoped": {
      if (rule.anyOf.length === 0 && rule.allOf.length === 0) {
        return "**Access:** a login token, or any valid API key (no particular scope)."
      }
      const needs: Array<string> = []
      if (rule.anyOf.length > 0) {
        needs.push(rule.anyOf.length === 1 ? `the scope ${code(rule.anyOf[0])}` : `one of the scopes ${either(rule.anyOf)}`)
      }
      if (rule.allOf.length > 0) {
        needs.push(rule.allOf.length === 1 ? `the scope ${code(rule.allOf[0])}` : `all of the scopes ${every(rule.allOf)}`)
      }
      return `**Access:** a login token (not scope-limited), or an API key with ${needs.join(", and ")}; ` +
        "any other key is refused with 403 `forbidden`."
    }
  }
}

/** What the extension means, added to the document's own description. */
export const accessExplanation = [
  "**Authentication.** Protected routes take `Authorization: Bearer <token>`: a login token (an identity-provider JWT; it acts on its own data and is not scope-limited) or an API key (`rubr_...`; it needs the route's scopes). Missing or invalid credentials are 401 `unauthorized`; a key without the scopes is 403 `forbidden`; another user's resource is 404 `not_found`.",
  "**`x-required-scopes`.** Every operation carries this extension, derived from the same rule the server enforces: " +
    "`{\"kind\": \"public\"}` (no token needed), `{\"kind\": \"loginOnly\"}` (login tokens only; API keys are 403), or " +
    "`{\"kind\": \"scoped\", \"anyOf\": [...], \"allOf\": [...]}` (a login token, or an API key holding at least one scope of `anyOf` when it is not empty and every scope of `allOf`; both empty: any valid key). " +
    "Its description ends with the same rule in words."
].join("\n\n")

/**
 * Where the paths are served from. Every path already carries the `/api/v1` prefix, so the server is
 * the service's origin, given relative (`/`): a client resolves it against the URL it read the document
 * from, so it is right on any host, port or proxy the service is reached through (a URL built from the
 * service's own configuration would name `127.0.0.1:3000` to a caller behind a load balancer).
 */
export const servers: ReadonlyArray<OpenApi.OpenAPISpecServer> = [
  {
    url: "/",
    description: "The service that serves this document (relative to its URL; the paths include the /api/v1 prefix)"
  }
]

const openApiPath = (path: string) => path.replace(/:(\w+)\??/g, "{$1}")

/**
 * The `OpenApi.Transform` of the API: every operation of `api` gets `x-required-scopes` and its access
 * sentence; the info description gets `accessExplanation`. An endpoint with no `Access` rule, or one
 * missing from the document, stops the generation: the contract never leaves access unsaid.
 */
export const documentAccess = (api: HttpApi.HttpApi.Any) => (spec: Record<string, any>): Record<string, any> => {
  HttpApi.reflect(api as HttpApi.HttpApi<string, any, any, any>, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, group, mergedAnnotations }) => {
      if (Context.get(mergedAnnotations, OpenApi.Exclude)) return
      const name = `${group.identifier}.${endpoint.name}`
      const rule = Context.getOption(mergedAnnotations, Access)
      if (Option.isNone(rule)) throw new Error(`OpenAPI: endpoint ${name} declares no Access rule`)
      const operation = spec.paths?.[openApiPath(endpoint.path)]?.[endpoint.method.toLowerCase()]
      if (operation === undefined) throw new Error(`OpenAPI: endpoint ${name} is missing from the document`)
      operation[REQUIRED_SCOPES] = requiredScopes(rule.value)
      const sentence = accessSentence(rule.value)
      operation.description = operation.description ? `${operation.description}\n\n${sentence}` : sentence
    }
  })
  spec.info = {
    ...spec.info,
    description: spec.info?.description ? `${spec.info.description}\n\n${accessExplanation}` : accessExplanation
  }
  return spec
}
