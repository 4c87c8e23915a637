/**
 * SERVICE_EMAIL_SEND_ENABLED=true: the outbox is delivered by the rubr_email_send worker task over SMTP
 * to a local SMTP sink on loopback (smtp-server), with retries.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Clock, ConfigProvider, Context, Effect, Layer } from "effect"
import { SMTPServer } from "smtp-server"
import { AppConfig } from "../src/config/AppConfig.js"
import { Outbox } from "../src/email/Outbox.js"
import { UnsubscribeTokens } from "../src/email/UnsubscribeTokens.js"
import { makeTestApp, TestApp, type TestAppShape } from "./support/TestApp.js"

interface Received {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly headers: Record<string, string>
  readonly text: string
}

interface SinkShape {
  readonly port: number
  readonly received: Array<Received>
  /** Recipients whose first delivery attempt the sink refuses with a temporary error. */
  readonly refuseOnce: Set<string>
  readonly refused: Array<string>
}

class Sink extends Context.Tag("test/SmtpSink")<Sink, SinkShape>() {}

const parse = (raw: string, from: string, to: ReadonlyArray<string>): Received => {
  const split = raw.indexOf("\r\n\r\n")
  const headers: Record<string, string> = {}
  for (const line of raw.slice(0, split).replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":")
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  let text = raw.slice(split + 4)
  if (/quoted-printable/i.test(headers["content-transfer-encoding"] ?? "")) {
    text = text.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)))
  }
  return { from, to, headers, text: text.replace(/\r\n/g, "\n") }
}

const SinkLive = Layer.scoped(
  Sink,
  Effect.acquireRelease(
    Effect.async<{ shape: SinkShape; server: SMTPServer }>((resume) => {
      const received: Array<Received> = []
      const refuseOnce = new Set<string>()
      const refused: Array<string> = []
      const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS"],
        logger: false,
        onData(stream, session, callback) {
          const chunks: Array<Buffer> = []
          stream.on("data", (c: Buffer) => chunks.push(c))
          stream.on("end", () => {
            const to = session.envelope.rcptTo.map((r) => r.address)
            if (to.some((r) => refuseOnce.delete(r))) {
              refused.push(...to)
              const error = Object.assign(new Error("mailbox busy, try again later"), { responseCode: 451 })
              return callback(error)
            }
            const from = session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address
            received.push(parse(Buffer.concat(chunks).toString("utf8"), from, to))
            callback()
          })
        }
      })
      const net = server.listen(0, "127.0.0.1", () => {
        const address = net.address()
        const port = typeof address === "object" && address ? address.port : 0
        resume(Effect.succeed({ shape: { port, received, refuseOnce, refused }, server }))
      })
    }),
    ({ server }) => Effect.async<void>((resume) => server.close(() => resume(Effect.void)))
  ).pipe(Effect.map(({ shape }) => shape))
)

const AppWithSink = Layer.unwrapEffect(
  Effect.map(Sink, (sink) =>
    makeTestApp({
      role: "all",
      env: {
        SERVICE_EMAIL_SEND_ENABLED: "true",
        SERVICE_SMTP_HOST: "127.0.0.1",
        SERVICE_SMTP_PORT: String(sink.port),
        SERVICE_EMAIL_FROM: "rubr <no-reply@rubr.test>",
        SERVICE_PUBLIC_BASE_URL: "http://rubr.test"
      }
    }))
).pipe(Layer.provideMerge(SinkLive))

const waitFor = <A>(what: string, probe: () => A | undefined, timeoutMs = 20_000) =>
  Effect.promise(async () => {
    const started = Date.now()
    for (;;) {
      const value = probe()
      if (value !== undefined) return value
      if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  })

const mailTo = (sink: SinkShape, address: string) => () => sink.received.find((m) => m.to.includes(address))

const outboxRow = (app: TestAppShape, recipient: string) =>
  Effect.map(
    app.sql<{ status: string; attempts: number; lastError: string | null; messageId: string | null; sentAt: Date | null }>`
      SELECT status, attempts, last_error, message_id, sent_at FROM email_outbox WHERE recipient = ${recipient}
      ORDER BY seq DESC LIMIT 1`,
    (rows) => rows[0]
  )

/** it.effect runs on the TestClock; the worker does not, so waiting for it needs the live clock. */
const sleep = (ms: number) => Effect.sleep(ms).pipe(Effect.withClock(Clock.make()))

const waitForStatus = (app: TestAppShape, recipient: string, status: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 200; i++) {
      const row = yield* outboxRow(app, recipient)
      if (row?.status === status) return row
      yield* sleep(100)
    }
    throw new Error(`outbox row for ${recipient} never reached ${status}`)
  })

layer(AppWithSink, { timeout: "60 seconds" })("SMTP delivery", (it) => {
  it.effect("a subscription confirmation is delivered with List-Unsubscribe headers, and its link unsubscribes", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const sink = yield* Sink
      const reply = yield* Effect.promise(() =>
        app.request("POST", "/newsletter/subscriptions", { body: { email: "Reader@Example.com", consent: true } })
      )
      expect(reply.status).toBe(200)
      const mail = yield* waitFor("the confirmation", mailTo(sink, "reader@example.com"))
      expect(mail.from).toBe("no-reply@rubr.test")
      expect(mail.headers["subject"]).toContain("subscribed")
      const link = /^<(http:\/\/rubr\.test\/api\/v1\/email\/unsubscribe-tokens\/([A-Za-z0-9_-]{43})\/consume)>$/.exec(
        mail.headers["list-unsubscribe"].replace(/\s+/g, "")
      )
      expect(link).not.toBeNull()
      expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click")
      expect(mail.text).toContain(link![1])
      expect(mail.headers["message-id"]).toMatch(/@rubr\.test>$/)

      const row = yield* waitForStatus(app, "reader@example.com", "sent")
      expect(row.attempts).toBe(1)
      expect(row.sentAt).not.toBeNull()
      expect(row.messageId).toBe(mail.headers["message-id"])

      const consumed = yield* Effect.promise(() => app.request("POST", `/email/unsubscribe-tokens/${link![2]}/consume`))
      expect(consumed.status).toBe(200)
      expect(consumed.body.data.category).toBe("marketing_newsletter")
      const [pref] = yield* app.sql<{ enabled: boolean }>`
        SELECT enabled FROM email_preferences WHERE email = 'reader@example.com'`
      expect(pref.enabled).toBe(false)
      const again = yield* Effect.promise(() => app.request("POST", `/email/unsubscribe-tokens/${link![2]}/consume`))
      expect(again.status).toBe(400)
    }))

  it.effect("a must-receive notice goes out without an unsubscribe link or List-Unsubscribe header", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const sink = yield* Sink
      yield* Effect.gen(function*() {
        const outbox = yield* Outbox
        yield* outbox.enqueue({
          to: "owner@example.com",
          category: "account_security",
          kind: "test_security_notice",
          subject: "A new API key was created",
          text: "A new API key was created on your account."
        }).pipe(app.sql.withTransaction, Effect.orDie)
      }).pipe(
        Effect.provide(
          Outbox.Default.pipe(
            Layer.provide(UnsubscribeTokens.Default),
            Layer.provide(Layer.succeed(SqlClient.SqlClient, app.sql)),
            Layer.provide(AppConfig.layer),
            Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["SERVICE_EMAIL_SEND_ENABLED", "true"]]))))
          )
        )
      )
      const mail = yield* waitFor("the notice", mailTo(sink, "owner@example.com"))
      expect(mail.headers["list-unsubscribe"]).toBeUndefined()
      expect(mail.headers["x-rubr-category"]).toBe("account_security")
      expect(mail.text).not.toMatch(/unsubscribe/i)
      expect(
        (yield* app.sql<{ n: number }>`SELECT count(*)::int AS n FROM email_unsubscribe_tokens WHERE email = 'owner@example.com'`)[0].n
      ).toBe(0)
    }))

  it.effect("a refused delivery is retried by the worker and then marked sent", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const sink = yield* Sink
      sink.refuseOnce.add("retry@example.com")
      yield* Effect.promise(() =>
        app.request("POST", "/newsletter/subscriptions", { body: { email: "retry@example.com", consent: true } })
      )
      yield* waitFor("the refusal", () => (sink.refused.includes("retry@example.com") ? true : undefined))
      let failed = yield* outboxRow(app, "retry@example.com")
      for (let i = 0; i < 50 && failed.attempts === 0; i++) {
        yield* sleep(100)
        failed = yield* outboxRow(app, "retry@example.com")
      }
      expect(failed).toMatchObject({ status: "pending", attempts: 1 })
      expect(failed.lastError).toContain("451")
      yield* waitFor("the retried delivery", mailTo(sink, "retry@example.com"), 30_000)
      const row = yield* waitForStatus(app, "retry@example.com", "sent")
      expect(row.attempts).toBe(2)
    }))

  it.effect("an unsubscribe request for an address that is not subscribed is written but never sent", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const sink = yield* Sink
      const reply = yield* Effect.promise(() =>
        app.request("POST", "/newsletter/unsubscribe", { body: { email: "stranger@example.com" } })
      )
      expect(reply.status).toBe(200)
      // the job ran (its queue is empty) and left the row suppressed
      for (let i = 0; i < 100; i++) {
        const [jobs] = yield* app.sql<{ n: number }>`SELECT count(*)::int AS n FROM graphile_worker.jobs`
        if (jobs.n === 0) break
        yield* sleep(100)
      }
      const row = yield* outboxRow(app, "stranger@example.com")
      expect(row.status).toBe("suppressed")
      expect(sink.received.some((m) => m.to.includes("stranger@example.com"))).toBe(false)
    }))
})
