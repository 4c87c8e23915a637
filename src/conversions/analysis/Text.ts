/**
 * Text helpers every phase of the analysis uses: markup removed from inline text (`cleanInline`),
 * sentence splitting that respects inline code, parentheses and abbreviations (`splitSentences`),
 * sentence and case fixes (`cap`, `lowerFirst`, `stripEnd`, `sentence`, `unshout`), FlowIds from free
 * text (`idFrom`, `validId`), and the small line tests (blank lines, horizontal rules, indentation).
 */
import { toKebab } from "../../markdown/Names.js"
import { maskInlineCode, plainText } from "../../markdown/Markdown.js"

export const HR = /^\s*([-*_])(\s*\1){2,}\s*$/
export const indentOf = (line: string): number => line.replace(/\t/g, "    ").length - line.replace(/\t/g, "    ").trimStart().length
export const isBlank = (s: string) => s.trim() === ""
export const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const CODE_SPAN = /(`+)(?:[^`]|[^`][\s\S]*?[^`])\1(?!`)/g
const HTML_TAG = /<\/?(?:good|bad|br|p|div|span|b|i|em|strong|details|summary|sup|sub|kbd|example|examples|u)\b[^<>]*>/gi

const cleanProse = (t: string): string =>
  t
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g, (_m, text: string, target: string) =>
      text.trim() === target ? target : `${text.trim()} (${target})`
    )
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/__([^_]+)__/g, "$1")
    .replace(/(^|[\s(])\*([^*\s][^*]*?)\*(?=[\s).,;:!?]|$)/g, "$1$2")
    .replace(/(^|[\s(])_([^_\s][^_]*?)_(?=[\s).,;:!?]|$)/g, "$1$2")
    .replace(/\*\*/g, "")
    .replace(HTML_TAG, "")
    .replace(/\p{Extended_Pictographic}\uFE0F?/gu, "")

/** Markdown emphasis, links, emoji and HTML-ish tags removed; inline code kept as written; whitespace collapsed. */
export const cleanInline = (s: string): string => {
  let out = ""
  let last = 0
  for (const m of s.matchAll(CODE_SPAN)) {
    out += cleanProse(s.slice(last, m.index))
    out += m[0]
    last = m.index! + m[0].length
  }
  out += cleanProse(s.slice(last))
  return out.replace(/\s+/g, " ").trim()
}

/** Splits text into sentences (line breaks end one; not inside inline code or parentheses, not after e.g./i.e./etc.). */
export const splitSentences = (text: string): Array<string> => text.split(/\n+/).flatMap(splitLineSentences)

const splitLineSentences = (s: string): Array<string> => {
  const masked = maskInlineCode(s).masked
  const out: Array<string> = []
  let start = 0
  let depth = 0
  for (let i = 0; i < masked.length; i++) {
    const c = masked[i]!
    if (c === "(") depth++
    else if (c === ")") depth = Math.max(0, depth - 1)
    else if ((c === "." || c === "!" || c === "?") && depth === 0) {
      const rest = masked.slice(i + 1)
      const next = rest.trimStart()[0]
      const endsHere = rest.trim() === "" || (/^\s/.test(rest) && next !== undefined && /[A-Z0-9"'`*(\[_]/.test(next))
      if (!endsHere) continue
      if (/\b(e\.g|i\.e|etc|vs|cf|approx|incl)\.$/i.test(masked.slice(Math.max(0, i - 7), i + 1))) continue
      const piece = s.slice(start, i + 1).trim()
      if (piece !== "") out.push(piece)
      start = i + 1
    }
  }
  const tail = s.slice(start).trim()
  if (tail !== "") out.push(tail)
  return out
}

export const cap = (s: string): string => (s === "" ? s : s[0]!.toUpperCase() + s.slice(1))
export const lowerFirst = (s: string): string =>
  s === "" || /^[A-Z]{2}/.test(s) ? s : s[0]!.toLowerCase() + s.slice(1)
export const stripEnd = (s: string): string => s.replace(/[\s:;,.]+$/, "")
export const sentence = (s: string): string => {
  const t = s.trim().replace(/[\s:;,]+$/, "")
  return t === "" ? t : /[.!?…]["'`)\]]*$/.test(t) ? t : `${t}.`
}
/** Sentence case for ALL-CAPS text ("NO PRODUCTION CODE" → "No production code"; "STOP executing" → "Stop executing"). */
export const unshout = (s: string): string => {
  const letters = s.replace(/[^A-Za-z]/g, "")
  if (letters.length >= 6 && letters === letters.toUpperCase()) return cap(s.toLowerCase())
  return s.replace(/^(STOP|NEVER|ALWAYS|MUST|DO NOT|DON'T|NOTE|IMPORTANT|REQUIRED)\b/, (w) => cap(w.toLowerCase()))
}

const STOP_TAIL = new Set([
  "a", "an", "the", "and", "or", "to", "of", "for", "with", "in", "on", "at", "by", "from", "into", "is", "are", "be", "if",
  "when", "that", "this", "your", "its", "because", "so", "until", "while", "without", "as", "than", "then", "not"
])

/** A FlowId from free text: kebab-case, at most `maxWords` words, no dangling small words. */
export const idFrom = (text: string, maxWords = 6): string => {
  // brand words in PascalCase (GitHub, TypeScript) stay one word; camelCase identifiers split
  const flat = plainText(text).replace(/\([^)]*\)/g, " ").replace(/['’]/g, "").replace(/\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b/g, (w) => w.toLowerCase())
  const base = toKebab(flat)
  let words = base.split("-").filter((w) => w !== "" && !/^(a|an|the)$/.test(w))
  const cut = words.findIndex((w, i) => i >= 2 && /^(with|using|via|from|in|by|for|to|into|on|before|after|so|when|if|until|because)$/.test(w))
  if (cut > 0) words = words.slice(0, cut)
  words = words.slice(0, maxWords)
  while (words.length > 1 && STOP_TAIL.has(words[words.length - 1]!)) words.pop()
  return words.join("-").slice(0, 80).replace(/-+$/, "")
}

export const validId = (id: string, fallback: string): string => (/^[a-z0-9][a-z0-9_-]{0,79}$/.test(id) ? id : fallback)
