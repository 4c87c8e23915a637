/**
 * Serves the dashboard (dist/dashboard/, built by scripts/build.mjs) at `/`: the hashed assets under
 * /assets/ (precompressed: brotli or gzip as the browser accepts, `immutable` for a year), and the app's
 * page for every other path outside /api, so deep links work. /api/* keeps the API's own JSON 404 and
 * 405 envelopes. Every dashboard response carries the security headers of `securityHeaders`.
 *
 * Nothing is read before the first request to the dashboard: a process that never serves it (a worker,
 * an API behind another front end) keeps no page in memory.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Duration, Effect, Option } from "effect"
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import * as Zlib from "node:zlib"
import { AppConfig, type AppConfigShape } from "../config/AppConfig.js"
import type { DashboardConfig } from "./Config.js"
import { devSignInAvailable } from "./DevSignIn.js"

export type { DashboardConfig }

/** dist/dashboard, two folders up from src/dashboard/ and from dist/server/ alike. */
export const DASHBOARD_DIST = fileURLToPath(new URL("../../dist/dashboard/", import.meta.url))

/**
 * The Content-Security-Policy: scripts and styles from this origin only (no inline script, no eval),
 * no frames in or out, no plug-ins, forms and <base> pinned; `connect-src` adds the OpenID provider's
 * origins (its discovery document and token endpoint) only when sign-in through it is configured.
 */
export const contentSecurityPolicy = (connectOrigins: ReadonlyArray<string>) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...connectOrigins].join(" ")}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'"
  ].join("; ")

export const securityHeaders = (connectOrigins: ReadonlyArray<string>): Record<string, string> => ({
  "content-security-policy": contentSecurityPolicy(connectOrigins),
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()"
})

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json"
}

interface Asset {
  readonly contentType: string
  readonly identity: Uint8Array
  readonly gzip: Uint8Array | undefined
  readonly br: Uint8Array | undefined
}

/** The encoding to send: brotli, then gzip, when the browser accepts it and the asset has it. */
const pick = (asset: Asset, acceptEncoding: string | undefined) => {
  const accepts = (name: string) => new RegExp(`(^|[,\\s])${name}(?!;q=0(\\.0*)?(\\s|,|$))`, "i").test(acceptEncoding ?? "")
  if (asset.br && accepts("br")) return { body: asset.br, encoding: "br" as const }
  if (asset.gzip && accepts("gzip")) return { body: asset.gzip, encoding: "gzip" as const }
  return { body: asset.identity, encoding: undefined }
}

const respond = (asset: Asset, request: HttpServerRequest.HttpServerRequest, headers: Record<string, string>) => {
  const { body, encoding } = pick(asset, request.headers["accept-encoding"])
  return HttpServerResponse.uint8Array(body, {
    contentType: asset.contentType,
    headers: { ...headers, vary: "accept-encoding", ...(encoding ? { "content-encoding": encoding } : {}) }
  })
}

/** The hashed assets, indexed by name once: a request names an entry of this map, never a path on disk. */
const loadAssets = (dir: string): Map<string, Asset> => {
  const out = new Map<string, Asset>()
  const assetsDir = Path.join(dir, "assets")
  if (!Fs.existsSync(assetsDir)) return out
  const walk = (rel: string) => {
    for (const entry of Fs.readdirSync(Path.join(assetsDir, rel), { withFileTypes: true })) {
      const name = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory()) walk(name)
      else if (!name.endsWith(".gz") && !name.endsWith(".br")) {
        const file = Path.join(assetsDir, name)
        const sibling = (ext: string) => (Fs.existsSync(file + ext) ? Fs.readFileSync(file + ext) : undefined)
        out.set(`/assets/${name}`, {
          contentType: CONTENT_TYPES[Path.extname(name)] ?? "application/octet-stream",
          identity: Fs.readFileSync(file),
          gzip: sibling(".gz"),
          br: sibling(".br")
        })
      }
    }
  }
  walk("")
  return out
}

const escapeAttribute = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>rubr</title></head>
<body><h1>The dashboard is not built</h1><p>Run <code>npm run build</code> (or <code>npm install</code>), then reload.</p></body></html>`

/** The app's page with the configuration filled in, compressed once. */
const pageAsset = (dir: string, config: DashboardConfig): Asset => {
  const file = Path.join(dir, "index.html")
  const template = Fs.existsSync(file) ? Fs.readFileSync(file, "utf8") : NOT_BUILT
  const html = Buffer.from(template.replace("%RUBR_CONFIG%", escapeAttribute(JSON.stringify(config))))
  return {
    contentType: "text/html; charset=utf-8",
    identity: html,
    gzip: Zlib.gzipSync(html, { level: 9 }),
    br: Zlib.brotliCompressSync(html)
  }
}

/**
 * The OpenID provider's discovery document, read by the service (which trusts the same issuer): the
 * page gets it inline, and the CSP allows the origins the browser must reach (the issuer's, the token
 * endpoint's, the userinfo endpoint's). Unreadable: the issuer's origin alone, and another try later.
 */
const discover = (issuer: string) =>
  Effect.tryPromise(async () => {
    const response = await fetch(`${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(3000) })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    return (await response.json()) as Record<string, unknown>
  }).pipe(Effect.option)

const originOf = (url: unknown): string | undefined => {
  if (typeof url !== "string") return undefined
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

export const dashboardConfig = (config: AppConfigShape, metadata: Record<string, unknown> | null): DashboardConfig => ({
  apiBase: "/api/v1",
  devSignIn: devSignInAvailable(config),
  oidc: Option.match(config.dashboard.oidcClientId, {
    onNone: () => null,
    onSome: (clientId) => ({ authority: config.auth.issuer, clientId, scope: config.dashboard.oidcScopes, metadata })
  })
})

export const connectOriginsOf = (config: DashboardConfig): ReadonlyArray<string> => {
  if (config.oidc === null) return []
  const m = config.oidc.metadata ?? {}
  const origins = [config.oidc.authority, m["token_endpoint"], m["userinfo_endpoint"], m["revocation_endpoint"]].map(originOf)
  return [...new Set(origins.filter((o): o is string => o !== undefined))]
}

const IMMUTABLE = "public, max-age=31536000, immutable"

export const DashboardLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const dir = DASHBOARD_DIST

    // the page and its headers; with a provider configured, rebuilt until its discovery document was read
    const build = Effect.gen(function*() {
      const metadata = Option.isSome(config.dashboard.oidcClientId) ? Option.getOrNull(yield* discover(config.auth.issuer)) : null
      const pageConfig = dashboardConfig(config, metadata)
      const headers = securityHeaders(connectOriginsOf(pageConfig))
      const page = pageAsset(dir, pageConfig)
      const etag = `"${createHash("sha256").update(page.identity).digest("base64url").slice(0, 27)}"`
      const complete = pageConfig.oidc === null || pageConfig.oidc.metadata !== null
      return { page, headers, etag, complete }
    })
    const page = yield* Effect.cachedInvalidateWithTTL(build, Duration.infinity)
    const currentPage = Effect.flatMap(page[0], (p) => (p.complete ? Effect.succeed(p) : Effect.zipRight(page[1], page[0])))
    const assets = yield* Effect.cached(Effect.sync(() => loadAssets(dir)))

    const serve = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = request.url.split("?")[0]!
      // the API keeps its own answers for unknown routes and wrong methods (the JSON envelope)
      if (path === "/api" || path.startsWith("/api/")) return yield* new HttpServerError.RouteNotFound({ request })
      const { page: html, headers, etag } = yield* currentPage
      if (path.startsWith("/assets/")) {
        const asset = (yield* assets).get(path)
        if (asset === undefined) {
          return HttpServerResponse.text("Not found\n", { status: 404, headers: { ...headers, "cache-control": "no-store" } })
        }
        return respond(asset, request, { ...headers, "cache-control": IMMUTABLE })
      }
      // every other path is the app: it routes in the browser (deep links, reloads)
      const cacheHeaders = { "cache-control": "no-cache", etag }
      if (request.headers["if-none-match"] === etag) return HttpServerResponse.empty({ status: 304, headers: { ...headers, ...cacheHeaders } })
      return respond(html, request, { ...headers, ...cacheHeaders })
    })

    yield* router.get("/", serve)
    yield* router.get("/*", serve)
  })
)
