/**
 * What a skill needs, read from its structure: a "missing" finding (steps, verification, failure
 * handling, rules) is only right when the content is absent in every form and the kind of skill
 * needs it. A library reference needs no numbered procedure; a writing or thinking skill has no test
 * step; a procedure that runs commands or calls services needs to say what to do when they fail and
 * how to check the result; an agent that pushes, deploys, sends or orders needs boundaries.
 */
import { plainText, tableCells } from "../../../markdown/Markdown.js"
import { IMPERATIVE_VERBS } from "../../../markdown/Vocabulary.js"
import type { Doc } from "../../../markdown/Document.js"
import { commandLines, isCommandLine, isImperative, orderedLists } from "../../../markdown/Instructions.js"
import { perDoc } from "../../../markdown/PerDoc.js"
import { STEP_HEADING } from "../../../markdown/Sections.js"
import { unmarkedHeadings } from "./Shape.js"
import { endsWithColon } from "./Words.js"


/** "**Step 1:** …", "**1. Build**": a step written as a bold label on its own line. */
const BOLD_STEP = /^\s*(?:[-*+]\s+)?(?:\*\*|__)(?:(?:step|phase|stage)\s*\d+|\d{1,2}[.):]\s)/i

/** Sequence words that carry a procedure written as prose. */
const SEQUENCE = /\b(first|then|next|after that|afterwards|finally|once (?:that|this|it) is done|lastly)\b/gi

export interface StepForms {
  /** ordered list items outside code */
  readonly items: number
  /** "Step N" / "Phase N" / "1. …" headings */
  readonly headings: number
  /** bold step labels */
  readonly bold: number
  /** numbered lines inside a code block (a procedure shown as text) */
  readonly inCode: number
  /** checklist items (`- [ ]`) */
  readonly checklist: number
  /** a paragraph that walks through the work with first/then/finally, or paragraphs that each open with one */
  readonly prose: boolean
  /** sibling sections headed by their action, in order ("## Install the toolchain", "## Register the runner") */
  readonly actions: number
  /** rows of a table of numbered steps (`| 1. Verify the download | \`sha256sum -c …\` | prints OK |`) */
  readonly table: number
  /** questions of a decision tree (bullets asking a question, with their answers nested under them), and rows of a decision table */
  readonly tree: number
  /** entries of a lookup whose repeated bold label gives an action each time (`**Fix:** install …`) */
  readonly entries: number
}

/**
 * Tables of steps: a table whose body rows open with consecutive step numbers from 1 ("1. Verify",
 * "Step 2", "3"), three rows at least, as in a Step | Command | Check table. Each row is a step.
 */
export const stepTables = (doc: Doc): Array<{ readonly start: number; readonly end: number; readonly rows: number; readonly steps: ReadonlyArray<{ readonly line: number; readonly text: string }> }> => {
  const lines = doc.split.lines
  const out: Array<{ start: number; end: number; rows: number; steps: Array<{ line: number; text: string }> }> = []
  for (let n = doc.md.bodyStartLine; n <= lines.length; n++) {
    if (doc.md.inCode[n] || !/^\s*\|/.test(lines[n - 1]!)) continue
    let end = n
    while (end < lines.length && !doc.md.inCode[end + 1] && /^\s*\|/.test(lines[end]!)) end++
    let expect = 1
    let actions = 0
    const steps: Array<{ line: number; text: string }> = []
    for (let k = n; k <= end; k++) {
      const cells = tableCells(lines[k - 1]!)
      const first = /^(?:\*\*|__)?(?:step\s*)?(\d{1,2})(?:[.):]\s*|(?:\*\*|__)?$)(.*)$/i.exec(cells[0] ?? "")
      if (!first || Number(first[1]) !== expect) continue
      expect++
      // the step's title: the first cell after its number, else the next cell ("| 1 | Verify … |")
      const title = plainText(first[2]!.trim() !== "" ? first[2]! : cells[1] ?? "")
      steps.push({ line: k, text: title })
      if (isImperative(title) === true) actions++
    }
    // numbered rows that name things ("| 1 | **The Architect** |") are a catalogue, not steps, unless
    // the header calls them checks or steps to take ("| # | Check | Problem when | Usual fix |")
    const header = tableCells(lines[n - 1]!).map((c) => plainText(c))
    const checks = header.some((c) => /^(?:checks?|steps?|tasks?|actions?|tests?)$/i.test(c))
    if (expect > 3 && (checks || actions >= (expect - 1) * 0.6)) out.push({ start: n, end, rows: expect - 1, steps })
    n = end
  }
  return out
}

/**
 * A decision tree: bullets that ask a question and hold their answers nested under them, two at least.
 * Walked from the top, each answer leads to the next question or to an action: the procedure.
 */
const decisionTree = (doc: Doc): number => {
  const items = doc.md.listItems.filter((i) => !i.ordered && !doc.md.inCode[i.line])
  let questions = 0
  for (let k = 0; k + 1 < items.length; k++) {
    const i = items[k]!
    if (/\?[*_\s]*$/.test(plainText(i.text)) && items[k + 1]!.indent > i.indent) questions++
  }
  return questions >= 2 ? questions : 0
}

/**
 * A decision table: three rows or more under a header that branches ("| Exception | Same-day reattempt
 * if… | Otherwise |", "| If | Then |", "| Reason | What it means | Next step |") or a heading that
 * calls it one ("## Decision table"). Each row
 * routes a case to its action, as a decision tree's answers do; the rows count with the tree's questions.
 */
const decisionTable = (doc: Doc): number => {
  const lines = doc.split.lines
  let rows = 0
  for (let n = doc.md.bodyStartLine; n <= lines.length; n++) {
    if (doc.md.inCode[n] || !/^\s*\|/.test(lines[n - 1]!) || /^\s*\|/.test(lines[n - 2] ?? "")) continue
    let end = n
    while (end < lines.length && !doc.md.inCode[end + 1] && /^\s*\|/.test(lines[end]!)) end++
    const header = plainText(lines[n - 1]!)
    const titled = /\bdecision (?:table|matrix)\b/i.test(plainText(doc.md.headings.filter((h) => h.line < n).at(-1)?.text ?? ""))
    // the header, the separator row, then the rows
    if ((titled || /\b(?:if|then|otherwise|else|next steps?|what to do)\b/i.test(header)) && end - n - 1 >= 3) rows += end - n - 1
    n = end
  }
  return rows
}

/**
 * A lookup of entries, each a few bold-labelled lines (`**Symptom:** …`, `**Cause:** …`, `**Fix:** …`):
 * a label used three times or more whose lines are mostly actions. Each entry is a small procedure.
 */
const labelledEntries = (doc: Doc): number => {
  const byLabel = new Map<string, { n: number; actions: number }>()
  for (const [, t] of doc.prose) {
    const m = /^\s*(?:\*\*|__)([^*_:]{1,30}?)(?::(?:\*\*|__)|(?:\*\*|__):)\s+(\S.*)$/.exec(t)
    if (!m) continue
    const key = m[1]!.trim().toLowerCase()
    const e = byLabel.get(key) ?? { n: 0, actions: 0 }
    e.n++
    if (isImperative(m[2]!) === true) e.actions++
    byLabel.set(key, e)
  }
  let best = 0
  for (const e of byLabel.values()) if (e.n >= 3 && e.actions >= e.n * 0.6) best = Math.max(best, e.n)
  return best
}

/**
 * The prose paragraphs outside lists, tables, headings and quotes, their wrapped lines joined: a
 * paragraph hard-wrapped at 72 or 80 columns is one paragraph, as it renders.
 */
const paragraphs = (doc: Doc): Array<readonly [number, string]> => {
  const listLines = new Set(doc.md.listItems.map((i) => i.line))
  const out: Array<[number, string]> = []
  let last = -1
  for (const [n, t] of doc.prose) {
    // a list item, a table, a heading, a quote or an indented continuation of an item is no paragraph line
    if (t.trim() === "" || listLines.has(n) || /^\s*[|#>]/.test(t) || /^\s{2,}\S/.test(t)) continue
    if (n === last + 1 && out.length > 0) out[out.length - 1]![1] += ` ${t.trim()}`
    else out.push([n, t.trim()])
    last = n
  }
  return out
}

/** A paragraph of four sentences or more, each an instruction: a procedure written as prose. */
const imperativeParagraph = (paras: ReadonlyArray<readonly [number, string]>): boolean => {
  return paras.some(([, t]) => {
    const sentences = t.split(/(?<=[.!?])\s+(?=[A-Z])/)
    return sentences.length >= 4 && sentences.filter((x) => isImperative(x.replace(/^(?:then|next|finally),?\s+/i, "")) === true).length >= 4
  })
}

/** A paragraph that opens with the next move of a procedure written as prose ("First, …", "Start by …", "Then …"). */
const OPENS_STEP = /^\s*(?:first|second|third|then|next|after that|afterwards|finally|lastly|start by|begin by|to start|to begin)\b/i

/** Nouns that end in "ing" ("String formatting rules") and a gerund used as a subject ("Caching is …"). */
const NOT_GERUND = /^(?:\w*(?:thing|string|spring|morning|evening|ceiling|building|clothing|meaning|setting|warning|pricing|wording|heading|padding|ring|king|wing)s?\b|\w+ing\s+(?:is|are|was|and|or|vs\.?|in|on|with|for)\b)/i

/**
 * An action heading: an imperative verb and its object ("Register the runner"), the same as a gerund
 * ("Writing the summary", "Spotting injected instructions") or a "How to" ("How to read a page");
 * not a title-case topic.
 */
const isActionHeading = (text: string): boolean =>
  (isImperative(text) === true && /^\S+\s+(?:[a-z]|the\b|a\b|an\b)/.test(text)) ||
  (/^[A-Za-z]{3,}ing\s+(?:the|a|an|your|each|every|[a-z]+)\s+[a-z]/.test(text) && !NOT_GERUND.test(text)) ||
  /^how to\s+[a-z]+\s+\S/i.test(text)

/**
 * Sections headed by actions: three or more sibling headings (one parent, one level) that each name an
 * action. The procedure is the sections in order, each a step.
 */
const actionSections = (headings: ReadonlyArray<{ readonly line: number; readonly level: number; readonly text: string }>): number => {
  const groups = new Map<string, number>()
  const parents: Array<number> = []
  for (const h of headings) {
    parents.length = h.level - 1
    const key = `${parents.join(">")}|${h.level}`
    if (isActionHeading(plainText(h.text))) groups.set(key, (groups.get(key) ?? 0) + 1)
    parents[h.level - 1] = h.line
  }
  return Math.max(0, ...[...groups.values()].filter((n) => n >= 3))
}

/** The languages and code artifacts a skill can have the agent write. */
const CODE_SUBJECT = /\b(code|coding|python|typescript|javascript|sql|bash|shell scripts?|rust|golang|java|ruby|kotlin|swift|php|c\+\+|c#|unit tests?|tests?|functions?|scripts?|queries|migrations?)\b/i
const WRITES_CODE = /\bwrite (?:the |a |an |one |minimal |simplest |your |new |failing |each |focused )*(?:\w+ )?(?:tests?|code|function|class|script|query|migration|program|implementation|kernel)s?\b/i
/** What a skill produces when its output is a document with a shape: a report, a review, a profile. */
const DOCUMENT_WORDS =
  "report|review|postmortem|post-mortem|profile|summary|plan|changelog|entry|entries|memo|brief|proposal|notes|minutes|analysis|assessment|evaluation|audit|copy|announcement|update|newsletter"
const DOCUMENT = new RegExp(`\\b(${DOCUMENT_WORDS})\\b`, "i")

/** An instruction to produce a shaped document: "produce individual profiles", "write the report". */
const PRODUCE_DOCUMENT = new RegExp(`\\b(?:produce|write|draft|present|deliver|generate|return)\\s+(?:(?:a|an|the|one|each|your|individual|final|full|short|written)\\s+){0,2}(${DOCUMENT_WORDS}|profiles|reports|reviews|summaries|plans|memos|briefs|proposals|analyses|assessments|evaluations|audits)\\b`, "i")

export interface Needs {
  readonly steps: StepForms
  /** the main procedure's lines (the longest imperative list, or the step sections), empty without one */
  readonly procedure: ReadonlyArray<readonly [number, number]>
  /** the procedure runs commands or code or calls services: it can fail, and its result can be checked */
  readonly fallible: boolean
  /** a reference: mostly code examples and facts, no procedure of its own */
  readonly reference: boolean
  /** it tells the agent to change what others share or pay for: push, deploy, publish, send, submit, order, delete */
  readonly sideEffects: boolean
  /** it has the agent write code (tests, functions, queries) in a language it names: an example of that code is what it needs most */
  readonly writesCode: boolean
  /** its result is a document with a shape (a report, a review, a profile, edited copy): a sample of it shows the shape */
  readonly producesDocument: boolean
  /** it is a checklist: most of its items are `- [ ]`, each naming a state to check */
  readonly checklist: boolean
}

/** The languages of a code block of commands typed into a shell. */
export const SHELL = /^(bash|sh|shell|zsh|console|powershell|ps1|cmd|terminal)$/i
/** Words of a step that runs something outside the agent's own code: a command, a script, a service. */
// an API or an endpoint is run when the step calls it ("call the API", "via the endpoint", "the API's
// response"); a step that reads or reviews one ("whether the endpoint is new") runs nothing
const RUNS = /\b((?:run|execute|rerun)\s+(?:the\s+|a\s+|all\s+)?(?:\w+\s+)?(?:tests?|scripts?|commands?|query|queries|migrations?|builds?|checks?|linters?)|curl|wget|https?:\/\/|(?:call|calls|calling|hit|query|request|invoke|use|using|via|through|from|to|with)\s+(?:the\s+|an?\s+|its\s+|our\s+|their\s+)?(?:[\w-]+\s+){0,2}(?:apis?|endpoints?)|(?:apis?|endpoints?)(?:'s)?\s+(?:call|calls|request|requests|response|responses|returns?|key|token|limit|limits|errors?)|mcp|cli|terminal|shell|deploy|submit|purchase|place (?:an|the) order)\b/i

/** Imperatives that act on shared or paid things. */
const SIDE_EFFECT =
  /\b(push|force-push|deploy|release|publish|merge|submit|order|purchase|pay|send|email|post|upload|delete|drop|truncate|destroy|overwrite|migrate|commit|rebase|reset|revoke|rotate|transfer|book|cancel)\b/i

/**
 * Failure handling in any form: a failure named with what to do (a refusal, a condition that does not
 * hold: "If `git branch -d` refuses because the branch is not merged, …"; "A `CREATE INDEX CONCURRENTLY`
 * that fails leaves an invalid index: drop it …"), a condition that stops or asks (or a case labelled
 * before a stop: "Pins will not hold: stop."), a fallback, a condition that goes back to an earlier
 * step ("If they appear, reactivate it, find the missed consumer and repeat from step 4").
 * "If possible, read …" names no failure: it
 * hedges the act, whatever its sentence says after.
 */
export const FAILURE_LINE =
  /\b(if\b(?!\s+(?:at all\s+)?possible\b).{0,80}\b(fails?|failed|errors?|missing|unavailable|blocked|unclear|broken|cannot|not|\w+n't|finds? none|none|no(?= \w)|empty|refuses?|refused|rejects|rejected|denied|wrong|times? out)|on (failure|error)|(?:that|which) (?:fails|failed|errors? out|times? out)\b|retry|roll ?back|revert|fall ?back|stop and (ask|report|get)|ask (the user|for clarification|for it|your)|ask for (?:anything|whatever|what|any \w+)\b[^.]{0,30}\bmissing|escalate|abort|troubleshoot)|\b(if|when|unless)\b[^.]{0,100}\b(ask|stop|report (it|them|that)|tell (?:the|your) \w+|skip|warn|(?:repeat|redo|restart) (?:from )?(?:step|phase) \d|(?:go back|return) to (?:step|phase) \d|start over)\b|^\W*[^:.]{3,80}:\s+stop\b/i

/** An expected result stated: "is done when …", "must equal", "should return nothing", "exits 0". */
const EXPECTED =
  /\b(?:done|complete|finished|ready) when\b|\b(?:should|must|will)\s+(?:not\s+)?(?:be|equal|match|return|show|print|exit|pass|read|explain|contain|reach|succeed|hold)\b|\bexits?\s+(?:with\s+)?(?:code\s+)?0\b|\b(?:returns?|prints?|shows?|reports?)\s+(?:nothing|no\b|only\b)/i

/**
 * A check made explicitly, however short: its paragraph states the expected result, or it ends with
 * ":" and opens the list or the block of what to check ("validate and reload:" and the commands).
 */
export const explicitCheck = (doc: Doc, line: number): boolean => {
  const lines = doc.split.lines
  for (let n = line; n <= lines.length && n < line + 4 && lines[n - 1]!.trim() !== ""; n++) {
    if (!doc.md.inCode[n] && EXPECTED.test(lines[n - 1]!.replace(/`[^`]*`/g, "x"))) return true
  }
  if (!endsWithColon(lines[line - 1] ?? "")) return false
  let k = line + 1
  while (k <= lines.length && lines[k - 1]!.trim() === "") k++
  return doc.md.inCode[k] === true || /^\s*(?:[-*+]|\d{1,3}[.)])\s/.test(lines[k - 1] ?? "")
}

/** Verbs that describe what a text offers rather than a job the agent does. */
const OFFERS: ReadonlySet<string> = new Set(["provide", "describe", "explain", "document", "list", "reference", "show", "give", "include", "use", "cover", "support", "help"])

/**
 * The description opens with a job done, in the third person ("Upgrades …", "Investigates …",
 * "Plans, reviews and applies …"): the skill is a procedure, whatever its body looks like.
 */
export const performsTask = (description: string): boolean => {
  const w = (/^\s*["']?([A-Za-z]+)\b/.exec(description)?.[1] ?? "").toLowerCase()
  if (!/s$/.test(w) || w.length < 4) return false
  const stems = [w.slice(0, -1), w.slice(0, -2), w.replace(/ies$/, "y")]
  return stems.some((x) => IMPERATIVE_VERBS.has(x) && !OFFERS.has(x))
}

type HeadingLike = { readonly line: number; readonly level: number; readonly text: string }

/**
 * The main procedure's line ranges: the longest list of mostly imperative steps, or the sections of
 * step headings when they are more, or a table of steps longer than both.
 */
const mainProcedure = (
  doc: Doc,
  lists: ReturnType<typeof orderedLists>,
  headings: ReadonlyArray<HeadingLike>,
  stepHeadings: ReadonlyArray<HeadingLike>,
  tables: ReturnType<typeof stepTables>
): Array<readonly [number, number]> => {
  const lines = doc.split.lines
  // step headings make a procedure when they name steps ("Step 2", "Phase 1") or actions ("2. Run the
  // tests"); numbered topics ("### 1. Data Loading" under "Core Capabilities") are sections of a reference
  const actionHeadings = stepHeadings.filter((h) => {
    const t = plainText(h.text)
    const rest = t.replace(/^\d+(?:\.\d+)*[.):]?\s+/, "")
    // "Run the tests" is an action; "Research Approach and Methods", in title case, is a topic
    return /^(?:step|phase|stage)\s*\d+/i.test(t) || (isImperative(rest) === true && /^\S+\s+(?:[a-z]|the\b|a\b|an\b)/.test(rest))
  })
  // the main procedure: the longest list of mostly imperative steps, or the sections of step headings
  const imperative = lists.filter((l) => l.items.length >= 3 && l.items.filter((i) => isImperative(i.text) === true).length >= l.items.length * 0.6)
  const main = [...imperative].sort((a, b) => b.items.length - a.items.length)[0]
  const procedure: Array<readonly [number, number]> = []
  if (main) {
    const first = main.items[0]!.line
    const last = main.items[main.items.length - 1]!.line
    const next = headings.find((h) => h.line > last)?.line ?? lines.length + 1
    let end = last
    for (let n = last + 1; n < next; n++) {
      const l = lines[n - 1]!
      if (l.trim() !== "" && !doc.md.inCode[n] && !/^\s/.test(l)) break
      end = n
    }
    procedure.push([first, end])
  }
  if (actionHeadings.length >= 2 && (!main || actionHeadings.length > main.items.length)) {
    procedure.length = 0
    for (const h of actionHeadings) {
      const end = (headings.find((x) => x.line > h.line && x.level <= h.level)?.line ?? lines.length + 1) - 1
      procedure.push([h.line, end])
    }
  }
  // a table of steps longer than any list is the procedure: its rows are the steps
  const longest = [...tables].sort((a, b) => b.rows - a.rows)[0]
  if (longest && longest.rows > (main?.items.length ?? 0) && longest.rows > actionHeadings.length) {
    procedure.length = 0
    procedure.push([longest.start, longest.end])
  }
  return procedure
}

export const needsOf = perDoc((doc: Doc): Needs => {
  const lines = doc.split.lines
  const lists = orderedLists(doc)
  // a heading that lost its '#' ("Phase 1: Research" alone on its line) still structures the procedure
  const headings = [...doc.md.headings, ...(doc.md.headings.length === 0 ? unmarkedHeadings(doc).map((u) => ({ line: u.line, level: 3, text: u.text })) : [])]
    .sort((a, b) => a.line - b.line)
  const stepHeadings = headings.filter((h) => STEP_HEADING.test(plainText(h.text)))
  let inCode = 0
  for (const b of doc.md.codeBlocks) {
    if (SHELL.test(b.info) || /^(python|py|js|javascript|ts|typescript|json|ya?ml|sql)$/i.test(b.info)) continue
    // numbered steps, or a checklist to copy into the todo list ("- [ ] Run the tests; record the baseline")
    const numbered = lines.slice(b.startLine, b.endLine - 1).filter((l) => /^\s*(?:\d{1,2}[.)]|[-*]\s+\[[ xX]\])\s+\p{L}/u.test(l)).length
    if (numbered >= 3) inCode += numbered
  }
  const bold = doc.prose.filter(([, t]) => BOLD_STEP.test(t)).length
  const checklist = doc.md.listItems.filter((i) => !i.ordered && /^\[[ xX]\]\s/.test(i.text)).length
  // first/then/finally in one paragraph, or three paragraphs that each open with the next move
  const openers = doc.prose.filter(([n, t]) => (lines[n - 2] ?? "").trim() === "" && OPENS_STEP.test(t)).length
  const paras = paragraphs(doc)
  const prose = openers >= 3 || paras.some(([, t]) => (t.match(SEQUENCE) ?? []).length >= 3)
  const actions = actionSections(headings)
  const tables = stepTables(doc)
  const table = tables.reduce((n, t) => n + t.rows, 0)
  const tree = decisionTree(doc) + decisionTable(doc)
  const entries = labelledEntries(doc)
  const steps: StepForms = {
    items: lists.reduce((n, l) => n + l.items.length, 0), headings: stepHeadings.length, bold, inCode, checklist,
    prose: prose || imperativeParagraph(paras), actions, table, tree, entries
  }

  const procedure = mainProcedure(doc, lists, headings, stepHeadings, tables)
  const inProcedure = (n: number) => procedure.some(([a, b]) => a <= n && n <= b)
  // a procedure runs things when its steps hold commands, code or calls: two of its lines at least
  const running = new Set<number>()
  for (const c of commandLines(doc)) if (inProcedure(c.line)) running.add(c.line)
  // commands the agent runs (library code it writes fails the ordinary way, and a template runs nothing)
  for (const b of doc.md.codeBlocks) if (inProcedure(b.startLine) && b.endLine > b.startLine + 1 && (SHELL.test(b.info) || /^(sql|psql)$/i.test(b.info))) running.add(b.startLine)
  for (const [n, t] of doc.prose) if (inProcedure(n) && RUNS.test(t) && isImperative(t.replace(/^\s*(?:[-*+]|\d{1,4}[.)])\s+/, "")) === true) running.add(n)
  const fallible = procedure.length > 0 && running.size >= 2

  const bodyLines = Math.max(1, doc.bodyLineCount)
  const codeLines = doc.md.codeBlocks.reduce((n, b) => n + (b.endLine - b.startLine + 1), 0)
  const description = doc.fm.closed ? (doc.fm.fields.find((f) => f.key === "description")?.value ?? "") : ""
  // a skill that says it does a job ("Upgrades npm dependencies …", "Reviews a pull request …") is a
  // procedure even when its body is mostly code; one that names a library or an API is a reference
  // so is one that calls itself one: "Quick reference for …", "# OpenOCD + GDB cheat sheet"
  // a job done with a library's API ("Reads … sequence files with Biopython's SeqIO … APIs") in a body
  // that is mostly code teaches the library: a reference too
  const teachesLibrary = /\b(?:APIs?|librar(?:y|ies)|SDKs?)\b/.test(description) && codeLines / bodyLines >= 0.25
  const reference = procedure.length === 0 && (!performsTask(description) || teachesLibrary) &&
    (codeLines / bodyLines >= 0.25 || headings.some((h) => /\b(api|reference|endpoints?|parameters|classes|functions|methods|cheat ?sheet)\b/i.test(h.text)) ||
      /^\s*(?:an?\s+|quick\s+)?(?:reference|cheat ?sheet|lookup)\b/i.test(description))

  const sideEffects = doc.prose.some(([, t]) => {
    // the cheap test first: most lines name no such act
    if (!SIDE_EFFECT.test(t)) return false
    const text = t.replace(/^\s*(?:[-*+]|\d{1,4}[.)])\s+/, "")
    return SIDE_EFFECT.test(plainText(text).split(/\s+/).slice(0, 6).join(" ")) && isImperative(text) === true
  }) || commandLines(doc).some((c) => isCommandLine(c.text) && /\b(git push|deploy|publish|kubectl (apply|delete)|terraform (apply|destroy)|DROP|DELETE FROM)\b/.test(c.text))

  const title = `${description} ${headings.map((h) => h.text).join(" ")}`
  const name = doc.fm.closed ? (doc.fm.fields.find((f) => f.key === "name")?.value ?? "") : ""
  const identity = `${description} ${headings.find((h) => h.level === 1)?.text ?? ""} ${name}`
  const writesCode = CODE_SUBJECT.test(title) && doc.prose.some(([, t]) => WRITES_CODE.test(t))
  // "Drafts a postmortem", "Edits customer-facing copy", "## Output", "Return the report": a shaped result
  const producesDocument = /\b(output|report|format|template|deliverable)\b/i.test(headings.map((h) => h.text).join(" ")) ||
    /\b(reports (?:each|every|the|its|all)|summari[sz]es)\b/i.test(description) ||
    new RegExp(`\\b(writes?|drafts?|edits?|produces?|generates?|returns?|creates?|delivers?|provid(?:es|ing))\\b[^.]{0,40}${DOCUMENT.source}`, "i").test(description) ||
    // the body tells the agent to produce one ("produce individual profiles"), and it is what the skill
    // is about (its description, name or title names it): a summary made on the way is not its product
    doc.prose.some(([, t]) => {
      const m = PRODUCE_DOCUMENT.exec(plainText(t))
      if (!m) return false
      const stem = m[1]!.toLowerCase().replace(/(?:ies|ses|s)$/, (x) => (x === "ies" ? "y" : x === "ses" ? "s" : ""))
      return new RegExp(`\\b${stem}`, "i").test(identity)
    })

  const listItems = doc.md.listItems.filter((i) => !doc.md.inCode[i.line]).length
  const isChecklist = checklist >= 3 && checklist >= listItems * 0.6
  return { steps, procedure, fallible, reference, sideEffects, writesCode, producesDocument, checklist: isChecklist }
})

/** Whether the document has steps in any form: a numbered list, step headings, bold step labels, a numbered list in a code block, a checklist, action headings, or a procedure in prose. */
export const hasSteps = (s: StepForms): boolean => s.items + s.headings + s.bold + s.inCode + s.checklist + s.actions + s.table + s.tree + s.entries > 0 || s.prose

/**
 * A cookbook: three sections or more, each a short paragraph around one small code block (three lines
 * at most) and no numbered list, and they are most of the sections that hold code. A tool reference
 * written as recipes ("### Extract the audio", one `ffmpeg` line) has no procedure to number: each
 * recipe is one command, and the sections are independent of one another.
 */
export const recipeBook = perDoc((doc: Doc): boolean => {
  const lines = doc.split.lines
  const bounds = [...doc.md.headings.map((h) => h.line), lines.length + 1]
  let recipes = 0
  let withCode = 0
  for (let i = 0; i < bounds.length - 1; i++) {
    const from = bounds[i]!
    const to = bounds[i + 1]!
    const blocks = doc.md.codeBlocks.filter((b) => b.startLine > from && b.startLine < to)
    if (blocks.length === 0) continue
    withCode++
    const b = blocks[0]!
    const body = lines.slice(b.startLine, b.endLine - 1).filter((l) => l.trim() !== "").length
    const numbered = doc.md.listItems.some((it) => it.ordered && it.line > from && it.line < to)
    if (blocks.length === 1 && body >= 1 && body <= 3 && !numbered) recipes++
  }
  return recipes >= 3 && recipes * 2 > withCode
})
