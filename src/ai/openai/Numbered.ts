/** How every AI feature shows a file to the model: with line numbers, cut at a budget. */

/** The file with 1-based line numbers (`  12| text`), cut at `maxChars` with a note of what was left out. */
export const numbered = (content: string, maxChars: number): { readonly text: string; readonly truncated: boolean } => {
  const lines = content.split(/\r?\n/)
  if (content.endsWith("\n")) lines.pop()
  const width = String(Math.max(lines.length, 1)).length
  const out: Array<string> = []
  let used = 0
  for (let i = 0; i < lines.length; i++) {
    const line = `${String(i + 1).padStart(width, " ")}| ${lines[i]}`
    if (used + line.length + 1 > maxChars && out.length > 0) {
      out.push(`[... ${lines.length - i} more lines not shown ...]`)
      return { text: out.join("\n"), truncated: true }
    }
    out.push(line)
    used += line.length + 1
  }
  return { text: out.join("\n"), truncated: false }
}
