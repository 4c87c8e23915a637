/** POSIX path helpers for bundle-relative paths (bundle paths never start with `/`). */

export const dirname = (path: string): string => {
  const i = path.lastIndexOf("/")
  return i < 0 ? "" : path.slice(0, i)
}

export const basename = (path: string): string => {
  const trimmed = path.endsWith("/") ? path.slice(0, -1) : path
  const i = trimmed.lastIndexOf("/")
  return i < 0 ? trimmed : trimmed.slice(i + 1)
}

export const extname = (path: string): string => {
  const base = basename(path)
  const i = base.lastIndexOf(".")
  return i <= 0 ? "" : base.slice(i).toLowerCase()
}

/**
 * Joins and normalizes `rel` against the folder `base` ("" is the bundle root). Returns null when the
 * result escapes the bundle root (more `..` than folders).
 */
export const resolvePath = (base: string, rel: string): string | null => {
  const out: Array<string> = base === "" ? [] : base.split("/")
  for (const seg of rel.split("/")) {
    if (seg === "" || seg === ".") continue
    if (seg === "..") {
      if (out.length === 0) return null
      out.pop()
    } else {
      out.push(seg)
    }
  }
  return out.join("/")
}

/** The relative path from folder `fromDir` to bundle path `to`. */
export const relativePath = (fromDir: string, to: string): string => {
  const from = fromDir === "" ? [] : fromDir.split("/")
  const target = to.split("/")
  let i = 0
  while (i < from.length && i < target.length - 1 && from[i] === target[i]) i++
  const ups = from.length - i
  return [...Array.from({ length: ups }, () => ".."), ...target.slice(i)].join("/")
}

/** Glob with `*` (within a segment) and `**` (across segments) to a RegExp over whole paths. */
export const globToRegExp = (glob: string): RegExp => {
  let re = ""
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!
    if (c === "*") {
      if (glob[i + 1] === "*") {
        re += ".*"
        i++
      } else {
        re += "[^/]*"
      }
    } else if (c === "?") {
      re += "[^/]"
    } else {
      re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&")
    }
  }
  return new RegExp(`^${re}$`)
}

/** Levenshtein distance, bounded: returns max+1 as soon as the distance exceeds `max`. */
export const editDistance = (a: string, b: string, max: number): number => {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      cur.push(v)
      if (v < rowMin) rowMin = v
    }
    if (rowMin > max) return max + 1
    prev = cur
  }
  return prev[b.length]!
}
