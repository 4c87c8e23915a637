/**
 * How deeply a JSON text nests, found by one scan of its characters (strings skipped, escapes
 * honoured), without parsing it: a body nested thousands of levels deep is refused before anything
 * recursive (JSON.parse, Schema decoding, our own walkers) ever sees it.
 */

/** The contract's limit: a body nested deeper than this is a 400 (service-contract.md, "Limits"). */
export const MAX_JSON_DEPTH = 64

/** True when `text` opens more than `limit` arrays/objects inside one another; stops at the first excess. */
export const exceedsJsonDepth = (text: string, limit: number = MAX_JSON_DEPTH): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \ */) i++
      else if (c === 34 /* " */) inString = false
    } else if (c === 34) {
      inString = true
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth--
    }
  }
  return false
}
