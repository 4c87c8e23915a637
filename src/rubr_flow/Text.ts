/** Counting lines and shortening text, for the reader and the validator alike. */

/**
 * The number of lines of a source text as an editor shows them: line breaks are `\n`, `\r\n` or `\r`;
 * a trailing line break does not start another line; "" has 0 lines. Every `from` range and every
 * `sources[].lines` uses this rule.
 */
export const lineCount = (text: string): number => {
  const n = text.length
  if (n === 0) return 0
  let lines = 1
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === 10) lines++
    else if (c === 13) {
      lines++
      if (text.charCodeAt(i + 1) === 10) i++
    }
  }
  const last = text.charCodeAt(n - 1)
  return last === 10 || last === 13 ? lines - 1 : lines
}

/** 1-based line of `offset` in `text`, counting `\n` (lazy: the line index is built on first use). */
export const makeLineOf = (text: string): ((offset: number) => number) => {
  let starts: Array<number> | undefined
  return (offset) => {
    if (starts === undefined) {
      starts = [0]
      for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1)
    }
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (starts[mid] <= offset) lo = mid
      else hi = mid - 1
    }
    return lo + 1
  }
}

/** `s` cut to `max` characters, an ellipsis marking the cut. */
export const clip = (s: string, max = 60): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s)

/** `s` on one line (each run of white space one space, none at the ends), cut to `max` characters. */
export const clipLine = (s: string, max = 60): string => clip(s.replace(/\s+/g, " ").trim(), max)
