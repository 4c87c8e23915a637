/**
 * Sign-in through the OpenID provider the service trusts (SERVICE_AUTH_ISSUER): authorization code with
 * PKCE (oidc-client-ts), the ID token as the bearer. Loaded only when a provider is configured and the
 * page needs it (the sign-in button, the callback, a renewal). Its state and user live in sessionStorage;
 * renewal uses the refresh token (no hidden iframe: the CSP allows no frames).
 */
import { type User, UserManager, WebStorageStateStore } from "oidc-client-ts"
import { config } from "./config.js"
import { claimsOf, type Session } from "./session.js"

let manager: UserManager | undefined

const userManager = () => {
  const oidc = config.oidc
  if (!oidc) throw new Error("No OpenID provider is configured (SERVICE_DASHBOARD_OIDC_CLIENT_ID).")
  manager ??= new UserManager({
    authority: oidc.authority,
    client_id: oidc.clientId,
    redirect_uri: `${location.origin}/auth/callback`,
    post_logout_redirect_uri: `${location.origin}/`,
    response_type: "code",
    scope: oidc.scope,
    ...(oidc.metadata ? { metadata: oidc.metadata } : {}),
    userStore: new WebStorageStateStore({ store: sessionStorage }),
    stateStore: new WebStorageStateStore({ store: sessionStorage }),
    automaticSilentRenew: false,
    monitorSession: false,
    loadUserInfo: false
  })
  return manager
}

const toSession = (user: User): Session => {
  if (!user.id_token) throw new Error("The provider answered without an ID token; ask for the openid scope.")
  const exp = claimsOf(user.id_token)["exp"]
  return { kind: "oidc", token: user.id_token, expiresAt: typeof exp === "number" ? exp * 1000 : (user.expires_at ?? 0) * 1000 }
}

/** Off to the provider; `returnTo` is where the page goes back to after the callback. */
export const startSignIn = (returnTo: string) => userManager().signinRedirect({ state: { returnTo } })

/** On /auth/callback: trades the code for tokens, then takes the code out of the address bar. */
export const completeSignIn = async (): Promise<{ session: Session; returnTo: string }> => {
  const user = await userManager().signinRedirectCallback()
  const state = user.state as { returnTo?: unknown } | undefined
  const returnTo = typeof state?.returnTo === "string" && state.returnTo.startsWith("/") && !state.returnTo.startsWith("//") ? state.returnTo : "/"
  return { session: toSession(user), returnTo }
}

/** A new ID token through the refresh token, before the current one expires. */
export const renew = async (): Promise<Session> => {
  const um = userManager()
  const user = await um.getUser()
  if (!user?.refresh_token) throw new Error("The provider gave no refresh token; sign in again when the session ends.")
  const renewed = await um.signinSilent()
  if (!renewed) throw new Error("The provider did not renew the session.")
  return toSession(renewed)
}

export const forget = () => userManager().removeUser()
