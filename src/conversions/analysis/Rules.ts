/**
 * Rules as guardrails: which sentences state a rule (`isRuleSentence`), how a sentence becomes a
 * "must" or a "never" with its leading negation or "Always" removed (`ruleOf`), and the scan of a
 * file for them (`findRules`): every instruction of a rules section, short law-like code blocks, and
 * rule sentences elsewhere, each mapped to the lines of its own sentence.
 */
import { maskInlineCode } from "../../markdown/Markdown.js"
import type { AnalyzedRule } from "./Model.js"
import { findSentenceLine, itemLead, paragraphAt, roleAt, type Scan, sectionOf } from "./Scan.js"
import { cap, cleanInline, HR, isBlank, sentence, splitSentences, stripEnd, unshout } from "./Text.js"
import { STEP_HEADING } from "../../markdown/Sections.js"
import { CLAUSE_NEGATION, MUST_LEAD, NEVER_LEAD, RULE_WORD } from "./Vocabulary.js"

const NO_NEED = /\b(?:do not|don'?t|does not|doesn'?t) (?:need|have) to\b/i

export const isRuleSentence = (text: string): boolean => {
  const masked = maskInlineCode(text).masked
  if (/\?\s*$/.test(masked) || NO_NEED.test(masked)) return false
  return RULE_WORD.test(masked) || CLAUSE_NEGATION.test(masked) || NEVER_LEAD.test(masked) || /^(?:\*\*)?\s*(important|critical|required)\b[^:]{0,30}:/i.test(masked) || /\bSTOP\b/.test(masked)
}

/** "Edit them by hand." says little alone: name the section it is written in. */
const withContext = (text: string, sectionTitle: string | null): string =>
  sectionTitle !== null && /\b(it|them|this|these|those)\b/i.test(text) && text.split(/\s+/).length <= 8
    ? `${stripEnd(text)} (${sectionTitle.replace(STEP_HEADING, "")}).`
    : text

/** One rule sentence → polarity and guardrail text (the leading negation or "Always" removed). */
const ruleOf = (sentenceText: string, sectionTitle: string | null): { polarity: "must" | "never"; text: string } | null => {
  let t = cleanInline(sentenceText).trim()
  // a label ("IMPORTANT:", "REQUIRED SUB-SKILL:", "Rule:") before the rule itself
  const label = t.match(/^([A-Za-z][A-Za-z -]{0,40}):\s+(.+)$/)
  if (label && /\b(important|critical|required|mandatory|note|warning|rule|must|never|always)\b/i.test(label[1]!)) t = label[2]!.trim()
  t = t.replace(/^(?:note|warning|tip)\s*:\s*/i, "")
  if (t === "" || /:\s*$/.test(t) && t.split(/\s+/).length <= 3) return null
  const context = sectionTitle ? `"${sectionTitle.replace(STEP_HEADING, "")}"` : "this procedure"
  const bare = stripEnd(t).toLowerCase()
  if (/^(mandatory|required|important|critical)$/.test(bare)) return { polarity: "must", text: `Perform ${context} every time.` }
  const nm = t.match(NEVER_LEAD)
  if (nm && !/^(?:no|not)\b/i.test(t)) {
    let rest = t.slice(nm[0].length).trim()
    if (rest === "") return null
    // "Never skip." needs its object: the section it is written in
    if (/^(skip|omit|ignore|forget|bypass|change|modify|edit|delete|remove|touch|do|use|run|rush|reorder)$/i.test(stripEnd(rest))) rest = `${stripEnd(rest)} ${context}`
    return { polarity: "never", text: withContext(sentence(cap(unshout(rest))), sectionTitle) }
  }
  const mm = t.match(MUST_LEAD)
  if (mm) {
    const rest = t.slice(mm[0].length).trim()
    if (rest === "" || /^[:.]/.test(rest)) return null
    return { polarity: "must", text: sentence(cap(unshout(rest))) }
  }
  return { polarity: "must", text: sentence(cap(unshout(t))) }
}

export const findRules = (s: Scan, consumed: ReadonlySet<number>): Array<AnalyzedRule> => {
  const out: Array<AnalyzedRule> = []
  const { lines, doc } = s
  for (let n = s.bodyStart; n <= lines.length; n++) {
    if (consumed.has(n) || s.headingAt.has(n) || s.tableLines.has(n) || s.goodBadLines.has(n)) continue
    const role = roleAt(s, n)
    if (role === "examples" || role === "reference" || role === "when_to_use" || role === "inputs") continue
    const sec = sectionOf(s, n)
    const secTitle = sec ? sec.title : null
    if (doc.md.inCode[n]) {
      // a short unlabelled block stating the law ("NO PRODUCTION CODE WITHOUT A FAILING TEST FIRST")
      const cb = doc.md.codeBlocks.find((b) => b.startLine === n)
      if (!cb) continue
      const body = lines.slice(cb.startLine, cb.closed ? cb.endLine - 1 : cb.endLine).map((l) => l.trim()).filter((l) => l !== "")
      if (role === "rules" && (cb.info === "" || /^(text|txt|plain)$/i.test(cb.info)) && body.length >= 1 && body.length <= 3 && body.every((l) => !/[{};=]/.test(l))) {
        const text = sentence(unshout(body.map((l) => stripEnd(l)).join("; ")))
        out.push({ polarity: "must", text, source: body.join(" "), lineStart: cb.startLine, lineEnd: cb.endLine, section: secTitle })
      }
      n = cb.endLine
      continue
    }
    const raw = lines[n - 1]!
    if (isBlank(raw) || HR.test(raw)) continue
    const li = s.itemAt.get(n)
    if (li === undefined && n > 1 && s.itemAt.has(n - 1) === false && !isBlank(lines[n - 2]!) && !s.headingAt.has(n - 1) && !doc.md.inCode[n - 1] && paragraphStart(s, n) !== n) continue
    const block = li !== undefined ? itemLead(s, li) : paragraphAt(s, n)
    const text = block.text
    if (/^\[[ xX]\]\s/.test(text)) continue
    if (role === "rules") {
      // every instruction of a rules section is a guardrail
      if (/:\s*$/.test(text)) continue
      const r = ruleOf(text.replace(/\n/g, " "), secTitle)
      if (r) out.push({ ...r, source: text, lineStart: n, lineEnd: block.end, section: secTitle })
      n = Math.max(n, block.end)
      continue
    }
    const sents = splitSentences(text)
    for (let i = 0; i < sents.length; i++) {
      let sn = sents[i]!
      if (!isRuleSentence(sn)) continue
      // "MANDATORY. Never skip." → one rule
      if (/^(?:\*\*)?\s*(mandatory|required|important|critical)\s*[.!]?\s*(?:\*\*)?$/i.test(stripEnd(cleanInline(sn))) && i + 1 < sents.length && isRuleSentence(sents[i + 1]!)) {
        sn = sents[++i]!
      }
      if (/^(if|when)\b/i.test(cleanInline(sn)) && !RULE_WORD.test(maskInlineCode(sn).masked) && !CLAUSE_NEGATION.test(maskInlineCode(sn.replace(/^[^,]*,/, "")).masked)) continue
      // mid-sentence "do not" after a subject ("you don't know") is not a rule
      if (!RULE_WORD.test(maskInlineCode(sn).masked) && !NEVER_LEAD.test(cleanInline(sn)) && !/\bSTOP\b/.test(sn) && !/^(?:\*\*)?\s*(important|critical|required)\b/i.test(sn)) {
        const clause = maskInlineCode(cleanInline(sn)).masked
        if (!/(?:^|[;(]\s*|,\s*|\s[-–—]\s*)(?:do not|don'?t|avoid|never)\b/i.test(clause) || /\b(you|i|we|they|it)\s+(do not|don'?t)\b/i.test(clause)) continue
      }
      if (/\bSTOP\b/.test(sn) && !RULE_WORD.test(maskInlineCode(sn).masked) && !/^(?:\*\*)?\s*STOP\b/.test(sn.trim())) continue
      const r = ruleOf(sn, secTitle)
      if (!r) continue
      // in a paragraph, the rule maps to the lines of its own sentence
      const at = li === undefined ? findSentenceLine(s, n, block.end, sn) : { start: n, end: block.end }
      out.push({ ...r, source: cleanInline(sn), lineStart: at.start, lineEnd: at.end, section: secTitle })
    }
    // the item's or paragraph's continuation lines were read with it
    n = Math.max(n, li === undefined ? block.end : itemLead(s, li).end)
  }
  return out
}

const paragraphStart = (s: Scan, n: number): number => {
  let k = n
  while (k > s.bodyStart && !isBlank(s.lines[k - 2]!) && !s.headingAt.has(k - 1) && !s.itemAt.has(k - 1) && !s.doc.md.inCode[k - 1] && !s.tableLines.has(k - 1)) k--
  return k
}
