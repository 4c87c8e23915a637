/**
 * The signed-in session: a login token (the dev sign-in's or the OpenID provider's ID token) and when it
 * expires, kept in sessionStorage (this tab only, gone when it closes; never localStorage, never a URL).
 * Signing out clears it and leaves a message for the sign-in page.
 */
import { useEffect, useState } from "preact/hooks"

export interface Session {
  readonly kind: "dev" | "oidc"
  readonly token: string
  /** epoch milliseconds */
  readonly expiresAt: number
}

const SESSION_KEY = "rubr.session"
const MESSAGE_KEY = "rubr.signedOut"

const readSession = (): Session | null => {
  try {
    const raw = sessionStorage.getItem(SESSION_KEY)
    if (!raw) return null
    const s = JSON.parse(raw) as Session
    return typeof s.token === "string" && typeof s.expiresAt === "number" ? s : null
  } catch {
    return null
  }
}

let current: Session | null = readSession()
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((l) => l())

if (current !== null && current.expiresAt <= Date.now()) {
  sessionStorage.removeItem(SESSION_KEY)
  sessionStorage.setItem(MESSAGE_KEY, "Your session expired. Sign in again.")
  current = null
}

export const getSession = () => current

export const setSession = (session: Session) => {
  current = session
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session))
  sessionStorage.removeItem(MESSAGE_KEY)
  emit()
}

/** Clears the token (and the OpenID library's stored user), with a message the sign-in page shows. */
export const signOut = (message?: string) => {
  current = null
  sessionStorage.removeItem(SESSION_KEY)
  for (const key of Object.keys(sessionStorage)) if (key.startsWith("oidc.")) sessionStorage.removeItem(key)
  if (message) sessionStorage.setItem(MESSAGE_KEY, message)
  emit()
}

/** The sign-in page's message, read once. */
export const takeSignedOutMessage = (): string | null => {
  const message = sessionStorage.getItem(MESSAGE_KEY)
  sessionStorage.removeItem(MESSAGE_KEY)
  return message
}

export const useSession = () => {
  const [session, set] = useState(current)
  useEffect(() => {
    const listener = () => set(current)
    listeners.add(listener)
    listener()
    return () => void listeners.delete(listener)
  }, [])
  return session
}

/** Decoded JWT claims (no verification: the service verifies; the page only reads `exp`). */
export const claimsOf = (jwt: string): Record<string, unknown> => {
  try {
    const part = jwt.split(".")[1] ?? ""
    const json = atob(part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "="))
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))) as Record<string, unknown>
  } catch {
    return {}
  }
}
