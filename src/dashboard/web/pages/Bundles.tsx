/**
 * Bundles: the list (search by name, archived shown on request), creation, and each bundle's rename,
 * archive, unarchive and permanent delete (behind typing the bundle's name). The API has no name
 * search: the list pages through the caller's bundles (200 a request) and filters here.
 */
import { useLocation } from "preact-iso"
import { useMemo, useRef, useState } from "preact/hooks"
import { type Client, type Data, useAction, useQuery } from "../api.js"
import { ConfirmDialog, Dialog } from "../ui/Dialog.js"
import { ErrorNotice } from "../ui/ErrorNotice.js"
import { formatAgo, formatDate, plural } from "../ui/format.js"
import { EmptyState, PageHeader, QueryView } from "../ui/Page.js"
import { toast } from "../ui/Toasts.js"

export type Bundle = Data<Client["artifactBundles"]["get"]>["artifactBundle"]

const PAGE_LIMIT = 200

/** Every bundle of the caller with this status, page after page. */
const listAll = async (c: Client, status: "active" | "all") => {
  const out: Array<Bundle> = []
  for (let offset = 0;;) {
    const { data } = await c.artifactBundles.list({ urlParams: { status, limit: PAGE_LIMIT, offset } })
    out.push(...data.artifactBundles)
    if (data.pagination.nextOffset === null) return out
    offset = data.pagination.nextOffset
  }
}

export function BundleNameDialog(props: {
  open: boolean
  title: string
  submitLabel: string
  initial?: { name: string; description: string | null }
  onClose: () => void
  onSubmit: (values: { name: string; description: string | null }) => Promise<boolean>
  busy: boolean
  error: import("rubr/client").RubrError | undefined
}) {
  const [name, setName] = useState(props.initial?.name ?? "")
  const [description, setDescription] = useState(props.initial?.description ?? "")
  const form = useRef<HTMLFormElement>(null)
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onClose}>
      <form
        ref={form}
        class="form"
        onSubmit={async (e) => {
          e.preventDefault()
          const saved = await props.onSubmit({ name: name.trim(), description: description.trim() === "" ? null : description.trim() })
          if (saved && !props.initial) {
            setName("")
            setDescription("")
          }
        }}
      >
        <div class="field">
          <label for="bundle-name">Name</label>
          <input id="bundle-name" class="input" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="deploy-preview" />
        </div>
        <div class="field">
          <label for="bundle-description">Description <span class="hint">(optional)</span></label>
          <textarea id="bundle-description" class="input" rows={3} maxLength={2000} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </div>
        {props.error ? <ErrorNotice error={props.error} onRetry={() => form.current?.requestSubmit()} /> : null}
        <div class="dialog-actions">
          <button type="button" class="button" onClick={props.onClose}>Cancel</button>
          <button type="submit" class="button button-primary" disabled={props.busy || name.trim() === ""}>{props.busy ? "Saving…" : props.submitLabel}</button>
        </div>
      </form>
    </Dialog>
  )
}

/** The archive / unarchive / delete actions of one bundle, shared by the list and the bundle page. */
export function useBundleLifecycle(onChanged: (bundle: Bundle | null) => void) {
  const [deleting, setDeleting] = useState<Bundle | null>(null)
  const archive = useAction((c, id: string) => c.artifactBundles.archive({ path: { artifactBundleId: id } }))
  const unarchive = useAction((c, id: string) => c.artifactBundles.unarchive({ path: { artifactBundleId: id } }))
  const remove = useAction((c, id: string) => c.artifactBundles.deletePermanently({ path: { artifactBundleId: id } }))
  const doArchive = async (bundle: Bundle) => {
    const answer = await archive.run(bundle.id)
    if (answer) {
      onChanged(answer.data.artifactBundle)
      toast(`Archived “${bundle.name}”.`, { label: "Undo", run: () => void doUnarchive(answer.data.artifactBundle) })
    }
  }
  const doUnarchive = async (bundle: Bundle) => {
    const answer = await unarchive.run(bundle.id)
    if (answer) {
      onChanged(answer.data.artifactBundle)
      toast(`“${bundle.name}” is active again.`)
    }
  }
  const dialog = (
    <ConfirmDialog
      open={deleting !== null}
      title={`Delete “${deleting?.name ?? ""}” permanently?`}
      confirmLabel="Delete permanently"
      danger
      typeToConfirm={deleting?.name ?? ""}
      busy={remove.busy}
      error={remove.error}
      onClose={() => {
        setDeleting(null)
        remove.clearError()
      }}
      onConfirm={async () => {
        const answer = await remove.run(deleting!.id)
        if (answer) {
          toast(`Deleted “${deleting!.name}”.`)
          setDeleting(null)
          onChanged(null)
        }
      }}
    >
      <p>
        This removes the bundle, its {plural(deleting?.fileCount ?? 0, "file")}, every version and its run history. It cannot be undone.
      </p>
    </ConfirmDialog>
  )
  return { archive: doArchive, unarchive: doUnarchive, askDelete: setDeleting, dialog, error: archive.error ?? unarchive.error }
}

export function Bundles() {
  const { route } = useLocation()
  const [showArchived, setShowArchived] = useState(false)
  const [search, setSearch] = useState("")
  const [creating, setCreating] = useState(false)
  const bundles = useQuery((c) => listAll(c, showArchived ? "all" : "active"), [showArchived])
  const create = useAction((c, values: { name: string; description: string | null }) => c.artifactBundles.create({ payload: values }))
  const lifecycle = useBundleLifecycle(() => void bundles.reload())
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase()
    return (bundles.data ?? []).filter((b) => q === "" || b.name.toLowerCase().includes(q))
  }, [bundles.data, search])
  return (
    <div class="page">
      <PageHeader
        title="Bundles"
        description="A bundle is one artifact under review (a skill, an AGENTS.md, a prompt) with its references, examples and history."
        actions={<button type="button" class="button button-primary" onClick={() => setCreating(true)}>New bundle</button>}
      />
      <div class="toolbar">
        <div class="search">
          <label for="bundle-search" class="visually-hidden">Search bundles by name</label>
          <input id="bundle-search" class="input" type="search" placeholder="Search by name" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </div>
        <label class="checkbox">
          <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.currentTarget.checked)} />
          <span>Show archived</span>
        </label>
      </div>
      {lifecycle.error ? <ErrorNotice error={lifecycle.error} /> : null}
      <QueryView query={bundles} label="Loading bundles…">
        {(all) =>
          all.length === 0
            ? (
              <EmptyState title={showArchived ? "No bundles" : "No bundles yet"}>
                <p class="muted">Create a bundle, then drop a skill folder into it.</p>
                <button type="button" class="button button-primary" onClick={() => setCreating(true)}>New bundle</button>
              </EmptyState>
            )
            : shown.length === 0
            ? <EmptyState title={`No bundle matches “${search}”`} />
            : (
              <ul class="bundle-list" aria-label="Bundles">
                {shown.map((b) => (
                  <li key={b.id} class={`bundle-row${b.status === "archived" ? " row-muted" : ""}`} data-bundle-name={b.name}>
                    <div class="bundle-main">
                      <a class="bundle-name" href={`/bundles/${b.id}`}>{b.name}</a>
                      {b.status === "archived" ? <span class="badge badge-neutral">archived</span> : null}
                      {b.description ? <p class="bundle-description">{b.description}</p> : null}
                      <p class="bundle-meta">
                        {b.primaryFile ? <span><code>{b.primaryFile.path}</code> · </span> : null}
                        {plural(b.fileCount, "file")} · {plural(b.versionCount, "version")} · updated{" "}
                        <span title={formatDate(b.updatedAt)}>{formatAgo(b.updatedAt)}</span>
                      </p>
                    </div>
                    <div class="bundle-actions">
                      {b.status === "active"
                        ? <button type="button" class="button button-small" onClick={() => void lifecycle.archive(b)} aria-label={`Archive ${b.name}`}>Archive</button>
                        : (
                          <>
                            <button type="button" class="button button-small" onClick={() => void lifecycle.unarchive(b)} aria-label={`Unarchive ${b.name}`}>Unarchive</button>
                            <button type="button" class="button button-small button-danger-quiet" onClick={() => lifecycle.askDelete(b)} aria-label={`Delete ${b.name} permanently`}>
                              Delete
                            </button>
                          </>
                        )}
                    </div>
                  </li>
                ))}
              </ul>
            )}
      </QueryView>
      <BundleNameDialog
        open={creating}
        title="New bundle"
        submitLabel="Create bundle"
        busy={create.busy}
        error={create.error}
        onClose={() => {
          setCreating(false)
          create.clearError()
        }}
        onSubmit={async (values) => {
          const answer = await create.run(values)
          if (!answer) return false
          setCreating(false)
          route(`/bundles/${answer.data.artifactBundle.id}`)
          return true
        }}
      />
      {lifecycle.dialog}
    </div>
  )
}
