/** Small text helpers of the mock converter. */

export const cap = (s: string): string => (s === "" ? s : s[0]!.toUpperCase() + s.slice(1))

/** Lower-cases the first letter, unless the text starts with an acronym or code. */
export const lowerFirst = (s: string): string => (s === "" || /^[A-Z]{2}|^[A-Z]\b|^`/.test(s) ? s : s[0]!.toLowerCase() + s.slice(1))

export const stripEnd = (s: string): string => s.replace(/[\s:;,.]+$/, "")

export const sentence = (s: string): string => {
  const t = s.trim().replace(/[\s:;,]+$/, "")
  return t === "" ? t : /[.!?…]["'`)\]]*$/.test(t) ? t : `${t}.`
}

export const clip = (s: string, n = 160): string => {
  const one = s.replace(/\s+/g, " ").trim()
  return one.length > n ? `${one.slice(0, n - 1).replace(/\s+\S*$/, "")}…` : one
}

export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
