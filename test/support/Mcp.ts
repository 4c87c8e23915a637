/** MCP clients for tests: the official SDK client over Streamable HTTP, and raw JSON-RPC posts. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { TestApp } from "./TestApp.js"

export type McpVersion = "2025-06-18" | "2025-03-26"

/**
 * The SDK client always asks for its newest protocol version (rubr answers 2025-06-18); to be a
 * 2025-03-26 client, the initialize request's version is rewritten on its way out.
 */
const fetchAs = (version: McpVersion | undefined): typeof fetch | undefined =>
  version === undefined ? undefined : async (input, init) => {
    if (typeof init?.body === "string" && init.body.includes('"initialize"')) {
      const message = JSON.parse(init.body)
      if (message.method === "initialize") message.params.protocolVersion = version
      init = { ...init, body: JSON.stringify(message) }
    }
    return fetch(input, init)
  }

export interface Connected {
  readonly client: Client
  readonly version: string | undefined
  /** calls a tool; `json` is the first text content item parsed (the result's JSON for every version) */
  readonly call: (name: string, args?: Record<string, unknown>) => Promise<ToolReply>
  readonly close: () => Promise<void>
}

export interface ToolReply {
  readonly isError: boolean
  readonly json: any
  readonly text: ReadonlyArray<string>
  readonly structured: any
}

export const connectMcp = async (baseUrl: string, options: { readonly token?: string; readonly version?: McpVersion } = {}): Promise<Connected> => {
  const client = new Client({ name: "rubr-test", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: options.token ? { headers: { authorization: `Bearer ${options.token}` } } : undefined,
    fetch: fetchAs(options.version)
  })
  await client.connect(transport)
  // listing caches the tools' output schemas: the SDK then validates every structuredContent against them
  if (client.getServerCapabilities()?.tools) await client.listTools()
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<ToolReply> => {
    const result = await client.callTool({ name, arguments: args })
    const content = result.content as Array<{ type: string; text: string }>
    return {
      isError: result.isError === true,
      json: JSON.parse(content[0]!.text),
      text: content.map((c) => c.text),
      structured: result.structuredContent
    }
  }
  return { client, version: transport.protocolVersion, call, close: () => client.close() }
}

/** An SDK client for the test app, closed when the test's scope ends. */
export const mcpClient = (options: { readonly token?: string; readonly version?: McpVersion } = {}) =>
  Effect.acquireRelease(
    Effect.flatMap(TestApp, (app) => Effect.promise(() => connectMcp(app.baseUrl, options))),
    (connected) => Effect.promise(() => connected.close())
  )

export interface RawReply {
  readonly status: number
  readonly headers: Headers
  readonly body: any
  readonly text: string
}

/** One raw POST to /mcp: JSON (or a string sent verbatim) with the given headers. */
export const postMcp = (body: unknown, headers: Record<string, string> = {}) =>
  Effect.flatMap(TestApp, (app) =>
    Effect.promise(async (): Promise<RawReply> => {
      const response = await fetch(`${app.baseUrl}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body)
      })
      const text = await response.text()
      let parsed: any = undefined
      try {
        parsed = text.length > 0 ? JSON.parse(text) : undefined
      } catch {
        parsed = undefined
      }
      return { status: response.status, headers: response.headers, body: parsed, text }
    }))
