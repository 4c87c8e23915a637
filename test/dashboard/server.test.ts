/**
 * Issue 23, the service's side of the dashboard (no browser): the local developer's sign-in route and
 * when it exists, the provider claim, and how the dashboard is served (the app for deep links, the
 * API's own 404s, compressed immutable assets, the security headers, the OpenID provider's origins).
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Zlib from "node:zlib"
import { contentSecurityPolicy, DASHBOARD_DIST } from "../../src/dashboard/Assets.js"
import { isLoopbackHost } from "../../src/dashboard/DevSignIn.js"
import { makeTestApp, TestApp } from "../support/TestApp.js"
import { call } from "../support/fixtures.js"
import type { BodyOf, ErrorBody } from "../support/Api.js"

const originOf = (app: typeof TestApp.Service) => app.baseUrl.replace(/\/api\/v1$/, "")

/** A stand-in OpenID provider: only its discovery document, whose token endpoint is on another origin. */
const discovery = await new Promise<{ issuer: string; tokenOrigin: string }>((resolve) => {
  const server = Http.createServer((req, res) => {
    const { port } = server.address() as AddressInfo
    if (req.url === "/.well-known/openid-configuration") {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({
        issuer: `http://127.0.0.1:${port}`,
        authorization_endpoint: `http://127.0.0.1:${port}/authorize`,
        token_endpoint: `http://localhost:${port}/token`,
        jwks_uri: `http://127.0.0.1:${port}/jwks`
      }))
    } else {
      res.writeHead(404).end()
    }
  })
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    server.unref()
    resolve({ issuer: `http://127.0.0.1:${port}`, tokenOrigin: `http://localhost:${port}` })
  })
})

const devSignIn = (app: typeof TestApp.Service) => app.request("POST", "/dev/sign-in")

describe("loopback hosts", () => {
  it("127.0.0.0/8, ::1 and localhost are; wildcards and other addresses are not", () => {
    expect([isLoopbackHost("127.0.0.1"), isLoopbackHost("127.1.2.3"), isLoopbackHost("::1"), isLoopbackHost("[::1]"), isLoopbackHost("localhost")]).toEqual([true, true, true, true, true])
    expect([isLoopbackHost("0.0.0.0"), isLoopbackHost("::"), isLoopbackHost("192.168.1.5"), isLoopbackHost("example.com")]).toEqual([false, false, false, false])
  })
})

layer(makeTestApp({ devJwks: true }))("out of the box (the service's own development JWKS, on loopback)", (it) => {
  it.effect("POST /dev/sign-in mints a login token for the local developer that the API accepts", () =>
    Effect.gen(function*() {
      const reply = yield* call(devSignIn)
      expect(reply.status).toBe(200)
      expect(reply.body.data.tokenType).toBe("Bearer")
      const expiresIn = new Date(reply.body.data.expiresAt).getTime() - Date.now()
      expect(expiresIn).toBeGreaterThan(55 * 60_000)
      const me = yield* call((app) => app.request("GET", "/me", { token: reply.body.data.token }))
      expect(me.status).toBe(200)
      expect(me.body.data.user).toMatchObject({ email: "developer@localhost.localdomain", displayName: "Local developer" })
      expect(me.body.data.identities![0]).toMatchObject({ providerUserId: "local-developer", signInProvider: "google.com" })
      // the same user each time: a second sign-in is the same account
      const again = yield* call(devSignIn)
      const me2 = yield* call((app) => app.request("GET", "/me", { token: again.body.data.token }))
      expect(me2.body.data.user.id).toBe(me.body.data.user.id)
    }))

  it.effect("only pages of this machine may use it: another Host (DNS rebinding) or a foreign Origin finds no route", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const post = (headers: Record<string, string>) =>
        Effect.promise(() =>
          new Promise<{ status: number; body: BodyOf<"POST", "/dev/sign-in"> }>((resolve, reject) => {
            const request = Http.request(`${app.baseUrl}/dev/sign-in`, { method: "POST", headers }, (response) => {
              let text = ""
              response.on("data", (chunk) => (text += chunk))
              response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }))
            })
            request.on("error", reject)
            request.end()
          })
        )
      const port = new URL(app.baseUrl).port
      expect((yield* post({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200)
      expect((yield* post({ host: `[::1]:${port}` })).status).toBe(200)
      const foreign: Array<Record<string, string>> = [{ host: `rebound.example:${port}` }, { host: `127.0.0.1:${port}`, origin: "https://evil.example" }]
      for (const headers of foreign) {
        const refused = yield* post(headers)
        expect(refused.status).toBe(404)
        expect(refused.body.error.code).toBe("not_found")
        expect(refused.body.data).toBeUndefined()
      }
    }))

  it.effect("the page says the dev sign-in is offered, and no OpenID provider", () =>
    Effect.gen(function*() {
      const response = yield* call((app) => fetch(`${originOf(app)}/`))
      const html = yield* Effect.promise(() => response.text())
      const content = /name="rubr-config" content="([^"]*)"/.exec(html)![1]!.replace(/&quot;/g, "\"").replace(/&amp;/g, "&")
      expect(JSON.parse(content)).toEqual({ apiBase: "/api/v1", devSignIn: true, oidc: null })
      expect(response.headers.get("content-security-policy")).toBe(contentSecurityPolicy([]))
    }))
})

layer(makeTestApp({ devJwks: true, env: { HOST: "0.0.0.0" } }))("the development JWKS on a non-loopback address", (it) => {
  it.effect("POST /dev/sign-in does not exist: the router's own 404", () =>
    Effect.gen(function*() {
      const reply = yield* call(devSignIn)
      expect(reply.status).toBe(404)
      expect(reply.body.error).toMatchObject({ code: "not_found", message: "No route for POST /api/v1/dev/sign-in." })
      const html = yield* call((app) => fetch(`${originOf(app)}/`).then((r) => r.text()))
      expect(html).toContain("&quot;devSignIn&quot;:false")
    }))
})

layer(makeTestApp())("a JWKS file of the operator's (SERVICE_AUTH_JWKS_FILE)", (it) => {
  it.effect("POST /dev/sign-in does not exist (404)", () =>
    Effect.gen(function*() {
      const reply = yield* call(devSignIn)
      expect([reply.status, reply.body.error.code]).toEqual([404, "not_found"])
    }))
})

layer(makeTestApp({
  env: {
    SERVICE_AUTH_ISSUER: discovery.issuer,
    SERVICE_AUTH_JWKS_URL: `${discovery.issuer}/jwks`,
    SERVICE_DASHBOARD_OIDC_CLIENT_ID: "rubr-dashboard"
  }
}))("an identity provider configured (SERVICE_AUTH_JWKS_URL, SERVICE_DASHBOARD_OIDC_CLIENT_ID)", (it) => {
  it.effect("no dev sign-in; the page carries the provider's discovery document; the CSP lets the page reach its origins only", () =>
    Effect.gen(function*() {
      const reply = yield* call(devSignIn)
      expect([reply.status, reply.body.error.code]).toEqual([404, "not_found"])
      const response = yield* call((app) => fetch(`${originOf(app)}/bundles`))
      const html = yield* Effect.promise(() => response.text())
      const content = /name="rubr-config" content="([^"]*)"/.exec(html)![1]!.replace(/&quot;/g, "\"").replace(/&amp;/g, "&")
      const config = JSON.parse(content)
      expect(config).toMatchObject({ devSignIn: false, oidc: { authority: discovery.issuer, clientId: "rubr-dashboard", scope: "openid email profile" } })
      expect(config.oidc.metadata.token_endpoint).toBe(`${discovery.tokenOrigin}/token`)
      const csp = response.headers.get("content-security-policy")!
      expect(csp).toContain(`connect-src 'self' ${discovery.issuer} ${discovery.tokenOrigin};`)
      expect(csp).not.toMatch(/script-src[^;]*(unsafe|http)/)
    }))
})

layer(makeTestApp({ env: { SERVICE_AUTH_PROVIDER_CLAIM: "app_metadata.provider", SERVICE_AUTH_ALLOWED_PROVIDERS: "github.com,oidc" } }))(
  "the provider claim (SERVICE_AUTH_PROVIDER_CLAIM)",
  (it) => {
    it.effect("is read at the configured dotted path; a token without it signs in as `oidc`, accepted when allowed", () =>
      Effect.gen(function*() {
        const atPath = yield* call((app) => app.token("claim-path", { signInProvider: "github.com", providerClaim: "app_metadata.provider" }))
        const me = yield* call((app) => app.request("GET", "/me", { token: atPath }))
        expect([me.status, me.body.data.identities![0].signInProvider]).toEqual([200, "github.com"])
        // the Firebase claim is not the configured one: this token has no provider, so `oidc`
        const generic = yield* call((app) => app.token("generic-oidc", { signInProvider: "google.com" }))
        const me2 = yield* call((app) => app.request("GET", "/me", { token: generic }))
        expect([me2.status, me2.body.data.identities![0].signInProvider, me2.body.data.identities![0].signInProviderLabel]).toEqual([200, "oidc", "OpenID Connect"])
        const other = yield* call((app) => app.token("claim-other", { signInProvider: "password", providerClaim: "app_metadata.provider" }))
        const refused = yield* call((app) => app.request("GET", "/me", { token: other }))
        expect([refused.status, refused.body.error.code]).toEqual([403, "forbidden"])
      }))
  }
)

layer(makeTestApp())("a token without the provider claim, `oidc` not allowed (the default list)", (it) => {
  it.effect("is 403 forbidden, as any provider not in SERVICE_AUTH_ALLOWED_PROVIDERS", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("no-claim", { extraClaims: { firebase: undefined } }))
      const reply = yield* call((app) => app.request("GET", "/me", { token }))
      expect([reply.status, reply.body.error.code]).toEqual([403, "forbidden"])
      expect(reply.body.error.message).toBe("Sign-in provider 'oidc' is not accepted for durable access.")
    }))

  it.effect("the dashboard: the app at / and at any deep link, with the security headers", () =>
    Effect.gen(function*() {
      for (const path of ["/", "/bundles", "/bundles/0b0c7d3e-0000-4000-8000-000000000000/files/x/history?view=unified", "/no/such/page"]) {
        const response = yield* call((app) => fetch(`${originOf(app)}${path}`))
        expect([path, response.status, response.headers.get("content-type")]).toEqual([path, 200, "text/html; charset=utf-8"])
        expect(response.headers.get("x-content-type-options")).toBe("nosniff")
        expect(response.headers.get("referrer-policy")).toBe("no-referrer")
        const csp = response.headers.get("content-security-policy")!
        expect(csp).toContain("frame-ancestors 'none'")
        expect(csp).toContain("script-src 'self';")
        expect(csp).not.toContain("unsafe-inline")
        expect(csp).not.toContain("unsafe-eval")
        const html = yield* Effect.promise(() => response.text())
        expect(html).toContain('<div id="app">')
        expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
      }
      // revalidation: the ETag answers 304
      const first = yield* call((app) => fetch(`${originOf(app)}/`))
      const etag = first.headers.get("etag")!
      const again = yield* call((app) => fetch(`${originOf(app)}/`, { headers: { "if-none-match": etag } }))
      expect(again.status).toBe(304)
    }))

  it.effect("/api keeps its JSON envelopes: unknown routes 404, wrong methods 405", () =>
    Effect.gen(function*() {
      const unknown = yield* call((app) => app.request("GET", "/no-such-route"))
      expect([unknown.status, unknown.body.error.code]).toEqual([404, "not_found"])
      const wrongMethod = yield* call((app) => app.request("GET", "/api-keys/00000000-0000-4000-8000-000000000000"))
      expect([wrongMethod.status, wrongMethod.body.error.code]).toEqual([405, "method_not_allowed"])
      const outside = yield* call((app) => fetch(`${originOf(app)}/api/other`))
      expect([outside.status, (yield* Effect.promise(() => outside.json() as Promise<ErrorBody>)).error.code]).toEqual([404, "not_found"])
      const post = yield* call((app) => fetch(`${originOf(app)}/bundles`, { method: "POST" }))
      expect(post.status).toBe(404)
    }))

  it.effect("hashed assets: brotli or gzip as accepted, immutable for a year; a missing asset is 404, not the app", () =>
    Effect.gen(function*() {
      const html = yield* call((app) => fetch(`${originOf(app)}/`).then((r) => r.text()))
      const entry = /<script type="module" src="([^"]+)"/.exec(html)![1]!
      const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(html)![1]!
      const raw = Fs.readFileSync(`${DASHBOARD_DIST}${entry.slice(1)}`)
      const get = (path: string, encoding: string) =>
        call((app) =>
          new Promise<{ status: number; headers: Http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
            // node:http, not fetch: fetch decodes the body and hides what was sent
            Http.get(`${originOf(app)}${path}`, { headers: { "accept-encoding": encoding } }, (res) => {
              const chunks: Array<Buffer> = []
              res.on("data", (c) => chunks.push(c))
              res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
            }).on("error", reject)
          })
        )
      const br = yield* get(entry, "gzip, deflate, br")
      expect([br.status, br.headers["content-encoding"], br.headers["cache-control"]]).toEqual([200, "br", "public, max-age=31536000, immutable"])
      expect(Zlib.brotliDecompressSync(br.body).equals(raw)).toBe(true)
      expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8")
      expect(br.headers["content-security-policy"]).toContain("default-src 'none'")
      const gz = yield* get(entry, "gzip")
      expect(gz.headers["content-encoding"]).toBe("gzip")
      expect(Zlib.gunzipSync(gz.body).equals(raw)).toBe(true)
      const plain = yield* get(stylesheet, "identity")
      expect([plain.headers["content-encoding"], plain.headers["content-type"]]).toEqual([undefined, "text/css; charset=utf-8"])
      const missing = yield* get("/assets/main-NOPE.js", "gzip")
      expect(missing.status).toBe(404)
      const traversal = yield* get("/assets/../../package.json", "gzip")
      expect(traversal.body.toString()).not.toContain("\"name\": \"rubr\"")
    }))

  it.effect("POST /artifact-bundles/{id}/unarchive makes an archived bundle writable again (idempotent)", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("unarchiver"))
      const created = yield* call((app) => app.request("POST", "/artifact-bundles", { token, body: { name: "to archive" } }))
      const id = created.body.data.artifactBundle.id
      yield* call((app) => app.request("DELETE", `/artifact-bundles/${id}`, { token }))
      const refused = yield* call((app) => app.request("POST", `/artifact-bundles/${id}/files`, { token, body: { files: [{ path: "a.md", content: "x" }] } }))
      expect(refused.status).toBe(409)
      const back = yield* call((app) => app.request("POST", `/artifact-bundles/${id}/unarchive`, { token }))
      expect([back.status, back.body.data.artifactBundle.status, back.body.data.artifactBundle.archivedAt]).toEqual([200, "active", null])
      const twice = yield* call((app) => app.request("POST", `/artifact-bundles/${id}/unarchive`, { token }))
      expect(twice.body.data.artifactBundle.status).toBe("active")
      const written = yield* call((app) => app.request("POST", `/artifact-bundles/${id}/files`, { token, body: { files: [{ path: "a.md", content: "x" }] } }))
      expect(written.status).toBe(201)
      const stranger = yield* call((app) => app.token("not-the-owner"))
      const hidden = yield* call((app) => app.request("POST", `/artifact-bundles/${id}/unarchive`, { token: stranger }))
      expect(hidden.status).toBe(404)
    }))
})
