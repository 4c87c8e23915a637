/** One result per document: the checks and the improved version ask the same questions. */
import type { Doc } from "./Document.js"

export const perDoc = <A>(compute: (doc: Doc) => A): ((doc: Doc) => A) => {
  const cache = new WeakMap<Doc, A>()
  return (doc) => {
    if (cache.has(doc)) return cache.get(doc)!
    const value = compute(doc)
    cache.set(doc, value)
    return value
  }
}
