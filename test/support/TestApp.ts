/**
 * A whole rubr process per test file, in-process, on its own database cloned from the migrated
 * template and a real listening socket on a free port. Tests speak HTTP to it with fetch, exactly as a
 * client would, and may look into the database through `sql`.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { Clock, ConfigProvider, Context, Effect, Layer } from "effect"
import * as Fs from "node:fs"
import { createRubrServer } from "../../src/Http.js"
import * as Os from "node:os"
import * as Path from "node:path"
import pg from "pg"
import { inject } from "vitest"
import { EdgeServicesLive, roleLayer } from "../../src/App.js"
import { type DevKey, generateDevKey, mintToken, privateKeyPathFor, type TokenOptions } from "../../src/auth/DevTokens.js"
import { AppConfig, type Role } from "../../src/config/AppConfig.js"
import type { BodyOf } from "./Api.js"
import { HttpServer } from "@effect/platform"
import type { SpanProcessor } from "@opentelemetry/sdk-trace-base"
import { TracingOff, tracingWith } from "../../src/telemetry/Tracing.js"

export const ISSUER = "rubr-test"
export const AUDIENCE = "rubr-test-aud"
const TEMPLATE_DB = "rubr_test_template"

export type { ApiError, ErrorBody } from "./Api.js"

/** The parts of the OpenAPI document the tests read (GET /openapi.json, outside the envelope). */
export interface OpenApiDocument {
  readonly openapi: string
  readonly paths: Record<string, Record<string, { readonly responses: Record<string, { readonly content: Record<string, unknown> }> }>>
}

/** A reply; its `body` is the parsed JSON (undefined when the body is not JSON). */
export interface Reply<B> {
  readonly status: number
  readonly headers: Headers
  readonly body: B
  readonly text: string
}

export interface RequestOptions {
  readonly token?: string | undefined
  readonly body?: unknown
  /** Sent verbatim (for malformed-body tests); wins over `body`. */
  readonly rawBody?: string | Uint8Array
  readonly headers?: Record<string, string>
}

export interface TestAppShape {
  readonly baseUrl: string
  readonly databaseUrl: string
  /** this app's SERVICE_DATA_DIR (signing key, export files) */
  readonly dataDir: string
  readonly key: DevKey
  /** A login token for `sub` (a new sub is a new user on first use). */
  readonly token: (sub: string, options?: Partial<TokenOptions>) => Promise<string>
  /** Signs in `sub` and creates an API key with these scopes; returns the raw key. */
  readonly apiKey: (sub: string, scopes: ReadonlyArray<string>, name?: string) => Promise<string>
  /** A request whose reply body is typed by the contract's endpoint for this method and path (test/support/Api.ts). */
  readonly request: <const M extends string, const P extends string>(method: M, path: P, options?: RequestOptions) => Promise<Reply<BodyOf<M, P>>>
  /**
   * The escape hatch: a request whose reply body the test names itself, for a document served outside
   * the envelope (the OpenAPI document, a JWKS, a signed export) or a path the types cannot follow.
   */
  readonly requestAs: <B>(method: string, path: string, options?: RequestOptions) => Promise<Reply<B>>
  readonly sql: SqlClient.SqlClient
}

export class TestApp extends Context.Tag("test/TestApp")<TestApp, TestAppShape>() {}

/** A database of its own, cloned from the migrated template (the browser tests give it to a service they spawn). */
export const createDatabase = async () => {
  const adminUrl = inject("pgAdminUrl")
  const name = `rubr_t_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`)
  } finally {
    await admin.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

export interface TestAppOptions {
  readonly role?: Role
  readonly env?: Record<string, string>
  /** Export spans to this processor (e.g. an in-memory exporter) instead of nowhere. */
  readonly spanProcessor?: SpanProcessor
  /**
   * Leave SERVICE_AUTH_JWKS_FILE unset, as `npm start` does: the service uses its own development JWKS
   * under SERVICE_DATA_DIR (the test's key, so `token()` still works) and offers the dev sign-in.
   */
  readonly devJwks?: boolean
  /**
   * Services that replace their live ones at the process's edge (the AI providers, object storage,
   * the mailer: src/App.ts `EdgeServicesLive`), e.g. `makeTestLayer(ObjectStore)({ put: () => … })`
   * to state a failure path. The others stay live.
   */
  readonly edge?: Layer.Layer<never>
}

export const makeTestApp = (options: TestAppOptions = {}) =>
  Layer.unwrapScoped(
    Effect.gen(function*() {
      const databaseUrl = yield* Effect.promise(createDatabase)
      const { key, jwks } = yield* Effect.promise(() => generateDevKey())
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-app-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true })))
      const jwksFile = Path.join(dir, options.devJwks ? "dev-jwks.json" : "jwks.json")
      Fs.writeFileSync(jwksFile, JSON.stringify(jwks))
      if (options.devJwks) Fs.writeFileSync(privateKeyPathFor(jwksFile), JSON.stringify(key.privateJwk))
      const env: Record<string, string> = {
        DATABASE_URL: databaseUrl,
        SERVICE_DATA_DIR: dir,
        ...(options.devJwks ? {} : { SERVICE_AUTH_JWKS_FILE: jwksFile }),
        SERVICE_AUTH_ISSUER: ISSUER,
        SERVICE_AUTH_AUDIENCE: AUDIENCE,
        SERVICE_ROLE: options.role ?? "api",
        SERVICE_DB_POOL_SIZE: "10",
        SERVICE_WORKER_POLL_INTERVAL_MS: "200",
        SERVICE_LOG_LEVEL: "WARN",
        ...options.env
      }
      const server = NodeHttpServer.layer(createRubrServer, { port: 0, host: "127.0.0.1" })
      const app = roleLayer((options.role ?? "api") as Role, server, options.edge ? Layer.merge(EdgeServicesLive, options.edge) : EdgeServicesLive)
      const testApp = Layer.effect(
        TestApp,
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const httpServer = yield* Effect.serviceOption(HttpServer.HttpServer)
          const address = httpServer._tag === "Some" ? httpServer.value.address : undefined
          const baseUrl = address && address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}/api/v1` : ""
          const token = (sub: string, extra: Partial<TokenOptions> = {}) =>
            mintToken(key, { issuer: ISSUER, audience: AUDIENCE, sub, ...extra })
          const requestAs = async <B>(method: string, path: string, opts: RequestOptions = {}): Promise<Reply<B>> => {
            const headers: Record<string, string> = { ...opts.headers }
            if (opts.token !== undefined) headers["authorization"] = `Bearer ${opts.token}`
            let body: string | Uint8Array | undefined
            if (opts.rawBody !== undefined) body = opts.rawBody
            else if (opts.body !== undefined) {
              body = JSON.stringify(opts.body)
              headers["content-type"] ??= "application/json"
            }
            const response = await fetch(baseUrl + path, { method, headers, body })
            const text = await response.text()
            let parsed: any = undefined
            try {
              parsed = text.length > 0 ? JSON.parse(text) : undefined
            } catch {
              parsed = undefined
            }
            return { status: response.status, headers: response.headers, body: parsed, text }
          }
          const request = <const M extends string, const P extends string>(method: M, path: P, opts?: RequestOptions) =>
            requestAs<BodyOf<M, P>>(method, path, opts)
          const apiKey = async (sub: string, scopes: ReadonlyArray<string>, name = "test key") => {
            const reply = await request("POST", "/api-keys", { token: await token(sub), body: { name, scopes } })
            if (reply.status !== 201) throw new Error(`api key creation failed: ${reply.status} ${reply.text}`)
            return reply.body.data.rawApiKey
          }
          return { baseUrl, databaseUrl, dataDir: dir, key, token, apiKey, request, requestAs, sql }
        })
      )
      return testApp.pipe(
        Layer.provideMerge(app),
        // as in production: spans only when something reads them (here, the test's processor)
        Layer.provide(options.spanProcessor ? tracingWith(options.spanProcessor) : TracingOff),
        Layer.provide(AppConfig.layer),
        // @effect/vitest's layer() provides the TestClock; the service's own fibers (worker, heartbeats,
        // sweepers, mock latency) must run on real time, as in production.
        Layer.provide(Layer.setClock(Clock.make())),
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
      )
    })
  )

/** Real-time sleep: `it.effect` runs on the TestClock, where Effect.sleep never advances by itself. */
export const sleep = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/**
 * Rate limits count fixed one-minute windows (src/limits/RateLimiter.ts, `date_trunc('minute', now())`).
 * A test whose requests must land in one window first waits out the last `marginSeconds` of the current
 * minute, so its burst never straddles two windows (the fifth call of a burst landing in a fresh window
 * would be allowed again).
 */
export const inOneMinuteWindow = (marginSeconds = 6) =>
  Effect.promise(async () => {
    const now = new Date()
    const intoMinute = now.getUTCSeconds() + now.getUTCMilliseconds() / 1000
    if (intoMinute > 60 - marginSeconds) await new Promise((resolve) => setTimeout(resolve, (60 - intoMinute) * 1000 + 250))
  })
