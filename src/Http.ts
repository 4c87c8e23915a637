/** The HTTP server: the API with its handlers, the docs page, request ids and access logs. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, FiberRef, Layer, LogLevel, Option } from "effect"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { Duplex } from "node:stream"
import { AuthenticationLive } from "./auth/Http.js"
import { AppConfig } from "./config/AppConfig.js"
import { EmailPreferencesHttp, NewsletterHttp } from "./email/Http.js"
import { BundlesHttp } from "./bundles/Http.js"
import { IdentityHttp } from "./identity/Http.js"
import { SystemHttp } from "./system/Http.js"
import { JobsHttp } from "./jobs/Http.js"
import { AuditsHttp } from "./audits/Http.js"
import { ConversionsHttp } from "./conversions/Http.js"
import { RubrFlowHttp } from "./rubr_flow/Http.js"
import { EvalsHttp } from "./evals/Http.js"
import { ProofReportsHttp } from "./proofs/Http.js"
import { SigningKeysHttp } from "./signing/Http.js"
import { McpHttp } from "./mcp/Http.js"
import { GuidesHttp } from "./docs/Http.js"
import { DocsPageLive } from "./docs/DocsPage.js"
import { DashboardLive } from "./dashboard/Assets.js"
import { DevSignIn } from "./dashboard/DevSignIn.js"
import { DevelopmentHttp } from "./dashboard/Http.js"
import { CreditsHttp } from "./credits/Http.js"
import { RubrApi } from "./Api.js"
import { RouteTableLive } from "./Routes.js"
import { ErrorHandlingLive, MaxBodySizeLive } from "./http/ErrorHandling.js"
import { annotateSpan } from "./telemetry/Spans.js"
import { CurrentRequestId, requestIdFrom } from "./domain/RequestId.js"
import { originOf, removeListeningRecord, writeListeningRecord } from "./config/PublicUrl.js"

/** Secrets that travel in URLs (one-click unsubscribe tokens) never reach the logs. */
const redactUrl = (url: string) => url.replace(/(\/unsubscribe-tokens\/)[^/?]+/, "$1[redacted]")

/**
 * Outermost middleware: the request's id and one structured access-log line per request. It runs in the
 * request's own fiber, so the id is set on that fiber once (no scoped `locally`); loggers, handlers
 * (`ok`), the error envelope and the response header all read it from there.
 */
const requestMiddleware = HttpMiddleware.make((app) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = requestIdFrom(request.headers["x-request-id"])
    const started = performance.now()
    yield* FiberRef.set(CurrentRequestId, requestId)
    yield* annotateSpan({ "rubr.request_id": requestId })
    const response = yield* app
    // the access log is built only when INFO lines are written at all
    if (LogLevel.greaterThanEqual(LogLevel.Info, yield* FiberRef.get(FiberRef.currentMinimumLogLevel))) {
      yield* Effect.logInfo("request").pipe(
        Effect.annotateLogs({
          method: request.method,
          url: redactUrl(request.url),
          status: response.status,
          durationMs: Math.round((performance.now() - started) * 10) / 10
        })
      )
    }
    return response
  })
)

/**
 * Every response carries `X-Request-Id`. The response is written inside the middleware chain, so the
 * header is added by a pre-response handler; it is installed once for the server (request fibers inherit
 * it) rather than appended per request.
 */
const requestIdHeader: HttpApp.PreResponseHandler = (_request, response) =>
  Effect.map(FiberRef.get(CurrentRequestId), (requestId) => HttpServerResponse.setHeader(response, "x-request-id", requestId))

export const ApiLive = HttpApiBuilder.api(RubrApi).pipe(
  Layer.provide([SystemHttp, IdentityHttp, BundlesHttp, EmailPreferencesHttp, NewsletterHttp, JobsHttp, CreditsHttp, AuditsHttp,
    ConversionsHttp, RubrFlowHttp, EvalsHttp, ProofReportsHttp, SigningKeysHttp, McpHttp, GuidesHttp,
    DevelopmentHttp.pipe(Layer.provide(DevSignIn.Default))]),
  Layer.provide(AuthenticationLive)
)

/** The routes without a listening socket; tests and the bench wrap it with a server of their own. */
export const HttpAppLive = HttpApiBuilder.serve(requestMiddleware).pipe(
  Layer.provide(DocsPageLive),
  // the dashboard at / (every path outside /api): after the docs page, beside the API's routes
  Layer.provide(DashboardLive),
  Layer.provide(ErrorHandlingLive),
  Layer.provide(ApiLive),
  Layer.provide(MaxBodySizeLive),
  Layer.provide(RouteTableLive),
  Layer.locally(HttpApp.currentPreResponseHandlers, Option.some(requestIdHeader))
)

/**
 * Requests Node's HTTP parser refuses before any route sees them (headers or a URL over its 16 KiB
 * limit, a malformed request line) still get the envelope and a request id, not Node's bare 431/400.
 */
const onClientError = (error: Error & { readonly code?: string }, socket: Duplex) => {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy()
    return
  }
  const requestId = randomUUID()
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW" || error.code === "HPE_URI_TOO_LONG"
  const body = JSON.stringify({
    error: {
      code: "validation_failed",
      message: tooLarge ? "The request's URL and headers are too large (16 KiB in all)." : "The request is not valid HTTP.",
      requestId,
      details: [{ path: tooLarge ? "headers" : "", message: tooLarge ? "too large" : "malformed request" }]
    }
  })
  socket.end(
    `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`
  )
}

/** The Node server every door uses (the service, the tests, the bench): with the parser's errors enveloped. */
export const createRubrServer = () => createServer().on("clientError", onClientError)

export const NodeServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => NodeHttpServer.layer(createRubrServer, { port: config.port, host: config.host }))
)

/**
 * Logs the one start-up line with the base URL, and records where the service listens in the data
 * directory, so links minted elsewhere (a worker, `npm run outbox`) point here (src/config/PublicUrl.ts).
 */
export const LogBaseUrl = Layer.scopedDiscard(
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const config = yield* AppConfig
    const address = server.address
    if (address._tag !== "TcpAddress") {
      yield* Effect.logInfo(`rubr API listening on unix:${address.path}`)
      return
    }
    const origin = originOf(address.hostname, address.port)
    const base = `${origin}/api/v1`
    const dataDir = config.database.dataDir
    yield* Effect.acquireRelease(
      Effect.sync(() => writeListeningRecord(dataDir, origin)).pipe(
        Effect.catchAllDefect((e) => Effect.logWarning("could not record the listening address", e))
      ),
      () => Effect.sync(() => removeListeningRecord(dataDir))
    )
    yield* Effect.logInfo(`rubr API listening on ${base}`).pipe(Effect.annotateLogs({ baseUrl: base }))
  })
)
