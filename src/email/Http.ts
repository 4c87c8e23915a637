import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import { CurrentActor } from "../auth/CurrentActor.js"
import { RubrApi } from "../Api.js"
import { ok } from "../http/Envelope.js"
import { Newsletter } from "./Newsletter.js"
import { EmailPreferences } from "./Preferences.js"

export const EmailPreferencesHttp = HttpApiBuilder.group(RubrApi, "emailPreferences", (handlers) =>
  Effect.gen(function*() {
    const preferences = yield* EmailPreferences
    return handlers
      .handle("getEmailPreferences", () =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok(yield* preferences.get(actor.userId))
        }))
      .handle("updateEmailPreferences", ({ payload }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* ok(yield* preferences.update(actor.userId, payload.preferences))
        }))
  }))

// The landing page of the link in an email. Opening it changes nothing (mail scanners and link
// previews fetch links); its one button POSTs to the same URL, with or without JavaScript.
const pageScript = `
const form = document.querySelector("form"), out = document.querySelector("output");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  form.querySelector("button").disabled = true;
  try {
    const reply = await fetch(location.pathname, { method: "POST" });
    const body = await reply.json();
    out.textContent = body.data ? body.data.message : body.error.message;
  } catch { out.textContent = "Something went wrong; please try again."; form.querySelector("button").disabled = false; }
});`
const scriptHash = Crypto.createHash("sha256").update(pageScript).digest("base64")
const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Unsubscribe - rubr</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}</style>
</head><body>
<h1>Unsubscribe</h1>
<p>Press the button to stop receiving these emails at this address.</p>
<form method="post"><button type="submit">Unsubscribe</button></form>
<p><output></output></p>
<script>${pageScript}</script>
</body></html>`
const pageHeaders = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex",
  "x-content-type-options": "nosniff",
  "content-security-policy":
    `default-src 'none'; script-src 'sha256-${scriptHash}'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'`
}

export const NewsletterHttp = HttpApiBuilder.group(RubrApi, "newsletter", (handlers) =>
  Effect.gen(function*() {
    const newsletter = yield* Newsletter
    return handlers
      .handle("subscribeNewsletter", ({ payload }) =>
        Effect.gen(function*() {
          return yield* ok(yield* newsletter.subscribe(payload.email))
        }))
      .handle("unsubscribeNewsletter", ({ payload }) =>
        Effect.gen(function*() {
          return yield* ok(yield* newsletter.requestUnsubscribe(payload.email))
        }))
      .handle("consumeUnsubscribeToken", ({ path }) =>
        Effect.gen(function*() {
          return yield* ok(yield* newsletter.consume(path.token))
        }))
      .handle("unsubscribePage", () =>
        Effect.gen(function*() {
          return HttpServerResponse.text(page, { contentType: "text/html; charset=utf-8", headers: pageHeaders })
        }))
  }))
