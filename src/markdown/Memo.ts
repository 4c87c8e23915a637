/**
 * Memoises a pure function of one text. A review asks the same questions of the same lines many
 * times over (each check reads the lines it needs), so the answers are kept, up to `limit` texts;
 * the cache is emptied when it is full. A review reads a few hundred texts at most: a larger cache
 * keeps earlier reviews' texts alive into the old generation, where collecting them costs more
 * than computing them again (measured in docs/performance.md).
 */
export const memoByText = <A>(compute: (text: string) => A, limit = 500): ((text: string) => A) => {
  const cache = new Map<string, A>()
  return (text) => {
    const hit = cache.get(text)
    if (hit !== undefined) return hit
    if (cache.size >= limit) cache.clear()
    const value = compute(text)
    cache.set(text, value)
    return value
  }
}
