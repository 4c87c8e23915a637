/**
 * The bundle's version events, newest first (one per file version written), and restoring the whole
 * bundle to an earlier event: every file that existed then and is still active gets a restore version;
 * files created later or deleted since are skipped, and the result says which and why.
 */
import { useState } from "preact/hooks"
import { api, asRubrError, type Client, type Data, type RubrError, useAction, useQuery } from "../../api.js"
import { ConfirmDialog } from "../../ui/Dialog.js"
import { ErrorNotice } from "../../ui/ErrorNotice.js"
import { formatAgo, formatDate, plural } from "../../ui/format.js"
import { EmptyState, QueryView } from "../../ui/Page.js"
import { toast } from "../../ui/Toasts.js"
import type { Bundle } from "../Bundles.js"

type Event = Data<Client["versions"]["listBundleVersions"]>["versions"][number]
type Restored = Data<Client["versions"]["restoreBundle"]>

const SKIP_REASONS: Record<string, string> = {
  file_missing_or_deleted: "deleted since, or created after that version",
  file_deleted: "deleted since",
  file_created_later: "created after that version"
}

const PAGE = 50

/** What a restore did: the files that got a new version, and those skipped and why. */
function RestoreResult(props: { result: Restored; onDismiss: () => void }) {
  const { result } = props
  return (
    <section class="notice notice-success" role="status" data-testid="restore-result">
      <p class="notice-title">Restored to version {result.restoredFromArtifactBundleVersionNumber}</p>
      <p>{plural(result.restoredFiles.length, "file")} restored{result.restoredFiles.length > 0 ? ":" : "."}</p>
      {result.restoredFiles.length > 0
        ? <ul class="plain-list">{result.restoredFiles.map((f) => <li key={f.file.id}><code>{f.file.path}</code> is now version {f.version.versionNumber}</li>)}</ul>
        : null}
      {result.skippedFiles.length > 0
        ? (
          <>
            <p>{plural(result.skippedFiles.length, "file")} skipped:</p>
            <ul class="plain-list" data-testid="skipped-files">
              {result.skippedFiles.map((f) => <li key={f.fileId}><code>{f.path}</code>: {SKIP_REASONS[f.reason] ?? f.reason}</li>)}
            </ul>
          </>
        )
        : null}
      <button type="button" class="button button-small" onClick={props.onDismiss}>Dismiss</button>
    </section>
  )
}

/** The version events, newest first, each but the newest one a point the bundle can be restored to. */
function Timeline(props: { events: ReadonlyArray<Event>; newest: number; archived: boolean; onRestore: (event: Event) => void }) {
  return (
    <ol class="timeline">
      {props.events.map((e) => (
        <li key={e.id} class="timeline-item" data-bundle-version={e.artifactBundleVersionNumber}>
          <span class="timeline-number">#{e.artifactBundleVersionNumber}</span>
          <div class="timeline-body">
            <p>
              <code>{e.filePath}</code> version {e.fileVersionNumber} <span class="badge badge-neutral">{e.source}</span>
            </p>
            {e.message ? <p class="muted">{e.message}</p> : null}
            <p class="hint" title={formatDate(e.createdAt)}>{formatAgo(e.createdAt)}</p>
          </div>
          {e.artifactBundleVersionNumber === props.newest || props.archived
            ? null
            : (
              <button type="button" class="button button-small" onClick={() => props.onRestore(e)} aria-label={`Restore to here (bundle version ${e.artifactBundleVersionNumber})`}>
                Restore to here
              </button>
            )}
        </li>
      ))}
    </ol>
  )
}

export function BundleHistory(props: { bundle: Bundle; onRestored: () => void }) {
  const bundleId = props.bundle.id
  const first = useQuery((c) => c.versions.listBundleVersions({ path: { artifactBundleId: bundleId }, urlParams: { limit: PAGE } }), [bundleId, props.bundle.versionCount])
  const [older, setOlder] = useState<{ events: Array<Event>; cursor: string | null } | null>(null)
  const [olderError, setOlderError] = useState<RubrError | null>(null)
  const [restoring, setRestoring] = useState<Event | null>(null)
  const [result, setResult] = useState<Restored | null>(null)
  const restore = useAction((c, versionNumber: number) =>
    c.versions.restoreBundle({ path: { artifactBundleId: bundleId }, payload: { versionNumber, message: `Restored the bundle to version ${versionNumber}` } })
  )
  const loadOlder = async (cursor: string) => {
    setOlderError(null)
    try {
      const { data } = await api((c) => c.versions.listBundleVersions({ path: { artifactBundleId: bundleId }, urlParams: { limit: PAGE, cursor } }))
      setOlder((o) => ({ events: [...(o?.events ?? []), ...data.versions], cursor: data.pagination.nextCursor }))
    } catch (e) {
      setOlderError(asRubrError(e))
    }
  }
  return (
    <div class="file" data-testid="bundle-history">
      <header class="file-header">
        <div>
          <h2 class="file-path">History of {props.bundle.name}</h2>
          <p class="file-meta">Every file version written in this bundle, newest first. Restore the bundle to any of them.</p>
        </div>
      </header>
      {result ? <RestoreResult result={result} onDismiss={() => setResult(null)} /> : null}
      <QueryView query={first} label="Loading the history…">
        {({ data }) => {
          const events = [...data.versions, ...(older?.events ?? [])]
          const cursor = older ? older.cursor : data.pagination.nextCursor
          if (events.length === 0) return <EmptyState title="No versions yet" />
          const newest = events[0]!.artifactBundleVersionNumber
          return (
            <>
              <Timeline events={events} newest={newest} archived={props.bundle.status === "archived"} onRestore={setRestoring} />
              {olderError ? <ErrorNotice error={olderError} onRetry={() => void loadOlder(cursor!)} /> : null}
              {cursor ? <button type="button" class="button" onClick={() => void loadOlder(cursor)}>Load older versions</button> : null}
            </>
          )
        }}
      </QueryView>
      <ConfirmDialog
        open={restoring !== null}
        title={`Restore the bundle to version ${restoring?.artifactBundleVersionNumber ?? ""}?`}
        confirmLabel="Restore bundle"
        busy={restore.busy}
        error={restore.error}
        onClose={() => {
          setRestoring(null)
          restore.clearError()
        }}
        onConfirm={async () => {
          const answer = await restore.run(restoring!.artifactBundleVersionNumber)
          if (answer) {
            setResult(answer.data)
            setRestoring(null)
            setOlder(null)
            toast(`Restored the bundle to version ${answer.data.restoredFromArtifactBundleVersionNumber}.`)
            props.onRestored()
          }
        }}
      >
        <p>
          Every file that existed at that version and is still in the bundle gets its content from then, as a new version. Files added later, or deleted
          since, are left as they are and listed.
        </p>
      </ConfirmDialog>
    </div>
  )
}
