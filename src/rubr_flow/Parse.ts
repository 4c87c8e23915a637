/**
 * Reading a rubr_flow file's YAML: the text → a plain JavaScript value, the problems found on the
 * way (YAML syntax, duplicate keys, aliases, size and nesting limits) and a locator that turns a
 * document path (`steps.2.check`) into a line of the text. Used by the validator; pure, never throws
 * on any input.
 *
 * Two readers give the same result: the fast path (./parse/FastReader.ts) for the YAML rubr_flow
 * files are made of, and the yaml library (./parse/Library.ts) for anything else. Both are hardened
 * against hostile text:
 * - a size limit (`MAX_TEXT_LENGTH`) checked before reading, and a depth limit (./parse/Limits.ts);
 * - duplicate keys are found with a set per mapping;
 * - mappings become plain objects whose `__proto__` key, if any, is an own property (no prototype
 *   is ever changed).
 */
import { fastParse } from "./parse/FastReader.js"
import { readWithLibrary } from "./parse/Library.js"
import { MAX_TEXT_LENGTH } from "./parse/Limits.js"
import { type ParsedText, tooLarge } from "./parse/Reading.js"

export { type FastParse, fastParse } from "./parse/FastReader.js"
export { readWithLibrary } from "./parse/Library.js"
export { estimateNesting, MAX_ALIAS_NODES, MAX_DEPTH, MAX_TEXT_LENGTH } from "./parse/Limits.js"
export type { Anchor, ParsedText, ParseProblem, PathSegment } from "./parse/Reading.js"
export { makeLineOf } from "./Text.js"

/** Reads `text`: the fast path when it can, the yaml library otherwise. Never throws. */
export const parseFlowText = (text: string): ParsedText => {
  if (text.length > MAX_TEXT_LENGTH) return tooLarge(text)
  const fast = fastParse(text)
  if (fast !== undefined) {
    return { value: fast.value, versionText: fast.versionText, problems: fast.problems, fatal: false, offsetOf: fast.offsetOf }
  }
  return readWithLibrary(text)
}
