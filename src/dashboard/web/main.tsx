/**
 * The dashboard's entry: small on purpose. It holds the sign-in page and the session; the signed-in
 * app (its pages, the typed client, Effect) is a chunk of its own, loaded once there is a session.
 */
import "./styles.css"
import { render } from "preact"
import { LocationProvider, useLocation } from "preact-iso"
import { Callback } from "./pages/Callback.js"
import { SignIn } from "./pages/SignIn.js"
import { useSession } from "./session.js"
import { Lazy } from "./ui/Lazy.js"

const loadShell = () => import("./pages/Shell.js").then((m) => m.Shell)

function Root() {
  const session = useSession()
  const { path } = useLocation()
  if (path === "/auth/callback") return <Callback />
  return session ? <Lazy load={loadShell} props={{}} label="Loading your dashboard…" /> : <SignIn />
}

render(
  // links to /api/... (the API reference, the guides) are the server's pages, not the app's routes
  <LocationProvider scope={/^\/(?!api(\/|$))/}>
    <Root />
  </LocationProvider>,
  document.getElementById("app")!
)
