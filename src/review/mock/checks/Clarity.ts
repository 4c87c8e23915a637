/**
 * Clarity: vague wording, placeholders, shouting and run-on sentences.
 */
import { plainText } from "../../text/Markdown.js"
import { ANY_VAGUE, VAGUE_TERMS } from "../Vocabulary.js"
import { type CheckContext, type CheckOutcome, Out, quote } from "./Common.js"

// ---------------------------------------------------------------- clarity

export const clarity = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("clarity", ctx.disabledRules)
  const { doc } = ctx
  let points = 0
  let vagueLines = 0
  let vagueTotal = 0
  for (const [n, text] of doc.prose) {
    if (/^\s*\[[^\]]+\]:/.test(text)) continue
    const hits: Array<{ label: string; strength: string; advice: string }> = []
    if (!ANY_VAGUE.test(text)) continue
    const masked = text.replace(/\[([^\[\]]*)\]\([^()]*\)/g, "$1").replace(/https?:\/\/\S+/g, "")
    for (const term of VAGUE_TERMS) {
      term.pattern.lastIndex = 0
      const count = (masked.match(term.pattern) ?? []).length
      if (count === 0) continue
      // "as needed" is also matched by nothing else; "as appropriate" also contains "appropriate"
      if (term.label === "appropriate" && hits.some((h) => h.label === "as appropriate")) continue
      if (term.label === "properly" && /\bproper (noun|name)/i.test(masked)) continue
      hits.push({ label: term.label, strength: term.strength, advice: term.advice })
      points += (term.strength === "strong" ? 4 : 2) * count
      vagueTotal += count
    }
    if (hits.length === 0) continue
    vagueLines++
    if (vagueLines > 20) continue
    const strong = hits.some((h) => h.strength === "strong")
    o.issue(
      "vague_wording",
      strong ? "minor" : "info",
      n,
      `Vague wording: ${hits.map((h) => `"${h.label}"`).join(", ")}`,
      hits.map((h) => `Instead of "${h.label}", ${h.advice}.`).join(" ")
    )
  }
  if (points > 0) {
    o.deduct(Math.min(50, (points * 500) / Math.max(100, doc.words)), `${vagueTotal} vague term(s) in ${vagueLines} line(s)`)
  }
  let todos = 0
  for (const [n, text] of doc.prose) {
    // a marker mentioned in quotes ("look for "TODO" markers") is not itself a placeholder
    const m = text.match(/(?<!["'“‘])\b(TODO|FIXME|TBD|XXX)\b(?!["'”’])|lorem ipsum|\[insert [^\[\]]*\]|<insert [^<>]*>/i)
    if (m && (/^(TODO|FIXME|TBD|XXX)$/.test(m[1] ?? "") || !m[1])) {
      todos++
      o.issue("placeholder", "major", n, `An unfinished placeholder (${quote(m[0], 30)})`, "Replace the placeholder with the real instruction, or remove it.")
    }
  }
  o.deductEach(todos, 15, 45, "unfinished placeholders")
  const shoutLines: Array<number> = []
  let shouts = 0
  for (const [n, text] of doc.prose) {
    const c = (text.match(/\b(MUST|NEVER|ALWAYS|CRITICAL|IMPORTANT|REQUIRED|MANDATORY|SHALL|STOP)\b/g) ?? []).length
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
    for (const s of plainText(text).split(/(?<=[.!?])\s+/)) {
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
