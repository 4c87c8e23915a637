/**
 * The typed SDK: a client derived from the `RubrApi` HttpApi definition (`HttpApiClient`), so every
 * route, parameter and answer is the contract's. On top of the derived client:
 *
 *   - bearer authentication with an API key (or a login token);
 *   - retries with backoff on 429 (honouring `Retry-After`) and 503, and on network failures for
 *     requests that are safe to repeat (GET, PUT, DELETE, and starts with an idempotency key);
 *   - an `Idempotency-Key` on every start call that has none, kept across its retries;
 *   - one error type, `RubrError`, carrying the envelope's `code`, `message` and `requestId`.
 *
 * The CLI and the tests use it; `docs/sdk.md` shows it in use.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Cause, Context, Duration, Effect, FiberRef, Layer, Option, ParseResult, type Types } from "effect"
import { RubrApi } from "../Api.js"
import { routes } from "../Routes.js"
import { RubrError } from "./RubrError.js"

export interface ClientOptions {
  /** the API's base, with `/api/v1`: `http://127.0.0.1:3000/api/v1` */
  readonly baseUrl: string
  /** an API key (`rubr_…`) or a login token; without one only public routes answer */
  readonly apiKey?: string | undefined
  /** attempts after the first, for 429, 503 and network failures of safe requests (default 4) */
  readonly retries?: number | undefined
  /** of those, at most this many for network failures (default: `retries`); a service that is down stays down */
  readonly networkRetries?: number | undefined
  /** a `Retry-After` longer than this is not waited for: the 429 is the answer (default 30 s) */
  readonly maxRetryDelay?: Duration.DurationInput | undefined
  /** told about each retry before its wait (the CLI shows it on stderr) */
  readonly onRetry?: ((retry: RetryInfo) => void) | undefined
  readonly userAgent?: string | undefined
}

export interface RetryInfo {
  readonly attempt: number
  readonly delayMs: number
  readonly reason: string
  readonly method: string
  readonly url: string
}

type Groups = typeof RubrApi extends HttpApi.HttpApi<infer _Id, infer G, infer _E, infer _R> ? G : never

/** A request as the derived client takes it; `headers` may be left out (the SDK fills the idempotency key). */
type SdkRequest<Path, UrlParams, Payload, Headers> = Types.Simplify<
  & ([Path] extends [void] ? {} : { readonly path: Path })
  & ([UrlParams] extends [never] ? {} : { readonly urlParams: UrlParams })
  & ([Headers] extends [never] ? {} : { readonly headers?: Headers })
  & ([Payload] extends [never] ? {} : { readonly payload: Payload })
>

type SdkMethod<Endpoint> = [Endpoint] extends [
  HttpApiEndpoint.HttpApiEndpoint<
    infer _Name,
    infer _Method,
    infer _Path,
    infer _UrlParams,
    infer _Payload,
    infer _Headers,
    infer _Success,
    infer _Error,
    infer _R,
    infer _RE
  >
] ? keyof SdkRequest<_Path, _UrlParams, _Payload, _Headers> extends never ? (request?: void) => Effect.Effect<_Success, RubrError>
  : (request: SdkRequest<_Path, _UrlParams, _Payload, _Headers>) => Effect.Effect<_Success, RubrError>
  : never

/** Every route of the API as `client.<group>.<endpoint>(request)`, answering its success body or a `RubrError`. */
export type RubrClient = {
  readonly [Group in Groups as HttpApiGroup.HttpApiGroup.Name<Group>]: {
    readonly [Endpoint in HttpApiGroup.HttpApiGroup.Endpoints<Group> as HttpApiEndpoint.HttpApiEndpoint.Name<Endpoint>]: SdkMethod<Endpoint>
  }
}

// ---- the contract, read once ------------------------------------------------------------------

const pathOf = (url: string) => {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}

/** Start routes take an `Idempotency-Key` header, per their definition. */
const isStart = (request: HttpClientRequest.HttpClientRequest) =>
  routes.some((r) => r.acceptsIdempotencyKey && r.method === request.method && r.pattern.test(pathOf(request.url)))

// ---- retries ----------------------------------------------------------------------------------

/** `Retry-After` in seconds or as an HTTP date; undefined when absent or unreadable. */
export const retryAfterMs = (value: string | undefined, now = Date.now()): number | undefined => {
  if (value === undefined || value.trim() === "") return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** 0.5 s, 1 s, 2 s, 4 s … with ±20% jitter, at most 10 s. */
const backoffMs = (attempt: number) => Math.min(10_000, 500 * 2 ** (attempt - 1)) * (0.8 + Math.random() * 0.4)

const withRetries = (options: ClientOptions) => (client: HttpClient.HttpClient): HttpClient.HttpClient => {
  const retries = options.retries ?? 4
  const networkRetries = Math.min(retries, options.networkRetries ?? retries)
  const maxDelayMs = Duration.toMillis(options.maxRetryDelay ?? Duration.seconds(30))
  return HttpClient.transform(client, (send, request) => {
    const safe = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].includes(request.method) ||
      request.headers["idempotency-key"] !== undefined
    const attempt = (n: number): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> =>
      Effect.flatMap(Effect.either(send), (outcome) => {
        if (n > retries) return outcome
        let delayMs: number | undefined
        let reason: string
        if (outcome._tag === "Left") {
          if (!safe || outcome.left._tag !== "RequestError" || n > networkRetries) return outcome
          delayMs = backoffMs(n)
          reason = `network: ${outcome.left.message}`
        } else {
          const response = outcome.right
          if (response.status !== 429 && response.status !== 503) return outcome
          const asked = retryAfterMs(response.headers["retry-after"])
          if (asked !== undefined && asked > maxDelayMs) return outcome
          delayMs = asked ?? backoffMs(n)
          reason = `HTTP ${response.status}`
        }
        const wait = Math.round(delayMs)
        options.onRetry?.({ attempt: n, delayMs: wait, reason, method: request.method, url: request.url })
        // the refused answer's body is read and dropped, which frees the connection
        const drain = outcome._tag === "Right" ? Effect.ignore(outcome.right.arrayBuffer) : Effect.void
        return drain.pipe(Effect.zipRight(Effect.sleep(Duration.millis(wait))), Effect.zipRight(attempt(n + 1)))
      })
    return attempt(1)
  })
}

// ---- errors -----------------------------------------------------------------------------------

/**
 * The `Retry-After` of the last answer a call received, in seconds: the derived client decodes a
 * declared 429 into its typed error without the headers, so the answer's header is noted here, in the
 * calling fiber (each call sets it back to null first), and put on the `RubrError`.
 */
const lastRetryAfter = FiberRef.unsafeMake<number | null>(null)

const noteRetryAfter = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  HttpClient.tap(client, (response) => {
    const ms = response.status === 429 || response.status === 503 ? retryAfterMs(response.headers["retry-after"]) : undefined
    return FiberRef.set(lastRetryAfter, ms === undefined ? null : Math.ceil(ms / 1000))
  })

/** The API's typed errors: the envelope decoded, the class carrying its code and status. */
interface DecodedApiError {
  readonly message: string
  readonly details: ReadonlyArray<unknown>
  readonly requestId?: string | undefined
}

const toRubrError = (error: unknown): RubrError => {
  if (error instanceof RubrError) return error
  const ctor = (error as { constructor?: { code?: unknown; status?: unknown } } | null)?.constructor
  if (ctor && typeof ctor.code === "string" && typeof ctor.status === "number") {
    const e = error as DecodedApiError
    return new RubrError({ code: ctor.code, status: ctor.status, message: e.message, requestId: e.requestId ?? null, details: e.details })
  }
  if (HttpClientError.isHttpClientError(error)) {
    if (error._tag === "RequestError") {
      return new RubrError({
        code: "network_error",
        status: null,
        message: `No answer from ${pathOf(error.request.url) === error.request.url ? error.request.url : new URL(error.request.url).origin}: ${
          (error.cause as Error | undefined)?.message ?? error.message
        }`,
        requestId: null,
        details: []
      })
    }
    return new RubrError({
      code: "http_error",
      status: error.response.status,
      message: `HTTP ${error.response.status} ${error.description ?? ""}`.trim(),
      requestId: error.response.headers["x-request-id"] ?? null,
      details: []
    })
  }
  if (ParseResult.isParseError(error)) {
    return new RubrError({ code: "invalid_response", status: null, message: `The answer did not match the contract: ${error.message}`, requestId: null, details: [] })
  }
  return new RubrError({ code: "client_error", status: null, message: String(error), requestId: null, details: [] })
}

/**
 * A status the route does not declare (a 429 from a public route, a 503 while draining) still carries
 * the envelope when the service sent it: read it rather than report a bare status.
 */
const fromUndeclaredStatus = (error: unknown): Effect.Effect<RubrError | undefined> => {
  if (!HttpClientError.isHttpClientError(error) || error._tag !== "ResponseError") return Effect.succeed(undefined)
  const response = error.response
  return response.json.pipe(
    Effect.map((body) => {
      const e = (body as { error?: { code?: unknown; message?: unknown; requestId?: unknown; details?: unknown } } | null)?.error
      if (!e || typeof e.code !== "string" || typeof e.message !== "string") return undefined
      return new RubrError({
        code: e.code,
        status: response.status,
        message: e.message,
        requestId: typeof e.requestId === "string" ? e.requestId : (response.headers["x-request-id"] ?? null),
        details: Array.isArray(e.details) ? e.details : []
      })
    }),
    Effect.orElseSucceed(() => undefined)
  )
}

// ---- the client -------------------------------------------------------------------------------

/**
 * Builds the client over an `HttpClient` from the context (`FetchHttpClient.layer` in `layer` below;
 * tests and the CLI may bring another).
 */
export const make = (options: ClientOptions): Effect.Effect<RubrClient, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const raw = yield* HttpApiClient.make(RubrApi, {
      baseUrl: options.baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, ""),
      transformClient: (client) =>
        client.pipe(
          HttpClient.mapRequest((request) => {
            let r = request
            if (options.apiKey) r = HttpClientRequest.bearerToken(r, options.apiKey)
            if (options.userAgent) r = HttpClientRequest.setHeader(r, "user-agent", options.userAgent)
            if (r.headers["idempotency-key"] === undefined && isStart(r)) r = HttpClientRequest.setHeader(r, "idempotency-key", crypto.randomUUID())
            return r
          }),
          withRetries(options),
          noteRetryAfter
        )
    })
    const wrapped: Record<string, Record<string, unknown>> = {}
    for (const [group, endpoints] of Object.entries(raw as unknown as Record<string, Record<string, (request: unknown) => Effect.Effect<unknown, unknown>>>)) {
      if (typeof endpoints !== "object" || endpoints === null) continue
      wrapped[group] = {}
      for (const [name, call] of Object.entries(endpoints)) {
        wrapped[group]![name] = (request?: Record<string, unknown>) =>
          Effect.suspend(() => call(request && "headers" in (request ?? {}) ? request : { ...request, headers: {} })).pipe(
            Effect.catchAllCause((cause) => {
              const failure = Cause.failureOption(cause)
              const error = Option.isSome(failure) ? failure.value : Cause.squash(cause)
              return Effect.flatMap(
                Effect.zip(fromUndeclaredStatus(error), FiberRef.get(lastRetryAfter)),
                ([e, retryAfterSeconds]) => {
                  const rubrError = e ?? toRubrError(error)
                  return Effect.fail(
                    retryAfterSeconds === null || rubrError.status === null ? rubrError : new RubrError({
                      code: rubrError.code,
                      status: rubrError.status,
                      message: rubrError.message,
                      requestId: rubrError.requestId,
                      details: rubrError.details,
                      retryAfterSeconds
                    })
                  )
                }
              )
            }),
            Effect.locally(lastRetryAfter, null)
          )
      }
    }
    return wrapped as unknown as RubrClient
  })

/** The client on `fetch` (Node 18+, browsers, Deno, Bun). */
export const makeWithFetch = (options: ClientOptions): Effect.Effect<RubrClient> => make(options).pipe(Effect.provide(FetchHttpClient.layer))

/** The client as a Context tag, for programs built from layers. */
export class Client extends Context.Tag("rubr/Client")<Client, RubrClient>() {}

export const layerFetch = (options: ClientOptions) => Layer.effect(Client, makeWithFetch(options))
