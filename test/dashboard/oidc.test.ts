/**
 * Issue 23, signing in through a real OpenID provider: oidc-provider (a certified implementation)
 * started by the test on loopback, the service trusting it (SERVICE_AUTH_ISSUER, its JWKS URL, the
 * client id as audience, provider `oidc` allowed), and the dashboard doing authorization code with
 * PKCE in Chromium: sign in, the ID token as the bearer, renewed before it expires, never in
 * localStorage nor left in the address bar, cleared at sign-out; the dev sign-in route does not exist.
 */
import * as jose from "jose"
import * as Http from "node:http"
import Provider from "oidc-provider"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectCleanPage, freePort, launchBrowser, newPage, see, type Service, sessionToken, startService, type Watched } from "../support/Browser.js"

const CLIENT_ID = "rubr-dashboard"
/** short enough that the dashboard renews it during the test (a minute before it expires) */
const ID_TOKEN_TTL_SECONDS = 70

let provider: Http.Server
let issuer: string
let service: Service
let browser: Browser
let watched: Watched
let page: Page

beforeAll(async () => {
  const [providerPort, servicePort] = [await freePort(), await freePort()]
  issuer = `http://127.0.0.1:${providerPort}`
  const { privateKey } = await jose.generateKeyPair("RS256", { extractable: true })
  const signingKey = { ...(await jose.exportJWK(privateKey)), kid: "test-rs256", alg: "RS256", use: "sig" }
  const oidc = new Provider(issuer, {
    clients: [{
      client_id: CLIENT_ID,
      token_endpoint_auth_method: "none",
      redirect_uris: [`http://127.0.0.1:${servicePort}/auth/callback`],
      post_logout_redirect_uris: [`http://127.0.0.1:${servicePort}/`],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"]
    }],
    jwks: { keys: [signingKey] },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, email: `${sub}@example.org`, email_verified: true, name: "Ada Lovelace" })
    }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // the claims of the granted scopes go in the ID token itself: it is what the service reads
    conformIdTokenClaims: false,
    // a public client (PKCE) gets refresh tokens without asking for offline_access
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed: (t: string) => boolean }) => client.grantTypeAllowed("refresh_token"),
    ttl: { IdToken: ID_TOKEN_TTL_SECONDS, AccessToken: ID_TOKEN_TTL_SECONDS, RefreshToken: 3600, Session: 3600, Interaction: 600, Grant: 3600 },
    cookies: { keys: ["a test cookie key that is long enough"] }
  } as never)
  provider = Http.createServer(oidc.callback())
  await new Promise<void>((resolve) => provider.listen(providerPort, "127.0.0.1", resolve))
  service = await startService({
    SERVICE_AUTH_ISSUER: issuer,
    SERVICE_AUTH_JWKS_URL: `${issuer}/jwks`,
    SERVICE_AUTH_AUDIENCE: CLIENT_ID,
    SERVICE_AUTH_ALLOWED_PROVIDERS: "oidc",
    SERVICE_DASHBOARD_OIDC_CLIENT_ID: CLIENT_ID
  }, servicePort)
  browser = await launchBrowser()
  watched = await newPage(browser)
  page = watched.page
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await service?.stop()
  provider?.close()
})

const check = (name: string) => expectCleanPage(watched, name)

describe("the dashboard with an OpenID provider", () => {
  it("offers the provider, not the dev sign-in (which does not exist); the CSP allows the provider's origin", async () => {
    const response = await page.goto(`${service.origin}/bundles`)
    expect(response!.headers()["content-security-policy"]).toContain(`connect-src 'self' ${issuer}`)
    await page.getByRole("heading", { name: "Sign in to rubr" }).waitFor()
    await see.count(page.getByRole("button", { name: "Continue as a local developer" }), 0)
    await page.getByRole("button", { name: `Continue with 127.0.0.1:${new URL(issuer).port}` }).waitFor()
    await check("sign-in-oidc")
    const dev = await fetch(`${service.baseUrl}/dev/sign-in`, { method: "POST" })
    expect(dev.status).toBe(404)
  })

  it("signs in with authorization code + PKCE; the ID token is the bearer, kept in sessionStorage only", async () => {
    const authorize: Array<string> = []
    page.on("request", (r) => r.url().startsWith(`${issuer}/auth`) && authorize.push(r.url()))
    await page.getByRole("button", { name: /Continue with/ }).click()
    // oidc-provider's own development login and consent pages
    await page.locator("input[name=login]").fill("ada")
    await page.locator("input[name=password]").fill("any password")
    await page.getByRole("button", { name: "Sign-in" }).click()
    await page.getByRole("button", { name: "Continue" }).click()
    await page.getByRole("heading", { name: "Bundles", level: 1 }).waitFor()
    const query = new URL(authorize[0]!).searchParams
    expect([query.get("response_type"), query.get("code_challenge_method"), query.get("client_id")]).toEqual(["code", "S256", CLIENT_ID])
    // back where it started, with nothing of the exchange left in the address bar
    expect(page.url()).toBe(`${service.origin}/bundles`)
    expect(await page.evaluate(() => (globalThis as any).localStorage.length)).toBe(0)
    const token = (await sessionToken(page))!
    const claims = jose.decodeJwt(token)
    expect([claims.iss, claims.aud, claims.sub, claims["email"]]).toEqual([issuer, CLIENT_ID, "ada", "ada@example.org"])
    await check("bundles-oidc")

    await page.getByRole("link", { name: "Account", exact: true }).click()
    await see.text(page.locator("[data-sign-in-provider]"), "OpenID Connect")
    await page.getByText("ada@example.org").first().waitFor()
  })

  it("renews the ID token before it expires (refresh token), and the service accepts the new one", async () => {
    const first = (await sessionToken(page))!
    await expect.poll(() => sessionToken(page), { timeout: 45_000, interval: 500 }).not.toBe(first)
    const renewed = (await sessionToken(page))!
    expect(jose.decodeJwt(renewed).exp!).toBeGreaterThan(jose.decodeJwt(first).exp!)
    const me = await fetch(`${service.baseUrl}/me`, { headers: { authorization: `Bearer ${renewed}` } })
    expect(me.status).toBe(200)
    await page.reload()
    await page.getByText("ada@example.org").first().waitFor()
  }, 60_000)

  it("signing out clears the token and the provider's stored user", async () => {
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("heading", { name: "Sign in to rubr" }).waitFor()
    expect(await page.evaluate(() => Object.keys((globalThis as any).sessionStorage).filter((k: string) => k !== "rubr.signedOut"))).toEqual([])
    expect(await page.evaluate(() => (globalThis as any).localStorage.length)).toBe(0)
  })
})
