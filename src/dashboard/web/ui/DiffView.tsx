/** A diff of two texts, side by side or unified, with line numbers; changes are named for screen readers too. */
import { useMemo } from "preact/hooks"
import { diffStats, splitRows, type UnifiedRow, unifiedRows } from "../lib/diff.js"

const mark = (kind: "same" | "add" | "del") => (kind === "add" ? "+" : kind === "del" ? "−" : " ")
const spoken = (kind: "same" | "add" | "del") =>
  kind === "same" ? null : <span class="visually-hidden">{kind === "add" ? "added: " : "removed: "}</span>

function Unified(props: { rows: ReadonlyArray<UnifiedRow> }) {
  return (
    <table class="diff diff-unified">
      <tbody>
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
      </tbody>
    </table>
  )
}

function Split(props: { rows: ReadonlyArray<UnifiedRow> }) {
  const rows = useMemo(() => splitRows(props.rows), [props.rows])
  return (
    <table class="diff diff-split">
      <tbody>
        {rows.map((r, i) => (
          <tr key={i}>
            <td class={`diff-ln diff-${r.left?.kind ?? "empty"}`}>{r.left?.line ?? ""}</td>
            <td class={`diff-text diff-${r.left?.kind ?? "empty"}`}>{r.left ? [spoken(r.left.kind), r.left.text] : null}</td>
            <td class={`diff-ln diff-${r.right?.kind ?? "empty"}`}>{r.right?.line ?? ""}</td>
            <td class={`diff-text diff-${r.right?.kind ?? "empty"}`}>{r.right ? [spoken(r.right.kind), r.right.text] : null}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function DiffView(props: { before: string; after: string; mode: "split" | "unified"; labels: readonly [string, string] }) {
  const rows = useMemo(() => unifiedRows(props.before, props.after), [props.before, props.after])
  const stats = diffStats(rows)
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
        : props.mode === "split"
        ? <Split rows={rows} />
        : <Unified rows={rows} />}
    </div>
  )
}
