/**
 * Clarity: hedges inside instructions, placeholders, shouting and run-on sentences.
 */
import { plainText } from "../../../markdown/Markdown.js"
import { type CheckContext, type CheckOutcome, Out, quote } from "./Common.js"
import { hedges } from "./Hedges.js"
import { sentencesOf, TODO_WORDS } from "./Words.js"

// ---------------------------------------------------------------- clarity

/** A to-do word opening a bracketed marker (`[TBD: confirm period]`). */
const BRACKETED_TODO = new RegExp(`^\\[(${TODO_WORDS})\\b`, "i")
/** A placeholder in prose: a to-do word or filler text not in quotes, an "[insert …]" slot. */
const PLACEHOLDER = new RegExp(`(?<!["'“‘])\\b(${TODO_WORDS})\\b(?!["'”’])|(?<!["'“‘])lorem ipsum|\\[insert [^\\[\\]]*\\]|<insert [^<>]*>`, "i")
/** The to-do word in capitals, as a gap is left; "todo" in a sentence is a word. */
const TODO_CAPS = new RegExp(`^(?:${TODO_WORDS})$`)

export const clarity = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("clarity", ctx.disabledRules)
  const { doc } = ctx
  const hedged = hedges(doc)
  for (const h of hedged.slice(0, 20)) {
    o.issue(
      "vague_wording",
      "minor",
      h.line,
      `A hedge in an instruction: ${h.labels.map((l) => `"${l}"`).join(", ")} leaves the agent to guess whether to act`,
      h.advice
    )
  }
  const hedgeCount = hedged.reduce((n, h) => n + h.labels.length, 0)
  // by density: a hedge in a short skill weighs more than one in a long reference
  if (hedgeCount > 0) o.deduct(Math.min(50, (hedgeCount * 4 * 500) / Math.max(100, doc.words)), `${hedgeCount} hedge(s) in instructions on ${hedged.length} line(s)`)
  let todos = 0
  // a marker the skill has the agent write (the `[TBD]` list, "or a `[TBD]`"), bracketed in its text or
  // in a quoted sample of its output ("> … [TBD: confirm period]"), is a gap left on purpose
  const conventions = new Set(doc.md.inlineCode.map((c) => BRACKETED_TODO.exec(c.text.trim())?.[1]?.toUpperCase()).filter((x) => x !== undefined))
  for (const [n, text] of doc.prose) {
    // a marker mentioned in quotes ("look for "TODO" markers") is not itself a placeholder
    const m = text.match(PLACEHOLDER)
    // so is the marker as a thing the skill talks about ("A TODO needs a ticket", "TODO comments rot"),
    // a placeholder named as what not to use ("render a real page (not lorem ipsum)", "never leave a TODO"),
    const refused = m !== null && /\b(?:not|no|never|avoid|instead of|rather than|without|than|don't|do not)\s+(?:(?:a|an|the|any|with|leave|use|ship|write)\s+){0,2}$/i.test(text.slice(0, m.index))
    // and a value the data may hold ("durations missing or marked TBD"): what the agent meets, not a gap here
    const named = refused || m?.[1] !== undefined && (/\b(?:a|an|the|each|every|this|that|no|any|one|your|their|a bare|(?:marked|labell?ed|flagged|tagged|listed|shown|set)(?: as| to)?)\s+$/i.test(text.slice(0, m.index)) ||
      /^\s+(?:comments?|markers?|items?|notes?|tags?|lists?|needs|is|are|isn't|must|should|without|with)\b/i.test(text.slice(m.index! + m[0].length)))
    const bracketed = m?.[1] !== undefined && text[m.index! - 1] === "["
    const onPurpose = bracketed && (conventions.has(m![1]!.toUpperCase()) || /^\s*>/.test(doc.split.lines[n - 1] ?? ""))
    if (m && !named && !onPurpose && (TODO_CAPS.test(m[1] ?? "") || !m[1])) {
      todos++
      o.issue("placeholder", "major", n, `An unfinished placeholder (${quote(m[0], 30)})`, "Replace the placeholder with the real instruction, or remove it.")
    }
  }
  o.deductEach(todos, 15, 45, "unfinished placeholders")
  const shoutLines: Array<number> = []
  let shouts = 0
  // key words the document defines (RFC 2119 style: `The key words "MUST", "SHOULD" and "MAY" … are to
  // be interpreted …`, three or more quoted on one line) are a graded vocabulary, not emphasis
  const defined = new Set<string>()
  for (const [, text] of doc.prose) {
    const quoted = [...text.matchAll(/["“'`]([A-Z]{2,}(?: [A-Z]{2,})?)["”'`]/g)].map((m) => m[1]!)
    if (new Set(quoted).size >= 3) for (const q of quoted) defined.add(q.split(" ")[0]!)
    // or unquoted, on a line that names the RFC defining them ("The key words MUST, MUST NOT, SHOULD and
    // MAY in this document are to be interpreted as described in RFC 2119.")
    if (/\bRFC\s?(?:2119|8174)\b/.test(text)) for (const w of ["MUST", "REQUIRED", "SHALL", ...(text.match(/\b[A-Z]{3,}\b/g) ?? []).filter((x) => x !== "RFC")]) defined.add(w)
  }
  // and so are the grades a table defines, each the whole first cell of its row ("| STOP | the order
  // must not go forward |", "| MUST FIX | … |"): a legend, two rows at least
  const graded = doc.split.lines.map((l, i) => doc.md.inCode[i + 1] ? undefined : /^\s*\|\s*(?:\*\*)?([A-Z]{2,}(?: [A-Z]{2,})?)(?:\*\*)?\s*\|/.exec(l)?.[1]).filter((x) => x !== undefined)
  if (graded.length >= 2) for (const g of graded) defined.add(g.split(" ")[0]!)
  for (const [n, text] of doc.prose) {
    const c = (text.match(/\b(MUST|NEVER|ALWAYS|CRITICAL|IMPORTANT|REQUIRED|MANDATORY|SHALL|STOP)\b/g) ?? []).filter((w) => !defined.has(w)).length
    if (c > 0) {
      shouts += c
      shoutLines.push(n)
    }
  }
  if (shouts >= 5 && (shouts * 1000) / Math.max(1, doc.words) > 6) {
    o.issue(
      "shouting",
      "minor",
      shoutLines[0]!,
      `${shouts} all-caps directives (MUST, NEVER, CRITICAL, ...) on lines ${shoutLines.slice(0, 8).join(", ")}${shoutLines.length > 8 ? ", ..." : ""}: overuse makes every rule look equally urgent and models over-apply them`,
      "Keep capitals for the one or two rules that truly override everything; state the others plainly, with the reason.",
      shoutLines[0]!
    )
    o.deduct(10, "overused all-caps directives")
  }
  let longSentences = 0
  for (const [n, text] of doc.prose) {
    if (/^\s*(\||#)/.test(text)) continue
    for (const s of sentencesOf(plainText(text))) {
      if (s.split(/\s+/).length > 45) {
        longSentences++
        if (longSentences <= 3) {
          o.issue("long_sentence", "info", n, `A ${s.split(/\s+/).length}-word sentence`, "Split it into one instruction per sentence.")
        }
      }
    }
  }
  o.deductEach(longSentences, 2, 10, "sentences over 45 words")
  if (o.deductions.length === 0) o.note("precise wording, no placeholders")
  return o.done()
}
