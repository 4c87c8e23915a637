/**
 * Modal dialogs on the native <dialog> element: focus moves in and is trapped, Escape closes, focus
 * returns to what opened it. A confirmation may ask the person to type a word (a bundle's name) first.
 */
import type { ComponentChildren } from "preact"
import { useEffect, useId, useLayoutEffect, useRef, useState } from "preact/hooks"
import type { RubrError } from "rubr/client"
import { ErrorNotice } from "./ErrorNotice.js"

export function Dialog(props: { open: boolean; title: string; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  // The open prop is the one truth. Escape asks the owner to close (the `cancel` event, at once);
  // the native `close` event arrives later as a task, so it is forwarded only when the dialog was
  // closed behind our back while still meant to be open: a stale one must not shut a dialog the
  // person has already reopened (Escape then Enter, quickly).
  const meantOpen = useRef(props.open)
  meantOpen.current = props.open
  // a layout effect: the native dialog opens and closes in the same commit as the state, not a frame later
  useLayoutEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (props.open && !dialog.open) dialog.showModal()
    if (!props.open && dialog.open) dialog.close()
  }, [props.open])
  return (
    <dialog ref={ref} class={`dialog${props.wide ? " dialog-wide" : ""}`} aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault()
        props.onClose()
      }}
      onClose={() => {
        if (meantOpen.current && !ref.current?.open) props.onClose()
      }}
    >
      {props.open
        ? (
          <div class="dialog-body">
            <h2 id={titleId} class="dialog-title">{props.title}</h2>
            {props.children}
          </div>
        )
        : null}
    </dialog>
  )
}

export function ConfirmDialog(props: {
  open: boolean
  title: string
  children: ComponentChildren
  confirmLabel: string
  danger?: boolean
  /** the person types this exactly before the confirm button works */
  typeToConfirm?: string
  busy?: boolean
  error?: RubrError | undefined
  onConfirm: () => void
  onClose: () => void
}) {
  const [typed, setTyped] = useState("")
  const inputId = useId()
  useEffect(() => setTyped(""), [props.open])
  const ready = props.typeToConfirm === undefined || typed === props.typeToConfirm
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onClose}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault()
          if (ready && !props.busy) props.onConfirm()
        }}
      >
        <div class="dialog-text">{props.children}</div>
        {props.typeToConfirm !== undefined
          ? (
            <div class="field">
              <label for={inputId}>
                Type <strong class="confirm-word">{props.typeToConfirm}</strong> to confirm
              </label>
              <input
                id={inputId}
                class="input"
                value={typed}
                autocomplete="off"
                spellcheck={false}
                onInput={(e) => setTyped(e.currentTarget.value)}
              />
            </div>
          )
          : null}
        {props.error ? <ErrorNotice error={props.error} onRetry={() => ready && !props.busy && props.onConfirm()} /> : null}
        <div class="dialog-actions">
          <button type="button" class="button" onClick={props.onClose}>Cancel</button>
          <button type="submit" class={`button ${props.danger ? "button-danger" : "button-primary"}`} disabled={!ready || props.busy}>
            {props.busy ? "Working…" : props.confirmLabel}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
