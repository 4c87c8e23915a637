/**
 * The repairs that add a heading where a part lacks one (file mode): parts run together, the rules or
 * checks that close a section, a section longer than the text a section should hold. Each heading is
 * named from the text (what the part is, or its own lead-in), and none goes where it would make the
 * document look cut short.
 */
import type { Doc } from "../../markdown/Document.js"
import { isImperative } from "../../markdown/Instructions.js"
import { isParagraphLine, plainText } from "../../markdown/Markdown.js"
import { isStepHeading, PROHIBITED_TITLE, QUOTED_TITLE, SECTION_TOPICS } from "../../markdown/Sections.js"
import { type CheckContext, headingAbove, headingMatches } from "./checks/Common.js"
import { shownScore } from "../Score.js"
import { LINES_PER_SECTION, POINTS_PER_LINE, sectionCount, sectionsCost, textLineCount } from "./checks/Layout.js"
import { checkLines, ruleLines } from "./checks/Procedure.js"
import { runTogether } from "./checks/RunTogether.js"
import { namesDestructive } from "./checks/Safety.js"
import { looksCutAdding } from "./checks/Shape.js"
import type { Editor } from "./Editor.js"

/**
 * A paragraph that starts no part of its own: a bold lead ("**2. Build the list.**", "**Can I skip
 * it?**") is one entry of a run, "Then …" goes on with the procedure before it, and "Assistant: …" or
 * "Input: …" is a sample's line.
 */
const GOES_ON = /^(?:\*\*|__)|^(?:then|next|finally|after that|afterwards|now|once|also)\b|^\w+:\s/i

/** A line that introduces what follows ("Never:", "**How to run it:**"): no heading goes between them. */
const INTRODUCES = /:[*_]*\s*$/

/**
 * A heading for a part split off a long section, from its own words: its lead-in ("Read the results
 * before touching anything:"), else its first sentence or clause when that is short enough to be a
 * title ("Lag in messages says nothing about time."), else "Notes"; null when every one is taken.
 */
const partTitle = (paragraph: string, taken: ReadonlySet<string>): string | null => {
  const text = plainText(paragraph)
  const lead = /^([^:;,.?!()]+):(?:\s|$)/.exec(text)?.[1]
  const sentence = /^([^.!?]+)[.!?](?:\s|$)/.exec(text)?.[1]
  const clause = /^([^,;:()—–]+?)(?:[,;:()]|\s[—–-]\s)/.exec(text)?.[1]
  const titles = [[lead, 7], [sentence, 8], [clause, 7]] as const
  for (const [candidate, most] of titles) {
    const title = candidate?.trim() ?? ""
    const words = title.split(/\s+/).filter((w) => w !== "")
    if (words.length >= 2 && words.length <= most && TITLE_LIKE.test(title) && !UNFINISHED.test(words.at(-1)!) && !taken.has(title.toLowerCase())) return title
  }
  return taken.has("notes") ? null : "Notes"
}

/** Words a heading can hold: a capital first, no code's punctuation (`|`, `()`, `=`) from inline code. */
const TITLE_LIKE = /^[A-Z][\w\s'’./-]*$/

/** A lead-in that stops mid-sentence ("The tool will automatically:", "Stop and ask before:") names no part. */
const UNFINISHED =
  /^(?:a|an|the|to|of|for|with|by|in|on|at|from|into|before|after|that|this|these|those|you|your|we|our|it|its|they|their|will|can|should|must|may|is|are|be|and|or|but|if|when|as|than|\w+ly)$/i

/**
 * A section longer than LINES_PER_SECTION lines of text split where a paragraph starts a new part,
 * the split that halves its text best, again while a half is long; each new heading a sibling of the
 * section, named by its part's own words (`partTitle`; "rename it if another title fits"). Never in a
 * step's section, nor where an instruction goes on with the numbered list above it. The splits are
 * made when they lower the text a section enough to show in the overall score.
 */
const splitLongSections = (ctx: CheckContext, ed: Editor, added: ReadonlySet<number>) => {
  const { doc } = ctx
  const lines = doc.split.lines
  const hs = doc.md.headings
  const names = new Set(hs.map((h) => plainText(h.text).toLowerCase()))
  // an instruction right under a numbered list ("Order them by the wait, …") is the procedure's next move
  const goesOnWithSteps = (n: number, before: number) => {
    const item = [...doc.md.listItems].reverse().find((x) => x.line <= before && x.indent === 0)
    return item !== undefined && item.ordered && isImperative(lines[n - 1]!) === true &&
      lines.slice(item.line, before).every((l, k) => l.trim() === "" || /^\s/.test(l) || doc.md.inCode[item.line + 1 + k] === true)
  }
  // a paragraph start below the section's first text: not code, a list, a table, a quote or a tag
  const starts = (from: number, to: number) => {
    const out: Array<number> = []
    for (let n = from + 1; n <= to; n++) {
      const l = lines[n - 1]!
      if (!isParagraphLine(doc.md, n) || GOES_ON.test(l) || lines[n - 2]!.trim() !== "") continue
      let before = n - 2
      while (before > from && lines[before - 1]!.trim() === "") before--
      if (INTRODUCES.test(lines[before - 1] ?? "") || goesOnWithSteps(n, before)) continue
      if (textLineCount(doc, from, n - 1) > 0) out.push(n)
    }
    return out
  }
  const planned: Array<{ readonly line: number; readonly heading: string; readonly title: string }> = []
  const split = (from: number, to: number, level: number) => {
    if (textLineCount(doc, from, to) <= LINES_PER_SECTION) return
    let best: number | null = null
    let worst = Infinity
    for (const n of starts(from, to)) {
      const [a, b] = [textLineCount(doc, from, n - 1), textLineCount(doc, n, to)]
      if (Math.min(a, b) >= 2 && Math.max(a, b) < worst) [best, worst] = [n, Math.max(a, b)]
    }
    if (best === null) return
    const title = partTitle(lines.slice(best - 1, Math.min(to, best + 2)).join(" "), names)
    // a heading that completes a run of sibling sections the document then lacks would make it look cut short
    if (title === null || looksCutAdding(doc, best - 1, level, title)) return
    names.add(title.toLowerCase())
    split(from, best - 1, level)
    planned.push({ line: best, heading: `${"#".repeat(level)} ${title}`, title })
    split(best, to, level)
  }
  // a section of samples (examples, a transcript, a template) is quoted material: its parts are the sample's.
  // The text above a section's subsections splits into subsections, or the new one would take them as its own
  hs.forEach((h, i) => {
    const next = hs[i + 1]
    const level = next !== undefined && next.level > h.level ? Math.min(6, h.level + 1) : h.level
    if (h.level < 2 || QUOTED_TITLE.test(plainText(h.text)) || isStepHeading(h.text)) return
    // a heading another repair adds (the rules that close the section) already divides it
    const end = (next?.line ?? lines.length + 1) - 1
    const cuts = [...added].filter((n) => n > h.line && n <= end).sort((a, b) => a - b)
    ;[h.line + 1, ...cuts].forEach((from, k) => split(from, (cuts[k] ?? end + 1) - 1, level))
  })
  // each split lowers the text a section: headings that take less than a line a section off, or leave
  // the score as shown where it was, are noise
  const text = textLineCount(doc, doc.md.bodyStartLine, lines.length)
  const sections = sectionCount(doc) + added.size
  const gain = sectionsCost(text, sections) - sectionsCost(text, sections + planned.length)
  const rise = gain * ctx.weightShare("structure")
  const before = ctx.scoredBefore
  const shows = before === undefined ? rise >= 0.1 : shownScore(before + rise) > shownScore(before)
  if (gain < POINTS_PER_LINE || !shows) return
  for (const p of planned) {
    ed.insertBefore(p.line, [p.heading, ""])
    ed.change(p.line, 36, `Line ${p.line}: added the heading "${p.title}" where the section's next part starts (more than ${LINES_PER_SECTION} lines of text a section); rename it if another title fits.`)
  }
}

/** A statement that opens as a rule, or as a check. */
const RULE_LED = /^(\*\*)?(never|always|do not|don't|must|only|avoid|no )/i
const CHECK_LED = /^(\*\*)?(check|verify|confirm|test|validate|make sure|ensure)\b/i

/**
 * What closes a section and states what a criterion wants gathered (rules, checks) gets a heading of
 * its own: a bulleted list of three or more items, two in three of them holding such a line, or two
 * or more paragraphs that each open with one; below text of the section's own, never in a step's
 * section, with no subsection after it (a sibling heading would take it). The heading goes above the
 * list's lead-in ("Never:") when it has one, at the section's level.
 */
const gatherTail = (doc: Doc, ed: Editor, matched: ReadonlyArray<number>, led: RegExp, title: string, what: string, taken: Set<number>) => {
  const lines = doc.split.lines
  const hs = doc.md.headings
  const holds = (from: number, to: number) => matched.some((m) => m >= from && m <= to)
  // a paragraph of the run opens with such a statement ("Never …", "Check …"): a paragraph that only
  // mentions one is as often the section's own reasoning
  const leads = (from: number) => led.test(plainText(lines[from - 1]!))
  const blank = (n: number) => (lines[n - 1] ?? "").trim() === ""
  const isProse = (n: number, top: number) => n > top && isParagraphLine(doc.md, n)
  for (const [i, h] of hs.entries()) {
    const next = hs[i + 1]
    // a step's cautions are the step's: a heading there would break the run of steps
    if ((next !== undefined && next.level > h.level) || isStepHeading(h.text)) continue
    let last = (next?.line ?? lines.length + 1) - 1
    while (last > h.line && blank(last)) last--
    let at: number | null = null
    const items = doc.md.listItems.filter((x) => x.line > h.line && x.line <= last)
    if (items.length > 0) {
      const indent = Math.min(...items.map((x) => x.indent))
      // the list's items from its last one up, while only its own lines (items, wraps, blanks) lie between
      const run: Array<number> = []
      for (const it of [...items].reverse()) {
        if (it.indent !== indent) continue
        const below = run[0] ?? last + 1
        const between = lines.slice(it.line, below - 1)
        if (between.some((l, k) => l.trim() !== "" && !/^\s/.test(l) && !items.some((x) => x.line === it.line + 1 + k)) || doc.md.inCode[it.line]) break
        run.unshift(it.line)
      }
      const held = run.filter((n, k) => holds(n, (run[k + 1] ?? last + 1) - 1)).length
      // a numbered list is a procedure, whatever its steps forbid
      const numbered = items.some((x) => x.line === run[0] && x.ordered)
      if (run.length >= 3 && !numbered && held * 3 >= run.length * 2) {
        at = run[0]!
        // a lead-in paragraph ("Never:") goes with its list, from its first line
        let above = at - 1
        while (above > h.line && blank(above)) above--
        if (INTRODUCES.test(lines[above - 1] ?? "") && isProse(above, h.line)) {
          at = above
          while (isProse(at - 1, h.line)) at--
        }
      }
    }
    if (at === null) {
      // paragraphs from the last one up, each opening with such a line
      let end = last
      let count = 0
      while (isProse(end, h.line)) {
        let start = end
        while (isProse(start - 1, h.line)) start--
        if (!holds(start, end) || !leads(start) || GOES_ON.test(lines[start - 1]!)) break
        at = start
        count++
        end = start - 1
        while (end > h.line && blank(end)) end--
      }
      if (count < 2) at = null
    }
    // the section keeps text of its own above the new heading
    if (at === null || taken.has(at) || textLineCount(doc, h.line + 1, at - 1) < 2) continue
    const level = Math.max(2, h.level)
    if (looksCutAdding(doc, at - 1, level, title)) continue
    taken.add(at)
    ed.insertBefore(at, [`${"#".repeat(level)} ${title}`, ""])
    ed.change(at, 36, `Line ${at}: added a "${title}" heading over the ${what} that close the section "${plainText(h.text)}", so they are found in one place; rename it if another title fits.`)
    return
  }
}

/** Parts run together: a heading named after what the part is. */
const headRunTogether = (ctx: CheckContext, ed: Editor) => {
  const { doc } = ctx
  if (!ed.found("SK-STRUCT-RUN-TOGETHER")) return
  const top = Math.max(2, Math.min(...doc.md.headings.filter((h) => h.level > 1).map((h) => h.level), 6))
  for (const j of runTogether(doc)) {
    // the lost heading was a sibling of the section the part sits in: a top-level heading there would
    // take the section's later subsections as its own
    const within = headingAbove(doc, j.block.start)
    const level = within === undefined ? top : Math.max(top, within.level)
    const items = doc.md.listItems.filter((i) => i.indent === 0 && i.line >= j.block.start && i.line <= j.block.end)
    const rules = items.filter((i) => RULE_LED.test(plainText(i.text))).length
    // a numbered procedure (a list, or numbered lines in a code block) is steps; a table is looked up
    const name = j.block.kind === "ordered" || j.block.kind === "code" ? "Steps" : j.block.kind === "table" ? "Reference" : rules * 2 >= items.length ? "Rules" : "Notes"
    // a heading that completes a run of sibling sections whose last one then lacks what the others
    // have would make the document look cut short: the part stays where it is
    if (looksCutAdding(doc, j.block.start - 1, level, name)) continue
    // items under a heading of mistakes ("## Red flags", "## Don't") that quote commands are read as the
    // mistakes they are; a heading of another name would make the commands instructions to run
    const quotesMistakes = within !== undefined && PROHIBITED_TITLE.test(plainText(within.text)) &&
      doc.split.lines.slice(j.block.start - 1, j.block.end).some(namesDestructive)
    if (quotesMistakes) continue
    ed.insertBefore(j.block.start, [`${"#".repeat(level)} ${name}`, ""])
    ed.change(j.block.start, 36, `Line ${j.block.start}: added a "${name}" heading before the ${j.block.kind === "ordered" ? "numbered list" : j.block.kind === "table" ? "table" : j.block.kind === "code" ? "numbered procedure" : "list"} that ran into the part above; rename it if another title fits.`)
  }
}

export const repairSections = (ctx: CheckContext, ed: Editor) => {
  const { doc } = ctx
  headRunTogether(ctx, ed)
  // rules or checks that close a section as a list of their own: a section to gather them
  const gathered = new Set<number>()
  if (ed.found("SK-RULES-NO-SECTION") && headingMatches(doc, SECTION_TOPICS.rules).length === 0) gatherTail(doc, ed, ruleLines(doc), RULE_LED, "Rules", "rules", gathered)
  if (ed.found("SK-VERIFY-WEAK") && headingMatches(doc, SECTION_TOPICS.verification).length === 0) gatherTail(doc, ed, checkLines(doc), CHECK_LED, "Verification", "checks", gathered)
  // sections enough for the text (coverage: no finding, a shortfall of structure)
  if (ed.found("SK-STRUCT-NO-SECTIONS")) splitLongSections(ctx, ed, gathered)
}
