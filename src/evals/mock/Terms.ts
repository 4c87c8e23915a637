/**
 * Key words for the mock evaluator: the content words of a case's text (stop words, eval
 * boilerplate and vague filler removed), lightly stemmed so "fails", "failed" and "failing" meet,
 * and matched against the words of a version's lines. Bundle paths count by their file name only
 * (a reference repointed to another folder still names the same file), and a file name one or two
 * letters off still matches (the mock reviewer repoints near-identical names). Pure, no I/O.
 */
import { editDistance } from "../../markdown/Paths.js"
import { VAGUE_TERMS } from "../../markdown/Vocabulary.js"

/** Function words and the wording every generated case shares; never key content. */
const STOP: ReadonlySet<string> = new Set(
  (
    "a an the and or but nor of to in on at for with by from as into onto about over under than then so " +
    "is are was were be been being am it its this that these those there here such same other another " +
    "i me my we our you your they them their he she his her who whom whose which what how why where while " +
    "do does did done doing has have had having can could should would will shall may might must " +
    "not no yes any all each every both either neither only also just very too more most less least " +
    "if when whenever unless once until before after else instead without within via per e g eg ie etc " +
    "one ones thing anything something everything nothing someone anyone " +
    // eval boilerplate: how generated cases speak about the agent and its answer
    "agent agents model assistant response responses answer answers transcript visibly shows show " +
    "performs perform performed expected behavior behaviour pass passes criteria correctly exactly"
  ).split(/\s+/)
)

/** A light stemmer: plural, -ing, -ed and a final -e or -y dropped, doubled final consonants undone. */
export const stem = (word: string): string => {
  let w = word.toLowerCase()
  if (w.length <= 3) return w
  if (/ies$/.test(w) && w.length > 4) w = `${w.slice(0, -3)}y`
  else if (/sses$/.test(w)) w = w.slice(0, -2)
  else if (/[^su]s$/.test(w)) w = w.slice(0, -1)
  if (/ing$/.test(w) && w.length >= 5) w = w.slice(0, -3)
  else if (/ed$/.test(w) && w.length >= 4) w = w.slice(0, -2)
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1)
  if (/[ey]$/.test(w) && w.length > 3) w = w.slice(0, -1)
  return w
}

const WORD = /[\p{L}\p{N}_]+/gu
const PATH_TOKEN = /(?:[\w.-]+\/)+([\w-][\w.-]*?)(?:\.[A-Za-z][\w]{0,7})(?![\w/])/g

/** Every stemmed word of a text, stop words kept out (used for the version's lines). */
export const lineStems = (text: string): Set<string> => {
  const out = new Set<string>()
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const w = m[0]
    if (w.length < 2 || STOP.has(w)) continue
    out.add(stem(w))
  }
  return out
}

export interface Term {
  /** the stem matched against a line's words */
  readonly stem: string
  /** the word as the case wrote it (for observations and evidence) */
  readonly word: string
  /** from a file name: matches near-identical names too */
  readonly fileName: boolean
}

/** Removes vague filler ("properly", "as needed", "etc.") so it never counts as key content. */
const VAGUE_ALL = new RegExp(VAGUE_TERMS.map((v) => `(?:${v.pattern.source})`).join("|"), "gi")

export const stripVague = (text: string): string => text.replace(VAGUE_ALL, " ")

/**
 * The key words of a case text, in order of first appearance. Paths are reduced to their file
 * name (`reference/style.md` → `style`); one-digit numbers and one-letter words are dropped.
 */
export const keyTerms = (text: string, exclude: ReadonlySet<string> = new Set()): ReadonlyArray<Term> => {
  const out: Array<Term> = []
  const seen = new Set<string>()
  const add = (word: string, fileName: boolean) => {
    const lower = word.toLowerCase()
    if (lower.length < 2 || STOP.has(lower) || /^\d$/.test(lower)) return
    const s = stem(lower)
    if (seen.has(s) || exclude.has(s)) return
    seen.add(s)
    out.push({ stem: s, word, fileName })
  }
  const names: Array<string> = []
  const cleaned = stripVague(text).replace(PATH_TOKEN, (_m, base: string) => {
    names.push(base)
    return ` \u0000${names.length - 1}\u0000 `
  })
  for (const piece of cleaned.split(/(\u0000\d+\u0000)/)) {
    const ref = piece.match(/^\u0000(\d+)\u0000$/)
    if (ref) {
      for (const m of names[Number(ref[1])]!.matchAll(WORD)) add(m[0], true)
      continue
    }
    for (const m of piece.matchAll(WORD)) add(m[0], false)
  }
  return out
}

/** Whether a term occurs among a line's stems (file-name terms also by a near-identical spelling). */
export const hasTerm = (stems: ReadonlySet<string>, t: Term): boolean => {
  if (stems.has(t.stem)) return true
  if (!t.fileName || t.stem.length < 5) return false
  for (const s of stems) if (s.length >= 5 && editDistance(s, t.stem, 2) <= 2) return true
  return false
}

/** The terms a line (or window) has, and the share of all terms that makes (1 when there are none). */
export const coverage = (
  terms: ReadonlyArray<Term>,
  stems: ReadonlySet<string>
): { readonly share: number; readonly found: ReadonlyArray<Term>; readonly missing: ReadonlyArray<Term> } => {
  if (terms.length === 0) return { share: 1, found: [], missing: [] }
  const found: Array<Term> = []
  const missing: Array<Term> = []
  for (const t of terms) (hasTerm(stems, t) ? found : missing).push(t)
  return { share: found.length / terms.length, found, missing }
}

/** Case-text words listed for people: `"a", "b" and "c"`. */
export const listWords = (terms: ReadonlyArray<Term>, max = 5): string => {
  const ws = terms.slice(0, max).map((t) => `"${t.word}"`)
  const more = terms.length > max ? ` and ${terms.length - max} more` : ""
  if (ws.length <= 1) return ws.join("") + more
  return more === "" ? `${ws.slice(0, -1).join(", ")} and ${ws[ws.length - 1]}` : ws.join(", ") + more
}
