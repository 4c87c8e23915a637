/**
 * Issues before they get a line: what the passes report, and the words their messages are made of
 * (how a value, a block and a path read to the person editing the file).
 */
import type { Anchor, PathSegment } from "../Parse.js"
import { clipLine } from "../Text.js"
import { asRec, strField, valueAt } from "./Data.js"
import { isSection, type Section, SECTION_NOUN } from "./Vocabulary.js"

/** An issue as a pass reports it; the validator rates it (`ISSUE_CODES`) and finds its line. */
export interface Draft {
  readonly code: string
  readonly message: string
  readonly path: ReadonlyArray<PathSegment>
  readonly anchor: Anchor
}

export const issue = (code: string, path: ReadonlyArray<PathSegment>, message: string, anchor: Anchor = "node"): Draft => ({
  code,
  message,
  path,
  anchor
})

/** A text from the document, on one line and short, in backticks. */
export const quote = (s: string): string => `\`${clipLine(s).replace(/`/g, "'")}\``

export const sentence = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)

export const describeValue = (v: unknown): string => {
  if (v === undefined) return "nothing"
  if (v === null) return "an empty value (null)"
  if (typeof v === "string") return v === "" ? "an empty text" : `the text ${quote(v)}`
  if (typeof v === "number") return `the number ${v}`
  if (typeof v === "boolean") return `\`${v}\``
  if (Array.isArray(v)) return `a list of ${v.length} item${v.length === 1 ? "" : "s"}`
  if (typeof v === "object") return "a mapping"
  return `a ${typeof v}`
}

/** `step "build"` or `step #3`. */
export const blockLabel = (root: unknown, section: Section, index: number): string => {
  const id = strField(asRec(valueAt(root, [section, index])), "id")
  const noun = SECTION_NOUN[section]
  return id !== undefined && id !== "" ? `${noun} "${clipLine(id, 40)}"` : `${noun} #${index + 1}`
}

/** How a path reads in a message: "`check` of step "build"", "`steps`", "item 2 of `uses` of step #1". */
export const label = (root: unknown, path: ReadonlyArray<PathSegment>): string => {
  const [top, index, key, sub] = path
  if (path.length === 0) return "The document"
  if (path.length === 1 && top === "from") return "The identity's `from`"
  if (path.length === 1) return `\`${String(top)}\``
  if (isSection(top) && typeof index === "number") {
    const block = blockLabel(root, top, index)
    if (path.length === 2) return sentence(block)
    if (path.length === 3) return `\`${String(key)}\` of ${block}`
    if (path.length === 4 && typeof sub === "number") return `Item ${sub + 1} of \`${String(key)}\` of ${block}`
  }
  return `\`${path.join(".")}\``
}
