import { useState } from "preact/hooks"

/** Copies `text`; says so (to screen readers too) for two seconds. */
export const copyText = async (text: string) => {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    // no clipboard permission (an embedded or headless browser): the selection fallback
    const area = document.createElement("textarea")
    area.value = text
    area.setAttribute("readonly", "")
    area.className = "visually-hidden"
    document.body.append(area)
    area.select()
    const ok = document.execCommand("copy")
    area.remove()
    return ok
  }
}

export function CopyButton(props: { text: string; label?: string; class?: string }) {
  const [copied, setCopied] = useState(false)
  const label = props.label ?? "Copy"
  return (
    <button
      type="button"
      class={`button button-small ${props.class ?? ""}`}
      onClick={async () => {
        if (await copyText(props.text)) {
          setCopied(true)
          setTimeout(() => setCopied(false), 2000)
        }
      }}
    >
      <span aria-live="polite">{copied ? "Copied" : label}</span>
    </button>
  )
}
