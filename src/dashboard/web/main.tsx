/**
 * The dashboard's entry: small on purpose. It holds the sign-in page and the session; the signed-in
 * app (its pages, the typed client, Effect) is a chunk of its own, loaded once there is a session.
 */
import "./styles.css"
import { render } from "preact"
import { LocationProvider, useLocation } from "preact-iso"
import { Callback } from "./pages/Callback.js"
import { loadShell, prefetchFor } from "./pages/loaders.js"
import { SignIn } from "./pages/SignIn.js"
import { getSession, useSession } from "./session.js"
import { Lazy } from "./ui/Lazy.js"

const shell = () => loadShell().then((m) => m.Shell)

// signed in already (a reload, a deep link): fetch the frame and this address's page at once
if (getSession() !== null) prefetchFor(location.pathname, location.search)

function Root() {
  const session = useSession()
  const { path } = useLocation()
  if (path === "/auth/callback") return <Callback />
  return session ? <Lazy load={shell} props={{}} label="Loading your dashboard…" /> : <SignIn />
}

render(
  // links to /api/... (the API reference, the guides) are the server's pages, not the app's routes
  <LocationProvider scope={/^\/(?!api(\/|$))/}>
    <Root />
  </LocationProvider>,
  document.getElementById("app")!
)
