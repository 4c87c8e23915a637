/**
 * The outputs a source states or implies: the deliverable named by an output section, by a step whose
 * title delivers something ("Create a plan", "Summarize failures for the user"), or by the
 * frontmatter description ("... into structured Notion pages") when a step produces it. Each output
 * records the step that produces it.
 */
import { getField } from "../../markdown/Frontmatter.js"
import { plainText } from "../../markdown/Markdown.js"
import type { AnalyzedOutput, AnalyzedStep } from "./Model.js"
import { itemLead, paragraphAt, type Scan } from "./Scan.js"
import { cap, cleanInline, idFrom, isBlank, lowerFirst, sentence, stripEnd, validId } from "./Text.js"
import { STEP_HEADING } from "../../markdown/Sections.js"

const CREATE_VERBS = /^(create|draft|write|generate|produce|prepare|compose|build|summari[sz]e|report|present|deliver|return|publish|post|send|propose|open|file|capture)\b/i
const DETERMINERS = /^(?:(?:a|an|the|your|any|this|that|these|those|one|all|each|every|some|short|concise|brief|final|new|complete|full|all kinds of|a set of)\s+)+/i
const OBJECT_END = /\s+(?:for|to|with|in|on|from|using|via|into|as|by|after|before|when|if|and then|that|which|so)\b.*$|[,.:;(—–`].*$|\s+-\s.*$/i

const singular = (w: string): string =>
  /(ss|us|is|ics)$/.test(w) || w.length <= 3 ? w : w.endsWith("ies") ? `${w.slice(0, -3)}y` : w.endsWith("s") ? w.slice(0, -1) : w

/** The deliverable of a "Create a plan" / "Summarize failures for the user" phrase. */
const deliverableOf = (text: string): { id: string; noun: string; description: string } | null => {
  const t = plainText(text).replace(/^(?:[A-Z]{2,}\s*[-–—:]\s*)/, "").replace(/^(?:respond|reply|answer)\s+(?:only\s+)?with\s+/i, "return ").trim()
  const m = t.match(CREATE_VERBS)
  if (!m) return null
  const verb = m[1]!.toLowerCase()
  const afterVerb = t.slice(m[0].length).replace(/^\/\w+/, "").trim()
  if (afterVerb === "" || /^(for|to|with|in|on|from|using|via|into|as|by|after|before|when|if|and|or|it|them|this|that|everything|anything|something|about|up|out|down|back|over|back)\b/i.test(afterVerb)) return null
  const obj = afterVerb.replace(DETERMINERS, "").replace(OBJECT_END, "").trim()
  const words = obj.split(/\s+/).filter((w) => w !== "" && !/^\d+$/.test(w)).slice(0, 4)
  if (words.length === 0 || words.some((w) => /^(it|them|this|that|changes?|work|anything|everything)$/i.test(w))) return null
  const head = singular(words[words.length - 1]!.toLowerCase())
  if (/^(summari[sz]e|report)$/.test(verb)) {
    const id = idFrom(`${words.map((w) => singular(w.toLowerCase())).join(" ")} ${verb.startsWith("summar") ? "summary" : "report"}`, 5)
    const tail = afterVerb.replace(/[.:;]+$/, "")
    return { id, noun: verb.startsWith("summar") ? "summary" : "report", description: sentence(`${verb.startsWith("summar") ? "A summary of" : "A report on"} ${lowerFirst(tail)}`) }
  }
  const raw = afterVerb.replace(OBJECT_END, "").trim()
  const titleCase = raw.split(/\s+/).filter((w) => /^[A-Z][a-z]/.test(w)).length >= 2
  const phrase = titleCase ? raw.replace(/\b([A-Z])([a-z]+)\b/g, (_m, a: string, b: string) => a.toLowerCase() + b) : raw
  const id = idFrom([...words.slice(0, -1), head].join(" "), 5)
  return { id, noun: head, description: sentence(cap(/^(a|an|the)\b/i.test(phrase) ? phrase : `The ${lowerFirst(phrase)}`)) }
}

export const findOutputs = (s: Scan, steps: ReadonlyArray<AnalyzedStep>, description: string | null): Array<AnalyzedOutput> => {
  const out: Array<AnalyzedOutput> = []
  const seen = new Set<string>()
  const stepAt = (n: number) => steps.find((st) => n >= st.lineStart && n <= st.lineEnd) ?? null
  const add = (o: AnalyzedOutput) => {
    if (o.id === "" || seen.has(o.id) || out.some((x) => x.stepLine !== null && x.stepLine === o.stepLine)) return
    seen.add(o.id)
    out.push(o)
  }
  // output sections: the deliverable named in their first sentence, else the section itself
  for (const sec of s.secs) {
    if (sec.role !== "outputs") continue
    const step = stepAt(sec.line) ?? (steps.length > 0 ? steps[steps.length - 1]! : null)
    let first = ""
    for (let n = sec.line + 1; n <= sec.ownEnd; n++) {
      if (isBlank(s.lines[n - 1]!) || s.doc.md.inCode[n]) continue
      first = s.itemAt.has(n) ? itemLead(s, s.itemAt.get(n)!).text : paragraphAt(s, n).text
      break
    }
    const d = deliverableOf(first)
    // "A markdown table of risks ..." names the deliverable; else the section's title without "format"
    const np = first.match(/^(?:a|an|the|one)\s+(.+?)(?:\s+(?:of|with|for|that|which|in|containing|listing)\b|[,.:;(]|$)/i)
    const titleId = idFrom(sec.title.replace(STEP_HEADING, "").replace(/\bformat\b/i, ""), 4) || "output"
    add({
      id: validId(d?.id ?? (np ? idFrom(np[1]!, 4) : titleId), "output"),
      description: d ? sentence(stripEnd(first.replace(CREATE_VERBS, "").trim().replace(/^./, (c) => c.toUpperCase()))) : sentence(first !== "" ? first : sec.title),
      lineStart: sec.line,
      lineEnd: sec.end,
      kind: "section",
      stepLine: step ? step.lineStart : null
    })
  }
  // steps whose title delivers something ("Create a plan", "Summarize failures for the user")
  for (const st of steps) {
    const parts = [st.title, ...st.title.split(/\s[-–—]\s/).slice(1)]
    const d = parts.map(deliverableOf).find((x) => x !== null) ?? null
    if (!d) continue
    const provide = st.action.match(/(?:^|\n)\s*[-*]?\s*(?:provide|include|list|show|give)\s+(.+)/i)
    const description = d.noun === "summary" && provide ? sentence(`${stripEnd(d.description)}: ${stripEnd(cleanInline(provide[1]!))}`) : d.description
    add({ id: validId(d.id, "output"), description, lineStart: st.lineStart, lineEnd: st.lineStart, kind: "step", stepLine: st.lineStart })
  }
  // the description's deliverable ("Capture conversations ... into structured Notion pages")
  if (description && s.doc.fm.closed) {
    const m = description.match(/\b(?:capture|capturing|turn|turning|convert|converting|transform|transforming|organi[sz]e)s?\b[^.;]*?\binto\s+([^.;,]+)/i)
      ?? description.match(/^(?:create|write|generate|produce|draft)s?\s+([^.;,]+)/i)
      ?? description.match(/\b(?:produces|generates|outputs|returns|writes|creates|drafts|delivers)\s+([^.;,]+)/i)
    const fieldLine = getField(s.doc.fm, "description")
    if (m && fieldLine) {
      const phrase = m[1]!.replace(OBJECT_END, "").replace(DETERMINERS, "").trim()
      const words = phrase.split(/\s+/).filter((w) => w !== "").slice(0, 4)
      const head = words.length > 0 ? singular(words[words.length - 1]!.toLowerCase()) : ""
      if (head.length >= 3 && !out.some((o) => o.id.endsWith(head))) {
        const headRe = new RegExp(`\\b${head}s?\\b`, "i")
        const scored = steps
          .map((st) => ({ st, score: (headRe.test(st.action) || headRe.test(st.title) ? 1 : 0) + (/\b(create|write|draft|generate|produce|build|compose)\b/i.test(st.title) ? 2 : 0) }))
          .filter((x) => x.score >= 3)
        const producer = scored.length > 0 ? scored[scored.length - 1]!.st : null
        if (producer) {
          add({
            id: validId(idFrom([...words.slice(0, -1), head].join(" "), 5), "output"),
            description: sentence(cap(phrase)),
            lineStart: fieldLine.line,
            lineEnd: fieldLine.endLine,
            kind: "description",
            stepLine: producer.lineStart
          })
        }
      }
    }
  }
  return out
}
