/**
 * A file's versions, newest first: any two compared (side by side or unified, the choice kept in the
 * address), and any one restored as the new latest version (history is never rewritten).
 */
import { useLocation } from "preact-iso"
import { useState } from "preact/hooks"
import { type Client, type Data, useAction, useQuery } from "../../api.js"
import { ConfirmDialog } from "../../ui/Dialog.js"
import { DiffView } from "../../ui/DiffView.js"
import { ErrorNotice } from "../../ui/ErrorNotice.js"
import { formatAgo, formatBytes, formatDate } from "../../ui/format.js"
import { Loading } from "../../ui/Lazy.js"
import { EmptyState, QueryView } from "../../ui/Page.js"
import { toast } from "../../ui/Toasts.js"
import { Segmented } from "../../ui/Segmented.js"

type Version = Data<Client["versions"]["listFileVersions"]>["versions"][number]

const SOURCES: Record<string, string> = {
  upload: "uploaded",
  edit: "edited",
  restore: "restored",
  rubr_flow_conversion: "converted",
  audit_improvement: "improved by an audit"
}

function Compare(props: { bundleId: string; fileId: string; from: number; to: number; mode: "split" | "unified" }) {
  const pair = useQuery(async (c) => {
    const read = (versionNumber: number) => c.versions.getFileVersion({ path: { artifactBundleId: props.bundleId, fileId: props.fileId, versionNumber } })
    const [a, b] = await Promise.all([read(props.from), read(props.to)])
    return { before: a.data.content, after: b.data.content }
  }, [props.fileId, props.from, props.to])
  if (pair.error) return <ErrorNotice error={pair.error} onRetry={pair.reload} />
  if (!pair.data) return <Loading label="Comparing…" />
  return <DiffView before={pair.data.before} after={pair.data.after} mode={props.mode} labels={[`version ${props.from}`, `version ${props.to}`]} />
}

/** The versions, newest first: a radio pair per row picks the two compared, and any but the latest can be restored. */
function VersionTable(props: {
  versions: ReadonlyArray<Version>
  latest: number
  from: number
  to: number
  filePath: string
  readOnly: boolean
  onPick: (pick: { from: string } | { to: string }) => void
  onRestore: (version: Version) => void
}) {
  return (
    <div class="table-wrap">
      <table class="table versions-table">
        <caption class="visually-hidden">Versions of {props.filePath}, newest first; pick two to compare</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Compare from</th>
            <th scope="col">to</th>
            <th scope="col">Change</th>
            <th scope="col">Saved</th>
            <th scope="col" class="num">Size</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {props.versions.map((v) => (
            <tr key={v.id} data-version={v.versionNumber}>
              <th scope="row">v{v.versionNumber}{v.versionNumber === props.latest ? <span class="badge badge-success">latest</span> : null}</th>
              <td>
                <input type="radio" name="from" aria-label={`Compare from version ${v.versionNumber}`} checked={props.from === v.versionNumber} onChange={() => props.onPick({ from: String(v.versionNumber) })} />
              </td>
              <td>
                <input type="radio" name="to" aria-label={`Compare to version ${v.versionNumber}`} checked={props.to === v.versionNumber} onChange={() => props.onPick({ to: String(v.versionNumber) })} />
              </td>
              <td>
                <span class="badge badge-neutral">{SOURCES[v.source] ?? v.source}</span> {v.message ?? ""}
              </td>
              <td title={formatDate(v.createdAt)}>{formatAgo(v.createdAt)}</td>
              <td class="num">{formatBytes(v.sizeBytes)}</td>
              <td class="cell-actions">
                {props.readOnly || v.versionNumber === props.latest
                  ? null
                  : (
                    <button type="button" class="button button-small" onClick={() => props.onRestore(v)} aria-label={`Restore version ${v.versionNumber}`}>
                      Restore
                    </button>
                  )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function FileHistory(props: { bundleId: string; fileId: string; readOnly: boolean; onRestored: () => void }) {
  const { query, path, route } = useLocation()
  const file = useQuery((c) => c.files.get({ path: { artifactBundleId: props.bundleId, fileId: props.fileId } }), [props.fileId])
  const versions = useQuery((c) => c.versions.listFileVersions({ path: { artifactBundleId: props.bundleId, fileId: props.fileId }, urlParams: { limit: 200 } }), [props.fileId])
  const [restoring, setRestoring] = useState<Version | null>(null)
  const restore = useAction((c, versionNumber: number) =>
    c.versions.restoreFileVersion({
      path: { artifactBundleId: props.bundleId, fileId: props.fileId, versionNumber },
      payload: { message: `Restored version ${versionNumber}` }
    })
  )
  const mode = query["view"] === "unified" ? "unified" : "split"
  const setQuery = (next: Record<string, string>) => route(`${path}?${new URLSearchParams({ ...query, ...next })}`, true)
  return (
    <QueryView query={versions} label="Loading the history…">
      {({ data }) => {
        const list = data.versions
        if (list.length === 0) return <EmptyState title="No versions" />
        const latest = list[0]!.versionNumber
        const to = Number(query["to"] ?? latest)
        const from = Number(query["from"] ?? Math.max(1, to - 1))
        const filePath = file.data?.data.file.path ?? list[0]!.path
        return (
          <div class="file" data-testid="file-history">
            <header class="file-header">
              <div>
                <h2 class="file-path">History of {filePath}</h2>
                <p class="file-meta">{list.length} versions · the latest is {latest}</p>
              </div>
              <div class="file-actions">
                <a class="button button-small" href={`/bundles/${props.bundleId}/files/${props.fileId}`}>View file</a>
              </div>
            </header>
            <VersionTable
              versions={list}
              latest={latest}
              from={from}
              to={to}
              filePath={filePath}
              readOnly={props.readOnly}
              onPick={setQuery}
              onRestore={setRestoring}
            />
            <div class="compare-bar">
              <h3 class="subheading">Version {from} → version {to}</h3>
              <Segmented label="Diff layout" value={mode} options={[["split", "Side by side"], ["unified", "Unified"]]} onChange={(view) => setQuery({ view })} />
            </div>
            <Compare bundleId={props.bundleId} fileId={props.fileId} from={from} to={to} mode={mode} />
            <ConfirmDialog
              open={restoring !== null}
              title={`Restore version ${restoring?.versionNumber ?? ""}?`}
              confirmLabel="Restore"
              busy={restore.busy}
              error={restore.error}
              onClose={() => {
                setRestoring(null)
                restore.clearError()
              }}
              onConfirm={async () => {
                const answer = await restore.run(restoring!.versionNumber)
                if (answer) {
                  toast(`Restored version ${restoring!.versionNumber} as version ${answer.data.version.versionNumber}.`)
                  setRestoring(null)
                  props.onRestored()
                  void versions.reload()
                  route(`/bundles/${props.bundleId}/files/${props.fileId}/history?to=${answer.data.version.versionNumber}&from=${latest}&view=${mode}`, true)
                }
              }}
            >
              <p>
                Its content becomes the new latest version ({latest + 1}). Every version stays in the history.
              </p>
            </ConfirmDialog>
          </div>
        )
      }}
    </QueryView>
  )
}
