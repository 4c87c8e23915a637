/** "Did you mean": the known word a person most likely meant. */

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions). */
const editDistance = (a: string, b: string): number => {
  if (a === b) return 0
  const m = a.length
  const n = b.length
  if (m === 0) return n
  if (n === 0) return m
  let prev2: Array<number> = []
  let prev: Array<number> = Array.from({ length: n + 1 }, (_, j) => j)
  for (let i = 1; i <= m; i++) {
    const cur: Array<number> = [i]
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1)
      cur.push(d)
    }
    prev2 = prev
    prev = cur
  }
  return prev[n]
}

/** The candidate a person most likely meant, when `word` is close enough to one. */
export const closest = (word: string, candidates: Iterable<string>): string | undefined => {
  const w = word.toLowerCase().replace(/[\s-]+/g, "_")
  if (w.length > 100) return undefined
  let best: string | undefined
  let bestDistance = Infinity
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase())
    if (d < bestDistance || (d === bestDistance && best !== undefined && c < best)) {
      best = c
      bestDistance = d
    }
  }
  if (best === undefined) return undefined
  const allowed = w.length <= 2 ? 0 : w.length <= 5 ? 1 : w.length <= 10 ? 2 : 3
  return bestDistance <= allowed ? best : undefined
}
