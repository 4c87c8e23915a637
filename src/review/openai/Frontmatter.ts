/**
 * Frontmatter preservation for rewritten files: the original `---` block must survive byte for byte,
 * whatever the model did to it.
 */

/** `---` on line 1, up to a closing `---` (or `...`) line, its line terminator included. */
const FRONTMATTER = /^---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/

/** The exact frontmatter block of a text, or "" when it has none. */
export const frontmatterBlock = (text: string): string => text.match(FRONTMATTER)?.[0] ?? ""

export const RESTORED_NOTE =
  "Kept the original frontmatter block exactly; the reviewer's edits to it were discarded."

/**
 * Puts the original frontmatter back at the top of `improved` when the model changed, dropped or
 * replaced it. A file that had none is left as the model wrote it.
 */
export const restoreFrontmatter = (
  original: string,
  improved: string
): { readonly content: string; readonly restored: boolean } => {
  const block = frontmatterBlock(original)
  if (block === "") return { content: improved, restored: false }
  const current = frontmatterBlock(improved)
  if (current === block) return { content: improved, restored: false }
  const body = improved.slice(current.length)
  const separator = block.endsWith("\n") || body === "" ? "" : "\n"
  return { content: block + separator + body, restored: true }
}
