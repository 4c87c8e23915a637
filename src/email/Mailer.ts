/** SMTP delivery with nodemailer, configured by the SERVICE_SMTP_* settings (see docs/email.md). */
import { Data, Effect, Option, Redacted } from "effect"
import nodemailer from "nodemailer"
import { AppConfig } from "../config/AppConfig.js"
import type { RenderedEmail } from "./Outbox.js"

export class SendFailed extends Data.TaggedError("SendFailed")<{ readonly message: string }> {}

/** The headers of a one-click unsubscribe (RFC 2369 and RFC 8058). */
export const listUnsubscribeHeaders = (url: string): Record<string, string> => ({
  "List-Unsubscribe": `<${url}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"
})

const domainOf = (from: string) => /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "rubr.local"

export class Mailer extends Effect.Service<Mailer>()("rubr/Mailer", {
  scoped: Effect.gen(function*() {
    const { email } = yield* AppConfig
    const transport = yield* Effect.acquireRelease(
      Effect.sync(() =>
        nodemailer.createTransport({
          host: email.smtpHost,
          port: email.smtpPort,
          secure: email.smtpSecure,
          ...(Option.isSome(email.smtpUser)
            ? {
              auth: {
                user: email.smtpUser.value,
                pass: Option.match(email.smtpPassword, { onNone: () => "", onSome: Redacted.value })
              }
            }
            : {}),
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000
        })
      ),
      (t) => Effect.sync(() => t.close())
    )
    const messageDomain = domainOf(email.from)

    const send = Effect.fn("Mailer.send")(function*(message: RenderedEmail) {
      const info = yield* Effect.tryPromise({
        try: () =>
          transport.sendMail({
            from: email.from,
            to: message.to,
            subject: message.subject,
            text: message.text,
            messageId: `<${message.id}@${messageDomain}>`,
            headers: {
              "X-Rubr-Category": message.category,
              ...(message.unsubscribeUrl === null ? {} : listUnsubscribeHeaders(message.unsubscribeUrl))
            }
          }),
        catch: (cause) => new SendFailed({ message: cause instanceof Error ? cause.message : String(cause) })
      })
      return { messageId: info.messageId }
    })

    return { send } as const
  })
}) {}
