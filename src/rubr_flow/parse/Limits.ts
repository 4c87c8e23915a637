/**
 * How much of a text the readers take on. The YAML composer recurses once per level, and running out
 * of stack inside it is not always a catchable error: a cheap estimate of the nesting is checked
 * before it runs.
 */

/** The longest text read (characters); a rubr_flow is a procedure, not a data set. */
export const MAX_TEXT_LENGTH = 1024 * 1024
/** The deepest nesting of mappings and lists read (a rubr_flow needs 5). */
export const MAX_DEPTH = 64
/** The most nodes alias expansion may add to the document. */
export const MAX_ALIAS_NODES = 10_000
/** A bound on the nesting the YAML parser is asked to read; see `estimateNesting`. */
export const MAX_ESTIMATED_NESTING = 200

/**
 * An upper bound, cheap to compute, on how deeply the YAML composer will recurse: twice the number of
 * open indentation levels (a mapping and a list may share one), plus `- ` / `? ` / `: ` chains at the start of
 * a line, plus unclosed flow brackets. Brackets inside quoted or block text only make it larger.
 */
export const estimateNesting = (text: string): number => {
  const levels: Array<number> = []
  let brackets = 0
  let max = 0
  let i = 0
  const n = text.length
  while (i < n) {
    let indent = 0
    while (i < n && text.charCodeAt(i) === 32) {
      indent++
      i++
    }
    let chain = 0
    while (i + 1 < n && (text[i] === "-" || text[i] === "?" || text[i] === ":") && (text[i + 1] === " " || text[i + 1] === "\t")) {
      chain++
      i += 2
      while (i < n && (text[i] === " " || text[i] === "\t")) i++
    }
    const lineEnd = text.indexOf("\n", i)
    const end = lineEnd === -1 ? n : lineEnd
    if (end > i || chain > 0) {
      while (levels.length > 0 && levels[levels.length - 1] > indent) levels.pop()
      if (levels.length === 0 || levels[levels.length - 1] < indent) levels.push(indent)
    }
    const base = 2 * levels.length + chain
    if (base + brackets > max) max = base + brackets
    for (; i < end; i++) {
      const c = text.charCodeAt(i)
      if (c === 91 || c === 123) {
        brackets++
        if (base + brackets > max) max = base + brackets
      } else if ((c === 93 || c === 125) && brackets > 0) brackets--
    }
    i = end + 1
  }
  return max
}
