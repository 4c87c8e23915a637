/** What both readers give back: the plain data, the problems on the way, and where a path lies. */
import { clip } from "../Text.js"
import { MAX_TEXT_LENGTH } from "./Limits.js"

export type PathSegment = string | number

/** Where an issue points: the node at its path, or the mapping that should hold the path's last key. */
export type Anchor = "node" | "container"

/** Something the reader found; the validator decides how serious it is. */
export interface ParseProblem {
  readonly code: string
  readonly message: string
  /** a character offset in the text */
  readonly offset: number
  /** where in the document, when known */
  readonly path: ReadonlyArray<PathSegment>
}

export interface ParsedText {
  /** the document as plain data; `undefined` when there is nothing to validate */
  readonly value: unknown
  /** the source text of the top-level `rubr_flow` value, when it is a scalar */
  readonly versionText: string | null
  readonly problems: ReadonlyArray<ParseProblem>
  /** true when the value must not be validated further (syntax errors, limits) */
  readonly fatal: boolean
  /** the offset for an issue at `path` (the nearest existing ancestor when the path is not there) */
  readonly offsetOf: (path: ReadonlyArray<PathSegment>, anchor: Anchor) => number
}

/** A text not read at all: one problem, at its start. */
export const unreadable = (code: string, message: string): ParsedText => ({
  value: undefined,
  versionText: null,
  fatal: true,
  offsetOf: () => 0,
  problems: [{ code, offset: 0, path: [], message }]
})

export const tooLarge = (text: string): ParsedText =>
  unreadable(
    "too_large",
    `The file has ${text.length} characters; a rubr_flow may have at most ${MAX_TEXT_LENGTH}. Split the procedure into smaller flows.`
  )

export const duplicateKeyProblem = (key: string, offset: number, path: ReadonlyArray<PathSegment>): ParseProblem => ({
  code: "duplicate_key",
  offset,
  path,
  message: `The key \`${clip(key)}\` appears more than once in this mapping; the last one wins. Keep one.`
})

/** Sets `key` on a mapping being built; a `__proto__` key becomes an own property (no prototype is ever changed). */
export const setKey = (mapping: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === "__proto__") Object.defineProperty(mapping, key, { value, enumerable: true, writable: true, configurable: true })
  else mapping[key] = value
}
