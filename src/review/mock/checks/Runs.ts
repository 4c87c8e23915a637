/**
 * Whether a destructive command the safety check found on a line is one the agent is told to run. A
 * skill names commands in many roles that run nothing: a sentence about what the command does, a
 * row of a cheat sheet, a mistake it warns against, a line of a program or migration the agent
 * writes, a cleanup of what the same block has just made; and in prose, any sentence that does not
 * tell the agent to run it (the road not taken, what people do, a hazard named). Each reader below is
 * one of those roles, read from the structure around the command rather than from its words.
 */
import { type CodeBlock, tableCells } from "../../../markdown/Markdown.js"
import type { Doc } from "../../../markdown/Document.js"
import { NEGATION_TITLE, PROHIBITED_TITLE } from "../../../markdown/Sections.js"
import { perDoc } from "../../../markdown/PerDoc.js"
import { isImperative, opensOnVerb } from "../../../markdown/Instructions.js"
import { headingAbove } from "./Common.js"
import { sentencesOf } from "./Words.js"
import { listItemUnits, paragraphs } from "./Repeats.js"

/** Words that tell somebody to run what follows. */
const RUNS = /\b(run|runs|execute|use|type|call|invoke|then|try)\b/i

/** The paragraph or list item (continuation lines included) each prose line belongs to, by line. */
const proseUnits = perDoc((doc: Doc) => {
  const byLine = new Map<number, { readonly start: number; readonly end: number }>()
  for (const u of [...paragraphs(doc), ...listItemUnits(doc)]) for (let n = u.start; n <= u.end; n++) byLine.set(n, u)
  return byLine
})

/** The text of the paragraph or list item holding line n, its lines joined (the line alone outside both). */
export const unitText = (doc: Doc, n: number): string => {
  const unit = proseUnits(doc).get(n)
  return unit ? doc.split.lines.slice(unit.start - 1, unit.end).join(" ") : doc.split.lines[n - 1] ?? ""
}

/**
 * The sentence holding a prose command at [from, to) of line n, read across the hard-wrapped lines
 * of its paragraph or list item as it renders: `before` up to the command (inline code masked, and
 * the code span holding the command cut off), `item` the paragraph or list item up to the command (its
 * marker and bold label left out, not cut at a colon), `whole` the full sentence.
 */
export const proseSentence = (doc: Doc, n: number, from: number, to: number): { readonly before: string; readonly item: string; readonly whole: string } => {
  const lines = doc.split.lines
  const unit = proseUnits(doc).get(n) ?? { start: n, end: n }
  const above = lines.slice(unit.start - 1, n - 1).map((l) => l.trim()).join(" ")
  const below = lines.slice(n, unit.end).map((l) => l.trim()).join(" ")
  const line = lines[n - 1]!
  const upTo = `${above} ${line.slice(0, from).trimStart()}`
  // the inline code holding the command (`RUN rm -rf …`) is the quoted text, not an instruction around it
  const open = (upTo.match(/`/g) ?? []).length % 2 === 1 ? upTo.lastIndexOf("`") : upTo.length
  const masked = upTo.slice(0, open).replace(/`[^`]*`/g, " x ")
  const before = masked.split(/(?<=[.!?:])\s+/).at(-1) ?? masked
  // after the command: past the end of the code span holding it, if any
  const inSpan = (line.slice(0, from).match(/`/g) ?? []).length % 2 === 1 && line[to - 1] !== "`"
  const after = inSpan && line.indexOf("`", to) >= 0 ? line.slice(line.indexOf("`", to) + 1) : line.slice(to)
  const rest = `${after} ${below}`.replace(/`[^`]*`/g, " x ")
  const end = /[.!?](?:\s|$)/.exec(rest)
  // the unit up to the command, not cut at a colon: "Install the helper first: `…`" is one instruction
  const item = masked.replace(/^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?/, "").replace(/^\s*(?:\*\*|__)[^*_]{1,60}(?:\*\*|__)\s*:?\s*/, "").trim()
  return { before, item, whole: `${before} ${line.slice(from, to)} ${end ? rest.slice(0, end.index + 1) : rest}` }
}

/** A line's text ends a sentence: a stop, a colon, or closing marks after one. */
const ENDS_SENTENCE = /[.!?:][)"'”’*_`]*\s*$/
const SENTENCE_END = /[.!?][)"'”’*_]*(?=\s|$)/

/**
 * The sentences that start on prose line n, as they render: the tail of a sentence begun on an
 * earlier line of its paragraph or list item is left to that line, and the line's last sentence, when
 * hard-wrapped, is completed from the lines below ("Do not start the next member until⏎the previous
 * one is back" is one rule with its case). A line holding only the middle of a sentence gives "".
 * `last` is the line where the last of those sentences ends.
 */
export const wrappedSentences = (doc: Doc, n: number): { readonly text: string; readonly last: number } => {
  const lines = doc.split.lines
  const unit = proseUnits(doc).get(n)
  const line = lines[n - 1]!
  if (!unit) return { text: line, last: n }
  let own = line
  if (n > unit.start && !ENDS_SENTENCE.test(lines[n - 2]!)) {
    const end = SENTENCE_END.exec(line)
    if (!end) return { text: "", last: n }
    own = line.slice(end.index + end[0].length)
  }
  if (own.trim() === "" || ENDS_SENTENCE.test(own)) return { text: own, last: n }
  const tail: Array<string> = []
  let last = n
  for (let k = n + 1; k <= unit.end; k++) {
    const next = lines[k - 1]!.trim()
    const end = SENTENCE_END.exec(next)
    tail.push(end ? next.slice(0, end.index + end[0].length) : next)
    last = k
    if (end) break
  }
  return { text: [own.trimEnd(), ...tail].join(" "), last }
}

/** The text of `wrappedSentences`. */
export const renderedLine = (doc: Doc, n: number): string => wrappedSentences(doc, n).text

/** Where a sentence ends in a line of text: past its stop and closing marks. */
export const sentenceEndIn = (text: string): number => {
  const end = SENTENCE_END.exec(text)
  return end ? end.index + end[0].length : -1
}

/** The line that leads into a block starting on line `first` (a list, a table): the nearest non-blank line above it, unless a heading. */
export const leadInAbove = (doc: Doc, first: number): string => {
  const lines = doc.split.lines
  let above = first - 1
  while (above > 0 && lines[above - 1]!.trim() === "") above--
  return above > 0 && !/^\s*#/.test(lines[above - 1]!) ? lines[above - 1]! : ""
}

/**
 * The top-level lists outside code, each with the line that leads into it: items with only their own
 * continuation lines or blanks between them are one list.
 */
export const topLists = perDoc((doc: Doc): ReadonlyArray<{ readonly items: ReadonlyArray<number>; readonly lead: string }> => {
  const lines = doc.split.lines
  const items = doc.md.listItems.filter((i) => !doc.md.inCode[i.line] && i.indent === 0).map((i) => i.line)
  const out: Array<{ items: Array<number>; lead: string }> = []
  items.forEach((line, k) => {
    const last = out.at(-1)
    if (last && k > 0 && lines.slice(items[k - 1]!, line - 1).every((l) => l.trim() === "" || /^\s+\S/.test(l))) last.items.push(line)
    else out.push({ items: [line], lead: leadInAbove(doc, line) })
  })
  return out
})

/** A lead-in line without its list marker or bold label marks: "**Also never:**" reads "Also never:". */
const plainLead = (text: string): string => text.replace(/^\s*(?:[-*+]\s+)?/, "").replace(/\*\*|__/g, "")

/**
 * Whether line n is an item of a list that a prohibition leads into ("Also never:", "Don't do any of
 * these:"): each item completes it, as under a "## Never" heading.
 */
export const prohibitedList = (doc: Doc, n: number): boolean => {
  const lead = topLists(doc).find((l) => l.items.includes(n))?.lead
  if (lead === undefined) return false
  // the prohibition is said to the agent and leads into the items: it opens the lead's sentence ("Also
  // never:", "Don't do any of these:") or is the reader's ("Things you must never do:"); a "never" about
  // something else ("split the run so network access and execution never overlap:") leads into steps
  const sentence = sentencesOf(lead).at(-1) ?? ""
  const opens = PROHIBITION_LEAD.exec(plainLead(sentence))
  const prohibits = (opens !== null || /\byou\s+(?:must|should)\s+(?:never|not)\b[^.!?]*:\s*$/i.test(sentence)) && lead.length <= 80
  if (!prohibits) return false
  // a prohibition of another act than doing the items ("Do not guess any of these:" over the facts to
  // ask for) forbids that act on them: an item that is an instruction of its own is not forbidden
  const verb = opens?.[1]?.toLowerCase()
  const item = doc.md.listItems.find((i) => i.line === n)
  return !(verb !== undefined && !ITEMS_AS_ACTS.test(verb) && item !== undefined && isImperative(item.text) === true)
}

/** A lead-in that opens on a prohibition and ends on a colon; the word after "never" / "do not", when there is one. */
const PROHIBITION_LEAD = /^(?:(?:also|and|but|and also)\s+)?(?:(?:never|don'?t|do not)\s+([a-z]+)|never|don'?t|do not|avoid)\b[^.!?]*:\s*$/i

/** The words after "never" / "do not" that make the list's items the acts forbidden ("Don't do any of these:", "Never run:"). */
const ITEMS_AS_ACTS = /^(?:do|run|use|execute|try|attempt|type|call|perform|make|ever|any|these|this|the|to|just|even|paste|enter)$/

/** The sentence holding a prose command, up to it. */
const sentenceBefore = (doc: Doc, n: number, at: number): string => proseSentence(doc, n, at, at).before

/**
 * Whether a command on a prose line sits inside a quotation of someone's words: a double-quoted span
 * (straight or curly quotes, quotes inside inline code not counted) that holds more than the command,
 * such as a line quoted from a bad runbook ("Run `rm -rf /var/spool/*` to clear the backlog.").
 * Quoted words are reported speech, not an instruction; `Run "rm -rf /srv/data"`, the command alone in
 * quotes, is still one.
 */
const quotedSentence = (line: string, from: number, to: number): boolean => {
  const masked = line.replace(/`[^`]*`/g, (c) => "x".repeat(c.length))
  const re = /"([^"]*)"|\u201c([^\u201d]*)\u201d/g
  let q: RegExpExecArray | null
  while ((q = re.exec(masked)) !== null) {
    const start = q.index + 1
    const end = q.index + q[0].length - 1
    if (from < start || to > end) continue
    const rest = `${line.slice(start, from)} ${line.slice(to, end)}`.replace(/`[^`]*`/g, " ")
    return /\p{L}{2,}/u.test(rest)
  }
  return false
}

/**
 * A list item in a section whose heading says its items are what not to do (PROHIBITED_TITLE) that
 * names a command without telling the agent to run it ("- `git push -f origin main`: overwrites
 * everyone's history") quotes the mistake.
 */
const quotedMistake = (doc: Doc, n: number, line: string, at: number): boolean => {
  if (!doc.md.listItems.some((i) => i.line === n)) return false
  const heading = headingAbove(doc, n)
  if (!heading || !PROHIBITED_TITLE.test(heading.text)) return false
  // under a heading that is itself the negation ("## Do not", "## Never"), an item opening on its verb
  // completes it: "- Use `terraform destroy -auto-approve`." reads "do not use it"
  const before = sentenceBefore(doc, n, at).replace(/^\s*[-*+]\s+/, "").trim()
  // and so does each command of a series it names ("- Use `git reset --hard`, `git push --force` or …")
  // (the code spans before it are masked as " x ")
  const series = before.replace(/(?:\s*\bx\b\s*(?:,|\bor\b|\band\b)?\s*)+$/, "").trim()
  if (NEGATION_TITLE.test(heading.text) && series.split(/\s+/).length <= 2) return true
  // an imperative to run it is an instruction even there ("If the push is rejected, run `git push -f`",
  // "1. Install the helper first: `curl … | bash`"); a bold label before it names the mistake
  const item = proseSentence(doc, n, at, at).item
  return !RUNS.test(before) && isImperative(item) !== true
}

/**
 * Whether a prose sentence tells the agent to run the command it names: a word that runs it ("run",
 * "use", "then"), an imperative clause it completes ("delete the cache with `rm -rf …`"), "you can /
 * should", or nothing before it at all (a step or a lead-in's colon opening on the command). Any other
 * sentence names the command for what it is: a hazard, a thing people do, what another command turns
 * into.
 */
const toldToRun = (doc: Doc, n: number, at: number): boolean => {
  const before = sentenceBefore(doc, n, at)
    .replace(/^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?/, "")
    .replace(/^\s*(?:\*\*|__)[^*_]{1,60}(?:\*\*|__)\s*:?\s*/, "")
    .trim()
  // nothing before it, a lead-in's colon, or a condition's comma ("If it is stale, `rm -rf …` and retry"): it opens the clause
  if (before === "" || /[:,]$/.test(before) || RUNS.test(before)) return true
  // the means of an action ("force-push with `…`", "by executing `…`"), or the fix it is ("the fix is `…`")
  if (/\b(?:with|using|via|by (?:running|executing|typing|calling))\s*$/i.test(before)) return true
  if (/\b(?:fix|solution|answer|remedy|workaround|cure|next step|last resort)\s+(?:is|was)\s*$/i.test(before)) return true
  if (/\byou(?:'ll)?\s+(?:can|could|should|must|may|might|need to|have to|will|want to)\b/i.test(before)) return true
  const clause = before.split(/,\s+|;\s+|\s+(?:and|or|then)\s+/).at(-1) ?? before
  // after an indefinite article the command is a thing the sentence speaks of ("After a `DROP TABLE`,
  // later writes fail", "Every `git push --force` rewrites …"), unless a verb opens the clause to do it
  if (/\b(?:a|an|any|every|each|another)\s*$/i.test(before) && !opensOnVerb(clause)) return false
  return isImperative(before) === true || isImperative(clause) === true
}


/**
 * A command named as the road not taken ("re-plan rather than running `terraform destroy`", "instead
 * of `rm -rf`"), as what something else turns into ("`rm -rf $(DIR)/` becomes `rm -rf /`"), or as
 * what other people do ("exactly when people run `rm -rf /var/log/*` and make it worse"): the
 * sentence names it and tells the agent to do something else, or nothing.
 */
const NOT_TAKEN = /\b(?:rather than|instead of|in place of|becomes?|turns? into|expands? to)\s+(?:(?:running|using|calling|typing|doing|reaching for)\s+)?(?:an?\s+|the\s+)?$/i
const OTHERS_RUN =
  /\b(?:people|someone|somebody|others|(?:many|most|some) (?:users|teams|people|developers)|users|teams|developers|engineers|admins|newcomers|beginners)\s+(?:(?:often|usually|sometimes|always|typically|tend to|will|would|then|just|still)\s+)?(?:run|type|use|reach for|try|paste|fire off)\s*$/i
const notTaken = (doc: Doc, n: number, at: number): boolean => {
  const before = sentenceBefore(doc, n, at)
  return NOT_TAKEN.test(before) || OTHERS_RUN.test(before)
}

/** What a command does, said right after it: it is the sentence's subject ("`git reset --hard` discards …"). */
const ITS_EFFECT =
  /^\s*(?:(?:would|will|can|could|may|might|also|only|then|permanently|silently|irreversibly|quietly)\s+)*(?:discards?|deletes?|removes?|erases?|overwrites?|destroys?|wipes?|drops?|throws?|rewrites?|resets?|loses?|clears?|purges?|kills?|empties|is|are|was|does|did|has|makes?|leaves?|forces?|bypasses?|affects?|touches|becomes?|expands?|turns?|cannot|can't|won't)\b/i

/**
 * A command named in prose as the subject of what it does ("`git reset --hard` discards uncommitted
 * changes", "`git clean -fdx` would also delete ignored files"): the sentence describes the command;
 * it tells nobody to run it. It is an instruction still when the sentence up to it says to run it, or
 * when it opens a numbered step ("3. `rm -rf build` removes the old output" is the step).
 */
const describedCommand = (doc: Doc, n: number, line: string, from: number, to: number): boolean => {
  // a match may take in the closing backtick of its code span
  const close = line[to - 1] === "`" ? to - 1 : line.indexOf("`", to)
  if (close < 0 || (line.slice(0, from).match(/`/g) ?? []).length % 2 === 0) return false
  if (!ITS_EFFECT.test(line.slice(close + 1))) return false
  if (RUNS.test(sentenceBefore(doc, n, from))) return false
  const step = doc.md.listItems.find((i) => i.line === n && i.ordered)
  return step === undefined || !/^\s*`/.test(step.text)
}


/**
 * A row of a reference table whose first cell is the command ("| `git reset --hard` | Discard local
 * changes |"): a cheat sheet says what the command does. A table of steps (its first header cell a
 * step or a number, or its row a numbered one) or of situations ("| Discard local changes | `git reset
 * --hard` |", the command the answer) tells the agent what to run.
 */
const referenceRow = (doc: Doc, n: number, line: string, at: number): boolean => {
  if (!/^\s*\|/.test(line)) return false
  const lines = doc.split.lines
  const firstCellEnd = line.indexOf("|", line.indexOf("|") + 1)
  if (firstCellEnd < 0 || at > firstCellEnd) return false
  if (/^\s*\|\s*(?:step\s*)?\d/i.test(line)) return false
  let k = n
  while (k > 1 && /^\s*\|/.test(lines[k - 2]!)) k--
  const header = tableCells(lines[k - 1]!)[0] ?? ""
  return !/^\s*(?:step|#|no\.?|order)\s*$/i.test(header)
}

/** Tags around a sample of what not to do (`<bad>`, `<incorrect>`, `<before>`). */
const BAD_TAG = /^(?:bad|incorrect|wrong|before|anti-?pattern|bad[-_]example|dont|don't)$/i

/** A label that marks what follows as the wrong way: "# Bad", "// ❌ Wrong", "Don't:". */
const BAD_LABEL = /(?:^|[\s#/*-])(?:bad|wrong|incorrect|don'?t|avoid|never|anti-?pattern|mistake|dangerous|unsafe)\b|❌|🚫|⛔|✗/i
/**
 * A lead-in that opens on such a label ("Don't do this:", "**Bad:**", "❌ Wrong", "Never run this:");
 * a step that only says "never" on the way ("Normalize into `out/`, and never over the source file:",
 * "**MANDATORY. Never skip.**") introduces the way to do it.
 */
const BAD_LEAD =
  /^[\s>*_#-]*(?:\d{1,3}[.)]\s+)?[*_]*(?:bad|wrong|incorrect|don'?t\b(?!\s+(?:skip|forget|omit|miss))|avoid|never\s*[:(]|never (?:do|run|use|write|type) (?:this|that|these)|anti-?pattern|mistake|dangerous|unsafe)|❌|🚫|⛔|✗/i

/** A label that marks what follows as the way to do it: "# Good", "// ✅ Correct". */
const GOOD_LABEL = /(?:^|[\s#/*-])(?:good|right|correct|better|instead|safe|preferred)\b|✅|✔|👍/i
/** A comment line of a shell, SQL, C-like or HTML block. */
const COMMENT = /^\s*(?:#(?!!)|\/\/|--|\/\*|\*|<!--|;|rem\b)/i

/**
 * A command shown as the wrong way: inside a `<bad>` tag, in a block under a heading or a lead-in that
 * says it is what not to do, or after a "# Bad" / "// ❌" comment in its block and before the next "#
 * Good" one.
 */
const badSample = (doc: Doc, n: number, block: CodeBlock | undefined): boolean => {
  if (doc.exampleBlocks.some((b) => b.start <= n && n <= b.end && BAD_TAG.test(b.tag))) return true
  if (block === undefined) return false
  const lines = doc.split.lines
  for (let k = n - 1; k > block.startLine; k--) {
    const l = lines[k - 1]!
    if (!COMMENT.test(l)) continue
    if (GOOD_LABEL.test(l)) return false
    if (BAD_LABEL.test(l)) return true
  }
  // the lead-in right above the block ("Don't do this:", "**Bad:**", "❌ Wrong")
  let k = block.startLine - 1
  while (k > 0 && lines[k - 1]!.trim() === "") k--
  const lead = k > 0 && !/^#{1,6}\s/.test(lines[k - 1]!) ? lines[k - 1]! : ""
  if (lead !== "" && lead.length <= 80 && BAD_LEAD.test(lead) && !GOOD_LABEL.test(lead)) return true
  const heading = headingAbove(doc, block.startLine)
  return heading !== undefined && (PROHIBITED_TITLE.test(heading.text) || /\b(bad|wrong|incorrect)\b/i.test(heading.text))
}

/**
 * Languages of programs, as opposed to commands: a block in one is code the agent writes (a test's
 * `TRUNCATE` of its own test database, a string a program builds), not a command it types.
 */
const PROGRAM = /^(?:ts|tsx|typescript|js|jsx|javascript|mjs|cjs|py|python|go|golang|rb|ruby|java|kotlin|kt|swift|rust|rs|c|cpp|c\+\+|cs|csharp|php|scala|elixir|ex|exs|dart|lua|r|julia)$/i

const programBlock = (block: CodeBlock | undefined): boolean => block !== undefined && PROGRAM.test(block.info.split(/\s+/)[0] ?? "")

/** The part of a migration that undoes it: "-- down", "def down", "exports.down", "-- rollback". */
const DOWN_PART = /^\s*(?:(?:--|#|\/\/)\s*(?:migrate:)?\s*(?:down|rollback|revert|undo)\b|(?:def|function|async function|func)\s+(?:down|rollback|revert)\b|(?:exports|module\.exports)\.down\b|down\s*[(:=])/i

/** A name as a command writes it: without quotes, braces, a leading `./` or a trailing `/` or `;`. */
const bareName = (t: string): string => t.replace(/[{}"'`]/g, "").replace(/^\.\//, "").replace(/[/;]+$/, "").toLowerCase()

/**
 * What the skill itself made before the command destroys it, in a block or a step above it: a folder
 * from `mktemp` ("tmp=$(mktemp -d) … trap 'rm -rf "$tmp"' EXIT") or `mkdir` (the samples a step
 * downloads, deleted in the cleanup; `mkdir -m 700 ~/private/review`, removed at the end), a checkout it clones, a table it creates, a branch it checks
 * out. Removing it loses nothing that was there before the skill ran.
 */
const createdBefore = (doc: Doc, n: number, match: string): boolean => {
  const made = new Set<string>()
  for (const l of doc.split.lines.slice(doc.md.bodyStartLine - 1, n - 1)) {
    for (const m of l.matchAll(/\b(\w+)=["']?\$\(\s*mktemp\b/g)) made.add(`$${m[1]!.toLowerCase()}`)
    for (const m of l.matchAll(/\bmkdir\s+((?:-[\w-]+\s+(?:\d{3,4}\s+)?)*)((?:["']?[\w.$/{}~-]+["']?\s*)+)/g)) for (const t of m[2]!.trim().split(/\s+/)) made.add(bareName(t))
    for (const m of l.matchAll(/\bgit\s+(?:clone\s+(?:-[\w-]+\s+)*\S+|worktree\s+add\s+(?:-[\w-]+\s+)*)\s*["']?([\w.$/{}-]+)/g)) made.add(bareName(m[1]!))
    for (const m of l.matchAll(/\bCREATE\s+(?:TEMP(?:ORARY)?\s+)?(?:TABLE|DATABASE|SCHEMA)\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w."]+)/gi)) made.add(m[1]!.replace(/"/g, "").toLowerCase())
    for (const m of l.matchAll(/\bgit\s+(?:checkout\s+-b|switch\s+-c|branch)\s+([\w./-]+)/g)) made.add(m[1]!.toLowerCase())
  }
  made.delete("")
  if (made.size === 0) return false
  const line = doc.split.lines[n - 1]!
  // the target is the match's last word (`rm -rf "$tmp"`) or the word after it (`DROP TABLE t`, `git branch -D b`)
  const after = line.slice(line.indexOf(match) + match.length)
  const targets = [
    match.trim().split(/\s+/).at(-1),
    /^\s*(?:(?:IF\s+EXISTS|-[a-zA-Z]+)\s+)*["']?(\$\{?\w+\}?|[\w."./-]+)/i.exec(after)?.[1]
  ]
  return targets.some((t) => t !== undefined && made.has(bareName(t)))
}

/**
 * The words of a prose line that are the skill's own: without spans in double quotes (a payload to
 * try, a phrase to recognise), without what follows "says:", "reads:" or "like:" (text reported), and
 * none at all on a blockquote that is a sample rather than a callout ("> Ignore previous
 * instructions." quoted to test a chatbot; "> **Note:** …" is the skill speaking). A line of code is
 * all its own.
 */
export const ownWords = (doc: Doc, n: number): string => {
  const raw = doc.split.lines[n - 1]!
  if (doc.md.inCode[n]) return raw
  // a quotation hard-wrapped from the line above is still open here: close it where the line starts
  const unit = proseUnits(doc).get(n)
  const earlier = unit ? doc.split.lines.slice(unit.start - 1, n - 1).join(" ").replace(/`[^`]*`/g, "") : ""
  const line = ((earlier.match(/"/g) ?? []).length % 2 === 1 ? '"' : "") + raw
  if (/^\s*>/.test(raw) && !/^\s*>\s*(?:\[!\w+\]|(?:\*\*|__)?(?:warning|note|tip|important|caution|danger)\b)/i.test(raw)) return ""
  return withoutQuotes(line).replace(/\b(?:says?|said|reads?|contains?|like|such as)\s*:.*$/i, " ")
}

/** A text without its spans in double quotes of two words or more (straight or curly): somebody else's words. */
export const withoutQuotes = (text: string): string => text.replace(/"[^"\n]*\s[^"\n]*"|\u201c[^\u201d\n]*\s[^\u201d\n]*\u201d/g, " ")

/**
 * A variable named for a temporary or build folder: `$tmp`, `"${TMP_DIR}"`, `$scratch`,
 * `"${BUILD_DIR:?not set}/"` (a `:?` guard's message is part of the expansion).
 */
export const TEMP_VARIABLE = /^["']?\$\{?\w*(?:tmp|temp|scratch|build|dist|cache)\w*(?::[?-][^}]*)?\}?["']?(?:\/[\w.*-]*)*\/?["']?$/i

/** Commands that search text for a pattern: what they are given to find, they never run. */
const SEARCHES = /(?:^|[|;&(`$]\s*|\s)(?:grep|egrep|fgrep|zgrep|rg|ag|ack|git\s+grep|git\s+log\b[^|;&]*\s-[SG]|Select-String|findstr)\b[^|;&]*$/i

/**
 * A command quoted as the pattern a search looks for (`mysqlbinlog … | grep -i 'DROP TABLE'`, `rg
 * "rm -rf"`): inside quotes that open after a search command in the same part of the pipeline.
 */
const searchedFor = (line: string, from: number): boolean => {
  const before = line.slice(0, from)
  const quote = /(["'])[^"']*$/.exec(before)
  // the quote closes after the match starts (a match may take in the closing quote: `rm -rf /"`)
  if (quote === null || !line.slice(from).includes(quote[1]!)) return false
  return SEARCHES.test(before.slice(0, quote.index))
}

/**
 * Whether the destructive command matched at [from, to) of line n is named there in a role that runs
 * nothing (see the file's comment). `match` is the matched text.
 */
export const notAnInstruction = (doc: Doc, n: number, from: number, to: number, match: string): boolean => {
  const line = doc.split.lines[n - 1]!
  if (searchedFor(line, from)) return true
  const inCode = doc.md.inCode[n] === true
  const block = inCode ? doc.md.codeBlocks.find((b) => b.startLine < n && n <= b.endLine) : undefined
  if (badSample(doc, n, block)) return true
  if (block !== undefined) {
    if (programBlock(block)) return true
    const above = doc.split.lines.slice(block.startLine, n - 1)
    if (above.some((l) => DOWN_PART.test(l))) return true
    return createdBefore(doc, n, match)
  }
  return quotedSentence(line, from, to) || prohibitedList(doc, n) || quotedMistake(doc, n, line, from) || describedCommand(doc, n, line, from, to) || referenceRow(doc, n, line, from) || notTaken(doc, n, from) || createdBefore(doc, n, match) || (!/^\s*\|/.test(line) && !toldToRun(doc, n, from))
}
