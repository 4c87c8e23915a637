/**
 * Consistency: the artifact does not contradict itself. Three kinds, each judged on the content words
 * of the statements involved (stop words and rule words dropped, light stemming):
 *
 *   always_never          an "always/must X" (or a step "X") and a "never/do not X" about the same
 *                         action: one statement's words contain the other's, so neither names a
 *                         different object ("the staging database" vs "the production database")
 *   undoes_step           a later step that reverses an earlier one (remove what was added, uninstall
 *                         what was installed, "undo step 2") without a condition (`if … fails`) and
 *                         not on something temporary
 *   contradicts_trigger   the body says not to use the skill for what the description's "Use when"
 *                         offers it for
 */
import { getField } from "../../text/Frontmatter.js"
import { plainText } from "../../text/Markdown.js"
import type { Doc } from "../Document.js"
import { type CheckContext, type CheckOutcome, Out, quote } from "./Common.js"
import { firstWord, orderedLists } from "./Procedure.js"

const STOP = new Set(
  ("a an the and or but of to in on at by for with from into onto over under about as is are be been being was were it its this that these those " +
    "you your yours we our they their them he she his her i me my any all each every some no not so then than there here when where which who " +
    "what why how if once only also just very more most much many such own same other another can could may might will would shall should " +
    "do does did done have has had get gets got make makes made sure ensure always never must mustn't don't dont doesn't cannot can't avoid " +
    "before after while until during without within up down out off again first next last").split(/\s+/)
)

/** Content words, lower case, with a light stem so "migrations" meets "migration" and "running" "run". */
export const contentWords = (text: string): Array<string> =>
  (plainText(text).toLowerCase().replace(/n't\b/g, " not").match(/[\p{L}\p{N}_-]{2,}/gu) ?? [])
    .filter((w) => !STOP.has(w))
    .map((w) => w.replace(/(?<=\w{3})(ies)$/, "y").replace(/(?<=\w{3})(ing|ed|es|s)$/, "").replace(/(?<=\w{2})e$/, ""))

const POSITIVE = /\b(always|must(?! not| never)|make sure (to|that|you)|be sure to|ensure (that )?(you )?)\b/i
const NEGATIVE = /\b(never|do not|don't|must not|must never|mustn't|should not|shouldn't|may not|cannot|can't|avoid)\b/i
/** "never X without Y" means "always Y when X": not a plain negative. */
const DOUBLE_NEGATIVE = /\b(without|unless|except|other than|instead of)\b/i

interface Statement {
  readonly line: number
  readonly text: string
  readonly words: ReadonlySet<string>
  readonly kind: "positive" | "negative"
  /** an imperative step, read as a positive statement */
  readonly step: boolean
  /** "without Y", "unless Y": the statement holds only short of a condition */
  readonly conditioned: boolean
}

const sentencesOf = (text: string) => text.split(/(?<=[.!?;])\s+/).map((s) => s.trim()).filter((s) => s !== "")

/** The rule statements of the body: always/must sentences, never/do-not sentences, imperative steps. */
const statements = (doc: Doc): Array<Statement> => {
  const out: Array<Statement> = []
  const stepLines = new Set(orderedLists(doc).flatMap((l) => l.items.map((i) => i.line)))
  for (const [n, raw] of doc.prose) {
    const text = raw.replace(/^\s*(?:[-*+]|\d{1,3}[.)])\s+/, "")
    for (const s of sentencesOf(text)) {
      const neg = NEGATIVE.test(s)
      const pos = !neg && POSITIVE.test(s)
      const conditioned = DOUBLE_NEGATIVE.test(s)
      // the action is what follows the rule word
      const rest = neg ? s.slice(s.search(NEGATIVE)) : pos ? s.slice(s.search(POSITIVE)) : s
      const words = new Set(contentWords(rest))
      if (words.size < 2) continue
      if (neg) out.push({ line: n, text: s, words, kind: "negative", step: false, conditioned })
      else if (pos) out.push({ line: n, text: s, words, kind: "positive", step: false, conditioned })
      else if (stepLines.has(n) && s === sentencesOf(text)[0]) {
        // a step's label ("**Content exploration**: Use …") is not its action
        const action = plainText(s).replace(/^[^:]{1,40}:\s+(?=[A-Z])/, "")
        if (/^[A-Z]/.test(action) && !/^(if|when|unless|once|for|in case)\b/i.test(action)) {
          out.push({ line: n, text: s, words: new Set(contentWords(action)), kind: "positive", step: true, conditioned })
        }
      }
    }
  }
  return out
}

const subset = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].every((w) => b.has(w))
const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].filter((w) => b.has(w)).length

export interface Contradiction {
  readonly first: Statement
  readonly second: Statement
  /** the statement that more likely says what is meant (a step of the procedure, a rule in a rules section, else the prohibition) */
  readonly kept: Statement
  readonly dropped: Statement
}

const RULES_HEADING = /\b(rules?|constraints?|guidelines?|guardrails?|boundaries|don'?ts|dos and don'?ts|must|never|important|critical|policy|policies|non-negotiable|iron law|red flags)\b/i

/** Which of two contradicting statements the document more likely means. */
const likelyMeant = (doc: Doc, a: Statement, b: Statement): Statement => {
  if (a.step !== b.step) return a.step ? a : b
  const sectionOf = (s: Statement) => [...doc.md.headings].reverse().find((h) => h.line < s.line)?.text ?? ""
  const ra = RULES_HEADING.test(sectionOf(a))
  const rb = RULES_HEADING.test(sectionOf(b))
  if (ra !== rb) return ra ? a : b
  return a.kind === "negative" ? a : b
}

/** Pairs of statements about the same action with opposite polarity. */
export const contradictions = (doc: Doc): Array<Contradiction> => {
  const all = statements(doc)
  const out: Array<Contradiction> = []
  const used = new Set<number>()
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const a = all[i]!
      const b = all[j]!
      // "never X without Y" and "always X" are not opposites; "never X without Y" and "always X without Y" are
      if (a.kind === b.kind || a.line === b.line || used.has(j) || a.conditioned !== b.conditioned) continue
      const neg = a.kind === "negative" ? a : b
      const pos = a.kind === "negative" ? b : a
      // a step that does a thing, against a rule that forbids exactly that thing
      const shared = overlap(neg.words, pos.words)
      const same = shared >= 2 && (subset(neg.words, pos.words) || subset(pos.words, neg.words))
      // a step says more than the rule it breaks; a rule pair must be about the same words
      if (!same || (pos.step && !subset(neg.words, pos.words))) continue
      const kept = likelyMeant(doc, a, b)
      out.push({ first: a, second: b, kept, dropped: kept === a ? b : a })
      used.add(j)
      break
    }
  }
  return out
}

// ---------------------------------------------------------------- steps undone

/** Verbs that take back what an earlier step made or did. */
const REVERSING = new Set(
  ("remove delete discard drop destroy revert undo uninstall disable unset clear reset erase wipe purge close stop detach unlink unpin unmark " +
    "untag unregister unpublish unstage downgrade revoke reject cancel abandon tear roll").split(" ")
)
const UNDO = /^(undo|revert|roll ?back|reverse|discard)\b/i
const TEMPORARY = /\b(temp|temporary|tmp|scratch|throwaway|worktree|backup|stash|test (database|db|branch|data)|fixture|cleanup|clean up|leftover|debug|old|previous|stale|outdated|unused|obsolete|duplicate)\b/i
const CONDITIONAL = /\b(if|when|unless|on (failure|error)|in case|otherwise|fails?|failed|broken|wrong|mistake|error)\b/i
/** A connective that opens a step ("Finally, delete …") is not its verb. */
const LEAD_IN = /^(?:(?:finally|then|next|now|lastly|afterwards|at the end|once (?:that|this|it) is done|after that|before you finish|when (?:you are|you're) done)\s*,?\s+)+/i

export interface UndoneStep {
  readonly line: number
  readonly earlierLine: number
  readonly text: string
}

export const undoneSteps = (doc: Doc): Array<UndoneStep> => {
  const out: Array<UndoneStep> = []
  for (const list of orderedLists(doc)) {
    const items = list.items.map((it) => {
      const plain = plainText(it.text).replace(LEAD_IN, "")
      return { ...it, plain, verb: firstWord(plain) }
    })
    for (let j = 1; j < items.length; j++) {
      const later = items[j]!
      if (CONDITIONAL.test(later.plain) || TEMPORARY.test(later.plain)) continue
      const stepRef = /\b(?:step|item)\s+(\d+)\b/i.exec(later.plain)
      if (UNDO.test(later.plain) && stepRef) {
        const earlier = items.find((x) => x.number === Number(stepRef[1]) && x.line < later.line)
        if (earlier) {
          out.push({ line: later.line, earlierLine: earlier.line, text: later.plain })
          continue
        }
      }
      if (!REVERSING.has(later.verb)) continue
      const laterWords = new Set(contentWords(later.plain).slice(1))
      if (laterWords.size === 0) continue
      for (let i = 0; i < j; i++) {
        const earlier = items[i]!
        // a step that itself removes something is not undone by removing more
        if (REVERSING.has(earlier.verb) || earlier.verb === "" || TEMPORARY.test(earlier.plain)) continue
        const earlierWords = new Set(contentWords(earlier.plain).slice(1))
        const shared = overlap(laterWords, earlierWords)
        // the later step's object is the earlier step's: most of its words come from there
        if (shared >= 1 && shared >= laterWords.size * 0.6) {
          out.push({ line: later.line, earlierLine: earlier.line, text: later.plain })
          break
        }
      }
    }
  }
  return out
}

// ---------------------------------------------------------------- the description's trigger

const NOT_FOR = /\b(?:do not|don't|never|must not|should not)\s+use\s+(?:this skill|this|it|the skill)\s+(?:when|for|to|if|on|with|while)\b(.*)|\bthis skill (?:is not|isn't) (?:meant |intended |designed )?(?:for|to)\b(.*)|\bnot (?:meant|intended|designed|suitable) (?:for|to)\b(.*)/i

/** The "use when" clause of a description (what the skill is for). */
const triggerClause = (description: string): string | null => {
  const m = /\b(use (?:this skill |it )?(?:when|whenever|if|for|to)|used (?:when|for|to)|invoke when|trigger(?:ed)? (?:when|by))\b(.*?)(?:\.\s|$)/i.exec(description)
  return m ? m[2]! : null
}

export interface TriggerContradiction {
  readonly line: number
  readonly text: string
}

export const triggerContradictions = (doc: Doc): Array<TriggerContradiction> => {
  const field = doc.fm.closed ? getField(doc.fm, "description") : undefined
  const trigger = field ? triggerClause(field.value.replace(/\s+/g, " ")) : null
  if (!trigger) return []
  const wanted = new Set(contentWords(trigger))
  if (wanted.size === 0) return []
  const out: Array<TriggerContradiction> = []
  for (const [n, text] of doc.prose) {
    for (const s of sentencesOf(text)) {
      const m = NOT_FOR.exec(s)
      if (!m) continue
      const forbidden = new Set(contentWords(m[1] ?? m[2] ?? m[3] ?? ""))
      const shared = overlap(forbidden, wanted)
      if (forbidden.size > 0 && shared >= Math.min(2, forbidden.size) && shared >= forbidden.size * 0.6) out.push({ line: n, text: s })
    }
  }
  return out
}

export const consistency = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("consistency", ctx.disabledRules)
  const { doc } = ctx
  const pairs = contradictions(doc)
  for (const c of pairs) {
    o.issue(
      "always_never",
      "major",
      c.dropped.line,
      `${quote(c.dropped.text, 70)} contradicts line ${c.kept.line} (${quote(c.kept.text, 70)})`,
      "Keep the rule that is meant and delete the other; if both hold in different cases, name the cases."
    )
  }
  o.deductEach(pairs.length, 40, 70, "contradicting rules", "always_never")
  const undone = undoneSteps(doc)
  for (const u of undone) {
    o.issue(
      "undoes_step",
      "major",
      u.line,
      `The step ${quote(u.text, 70)} undoes the step on line ${u.earlierLine}`,
      "Remove the step, or make it conditional (\"If the deploy fails, …\")."
    )
  }
  o.deductEach(undone.length, 40, 70, "a step undoing an earlier one", "undoes_step")
  const triggers = triggerContradictions(doc)
  for (const t of triggers) {
    o.issue(
      "contradicts_trigger",
      "major",
      t.line,
      `${quote(t.text, 80)} forbids what the description's "Use when" offers the skill for`,
      "Make the description and the body agree on when to use the skill."
    )
  }
  o.deductEach(triggers.length, 40, 60, "the body contradicts the description's trigger", "contradicts_trigger")
  if (o.deductions.length === 0) o.note("no contradicting rules or steps")
  return o.done()
}
