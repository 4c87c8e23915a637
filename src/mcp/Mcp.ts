/**
 * The MCP endpoint (`POST /api/v1/mcp`): the Streamable HTTP transport answering JSON, stateless.
 *
 *   transport   Origin allow-list (DNS rebinding), MCP-Protocol-Version (2025-06-18 rules; absent:
 *               2025-03-26), JSON parsing (-32700), JSON-RPC validation (-32600), batches (2025-03-26),
 *               notifications and client responses (202, no body), the per-IP limit without credentials
 *   dispatch    each method is an Rpc of `McpRpcs` (src/mcp/Protocol.ts): unknown methods -32601, params
 *               decoded by the Rpc's schema (-32602), the handler found by name in the group's handlers
 *   tools       the 19 tools (src/mcp/Tools.ts): arguments decoded (-32602), the caller resolved from the
 *               request's bearer token under the tool's access rule, the same use case as REST; a failure
 *               is the REST error envelope in a result with isError true
 *
 * docs/mcp.md describes it for users.
 */
import { VERSION } from "../Version.js"
import type * as Headers from "@effect/platform/Headers"
import { randomUUID } from "node:crypto"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as Rpc from "@effect/rpc/Rpc"
import { Cause, Effect, JSONSchema, Option, ParseResult, Redacted, Schema, type SchemaAST } from "effect"
import { Actors } from "../auth/Actors.js"
import { AppConfig } from "../config/AppConfig.js"
import { InternalError, PayloadTooLarge } from "../domain/Errors.js"
import { isInvalidUtf8 } from "../http/Body.js"
import { notDirectJson } from "../http/DirectJson.js"
import { envelopeOf, isApiError, isBodyTooLarge } from "../http/ErrorHandling.js"
import { currentRequestId } from "../domain/RequestId.js"
import { type Doc, loadDocs } from "../docs/Docs.js"
import {
  DEFAULT_PROTOCOL_VERSION,
  isNotificationMethod,
  isSupportedVersion,
  JsonRpcCode,
  LATEST_PROTOCOL_VERSION,
  McpError,
  McpRpcs,
  type ProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS
} from "./Protocol.js"
import { actorFor, makeTools, type Tool } from "./Tools.js"
import { openApiDocument } from "../system/Http.js"

export const SERVER_INFO = { name: "rubr", title: "rubr: the Artifact Bundle Review Service", version: VERSION }

const INSTRUCTIONS = [
  "rubr reviews and improves LLM instruction artifacts (skills, AGENTS.md files, prompts, commands, workflows).",
  "Put an artifact and its files in a bundle (create_bundle, upload_files), then start work on it: start_audit (scores, findings, an improved version),",
  "convert_to_rubr_flow (a checkable procedure package), start_eval (compare two versions on test cases), export_proof_report (signed evidence).",
  "Work is asynchronous: each start answers a jobId; poll get_job until the job has ended, and read the run there.",
  "search_docs and read_doc explain routes, scopes and credits; product tools need an API key (Authorization: Bearer rubr_...)."
].join(" ")

type JsonRpcId = string | number | null

const rpcError = (id: JsonRpcId, code: number, message: string, data?: unknown) => ({
  jsonrpc: "2.0" as const,
  id,
  error: data === undefined ? { code, message } : { code, message, data }
})

/**
 * JSON text already serialized, placed into a response as it is: a tool's result travels twice (as the
 * text item and as structuredContent), and is serialized once. The placeholder carries a per-process
 * nonce, so no string a caller wrote can stand for it.
 */
class RawJson {
  constructor(readonly json: string) {}
}
const RAW_NONCE = randomUUID()
const RAW_PLACEHOLDER = new RegExp(`"\\\\u0000${RAW_NONCE}:(\\d+)\\\\u0000"`, "g")

const stringify = (body: unknown): string => {
  const raws: Array<string> = []
  const text = JSON.stringify(body, (_key, value: unknown) => (value instanceof RawJson ? `\u0000${RAW_NONCE}:${raws.push(value.json) - 1}\u0000` : value))
  return raws.length === 0 ? text : text.replace(RAW_PLACEHOLDER, (_, i: string) => raws[Number(i)]!)
}

const jsonResponse = (status: number, body: unknown) =>
  HttpServerResponse.text(stringify(body), { status, contentType: "application/json" })

/**
 * Effect's JSON Schema carries its own bookkeeping: a shared `$id` on `unknown` parts ("/schemas/unknown",
 * ambiguous to validators such as the SDK client's ajv once a schema holds two) and a `title` naming
 * each refinement ("int", "maxLength(500)"), noise in a model's context. Both go; property names
 * (the keys under `properties` and `$defs`) are kept whatever they are called.
 */
const cleanSchema = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(cleanSchema)
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    if (key === "$id" || (key === "title" && typeof child === "string")) continue
    out[key] = key === "properties" || key === "$defs" || key === "patternProperties"
      ? Object.fromEntries(Object.entries(child as Record<string, unknown>).map(([name, s]) => [name, cleanSchema(s)]))
      : cleanSchema(child)
  }
  return out
}

/** MCP wants tool schemas as plain objects: the top level inlined, shared parts under $defs. */
const jsonSchemaOf = (ast: SchemaAST.AST): Record<string, unknown> => {
  const $defs: Record<string, JSONSchema.JsonSchema7> = {}
  const schema = JSONSchema.fromAST(ast, { definitions: $defs, topLevelReferenceStrategy: "skip" }) as unknown as Record<string, unknown>
  if (schema.type !== "object") return { type: "object", properties: {}, additionalProperties: true }
  return cleanSchema(Object.keys($defs).length === 0 ? schema : { ...schema, $defs }) as Record<string, unknown>
}

const isLoopbackOrigin = (origin: string) => {
  try {
    const host = new URL(origin).hostname
    return host === "localhost" || host === "127.0.0.1" || host === "[::1]" || host === "::1"
  } catch {
    return false
  }
}

const bearerOf = (headers: Headers.Headers): Redacted.Redacted<string> | undefined => {
  const value = headers["authorization"]
  const m = value === undefined ? null : /^\s*bearer\s+(.+)$/i.exec(value)
  return m ? Redacted.make(m[1]!.trim()) : undefined
}

/** A tool whose result is its output type, serialized as JSON.stringify does: checked once, never re-encoded. */
const directOutput = (tool: Tool) => {
  const problem = notDirectJson(tool.output.ast)
  if (problem !== undefined || tool.render !== undefined) {
    throw new Error(`MCP tool ${tool.name}: a direct output needs a schema JSON.stringify encodes and no reading (${problem ?? "render"})`)
  }
  return (value: unknown) => Effect.succeed(value)
}

const problemsOf = (error: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(error).map((i) => ({ path: i.path.join("."), message: i.message }))

/**
 * The tools as MCP serves them: their listing for each protocol version, and a call (arguments decoded,
 * the caller resolved under the tool's access rule, the result or the REST error envelope).
 */
const toolCalls = (actors: Actors, tools: ReadonlyArray<Tool>) => {
  const compiled = tools.map((tool) => ({
    tool,
    decode: Schema.decodeUnknown(tool.input, { errors: "all", onExcessProperty: "error" }),
    encode: tool.directOutput ? directOutput(tool) : Schema.encode(tool.output),
    inputSchema: jsonSchemaOf(tool.input.ast),
    outputSchema: jsonSchemaOf(tool.output.ast)
  }))
  const compiledByName = new Map(compiled.map((c) => [c.tool.name, c]))
  const listing = (version: ProtocolVersion) =>
    compiled.map(({ tool, inputSchema, outputSchema }) => ({
      name: tool.name,
      title: tool.annotations.title,
      description: tool.description,
      inputSchema,
      ...(version === "2025-06-18" ? { outputSchema } : {}),
      annotations: tool.annotations
    }))
  const listings = { "2025-06-18": listing("2025-06-18"), "2025-03-26": listing("2025-03-26") }

  /** A failed call: the REST error envelope, as JSON for programs and as a line for people. */
  const failedCall = (envelope: { readonly error: { readonly code: string; readonly message: string } }) => ({
    content: [
      { type: "text", text: JSON.stringify(envelope) },
      { type: "text", text: `${envelope.error.code}: ${envelope.error.message}` }
    ],
    isError: true
  })

  const callTool = (name: string, args: unknown, headers: Headers.Headers, version: ProtocolVersion) =>
    Effect.gen(function*() {
      const entry = compiledByName.get(name)
      if (!entry) {
        return yield* new McpError({ code: JsonRpcCode.invalidParams, message: `Unknown tool: ${name}. tools/list names them.` })
      }
      const requestId = yield* currentRequestId
      const input = yield* entry.decode(args ?? {}).pipe(
        Effect.mapError((error) => {
          const details = problemsOf(error)
          return new McpError({
            code: JsonRpcCode.invalidParams,
            message: `Invalid arguments for ${name}: ${details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join("; ")}`,
            data: { error: { code: "validation_failed", message: "The tool's arguments are invalid.", requestId, details } }
          })
        })
      )
      const tool: Tool = entry.tool
      const outcome = yield* Effect.exit(Effect.gen(function*() {
        const actor = yield* actorFor(actors, tool, bearerOf(headers))
        const value = yield* tool.run(input, actor)
        return yield* Effect.orDie(entry.encode(value))
      }))
      if (outcome._tag === "Success") {
        const encoded = outcome.value
        const reading = tool.render?.(encoded)
        const json = JSON.stringify(encoded)
        return {
          content: [
            { type: "text", text: json },
            ...(reading ? [{ type: "text", text: reading }] : [])
          ],
          ...(version === "2025-06-18" ? { structuredContent: new RawJson(json) } : {}),
          isError: false
        }
      }
      const failure = Cause.failureOption(outcome.cause)
      if (Option.isSome(failure) && isApiError(failure.value)) return failedCall(envelopeOf(failure.value, requestId).body)
      yield* Effect.logError("MCP tool failed unexpectedly", outcome.cause).pipe(Effect.annotateLogs({ tool: name }))
      return failedCall(
        envelopeOf(new InternalError({ message: "An internal error occurred; quote the requestId when reporting it.", details: [] }), requestId).body
      )
    })
  return { listings, callTool } as const
}
type ToolCalls = ReturnType<typeof toolCalls>

/** The methods, an Rpc handler each, by name: each with the decoder of its params and its run. */
const methodDispatch = ({ listings, callTool }: ToolCalls, docs: ReadonlyArray<Doc>, openApiText: string) =>
  Effect.gen(function*() {
    const versionOf = (headers: Headers.Headers): ProtocolVersion => {
      const v = headers["mcp-protocol-version"]
      return v !== undefined && isSupportedVersion(v) ? v : DEFAULT_PROTOCOL_VERSION
    }
    const resources = [
      ...docs.map((d) => ({ uri: `rubr://docs/${d.slug}`, name: d.slug, title: d.title, mimeType: "text/markdown", description: `${d.path}: ${d.title}` })),
      { uri: "rubr://openapi.json", name: "openapi", title: "OpenAPI 3.1.0 document", mimeType: "application/json", description: "rubr's REST API contract" }
    ]
    const handlers = yield* McpRpcs.toHandlersContext(Effect.succeed({
      initialize: (params: { readonly protocolVersion: string }) =>
        Effect.succeed({
          protocolVersion: isSupportedVersion(params.protocolVersion) ? params.protocolVersion : LATEST_PROTOCOL_VERSION,
          capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false } },
          serverInfo: SERVER_INFO,
          instructions: INSTRUCTIONS
        }),
      ping: () => Effect.succeed({}),
      "tools/list": (_: unknown, { headers }: { readonly headers: Headers.Headers }) => Effect.succeed({ tools: listings[versionOf(headers)] }),
      "tools/call": (params: { readonly name: string; readonly arguments?: unknown }, { headers }: { readonly headers: Headers.Headers }) =>
        callTool(params.name, params.arguments, headers, versionOf(headers)),
      "resources/list": () => Effect.succeed({ resources }),
      "resources/templates/list": () => Effect.succeed({ resourceTemplates: [] }),
      "resources/read": (params: { readonly uri: string }) => {
        if (params.uri === "rubr://openapi.json") {
          return Effect.succeed({ contents: [{ uri: params.uri, mimeType: "application/json", text: openApiText }] })
        }
        const doc = params.uri.startsWith("rubr://docs/") ? docs.find((d) => `rubr://docs/${d.slug}` === params.uri) : undefined
        return doc
          ? Effect.succeed({ contents: [{ uri: params.uri, mimeType: "text/markdown", text: doc.content }] })
          : Effect.fail(new McpError({ code: -32002, message: `Resource not found: ${params.uri}`, data: { uri: params.uri } }))
      },
      "notifications/initialized": () => Effect.void,
      "notifications/cancelled": () => Effect.void
    }))
    const handlerOf = (method: string) => {
      const rpc = McpRpcs.requests.get(method as never) as Rpc.AnyWithProps | undefined
      if (!rpc) return undefined
      const entry = handlers.unsafeMap.get(rpc.key) as Rpc.Handler<string> | undefined
      if (!entry) return undefined
      const decode = Schema.decodeUnknown(rpc.payloadSchema as Schema.Schema<any, any>, { errors: "all" })
      // the handlers above close over what they use (the tools get their SqlClient themselves), so the
      // context the group captured is not merged into every call
      return { decode, run: (payload: unknown, headers: Headers.Headers) => entry.handler(payload, { clientId: 0, headers }) as Effect.Effect<unknown, McpError> }
    }
    const dispatch = new Map([...McpRpcs.requests.keys()].map((method) => [method, handlerOf(method)!]))
    return dispatch
  })
type Dispatch = Effect.Effect.Success<ReturnType<typeof methodDispatch>>

/** One JSON-RPC message → its response, or undefined (notifications, client responses). */
const handleMessage = (dispatch: Dispatch, message: unknown, headers: Headers.Headers) =>
  Effect.gen(function*() {
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      return rpcError(null, JsonRpcCode.invalidRequest, "Invalid Request: a JSON-RPC message is an object.")
    }
    const m = message as Record<string, unknown>
    const hasId = Object.hasOwn(m, "id")
    const idOk = typeof m.id === "string" || (typeof m.id === "number" && Number.isFinite(m.id))
    const id: JsonRpcId = idOk ? (m.id as string | number) : null
    if (m.jsonrpc !== "2.0") return rpcError(id, JsonRpcCode.invalidRequest, 'Invalid Request: "jsonrpc" must be "2.0".')
    if (!Object.hasOwn(m, "method")) {
      // a client's response to a server request (rubr sends none) is accepted and ignored
      if (hasId && (Object.hasOwn(m, "result") || Object.hasOwn(m, "error"))) return undefined
      return rpcError(id, JsonRpcCode.invalidRequest, 'Invalid Request: "method" is missing.')
    }
    if (typeof m.method !== "string") return rpcError(id, JsonRpcCode.invalidRequest, 'Invalid Request: "method" must be a string.')
    if (hasId && !idOk) return rpcError(null, JsonRpcCode.invalidRequest, 'Invalid Request: "id" must be a string or a number.')
    const method = m.method
    const handler = dispatch.get(method)
    if (!hasId) {
      // a notification: never answered, even when unknown or malformed
      if (handler && isNotificationMethod(method)) {
        yield* handler.decode(m.params).pipe(Effect.flatMap((p) => handler.run(p, headers)), Effect.ignore)
      }
      return undefined
    }
    if (!handler || isNotificationMethod(method)) return rpcError(id, JsonRpcCode.methodNotFound, `Method not found: ${method}`)
    const params = yield* handler.decode(m.params).pipe(Effect.either)
    if (params._tag === "Left") {
      const details = problemsOf(params.left)
      return rpcError(id, JsonRpcCode.invalidParams, `Invalid params for ${method}: ${details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join("; ")}`, { details })
    }
    const exit = yield* Effect.exit(handler.run(params.right, headers))
    if (exit._tag === "Success") return { jsonrpc: "2.0" as const, id, result: exit.value }
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure) && failure.value instanceof McpError) {
      return rpcError(id, failure.value.code, failure.value.message, failure.value.data)
    }
    yield* Effect.logError("MCP method failed unexpectedly", exit.cause).pipe(Effect.annotateLogs({ method }))
    return rpcError(id, JsonRpcCode.internalError, "Internal error; quote the X-Request-Id header when reporting it.")
  })

export class Mcp extends Effect.Service<Mcp>()("rubr/Mcp", {
  scoped: Effect.gen(function*() {
    const actors = yield* Actors
    const config = yield* AppConfig
    const tools = yield* makeTools
    const toolsByName = new Map(tools.map((t) => [t.name, t]))
    const docs = loadDocs()
    const openApiText = JSON.stringify(openApiDocument(), null, 2)

    const allowedOrigins = new Set(config.mcp.allowedOrigins)
    const originAllowed = (origin: string) => allowedOrigins.has("*") || allowedOrigins.has(origin) || isLoopbackOrigin(origin)

    const calls = toolCalls(actors, tools)
    const dispatch = yield* methodDispatch(calls, docs, openApiText)

    /** The whole HTTP exchange of one POST. */
    const handleHttp = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const origin = request.headers["origin"]
        if (origin !== undefined && !originAllowed(origin)) {
          return jsonResponse(403, rpcError(null, JsonRpcCode.invalidRequest, `Origin ${origin} is not allowed (SERVICE_MCP_ALLOWED_ORIGINS).`))
        }
        const headerVersion = request.headers["mcp-protocol-version"]
        if (headerVersion !== undefined && !isSupportedVersion(headerVersion)) {
          return jsonResponse(
            400,
            rpcError(null, JsonRpcCode.invalidRequest, `Unsupported MCP-Protocol-Version ${headerVersion}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}.`)
          )
        }
        const contentType = request.headers["content-type"]
        if (contentType === undefined || !/^application\/json\s*(;|$)/i.test(contentType)) {
          return jsonResponse(415, rpcError(null, JsonRpcCode.invalidRequest, "Send JSON-RPC messages with Content-Type: application/json."))
        }
        // the text the shared guards already read (the platform caches it); a body that cannot be read
        // (the client went away mid-body) is a JSON-RPC parse error like any unreadable message
        const text = yield* request.text.pipe(
          Effect.catchAll((error) =>
            isBodyTooLarge(error)
              ? Effect.fail(new PayloadTooLarge({ message: "The request body is too large.", details: [] }))
              : Effect.succeed(undefined)
          )
        )
        if (text === undefined) return jsonResponse(400, rpcError(null, JsonRpcCode.parseError, "Parse error: the body could not be read."))
        const invalidUtf8 = isInvalidUtf8(text, request.headers["content-length"])
        let parsed: unknown
        try {
          if (invalidUtf8) throw new Error("invalid UTF-8")
          parsed = JSON.parse(text)
        } catch {
          return jsonResponse(400, rpcError(null, JsonRpcCode.parseError, "Parse error: the body is not valid JSON (UTF-8)."))
        }
        if (Array.isArray(parsed)) {
          if (parsed.length === 0) return jsonResponse(400, rpcError(null, JsonRpcCode.invalidRequest, "Invalid Request: an empty batch."))
          if (headerVersion === "2025-06-18") {
            return jsonResponse(400, rpcError(null, JsonRpcCode.invalidRequest, "Invalid Request: protocol 2025-06-18 has no JSON-RPC batching; send one message per request."))
          }
          const responses = (yield* Effect.forEach(parsed, (m) => handleMessage(dispatch, m, request.headers))).filter((r) => r !== undefined)
          return responses.length === 0 ? HttpServerResponse.empty({ status: 202 }) : jsonResponse(200, responses)
        }
        const response = yield* handleMessage(dispatch, parsed, request.headers)
        if (response === undefined) return HttpServerResponse.empty({ status: 202 })
        // a malformed message is the HTTP request's fault; a method's own error is an ordinary answer
        const invalid = "error" in response && (response.error.code === JsonRpcCode.invalidRequest)
        return jsonResponse(invalid ? 400 : 200, response)
      })

    return { handleHttp, tools: toolsByName } as const
  })
}) {}

