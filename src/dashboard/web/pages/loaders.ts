/**
 * The signed-in app's chunks, and which one an address needs. At boot with a session, the page's own
 * chunk is fetched beside the frame's (not after it): a deep link then waits for one round of
 * fetching instead of three in a row.
 */
import type { Client } from "../api.js"

export const loadShell = () => import("./Shell.js")

export const pages = {
  bundles: () => import("./Bundles.js"),
  bundle: () => import("./Bundle.js"),
  jobs: () => import("./Jobs.js"),
  keys: () => import("./Keys.js"),
  credits: () => import("./Credits.js"),
  account: () => import("./Account.js")
}

/** The bundle's work pages (audits, conversions, evals, proof reports), one chunk each, loaded when opened. */
export const work = {
  start: () => import("./work/Start.js"),
  lists: () => import("./work/Lists.js"),
  audit: () => import("./work/Audit.js"),
  conversion: () => import("./work/Conversion.js"),
  eval: () => import("./work/Eval.js"),
  proof: () => import("./work/ProofReport.js")
}

/** The requests a page makes first, by the key its `useQuery` names them with. */
export const queries = {
  me: "me",
  bundle: (id: string) => `bundle:${id}`,
  audit: (id: string) => `audit:${id}`,
  auditedText: (id: string) => `audited-text:${id}`
}

type AuditTarget = { readonly targetFileId: string | null; readonly targetFileVersionNumber: number | null }

/** The text a file audit read (its target, at the audited version); null for a whole-bundle audit. */
export const targetText = async (c: Client, bundleId: string, target: AuditTarget) => {
  if (target.targetFileId === null || target.targetFileVersionNumber === null) return null
  const { data } = await c.versions.getFileVersion({ path: { artifactBundleId: bundleId, fileId: target.targetFileId, versionNumber: target.targetFileVersionNumber } })
  return { text: data.content as string | null, versionNumber: target.targetFileVersionNumber as number | null, fileId: target.targetFileId as string | null }
}

/**
 * An audit's address, with the file version it read as a hint (`?file=&version=`) when it was a file
 * audit: a deep link can then ask for the audit and that version at once, instead of one after the
 * other. The page checks the hint against the audit.
 */
export const auditHref = (base: string, run: { readonly id: string; readonly summary: { readonly target: AuditTarget } }) => {
  const t = run.summary.target
  return `${base}/audits/${run.id}${t.targetFileId !== null && t.targetFileVersionNumber !== null ? `?file=${t.targetFileId}&version=${t.targetFileVersionNumber}` : ""}`
}

export const prefetchFor = (path: string, search = "") => {
  void loadShell()
  // the frame's and the page's first requests go out as soon as the typed client is there
  const bundleId = /^\/bundles\/([0-9a-f-]{36})(\/|$)/.exec(path)?.[1]
  const auditRunId = /^\/bundles\/[0-9a-f-]{36}\/audits\/([0-9a-f-]{36})$/.exec(path)?.[1]
  void import("../api.js").then(({ api, prefetch }) => {
    prefetch(queries.me, (c) => c.identity.me())
    if (bundleId) prefetch(queries.bundle(bundleId), (c) => c.artifactBundles.get({ path: { artifactBundleId: bundleId } }))
    if (bundleId && auditRunId) {
      // the audit, then the file it read, without waiting for the page to render
      const run = api((c) => c.audits.getAudit({ path: { artifactBundleId: bundleId, auditRunId } }))
      prefetch(queries.audit(auditRunId), () => run)
      const hint = new URLSearchParams(search)
      const fileId = hint.get("file")
      const versionNumber = Number(hint.get("version"))
      prefetch(
        queries.auditedText(auditRunId),
        /^[0-9a-f-]{36}$/.test(fileId ?? "") && Number.isInteger(versionNumber) && versionNumber > 0
          ? (c) => targetText(c, bundleId, { targetFileId: fileId, targetFileVersionNumber: versionNumber })
          : (c) => run.then(({ data }) => targetText(c, bundleId, data.auditRun.summary.target))
      )
    }
  })
  const workPage = /^\/bundles\/[^/]+\/(audits|conversions|evals|proof-reports)(?:\/([^/]+))?/.exec(path)
  if (workPage) {
    const [, kind, id] = workPage
    void (id === "new" ? work.start() : id === undefined ? work.lists() : kind === "audits" ? work.audit() : kind === "conversions" ? work.conversion() : kind === "evals" ? work.eval() : work.proof())
  }
  if (path.startsWith("/jobs")) void pages.jobs()
  else if (/^\/bundles\/[^/]+/.test(path)) void pages.bundle()
  else if (path === "/" || path.startsWith("/bundles")) void pages.bundles()
  else if (path.startsWith("/keys")) void pages.keys()
  else if (path.startsWith("/credits")) void pages.credits()
  else if (path.startsWith("/account")) void pages.account()
}
