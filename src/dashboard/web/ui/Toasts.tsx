/** Short confirmations ("Key revoked") in a polite live region, each with an optional action (Undo). */
import { useEffect, useState } from "preact/hooks"

export interface Toast {
  readonly id: number
  readonly message: string
  readonly action?: { readonly label: string; readonly run: () => void } | undefined
}

let toasts: ReadonlyArray<Toast> = []
let nextId = 1
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((l) => l())

export const dismiss = (id: number) => {
  toasts = toasts.filter((t) => t.id !== id)
  emit()
}

export const toast = (message: string, action?: Toast["action"]) => {
  const id = nextId++
  toasts = [...toasts.slice(-3), { id, message, action }]
  emit()
  setTimeout(() => dismiss(id), action ? 10000 : 5000)
}

export function Toasts() {
  const [list, setList] = useState(toasts)
  useEffect(() => {
    const l = () => setList(toasts)
    listeners.add(l)
    return () => void listeners.delete(l)
  }, [])
  return (
    <div class="toasts" role="status" aria-live="polite">
      {list.map((t) => (
        <div class="toast" key={t.id}>
          <span>{t.message}</span>
          {t.action
            ? (
              <button
                type="button"
                class="button button-small"
                onClick={() => {
                  dismiss(t.id)
                  t.action!.run()
                }}
              >
                {t.action.label}
              </button>
            )
            : null}
          <button type="button" class="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>×</button>
        </div>
      ))}
    </div>
  )
}
