/**
 * The signed-in app: the frame (navigation, the account menu, toasts), the session's renewal, and the
 * pages, each a chunk loaded when first opened. A bundle's work pages (audits, conversions, evals,
 * proof reports) are routes of the bundle page (pages/Bundle.tsx); the jobs page lists them all.
 */
import { lazy, Route, Router, useLocation } from "preact-iso"
import { useEffect } from "preact/hooks"
import { api, useQuery } from "../api.js"
import { config } from "../config.js"
import { getSession, type Session, setSession, signOut, useSession } from "../session.js"
import { Toasts } from "../ui/Toasts.js"
import { pages, queries } from "./loaders.js"

const Bundles = lazy(() => pages.bundles().then((m) => m.Bundles))
const BundlePage = lazy(() => pages.bundle().then((m) => m.BundlePage))
const Jobs = lazy(() => pages.jobs().then((m) => m.Jobs))
const RunRedirect = lazy(() => pages.jobs().then((m) => m.RunRedirect))
const Keys = lazy(() => pages.keys().then((m) => m.Keys))
const Credits = lazy(() => pages.credits().then((m) => m.Credits))
const Account = lazy(() => pages.account().then((m) => m.Account))

/** A minute before the token expires (at least 5 s from now), ask for a new one. */
const RENEW_BEFORE_MS = 60_000

const renewSession = async (session: Session): Promise<Session> => {
  if (session.kind === "dev") {
    const { data } = await api((c) => c.development.signInAsLocalDeveloper())
    return { kind: "dev", token: data.token, expiresAt: data.expiresAt.getTime() }
  }
  return (await import("../oidc.js")).renew()
}

/** Renews the session before it expires; when it cannot, signs out at expiry with the reason. */
const useRenewal = (session: Session | null) => {
  useEffect(() => {
    if (!session) return
    const renewAt = Math.max(Date.now() + 5000, session.expiresAt - RENEW_BEFORE_MS)
    let expiry: ReturnType<typeof setTimeout> | undefined
    const renewal = setTimeout(async () => {
      try {
        const renewed = await renewSession(session)
        if (getSession()?.token === session.token) setSession(renewed)
      } catch {
        expiry = setTimeout(() => signOut("Your session expired. Sign in again."), Math.max(0, session.expiresAt - Date.now()))
      }
    }, renewAt - Date.now())
    return () => {
      clearTimeout(renewal)
      if (expiry) clearTimeout(expiry)
    }
  }, [session?.token])
}

const NAV = [
  { href: "/bundles", label: "Bundles", icon: "M4 5h16v4H4zM4 11h16v8H4z" },
  { href: "/jobs", label: "Jobs", icon: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 5v5.4l3.5 2.1-1 1.7L11 13.6V7z" },
  { href: "/keys", label: "API keys", icon: "M14 10a4 4 0 1 0-3.9 4H12v2h2v2h3v-3.2l-2.6-2.6A4 4 0 0 0 14 10z" },
  { href: "/credits", label: "Credits", icon: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zm1 13h-2v-1.1a3 3 0 0 1-2-2.9h2a1 1 0 1 0 1-1 3 3 0 0 1-1-5.8V4h2v1.2a3 3 0 0 1 2 2.8h-2a1 1 0 1 0-1 1 3 3 0 0 1 1 5.8z" },
  { href: "/account", label: "Account", icon: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-8 8a8 8 0 0 1 16 0z" }
]

function Nav() {
  const { path } = useLocation()
  return (
    <nav aria-label="Main">
      <ul class="nav">
        {NAV.map((item) => {
          const current = path === item.href || path.startsWith(`${item.href}/`)
          return (
            <li key={item.href}>
              <a href={item.href} class={`nav-link${current ? " nav-link-current" : ""}`} aria-current={current ? "page" : undefined}>
                <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d={item.icon} fill="currentColor" /></svg>
                {item.label}
              </a>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

function Home() {
  const { route } = useLocation()
  useEffect(() => route("/bundles", true), [])
  return null
}

function NotFound() {
  return (
    <div class="page">
      <h1 class="page-title">Page not found</h1>
      <p class="muted">There is nothing at this address. It may have moved, or the link is mistyped.</p>
      <p><a class="button" href="/bundles">Go to your bundles</a></p>
    </div>
  )
}

export function Shell() {
  const session = useSession()
  useRenewal(session)
  const me = useQuery((c) => c.identity.me(), [], queries.me)
  const { path } = useLocation()
  // a new page: focus its main region, so a keyboard or screen-reader user starts at the content
  useEffect(() => {
    const main = document.getElementById("main")
    if (main && document.activeElement === document.body) main.focus({ preventScroll: true })
  }, [path])
  const user = me.data?.data.user
  const signOutNow = async () => {
    if (session?.kind === "oidc" && config.oidc) await import("../oidc.js").then((o) => o.forget()).catch(() => undefined)
    signOut("You signed out.")
  }
  return (
    <div class="layout">
      <a class="skip-link" href="#main">Skip to content</a>
      <aside class="sidebar">
        <a class="brand" href="/bundles" aria-label="rubr, your bundles">rubr</a>
        <Nav />
        <div class="sidebar-footer">
          <a href="/api/v1/docs" class="sidebar-link">API reference</a>
          <a href="/api/v1/guides" class="sidebar-link">Guides</a>
        </div>
      </aside>
      <div class="main-column">
        <header class="topbar">
          <div class="topbar-spacer" />
          <div class="account-chip" data-testid="account-chip">
            <span class="avatar" aria-hidden="true">{(user?.displayName ?? user?.email ?? "?").slice(0, 1).toUpperCase()}</span>
            <span class="account-name">
              <span>{user?.displayName ?? user?.email ?? "Signed in"}</span>
              {session?.kind === "dev" ? <span class="badge badge-neutral">local developer</span> : null}
            </span>
          </div>
          <button type="button" class="button" onClick={signOutNow}>Sign out</button>
        </header>
        <main id="main" class="main" tabIndex={-1}>
          <Router>
            <Route path="/" component={Home} />
            <Route path="/bundles" component={Bundles} />
            <Route path="/bundles/:bundleId" component={BundlePage} />
            <Route path="/bundles/:bundleId/*" component={BundlePage} />
            <Route path="/jobs" component={Jobs} />
            <Route path="/runs/:area/:runId" component={RunRedirect} />
            <Route path="/keys" component={Keys} />
            <Route path="/credits" component={Credits} />
            <Route path="/account" component={Account} />
            <Route default component={NotFound} />
          </Router>
        </main>
      </div>
      <Toasts />
    </div>
  )
}
