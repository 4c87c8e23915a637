/**
 * What a guardrail is about, to find two that say the same thing or contradict each other: its
 * content words in order, and whether it forbids. docs/rubr-flow.md ("Contradictory guardrails")
 * describes the rule for the people who write guardrails.
 */

/** Words that carry no content in a guardrail: function words, modal words and negations. */
const NOISE_WORDS = new Set(
  (
    "a an the to of in on at by for from with and or nor any all every each this that these those it its " +
    "is are be been being was were am you your yours yourself we our us they them their i me my he she his her " +
    "as into onto than then there so such please also only just very " +
    "always must never do does did done dont doesnt didnt not no should shouldnt shall ever cannot cant can " +
    "could couldnt will wont would wouldnt may might mustnt need needs ensure under circumstances"
  ).split(" ")
)

/** Words that, leading a `must`, make it a prohibition ("must: Never force-push" means never). */
const NEGATIONS = new Set("not never no dont doesnt cannot cant mustnt shouldnt wont avoid".split(" "))
/** Words that may come before that negation ("you must not", "the agent should never", "do not"). */
const LEAD_WORDS = new Set("you the agent we i must should shall will can always please do does".split(" "))

const stem = (word: string): string => {
  let w = word
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3)
  else if (w.length > 4 && w.endsWith("ied")) w = `${w.slice(0, -3)}y`
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2)
  else if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`
  else if (w.length > 4 && /(s|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2)
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1)
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1)
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1)
  return w
}

/** A guardrail reduced to what it is about: its content words in order, and whether it forbids. */
export interface GuardrailGist {
  /** content words (lower case, no markdown, punctuation or noise words, lightly stemmed), in order */
  readonly words: ReadonlyArray<string>
  /** true when the text itself is a prohibition (a negation word) */
  readonly negated: boolean
}

export const guardrailGist = (text: string): GuardrailGist => {
  const plain = text
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/['’`]/g, "")
    .replace(/\b(make|be) sure( that)?\b/g, " ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
  const words: Array<string> = []
  let negated = false
  let leading = true
  for (const w of plain.split(" ")) {
    if (w === "") continue
    // only a negation at the start counts ("use no more than 3 retries" is not a prohibition)
    if (leading && NEGATIONS.has(w)) negated = true
    if (!LEAD_WORDS.has(w)) leading = false
    if (NOISE_WORDS.has(w) || w === "avoid") continue
    const stemmed = stem(w)
    if (!words.includes(stemmed)) words.push(stemmed)
  }
  return { words, negated }
}

/** The longest common subsequence of two word lists (the words shared in the same order). */
const commonInOrder = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  let prev = new Array<number>(b.length + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(b.length + 1).fill(0)
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1])
    prev = cur
  }
  return prev[b.length]
}

/**
 * How far two guardrails are about the same thing, 0..1: the Jaccard index of their content words,
 * capped by the share of words they have in the same order ("run the tests before pushing" and "push
 * before running the tests" share every word, but not their order).
 */
export const guardrailSimilarity = (a: GuardrailGist, b: GuardrailGist): number => {
  if (a.words.length === 0 || b.words.length === 0) return a.words.length === b.words.length ? 1 : 0
  const set = new Set(a.words)
  let both = 0
  for (const w of b.words) if (set.has(w)) both++
  const union = a.words.length + b.words.length - both
  const ordered = commonInOrder(a.words, b.words) / Math.max(a.words.length, b.words.length)
  return Math.min(both / union, ordered)
}

/** The similarity from which a must and a never (or two of a kind) count as saying the same thing. */
export const SAME_THING = 0.8
