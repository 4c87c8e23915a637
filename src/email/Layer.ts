/** The email services over the mailer (an edge service, src/App.ts); the worker's send task is built from them (Delivery.ts). */
import { Layer } from "effect"
import { EmailPreferences } from "./Preferences.js"
import { Newsletter } from "./Newsletter.js"
import { Outbox } from "./Outbox.js"
import { UnsubscribeTokens } from "./UnsubscribeTokens.js"

export const EmailServicesLive = Layer.mergeAll(EmailPreferences.Default, Newsletter.Default).pipe(
  Layer.provideMerge(Outbox.Default),
  Layer.provideMerge(UnsubscribeTokens.Default)
)
