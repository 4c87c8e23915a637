/**
 * Email preferences (login tokens only) and the newsletter / one-click unsubscribe routes. The latter
 * are public: no token is needed and an Authorization header, if sent, is ignored (see docs/email.md).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Authentication } from "../auth/Authentication.js"
import { Access, access } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"
import { Envelope, Timestamp } from "../http/Envelope.js"
import { EmailAddress } from "./Address.js"

export const EmailPreferenceItem = Schema.Struct({
  key: Schema.String,
  label: Schema.String,
  description: Schema.String,
  enabled: Schema.Boolean,
  canDisable: Schema.Boolean,
  updatedAt: Timestamp
}).annotations({ identifier: "EmailPreferenceItem" })

export const EmailPreferencesData = Schema.Struct({
  optional: Schema.Array(EmailPreferenceItem),
  mustReceive: Schema.Array(EmailPreferenceItem)
}).annotations({ identifier: "EmailPreferences" })

export const UpdateEmailPreferences = Schema.Struct({
  preferences: Schema.Array(Schema.Struct({
    category: Schema.String.annotations({ description: "An optional category key, e.g. marketing_newsletter" }),
    enabled: Schema.Boolean
  }))
})

export const NewsletterSubscription = Schema.Struct({
  email: EmailAddress,
  consent: Schema.Literal(true).annotations({
    description: "Must be true: the person consents to receive the newsletter",
    message: () => "consent must be true to subscribe"
  })
})

export const NewsletterUnsubscribe = Schema.Struct({ email: EmailAddress })

const Accepted = Schema.Struct({ accepted: Schema.Boolean, message: Schema.String })
const Consumed = Schema.Struct({ accepted: Schema.Boolean, category: Schema.String, message: Schema.String })
const TokenParam = Schema.Struct({ token: Schema.String })

export class EmailPreferencesApi extends HttpApiGroup.make("emailPreferences")
  .add(
    HttpApiEndpoint.get("getEmailPreferences", "/me/email-preferences")
      .addSuccess(Envelope(EmailPreferencesData))
      .pipe(statuses(401))
      .annotate(Access, access.loginOnly)
      .annotate(OpenApi.Summary, "Get email preferences")
      .annotate(
        OpenApi.Description,
        "The caller's optional categories (`optional`; each off until enabled, the newsletter until explicitly subscribed) and the categories every account receives (`mustReceive`)."
      )
  )
  .add(
    HttpApiEndpoint.patch("updateEmailPreferences", "/me/email-preferences")
      .setPayload(UpdateEmailPreferences)
      .addSuccess(Envelope(EmailPreferencesData))
      .pipe(statuses(400, 401))
      .annotate(Access, access.loginOnly)
      .annotate(OpenApi.Summary, "Update email preferences")
      .annotate(
        OpenApi.Description,
        "Turns optional categories on or off. " +
          "All or nothing: an unknown or must-receive category fails the whole request with 400 validation_failed, one detail per entry."
      )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Email preferences")
  .annotate(
    OpenApi.Description,
    "The caller's email categories. " +
      "Optional categories are off until enabled; must-receive categories (account security, critical service or account notices, required legal notices) cannot be turned off. " +
      "Login tokens only."
  )
{}

export class NewsletterApi extends HttpApiGroup.make("newsletter")
  .add(
    HttpApiEndpoint.post("subscribeNewsletter", "/newsletter/subscriptions")
      .setPayload(NewsletterSubscription)
      .addSuccess(Envelope(Accepted))
      .pipe(statuses(400, 429))
      .annotate(Access, access.public)
      .annotate(OpenApi.Summary, "Subscribe to the newsletter")
      .annotate(
        OpenApi.Description,
        "Subscribes the address (`consent` must be true) and emails it a confirmation with a one-click unsubscribe link. " +
          "The answer is the same for every valid address."
      )
  )
  .add(
    HttpApiEndpoint.post("unsubscribeNewsletter", "/newsletter/unsubscribe")
      .setPayload(NewsletterUnsubscribe)
      .addSuccess(Envelope(Accepted))
      .pipe(statuses(400, 429))
      .annotate(Access, access.public)
      .annotate(
        OpenApi.Description,
        "Changes nothing by itself: emails a subscribed address a one-click unsubscribe link. The answer is the same for every valid address."
      )
      .annotate(OpenApi.Summary, "Request an unsubscribe link")
  )
  .add(
    HttpApiEndpoint.post("consumeUnsubscribeToken", "/email/unsubscribe-tokens/:token/consume")
      .setPath(TokenParam)
      .addSuccess(Envelope(Consumed))
      .pipe(statuses(400, 429))
      .annotate(Access, access.public)
      .annotate(
        OpenApi.Description,
        "Spends a one-click unsubscribe token and turns its category off. An unknown or already used token: 400, nothing changes."
      )
      .annotate(OpenApi.Summary, "Unsubscribe with a one-click token")
  )
  .add(
    HttpApiEndpoint.get("unsubscribePage", "/email/unsubscribe-tokens/:token/consume")
      .setPath(TokenParam)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/html" }))
      .pipe(statuses(429))
      .annotate(Access, access.public)
      .annotate(
        OpenApi.Description,
        "The page a browser opens from the link in an email: one button that POSTs to this same URL. Opening it changes nothing."
      )
      .annotate(OpenApi.Summary, "Show the unsubscribe page")
  )
  .annotate(OpenApi.Title, "Newsletter and unsubscribe")
  .annotate(
    OpenApi.Description,
    "Newsletter subscription and one-click unsubscribe. " +
      "Answers are the same whether or not an address matches a user or a subscription; subscription is never automatic; only hashes of unsubscribe tokens are kept. " +
      "Public, no token needed."
  )
{}
