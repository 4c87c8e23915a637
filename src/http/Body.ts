/**
 * The request body read once, up front, by the shared guards: so its nesting is checked before any
 * route decodes it, and an oversized streamed body is answered 413 instead of a reset connection.
 *
 * The platform's own reader destroys the socket the moment a body passes the size limit, so a client
 * still sending never sees the answer. This one stops reading instead (the 413 goes out with
 * `Connection: close`, and Node drops the rest). The route then reads the buffered text through the
 * same HttpServerRequest interface (`text`, `json`, `arrayBuffer`), as if it had read it itself.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Effect } from "effect"
import type * as Http from "node:http"
import { PayloadTooLarge, ValidationFailed } from "../domain/Errors.js"

const incomingOf = (request: HttpServerRequest.HttpServerRequest): Http.IncomingMessage | undefined => {
  try {
    const source = NodeHttpServerRequest.toIncomingMessage(request)
    return typeof source?.on === "function" ? source : undefined
  } catch {
    return undefined
  }
}

/** The body's bytes, failing with 413 past `maxBytes` (without destroying the socket). */
const readAll = (source: Http.IncomingMessage, maxBytes: number) =>
  Effect.async<Buffer, PayloadTooLarge | ValidationFailed>((resume) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > maxBytes) {
        cleanup()
        source.pause()
        resume(Effect.fail(new PayloadTooLarge({ message: `The request body is over the limit of ${maxBytes} bytes.`, details: [{ limitBytes: maxBytes }] })))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      cleanup()
      resume(Effect.succeed(Buffer.concat(chunks, bytes)))
    }
    const onError = () => {
      cleanup()
      resume(Effect.fail(new ValidationFailed({ message: "The request body could not be read.", details: [] })))
    }
    const cleanup = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
    }
    source.on("data", onData)
    source.once("end", onEnd)
    source.once("error", onError)
    return Effect.sync(cleanup)
  })

/** The request as the route sees it: the same, but its body comes from the buffer. */
const withBody = (request: HttpServerRequest.HttpServerRequest, body: Buffer, text: string): HttpServerRequest.HttpServerRequest => {
  const buffered = Object.create(request) as HttpServerRequest.HttpServerRequest
  const parsed = Effect.try({
    try: () => (text === "" ? null : JSON.parse(text)),
    catch: () => new ValidationFailed({ message: "The request body is not valid JSON.", details: [{ path: "", message: "malformed JSON" }] })
  })
  Object.defineProperties(buffered, {
    text: { get: () => Effect.succeed(text) },
    json: { get: () => parsed },
    arrayBuffer: { get: () => Effect.succeed(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)) }
  })
  return buffered
}

/**
 * Reads the body (Node requests; any other keeps the platform's reader) and returns its text and the
 * request to hand the route.
 */
export const bufferBody = (request: HttpServerRequest.HttpServerRequest, maxBytes: number) =>
  Effect.gen(function*() {
    const source = incomingOf(request)
    if (source === undefined) {
      const text = yield* Effect.orElseSucceed(request.text, () => "")
      return { text, request }
    }
    const body = yield* readAll(source, maxBytes)
    const text = body.toString("utf8")
    return { text, request: withBody(request, body, text) }
  })

/**
 * Whether a body read as text was not valid UTF-8: the text is decoded leniently (an invalid byte
 * becomes U+FFFD), so it holds a replacement character and no longer encodes to the declared length.
 */
export const isInvalidUtf8 = (text: string, contentLength: string | undefined): boolean => {
  const declared = Number(contentLength)
  return Number.isFinite(declared) && text.includes("\uFFFD") && Buffer.byteLength(text, "utf8") !== declared
}
