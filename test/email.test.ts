import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { AppConfig } from "../src/config/AppConfig.js"
import { showOutbox } from "../src/email/DevOutbox.js"
import { Outbox } from "../src/email/Outbox.js"
import { generateToken, hashToken, UnsubscribeTokens } from "../src/email/UnsubscribeTokens.js"
import type { BodyOf } from "./support/Api.js"
import { inOneMinuteWindow, makeTestApp, TestApp, type TestAppShape } from "./support/TestApp.js"

const withoutRequestId = (text: string) => {
  const body = JSON.parse(text)
  const holder = body.error ?? body
  expect(typeof holder.requestId).toBe("string")
  delete holder.requestId
  return JSON.stringify(body)
}

/** The email services over the test app's database, as `npm run outbox` builds them. */
const emailServices = (app: TestAppShape) =>
  Outbox.Default.pipe(
    Layer.provideMerge(UnsubscribeTokens.Default),
    Layer.provide(Layer.succeed(SqlClient.SqlClient, app.sql)),
    Layer.provide(AppConfig.layer),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([
      ["SERVICE_PUBLIC_BASE_URL", app.baseUrl.replace(/\/api\/v1$/, "")]
    ]))))
  )

/** What a developer sees with `npm run outbox -- --to <address>`: the newest message and its link. */
const latestEmailTo = (app: TestAppShape, recipient: string) =>
  showOutbox({ limit: 1, recipient, links: true }).pipe(
    Effect.map((shown) => shown[0]),
    Effect.provide(emailServices(app))
  )

/** The API path of an emailed link (the links are the unsubscribe-token routes). */
const pathOf = (url: string) => new URL(url).pathname.replace(/^\/api\/v1/, "") as `/email/unsubscribe-tokens/${string}/consume`

const prefsOf = (app: TestAppShape, sub: string) =>
  Effect.promise(async () => app.request("GET", "/me/email-preferences", { token: await app.token(sub) }))

const newsletterOf = (body: BodyOf<"GET", "/me/email-preferences">) => body.data.optional.find((i) => i.key === "marketing_newsletter")!

const count = (app: TestAppShape, table: string, where = "true") =>
  Effect.map(app.sql.unsafe<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`), (r) => r[0].n)

layer(makeTestApp())("email preferences", (it) => {
  it.effect("a new account lists the newsletter off and the four must-receive categories on; nothing is subscribed", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const reply = yield* prefsOf(app, "prefs-new")
      expect(reply.status).toBe(200)
      expect(reply.body.data.optional).toHaveLength(1)
      expect(newsletterOf(reply.body)).toMatchObject({
        key: "marketing_newsletter",
        enabled: false,
        canDisable: true
      })
      expect(typeof newsletterOf(reply.body).label).toBe("string")
      expect(typeof newsletterOf(reply.body).description).toBe("string")
      expect(new Date(newsletterOf(reply.body).updatedAt).toISOString()).toBe(newsletterOf(reply.body).updatedAt)
      expect(reply.body.data.mustReceive.map((i) => i.key)).toEqual([
        "account_security",
        "service_critical",
        "billing",
        "legal"
      ])
      for (const item of reply.body.data.mustReceive) expect(item).toMatchObject({ enabled: true, canDisable: false })
      // never subscribed automatically at account creation, and nothing was sent
      expect(yield* count(app, "email_preferences", "email = 'prefs-new@example.com'")).toBe(0)
      expect(yield* count(app, "email_outbox", "recipient = 'prefs-new@example.com'")).toBe(0)
    }))

  it.effect("login tokens only: no token is 401, an API key is 403", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const key = yield* Effect.promise(() => app.apiKey("prefs-key", ["files:read"]))
      const none = yield* Effect.promise(() => app.request("GET", "/me/email-preferences"))
      expect(none.status).toBe(401)
      expect(none.body.error.code).toBe("unauthorized")
      const withKey = yield* Effect.promise(() => app.request("GET", "/me/email-preferences", { token: key }))
      expect(withKey.status).toBe(403)
      const patch = yield* Effect.promise(() =>
        app.request("PATCH", "/me/email-preferences", {
          token: key,
          body: { preferences: [{ category: "marketing_newsletter", enabled: true }] }
        })
      )
      expect(patch.status).toBe(403)
    }))

  it.effect("patching a must-receive or unknown category is 400 naming each, and nothing changes (all or nothing)", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const token = yield* Effect.promise(() => app.token("prefs-bad"))
      const reply = yield* Effect.promise(() =>
        app.request("PATCH", "/me/email-preferences", {
          token,
          body: {
            preferences: [
              { category: "marketing_newsletter", enabled: true },
              { category: "account_security", enabled: false },
              { category: "no_such_thing", enabled: true }
            ]
          }
        })
      )
      expect(reply.status).toBe(400)
      expect(reply.body.error.code).toBe("validation_failed")
      expect(reply.body.error.details).toEqual([
        { path: "preferences.1.category", message: expect.stringContaining("account_security") },
        { path: "preferences.2.category", message: expect.stringContaining("no_such_thing") }
      ])
      expect(reply.body.error.message).toContain("must-receive")
      const after = yield* prefsOf(app, "prefs-bad")
      expect(newsletterOf(after.body).enabled).toBe(false)
      expect(yield* count(app, "email_preferences", "email = 'prefs-bad@example.com'")).toBe(0)
      expect(yield* count(app, "email_outbox", "recipient = 'prefs-bad@example.com'")).toBe(0)

      // each must-receive category, even when "enabling" it
      for (const category of ["account_security", "service_critical", "billing", "legal"]) {
        const one = yield* Effect.promise(() =>
          app.request("PATCH", "/me/email-preferences", { token, body: { preferences: [{ category, enabled: true }] } })
        )
        expect(one.status).toBe(400)
        expect(one.body.error.details[0].path).toBe("preferences.0.category")
        expect(one.body.error.details[0].message).toContain(category)
      }
      // a malformed body is a 400 too
      const malformed = yield* Effect.promise(() =>
        app.request("PATCH", "/me/email-preferences", { token, body: { preferences: [{ category: "marketing_newsletter" }] } })
      )
      expect(malformed.status).toBe(400)
      expect(malformed.body.error.code).toBe("validation_failed")
    }))

  it.effect("turning the newsletter on sends one confirmation; repeating it sends none; turning it off works", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const token = yield* Effect.promise(() => app.token("prefs-on", { email: "  Prefs-On@Example.com" }))
      const patch = (enabled: boolean) =>
        Effect.promise(() =>
          app.request("PATCH", "/me/email-preferences", {
            token,
            body: { preferences: [{ category: "marketing_newsletter", enabled }] }
          })
        )
      const on = yield* patch(true)
      expect(on.status).toBe(200)
      expect(newsletterOf(on.body).enabled).toBe(true)
      expect(on.body.data.mustReceive).toHaveLength(4)
      expect(yield* count(app, "email_outbox", "recipient = 'prefs-on@example.com' AND status = 'held'")).toBe(1)
      const again = yield* patch(true)
      expect(newsletterOf(again.body).enabled).toBe(true)
      expect(yield* count(app, "email_outbox", "recipient = 'prefs-on@example.com'")).toBe(1)
      const off = yield* patch(false)
      expect(newsletterOf(off.body).enabled).toBe(false)
      expect(new Date(newsletterOf(off.body).updatedAt).getTime()).toBeGreaterThanOrEqual(
        new Date(newsletterOf(on.body).updatedAt).getTime()
      )
      const empty = yield* Effect.promise(() => app.request("PATCH", "/me/email-preferences", { token, body: { preferences: [] } }))
      expect(empty.status).toBe(200)
    }))

  it.effect("an account without a verified email cannot turn an optional category on", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const token = yield* Effect.promise(() => app.token("prefs-unverified", { extraClaims: { email_verified: false } }))
      const reply = yield* Effect.promise(() =>
        app.request("PATCH", "/me/email-preferences", {
          token,
          body: { preferences: [{ category: "marketing_newsletter", enabled: true }] }
        })
      )
      expect(reply.status).toBe(400)
      expect(reply.body.error.details).toEqual([{ path: "preferences.0.enabled", message: expect.any(String) }])
    }))
})

layer(makeTestApp())("newsletter and one-click unsubscribe", (it) => {
  it.effect("subscribe validates: a valid email and consent true; addresses are normalized", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const post = (body: unknown) => Effect.promise(() => app.request("POST", "/newsletter/subscriptions", { body }))
      for (
        const body of [
          { email: "not-an-email", consent: true },
          { email: "a@b", consent: true },
          { email: "two@@example.com", consent: true },
          { email: "", consent: true },
          { email: "ok@example.com", consent: false },
          { email: "ok@example.com" },
          { consent: true }
        ]
      ) {
        const reply = yield* post(body)
        expect(reply.status, JSON.stringify(body)).toBe(400)
        expect(reply.body.error.code).toBe("validation_failed")
        expect(reply.body.error.details.length).toBeGreaterThan(0)
      }
      const consent = yield* post({ email: "ok@example.com", consent: false })
      expect(consent.body.error.details[0].path).toBe("consent")
      expect(yield* count(app, "email_preferences", "email = 'ok@example.com'")).toBe(0)

      const reply = yield* post({ email: "  Mixed.Case+Tag@Example.COM \n", consent: true })
      expect(reply.status).toBe(200)
      expect(reply.body.data.accepted).toBe(true)
      const [row] = yield* app.sql<{ enabled: boolean; consentAt: Date | null }>`
        SELECT enabled, consent_at FROM email_preferences WHERE email = 'mixed.case+tag@example.com'`
      expect(row.enabled).toBe(true)
      expect(row.consentAt).not.toBeNull()
      expect(yield* count(app, "email_outbox", "recipient = 'mixed.case+tag@example.com' AND kind = 'newsletter_subscribed'")).toBe(1)
    }))

  it.effect("subscribe answers byte for byte the same for a user's, a subscriber's and an unknown address", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      yield* prefsOf(app, "enum-user") // enum-user@example.com is an account
      const post = (email: string) =>
        Effect.promise(() => app.request("POST", "/newsletter/subscriptions", { body: { email, consent: true } }))
      const user = yield* post("enum-user@example.com")
      const subscriberAgain = yield* post("enum-user@example.com")
      const stranger = yield* post("nobody-here@example.org")
      expect(user.status).toBe(200)
      expect(stranger.status).toBe(200)
      expect(withoutRequestId(user.text)).toBe(withoutRequestId(stranger.text))
      expect(withoutRequestId(subscriberAgain.text)).toBe(withoutRequestId(stranger.text))
      expect(user.headers.get("content-type")).toBe(stranger.headers.get("content-type"))
      // the same work on every path: one consent row and one confirmation each time
      expect(yield* count(app, "email_outbox", "recipient = 'enum-user@example.com'")).toBe(2)
      expect(yield* count(app, "email_outbox", "recipient = 'nobody-here@example.org'")).toBe(1)
      // and the account's preference shows it
      expect(newsletterOf((yield* prefsOf(app, "enum-user")).body).enabled).toBe(true)
    }))

  it.effect("unsubscribe by email changes no state, emails a subscriber a link, and answers the same for anyone", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      yield* Effect.promise(() =>
        app.request("POST", "/newsletter/subscriptions", { body: { email: "unsub-sub@example.com", consent: true } })
      )
      yield* prefsOf(app, "unsub-user") // an account that never subscribed
      const post = (email: string) => Effect.promise(() => app.request("POST", "/newsletter/unsubscribe", { body: { email } }))
      const subscribed = yield* post("Unsub-Sub@example.com ")
      const accountOnly = yield* post("unsub-user@example.com")
      const stranger = yield* post("unsub-nobody@example.net")
      expect(subscribed.status).toBe(200)
      expect(subscribed.body.data.accepted).toBe(true)
      expect(withoutRequestId(subscribed.text)).toBe(withoutRequestId(stranger.text))
      expect(withoutRequestId(accountOnly.text)).toBe(withoutRequestId(stranger.text))

      // rule 3: the request itself changes nothing
      const [pref] = yield* app.sql<{ enabled: boolean }>`
        SELECT enabled FROM email_preferences WHERE email = 'unsub-sub@example.com'`
      expect(pref.enabled).toBe(true)
      expect(yield* count(app, "email_preferences", "email IN ('unsub-user@example.com', 'unsub-nobody@example.net')")).toBe(0)
      // the subscriber gets the link; the others' messages are written the same way but suppressed
      const statuses = yield* app.sql<{ recipient: string; status: string }>`
        SELECT recipient, status FROM email_outbox WHERE kind = 'newsletter_unsubscribe_link' ORDER BY recipient`
      expect(statuses).toEqual([
        { recipient: "unsub-nobody@example.net", status: "suppressed" },
        { recipient: "unsub-sub@example.com", status: "held" },
        { recipient: "unsub-user@example.com", status: "suppressed" }
      ])

      const invalid = yield* post("nope")
      expect(invalid.status).toBe(400)
      expect(invalid.body.error.details[0].path).toBe("email")

      // the emailed link does the unsubscribing
      const email = yield* latestEmailTo(app, "unsub-sub@example.com")
      expect(email.row.kind).toBe("newsletter_unsubscribe_link")
      expect(email.text).toContain(email.unsubscribeUrl!)
      const consumed = yield* Effect.promise(() => app.request("POST", pathOf(email.unsubscribeUrl!)))
      expect(consumed.status).toBe(200)
      const [after] = yield* app.sql<{ enabled: boolean }>`
        SELECT enabled FROM email_preferences WHERE email = 'unsub-sub@example.com'`
      expect(after.enabled).toBe(false)
    }))

  it.effect("a new user's path: subscribe, read the confirmation in the outbox, follow its link, see the preference off", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const token = yield* Effect.promise(() => app.token("walker", { email: "Walker@Example.com" }))
      const sub = yield* Effect.promise(() =>
        app.request("POST", "/newsletter/subscriptions", { token, body: { email: "walker@example.com", consent: true } })
      )
      expect(sub.status).toBe(200)
      expect(newsletterOf((yield* prefsOf(app, "walker")).body).enabled).toBe(true)

      const email = yield* latestEmailTo(app, "walker@example.com")
      expect(email.row).toMatchObject({ kind: "newsletter_subscribed", status: "held", category: "marketing_newsletter" })
      expect(email.unsubscribeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/email\/unsubscribe-tokens\/[A-Za-z0-9_-]{43}\/consume$/)
      expect(email.text).toContain(email.unsubscribeUrl!)

      // the browser's view of the link: a page with one button; opening it changes nothing
      const page = yield* Effect.promise(() => app.request("GET", pathOf(email.unsubscribeUrl!)))
      expect(page.status).toBe(200)
      expect(page.headers.get("content-type")).toContain("text/html")
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'")
      expect(page.headers.get("referrer-policy")).toBe("no-referrer")
      expect(page.text).toContain("<form method=\"post\">")
      expect(newsletterOf((yield* prefsOf(app, "walker")).body).enabled).toBe(true)

      const consumed = yield* Effect.promise(() => app.request("POST", pathOf(email.unsubscribeUrl!)))
      expect(consumed.status).toBe(200)
      expect(consumed.body.data).toEqual({ accepted: true, category: "marketing_newsletter", message: expect.any(String) })
      expect(newsletterOf((yield* prefsOf(app, "walker")).body).enabled).toBe(false)
    }))

  it.effect("a token is single use: the second consume and unknown or malformed tokens are 400 and change nothing", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const address = "single@example.com"
      yield* Effect.promise(() => app.request("POST", "/newsletter/subscriptions", { body: { email: address, consent: true } }))
      const email = yield* latestEmailTo(app, address)
      const path = pathOf(email.unsubscribeUrl!)
      expect((yield* Effect.promise(() => app.request("POST", path))).status).toBe(200)

      // subscribe again: a replayed (spent) token must not turn it off
      yield* Effect.promise(() => app.request("POST", "/newsletter/subscriptions", { body: { email: address, consent: true } }))
      const second = yield* Effect.promise(() => app.request("POST", path))
      expect(second.status).toBe(400)
      expect(second.body.error.code).toBe("validation_failed")
      expect(second.body.error.details).toEqual([{ path: "token", message: expect.any(String) }])
      const unknown = yield* Effect.promise(() => app.request("POST", `/email/unsubscribe-tokens/${generateToken()}/consume`))
      const malformed = yield* Effect.promise(() => app.request("POST", "/email/unsubscribe-tokens/short/consume"))
      expect(unknown.status).toBe(400)
      expect(malformed.status).toBe(400)
      // no oracle: a spent and an unknown token read the same
      expect(withoutRequestId(second.text)).toBe(withoutRequestId(unknown.text))
      const [row] = yield* app.sql<{ enabled: boolean }>`SELECT enabled FROM email_preferences WHERE email = ${address}`
      expect(row.enabled).toBe(true)
    }))

  it.effect("concurrent consumption of one token: exactly one succeeds", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const address = "race@example.com"
      yield* Effect.promise(() => app.request("POST", "/newsletter/subscriptions", { body: { email: address, consent: true } }))
      const email = yield* latestEmailTo(app, address)
      const path = pathOf(email.unsubscribeUrl!)
      const replies = yield* Effect.promise(() => Promise.all(Array.from({ length: 12 }, () => app.request("POST", path))))
      expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
      expect(replies.filter((r) => r.status === 400)).toHaveLength(11)
      const [token] = yield* app.sql<{ consumedAt: Date | null }>`
        SELECT consumed_at FROM email_unsubscribe_tokens WHERE token_hash = ${hashToken(path.split("/")[3])}`
      expect(token.consumedAt).not.toBeNull()
    }))

  it.effect("tokens are stored only as hashes, bound to one address and one optional category", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const address = "hashes@example.com"
      yield* Effect.promise(() => app.request("POST", "/newsletter/subscriptions", { body: { email: address, consent: true } }))
      const email = yield* latestEmailTo(app, address)
      const raw = pathOf(email.unsubscribeUrl!).split("/")[3]
      const rows = yield* app.sql<{ tokenHash: Buffer; email: string; category: string; outboxId: string }>`
        SELECT token_hash, email, category, outbox_id FROM email_unsubscribe_tokens WHERE email = ${address}`
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ email: address, category: "marketing_newsletter", outboxId: email.row.id })
      expect(Buffer.from(rows[0].tokenHash).equals(hashToken(raw))).toBe(true)
      // the raw token appears nowhere in the database's email tables
      const leaks = yield* app.sql<{ n: number }>`
        SELECT (SELECT count(*) FROM email_outbox WHERE body_text LIKE ${"%" + raw + "%"} OR subject LIKE ${"%" + raw + "%"})
             + (SELECT count(*) FROM email_unsubscribe_tokens WHERE encode(token_hash, 'escape') LIKE ${"%" + raw + "%"}) AS n`
      expect(leaks[0].n).toBe(0)
    }))

  it.effect("must-receive emails get no token; the database refuses one for them", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const shown = yield* Effect.gen(function*() {
        const outbox = yield* Outbox
        const row = yield* outbox.enqueue({
          to: "notice@example.com",
          category: "account_security",
          kind: "test_security_notice",
          subject: "A new API key was created",
          text: "A new API key was created on your account."
        }).pipe(app.sql.withTransaction, Effect.orDie)
        expect(row.status).toBe("held") // must-receive: never suppressed
        return yield* showOutbox({ limit: 1, recipient: "notice@example.com", links: true })
      }).pipe(Effect.provide(emailServices(app)))
      expect(shown[0].unsubscribeUrl).toBeNull()
      expect(shown[0].text).not.toContain("unsubscribe")
      expect(yield* count(app, "email_unsubscribe_tokens", "email = 'notice@example.com'")).toBe(0)
      const refused = yield* app.sql`
        INSERT INTO email_unsubscribe_tokens (token_hash, email, category)
        VALUES (${hashToken(generateToken())}, 'notice@example.com', 'account_security')`.pipe(Effect.flip)
      expect((refused.cause as { code?: string }).code).toBe("23503") // foreign_key_violation
    }))

  it.effect("an Authorization header, valid or not, neither helps nor hurts on the public routes", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const token = yield* Effect.promise(() => app.token("anyone"))
      const body = { email: "header@example.com", consent: true }
      const none = yield* Effect.promise(() => app.request("POST", "/newsletter/subscriptions", { body }))
      const login = yield* Effect.promise(() => app.request("POST", "/newsletter/subscriptions", { token, body }))
      const garbage = yield* Effect.promise(() => app.request("POST", "/newsletter/subscriptions", { token: "nonsense", body }))
      expect([none.status, login.status, garbage.status]).toEqual([200, 200, 200])
      expect(withoutRequestId(login.text)).toBe(withoutRequestId(none.text))
      expect(withoutRequestId(garbage.text)).toBe(withoutRequestId(none.text))
    }))
})

layer(makeTestApp({ env: { SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "3" } }))("public-route IP throttling", (it) => {
  it.effect("the fourth request of a minute from one IP is 429 with Retry-After; X-Forwarded-For is not trusted", () =>
    Effect.gen(function*() {
      yield* inOneMinuteWindow()
      const app = yield* TestApp
      const replies = []
      for (let i = 0; i < 4; i++) {
        replies.push(
          yield* Effect.promise(() =>
            app.request("POST", "/newsletter/unsubscribe", {
              body: { email: `throttle${i}@example.com` },
              headers: { "x-forwarded-for": `198.51.100.${i}` }
            })
          )
        )
      }
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429])
      const limited = replies[3]
      expect(limited.body.error.code).toBe("rate_limit_exceeded")
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
      const consume = yield* Effect.promise(() => app.request("POST", `/email/unsubscribe-tokens/${generateToken()}/consume`))
      expect(consume.status).toBe(429)
      const buckets = yield* app.sql<{ bucket: string }>`SELECT bucket FROM rate_limit_counters WHERE bucket LIKE 'ip:%'`
      expect(buckets.map((b) => b.bucket)).toEqual(["ip:127.0.0.1"])
    }))
})

layer(makeTestApp({ env: { SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "2", SERVICE_TRUST_PROXY: "true" } }))(
  "public-route IP throttling behind a trusted proxy",
  (it) => {
    it.effect("the last X-Forwarded-For address (the one our proxy appended) is the client; what a client wrote before it is not", () =>
      Effect.gen(function*() {
        yield* inOneMinuteWindow()
        const app = yield* TestApp
        const from = (xff: string) =>
          Effect.promise(() =>
            app.request("POST", "/newsletter/subscriptions", {
              body: { email: "proxy@example.com", consent: true },
              headers: { "x-forwarded-for": xff }
            })
          )
        // a client that sends its own header, made up anew each time, behind a proxy that appends
        expect((yield* from("10.9.9.1, 203.0.113.7")).status).toBe(200)
        expect((yield* from("10.9.9.2, 203.0.113.7")).status).toBe(200)
        expect((yield* from("203.0.113.7")).status).toBe(429)
        expect((yield* from("203.0.113.7, 203.0.113.8")).status).toBe(200)
        const buckets = yield* app.sql<{ bucket: string }>`
          SELECT bucket FROM rate_limit_counters WHERE bucket LIKE 'ip:%' ORDER BY bucket`
        expect(buckets.map((b) => b.bucket)).toEqual(["ip:203.0.113.7", "ip:203.0.113.8"])
      }))
  }
)
