/** What a repair may do to the file being improved (lines are the original's, 1-based). */
export interface Editor {
  readonly text: (line: number) => string
  readonly setText: (line: number, text: string) => void
  readonly remove: (line: number) => void
  readonly removed: (line: number) => boolean
  readonly insertBefore: (line: number, lines: ReadonlyArray<string>) => void
  readonly change: (line: number, order: number, text: string) => void
  /** the rule ids the review reported (repairs only act on what was found) */
  readonly found: (ruleId: string) => boolean
}

/** The lines an improvement holds while its passes run, as much of them as a repair may reach. */
interface EditedLines {
  readonly entries: { readonly length: number }
  readonly eol: string
  readonly at: (line: number) => { text: string; deleted?: boolean }
  readonly inserts: Array<{ readonly before: number; readonly lines: Array<string> }>
  readonly changes: Array<{ readonly line: number; readonly order: number; readonly text: string }>
  readonly found: (ruleId: string) => boolean
}

/**
 * The editor over an improvement's lines. The lines up to `lockedThrough` are left as they are: an
 * unclosed frontmatter is still frontmatter (the checks read its lines as body, and a `metadata:` map
 * can look like a repeated paragraph), but no content repair edits them; the block is only closed.
 */
export const editorOver = ({ entries, eol, at, inserts, changes, found }: EditedLines, lockedThrough: number | undefined): Editor => {
  const locked = (line: number) => lockedThrough !== undefined && line <= lockedThrough
  return {
    text: (line) => at(line).text,
    setText: (line, text) => {
      if (!locked(line)) at(line).text = text.split("\n").join(eol)
    },
    remove: (line) => {
      if (line >= 1 && line <= entries.length && !locked(line)) at(line).deleted = true
    },
    removed: (line) => at(line)?.deleted === true,
    insertBefore: (line, lines) => {
      if (!locked(line)) inserts.push({ before: line, lines: [...lines] })
    },
    change: (line, order, text) => {
      if (!locked(line)) changes.push({ line, order, text })
    },
    found
  }
}
