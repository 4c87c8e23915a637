/**
 * One pager for every paged list: Newer and Older around "Page n" (of m, when the list knows its
 * length). Lists the page holds whole (the ledger) page through what they have; lists the service
 * pages (runs, jobs) follow its `nextCursor` with `useCursorPages`.
 */
import { useState } from "preact/hooks"
import { type Client, type Query, useQuery } from "../api.js"

export interface PagerProps {
  /** the page shown, from 0 */
  readonly page: number
  /** how many pages there are, when known */
  readonly pages?: number | undefined
  /** whether there is a page after this one */
  readonly hasOlder: boolean
  readonly onPage: (page: number) => void
}

export function Pager(props: PagerProps) {
  return (
    <div class="pager">
      <button type="button" class="button button-small" disabled={props.page === 0} onClick={() => props.onPage(props.page - 1)}>Newer</button>
      <span class="muted">Page {props.page + 1}{props.pages === undefined ? "" : ` of ${props.pages}`}</span>
      <button type="button" class="button button-small" disabled={!props.hasOlder} onClick={() => props.onPage(props.page + 1)}>Older</button>
    </div>
  )
}

/** A pager over rows the page holds whole, `size` rows a page. */
export const pageOf = <A,>(rows: ReadonlyArray<A>, page: number, size: number) => {
  const pages = Math.max(1, Math.ceil(rows.length / size))
  return { shown: rows.slice(page * size, page * size + size), pages, hasOlder: page + 1 < pages }
}

/**
 * A list the service pages, newest first: the query of the page shown, and the pager's props (the
 * cursors of the pages already seen are kept, so Newer goes back without asking twice for a cursor).
 * `reset` goes back to the first page (when a filter changes).
 */
export const useCursorPages = <A extends { readonly data: { readonly pagination: { readonly nextCursor: string | null } } }>(
  load: (c: Client, cursor: string | undefined) => Promise<A>,
  deps: ReadonlyArray<unknown>
): { readonly query: Query<A>; readonly pager: PagerProps; readonly reset: () => void } => {
  const [cursors, setCursors] = useState<ReadonlyArray<string | undefined>>([undefined])
  const page = cursors.length - 1
  const cursor = cursors[page]
  const query = useQuery((c) => load(c, cursor), [...deps, cursor])
  const next = query.data?.data.pagination.nextCursor ?? null
  return {
    query,
    pager: {
      page,
      hasOlder: next !== null,
      onPage: (to) => setCursors(to > page ? (next === null ? cursors : [...cursors, next]) : cursors.slice(0, Math.max(1, to + 1)))
    },
    reset: () => setCursors([undefined])
  }
}
