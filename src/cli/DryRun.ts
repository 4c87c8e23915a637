/**
 * `--dry-run` as an HttpClient: the typed client builds every request as it always does, and this
 * client prints it (`METHOD /api/v1/path?query`, as the contract names it) instead of sending it.
 * Each request is answered without a network by a body made from the endpoint's own success schema,
 * so a command runs its whole path with no stand-in answers of its own:
 *
 *   - the answer takes the path where everything succeeds: a job or run `completed`, a score full,
 *     nothing to pay, lists empty and no next page (nullable and optional fields left out);
 *   - every id in an answer is a fresh placeholder UUID, remembered, so a later request that carries
 *     it prints the path parameter's name instead (`/artifact-bundles/{artifactBundleId}/files`);
 *   - a command that needs an id it would have found in a list (a file by path) asks `placeholderId`.
 *
 * No request leaves the process, and no key is needed.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Effect, Either, Option, ParseResult, Schema } from "effect"
import * as AST from "effect/SchemaAST"
import { RubrApi } from "../Api.js"
import { contentHashOfHex } from "../domain/ContentHashPattern.js"

interface Route {
  readonly method: string
  readonly path: string
  readonly pattern: RegExp
  readonly params: ReadonlyArray<string>
  readonly status: number
  readonly success: Schema.Schema<any, any> | undefined
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** Every endpoint of the contract with its path as a pattern and its first success answer (read on first use). */
let routeList: ReadonlyArray<Route> | undefined
const routes = (): ReadonlyArray<Route> => (routeList ??= (() => {
  const out: Array<Route> = []
  HttpApi.reflect(RubrApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, successes }) => {
      const params: Array<string> = []
      const source = endpoint.path.split("/").map((segment) => {
        if (!segment.startsWith(":")) return escape(segment)
        params.push(segment.slice(1))
        return "([^/]+)"
      }).join("/")
      const [status, success] = [...successes.entries()][0] ?? [200, undefined]
      out.push({
        method: endpoint.method,
        path: endpoint.path,
        pattern: new RegExp(`^${source}$`),
        params,
        status,
        success: success !== undefined && Option.isSome(success.ast) ? Schema.make(success.ast.value) : undefined
      })
    }
  })
  return out
})())

/** The placeholder ids handed out in this process: printed as `{parameter}` when a request carries one. */
const placeholders = new Set<string>()
let issued = 0

/** A fresh placeholder id (a valid UUID), for a value a dry run cannot look up. */
export const placeholderId = (): string => {
  const id = `00000000-0000-4000-8000-${(++issued).toString(16).padStart(12, "0")}`
  placeholders.add(id)
  return id
}

const fits = (ast: AST.AST, value: unknown) => Either.isRight(ParseResult.validateEither(Schema.make(ast))(value))

/** A value of the type `ast` describes, taking the path where everything succeeds (see the top). */
const sample = (ast: AST.AST, label: string): unknown => {
  switch (ast._tag) {
    case "Transformation":
      return sample(ast.to, label)
    case "Suspend":
      return sample(ast.f(), label)
    case "Refinement": {
      // what the base type gives first (a readable "{name}", 0), then values refinements commonly want
      const candidates: ReadonlyArray<() => unknown> = [
        () => sample(ast.from, label),
        placeholderId,
        () => 1,
        () => 100,
        () => contentHashOfHex("0".repeat(64)),
        () => "1970-01-01T00:00:00.000Z",
        () => "dry-run"
      ]
      for (const candidate of candidates) {
        const value = candidate()
        if (fits(ast, value)) return value
      }
      throw new Error(`--dry-run has no placeholder for ${label} (${String(ast)})`)
    }
    case "TypeLiteral": {
      const out: Record<string, unknown> = {}
      for (const p of ast.propertySignatures) {
        if (!p.isOptional) out[String(p.name)] = sample(p.type, String(p.name))
      }
      return out
    }
    case "Union": {
      const empty = ast.types.find((t) => (t._tag === "Literal" && t.literal === null) || t._tag === "UndefinedKeyword")
      const completed = ast.types.find((t) => t._tag === "Literal" && t.literal === "completed")
      return sample(empty ?? completed ?? ast.types[0]!, label)
    }
    case "TupleType":
      return ast.elements.filter((e) => !e.isOptional).map((e) => sample(e.type, label))
    case "Literal":
      return ast.literal
    case "StringKeyword":
      return `{${label}}`
    case "NumberKeyword":
      return /score$/i.test(label) ? 100 : 0
    case "BooleanKeyword":
      return false
    case "Enums":
      return ast.enums[0]![1]
    case "Declaration": {
      const found = [new Date(0), Option.none()].find((c) => fits(ast, c))
      if (found === undefined) throw new Error(`--dry-run has no placeholder for ${label} (${String(ast)})`)
      return found
    }
    case "UndefinedKeyword":
    case "VoidKeyword":
      return undefined
    default:
      return {}
  }
}

/** An endpoint's answer under --dry-run, encoded as the service would send it (undefined: no body). */
const answerOf = (route: Route): unknown =>
  route.success === undefined ? undefined : Schema.encodeSync(route.success)(sample(AST.typeAST(route.success.ast), "data"))

/** Every endpoint of the contract with its dry-run answer (a test holds that each one can be made). */
export const contractAnswers = () => routes().map((route) => ({ method: route.method, path: route.path, status: route.status, body: answerOf(route) }))

/** The request as a line: the path parameters a dry run made up printed by name. */
const describe = (method: string, url: URL, route: Route | undefined, match: RegExpExecArray | null) => {
  let path = url.pathname
  if (route && match) {
    path = path.replace(route.pattern, (...groups: Array<string>) =>
      route.params.reduce(
        (p, name, i) => {
          const value = decodeURIComponent(groups[i + 1]!)
          return placeholders.has(value) ? p.replace(groups[i + 1]!, `{${name}}`) : p
        },
        groups[0]!
      ))
  }
  return `${method} ${path}${url.search}`
}

/** The dry run's HttpClient: prints each request with `print` and answers it as described above. */
export const dryRunClient = (print: (line: string) => void): HttpClient.HttpClient =>
  HttpClient.make((request, url) =>
    Effect.sync(() => {
      const path = url.pathname.replace(/^.*?(?=\/api\/v1\/)/, "")
      let match: RegExpExecArray | null = null
      const route = routes().find((r) => r.method === request.method && (match = r.pattern.exec(path)) !== null)
      print(describe(request.method, new URL(path + url.search, url.origin), route, match))
      if (route?.success === undefined) return HttpClientResponse.fromWeb(request, new Response(null, { status: route?.status ?? 204 }))
      const encoded = answerOf(route)
      return HttpClientResponse.fromWeb(
        request,
        new Response(typeof encoded === "string" ? encoded : JSON.stringify(encoded), {
          status: route.status,
          headers: { "content-type": typeof encoded === "string" ? "text/plain" : "application/json" }
        })
      )
    }))
