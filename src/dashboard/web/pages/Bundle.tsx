/**
 * One bundle: its header (rename, archive, unarchive, delete, upload), its file tree on the left, and
 * on the right what the address names: the overview, a file (rendered and as source), its editor, its
 * history with diffs, or the bundle's version events. Everything under /bundles/:bundleId/ is this one
 * component, so the tree (and its open folders) stays while the right side changes.
 */
import type { ComponentType } from "preact"
import { useLocation, useRoute } from "preact-iso"
import { useState } from "preact/hooks"
import { type Client, type Data, useAction, useQuery } from "../api.js"
import { ErrorNotice } from "../ui/ErrorNotice.js"
import { plural } from "../ui/format.js"
import { Lazy, Loading } from "../ui/Lazy.js"
import { EmptyState } from "../ui/Page.js"
import { toast } from "../ui/Toasts.js"
import { FileTree } from "../ui/Tree.js"
import { FileView } from "./bundle/FileView.js"
import { BundleNameDialog, useBundleLifecycle } from "./Bundles.js"
import { queries, work } from "./loaders.js"

export type BundleDetail = Data<Client["artifactBundles"]["get"]>

/** What every work page gets: the bundle and its files (its forms name them), its address, and the run's id. */
export interface WorkPageProps {
  readonly bundle: BundleDetail["artifactBundle"]
  readonly files: BundleDetail["files"]
  readonly base: string
  readonly runId: string
  readonly onChanged: () => void
}

// the file view comes with the page; the other views are chunks of their own, loaded when opened
const loadUpload = () => import("./bundle/Upload.js").then((m) => m.UploadPanel)
const loadEditor = () => import("./bundle/EditFile.js").then((m) => m.EditFile)
const loadFileHistory = () => import("./bundle/FileHistory.js").then((m) => m.FileHistory)
const loadBundleHistory = () => import("./bundle/BundleHistory.js").then((m) => m.BundleHistory)

export type WorkArea = "audits" | "conversions" | "evals" | "proof-reports"
const WORK_AREAS: ReadonlyArray<WorkArea> = ["audits", "conversions", "evals", "proof-reports"]

/** A work area's list, its start form, and a run's page, each a chunk loaded when opened. */
const workView = (area: WorkArea, id: string | undefined) => {
  if (id === undefined) {
    return work.lists().then((m) => ({ audits: m.AuditList, conversions: m.ConversionList, evals: m.EvalList, "proof-reports": m.ProofList })[area])
  }
  if (id === "new") return work.start().then((m) => ({ audits: m.AuditStart, conversions: m.ConversionStart, evals: m.EvalStart, "proof-reports": m.ProofStart })[area])
  return area === "audits"
    ? work.audit().then((m) => m.AuditPage)
    : area === "conversions"
    ? work.conversion().then((m) => m.ConversionPage)
    : area === "evals"
    ? work.eval().then((m) => m.EvalPage)
    : work.proof().then((m) => m.ProofReportPage)
}

/**
 * What the rest of the address names: "", "history", "files/:id", "files/:id/edit", "files/:id/history",
 * or a work area: "audits", "audits/new", "audits/:runId" (and conversions, evals, proof-reports).
 */
const viewOf = (rest: string) => {
  const parts = rest.split("/").filter(Boolean)
  if (parts[0] === "history") return { kind: "bundleHistory" as const }
  if (WORK_AREAS.includes(parts[0] as WorkArea)) return { kind: "work" as const, area: parts[0] as WorkArea, id: parts[1] }
  if (parts[0] === "files" && parts[1]) {
    const sub = parts[2] === "edit" ? "edit" : parts[2] === "history" ? "history" : "view"
    return { kind: "file" as const, fileId: parts[1], sub }
  }
  return { kind: "overview" as const }
}

type View = ReturnType<typeof viewOf>

/** The breadcrumb and the header: the bundle's name and facts, and what can be done to it. */
function BundleHeader(props: {
  bundle: BundleDetail["artifactBundle"]
  files: BundleDetail["files"]
  base: string
  view: View
  lifecycle: ReturnType<typeof useBundleLifecycle>
  onUpload: () => void
  onRename: () => void
}) {
  const { bundle, files, base, view, lifecycle } = props
  const archived = bundle.status === "archived"
  return (
    <>
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <a href="/bundles">Bundles</a>
        <span aria-hidden="true">/</span>
        <a href={base} aria-current={view.kind === "overview" ? "page" : undefined}>{bundle.name}</a>
      </nav>
      <div class="page-header">
        <div>
          <h1 class="page-title">
            {bundle.name} {archived ? <span class="badge badge-neutral">archived</span> : null}
          </h1>
          {bundle.description ? <p class="page-description">{bundle.description}</p> : null}
          <p class="bundle-meta">
            {plural(bundle.fileCount, "file")} · {plural(bundle.versionCount, "version")}
            {bundle.primaryFile ? <> · main artifact <code>{bundle.primaryFile.path}</code></> : " · no main artifact"}
          </p>
        </div>
        <div class="page-actions">
          {archived || files.length === 0 || view.kind === "work" ? null : <a class="button button-primary" href={`${base}/audits/new`}>New audit</a>}
          {archived ? null : <button type="button" class={`button${files.length === 0 ? " button-primary" : ""}`} onClick={props.onUpload}>Upload files</button>}
          {archived ? null : <button type="button" class="button" onClick={props.onRename}>Rename</button>}
          {archived
            ? (
              <>
                <button type="button" class="button" onClick={() => void lifecycle.unarchive(bundle)}>Unarchive</button>
                <button type="button" class="button button-danger-quiet" onClick={() => lifecycle.askDelete(bundle)}>Delete</button>
              </>
            )
            : <button type="button" class="button" onClick={() => void lifecycle.archive(bundle)}>Archive</button>}
        </div>
      </div>
    </>
  )
}

/** The bundle's sections: its files, each work area, and its history. */
function BundleTabs(props: { base: string; view: View }) {
  const { base, view } = props
  return (
    <nav class="bundle-tabs" aria-label="Bundle sections">
      {[
        ["Files", base, view.kind === "overview" || view.kind === "file"],
        ["Audits", `${base}/audits`, view.kind === "work" && view.area === "audits"],
        ["Conversions", `${base}/conversions`, view.kind === "work" && view.area === "conversions"],
        ["Evals", `${base}/evals`, view.kind === "work" && view.area === "evals"],
        ["Proof reports", `${base}/proof-reports`, view.kind === "work" && view.area === "proof-reports"],
        ["History", `${base}/history`, view.kind === "bundleHistory"]
      ].map(([label, href, current]) => (
        <a key={label as string} href={href as string} class={`bundle-tab${current ? " bundle-tab-on" : ""}`} aria-current={current ? "page" : undefined}>{label}</a>
      ))}
    </nav>
  )
}

/** Everything but the work areas: the file tree, and beside it the file, its editor or history, the bundle's history, or the overview. */
function FilesPane(props: {
  bundleId: string
  detail: BundleDetail
  base: string
  view: View
  refresh: () => void
  onUpload: () => void
}) {
  const { bundleId, base, view, refresh } = props
  const { artifactBundle: bundle, files, tree } = props.detail
  const archived = bundle.status === "archived"
  return (
    <div class="bundle-layout">
      <aside class="bundle-sidebar">
        <div class="sidebar-heading">
          <h2 class="section-title">Files</h2>
        </div>
        {tree.length === 0
          ? <p class="muted tree-empty">No files yet.</p>
          : <FileTree nodes={tree} label={`Files of ${bundle.name}`} hrefOf={(id) => `${base}/files/${id}`} currentFileId={view.kind === "file" ? view.fileId : undefined} />}
      </aside>
      <section class="bundle-content" aria-label="Content">
        {view.kind === "bundleHistory"
          ? <Lazy load={loadBundleHistory} props={{ bundle, onRestored: refresh }} />
          : view.kind === "file"
          ? view.sub === "edit"
            ? <Lazy key={`edit-${view.fileId}`} load={loadEditor} props={{ bundleId, fileId: view.fileId, readOnly: archived, onSaved: refresh }} />
            : view.sub === "history"
            ? <Lazy key={`history-${view.fileId}`} load={loadFileHistory} props={{ bundleId, fileId: view.fileId, readOnly: archived, onRestored: refresh }} />
            : <FileView key={view.fileId} bundleId={bundleId} fileId={view.fileId} readOnly={archived} onChanged={refresh} />
          : files.length === 0
          ? (
            <EmptyState title="This bundle is empty">
              <p class="muted">Upload a skill folder (its SKILL.md, references and examples), or single text files.</p>
              {archived ? null : <button type="button" class="button button-primary" onClick={props.onUpload}>Upload files</button>}
            </EmptyState>
          )
          : bundle.primaryFile
          ? <FileView key={bundle.primaryFile.id} bundleId={bundleId} fileId={bundle.primaryFile.id} readOnly={archived} onChanged={refresh} />
          : (
            <EmptyState title="No main artifact">
              <p class="muted">None of the file names says which file is the artifact (SKILL.md, AGENTS.md, prompt.md…). Pick a file on the left.</p>
            </EmptyState>
          )}
      </section>
    </div>
  )
}

export function BundlePage() {
  const { params, path } = useRoute()
  const { route } = useLocation()
  const bundleId = params["bundleId"]!
  const base = `/bundles/${bundleId}`
  const view = viewOf(path.startsWith(base) ? path.slice(base.length) : "")
  const detail = useQuery((c) => c.artifactBundles.get({ path: { artifactBundleId: bundleId } }), [bundleId], queries.bundle(bundleId))
  const [renaming, setRenaming] = useState(false)
  const [uploading, setUploading] = useState(false)
  const rename = useAction((c, values: { name: string; description: string | null }) =>
    c.artifactBundles.update({ path: { artifactBundleId: bundleId }, payload: values })
  )
  const lifecycle = useBundleLifecycle((bundle) => (bundle === null ? route("/bundles") : void detail.reload()))

  if (detail.data === undefined) {
    return <div class="page">{detail.error ? <ErrorNotice error={detail.error} onRetry={detail.reload} /> : <Loading label="Loading the bundle…" />}</div>
  }
  const { artifactBundle: bundle, files } = detail.data.data
  const archived = bundle.status === "archived"
  const refresh = () => void detail.reload()
  return (
    <div class="page page-wide">
      <BundleHeader bundle={bundle} files={files} base={base} view={view} lifecycle={lifecycle} onUpload={() => setUploading(true)} onRename={() => setRenaming(true)} />
      {archived ? <div class="notice notice-info" role="status"><p>This bundle is archived: it is read-only until you unarchive it.</p></div> : null}
      {lifecycle.error ? <ErrorNotice error={lifecycle.error} /> : null}
      {detail.error ? <ErrorNotice error={detail.error} onRetry={detail.reload} /> : null}
      {uploading
        ? (
          <Lazy
            load={loadUpload}
            props={{ bundleId, existing: files, onClose: () => setUploading(false), onUploaded: refresh }}
          />
        )
        : null}
      <BundleTabs base={base} view={view} />
      {view.kind === "work"
        ? (
          <section class="work" aria-label={view.area}>
            <Lazy
              key={`${view.area}/${view.id ?? ""}`}
              load={() => workView(view.area, view.id) as Promise<ComponentType<WorkPageProps>>}
              props={{ bundle, files, base, runId: view.id ?? "", onChanged: refresh }}
            />
          </section>
        )
        : <FilesPane bundleId={bundleId} detail={detail.data.data} base={base} view={view} refresh={refresh} onUpload={() => setUploading(true)} />}
      <BundleNameDialog
        open={renaming}
        title="Rename bundle"
        submitLabel="Save"
        initial={{ name: bundle.name, description: bundle.description }}
        busy={rename.busy}
        error={rename.error}
        onClose={() => {
          setRenaming(false)
          rename.clearError()
        }}
        onSubmit={async (values) => {
          const answer = await rename.run(values)
          if (!answer) return false
          setRenaming(false)
          detail.set(answer)
          toast("Saved.")
          return true
        }}
      />
      {lifecycle.dialog}
    </div>
  )
}
