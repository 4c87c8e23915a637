/**
 * The signed-in app's chunks, and which one an address needs. At boot with a session, the page's own
 * chunk is fetched beside the frame's (not after it): a deep link then waits for one round of
 * fetching instead of three in a row.
 */
export const loadShell = () => import("./Shell.js")

export const pages = {
  bundles: () => import("./Bundles.js"),
  bundle: () => import("./Bundle.js"),
  keys: () => import("./Keys.js"),
  credits: () => import("./Credits.js"),
  account: () => import("./Account.js")
}

/** The requests a page makes first, by the key its `useQuery` names them with. */
export const queries = {
  me: "me",
  bundle: (id: string) => `bundle:${id}`
}

export const prefetchFor = (path: string) => {
  void loadShell()
  // the frame's and the page's first requests go out as soon as the typed client is there
  const bundleId = /^\/bundles\/([0-9a-f-]{36})(\/|$)/.exec(path)?.[1]
  void import("../api.js").then(({ prefetch }) => {
    prefetch(queries.me, (c) => c.identity.me())
    if (bundleId) prefetch(queries.bundle(bundleId), (c) => c.artifactBundles.get({ path: { artifactBundleId: bundleId } }))
  })
  if (/^\/bundles\/[^/]+/.test(path)) void pages.bundle()
  else if (path === "/" || path.startsWith("/bundles")) void pages.bundles()
  else if (path.startsWith("/keys")) void pages.keys()
  else if (path.startsWith("/credits")) void pages.credits()
  else if (path.startsWith("/account")) void pages.account()
}
