/**
 * Editing a file: CodeMirror 6 (its own chunk, loaded here) over the latest version; saving writes a
 * new version with an optional message. The draft is kept in sessionStorage while unsaved, so a failed
 * save, a reload or a network failure loses nothing typed.
 */
import { useLocation } from "preact-iso"
import { useEffect, useRef, useState } from "preact/hooks"
import { useAction, useQuery } from "../../api.js"
import { ErrorNotice } from "../../ui/ErrorNotice.js"
import { Loading } from "../../ui/Lazy.js"
import { QueryView } from "../../ui/Page.js"
import { toast } from "../../ui/Toasts.js"

const draftKey = (fileId: string, version: number) => `rubr.draft.${fileId}.${version}`

function Editor(props: { initial: string; label: string; onChange: (text: string) => void; onSave: () => void }) {
  const host = useRef<HTMLDivElement>(null)
  const [ready, setReady] = useState(false)
  useEffect(() => {
    let destroy: (() => void) | undefined
    let live = true
    import("../../lib/editor.js").then((m) => {
      if (!live || !host.current) return
      destroy = m.mountEditor(host.current, { doc: props.initial, label: props.label, onChange: props.onChange, onSave: props.onSave })
      setReady(true)
    })
    return () => {
      live = false
      destroy?.()
    }
  }, [])
  return (
    <div class="editor-frame">
      {ready ? null : <Loading label="Loading the editor…" />}
      <div ref={host} class="editor-host" data-testid="editor" />
    </div>
  )
}

export function EditFile(props: { bundleId: string; fileId: string; readOnly: boolean; onSaved: () => void }) {
  const { route } = useLocation()
  const file = useQuery((c) => c.files.get({ path: { artifactBundleId: props.bundleId, fileId: props.fileId } }), [props.fileId])
  const [text, setText] = useState<string | null>(null)
  const [message, setMessage] = useState("")
  const latestText = useRef<string | null>(null)
  // the editor binds Mod-s once; it calls the latest save (with the message as typed now)
  const saveRef = useRef<() => void>(() => undefined)
  const save = useAction((c, content: string, message: string) =>
    c.files.update({
      path: { artifactBundleId: props.bundleId, fileId: props.fileId },
      payload: message.trim() === "" ? { content } : { content, message: message.trim() }
    })
  )
  const view = `/bundles/${props.bundleId}/files/${props.fileId}`
  return (
    <QueryView query={file} label="Loading the file…">
      {({ data }) => {
        const key = draftKey(props.fileId, data.version.versionNumber)
        const draft = sessionStorage.getItem(key)
        const initial = draft ?? data.content
        const current = text ?? initial
        const dirty = current !== data.content
        const doSave = async () => {
          const content = latestText.current ?? current
          const answer = await save.run(content, message)
          if (answer) {
            sessionStorage.removeItem(key)
            toast(`Saved ${data.file.path} as version ${answer.data.version.versionNumber}.`)
            props.onSaved()
            route(view)
          }
        }
        saveRef.current = () => void doSave()
        return (
          <form
            class="file file-editing"
            onSubmit={(e) => {
              e.preventDefault()
              void doSave()
            }}
          >
            <header class="file-header">
              <div>
                <h2 class="file-path">Editing {data.file.path}</h2>
                <p class="file-meta">
                  from version {data.version.versionNumber}
                  {draft !== null ? <span class="badge badge-neutral">unsaved draft restored</span> : null}
                </p>
              </div>
              <div class="file-actions">
                <a class="button button-small" href={view}>Cancel</a>
              </div>
            </header>
            {props.readOnly
              ? <p class="notice notice-info">This bundle is archived: unarchive it to edit files.</p>
              : (
                <Editor
                  initial={initial}
                  label={`Content of ${data.file.path}`}
                  onChange={(t) => {
                    latestText.current = t
                    setText(t)
                    if (t === data.content) sessionStorage.removeItem(key)
                    else sessionStorage.setItem(key, t)
                  }}
                  onSave={() => saveRef.current()}
                />
              )}
            <div class="save-bar">
              <div class="field field-grow">
                <label for="save-message" class="visually-hidden">Version message</label>
                <input
                  id="save-message"
                  class="input"
                  placeholder="Describe the change (optional)"
                  maxLength={2000}
                  value={message}
                  onInput={(e) => setMessage(e.currentTarget.value)}
                />
              </div>
              <button type="submit" class="button button-primary" disabled={!dirty || save.busy || props.readOnly}>
                {save.busy ? "Saving…" : "Save new version"}
              </button>
            </div>
            <p class="hint">Ctrl+S (⌘S) saves. Earlier versions stay readable in the history.</p>
            {save.error ? <ErrorNotice error={save.error} onRetry={() => void doSave()} /> : null}
          </form>
        )
      }}
    </QueryView>
  )
}
