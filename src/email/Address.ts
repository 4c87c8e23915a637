/** Email addresses as the API accepts them: trimmed, lower-cased, then checked for a plausible shape. */
import { Schema } from "effect"

const LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/

export const normalizeEmail = (raw: string): string => raw.trim().toLowerCase()

/** For an already normalized address. */
export const isValidEmail = (email: string): boolean => {
  if (email.length > 254) return false
  const at = email.lastIndexOf("@")
  if (at <= 0 || at !== email.indexOf("@")) return false
  const local = email.slice(0, at)
  const labels = email.slice(at + 1).split(".")
  return local.length <= 64 && LOCAL.test(local) && labels.length >= 2 && labels.every((l) => LABEL.test(l)) &&
    /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(labels[labels.length - 1])
}

/** Decodes any string to its normalized form and rejects what is not an email address (400). */
export const EmailAddress = Schema.transform(
  Schema.String,
  Schema.String.pipe(
    Schema.filter((s) => isValidEmail(s) || "must be a valid email address (for example name@example.com)")
  ),
  { strict: true, decode: normalizeEmail, encode: (s) => s }
).annotations({
  identifier: "EmailAddress",
  description: "An email address; surrounding spaces are removed and letters lower-cased",
  examples: ["name@example.com"]
})

/** The account's address for email purposes, when it has a usable one. */
export const usableAccountEmail = (email: string | null): string | null => {
  if (email === null) return null
  const normalized = normalizeEmail(email)
  return isValidEmail(normalized) ? normalized : null
}
