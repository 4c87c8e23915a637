/** The emails this feature sends. Bodies are plain text; {{unsubscribe_url}} is filled at delivery. */
import { NEWSLETTER } from "./Categories.js"

export const UNSUBSCRIBE_PLACEHOLDER = "{{unsubscribe_url}}"

export interface EmailDraft {
  readonly to: string
  readonly category: string
  readonly kind: string
  readonly subject: string
  readonly text: string
}

export const newsletterSubscribed = (to: string): EmailDraft => ({
  to,
  category: NEWSLETTER,
  kind: "newsletter_subscribed",
  subject: "You are subscribed to the rubr newsletter",
  text: [
    "Hello,",
    "",
    "This address is now subscribed to the rubr newsletter: product news, tips and announcements.",
    "",
    "If you did not ask for this, or change your mind, unsubscribe with one click:",
    UNSUBSCRIBE_PLACEHOLDER,
    "",
    "-- rubr"
  ].join("\n")
})

export const newsletterUnsubscribeLink = (to: string): EmailDraft => ({
  to,
  category: NEWSLETTER,
  kind: "newsletter_unsubscribe_link",
  subject: "Your link to unsubscribe from the rubr newsletter",
  text: [
    "Hello,",
    "",
    "Someone (hopefully you) asked to unsubscribe this address from the rubr newsletter.",
    "To confirm, open this link and press the button; nothing changes until you do:",
    UNSUBSCRIBE_PLACEHOLDER,
    "",
    "If you want to keep receiving the newsletter, ignore this email.",
    "",
    "-- rubr"
  ].join("\n")
})

/** Optional-category bodies without the placeholder get the link as a footer. */
export const withUnsubscribeLink = (text: string, url: string, label: string): string =>
  text.includes(UNSUBSCRIBE_PLACEHOLDER)
    ? text.split(UNSUBSCRIBE_PLACEHOLDER).join(url)
    : `${text}\n\n--\nTo stop receiving "${label}" emails at this address, unsubscribe with one click:\n${url}\n`
