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
