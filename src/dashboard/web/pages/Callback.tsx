/** /auth/callback: the OpenID provider sends the browser back here with a code; it becomes a session. */
import { useLocation } from "preact-iso"
import { useEffect, useState } from "preact/hooks"
import { setSession } from "../session.js"

export function Callback() {
  const { route } = useLocation()
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    const query = new URLSearchParams(location.search)
    const providerError = query.get("error")
    if (providerError) {
      history.replaceState(null, "", "/auth/callback")
      setError(`${providerError}${query.get("error_description") ? `: ${query.get("error_description")}` : ""}`)
      return
    }
    import("../oidc.js")
      .then((oidc) => oidc.completeSignIn())
      .then(({ session, returnTo }) => {
        setSession(session)
        // the code and state leave the address bar and the history
        route(returnTo, true)
      })
      .catch((e: unknown) => {
        history.replaceState(null, "", "/auth/callback")
        setError(e instanceof Error ? e.message : String(e))
      })
  }, [])
  return (
    <div class="auth-page">
      <main class="auth-card" id="main">
        <p class="brand brand-large">rubr</p>
        {error
          ? (
            <div class="notice notice-error" role="alert">
              <p class="notice-title">Sign-in did not complete</p>
              <p>{error}</p>
              <a class="button button-primary" href="/">Back to sign-in</a>
            </div>
          )
          : <p role="status">Signing you in…</p>}
      </main>
    </div>
  )
}
