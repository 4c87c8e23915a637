/**
 * The mock evaluator's judgement of one side: what the version *instructs* for the case, scored
 * 0..100, passed at PASS_SCORE (70) or more. It runs no model, so it never says what a model did;
 * it reads the version's lines (./Version.ts) for the case's key words (./Terms.ts) and weighs
 * where they stand and what is wrong with the instruction found.
 *
 * Scoring, by kind of case (./Cases.ts). `cov` is the share of the case's key words found in a line
 * (or in the block the line opens: a heading's first lines, an item's sub-lines, a paragraph; a
 * block counts 0.9). Each kind takes its best line, so text added elsewhere does not lower a score
 * (two honest exceptions: a new reference to the file a case says is unreadable, and a trigger that
 * itself matches the unrelated request).
 *
 * - step ("Performs step N: S") and the trigger case's first step: cov(S) × (50 + place + order +
 *   clarity) − 15 × cov when the line names a bundle file the bundle lacks.
 *   place: a numbered step or step heading 20, a bullet 12, a rule or other heading 8, prose 4.
 *   order (20): a later step wants a step with earlier siblings (20; first of its list 10, bullet 8,
 *   rule 4); the first step wants the first of its sequence (20; a later step or a bullet 6).
 *   clarity: 10 without vague wording on the line, 5 with only weak terms ("some"), 0 with strong ones.
 * - trigger ("Applies X to a matching request"): 35 × the share of the request's words found, weighted
 *   by where (a "use when" description or When-to-use section 1, another description 0.8, the title
 *   and the text before the first section 0.6, elsewhere 0.4); + 0.65 × the first step's score above (or, when the case
 *   names no step, 65 × the share of three instructing lines).
 * - negative ("Stays out of unrelated requests"): 60 for a "use when" trigger (35 for only a
 *   description or scope statement, 15 for only a title), 20 for its specificity (six distinct
 *   words), 20 for an explicit exclusion ("do not use for", "only when"); − 40 × the share of the
 *   request's words the trigger itself covers when that share is at least half.
 * - missing information: the best line that says to ask, clarify, confirm or state an assumption:
 *   55 for a clarification or an ask tied to missing or unclear information (35 for another ask or
 *   a stated default), + 15 in a step, item or rule (8 elsewhere), + 15 when it comes before acting
 *   ("before proceeding", the first step; 5 otherwise); + 15 when the version declares its inputs.
 * - missing reference (file F cannot be opened): 100 when the version does not refer to F (nothing
 *   depends on it); otherwise 50 for saying what to do when a file is missing or unreadable (30 for a
 *   general "don't guess", 15 for handling something else that is missing), 25 for naming F's path
 *   in the text (15 through a link only), 15 for saying what F is for (two words beyond its name),
 *   10 when F exists in the bundle.
 * - conditional scenario ("Handles the case: C" → action A): on the best line, 35 × cov(C) on the
 *   line + 40 × cov(A) in its block + 15 for a conditional line (8 for a step, item or rule, 4
 *   otherwise) × the mean of both + 10 × cov(A) for clarity − 15 × cov(A) for a missing bundle file.
 * - generic: on the best block, 55 × cov(expected behaviour) + 15 × cov(the pass criteria's other
 *   words) + 10 × cov(the input's other words) + (10 for a step, item or rule, 6 a heading or the
 *   description, 4 prose or code) × cov(expected) + 10 clarity × cov(expected) − 15 × cov(expected)
 *   for a missing bundle file; quoted text in the pass criteria is judged as steps, half the weight.
 */
import { isImperative } from "../../markdown/Instructions.js"
import { plainText } from "../../markdown/Markdown.js"
import { INPUTS_TITLE, PREPARATION_TITLE } from "../../markdown/Sections.js"
import { basename } from "../../markdown/Paths.js"
import type { EvalCase } from "../../domain/EvalCase.js"
import type { EvalSide, SideResult } from "../Types.js"
import { type CaseKind, classifyCase } from "./Cases.js"
import { coverage, keyTerms, lineStems, listWords, type Term } from "./Terms.js"
import { readVersion, type Version, type VLine } from "./Version.js"

export const PASS_SCORE = 70

interface Judgement {
  readonly score: number
  readonly observed: string
  readonly evidence: ReadonlyArray<string>
}

const clip = (s: string, n = 120) => (s.length > n ? `${s.slice(0, n - 1).replace(/\s+\S*$/, "")}…` : s)
const quoteLine = (l: VLine) => `line ${l.n}: "${clip(l.raw.trim())}"`
const says = (l: VLine) => `line ${l.n} says "${clip(l.plain, 100)}"`

const clarityPoints = (l: VLine) =>
  l.vague.some((v) => v.strength === "strong") ? 0 : l.vague.length > 0 ? 5 : 10

const defectsOf = (l: VLine, weight: number): { text: string; evidence: Array<string> } => {
  const parts: Array<string> = []
  const evidence: Array<string> = []
  if (l.vague.length > 0 && weight > 0) {
    const labels = l.vague.map((v) => `"${v.label}"`).join(", ")
    parts.push(`its wording is vague (${labels})`)
    evidence.push(`line ${l.n}: vague wording ${labels}`)
  }
  if (l.dangling.length > 0 && weight > 0) {
    const paths = l.dangling.map((p) => `\`${p}\``).join(", ")
    parts.push(`it relies on ${paths}, which the bundle lacks`)
    evidence.push(`line ${l.n}: names ${paths}, which is not in the bundle`)
  }
  return { text: parts.length === 0 ? "" : ` ${cap(parts.join(", and "))}.`, evidence }
}

const cap = (s: string) => (s === "" ? s : s[0]!.toUpperCase() + s.slice(1))

/** Lines that can hold an instruction (not frontmatter, code or blank lines). */
const textLines = (v: Version) => v.lines.filter((l) => l.place !== "blank" && l.place !== "code" && l.place !== "meta" && l.place !== "description")

const bestCov = (v: Version, terms: ReadonlyArray<Term>, l: VLine) => {
  const own = coverage(terms, l.stems)
  if (own.share === 1 || l.windowEnd === l.n) return own
  const win = coverage(terms, v.windowStems(l.n))
  return win.share * 0.9 > own.share ? { ...win, share: win.share * 0.9 } : own
}

// ------------------------------------------------------------------------------------- steps

type Order = "first" | "later" | "none"

interface StepMatch {
  readonly score: number
  readonly line: VLine | null
  readonly cov: number
  readonly found: ReadonlyArray<Term>
  readonly missing: ReadonlyArray<Term>
}

const PLACE_POINTS: Partial<Record<VLine["place"], number>> = { step: 20, item: 12, rule: 8, heading: 8, prose: 4 }

const orderPoints = (l: VLine, order: Order): number => {
  if (order === "none") return l.place === "step" || l.place === "item" || l.place === "rule" ? 20 : l.place === "heading" ? 10 : 0
  if (order === "first") return l.place === "step" ? (l.stepIndex === 0 ? 20 : 6) : l.place === "item" ? 6 : 0
  return l.place === "step" ? ((l.stepIndex ?? 0) >= 1 ? 20 : 10) : l.place === "item" ? 8 : l.place === "rule" ? 4 : 0
}

const matchStep = (v: Version, terms: ReadonlyArray<Term>, order: Order): StepMatch => {
  let best: StepMatch = { score: 0, line: null, cov: 0, found: [], missing: terms }
  if (terms.length === 0) return best
  let bestFocus = 0
  for (const l of textLines(v)) {
    const c = bestCov(v, terms, l)
    if (c.share === 0) continue
    const raw = 50 + (PLACE_POINTS[l.place] ?? 0) + orderPoints(l, order) + clarityPoints(l) - (l.dangling.length > 0 ? 15 : 0)
    const score = c.share * raw
    // on a tie, the line that says least else is the step itself ("Phase 2: Implementation", not "1.4 Plan Your Implementation")
    const focus = c.found.length / Math.max(1, l.stems.size)
    if (score > best.score + 1e-9 || (Math.abs(score - best.score) <= 1e-9 && focus > bestFocus)) {
      best = { score, line: l, cov: c.share, found: c.found, missing: c.missing }
      bestFocus = focus
    }
  }
  return best
}

const placeWords = (l: VLine, order: Order): string => {
  if (l.place === "step") {
    const nth = `step ${(l.stepIndex ?? 0) + 1} of its sequence`
    if (order === "first" && l.stepIndex !== 0) return `, but as ${nth}, not the first step`
    return `, as ${nth}`
  }
  if (l.place === "item") return order === "first" ? ", in a bulleted list rather than as the first numbered step" : ", in a bulleted list (no numbered order)"
  if (l.place === "rule") return ", as a rule rather than a step"
  if (l.place === "heading") return ", in a heading rather than a step"
  return ", but only in passing prose, not as a step"
}

const describeStep = (m: StepMatch, what: string, terms: ReadonlyArray<Term>, order: Order): Judgement => {
  if (!m.line) {
    return {
      score: 0,
      observed: `The instructions never mention ${what}: no line has ${listWords(terms)}.`,
      evidence: [`no line of the version has ${listWords(terms)}`]
    }
  }
  const l = m.line
  const d = defectsOf(l, m.cov)
  const evidence = [quoteLine(l), ...d.evidence]
  if (m.cov < 1) {
    evidence.push(`missing key words: ${listWords(m.missing)}`)
    return {
      score: m.score,
      observed: `The instructions only partly cover ${what}: the closest, ${says(l)}, has ${m.found.length} of its ${terms.length} key words (not ${listWords(m.missing)})${placeWords(l, order)}.${d.text}`,
      evidence
    }
  }
  return { score: m.score, observed: `The instructions cover ${what}: ${says(l)}${placeWords(l, order)}.${d.text}`, evidence }
}

const judgeStep = (v: Version, step: string): Judgement => {
  const terms = keyTerms(step)
  return describeStep(matchStep(v, terms, "later"), `the step "${clip(step, 80)}"`, terms, "later")
}

// ----------------------------------------------------------------------------------- trigger

const TRIGGER_WEIGHT = { trigger: 1, description: 0.8, opening: 0.6, other: 0.4 } as const

const triggerMatch = (v: Version, terms: ReadonlyArray<Term>) => {
  const triggers = new Set(v.triggerLines)
  const desc = new Set(v.descriptionLines)
  // the opening: the title and the text before the first section (a title added later, or a
  // section inserted after the opening, leaves it as it was)
  const opening = new Set<number>()
  const h1 = v.doc.md.headings.find((h) => h.level === 1)
  if (h1) opening.add(h1.line)
  const firstSection = v.doc.md.headings.find((h) => h !== h1)?.line ?? v.lines.length + 1
  for (const l of v.lines) {
    if (l.n >= firstSection) break
    if (l.n >= v.doc.md.bodyStartLine && (l.place === "prose" || l.place === "rule" || l.place === "item")) opening.add(l.n)
  }
  let best = { value: 0, line: null as VLine | null, kind: "other" as keyof typeof TRIGGER_WEIGHT, cov: 0 }
  for (const l of v.lines) {
    if (l.place === "blank" || l.place === "code" || l.place === "meta") continue
    const kind = triggers.has(l.n) ? "trigger" : desc.has(l.n) ? "description" : opening.has(l.n) ? "opening" : "other"
    const stems = kind === "description" ? v.windowStems(l.n) : l.stems
    const cov = coverage(terms, stems).share
    const value = cov * TRIGGER_WEIGHT[kind]
    if (value > best.value + 1e-9) best = { value, line: l, kind, cov }
  }
  return best
}

const judgeTrigger = (v: Version, situation: string, firstStep: string | null): Judgement => {
  const sTerms = keyTerms(situation)
  const t = triggerMatch(v, sTerms)
  const triggerPts = 35 * t.value
  const evidence: Array<string> = []
  let triggerText: string
  if (!t.line) {
    triggerText = `Nothing in the instructions matches the request (${listWords(sTerms)}).`
    evidence.push(`no line of the version has ${listWords(sTerms)}`)
  } else {
    evidence.push(quoteLine(t.line))
    const where = {
      trigger: "says when to use it",
      description: "describes it, without saying when to use it",
      opening: "opens the instructions",
      other: "mentions it in passing"
    }[t.kind]
    triggerText = `The request matches ${Math.round(t.cov * 100)}% of its key words on line ${t.line.n}, which ${where}.`
  }
  if (firstStep === null) {
    const instructing = textLines(v).filter((l) => l.place === "step" || ((l.place === "item" || l.place === "rule") && isImperative(l.plain) === true))
    const share = Math.min(1, instructing.length / 3)
    if (instructing[0]) evidence.push(quoteLine(instructing[0]))
    return {
      score: triggerPts + 65 * share,
      observed: `${triggerText} ${instructing.length === 0 ? "It gives no instruction to follow." : `It gives ${instructing.length} line(s) of instructions to follow, starting at line ${instructing[0]!.n}.`}`,
      evidence
    }
  }
  const terms = keyTerms(firstStep)
  const m = matchStep(v, terms, "first")
  const step = describeStep(m, `the expected first step "${clip(firstStep, 80)}"`, terms, "first")
  return { score: triggerPts + 0.65 * m.score, observed: `${triggerText} ${step.observed}`, evidence: [...evidence, ...step.evidence] }
}

// ---------------------------------------------------------------------------------- negative

/** In a description or a When-to-use section: "only when", "not for", "do not use". */
const EXCLUSION_IN_TRIGGER =
  /\b(do not use|don'?t use|never use|not for\b|not (intended|meant) for|out of scope|only (when|for|if|use|applies)\b|skip (this|it)\b|instead,? use|should not be used|exceptions?\b)/i
/** Anywhere else, only when it names the artifact itself. */
const EXCLUSION_ANYWHERE =
  /\b((do not|don'?t|never) (use|invoke|apply|trigger) (this|the) (skill|prompt|command|workflow|agent|instructions?)|(this|the) (skill|prompt|command|workflow) (is not|isn'?t) (for|meant|intended))\b/i
const SCOPE =
  /\b(appl(y|ies) (to|only)|for (work|tasks|changes) (in|on)|in this (repository|repo|project|codebase)|this (repository|repo|project|codebase)\b|you are an?\b)/i

const judgeNegative = (v: Version, request: string): Judgement => {
  const evidence: Array<string> = []
  const triggerLines = v.triggerLines.map((n) => v.line(n))
  const parts: Array<string> = []
  let presence = 0
  if (triggerLines.length > 0) {
    presence = 60
    evidence.push(quoteLine(triggerLines[0]!))
    parts.push(`The instructions say when to use them (line ${triggerLines[0]!.n}), so an unrelated request does not call for them`)
  } else {
    const scope = v.lines.find((l) => l.place !== "code" && l.place !== "blank" && SCOPE.test(l.plain))
    const desc = v.descriptionLines[0]
    const h1 = v.doc.md.headings.find((h) => h.level === 1)
    if (desc !== undefined || scope) {
      presence = 35
      const l = v.line(desc ?? scope!.n)
      evidence.push(quoteLine(l))
      parts.push(`The instructions never say when to use them; only line ${l.n} states what they are about`)
    } else if (h1) {
      presence = 15
      evidence.push(quoteLine(v.line(h1.line)))
      parts.push(`The instructions never say when to use them; only the title (line ${h1.line}) names their subject`)
    } else {
      evidence.push("no description, trigger or title in the version")
      parts.push("The instructions never say when to use them or what they are about")
    }
  }
  const scopeStems = new Set<string>()
  for (const l of triggerLines) for (const s of l.stems) scopeStems.add(s)
  const specific = presence === 60 ? 20 * Math.min(1, scopeStems.size / 6) : 0
  const inTrigger = new Set([...v.triggerLines, ...v.descriptionLines])
  const exclusion = v.lines.find(
    (l) => l.place !== "code" && l.place !== "blank" && (inTrigger.has(l.n) ? EXCLUSION_IN_TRIGGER : EXCLUSION_ANYWHERE).test(l.plain)
  )
  if (exclusion) {
    evidence.push(quoteLine(exclusion))
    parts.push(`line ${exclusion.n} says when not to use them`)
  }
  const overlap = coverage(keyTerms(request), scopeStems).share
  const penalty = overlap >= 0.5 ? 40 * overlap : 0
  if (penalty > 0) parts.push(`but the trigger itself matches ${Math.round(overlap * 100)}% of this request's key words`)
  return { score: presence + specific + (exclusion ? 20 : 0) - penalty, observed: `${parts.join("; ")}.`, evidence }
}

// ----------------------------------------------------------------------- missing information

const ASK =
  /\b(ask (the user|the requester|them|for|your|one|a|which|what|whether|if|before|about)|asks? clarifying|clarif(y|ication|ying)|confirm (with|the|which|whether|what)|check with (the user|them|your)|state (the |your |any |an |each |that |this |its |their )?assumptions?|request (the|more|missing|additional) (details?|info|information|context)|stop and ask|(do not|don'?t|never) guess|rather than guessing|without guessing)\b/i
const ABOUT_MISSING =
  /\b(missing|unclear|unknown|ambiguous|not (provided|given|specified|clear|sure)|unspecified|incomplete|leaves? out|don'?t (understand|know)|do not (understand|know)|not sure|uncertain|unsure|in doubt|questions?|concerns?|gaps?|unsure|(if|when) .{0,40}\b(no|none|without)\b)/i
const DEFAULTS = /\b(defaults? (to|is)\b|\(default\b|(when|if) (uncertain|unsure|in doubt|not sure)\b|if (not|none) (given|provided|specified)|otherwise,? (use|assume)|when (omitted|unspecified)|assume\b)/i
const BEFORE_ACTING =
  /\b(before (proceeding|acting|starting|continuing|making|changing|writing|implementing|running|editing|doing|any|you (start|begin|proceed|act|continue))|first\b|up ?front|at (the )?start)\b/i
const INPUTS_LABEL = /^\s*(\*\*)?(inputs?|arguments?|parameters?|prereq(uisite)?s?|requires?)(\*\*)?\s*:|\{\{\s*[\w.-]+\s*\}\}|\$ARGUMENTS|\$\d\b/i

const judgeMissingInfo = (v: Version): Judgement => {
  const headingOf = new Map<number, VLine>()
  let current: VLine | null = null
  for (const l of v.lines) {
    if (v.doc.md.headings.some((h) => h.line === l.n)) current = l
    if (current) headingOf.set(l.n, current)
  }
  let best: { score: number; line: VLine; kind: "ask" | "default"; tied: boolean } | null = null
  for (const l of textLines(v)) {
    const ask = ASK.test(l.plain)
    const dflt = !ask && DEFAULTS.test(l.plain)
    if (!ask && !dflt) continue
    const heading = headingOf.get(l.n)
    const tied = ask && (/\bclarif\w*|\bguess\w*/i.test(l.plain) || ABOUT_MISSING.test(l.plain) || ABOUT_MISSING.test(v.windowText(l.n)) || (heading !== undefined && /\b(stop|ask|blocked|unclear|missing|clarif\w*|questions?|help)\b/i.test(heading.plain)))
    const base = ask ? (tied ? 55 : 35) : 35
    const place = l.place === "step" || l.place === "item" || l.place === "rule" ? 15 : 8
    const before = BEFORE_ACTING.test(l.plain) || l.stepIndex === 0 ? 15 : 5
    const score = base + place + before
    if (!best || score > best.score) best = { score, line: l, kind: ask ? "ask" : "default", tied }
  }
  const inputs =
    v.doc.md.headings.find((h) => {
      const title = plainText(h.text)
      return INPUTS_TITLE.test(title) || PREPARATION_TITLE.test(title)
    })?.line ??
    textLines(v).find((l) => INPUTS_LABEL.test(l.raw))?.n
  const inputPts = inputs !== undefined ? 15 : 0
  const evidence: Array<string> = []
  let observed: string
  if (!best) {
    observed = "The instructions never say what to do when information is missing: no line says to ask, clarify or state an assumption."
    evidence.push("no line of the version says to ask, clarify, confirm or state an assumption")
  } else {
    evidence.push(quoteLine(best.line))
    observed =
      best.kind === "default"
        ? `The instructions state a default instead of asking: ${says(best.line)}.`
        : best.tied
        ? `The instructions say to ask when information is missing or unclear: ${says(best.line)}.`
        : `The instructions say to ask, though not specifically about missing information: ${says(best.line)}.`
  }
  if (inputs !== undefined) {
    evidence.push(quoteLine(v.line(inputs)))
    observed += ` They declare what input they need (line ${inputs}).`
  }
  return { score: (best?.score ?? 0) + inputPts, observed, evidence }
}

// ------------------------------------------------------------------------- missing reference

const HANDLE_FILE =
  /\b((if|when)\b.{0,80}\b(missing|unavailable|cannot be (read|opened|found|loaded)|can'?t (read|open|find|load)|not (found|available|accessible|present)|doesn'?t exist|does not exist|fails? to (load|open|read))|call out missing|report (the |any )?missing|(say|note|mention|state) (that )?.{0,30}\b(missing|unavailable))/i
const NO_GUESS = /\b((do not|don'?t|never) (guess|invent|fabricate|make up|assume)|rather than guess\w*|without guessing|not guess)\b/i
const FILE_WORDS = /\b(files?|references?|docs?|documents?|guides?|logs?|templates?|examples?|pages?|schemas?|resources?|scripts?)\b/i

const judgeMissingReference = (v: Version, file: string): Judgement => {
  const base = basename(file).toLowerCase()
  const tail = file.toLowerCase().replace(/^\.\//, "")
  const refLines = new Map<number, "text" | "link">()
  for (const r of v.doc.refs) {
    const p = r.path.toLowerCase().replace(/^\.\//, "")
    if (p === tail || p.endsWith(`/${tail}`) || tail.endsWith(`/${p}`) || basename(p) === base) {
      if (!refLines.has(r.line) || r.kind !== "link") refLines.set(r.line, r.kind === "link" ? "link" : "text")
    }
  }
  for (const l of v.lines) {
    if (l.place === "blank" || l.place === "meta") continue
    const visible = l.raw.replace(/\]\([^()]*\)/g, "]").toLowerCase()
    if (visible.includes(base)) refLines.set(l.n, "text")
  }
  if (refLines.size === 0) {
    return {
      score: 100,
      observed: `The instructions do not refer to ${file}, so nothing in them depends on it being readable.`,
      evidence: [`no line of the version names ${file}`]
    }
  }
  const evidence: Array<string> = []
  const fileStems = lineStems(file.replace(/[/._-]+/g, " "))
  let bestRef = { score: -1, line: null as VLine | null, named: 0, purpose: 0, exists: 0 }
  for (const [n, how] of [...refLines.entries()].sort((a, b) => a[0] - b[0])) {
    const l = v.line(n)
    const named = how === "text" ? 25 : 15
    const other = [...v.windowStems(n)].filter((s) => !fileStems.has(s)).length
    const purpose = other >= 2 ? 15 : 0
    const exists = l.dangling.some((p) => basename(p).toLowerCase() === base) ? 0 : 10
    const score = named + purpose + exists
    if (score > bestRef.score) bestRef = { score, line: l, named, purpose, exists }
  }
  let handling = 0
  let handleLine: VLine | null = null
  for (const l of textLines(v)) {
    const pts = HANDLE_FILE.test(l.plain) && FILE_WORDS.test(l.plain) ? 50 : NO_GUESS.test(l.plain) ? 30 : HANDLE_FILE.test(l.plain) ? 15 : 0
    if (pts > handling) {
      handling = pts
      handleLine = l
    }
  }
  const ref = bestRef.line!
  evidence.push(quoteLine(ref))
  if (handleLine) evidence.push(quoteLine(handleLine))
  else evidence.push("no line says what to do when a file is missing or cannot be read")
  if (bestRef.exists === 0) evidence.push(`line ${ref.n}: ${file} is not in the bundle`)
  const handlingText = !handleLine
    ? " but never say what to do when it cannot be opened"
    : handling >= 50
    ? ` and say what to do when a file cannot be read (line ${handleLine.n})`
    : handling >= 30
    ? ` and tell the agent not to guess (line ${handleLine.n}), though not what to do about an unreadable file`
    : ` and say what to do when something else is missing (line ${handleLine.n}), not a file`
  return {
    score: bestRef.score + handling,
    observed: `The instructions rely on ${file} (line ${ref.n}${bestRef.exists === 0 ? ", a file the bundle lacks" : ""})${handlingText}.`,
    evidence
  }
}

// ------------------------------------------------------------------------------- conditional

const judgeConditional = (v: Version, condition: string, action: string): Judgement => {
  const cTerms = keyTerms(condition)
  const aTerms = keyTerms(action, new Set(cTerms.map((t) => t.stem)))
  let best: { score: number; line: VLine; c: number; a: number; aMissing: ReadonlyArray<Term> } | null = null
  for (const l of textLines(v)) {
    const c = coverage(cTerms, l.stems).share
    const ac = bestCov(v, aTerms, l)
    const a = aTerms.length === 0 ? 1 : Math.max(ac.share, coverage(aTerms, v.windowStems(l.n)).share)
    if (c === 0 && a === 0) continue
    const place = l.conditional ? 15 : l.place === "step" || l.place === "item" || l.place === "rule" ? 8 : 4
    const score = 35 * c + 40 * a + place * ((c + a) / 2) + clarityPoints(l) * a - (l.dangling.length > 0 ? 15 * a : 0)
    if (!best || score > best.score + 1e-9) best = { score, line: l, c, a, aMissing: coverage(aTerms, v.windowStems(l.n)).missing }
  }
  const what = `"${clip(condition, 60)}"`
  if (!best) {
    return {
      score: 0,
      observed: `The instructions never mention the condition ${what} nor the expected handling.`,
      evidence: [`no line of the version has ${listWords([...cTerms, ...aTerms])}`]
    }
  }
  const l = best.line
  const d = defectsOf(l, best.a)
  const evidence = [quoteLine(l), ...d.evidence]
  let observed: string
  if (best.c >= 0.99 && best.a >= 0.99) {
    observed = `The instructions handle ${what} as expected: ${says(l)}${l.conditional ? "" : ", though not as an explicit condition"}.`
  } else if (best.c >= 0.5 && best.a < 0.5) {
    observed = `The instructions mention ${what} (${says(l)}) but not the expected handling (${listWords(best.aMissing)}).`
    evidence.push(`missing key words of the handling: ${listWords(best.aMissing)}`)
  } else if (best.c < 0.5) {
    observed = `The instructions never name the condition ${what}; the closest, ${says(l)}, covers ${Math.round(best.a * 100)}% of the expected handling.`
  } else {
    observed = `The instructions partly handle ${what}: ${says(l)} (${Math.round(best.c * 100)}% of the condition, ${Math.round(best.a * 100)}% of the handling).`
  }
  return { score: best.score, observed: observed + d.text, evidence }
}

// ----------------------------------------------------------------------------------- generic

const GENERIC_PLACE: Partial<Record<VLine["place"], number>> = { step: 10, item: 10, rule: 10, heading: 6, description: 6, prose: 4, code: 4 }

const judgeGeneric = (v: Version, expected: string, criteria: string, input: string, quotes: ReadonlyArray<string>): Judgement => {
  const eTerms = keyTerms(expected)
  const pTerms = keyTerms(criteria, new Set(eTerms.map((t) => t.stem)))
  const iTerms = keyTerms(input, new Set([...eTerms, ...pTerms].map((t) => t.stem)))
  let best: { score: number; line: VLine; e: number; missing: ReadonlyArray<Term> } | null = null
  for (const l of v.lines) {
    if (l.place === "blank" || l.place === "meta") continue
    const stems = v.windowStems(l.n)
    const e = coverage(eTerms, stems)
    const p = pTerms.length === 0 ? e.share : coverage(pTerms, stems).share
    const i = iTerms.length === 0 ? e.share : coverage(iTerms, stems).share
    if (e.share === 0 && p === 0 && i === 0) continue
    const score = 55 * e.share + 15 * p + 10 * i + ((GENERIC_PLACE[l.place] ?? 0) + clarityPoints(l) - (l.dangling.length > 0 ? 15 : 0)) * e.share
    if (!best || score > best.score + 1e-9) best = { score, line: l, e: e.share, missing: e.missing }
  }
  let result: Judgement
  if (!best) {
    result = {
      score: 0,
      observed: `The instructions say nothing about the expected behaviour (no line has ${listWords(eTerms)}).`,
      evidence: [`no line of the version has ${listWords([...eTerms, ...iTerms])}`]
    }
  } else {
    const d = defectsOf(best.line, best.e)
    result = {
      score: best.score,
      observed:
        best.e >= 0.99
          ? `The instructions address the expected behaviour: ${says(best.line)}.${d.text}`
          : `The instructions partly address the expected behaviour: the closest, ${says(best.line)}, has ${Math.round(best.e * 100)}% of its key words (not ${listWords(best.missing)}).${d.text}`,
      evidence: [quoteLine(best.line), ...d.evidence]
    }
  }
  if (quotes.length === 0) return result
  const judged = quotes.map((q) => {
    const terms = keyTerms(q)
    return describeStep(matchStep(v, terms, "none"), `"${clip(q, 80)}"`, terms, "none")
  })
  const quoteScore = judged.reduce((s, j) => s + j.score, 0) / judged.length
  return {
    score: 0.5 * result.score + 0.5 * quoteScore,
    observed: [result.observed, ...judged.map((j) => j.observed)].join(" "),
    evidence: [...result.evidence, ...judged.flatMap((j) => j.evidence)]
  }
}

// ---------------------------------------------------------------------------------- the side

const judgeKind = (v: Version, k: CaseKind): Judgement => {
  switch (k.kind) {
    case "trigger":
      return judgeTrigger(v, k.situation, k.firstStep)
    case "step":
      return judgeStep(v, k.step)
    case "negative":
      return judgeNegative(v, k.request)
    case "missing_info":
      return judgeMissingInfo(v)
    case "missing_reference":
      return judgeMissingReference(v, k.file)
    case "conditional":
      return judgeConditional(v, k.condition, k.action)
    case "generic":
      return judgeGeneric(v, k.expected, k.criteria, k.input, k.quotes)
  }
}

/** What one version instructs for one case, scored against the case. Deterministic. */
export const judgeSide = (side: EvalSide, evalCase: EvalCase, bundlePaths: ReadonlyArray<string>): SideResult => {
  const v = readVersion(side.path, side.content, side.artifactType, bundlePaths)
  const j = judgeKind(v, classifyCase(evalCase))
  const score = Math.max(0, Math.min(100, Math.round(j.score)))
  return {
    observedBehavior: j.observed,
    passed: score >= PASS_SCORE,
    score,
    evidence: dedupe(j.evidence)
  }
}

const dedupe = (xs: ReadonlyArray<string>): Array<string> => [...new Set(xs)]
