/**
 * Uploading into a bundle: drop files or a whole folder (or pick them), see what will go in and what
 * is skipped and why, then upload with a progress bar. A path the bundle already has gets a new version
 * when its content changed (unchanged files are left alone), as `rubr check` syncs a folder.
 */
import { useRef, useState } from "preact/hooks"
import { api, asRubrError, type Client, type Data, type RubrError } from "../../api.js"
import { batches, type Candidate, candidatesFromDrop, candidatesFromInput, prepare, type Prepared, sha256, type Skipped, stripCommonFolder } from "../../lib/upload.js"
import { ErrorNotice } from "../../ui/ErrorNotice.js"
import { formatBytes, plural } from "../../ui/format.js"

type FileRecord = Data<Client["artifactBundles"]["get"]>["files"][number]

interface Plan {
  readonly folder: string | null
  readonly create: ReadonlyArray<Prepared>
  readonly update: ReadonlyArray<Prepared & { readonly fileId: string }>
  readonly unchanged: ReadonlyArray<string>
  readonly skipped: ReadonlyArray<Skipped>
}

interface Progress {
  readonly done: number
  readonly total: number
}

const planOf = async (candidates: ReadonlyArray<Candidate>, existing: ReadonlyArray<FileRecord>): Promise<Plan> => {
  const { candidates: stripped, folder } = stripCommonFolder(candidates)
  const { files, skipped } = await prepare(stripped)
  const byPath = new Map(existing.map((f) => [f.path, f]))
  const create: Array<Prepared> = []
  const update: Array<Prepared & { fileId: string }> = []
  const unchanged: Array<string> = []
  for (const f of files) {
    const current = byPath.get(f.path)
    if (!current) create.push(f)
    else if (current.contentHash === (await sha256(f.content))) unchanged.push(f.path)
    else update.push({ ...f, fileId: current.id })
  }
  return { folder, create, update, unchanged, skipped }
}

/** The upload's two steps and their state: read what was dropped or picked into a plan, then send it. */
const useUpload = (props: { bundleId: string; existing: ReadonlyArray<FileRecord>; onUploaded: () => void }) => {
  const [plan, setPlan] = useState<Plan | null>(null)
  const [reading, setReading] = useState(false)
  const [progress, setProgress] = useState<Progress | null>(null)
  const [error, setError] = useState<RubrError | null>(null)
  const [finished, setFinished] = useState<{ created: number; updated: number } | null>(null)
  const sent = useRef(new Set<string>())

  const take = async (candidates: Promise<Array<Candidate>> | Array<Candidate>) => {
    setReading(true)
    setError(null)
    setFinished(null)
    sent.current = new Set()
    try {
      setPlan(await planOf(await candidates, props.existing))
    } catch (e) {
      setError(asRubrError(e))
    } finally {
      setReading(false)
    }
  }

  /** Sends what is not sent yet: a retry after a failure picks up where it stopped. */
  const upload = async () => {
    if (!plan) return
    setError(null)
    const total = plan.create.length + plan.update.length
    let done = sent.current.size
    setProgress({ done, total })
    try {
      for (const batch of batches(plan.create.filter((f) => !sent.current.has(f.path)))) {
        await api((c) =>
          c.files.upload({
            path: { artifactBundleId: props.bundleId },
            payload: { files: batch.map((f) => ({ path: f.path, content: f.content, message: plan.folder ? `Uploaded from ${plan.folder}/` : "Uploaded" })) }
          })
        )
        batch.forEach((f) => sent.current.add(f.path))
        done += batch.length
        setProgress({ done, total })
      }
      for (const f of plan.update.filter((u) => !sent.current.has(u.path))) {
        await api((c) =>
          c.files.update({ path: { artifactBundleId: props.bundleId, fileId: f.fileId }, payload: { content: f.content, message: "Uploaded a new version" } })
        )
        sent.current.add(f.path)
        done += 1
        setProgress({ done, total })
      }
      setFinished({ created: plan.create.length, updated: plan.update.length })
      setPlan(null)
      props.onUploaded()
    } catch (e) {
      setError(asRubrError(e))
      props.onUploaded()
    }
  }

  const busy = reading || (progress !== null && progress.done < progress.total && error === null && finished === null)
  return { plan, reading, progress, error, finished, busy, take, upload }
}

/** Where files come in: dropped (files or a folder), or picked with the two hidden inputs its buttons open. */
function Dropzone(props: { busy: boolean; onTake: (candidates: Promise<Array<Candidate>> | Array<Candidate>) => void }) {
  const [over, setOver] = useState(false)
  const filesInput = useRef<HTMLInputElement>(null)
  const folderInput = useRef<HTMLInputElement>(null)
  const { busy } = props
  return (
    <div
      class={`dropzone${over ? " dropzone-over" : ""}`}
      data-testid="dropzone"
      onDragOver={(e) => {
        e.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault()
        setOver(false)
        if (e.dataTransfer) props.onTake(candidatesFromDrop(e.dataTransfer))
      }}
    >
      <p class="dropzone-title">Drop files or a folder here</p>
      <p class="hint">Text files up to 1 MiB each. A dropped folder's contents go in at the bundle's root.</p>
      <div class="button-row">
        <button type="button" class="button" onClick={() => filesInput.current?.click()} disabled={busy}>Choose files</button>
        <button type="button" class="button" onClick={() => folderInput.current?.click()} disabled={busy}>Choose a folder</button>
      </div>
      <input ref={filesInput} type="file" multiple class="visually-hidden" tabIndex={-1} aria-label="Choose files" data-testid="files-input" onChange={(e) => props.onTake(candidatesFromInput(e.currentTarget.files))} />
      <input
        ref={folderInput}
        type="file"
        class="visually-hidden"
        tabIndex={-1}
        aria-label="Choose a folder"
        data-testid="folder-input"
        {...{ webkitdirectory: true }}
        onChange={(e) => props.onTake(candidatesFromInput(e.currentTarget.files))}
      />
    </div>
  )
}

/** What will go in (new files, new versions), what is left as it is, what is skipped and why; and the button that sends it. */
function PlanSummary(props: { plan: Plan; busy: boolean; onUpload: () => void }) {
  const { plan, busy } = props
  return (
    <div class="upload-plan" data-testid="upload-plan">
      <p>
        {plan.folder ? <>From <code>{plan.folder}/</code>: </> : null}
        {plural(plan.create.length, "new file")}, {plural(plan.update.length, "changed file")}
        {plan.unchanged.length > 0 ? <>, {plural(plan.unchanged.length, "unchanged file")} left as they are</> : null}
        {plan.skipped.length > 0 ? <>, {plural(plan.skipped.length, "file")} skipped</> : null}.
      </p>
      <ul class="plain-list upload-list">
        {plan.create.map((f) => <li key={f.path}><span class="badge badge-success">new</span> <code>{f.path}</code> <span class="hint">{formatBytes(f.size)}</span></li>)}
        {plan.update.map((f) => <li key={f.path}><span class="badge badge-primary">new version</span> <code>{f.path}</code> <span class="hint">{formatBytes(f.size)}</span></li>)}
      </ul>
      {plan.skipped.length > 0
        ? (
          <details class="skipped" open>
            <summary>Skipped ({plan.skipped.length})</summary>
            <ul class="plain-list" data-testid="upload-skipped">
              {plan.skipped.map((s) => <li key={s.path}><code>{s.path}</code>: {s.reason}</li>)}
            </ul>
          </details>
        )
        : null}
      <button type="button" class="button button-primary" disabled={busy || plan.create.length + plan.update.length === 0} onClick={props.onUpload}>
        Upload {plural(plan.create.length + plan.update.length, "file")}
      </button>
    </div>
  )
}

export function UploadPanel(props: { bundleId: string; existing: ReadonlyArray<FileRecord>; onClose: () => void; onUploaded: () => void }) {
  const { plan, reading, progress, error, finished, busy, take, upload } = useUpload(props)
  return (
    <section class="card upload" aria-labelledby="upload-title" data-testid="upload">
      <div class="card-header">
        <h2 id="upload-title" class="card-title">Upload files</h2>
        <button type="button" class="button button-small" onClick={props.onClose}>Close</button>
      </div>
      <Dropzone busy={busy} onTake={(candidates) => void take(candidates)} />
      {reading ? <p role="status" class="muted">Reading files…</p> : null}
      {plan ? <PlanSummary plan={plan} busy={busy} onUpload={() => void upload()} /> : null}
      {progress && !finished
        ? (
          <div class="progress-row">
            <label for="upload-progress">Uploaded {progress.done} of {progress.total}</label>
            <progress id="upload-progress" max={Math.max(1, progress.total)} value={progress.done} />
          </div>
        )
        : null}
      {finished
        ? (
          <p class="notice notice-success" role="status" data-testid="upload-done">
            Uploaded: {plural(finished.created, "new file")}, {plural(finished.updated, "new version")}.
          </p>
        )
        : null}
      {error ? <ErrorNotice error={error} onRetry={() => void upload()} /> : null}
    </section>
  )
}
