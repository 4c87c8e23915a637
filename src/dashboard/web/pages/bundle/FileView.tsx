/**
 * A file: its text as source with line numbers, and rendered when it is markdown (sanitized: nothing
 * in a file runs); its latest version; edit, history and delete. A deleted file can be put back at
 * once (Undo): as a new file at the same path, since the service keeps a deleted file's history aside.
 */
import { useLocation } from "preact-iso"
import { useEffect, useState } from "preact/hooks"
import { api, asRubrError, type Client, type Data, useAction, useQuery } from "../../api.js"
import { ConfirmDialog } from "../../ui/Dialog.js"
import { formatAgo, formatBytes, formatDate } from "../../ui/format.js"
import { Loading } from "../../ui/Lazy.js"
import { QueryView } from "../../ui/Page.js"
import { toast } from "../../ui/Toasts.js"
import { Segmented } from "../../ui/Segmented.js"

export type FileData = Data<Client["files"]["get"]>

const isMarkdown = (path: string, mediaType: string) => /\.(md|markdown|mdx)$/i.test(path) || mediaType === "text/markdown"

/** The markdown module (marked + DOMPurify) is a chunk of its own, loaded for the first rendered file. */
export function Rendered(props: { text: string }) {
  const [html, setHtml] = useState<{ fields: ReadonlyArray<readonly [string, string]>; html: string } | null>(null)
  useEffect(() => {
    let live = true
    import("../../lib/markdown.js").then((m) => {
      const { fields, body } = m.splitFrontMatter(props.text)
      if (live) setHtml({ fields, html: m.renderMarkdown(body) })
    })
    return () => void (live = false)
  }, [props.text])
  if (!html) return <Loading label="Rendering…" />
  return (
    <div class="rendered">
      {html.fields.length > 0
        ? (
          <dl class="front-matter" aria-label="Front matter">
            {html.fields.map(([k, v]) => [<dt key={`k${k}`}>{k}</dt>, <dd key={`v${k}`}>{v}</dd>])}
          </dl>
        )
        : null}
      {/* sanitized by DOMPurify in lib/markdown.ts */}
      <div class="markdown" dangerouslySetInnerHTML={{ __html: html.html }} />
    </div>
  )
}

export function Source(props: { text: string; label: string }) {
  const lines = props.text.split("\n")
  if (lines.at(-1) === "") lines.pop()
  return (
    <div class="source" tabIndex={0} role="region" aria-label={props.label}>
      <table class="source-table">
        <tbody>
          {lines.map((line, i) => (
            <tr key={i} id={`L${i + 1}`}>
              <td class="source-ln" data-line={i + 1} aria-hidden="true" />
              <td class="source-text">{line === "" ? "\u200b" : line}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function FileView(props: { bundleId: string; fileId: string; readOnly: boolean; onChanged: () => void }) {
  const { route } = useLocation()
  const file = useQuery((c) => c.files.get({ path: { artifactBundleId: props.bundleId, fileId: props.fileId } }), [props.fileId])
  const [mode, setMode] = useState<"rendered" | "source" | null>(null)
  const [deleting, setDeleting] = useState(false)
  const remove = useAction((c) => c.files.delete({ path: { artifactBundleId: props.bundleId, fileId: props.fileId } }))
  const base = `/bundles/${props.bundleId}/files/${props.fileId}`
  return (
    <QueryView query={file} label="Loading the file…">
      {({ data }) => {
        const markdown = isMarkdown(data.file.path, data.file.metadata.mediaType)
        const shown = mode ?? (markdown ? "rendered" : "source")
        return (
          <article class="file" data-file-path={data.file.path}>
            <header class="file-header">
              <div>
                <h2 class="file-path">
                  {data.file.path} {data.file.isPrimary ? <span class="badge badge-primary">main artifact</span> : null}
                </h2>
                <p class="file-meta">
                  version {data.version.versionNumber} · {formatBytes(data.file.sizeBytes)} · {data.file.metadata.detectedLanguage} · saved{" "}
                  <span title={formatDate(data.version.createdAt)}>{formatAgo(data.version.createdAt)}</span>
                  {data.version.message ? <> · “{data.version.message}”</> : null}
                </p>
              </div>
              <div class="file-actions">
                {markdown
                  ? (
                    <Segmented label="Show as" value={shown} options={[["rendered", "Rendered"], ["source", "Source"]]} onChange={setMode} />
                  )
                  : null}
                {props.readOnly ? null : <a class="button button-small" href={`${base}/edit`}>Edit</a>}
                <a class="button button-small" href={`${base}/history`}>History</a>
                {props.readOnly ? null : <button type="button" class="button button-small button-danger-quiet" onClick={() => setDeleting(true)}>Delete</button>}
              </div>
            </header>
            {shown === "rendered" ? <Rendered text={data.content} /> : <Source text={data.content} label={`Source of ${data.file.path}`} />}
            <ConfirmDialog
              open={deleting}
              title={`Delete ${data.file.path}?`}
              confirmLabel="Delete file"
              danger
              busy={remove.busy}
              error={remove.error}
              onClose={() => {
                setDeleting(false)
                remove.clearError()
              }}
              onConfirm={async () => {
                const { path } = data.file
                const content = data.content
                if (!(await remove.run())) return
                setDeleting(false)
                props.onChanged()
                route(`/bundles/${props.bundleId}`)
                toast(`Deleted ${path}.`, {
                  label: "Undo",
                  run: async () => {
                    try {
                      const answer = await api((c) =>
                        c.files.upload({ path: { artifactBundleId: props.bundleId }, payload: { files: [{ path, content, message: "Put back after delete" }] } })
                      )
                      props.onChanged()
                      toast(`${path} is back (as a new file).`)
                      route(`/bundles/${props.bundleId}/files/${answer.data.files[0]!.file.id}`)
                    } catch (e) {
                      const error = asRubrError(e)
                      toast(`Could not put ${path} back: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ""}`)
                    }
                  }
                })
              }}
            >
              <p>
                It leaves the file list, audits and conversions; its versions stay stored for the record, and its path can be used again. You can undo
                right after.
              </p>
            </ConfirmDialog>
          </article>
        )
      }}
    </QueryView>
  )
}
