/** Line handling that keeps the original line endings, so rewritten files stay byte-faithful. */

export interface SplitText {
  /** Lines without their terminators. A text ending in a newline has no trailing empty line here. */
  readonly lines: ReadonlyArray<string>
  /** The dominant line terminator. */
  readonly eol: "\n" | "\r\n"
  /** Whether the text ends with a line terminator. */
  readonly finalNewline: boolean
  /** true when both `\r\n` and bare `\n` occur. */
  readonly mixedEol: boolean
}

export const splitText = (text: string): SplitText => {
  const crlf = (text.match(/\r\n/g) ?? []).length
  const lf = (text.match(/\n/g) ?? []).length - crlf
  const eol: "\n" | "\r\n" = crlf > lf ? "\r\n" : "\n"
  const finalNewline = text.endsWith("\n")
  const body = finalNewline ? text.slice(0, text.endsWith("\r\n") ? -2 : -1) : text
  const lines = text.length === 0 ? [] : body.split(/\r?\n/)
  return { lines, eol, finalNewline, mixedEol: crlf > 0 && lf > 0 }
}

export const joinText = (lines: ReadonlyArray<string>, eol: string, finalNewline: boolean): string =>
  lines.length === 0 ? "" : lines.join(eol) + (finalNewline ? eol : "")
