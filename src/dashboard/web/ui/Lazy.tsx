/** A component from a chunk loaded on first use, with a quiet placeholder meanwhile. */
import type { ComponentType } from "preact"
import { useEffect, useState } from "preact/hooks"

export function Loading(props: { label?: string }) {
  return (
    <div class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      <span>{props.label ?? "Loading…"}</span>
    </div>
  )
}

export function Lazy<P extends object>(props: { load: () => Promise<ComponentType<P>>; props: P; label?: string }) {
  const [Component, setComponent] = useState<ComponentType<P> | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    props.load().then(
      (c) => live && setComponent(() => c),
      (e: unknown) => live && setFailed(e instanceof Error ? e.message : String(e))
    )
    return () => void (live = false)
  }, [])
  if (failed) {
    return (
      <div class="notice notice-error" role="alert">
        <p class="notice-title">The page could not load</p>
        <p>{failed}</p>
        <button type="button" class="button" onClick={() => location.reload()}>Reload</button>
      </div>
    )
  }
  return Component ? <Component {...props.props} /> : <Loading label={props.label} />
}
