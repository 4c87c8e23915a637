/**
 * Memoises a pure function of one text. A review asks the same questions of the same lines many
 * times over (each check reads the lines it needs), so the answers are kept, up to `limit` texts;
 * the cache is emptied when it is full, which bounds the memory of a long-running process.
 */
export const memoByText = <A>(compute: (text: string) => A, limit = 4000): ((text: string) => A) => {
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
