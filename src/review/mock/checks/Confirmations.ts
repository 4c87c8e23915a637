/**
 * What confirms a destructive command with the user: a sentence that asks first, waits, takes a backup
 * or runs dry, and a legend that marks the acts to confirm first (split from Safety.ts).
 */
import type { Doc } from "../../../markdown/Document.js"
import { perDoc } from "../../../markdown/PerDoc.js"
import { unitText } from "./Runs.js"

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
