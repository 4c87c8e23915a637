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
import { getField } from "../../../markdown/Frontmatter.js"
import { plainText } from "../../../markdown/Markdown.js"
import type { Doc } from "../../../markdown/Document.js"
import { type CheckContext, type CheckOutcome, headingAbove, Out, quote } from "./Common.js"
import { firstWord, isImperative, orderedLists } from "../../../markdown/Instructions.js"
import { perDoc } from "../../../markdown/PerDoc.js"
import { contentWords, sentencesOf } from "./Words.js"
import { isInlineCommand } from "./Teaching.js"
import { renderedLine, topLists } from "./Runs.js"
import { USE_OPENING } from "./Identity.js"
import { listItemUnits } from "./Repeats.js"
import { RULE_STATEMENTS_TITLE } from "../../../markdown/Sections.js"

const POSITIVE = /\b(always|must(?! not| never)|make sure (?:to|that|you)|be sure to|ensure (?:that )?(?:you )?|(?:is|are) required to)\b/i
/**
 * A negation that closes a relative clause with its verb left out ("**Adjust the ingredients that do
 * not** (next section)": those that do not scale) describes what the step acts on; it forbids nothing.
 */
const NEGATIVE = /\b(never|do not|don't|must not|must never|mustn't|should not|shouldn't|should never|may not|cannot|can't|avoid|no longer)\b(?!(?<=\b(?:that|which|who)\s+(?:do not|don't|cannot|can't))[*_\s]*(?:[(.,;:)!?]|$))/i

/**
 * The case a statement applies to: its conditions ("when X", "if X", "for X", "unless X", "without
 * X", "before/after X", "during X", "in X mode"). Two rules contradict only in the same case: "always
 * X" and "when Y, never X" are a rule and its exception; "never X before Y" and "always X after Y"
 * apply to different moments.
 */
const CONDITION = /\b(when|whenever|if|unless|except|without|before|after|during|while|until|in case|once|other than|instead of)\b/i
/** A condition that opens a clause ("When drafting, …", "For Python scripts, …", "In CI, …"). */
const LEADING_CONDITION = /^\s*(?:when|whenever|if|unless|except|before|after|during|while|until|in case|once|for|in)\b/i

interface Statement {
  readonly line: number
  /** the whole sentence (what a repair removes) */
  readonly text: string
  /** what the statement asks or forbids: its subject and action, conditions left out */
  readonly words: ReadonlySet<string>
  /** the case it applies to: the content words of its conditions (empty: always) */
  readonly when: ReadonlySet<string>
  /** its case is an exception carved out of the general rule ("always X, except when Y", "never X unless Y") */
  readonly exception?: boolean
  /** its case has an exception carved out of it ("don't X if C, unless D"): `when` holds C alone */
  readonly carved?: boolean
  readonly kind: "positive" | "negative"
  /** an imperative step, read as a positive statement */
  readonly step: boolean
  /**
   * the case of the sentence before, for a rule that points back at it ("If it fails, the file is
   * incomplete. Don't pick candidates from it."): weighed against a step, which is one occasion; an
   * "always" rule claims that case too
   */
  readonly inherited?: ReadonlySet<string> | undefined
}


const RULE_CLAUSES = /\s*;\s*|\s+[—–-]\s+|—|(?<!\be\.g\.|\bi\.e\.):\s+|,\s+(?=(?:but|and|or)\s+(?:never|always|do not|don't|must)\b)|\s+(?=but\s+(?:never|do not|don't|must not)\b)/i
const RULE_CLAUSES_RUN = new RegExp(`${RULE_CLAUSES.source}|(?:,|\\s+(?:and|but|or))\\s+(?=(?:never|always|do not|don't)\\b)`, "i")
const OPENS_WITH_RULE = /^[*_\s]*(?:always|never|do not|don't|must)\b/i

/**
 * A sentence's clauses: rules are often two to a sentence ("X — never Y", "do X; never Y", "X: never Y",
 * "X, but never Y", "X but do not Y"), or a run of them in a sentence that opens with one ("Always X, don't Y
 * and never Z").
 */
const clausesOf = (sentence: string) =>
  sentence
    .split(OPENS_WITH_RULE.test(sentence) ? RULE_CLAUSES_RUN : RULE_CLAUSES)
    .filter((c) => c.trim() !== "")

/**
 * A negation in a relative clause after the rule's object ("Always terminate a session you can't
 * identify"): it describes the object, the rule word before it says what to do. The word before the
 * pronoun is a noun, not the rule's own "make sure you" or "check that you".
 */
const RELATIVE_NEGATION = /\b(?!(?:sure|that|so|because|and|but|or|if|when|unless|since|as|check|verify|ensure|confirm)\b)[a-z]+\s+(?:you|we|they)\s+$/i

/**
 * A negation in a question the rule asks or answers ("Always ask why someone can't make it", "note who
 * did not reply"): the question is the object, the rule word before it says what to do.
 */
const QUESTION_NEGATION = /\b(?:why|what|who|whom|whose|which|how|whether)(?:\s+[\w'’-]+){0,3}\s+$/i

/** A reason or a purpose given after the rule: ", because …", " so that …", ", so they can object while it is cheap". */
const REASON = /,?\s+(?:because|so that)\b.*$|,\s*so\s+(?:\w+\s+){0,3}?(?:can|could|will|would|may|might|won't|don't|do not|never|always)\b.*$/is

/**
 * An action and the case it applies to: "if X, Y" (a leading condition up to its comma) and "Y when X"
 * (a trailing one) both give action Y in case X.
 */
const actionAndCase = (full: string): { action: string; when: string } => {
  // the reason a rule gives ("…, because the results look like variances when they are gaps") is
  // neither what it asks nor the case it holds in
  const text = full.replace(REASON, "")
  if (LEADING_CONDITION.test(text)) {
    const comma = text.indexOf(",")
    if (comma > 0) {
      const rest = actionAndCase(text.slice(comma + 1))
      return { action: rest.action, when: `${text.slice(0, comma)} ${rest.when}` }
    }
  }
  // a condition inside parentheses belongs to the aside ("a section with only noise (room tone before
  // the first word)"): the case is read from the text around it
  const c = CONDITION.exec(text.replace(/\([^()]*\)/g, (m) => " ".repeat(m.length)))
  // "even if X", "even when X": the rule holds in every case, X included; it names no case of its own
  if (c && /\beven\s+$/i.test(text.slice(0, c.index))) return { action: text.slice(0, c.index).replace(/\beven\s+$/i, ""), when: "" }
  return c ? { action: text.slice(0, c.index), when: text.slice(c.index) } : { action: text, when: "" }
}

/** A case that only carves an exception out of the rule: "except when Y", "unless Y". */
const EXCEPTION = /^[\s,]*(?:unless|except)\b/i

/** Subject and action words, and the case words, of one clause from its rule word on. */
const parse = (clause: string, rule: RegExpExecArray, topic: string, positive: boolean): { words: Set<string>; when: Set<string>; exception: boolean; carved: boolean } => {
  const head = clause.slice(0, rule.index)
  // "When X, never Y": a condition before the rule word; otherwise what precedes it is the subject
  const lead = LEADING_CONDITION.test(head) || CONDITION.test(head)
  const after = actionAndCase(clause.slice(rule.index + rule[0].length))
  // "must come from a noise-only section, not from speech": the contrast is what the rule does not ask
  const action = positive ? after.action.replace(/,\s+not\s+[^,.;]*/gi, " ") : after.action
  const words = new Set(contentWords(`${topic} ${lead ? "" : head} ${action}`))
  // "if C, unless D": the case is C with D carved out of it; in C without D the rule still holds
  const carve = /[\s,]+(?:unless|except)\b/i.exec(after.when)
  const carved = carve !== null && carve.index > 0
  const when = new Set(contentWords(`${lead ? head : ""} ${carved ? after.when.slice(0, carve.index) : after.when}`))
  const exception = lead ? EXCEPTION.test(head) && after.when === "" : after.when !== "" && EXCEPTION.test(after.when)
  return { words, when, exception, carved }
}

/** Sentence text with code spans unwrapped: `jet` and `viridis` are what a colormap rule is about. */
const unwrapCode = (line: string) => line.replace(/`([^`]*)`/g, "$1")

/** The rule statements of the body: always/must clauses, never/do-not clauses, imperative steps. */
const statements = (doc: Doc): Array<Statement> => {
  const out: Array<Statement> = []
  const stepLines = new Set(orderedLists(doc).flatMap((l) => l.items.map((i) => i.line)))
  const headingLines = new Set(doc.md.headings.map((h) => h.line))
  for (const [n] of doc.prose) {
    const raw = doc.split.lines[n - 1]!
    if (headingLines.has(n) || /^\s*\|/.test(raw)) continue
    // the sentences as they render: a rule's case may be on the next wrapped line ("… until⏎the previous one is back")
    const text = unwrapCode(renderedLine(doc, n)).replace(/^\s*(?:>\s*)?(?:[-*+]|\d{1,3}[.)])\s+/, "")
    const sentences = sentencesOf(text)
    sentences.forEach((sentence, si) => {
      // a step: its first sentence, label removed ("**Content Exploration**: Use READ-ONLY operations …");
      // a label that is itself an instruction ("Check usage before removal: access logs, a code search",
      // "**Check symmetry**: Use X to …") is one more statement of the step
      if (stepLines.has(n) && si === 0 && !NEGATIVE.test(sentence) && !POSITIVE.test(sentence)) {
        const full = plainText(sentence)
        const label = /^([^:]{1,120}):\s+(?=\S)/.exec(full)
        const parts = !label ? [full] : [full.slice(label[0].length), ...(isImperative(label[1]!) !== false ? [label[1]!] : [])]
        for (const plain of parts) {
          if (!/^[A-Z]/.test(plain)) continue
          const { action, when } = actionAndCase(plain)
          const words = new Set(contentWords(action))
          if (words.size >= 2) out.push({ line: n, text: sentence, words, when: new Set(contentWords(when)), kind: "positive", step: true })
        }
        return
      }
      let topic = ""
      for (const marked of clausesOf(sentence)) {
        // emphasis marks a word, it does not change it: "Do **not** delete" is a prohibition
        const clause = marked.replace(/(\*{1,3}|_{2,3})(?=\S)([^*_\n]+?)(?<=\S)\1/g, "$2")
        // the rule word is the rule's, not its reason's ("must be rigged so that the entrant cannot sink"):
        // read it before ", because …" or " so that …" (a prefix, so the indices hold for the clause)
        const ruled = clause.replace(REASON, "")
        const negation = NEGATIVE.exec(ruled)
        const positive = POSITIVE.exec(ruled)
        const between = negation !== null && positive !== null && positive.index < negation.index ? clause.slice(positive.index + positive[0].length, negation.index).slice(-80) : null
        const relative = between !== null && (RELATIVE_NEGATION.test(between) || QUESTION_NEGATION.test(between))
        const neg = relative ? null : negation
        const pos = neg ? null : positive
        const m = neg ?? pos
        if (m) {
          const parsed = parse(clause, m, topic, neg === null)
          // "If it exits with an error, the file is incomplete. Don't pick candidates from it.": a rule that
          // points back with a pronoun, in no case of its own, holds in the case the sentence before opens
          // (against a step; see `inherited`)
          const before = si > 0 && parsed.when.size === 0 && /\b(?:it|them)\b/i.test(clause) ? /^\s*(?:if|when|whenever)\b[^,]*/i.exec(plainText(sentences[si - 1]!)) : null
          const inherited = before ? new Set(contentWords(before[0])) : undefined
          if (parsed.words.size >= 1) out.push({ line: n, text: sentence, ...parsed, inherited, kind: neg ? "negative" : "positive", step: false })
        }
        // a clause without a rule word names what the next one is about ("Trailing zero (X.0 mg) - never use …")
        topic = m ? "" : plainText(clause)
      }
    })
  }
  return out
}

/** Same case: both unconditional, or the same conditions (an exception to a general rule is not a contradiction). */
const sameCase = (a: ReadonlySet<string>, b: ReadonlySet<string>) =>
  a.size === b.size && [...a].every((w) => b.has(w))

/**
 * Two rules that meet: the same case, or a rule with its exception ("always X, except when Y") against
 * the unconditional opposite ("never X"), which holds outside Y too; "don't X if C, unless D" meets
 * "always X if C" in C without D. A step is not weighed this way: a procedure that does X is the case
 * the exception allows ("never delete unless asked", then "delete the named ones").
 */
const meet = (a: Statement, b: Statement) =>
  (sameCase(b.step ? a.inherited ?? a.when : a.when, a.step ? b.inherited ?? b.when : b.when) && !(a.step && b.carved === true) && !(b.step && a.carved === true)) || (!a.step && !b.step && ((a.exception === true && b.when.size === 0) || (b.exception === true && a.when.size === 0)))

const subset = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].every((w) => b.has(w))
const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].filter((w) => b.has(w)).length

export interface Contradiction {
  readonly first: Statement
  readonly second: Statement
  /** the statement that more likely says what is meant (a step of the procedure, a rule in a rules section, else the prohibition) */
  readonly kept: Statement
  readonly dropped: Statement
}


/** Which of two contradicting statements the document more likely means. */
const likelyMeant = (doc: Doc, a: Statement, b: Statement, all: ReadonlyArray<Statement>): Statement => {
  if (a.step !== b.step) return a.step ? a : b
  // the one the rest of the document agrees with: other statements of its polarity on the same things
  const support = (s: Statement) => all.filter((x) => x !== a && x !== b && x.kind === s.kind && overlap(x.words, s.words) >= 2).length
  const sa = support(a)
  const sb = support(b)
  if (sa !== sb) return sa > sb ? a : b
  const sectionOf = (s: Statement) => headingAbove(doc, s.line)?.text ?? ""
  const ra = RULE_STATEMENTS_TITLE.test(sectionOf(a))
  const rb = RULE_STATEMENTS_TITLE.test(sectionOf(b))
  if (ra !== rb) return ra ? a : b
  return a.kind === "negative" ? a : b
}

/** A lead-in that offers what follows as alternatives: "Options, roughly in order of preference:", "Either:". */
const ALTERNATIVES = /\b(?:options?|alternatives?|choices|approaches|ways|either|one of|pick one|choose (?:one|between|among))\b[^.!?]*:[*_\s]*$/i

/**
 * The items of the lists offered as alternatives, by line: each line of an item (its continuation lines
 * too) keyed by its list and item. Two options ("1. Don't skip waiting; …", "2. Skip waiting, but …")
 * are choices between rules, not two rules in force.
 */
const alternativeItems = (doc: Doc): Map<number, { readonly list: number; readonly item: number }> => {
  const out = new Map<number, { readonly list: number; readonly item: number }>()
  const units = listItemUnits(doc)
  for (const list of topLists(doc)) {
    if (!ALTERNATIVES.test(sentencesOf(list.lead).at(-1) ?? "")) continue
    list.items.forEach((line, i) => {
      const end = list.items[i + 1] !== undefined ? list.items[i + 1]! - 1 : units.find((u) => u.start === line)?.end ?? line
      for (let n = line; n <= end; n++) out.set(n, { list: list.items[0]!, item: i })
    })
  }
  return out
}

/** Pairs of statements about the same action with opposite polarity. */
export const contradictions = perDoc((doc: Doc): Array<Contradiction> => {
  const all = statements(doc)
  const options = alternativeItems(doc)
  // two items of one list of alternatives
  const choices = (a: Statement, b: Statement) => {
    const x = options.get(a.line)
    const y = options.get(b.line)
    return x !== undefined && y !== undefined && x.list === y.list && x.item !== y.item
  }
  const out: Array<Contradiction> = []
  const used = new Set<number>()
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const a = all[i]!
      const b = all[j]!
      // opposite rules on the same action in the same case ("never X without Y" and "always X" are not)
      if (a.kind === b.kind || a.line === b.line || used.has(j) || !meet(a, b) || choices(a, b)) continue
      const neg = a.kind === "negative" ? a : b
      const pos = a.kind === "negative" ? b : a
      // a step that does a thing, against a rule that forbids exactly that thing
      const shared = overlap(neg.words, pos.words)
      // one action: the words of one contain the other's (two of them at least, or one and the same word)
      const same = (shared >= 2 || (shared === 1 && neg.words.size === 1 && pos.words.size === 1)) && (subset(neg.words, pos.words) || subset(pos.words, neg.words))
      // a step says more than the rule it breaks; a rule pair must be about the same words
      if (!same || (pos.step && !subset(neg.words, pos.words))) continue
      const kept = likelyMeant(doc, a, b, all)
      out.push({ first: a, second: b, kept, dropped: kept === a ? b : a })
      used.add(j)
      break
    }
  }
  return out
})

// ---------------------------------------------------------------- steps undone

/** Verbs that take back what an earlier step made or did. */
const REVERSING = new Set(
  ("remove delete discard drop destroy revert undo uninstall disable unset clear reset erase wipe purge close stop detach unlink unpin unmark " +
    "untag unregister unpublish unstage downgrade revoke reject cancel abandon tear roll").split(" ")
)
const UNDO = /^(undo|revert|roll ?back|reverse|discard)\b/i
/** A command that takes something back: a reversing verb, `rm`, `kill`, `down`, a delete flag. */
const REVERSING_CODE = new RegExp(`(?:^|[\\s/|;&(])(?:${[...REVERSING].join("|")}|rm|rmdir|del|kill|pkill|down|prune|uninstall|drop|truncate)(?=$|[\\s;)])|\\s(?:-d|-D|--delete|--rm|--remove)\\b|\\b(?:DROP|DELETE|TRUNCATE|REVOKE)\\b`, "i")
const TEMPORARY = /\b(temp|temporary|tmp|scratch|throwaway|worktree|backup|stash|test (database|db|branch|data)|fixture|cleanup|clean up|leftover|debug|old|previous|stale|outdated|unused|obsolete|duplicate)\b/i
const ADJECTIVE_STATE = /\b(?:a|an|the|each|every|any|last)\s+(?:failed|failing|broken|wrong)\b/gi
const CONDITIONAL = /\b(if|when|unless|on (failure|error)|in case|otherwise|fails?|failed|broken|wrong|mistake|error)\b/i
/** A connective that opens a step ("Finally, delete …") is not its verb. */
const LEAD_IN = /^(?:(?:finally|then|next|now|lastly|afterwards|at the end|once (?:that|this|it) is done|after that|before you finish|when (?:you are|you're) done)\s*,?\s+)+/i

/**
 * What a step acts on: the words after its verb, up to the first clause or preposition ("Add the
 * replacement next to the old name" makes "the replacement"; "the old name" is where it goes).
 */
const objectOf = (step: string): string =>
  step.replace(/^\S+\s*/, "").split(/[.;:,]|\s(?:to|from|with|for|in|on|at|by|into|onto|next|as|before|after|when|while|using|so|and|then|until|unless)\b/i)[0] ?? ""

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
      // "a failed run", "the broken build": an adjective naming the thing, not a condition on the step
      if (CONDITIONAL.test(later.plain.replace(ADJECTIVE_STATE, " ")) || TEMPORARY.test(later.plain)) continue
      const stepRef = /\b(?:step|item)\s+(\d+)\b/i.exec(later.plain)
      if (UNDO.test(later.plain) && stepRef) {
        const earlier = items.find((x) => x.number === Number(stepRef[1]) && x.line < later.line)
        if (earlier) {
          out.push({ line: later.line, earlierLine: earlier.line, text: later.plain })
          continue
        }
      }
      if (!REVERSING.has(later.verb)) continue
      // the step's command is what it does: a command that takes nothing back (`date -u | tee finished`
      // after "Start the clock: `date -u | tee started`") makes "Stop the clock" the step's own act
      const code = [...later.text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter(isInlineCommand)
      if (code.length > 0 && !code.some((c) => REVERSING_CODE.test(c))) continue
      // "Delete it.": a pronoun names the object of the step right before
      const pronoun = /^\S+\s+(?:it|them|this|these)\s*[.!]?\s*$/i.test(later.plain)
      const laterWords = new Set(contentWords(later.plain).slice(1))
      if (laterWords.size === 0 && !pronoun) continue
      // the later step's own act, in any form ("delete" → "which ones to delete", "deletion")
      const act = new RegExp(`\\b${later.verb.replace(/e$/, "")}`, "i")
      for (let i = pronoun ? j - 1 : 0; i < j; i++) {
        const earlier = items[i]!
        // a step that itself removes something is not undone by removing more; one that names the
        // removal ("ask which ones to delete", "list what to remove") prepares it, and the later step carries it out
        if (REVERSING.has(earlier.verb) || earlier.verb === "" || TEMPORARY.test(objectOf(earlier.plain)) || act.test(earlier.plain)) continue
        const earlierWords = new Set(contentWords(earlier.plain).slice(1))
        const shared = overlap(laterWords, earlierWords)
        // the later step's object is the earlier step's: most of its words come from there
        if (pronoun || (shared >= 1 && shared >= laterWords.size * 0.6)) {
          out.push({ line: later.line, earlierLine: earlier.line, text: later.plain })
          break
        }
      }
    }
  }
  return out
}

// ---------------------------------------------------------------- the description's trigger

const NOT_FOR = /\b(?:do not|don't|never|must not|should not)\s+use\s+(?:this skill|this|it|the skill)\s+(?:when|for|to|if|on|with|while|before|after|during)\b(.*)|\bthis skill (?:is not|isn't) (?:meant |intended |designed )?(?:for|to)\b(.*)|\bnot (?:meant|intended|designed|suitable) (?:for|to)\b(.*)/i

/** A description's use sentence and what follows its opening words ("Use at month-end close, when …"). */
const USE_CLAUSE = new RegExp(`\\b(${USE_OPENING})\\b(.*?)(?:\\.\\s|$)`, "i")
/** The same in other words ("Used when …", "Invoke when …"), read when there is no "Use when". */
const OTHER_TRIGGER_CLAUSE = /\b(used (?:when|for|to)|invoke when|trigger(?:ed)? (?:when|by))\b(.*?)(?:\.\s|$)/i

/**
 * The "use when" clause of a description (what the skill is for). "Use when" first, wherever it is: a
 * passive before it ("so that counts can be used for occupancy analysis. Use when …") is no trigger.
 */
const triggerClause = (description: string): string | null => (USE_CLAUSE.exec(description) ?? OTHER_TRIGGER_CLAUSE.exec(description))?.[2] ?? null

/** What the description offers the skill for: its "use when" clause and its first sentence (what it does), never its own exclusions. */
const offeredFor = (description: string): Set<string> => {
  const text = description.replace(/\s+/g, " ")
  // "Not for affinity prediction.", "Do not use for X": the description's own exclusions are not offers;
  // an exclusion that closes an offer ("Use when …; not for staff offboarding") leaves the offer standing
  const offers = sentencesOf(text)
    .map((s) => s.replace(/(?:[;,]|\s[—–-])\s*(?:but\s+)?not (?:for|intended|meant|suitable)\b.*$/i, ""))
    .filter((s) => !/\b(not (?:for|intended|meant|suitable)|do not use|don't use|never use)\b/i.test(s))
  const trigger = triggerClause(offers.join(" "))
  return new Set(contentWords(`${trigger ?? ""} ${offers[0] ?? ""}`))
}

export interface TriggerContradiction {
  readonly line: number
  readonly text: string
}

export const triggerContradictions = perDoc((doc: Doc): Array<TriggerContradiction> => {
  const field = doc.fm.closed ? getField(doc.fm, "description") : undefined
  if (!field) return []
  const wanted = offeredFor(field.value)
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
})

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
