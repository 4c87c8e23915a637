/**
 * Hedges inside instructions: "maybe", "you might want to", "if possible", "try to", words that leave
 * the agent to guess whether to act, where the author could have said it plainly. Read as a person
 * would: only in a sentence that instructs (an imperative, a step, a sentence addressed to "you"),
 * never in code, quotes, parentheses, examples, questions, tables or the sections that list what not
 * to say (red flags, rationalizations, anti-patterns); and a conditional hedge ("if possible",
 * "ideally", "try to") that comes with its fallback or its measure ("otherwise …", "at most 3") is
 * precise already. Words that are vague but not hedges ("etc.", "appropriate", "as needed") are not
 * flagged: they close example lists, name a judgement the next words define, or state a condition.
 */
import { plainText } from "../../../markdown/Markdown.js"
import type { Doc } from "../../../markdown/Document.js"
import { IMPERATIVE_VERBS, STEP_CONNECTIVES } from "../../../markdown/Vocabulary.js"
import { QUOTED_TITLE } from "../../../markdown/Sections.js"
import { perDoc } from "../../../markdown/PerDoc.js"

export interface HedgeTerm {
  readonly pattern: RegExp
  readonly label: string
  /** "whether": leaves open whether to act; "conditional": precise once its fallback or measure is given */
  readonly kind: "whether" | "conditional"
  readonly advice: string
}

const h = (source: string, label: string, kind: HedgeTerm["kind"], advice: string): HedgeTerm => ({
  pattern: new RegExp(source, "i"),
  label,
  kind,
  advice
})

export const HEDGE_TERMS: ReadonlyArray<HedgeTerm> = [
  h("\\b(?:maybe|perhaps)\\b", "maybe", "whether", "decide: say when to do it and when not"),
  h("\\b(?:might|may) want to\\b", "might want to", "whether", "say whether to do it and when"),
  h("\\bshould probably\\b", "should probably", "whether", "say whether to do it and when"),
  // "you could" as a suggestion opens its clause ("You could also run …"); "what you could detect" is ability
  h("(?:^|[,;:]\\s+|\\b(?:or|and|then)\\s+)you could(?! not|n't)(?: also)? [a-z]", "you could", "whether", "say whether to do it"),
  h("\\bfeel free to\\b", "feel free to", "whether", "say when to do it"),
  h("\\b(?:probably|possibly|hopefully)\\b", "probably", "whether", "decide, and say when"),
  h("\\bsomehow\\b", "somehow", "whether", "describe the method"),
  h("\\bif (?:at all )?possible\\b", "if possible", "conditional", "say when it is possible and what to do when it is not"),
  h("\\bideally\\b", "ideally", "conditional", "state the requirement, or what is acceptable instead"),
  h("\\btry to\\b", "try to", "conditional", "state the action directly, and what to do if it fails")
]

const ANY_HEDGE = new RegExp(HEDGE_TERMS.map((t) => `(?:${t.pattern.source})`).join("|"), "i")

/** "try to find / reproduce / reach": a real attempt at something that can fail, not a hedge. */
const ATTEMPT = /\btry to (?:find|locate|reproduce|recover|reach|contact|connect|identify|determine|resolve|match|fetch|obtain|recall|guess|infer|narrow|isolate)\b/i

/** What follows a hedge that leaves an action open: an imperative verb, or wanting, needing, having to do one. */
const ACTS = new RegExp(`^[\\s,]*(?:(?:also|just|still|first|then)\\s+)?(?:(?:want|wants|need|needs|have|has|ought|should|must|will|'ll)\\s+to\\b|(?:should|must|will|can)\\s+\\w|(?:${[...IMPERATIVE_VERBS].join("|")})\\b)`, "i")

/** A fallback or a measure that makes a conditional hedge precise. */
const FALLBACK = /\b(otherwise|else|if not\b|if (?:it|that|this|they) (?:fails?|doesn'?t|does not|can'?t|cannot)|if you can(?:not|'t)|when (?:it is|it's|that is) not|failing that|at (?:the )?(?:least|most)|no (?:more|fewer|less) than|(?:under|below|within|up to)\s+(?:the|a|an|one)\b)\b|\d/i


/**
 * Quoted text, parentheses and "e.g./for example/such as" tails: examples and asides, not instructions.
 * Words joined by slashes ("Someday/maybe", "read/write") name one thing.
 */
const stripAsides = (text: string): string =>
  text
    .replace(/[\p{L}-]+(?:\/[\p{L}-]+)+/gu, " ")
    .replace(/"[^"]*"|“[^”]*”|‘[^’]*’|(?<![\w])'[^']{2,}'(?![\w])/g, " ")
    .replace(/\([^()]*\)/g, " ")
    .replace(/\b(?:e\.g\.|for example|for instance|such as|like)\b[^.;]*/gi, " ")

const firstWord = (s: string) => (plainText(s).replace(/^[^\p{L}]+/u, "").match(/^[\p{L}'-]+/u)?.[0] ?? "").toLowerCase()

const HEDGE_OPENING = new RegExp(`^\\s*(?:${HEDGE_TERMS.map((t) => t.pattern.source).join("|")})[\\s,]*`, "i")

/** A sentence that tells the agent what to do: an imperative, one opened by a hedge, or one addressed to "you". */
const instructs = (sentence: string): boolean => {
  // a label before a colon ("Step 2: run …") is left out, unless it is itself the instruction ("You might
  // want to find out the context: local ILS only, or …")
  const unbolded = sentence.replace(/^\s*\*\*[^*]{1,60}\*\*:?\s*/, "")
  const label = /^([^:]{1,40}):\s+(?=[A-Za-z])/.exec(unbolded)
  if (label && /\byou\b/i.test(label[1]!) && ANY_HEDGE.test(label[1]!)) return true
  const s = unbolded.replace(/^[^:]{1,40}:\s+(?=[A-Za-z])/, "")
  const w = firstWord(s)
  if (IMPERATIVE_VERBS.has(w) || STEP_CONNECTIVES.has(w)) return true
  // a sentence opened by a hedge instructs when an action follows it ("Maybe run …", "If possible, keep …");
  // "Possibly, for floating-point sums …" answers a question
  const opened = HEDGE_OPENING.exec(plainText(s))
  if (opened) {
    const rest = plainText(s).slice(opened[0].length)
    if (IMPERATIVE_VERBS.has(firstWord(rest)) || /^(?:you|also|just|then|first|always|only)\b/i.test(rest)) return true
  }
  return /\byou\b/i.test(s)
}

export interface Hedge {
  readonly line: number
  readonly labels: ReadonlyArray<string>
  readonly advice: string
}

/**
 * "container ID, chemical name and, if possible, quantity": "if possible" set off before the last item
 * of a list of things marks that item optional (gather it when it exists); no action is left open.
 * Before a verb ("and, if possible, delete the copies") it hedges the act; "ideally" before an item
 * ("and ideally the smallest effect") leaves open whether the item is required.
 */
const optionalItem = (sentence: string, pattern: RegExp): boolean => {
  const m = pattern.exec(sentence)
  if (!m) return false
  const before = sentence.slice(0, m.index)
  const item = sentence.slice(m.index + m[0].length).split(/[.;:(]/)[0]!.replace(/^[\s,]+/, "")
  const words = item.trim().split(/\s+/).filter((w) => w !== "")
  return before.includes(",") && /(?:,|\band|\bor)[\s,]*$/.test(before) && words.length >= 1 && words.length <= 4 &&
    !ACTS.test(item) && !IMPERATIVE_VERBS.has(firstWord(item))
}

/** Every line holding a hedge inside an instruction (one entry per line). */
export const hedges = perDoc((doc: Doc): Array<Hedge> => {
  const out: Array<Hedge> = []
  const headings = doc.md.headings
  const headingLines = new Set(headings.map((x) => x.line))
  for (const [n, text] of doc.prose) {
    if (headingLines.has(n) || !ANY_HEDGE.test(text)) continue
    if (/^\s*(\||>|\[[^\]]+\]:)/.test(text)) continue
    const section = [...headings].reverse().find((x) => x.line < n)
    if (section && QUOTED_TITLE.test(section.text)) continue
    const body = stripAsides(text.replace(/^\s*(?:[-*+]|\d{1,4}[.)])\s+(?:\[[ xX]\]\s+)?/, ""))
    const found: Array<{ label: string; advice: string }> = []
    const sentences = body.split(/(?<=[.!?;])\s+/)
    sentences.forEach((sentence, i) => {
      if (/\?\s*$/.test(sentence) || !instructs(sentence)) return
      const next = sentences[i + 1] ?? ""
      for (const term of HEDGE_TERMS) {
        if (!term.pattern.test(sentence) || found.some((f) => f.label === term.label)) continue
        // "do not try to force it": forbidding the attempt forbids the act, precisely
        if (term.label === "try to" && (ATTEMPT.test(sentence) || /\b(?:do not|don['’]t|never|nor)\s+try to\b/i.test(sentence))) continue
        // a clause with its own subject ("If it needs more, the tool probably does too much") judges a
        // thing; the hedge is in the diagnosis, not in what the agent is told to do
        const clause = sentence.slice(0, sentence.search(term.pattern)).split(/,\s+/).at(-1) ?? ""
        if (term.kind === "whether" && /^\s*(?:the|a|an|this|that|these|those|it|its|they|their|there)\b/i.test(clause)) continue
        // "probably" or "possibly" before anything but an action judges a fact ("and possibly in logs you
        // don't control", "you probably haven't decided"); before a verb it leaves the action open
        if (term.label === "probably" && !ACTS.test(sentence.slice(sentence.search(term.pattern)).replace(term.pattern, ""))) continue
        if (term.label === "if possible" && optionalItem(sentence, term.pattern)) continue
        if (term.kind === "conditional" && (FALLBACK.test(sentence.slice(sentence.search(term.pattern))) || /^\s*(otherwise|if not|else)\b/i.test(next))) continue
        // "at least the previous year, ideally all history": the hedge asks for more than a stated minimum
        if (term.label === "ideally" && /\bat (?:the )?least\b|\bno (?:fewer|less) than\b|\bminimum\b/i.test(sentence.slice(0, sentence.search(term.pattern)).split(/[;(]/).at(-1) ?? "")) continue
        found.push({ label: term.label, advice: term.advice })
      }
    })
    if (found.length > 0) out.push({ line: n, labels: found.map((f) => f.label), advice: found.map((f) => `Instead of "${f.label}", ${f.advice}.`).join(" ") })
  }
  return out
})

/** Hedges in a description: "maybe", "probably", "something like", "stuff", outside quoted requests. */
export const descriptionHedges = (description: string): Array<string> => {
  const text = stripAsides(description)
  // "probably" before anything but an action judges a fact, as in an instruction: "predicts which
  // device probably operated" is what the skill estimates, not a hedge on what it does
  const judgesFact = (t: (typeof HEDGE_TERMS)[number]) =>
    t.label === "probably" && [...text.matchAll(new RegExp(t.pattern.source, "gi"))].every((m) => !ACTS.test(text.slice(m.index! + m[0].length)))
  const labels = HEDGE_TERMS.filter((t) => t.kind === "whether" && t.pattern.test(text) && !judgesFact(t)).map((t) => t.label)
  if (/\bsomething like\b/i.test(text)) labels.push("something like")
  if (/\bstuff\b/i.test(text)) labels.push("stuff")
  return labels
}
