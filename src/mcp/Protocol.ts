/**
 * The MCP methods rubr serves, as an @effect/rpc group: each method's params are an Effect Schema the
 * transport decodes with (a mismatch is JSON-RPC -32602), its handler is found by method name in the
 * group (unknown: -32601). Notifications are methods too; they get no answer.
 */
import * as Rpc from "@effect/rpc/Rpc"
import * as RpcGroup from "@effect/rpc/RpcGroup"
import { Schema } from "effect"

export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-06-18", "2025-03-26"] as const
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number]
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = "2025-06-18"
/** The transport spec: a request without MCP-Protocol-Version is taken as 2025-03-26. */
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = "2025-03-26"

export const isSupportedVersion = (v: string): v is ProtocolVersion => (SUPPORTED_PROTOCOL_VERSIONS as ReadonlyArray<string>).includes(v)

/** JSON-RPC error codes. */
export const JsonRpcCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603
} as const

/** A JSON-RPC error a handler answers with. */
export class McpError extends Schema.TaggedError<McpError>()("McpError", {
  code: Schema.Number,
  message: Schema.String,
  data: Schema.optional(Schema.Unknown)
}) {}

const Meta = { _meta: Schema.optional(Schema.Unknown) }

export const InitializeParams = Schema.Struct({
  protocolVersion: Schema.String,
  capabilities: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  clientInfo: Schema.Struct({ name: Schema.String, version: Schema.String }),
  ...Meta
})

const OptionalCursor = Schema.UndefinedOr(Schema.Struct({ cursor: Schema.optional(Schema.String), ...Meta }))

export const CallToolParams = Schema.Struct({
  name: Schema.String,
  arguments: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  ...Meta
})

export const ReadResourceParams = Schema.Struct({ uri: Schema.String, ...Meta })

/** What handlers answer is built as plain JSON; its shape is the MCP specification's. */
const Result = Schema.Unknown

export class McpRpcs extends RpcGroup.make(
  Rpc.make("initialize", { payload: InitializeParams, success: Result, error: McpError }),
  Rpc.make("ping", { payload: Schema.Unknown, success: Result, error: McpError }),
  Rpc.make("tools/list", { payload: OptionalCursor, success: Result, error: McpError }),
  Rpc.make("tools/call", { payload: CallToolParams, success: Result, error: McpError }),
  Rpc.make("resources/list", { payload: OptionalCursor, success: Result, error: McpError }),
  Rpc.make("resources/templates/list", { payload: OptionalCursor, success: Result, error: McpError }),
  Rpc.make("resources/read", { payload: ReadResourceParams, success: Result, error: McpError }),
  Rpc.make("notifications/initialized", { payload: Schema.Unknown }),
  Rpc.make("notifications/cancelled", { payload: Schema.Unknown })
) {}

/** Methods that are notifications: never answered. */
export const isNotificationMethod = (method: string) => method.startsWith("notifications/")
