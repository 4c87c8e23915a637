/** Where a document path lies in the yaml library's nodes, for texts the fast path did not read. */
import { isAlias, isMap, isScalar, isSeq, type Node as YamlNode } from "yaml"
import { MAX_DEPTH } from "./Limits.js"
import type { Anchor, PathSegment } from "./Reading.js"

/** A key node's text as a mapping key ("" for none); `undefined` for a key that is not a plain value. */
export const keyString = (node: unknown): string | undefined => {
  if (node === null || node === undefined) return ""
  if (isScalar(node)) {
    const v = node.value
    return v !== null && typeof v === "object" ? undefined : String(v)
  }
  return undefined
}

/** Follows `path` through the parsed nodes (aliases resolved by name, last matching key wins). */
export const makeOffsetOf = (contents: YamlNode | null) => {
  const anchorsByName = (): Map<string, YamlNode> => {
    const m = new Map<string, YamlNode>()
    const walk = (node: unknown, depth: number): void => {
      if (depth > MAX_DEPTH || node === null || typeof node !== "object") return
      const n = node as YamlNode
      if (!isAlias(n) && n.anchor && !m.has(n.anchor)) m.set(n.anchor, n)
      if (isSeq(n)) for (const item of n.items) walk(item, depth + 1)
      else if (isMap(n)) for (const pair of n.items) walk(pair.value, depth + 1)
    }
    walk(contents, 0)
    return m
  }
  let anchors: Map<string, YamlNode> | undefined
  const deref = (node: unknown): unknown => {
    if (isAlias(node)) {
      anchors ??= anchorsByName()
      return anchors.get(node.source) ?? node
    }
    return node
  }
  const start = (node: unknown, fallback: number): number => {
    const r = (node as YamlNode | null | undefined)?.range
    return r ? r[0] : fallback
  }
  return (path: ReadonlyArray<PathSegment>, anchor: Anchor): number => {
    const target = anchor === "container" ? path.slice(0, -1) : path
    let node: unknown = contents
    let offset = start(contents, 0)
    for (const segment of target) {
      node = deref(node)
      if (isSeq(node) && typeof segment === "number") {
        const item = node.items[segment]
        if (item === undefined) return offset
        node = item
        offset = start(item, offset)
      } else if (isMap(node)) {
        let found: { key: unknown; value: unknown } | undefined
        for (let i = node.items.length - 1; i >= 0; i--) {
          const pair = node.items[i]
          if (keyString(pair.key) === String(segment)) {
            found = pair
            break
          }
        }
        if (found === undefined) return offset
        node = found.value
        // a key's line is where a person looks for its value, even for block scalars and lists
        offset = start(found.key, start(found.value, offset))
      } else {
        return offset
      }
    }
    return offset
  }
}
