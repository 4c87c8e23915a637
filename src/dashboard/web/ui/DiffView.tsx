/**
 * A diff of two texts, side by side or unified, with line numbers. Long runs of unchanged lines fold
 * away (three lines of context stay around each change), each fold a button that opens it; changes are
 * named for screen readers too.
 */
import { useMemo, useState } from "preact/hooks"
import { diffStats, splitRows, type UnifiedRow, unifiedRows } from "../lib/diff.js"

const CONTEXT = 3

type Segment =
  | { readonly kind: "rows"; readonly rows: ReadonlyArray<UnifiedRow> }
  | { readonly kind: "fold"; readonly at: number; readonly rows: ReadonlyArray<UnifiedRow> }

/** The rows, with unchanged stretches longer than the context around changes folded. */
export const segmentsOf = (rows: ReadonlyArray<UnifiedRow>): Array<Segment> => {
  const changed = rows.map((r) => r.kind !== "same")
  const near = rows.map((_, i) => {
    for (let d = -CONTEXT; d <= CONTEXT; d++) if (changed[i + d]) return true
    return false
  })
  const out: Array<Segment> = []
  let i = 0
  while (i < rows.length) {
    const start = i
    const visible = near[i]
    while (i < rows.length && near[i] === visible) i++
    const slice = rows.slice(start, i)
    // a fold of one or two lines hides nothing worth a click
    if (!visible && slice.length > 2) out.push({ kind: "fold", at: start, rows: slice })
    else out.push({ kind: "rows", rows: slice })
  }
  return out
}

const mark = (kind: "same" | "add" | "del") => (kind === "add" ? "+" : kind === "del" ? "−" : " ")
const spoken = (kind: "same" | "add" | "del") =>
  kind === "same" ? null : <span class="visually-hidden">{kind === "add" ? "added: " : "removed: "}</span>

function UnifiedRows(props: { rows: ReadonlyArray<UnifiedRow> }) {
  return (
    <>
      {props.rows.map((r, i) => (
        <tr key={i} class={`diff-${r.kind}`}>
          <td class="diff-ln">{r.oldLine ?? ""}</td>
          <td class="diff-ln">{r.newLine ?? ""}</td>
          <td class="diff-text">
            <span class="diff-mark" aria-hidden="true">{mark(r.kind)}</span>
            {spoken(r.kind)}
            {r.text}
          </td>
        </tr>
      ))}
    </>
  )
}

function SplitRows(props: { rows: ReadonlyArray<UnifiedRow> }) {
  return (
    <>
      {splitRows(props.rows).map((r, i) => (
        <tr key={i}>
          <td class={`diff-ln diff-${r.left?.kind ?? "empty"}`}>{r.left?.line ?? ""}</td>
          <td class={`diff-text diff-${r.left?.kind ?? "empty"}`}>{r.left ? [spoken(r.left.kind), r.left.text] : null}</td>
          <td class={`diff-ln diff-${r.right?.kind ?? "empty"}`}>{r.right?.line ?? ""}</td>
          <td class={`diff-text diff-${r.right?.kind ?? "empty"}`}>{r.right ? [spoken(r.right.kind), r.right.text] : null}</td>
        </tr>
      ))}
    </>
  )
}

export function DiffView(props: { before: string; after: string; mode: "split" | "unified"; labels: readonly [string, string] }) {
  const rows = useMemo(() => unifiedRows(props.before, props.after), [props.before, props.after])
  const segments = useMemo(() => segmentsOf(rows), [rows])
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set())
  const stats = diffStats(rows)
  const Rows = props.mode === "split" ? SplitRows : UnifiedRows
  const columns = props.mode === "split" ? 4 : 3
  return (
    <div class="diff-wrap" data-testid="diff" data-mode={props.mode} tabIndex={0} role="region" aria-label={`Changes from ${props.labels[0]} to ${props.labels[1]}`}>
      <div class="diff-header">
        <span>{props.labels[0]} → {props.labels[1]}</span>
        <span class="diff-stats">
          <span class="amount-grant">+{stats.added}</span> <span class="amount-debit">−{stats.removed}</span>
        </span>
      </div>
      {stats.added === 0 && stats.removed === 0
        ? <p class="muted diff-same">The two versions have the same content.</p>
        : (
          <table class={`diff diff-${props.mode}`}>
            {/* the widths come from here: the first row may be a fold spanning every column */}
            <colgroup>
              {props.mode === "split"
                ? [<col key="a" class="diff-col-ln" />, <col key="b" />, <col key="c" class="diff-col-ln" />, <col key="d" />]
                : [<col key="a" class="diff-col-ln" />, <col key="b" class="diff-col-ln" />, <col key="c" />]}
            </colgroup>
            <tbody>
              {segments.map((segment) =>
                segment.kind === "rows" || opened.has(segment.at)
                  ? <Rows key={`r${segment.rows[0]?.oldLine}-${segment.rows[0]?.newLine}`} rows={segment.rows} />
                  : (
                    <tr key={`f${segment.at}`} class="diff-fold">
                      <td colSpan={columns}>
                        <button type="button" class="diff-fold-button" onClick={() => setOpened((o) => new Set(o).add(segment.at))}>
                          Show {segment.rows.length} unchanged lines
                        </button>
                      </td>
                    </tr>
                  )
              )}
            </tbody>
          </table>
        )}
    </div>
  )
}
