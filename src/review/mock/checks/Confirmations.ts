/**
 * What confirms a destructive command with the user: a sentence that asks first, waits, takes a backup
 * or runs dry, and a legend that marks the acts to confirm first (split from Safety.ts).
 */
import type { Doc } from "../../../markdown/Document.js"
import { perDoc } from "../../../markdown/PerDoc.js"
import { NEGATION_TITLE, PROHIBITED_TITLE } from "../../../markdown/Sections.js"
import { headingAbove } from "./Common.js"
import { prohibitedList, unitText } from "./Runs.js"
import { sentencesOf } from "./Words.js"

/**
 * A confirmation near the command: asking first, a dry run, a backup taken (to "back up" or "backup
 * the data", "take a backup"; "a backup you can't decrypt" names one and guards nothing). Asking the user and waiting, in
 * any wording. "Open it with a screen reader, or ask the user to, and listen": an "ask the user to"
 * whose act is the step's own, left out, hands the act over; it asks for no go-ahead. So does "ask the
 * user to run it in a scratch directory" (run, execute, apply, open, try, …): asking them to confirm,
 * review, select or answer waits.
 */
export const CONFIRMATION =
  /\b(ask (?:(?:the user|them|a human)(?!\s+to\s*[,.;)])(?!\s+to\s+(?:run|execute|do|perform|apply|install|open|read|try|test|paste|type|click|build|deploy|restart|reboot)\b)|for (?:approval|permission|confirmation|a go-ahead))|ask(?:s|ing)? (?:the user |them )?to confirm|confirm(?:s|ing)? with (?:the user|them|a human)|(?:get|gets|request|wait for|obtain|needs?|with|after|until) (?:the user's |their |explicit |written )?(?:approval|permission|consent|confirmation|go-ahead|sign-?off)|(?:user|explicit|their) (?:approval|confirmation|consent|permission)|only (?:after|if|when) (?:the user|you|a human) (?:confirms?|approves?|agrees?|says?)|--dry-run|dry[- ]run|back up (?!time|window|file|files|bucket|job|jobs|label|label's|set|sets)|backup (?:the|your|it|this|that|these|those|all|everything|first|now|before)\b|(?<!\b(?:the|a|an|this|that|your|each|every|newest|latest|last|its|their|of|nightly|daily)\s)back ?up(?=[.;,]|$)|(?:take|takes|taking|make|makes|create|creates|have|has|keep) (?:a |an |the )?(?:fresh |recent |new |full |manual )?(?:back ?up|snapshot)|(?:back ?up|snapshot) (?:first|exists|is taken|was taken)|are you sure|double-check with|wait for (?:the user|their|a (?:yes|reply|response|go-ahead))|read -p)\b|\[y\/n\]|\b(?:after|once|until|upon) (?:(?:a|an|the|their|the user's|explicit|second|written)\s+)*(?:yes|approval|permission|consent|confirmation|go-ahead|sign-?off|agreement)\b|\b(?:after|once|when|until|if|and) (?:the user|they|the owner|a human) (?:has |have |explicitly )?(?:confirm|approve|agree|say|said|answer|reply|replie|choose|chose|name|pick|select)(?:s|d|ed)?\b|\bwait (?:for|on) (?:(?:the|their|an?|explicit|that|this)\s+)*(?:answer|reply|response|yes|go-ahead|approval|confirmation|decision)\b|\bask(?:s|ing)?\b[^.\n]{0,30}[:,]?\s*["“][^"”\n]{3,}\?["”]|\bconfirm(?:\s+(?:it|this|that|them|the\s+\w+|with\s+(?:the\s+user|them)))?\s+before\s+(?:running|deleting|removing|proceeding|executing|continuing|applying|you\b|it\b|anything\b)|\bask(?:s|ing)?\s+(?:(?:the user|them|first)\s+)?before\s+(?:the|any|each|every|running|you|acting|doing|taking)\b/i

/**
 * A command kept to a place made for it ("`git clean -fdx` only inside a dedicated clone or worktree",
 * "in a throwaway container"): what it destroys there is nobody's, so there is nothing to ask about.
 */
export const DISPOSABLE_PLACE =
  /\b(?:only\s+)?(?:in|inside|within|on|against)\s+(?:a|an|the|your)\s+(?:(?:dedicated|disposable|throwaway|throw-away|scratch|temporary|temp|fresh|separate|isolated|sandboxed|ephemeral)\s+)+(?:clone|checkout|worktree|copy|container|sandbox|directory|folder|vm|environment|database|db)\b/i

/** A confirmation that is itself negated ("do not ask", "without confirmation") asks nothing. */
export const NEGATED_CONFIRMATION = /\b(never|do not|don't|without|no need to|skip(ping)?)\b[^.;\n]{0,25}\b(confirm|ask|approv|permission|wait)/i

/** A legend that gives a mark to the acts to confirm first: "Items marked ⚠ rewrite history; confirm with the user before doing them". */
const LEGEND = /\b(?:items?|steps?|lines?|commands?|boxes|tasks?|actions?|anything|everything)\s+(?:marked|flagged|tagged|labell?ed)\s+(?:with\s+)?(?:an?\s+|the\s+)?(\S+)/i

/** The marks the text's legends say are confirmed with the user before the act they mark. */
const confirmMarks = perDoc((doc: Doc): ReadonlyArray<string> => {
  const marks: Array<string> = []
  for (const [n] of doc.prose) {
    const m = LEGEND.exec(doc.split.lines[n - 1]!)
    const unit = unitText(doc, n)
    const mark = m?.[1]!.replace(/[.,;:)]+$/, "")
    if (mark !== undefined && mark.length > 0 && !/^\p{L}+$/u.test(mark) && CONFIRMATION.test(unit) && !NEGATED_CONFIRMATION.test(unit)) marks.push(mark)
  }
  return marks
})

/**
 * A command on a line, or in a list item, that carries a mark a legend says is confirmed first ("- [ ]
 * ⚠ Rewritten refs pushed: `git push --force --all origin`" under "Items marked ⚠ … stop and confirm
 * with the user before doing them"): the legend is the confirmation, said once for all of them.
 */
export const markedToConfirm = (doc: Doc, n: number): boolean => {
  const marks = confirmMarks(doc)
  if (marks.length === 0) return false
  const text = doc.md.inCode[n] === true ? doc.split.lines[n - 1]! : unitText(doc, n)
  return marks.some((mark) => text.includes(mark))
}

/** "without asking", "without … getting confirmation", "without the user's approval": a condition that needs the user's yes. */
const WITHOUT_YES = /\bwithout\b[^.;]*\b(?:ask(?:ing)?|confirm(?:ation|ing)?|approv(?:al|ing)|permission|consent|go-ahead|sign-?off)\b/i
const NEVER_OPENING = /^\W*(?:\*\*[^*]+\*\*:?\s*)?(?:never|do not|don't|must not)\b/i

/** A command as a policy names it: its words, in lower case, spaced once. */
const commandWords = (text: string): string => text.trim().replace(/\s+/g, " ").toLowerCase()

/**
 * The commands a rule of the whole text confirms wherever they run: "Never use `git reset --hard`, `git
 * push --force` … without showing the user what will be lost and getting confirmation" (a prohibition
 * whose condition is the user's yes), "Always ask before `terraform destroy`". Commands of two words or
 * more, as the code spans of the rule write them.
 */
const confirmedByRule = perDoc((doc: Doc): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (const [n] of doc.prose) {
    if (!doc.split.lines[n - 1]!.includes("`")) continue
    const heading = headingAbove(doc, n)
    const prohibited = (heading !== undefined && (NEGATION_TITLE.test(heading.text) || PROHIBITED_TITLE.test(heading.text))) || prohibitedList(doc, n)
    for (const s of sentencesOf(unitText(doc, n))) {
      const rule = ((prohibited || NEVER_OPENING.test(s)) && WITHOUT_YES.test(s)) || (CONFIRMATION.test(s) && !NEGATED_CONFIRMATION.test(s) && /\bbefore\b/i.test(s))
      if (rule) for (const m of s.matchAll(/`([^`]+)`/g)) if (/\S\s+\S/.test(m[1]!)) out.push(commandWords(m[1]!))
    }
  }
  return out
})

/** Whether a rule of the whole text confirms this command (`match`, as the hazard matched it) first. */
export const confirmedEverywhere = (doc: Doc, match: string): boolean => {
  const command = commandWords(match)
  return confirmedByRule(doc).some((c) => c.startsWith(command) || command.startsWith(c))
}
