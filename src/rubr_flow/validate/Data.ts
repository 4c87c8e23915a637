/** Reading untrusted plain data: nothing here assumes the document has the right shape. */
import type { PathSegment } from "../Parse.js"
import type { Section } from "./Vocabulary.js"

export type Rec = Record<string, unknown>

export const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k)
export const asRec = (x: unknown): Rec | undefined =>
  x !== null && typeof x === "object" && !Array.isArray(x) ? (x as Rec) : undefined
export const field = (o: Rec | undefined, k: string): unknown => (o !== undefined && hasOwn(o, k) ? o[k] : undefined)
export const strField = (o: Rec | undefined, k: string): string | undefined => {
  const v = field(o, k)
  return typeof v === "string" ? v : undefined
}
export const listField = (o: Rec | undefined, k: string): ReadonlyArray<unknown> => {
  const v = field(o, k)
  return Array.isArray(v) ? v : []
}

/** The value at `path`, or `undefined` where the document does not go that far. */
export const valueAt = (root: unknown, path: ReadonlyArray<PathSegment>): unknown => {
  let v: unknown = root
  for (const s of path) {
    if (Array.isArray(v) && typeof s === "number") v = v[s]
    else {
      const r = asRec(v)
      if (r === undefined) return undefined
      v = field(r, String(s))
    }
  }
  return v
}

/** One mapping of a section's list, with its index there (items that are not mappings are left out). */
export interface Block {
  readonly section: Section
  readonly index: number
  readonly value: Rec
}

export const blocks = (root: Rec, section: Section): Array<Block> => {
  const out: Array<Block> = []
  listField(root, section).forEach((item, index) => {
    const value = asRec(item)
    if (value !== undefined) out.push({ section, index, value })
  })
  return out
}
