/**
 * The sign-in page: the OpenID provider's button when one is configured, "Continue as a local
 * developer" out of the box, and why a visitor was signed out. It stays at the URL that was asked for,
 * so a deep link opens once signed in.
 */
import { useState } from "preact/hooks"
import type { RubrError } from "rubr/client"
import { config } from "../config.js"
import { setSession, takeSignedOutMessage } from "../session.js"
import { ErrorNotice } from "../ui/ErrorNotice.js"

const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/**
 * The two ways in and their state: which one is under way, and what went wrong. The API client and the
 * OpenID code are loaded only when a button is pressed, so the sign-in page stays small.
 */
const useSignIn = () => {
  const [busy, setBusy] = useState<"dev" | "oidc" | null>(null)
  const [error, setError] = useState<RubrError | null>(null)
  const [oidcError, setOidcError] = useState<string | null>(null)
  const returnTo = location.pathname + location.search

  const continueAsDeveloper = async () => {
    setBusy("dev")
    setError(null)
    const { api, asRubrError } = await import("../api.js")
    try {
      const { data } = await api((c) => c.development.signInAsLocalDeveloper())
      setSession({ kind: "dev", token: data.token, expiresAt: data.expiresAt.getTime() })
    } catch (e) {
      setError(asRubrError(e))
      setBusy(null)
    }
  }

  const continueWithProvider = async () => {
    setBusy("oidc")
    setOidcError(null)
    try {
      const oidc = await import("../oidc.js")
      await oidc.startSignIn(returnTo)
    } catch (e) {
      setOidcError(e instanceof Error ? e.message : String(e))
      setBusy(null)
    }
  }
  return { busy, error, oidcError, continueAsDeveloper, continueWithProvider }
}

export function SignIn() {
  const [signedOutMessage] = useState(takeSignedOutMessage)
  const { busy, error, oidcError, continueAsDeveloper, continueWithProvider } = useSignIn()

  return (
    <div class="auth-page">
      <main class="auth-card" id="main">
        <p class="brand brand-large" aria-hidden="true">rubr</p>
        <h1 class="auth-title">Sign in to rubr</h1>
        <p class="muted">Review and improve your agent skills, prompts and AGENTS.md files.</p>
        {signedOutMessage
          ? (
            <div class="notice notice-info" role="status" data-signed-out>
              <p>{signedOutMessage}</p>
            </div>
          )
          : null}
        <div class="auth-actions">
          {config.oidc
            ? (
              <button type="button" class="button button-primary button-block" onClick={continueWithProvider} disabled={busy !== null}>
                {busy === "oidc" ? "Redirecting…" : `Continue with ${hostOf(config.oidc.authority)}`}
              </button>
            )
            : null}
          {config.devSignIn
            ? (
              <button
                type="button"
                class={`button button-block ${config.oidc ? "" : "button-primary"}`}
                onClick={continueAsDeveloper}
                disabled={busy !== null}
              >
                {busy === "dev" ? "Signing in…" : "Continue as a local developer"}
              </button>
            )
            : null}
        </div>
        {oidcError
          ? (
            <div class="notice notice-error" role="alert">
              <p class="notice-title">The identity provider could not be reached</p>
              <p>{oidcError}</p>
            </div>
          )
          : null}
        {error ? <ErrorNotice error={error} onRetry={continueAsDeveloper} /> : null}
        {config.devSignIn
          ? (
            <p class="fine-print">
              Development mode: this service signs its own login tokens and listens on this machine only, so it can sign you in as
              {" "}
              <code>local-developer</code>. With an identity provider configured, this option goes away.
            </p>
          )
          : null}
        {!config.oidc && !config.devSignIn
          ? (
            <div class="notice notice-info">
              <p class="notice-title">No sign-in is configured</p>
              <p>
                Set <code>SERVICE_DASHBOARD_OIDC_CLIENT_ID</code> (with <code>SERVICE_AUTH_ISSUER</code> and{" "}
                <code>SERVICE_AUTH_JWKS_URL</code>) to sign in through your identity provider. The dashboard guide explains the set-up.
              </p>
            </div>
          )
          : null}
        <p class="auth-links">
          <a href="/api/v1/docs">API reference</a>
          <span aria-hidden="true">·</span>
          <a href="/api/v1/guides">Guides</a>
        </p>
      </main>
    </div>
  )
}
