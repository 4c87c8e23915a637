/**
 * A file's text with notes anchored to its lines: a gutter mark by severity where each note starts (a
 * button: choosing it selects the note), its lines tinted, and its message in a row right below its
 * last line. Audit findings and rubr_flow validation issues both use it. The selected note's lines
 * are scrolled into view (`scrollToNote`), so a list beside it and the file follow each other.
 */
import type { ComponentChildren } from "preact"
import { useEffect, useMemo, useRef } from "preact/hooks"

export type NoteSeverity = "critical" | "major" | "minor" | "info" | "error" | "warning"

export interface LineNote {
  readonly id: string
  readonly lineStart: number
  readonly lineEnd: number
  readonly severity: NoteSeverity
  /** short: the rule id or issue code */
  readonly label: string
  readonly message: string
  readonly detail?: ComponentChildren
}

const RANK: Record<NoteSeverity, number> = { critical: 0, error: 0, major: 1, warning: 2, minor: 2, info: 3 }

/** The DOM id of a note's first line, for links and scrolling. */
export const lineId = (prefix: string, line: number) => `${prefix}-L${line}`

export function AnnotatedSource(props: {
  text: string
  notes: ReadonlyArray<LineNote>
  /** names the region for screen readers: "SKILL.md, version 3, with 12 findings" */
  label: string
  /** DOM id prefix of the lines (two views on one page need two) */
  idPrefix: string
  selected: string | null
  onSelect: (id: string) => void
}) {
  const lines = useMemo(() => {
    const all = props.text.split("\n")
    if (all.at(-1) === "") all.pop()
    return all
  }, [props.text])
  // notes clamped into the text (a whole-file finding may name line 1 of an empty file), by start and by end
  const { starting, ending, tint } = useMemo(() => {
    const last = Math.max(1, lines.length)
    const starting = new Map<number, Array<LineNote>>()
    const ending = new Map<number, Array<LineNote>>()
    const tint = new Map<number, NoteSeverity>()
    for (const note of [...props.notes].sort((a, b) => RANK[a.severity] - RANK[b.severity])) {
      const start = Math.min(Math.max(1, note.lineStart), last)
      const end = Math.min(Math.max(start, note.lineEnd), last)
      starting.set(start, [...(starting.get(start) ?? []), note])
      ending.set(end, [...(ending.get(end) ?? []), note])
      for (let l = start; l <= end; l++) if (!tint.has(l)) tint.set(l, note.severity)
    }
    return { starting, ending, tint }
  }, [props.notes, lines.length])
  const selectedNote = props.notes.find((n) => n.id === props.selected)
  const container = useRef<HTMLDivElement>(null)
  const mounting = useRef(true)
  useEffect(() => {
    const first = mounting.current
    mounting.current = false
    if (!selectedNote) return
    const row = document.getElementById(lineId(props.idPrefix, Math.max(1, Math.min(selectedNote.lineStart, lines.length))))
    const box = container.current
    if (!row || !box) return
    // the file scrolls inside its own box; the page moves only for a choice made now, and only when the line is out of sight
    const top = box.scrollTop + row.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientHeight / 3
    box.scrollTo({ top, behavior: first ? "auto" : "smooth" })
    const rect = row.getBoundingClientRect()
    if (!first && (rect.top < 0 || rect.bottom > window.innerHeight)) row.scrollIntoView({ block: "center", behavior: "smooth" })
  }, [props.selected])
  const inSelected = (line: number) =>
    selectedNote !== undefined && line >= selectedNote.lineStart && line <= Math.max(selectedNote.lineStart, selectedNote.lineEnd)
  return (
    <div class="annotated" ref={container} tabIndex={0} role="region" aria-label={props.label} data-testid="annotated-source">
      <table class="source-table annotated-table">
        <tbody>
          {lines.map((text, i) => {
            const line = i + 1
            const marks = starting.get(line)
            const notes = ending.get(line)
            const sev = tint.get(line)
            return [
              <tr key={line} id={lineId(props.idPrefix, line)} class={`${sev ? `tint tint-${sev}` : ""}${inSelected(line) ? " line-selected" : ""}`} data-line={line}>
                <td class="source-ln" data-line={line} aria-hidden="true" />
                <td class="gutter">
                  {marks?.map((n) => (
                    <button
                      key={n.id}
                      type="button"
                      class={`gutter-mark mark-${n.severity}${n.id === props.selected ? " mark-selected" : ""}`}
                      data-note={n.id}
                      // the list beside the file reaches every note by keyboard; forty marks would be forty more Tab stops
                      tabIndex={-1}
                      aria-label={`${n.severity} ${n.label} at line ${line}: ${n.message}`}
                      title={`${n.label}: ${n.message}`}
                      onClick={() => props.onSelect(n.id)}
                    />
                  ))}
                </td>
                <td class="source-text">{text === "" ? "\u200b" : text}</td>
              </tr>,
              notes
                ? (
                  <tr key={`n${line}`} class="note-row">
                    <td colSpan={3}>
                      {notes.map((n) => (
                        <div key={n.id} class={`line-note note-${n.severity}${n.id === props.selected ? " note-selected" : ""}`} data-note={n.id}>
                          <span class={`sev sev-${n.severity}`}>{n.severity}</span>
                          <code class="line-note-label">{n.label}</code>
                          <span class="line-note-message">{n.message}</span>
                          {n.detail ? <div class="line-note-detail">{n.detail}</div> : null}
                        </div>
                      ))}
                    </td>
                  </tr>
                )
                : null
            ]
          })}
        </tbody>
      </table>
    </div>
  )
}
