/**
 * A fake OpenAI-compatible server on loopback (node:http, port 0). It records every request and
 * answers from a script: queued replies first (in order), then the fallback responder, else 500.
 * Replies can carry a status, a JSON or raw body, and a delay (for timeouts).
 */
import { Effect } from "effect"
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface RecordedRequest {
  readonly method: string
  readonly url: string
  readonly headers: IncomingHttpHeaders
  readonly rawBody: string
  /** The parsed JSON body (undefined when it was not JSON). */
  readonly body: any
}

export interface FakeReply {
  readonly status?: number
  /** Sent as JSON. */
  readonly json?: unknown
  /** Sent verbatim (wins over `json`). */
  readonly raw?: string
  readonly headers?: Record<string, string>
  /** Wait this long before answering. */
  readonly delayMs?: number
}

export type Responder = (request: RecordedRequest) => FakeReply

export interface FakeOpenAi {
  /** The base URL to configure, e.g. http://127.0.0.1:PORT/v1 */
  readonly baseUrl: string
  readonly requests: Array<RecordedRequest>
  /** Queue replies, answered in order before the fallback. */
  readonly enqueue: (...replies: ReadonlyArray<FakeReply>) => void
  readonly setFallback: (responder: Responder | undefined) => void
  /** Forget recorded requests and queued replies. */
  readonly reset: () => void
}

export interface CompletionUsage {
  readonly prompt_tokens: number
  readonly completion_tokens: number
  readonly total_tokens?: number
}

/** A well-formed chat-completions body whose assistant message is `content`. */
export const completion = (
  content: string | null,
  options: { readonly usage?: CompletionUsage | null; readonly model?: string; readonly finishReason?: string } = {}
) => {
  const usage = options.usage === undefined ? { prompt_tokens: 1200, completion_tokens: 800 } : options.usage
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2, 10)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: options.model ?? "fake-model",
    choices: [{
      index: 0,
      finish_reason: options.finishReason ?? "stop",
      message: { role: "assistant", content, refusal: null },
      logprobs: null
    }],
    ...(usage === null ? {} : {
      usage: { ...usage, total_tokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens }
    })
  }
}

/** A 200 reply with `value` serialized as the assistant message. */
export const jsonReply = (value: unknown, usage?: CompletionUsage | null): FakeReply => ({
  json: completion(JSON.stringify(value), { usage })
})

/** A 200 reply whose assistant message is free text. */
export const textReply = (text: string, usage?: CompletionUsage | null): FakeReply => ({
  json: completion(text, { usage })
})

/** The system and last user message of a chat request, and the JSON schema name it asked for. */
export const messagesOf = (request: RecordedRequest) => {
  const messages = (request.body?.messages ?? []) as Array<{ role: string; content: string }>
  return {
    system: messages.find((m) => m.role === "system")?.content ?? "",
    user: [...messages].reverse().find((m) => m.role === "user")?.content ?? "",
    schema: request.body?.response_format?.json_schema?.name as string | undefined
  }
}

/** An OpenAI-style error reply. */
export const errorReply = (status: number, message = "fake provider failure: secret-internal-detail"): FakeReply => ({
  status,
  json: { error: { message, type: "server_error", code: null } }
})

const send = (res: ServerResponse, reply: FakeReply) => {
  const status = reply.status ?? 200
  if (reply.raw !== undefined) {
    res.writeHead(status, { "content-type": "application/json", ...reply.headers })
    res.end(reply.raw)
    return
  }
  res.writeHead(status, { "content-type": "application/json", ...reply.headers })
  res.end(JSON.stringify(reply.json ?? {}))
}

/** Starts the server for the enclosing scope; it is closed (connections included) when the scope ends. */
export const make = (fallback?: Responder) =>
  Effect.acquireRelease(
    Effect.async<{ server: Server; fake: FakeOpenAi }>((resume) => {
      const requests: Array<RecordedRequest> = []
      const queue: Array<FakeReply> = []
      let responder = fallback
      const server = createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          const rawBody = Buffer.concat(chunks).toString("utf8")
          let body: any = undefined
          try {
            body = JSON.parse(rawBody)
          } catch {
            body = undefined
          }
          const recorded: RecordedRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, rawBody, body }
          requests.push(recorded)
          const reply = queue.shift() ?? responder?.(recorded) ?? errorReply(500, "no scripted reply")
          if (reply.delayMs !== undefined && reply.delayMs > 0) {
            const timer = setTimeout(() => {
              if (!res.destroyed) send(res, reply)
            }, reply.delayMs)
            res.on("close", () => clearTimeout(timer))
          } else {
            send(res, reply)
          }
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({
          server,
          fake: {
            baseUrl: `http://127.0.0.1:${port}/v1`,
            requests,
            enqueue: (...replies) => void queue.push(...replies),
            setFallback: (r) => {
              responder = r
            },
            reset: () => {
              requests.length = 0
              queue.length = 0
            }
          }
        }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ fake }) => fake))
