/** The parts every page shares: its header (title, description, actions) and the states of its data. */
import type { ComponentChildren } from "preact"
import type { Query } from "../api.js"
import { ErrorNotice } from "./ErrorNotice.js"
import { Loading } from "./Lazy.js"

export function PageHeader(props: { title: ComponentChildren; description?: ComponentChildren; actions?: ComponentChildren; eyebrow?: ComponentChildren }) {
  return (
    <div class="page-header">
      <div>
        {props.eyebrow ? <div class="eyebrow">{props.eyebrow}</div> : null}
        <h1 class="page-title">{props.title}</h1>
        {props.description ? <p class="page-description">{props.description}</p> : null}
      </div>
      {props.actions ? <div class="page-actions">{props.actions}</div> : null}
    </div>
  )
}

/** Loading, the error (with retry), or the data; a reload keeps the data on screen. */
export function QueryView<A>(props: { query: Query<A>; children: (data: A) => ComponentChildren; label?: string }) {
  const { query } = props
  return (
    <>
      {query.error ? <ErrorNotice error={query.error} onRetry={query.reload} /> : null}
      {query.data !== undefined ? props.children(query.data) : query.loading ? <Loading label={props.label} /> : null}
    </>
  )
}

export function EmptyState(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{props.title}</p>
      {props.children}
    </div>
  )
}
