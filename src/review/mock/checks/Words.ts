/** Content words: what a sentence is about, with stop words and rule words dropped and a light stem. */
import { plainText } from "../../../markdown/Markdown.js"

export const STOP = new Set(
  ("a an the and or but of to in on at by for with from into onto over under about as is are be been being was were it its this that these those " +
    "you your yours we our they their them he she his her i me my any all each every some no not so then than there here when where which who " +
    "what why how if once only also just very more most much many such own same other another can could may might will would shall should " +
    "do does did done have has had get gets got make makes made sure ensure always never must mustn't don't dont doesn't cannot can't avoid " +
    "before after while until during without within up down out off again first next last").split(/\s+/)
)

/**
 * The sentences of a text: a stop, with the closing marks after it ("**Done.**", a quote's "…it.\""),
 * then a space. One reading for every rule that weighs sentences alone.
 */
export const sentencesOf = (text: string): Array<string> => text.split(/(?<=[.!?][)"'”’*_]*)\s+/).map((s) => s.trim()).filter((s) => s !== "")

/** A line that introduces what follows it: it ends with ":", perhaps inside emphasis ("**Approach:**"). */
export const endsWithColon = (text: string): boolean => /:[*_\s]*$/.test(text)

/** The words an author leaves for a gap still to fill, as an alternation (`TODO|FIXME|TBD|XXX`). */
export const TODO_WORDS = "TODO|FIXME|TBD|XXX"

/** A light stem of a lower-case word, so "migrations" meets "migration", "running" "run" and "studies" "study". */
export const lightStem = (w: string): string => w.replace(/(?<=\w{3})(ies)$/, "y").replace(/(?<=\w{3})(ing|ed|es|s)$/, "").replace(/(?<=\w{2})e$/, "")

/** Content words, lower case, with a light stem. */
export const contentWords = (text: string): Array<string> =>
  (plainText(text).toLowerCase().replace(/n't\b/g, " not").match(/[\p{L}\p{N}_-]{2,}/gu) ?? []).filter((w) => !STOP.has(w)).map(lightStem)

/** Content words of a text with its punctuation split apart: `retention_pending.events_2023_01` gives "retention", "pending", "events". */
export const contentWordsApart = (text: string): Array<string> => contentWords(text.replace(/[^\p{L}\p{N}]+/gu, " "))

/** A determiner, then no verb form before the first punctuation: a noun phrase. */
const NOUN_PHRASE = /^\s*(?:the|a|an|its|their|your|his|her|each|every|one|two|three)\s+(?!.*\b(?:is|are|was|were|be|been|gets?|got|has|have|had|will|would|can|could|should|must|may|might|does|do|did)\b)[^]*$/i

/** A list item that names a thing ("The pod, its status, and the reason"): its first clause is a noun phrase. */
export const isNounPhrase = (text: string): boolean => NOUN_PHRASE.test(plainText(text).split(/[.:,;(]/)[0]!)
