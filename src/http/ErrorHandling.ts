/**
 * One place turns every failure into the contract's error envelope: typed ApiErrors from handlers and
 * middleware, the platform's own decode errors, unknown routes and methods, malformed or oversized
 * bodies, wrong content types, and defects (500, logged with the request id, nothing leaked).
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiError from "@effect/platform/HttpApiError"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Cause, Effect, Layer, Option } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import {
  type ApiError,
  InternalError,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  RateLimitExceeded,
  ServiceUnavailable,
  ValidationFailed
} from "../domain/Errors.js"
import { currentRequestId } from "../domain/RequestId.js"
import { RouteTable, type RouteTableShape } from "./RouteTable.js"
import { exceedsJsonDepth, MAX_JSON_DEPTH } from "./JsonDepth.js"
import { bufferBody } from "./Body.js"
import { describeDatabaseError, isDatabaseUnavailable } from "../db/Availability.js"
import { throttlePublicIp } from "../limits/ClientIp.js"
import { RateLimiter } from "../limits/RateLimiter.js"

interface ErrorClassInfo {
  readonly code: string
  readonly status: number
}

export const isApiError = (u: unknown): u is ApiError => {
  const ctor = (u as { constructor?: Partial<ErrorClassInfo> } | null)?.constructor
  return typeof u === "object" && u !== null && typeof ctor?.code === "string" && typeof ctor?.status === "number" &&
    typeof (u as { message?: unknown }).message === "string"
}

/** The contract's error envelope of a typed error (every door answers with it: REST, MCP tool results). */
export const envelopeOf = (error: ApiError, requestId: string) => {
  const { code, status } = error.constructor as unknown as ErrorClassInfo
  return { status, body: { error: { code, message: error.message, requestId, details: error.details ?? [] } } }
}

export const errorResponse = (error: ApiError) =>
  Effect.map(currentRequestId, (requestId) => {
    const { status, body } = envelopeOf(error, requestId)
    const headers: Record<string, string> = {}
    if (error instanceof RateLimitExceeded) headers["retry-after"] = String(error.retryAfterSeconds)
    // the rest of an oversized body is never read: the connection closes after the answer
    if (error instanceof PayloadTooLarge) headers["connection"] = "close"
    if (error instanceof MethodNotAllowed) {
      const allow = error.details.flatMap((d) => (Array.isArray(d["allow"]) ? d["allow"] : []))
      if (allow.length > 0) headers["allow"] = allow.join(", ")
    }
    return HttpServerResponse.unsafeJson(body, { status, headers })
  })

/**
 * An optional field is a union with `undefined`, so a bad value also fails its "Expected undefined"
 * branch, at the field and at every optional parent. Those echoes say nothing when a real problem is
 * reported at the same path or below it; only that problem is kept.
 */
const meaningfulIssues = (issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>) => {
  const key = (p: ReadonlyArray<PropertyKey>) => p.map(String).join(".")
  const isEcho = (m: string) => m.startsWith("Expected undefined, actual")
  const real = issues.filter((i) => !isEcho(i.message)).map((i) => key(i.path))
  return issues.filter((i) => {
    if (!isEcho(i.message)) return true
    const at = key(i.path)
    return !real.some((r) => r === at || at === "" || r.startsWith(`${at}.`))
  })
}

const fromDecodeError = (error: HttpApiError.HttpApiDecodeError) => {
  const issues = meaningfulIssues(error.issues)
  return new ValidationFailed({
    message: "The request is invalid: " +
      issues.map((i) => (i.path.length > 0 ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; "),
    details: issues.map((i) => ({ path: i.path.join("."), message: i.message }))
  })
}

const notFoundOrWrongMethod = (request: HttpServerRequest.HttpServerRequest, routeTable: RouteTableShape) => {
  const path = request.url.split("?")[0]!
  const allowed = routeTable.methodsFor(path)
  return allowed.length === 0
    ? new NotFound({ message: `No route for ${request.method} ${path}.`, details: [] })
    : new MethodNotAllowed({
      message: `${request.method} is not allowed on ${path}; use ${allowed.join(" or ")}.`,
      details: [{ allow: allowed }]
    })
}

export const isBodyTooLarge = (error: HttpServerError.RequestError) =>
  error.cause instanceof Error && error.cause.message.includes("maxBytes exceeded")

/** Everything that is not a typed ApiError becomes one, or a logged 500. */
export const toApiError = (cause: Cause.Cause<unknown>, request: HttpServerRequest.HttpServerRequest, routeTable: RouteTableShape) =>
  Effect.gen(function*() {
    const failure = Cause.failureOption(cause)
    const error = Option.isSome(failure) ? failure.value : Cause.squash(cause)
    if (isApiError(error)) return error
    if (error instanceof HttpApiError.HttpApiDecodeError) return fromDecodeError(error)
    if (HttpServerError.isServerError(error)) {
      if (error._tag === "RouteNotFound") return notFoundOrWrongMethod(request, routeTable)
      if (error._tag === "RequestError") {
        if (isBodyTooLarge(error)) return new PayloadTooLarge({ message: "The request body is too large.", details: [] })
        if (error.reason === "Decode") {
          return new ValidationFailed({
            message: "The request body is not valid JSON.",
            details: [{ path: "", message: "malformed JSON" }]
          })
        }
      }
    }
    if ((error as { _tag?: unknown } | null)?._tag === "SqlError" && isDatabaseUnavailable(error)) {
      // one short line per refused request while the database is away, not a stack trace each
      yield* Effect.logWarning("database unavailable").pipe(Effect.annotateLogs({ reason: describeDatabaseError(error) }))
      return new ServiceUnavailable({ message: "The service cannot reach its database right now; retry shortly.", details: [] })
    }
    yield* Effect.logError("unhandled failure", cause)
    return new InternalError({ message: "An internal error occurred; quote the requestId when reporting it.", details: [] })
  })

const hasBody = (request: HttpServerRequest.HttpServerRequest) => {
  const length = request.headers["content-length"]
  return (length !== undefined && length !== "0") || request.headers["transfer-encoding"] !== undefined
}

const isJson = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType.trim())

/**
 * The body size limit while a body is read (a chunked body has no declared length to check up front).
 * Provided once for the server, so every request's context has it without a per-request provide.
 */
export const MaxBodySizeLive = Layer.effect(
  HttpIncomingMessage.MaxBodySize,
  Effect.map(AppConfig, (config) => Option.some(FileSystem.Size(config.limits.maxBodyBytes)))
)

const hasCredentials = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["authorization"] ?? "").trim() !== ""

/**
 * The HttpApi-level middleware: the guards every route shares before the router (the per-IP limit of
 * public routes, body size, content type, JSON depth), the envelope after it.
 */
export const ErrorHandlingLive = HttpApiBuilder.middleware(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const routeTable = yield* RouteTable
    const { maxBodyBytes } = config.limits
    const throttle = throttlePublicIp.pipe(
      Effect.provideService(AppConfig, config),
      Effect.provideService(RateLimiter, yield* RateLimiter)
    )
    return (app) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const urlPath = request.url.split("?")[0]!
        if (routeTable.countsPerIp(request.method, urlPath, hasCredentials(request))) yield* throttle
        const declared = Number(request.headers["content-length"] ?? "0")
        if (Number.isFinite(declared) && declared > maxBodyBytes) {
          return yield* new PayloadTooLarge({
            message: `The request body is ${declared} bytes; the limit is ${maxBodyBytes}.`,
            details: [{ limitBytes: maxBodyBytes }]
          })
        }
        // Only routes that read a body check its type: a one-click unsubscribe POST from a mail
        // provider carries a form body the consume route never reads.
        if (hasBody(request) && !isJson(request.headers["content-type"]) && routeTable.readsBody(request.method, urlPath)) {
          return yield* new ValidationFailed({
            message: "Send the request body as JSON with Content-Type: application/json.",
            details: [{ path: "content-type", message: `unsupported content type '${request.headers["content-type"] ?? ""}'` }]
          })
        }
        // Read once, here, before anything recursive sees it: the nesting is scanned, not parsed, and
        // the route reads the same buffered text (src/http/Body.ts)
        if (hasBody(request) && isJson(request.headers["content-type"])) {
          const body = yield* bufferBody(request, maxBodyBytes)
          if (exceedsJsonDepth(body.text)) {
            return yield* new ValidationFailed({
              message: `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`,
              details: [{ path: "", message: `nested deeper than ${MAX_JSON_DEPTH} levels` }]
            })
          }
          return yield* Effect.provideService(app, HttpServerRequest.HttpServerRequest, body.request)
        }
        return yield* app
      }).pipe(
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause)
            ? Effect.failCause(cause as Cause.Cause<never>)
            : Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
              Effect.flatMap(toApiError(cause, request, routeTable), errorResponse))
        )
      )
  })
)
