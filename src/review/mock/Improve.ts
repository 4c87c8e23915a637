/**
 * The mock reviewer's improved version: only fixes that are safe to make without understanding the
 * domain. The frontmatter block is kept byte for byte; the only frontmatter edit is *adding* a
 * missing `name`/`description` line just before the closing `---` (or a whole block when a skill
 * has none). Fenced code, inline code and link targets are never reworded. Each change yields one
 * `changes` line naming the original line it concerns. See docs/rubrics.md "Improvement rules".
 */
import type { CriterionKey } from "../rubrics/Criteria.js"
import { getField, yamlScalar } from "../../markdown/Frontmatter.js"
import { plainText } from "../../markdown/Markdown.js"
import { basename, relativePath } from "../../markdown/Paths.js"
import { type CheckContext, excessBlankRuns, trailingWhitespaceLines, TRIGGER } from "./Checks.js"
import { isCommandLine, orderedLists } from "../../markdown/Instructions.js"
import { toKebab } from "../../markdown/Names.js"
import { MISSING_MARKER, resolveRefs } from "../../markdown/BundleRefs.js"
import type { Doc } from "../../markdown/Document.js"
import { editorOver } from "./Editor.js"
import { finishRepairs, repairConsistency, repairFrontmatter, repairSafety, repairShape } from "./Repairs.js"
import { unclosedFrontmatterEnd } from "./checks/Common.js"
import { hedges } from "./checks/Hedges.js"
import { headingGaps, numberedHeadingRuns } from "./checks/Procedure.js"
import { createdOrPlaceholder } from "./checks/References.js"
import { plainTitle, unmarkedHeadings } from "./checks/Shape.js"
import { xmlSections } from "./checks/Layout.js"

interface Entry {
  text: string
  /** the line terminator that followed this line in the original ("" for the last line without one) */
  term: string
  /** 1-based original line, null for inserted lines */
  readonly orig: number | null
  deleted?: boolean
}

interface Change {
  readonly line: number
  readonly order: number
  readonly text: string
}

interface Insert {
  readonly before: number
  readonly lines: Array<string>
}

export interface Improvement {
  readonly content: string
  readonly changes: ReadonlyArray<string>
}

const titleCase = (kebab: string) =>
  kebab
    .split(/[-_\s]+/)
    .filter((w) => w !== "")
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ")

/** Protected spans of a line: inline code, link targets and URLs. */
const protectedSpans = (line: string): Array<[number, number]> => {
  const spans: Array<[number, number]> = []
  const re = /(`+)[^`]*?\1|\]\([^()]*\)|<[^<>\s]+>|https?:\/\/\S+|^\s*\[[^\[\]]*\]:.*$/g
  let m: RegExpExecArray | null
  while ((m = re.exec(line)) !== null) spans.push([m.index, m.index + m[0].length])
  return spans
}

const mapUnprotected = (line: string, f: (segment: string, isFirst: boolean) => string): string => {
  const spans = protectedSpans(line)
  let out = ""
  let pos = 0
  for (const [a, b] of [...spans, [line.length, line.length] as [number, number]]) {
    out += f(line.slice(pos, a), pos === 0) + line.slice(a, b)
    pos = b
  }
  return out
}


/** Removes the hedges from one prose segment of a hedged instruction; returns the labels of what it removed. */
export const tightenSegment = (segment: string, removed: Set<string>): string => {
  let s = segment
  const apply = (re: RegExp, label: string, to: (...m: Array<string>) => string) => {
    s = s.replace(re, (...args: Array<unknown>) => {
      removed.add(label)
      return to(...(args.slice(0, -2) as Array<string>))
    })
  }
  // conditionals such as "as needed" or "if necessary" are left alone: dropping them would turn an
  // optional action into a mandatory one
  apply(/\b(T|t)ry to (\w)/g, "try to", (_m, t, c) => (t === "T" ? c!.toUpperCase() : c!))
  // hedges opening an instruction: the instruction is stated directly
  apply(
    /(^\s*(?:(?:[-*+]|\d{1,4}[.)])\s+)?|[.!?:]\s+)(?:you should probably|you might want to|you may want to|you could|maybe|perhaps|if (?:at all )?possible,|ideally,|hopefully,|feel free to)\s+(\*\*|__|\*|_)?(\w)/gi,
    "hedge",
    // (an instruction in bold keeps its emphasis: "Maybe **upgrade first**" → "**Upgrade first**")
    (_m, lead, emphasis, c) => `${lead}${emphasis ?? ""}${c!.toUpperCase()}`
  )
  apply(/\bshould probably\b/g, "should probably", () => "should")
  apply(/\b(?:might|may) want to (\w)/g, "might want to", (_m, c) => c!)
  apply(/,? if (?:at all )?possible(?=[,.;]|$)/g, "if possible", () => "")
  return s
}

/**
 * What the passes work on: the file's lines, which each pass edits in place, the lines to insert and
 * one change note per edit.
 */
interface ImproveState {
  readonly ctx: CheckContext
  readonly doc: Doc
  readonly criteria: ReadonlySet<CriterionKey>
  readonly structural: boolean
  /** whether the review reported this rule on this file: the content repairs act only on findings */
  readonly found: (ruleId: string) => boolean
  readonly entries: Array<Entry>
  readonly eol: string
  readonly unclosedEnd: number | undefined
  readonly bodyStart: number
  readonly changes: Array<Change>
  readonly inserts: Array<Insert>
  finalNewline: boolean
  readonly at: (line: number) => Entry
}

interface ImprovePass {
  readonly name: string
  /** What the pass improves. */
  readonly improves: string
  readonly when: (state: ImproveState) => boolean
  readonly run: (state: ImproveState) => void
}

const fixReferences = ({ ctx, doc, at, changes }: ImproveState) => {
  const { artifactType } = ctx
  const pkg = artifactType === "skill" || artifactType === "workflow" || artifactType === "rubr_flow"
  const edits = new Map<number, Array<{ start: number; end: number; text: string; change: string }>>()
  const add = (line: number, e: { start: number; end: number; text: string; change: string }) => {
    const list = edits.get(line) ?? []
    if (!list.some((x) => x.start < e.end && e.start < x.end)) list.push(e)
    edits.set(line, list)
  }
  for (const r of resolveRefs(ctx)) {
    if (r.status !== "missing" || r.ref.kind === "name" || createdOrPlaceholder(doc, r.ref)) continue
    const { ref } = r
    const line = at(ref.line).text
    if (line.slice(ref.column, ref.column + ref.written.length) !== ref.written) continue
    if (r.candidate) {
      const base = ref.rootRelative ? ctx.rootDir : doc.dir
      let rel = relativePath(base, r.candidate)
      const prefix = ref.written.slice(0, ref.written.length - ref.path.length)
      if (ref.path.startsWith("./") && !rel.startsWith("../")) rel = `./${rel}`
      const suffix = ref.kind === "link" ? ref.written.slice(ref.written.indexOf(ref.path) + ref.path.length) : ""
      const replacement = ref.kind === "link" && ref.written.indexOf(ref.path) >= 0
        ? ref.written.slice(0, ref.written.indexOf(ref.path)) + rel + suffix
        : prefix + rel
      if (replacement === ref.written) continue
      add(ref.line, {
        start: ref.column,
        end: ref.column + ref.written.length,
        text: replacement,
        change: `Line ${ref.line}: pointed \`${ref.written}\` at \`${replacement}\`, the existing bundle file ${r.candidate} (${ref.kind === "link" ? "the link" : "the path"} named a file the bundle does not have).`
      })
    } else if (ref.kind !== "link" && pkg && !ref.directory && !ref.glob && !doc.md.inCode[ref.line]) {
      // a bare path to a file the bundle lacks: marked, so nobody (and no agent) looks for it
      const after = line.slice(ref.column + ref.written.length)
      const closing = /^`/.test(after) ? 1 : 0
      add(ref.line, {
        start: ref.column + ref.written.length + closing,
        end: ref.column + ref.written.length + closing,
        text: ` (${MISSING_MARKER})`,
        change: `Line ${ref.line}: marked \`${ref.written}\` "${MISSING_MARKER}": the bundle has no such file (add it or drop the mention).`
      })
    } else if (ref.kind === "link" && pkg && !ref.directory && !ref.glob) {
      const link = doc.md.links.find((l) => l.line === ref.line && l.column === ref.column)
      if (!link || !link.source.endsWith(")")) continue
      const label = plainText(link.text) || ref.path
      const text = `${label} (${link.image ? "image " : ""}${MISSING_MARKER}: \`${ref.path}\`)`
      add(ref.line, {
        start: link.sourceColumn,
        end: link.sourceColumn + link.source.length,
        text,
        change: `Line ${ref.line}: the link to \`${ref.written}\` pointed at a file missing from the bundle; replaced it with plain text marked "${MISSING_MARKER}" (add the file or drop the mention).`
      })
    }
  }
  for (const [line, list] of [...edits.entries()].sort((a, b) => a[0] - b[0])) {
    let text = at(line).text
    for (const e of [...list].sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.text + text.slice(e.end)
    at(line).text = text
    list.sort((a, b) => a.start - b.start).forEach((e, i) => changes.push({ line, order: 10 + i, text: e.change }))
  }
}

const stateHedgesDirectly = ({ doc, bodyStart, at, changes }: ImproveState) => {
  const touched: Array<number> = []
  const labels = new Set<string>()
  const hedgedLines = new Set(hedges(doc).map((h) => h.line))
  for (let n = bodyStart; n <= doc.split.lines.length; n++) {
    if (!hedgedLines.has(n)) continue
    const e = at(n)
    const removed = new Set<string>()
    const next = mapUnprotected(e.text, (seg, isFirst) => {
      const out = tightenSegment(seg, removed)
      if (out === seg) return seg
      const lead = isFirst ? (out.match(/^\s*(?:[-*+]|\d+[.)])?\s*/)?.[0] ?? "") : ""
      return lead + out.slice(lead.length).replace(/ {2,}/g, " ").replace(/ ([.,;:])/g, "$1")
    })
    if (next !== e.text) {
      e.text = next
      touched.push(n)
      removed.forEach((l) => labels.add(l))
    }
  }
  if (touched.length > 0) {
    changes.push({
      line: touched[0]!,
      order: 20,
      text: `Line${touched.length > 1 ? "s" : ""} ${touched.join(", ")}: stated the hedged instructions directly (removed ${[...labels].sort().map((l) => `"${l}"`).join(", ")}); check that each one is meant as a plain instruction.`
    })
  }
}

const renumberLists = ({ doc, at, changes }: ImproveState) => {
  for (const l of orderedLists(doc)) {
    const ns = l.items.map((i) => i.number)
    if (ns.every((n) => n === ns[0])) continue
    if (ns.every((n, i) => i === 0 || n === ns[i - 1]! + 1)) continue
    const startNo = ns[0]!
    l.items.forEach((it, i) => {
      const e = at(it.line)
      e.text = e.text.replace(/^(\s*)(\d{1,4})([.)])/, (_m, ws: string, _n: string, mk: string) => `${ws}${startNo + i}${mk}`)
    })
    const gap = ns.findIndex((n, i) => i > 0 && n !== ns[i - 1]! + 1)
    changes.push({
      line: l.items[0]!.line,
      order: 30,
      text: `Lines ${l.items[0]!.line}-${l.items[l.items.length - 1]!.line}: renumbered the steps consecutively (the numbering went from ${ns[gap - 1]} to ${ns[gap]}; check whether a step is missing).`
    })
  }
}

const renumberHeadings = ({ doc, at, changes }: ImproveState) => {
  const gaps = headingGaps(doc)
  for (const run of numberedHeadingRuns(doc)) {
    if (!run.headings.some((h) => gaps.some((g) => g.line === h.line))) continue
    // a run that starts late (no "Step 1") starts at 1 again
    const late = gaps.some((g) => g.line === run.headings[0]!.line && g.from === null)
    const first = late ? 1 : run.headings[0]!.n
    run.headings.forEach((h, i) => {
      const e = at(h.line)
      e.text = e.text.replace(new RegExp(`^(\\s*#{1,6}\\s+(?:\\*\\*)?(?:[A-Za-z]+(?: [A-Za-z]+)?\\s+)?)${h.n}(?!\\d)`), `$1${first + i}`)
    })
    const gap = run.headings.findIndex((h, i) => i > 0 && h.n > run.headings[i - 1]!.n + 1)
    const what = run.label === "Section" ? "numbered" : `"${run.label}"`
    const lines = run.headings.length === 1 ? `Line ${run.headings[0]!.line}` : `Lines ${run.headings[0]!.line}-${run.headings[run.headings.length - 1]!.line}`
    changes.push({
      line: run.headings[0]!.line,
      order: 31,
      text: late && gap < 0
        ? `${lines}: renumbered the ${what} heading${run.headings.length > 1 ? "s" : ""} from 1 (${run.headings.length > 1 ? "they started" : "it was"} at ${run.headings[0]!.n}; check whether a section is missing).`
        : `${lines}: renumbered the ${what} headings consecutively (they went from ${run.headings[gap - 1]!.n} to ${run.headings[gap]!.n}; check whether a section is missing).`
    })
  }
}

const tagCodeBlocks = ({ doc, at, changes }: ImproveState) => {
  const tagged: Array<string> = []
  for (const b of doc.md.codeBlocks) {
    if (b.info !== "") continue
    const e = at(b.startLine)
    if (!/^\s*(`{3,}|~{3,})\s*$/.test(e.text)) continue
    const body = doc.split.lines.slice(b.startLine, b.closed ? b.endLine - 1 : b.endLine).filter((l) => l.trim() !== "")
    const joined = body.join("\n").trim()
    let lang = "text"
    if (body.length > 0 && body.every((l) => isCommandLine(l) || /^\s*\$ /.test(l))) {
      lang = "bash"
    } else if (/^[[{]/.test(joined)) {
      try {
        JSON.parse(joined)
        lang = "json"
      } catch {
        lang = "text"
      }
    }
    e.text = `${e.text.trimEnd()}${lang}`
    tagged.push(`${b.startLine} (${lang})`)
  }
  if (tagged.length > 0) {
    changes.push({
      line: Number(tagged[0]!.split(" ")[0]),
      order: 35,
      text: `Line${tagged.length > 1 ? "s" : ""} ${tagged.join(", ")}: added a language tag to the code block${tagged.length > 1 ? "s" : ""}.`
    })
  }
}

const fixHeadingLevels = ({ doc, at, changes }: ImproveState) => {
  const hs = doc.md.headings.filter((h) => /^ {0,3}#/.test(doc.split.lines[h.line - 1]!))
  const levels = hs.map((h) => h.level)
  const h1s = hs.map((h, i) => (h.level === 1 ? i : -1)).filter((i) => i >= 0)
  let demotedFrom: number | null = null
  if (h1s.length > 1 && Math.max(...levels.slice(h1s[1]!)) < 6) {
    demotedFrom = hs[h1s[1]!]!.line
    for (let i = h1s[1]!; i < levels.length; i++) levels[i] = levels[i]! + 1
  }
  // each heading goes at most one level below its parent, the nearest heading above of a lower level in
  // the source: siblings that skipped a level together ("### Step 1" … "### Step 6" under "# Title") move
  // together, so none becomes a subsection of the one before it
  const clamped: Array<number> = []
  const open: Array<{ readonly level: number; readonly to: number }> = []
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i]!
    while (open.length > 0 && open[open.length - 1]!.level >= level) open.pop()
    const parent = open[open.length - 1]
    const to = parent === undefined ? level : Math.min(level, parent.to + 1)
    clamped.push(to)
    open.push({ level, to })
  }
  const gapsClosed = clamped.some((l, i) => l !== levels[i])
  const moved: Array<number> = []
  hs.forEach((h, i) => {
    if (clamped[i] === h.level) return
    at(h.line).text = at(h.line).text.replace(/^( {0,3})#{1,6}/, (_m, ws: string) => `${ws}${"#".repeat(clamped[i]!)}`)
    moved.push(h.line)
  })
  if (moved.length > 0) {
    changes.push({
      line: moved[0]!,
      order: 36,
      text: demotedFrom !== null
        ? `Lines ${moved[0]}-${moved[moved.length - 1]}: demoted the headings from line ${demotedFrom} on by one level so the file has a single '# ' title${gapsClosed ? ", and closed gaps in the heading levels" : ""}.`
        : `Line${moved.length > 1 ? "s" : ""} ${moved.join(", ")}: raised heading levels so no level is skipped.`
    })
  }
}

const tidyWhitespace = ({ doc, structural, found, at, changes }: ImproveState) => {
  const trailing = trailingWhitespaceLines(doc)
  for (const n of trailing) at(n).text = at(n).text.replace(/[ \t]+$/, "")
  if (trailing.length > 0) {
    changes.push({ line: trailing[0]!, order: 40, text: `Line${trailing.length > 1 ? "s" : ""} ${trailing.join(", ")}: removed trailing whitespace.` })
  }
  for (const [a, b] of !structural || found("SK-FMT-BLANK-LINES") ? excessBlankRuns(doc) : []) {
    for (let n = a + 1; n <= b; n++) at(n).deleted = true
    changes.push({ line: a, order: 41, text: `Lines ${a}-${b}: collapsed ${b - a + 1} blank lines into one.` })
  }
}

/** The name, title and description a structural addition writes when the file lacks them. */
const namingOf = (doc: Doc) => {
  const fm = doc.fm
  const nameField = fm.closed ? getField(fm, "name") : undefined
  const descField = fm.closed ? getField(fm, "description") : undefined
  const folder = basename(doc.dir)
  const stem = basename(doc.path).replace(/\.[^.]+$/, "")
  const h1 = doc.md.headings.find((h) => h.level === 1)
  const nameValue =
    nameField?.value.trim() ||
    toKebab(folder) ||
    toKebab(h1 ? plainText(h1.text) : "") ||
    toKebab(/^(skill|agents?|readme|prompt|command|workflow)$/i.test(stem) ? "" : stem) ||
    "my-skill"
  const title = h1 ? plainText(h1.text) : titleCase(nameValue)
  const topic = title.toLowerCase()
  const firstProse = (() => {
    for (const [n, text] of doc.prose) {
      const t = text.trim()
      if (t === "" || /^(#|[-*+] |\d+[.)] |<|\||>|\*\*[^*]+:\*\*$)/.test(t)) continue
      const p = plainText(t)
      if (p.split(/\s+/).length < 5) continue
      void n
      const sentence = (p.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? p).replace(/:$/, ".")
      return sentence.length > 200 ? `${sentence.slice(0, 197).replace(/\s+\S*$/, "")}...` : sentence
    }
    return null
  })()
  const generatedDescription = `${firstProse ?? `${title}.`} Use when a request involves ${topic}.`.slice(0, 1024)
  return { fm, nameField, descField, h1, nameValue, title, topic, generatedDescription }
}

const addTitle = ({ ctx, doc, found, unclosedEnd, bodyStart, criteria, inserts, changes }: ImproveState) => {
  const { artifactType } = ctx
  const { h1, title } = namingOf(doc)
  const wantsTitle = artifactType === "skill" || artifactType === "agent" || artifactType === "workflow"
  // title (not when the heading text that lost its `#` is marked again, nor inside an unclosed frontmatter)
  const marksHeadings = found("SK-STRUCT-NO-HEADINGS") && doc.md.headings.length === 0 && unmarkedHeadings(doc).length > 0
  // a body sectioned by XML tags alone is left as its author wrote it: no finding asks for a new title
  // there; nor anywhere the title is there as a plain line, which the repairs mark
  const xmlOnly = doc.md.headings.length === 0 && xmlSections(doc, false) >= 2
  const marksTitle = found("SK-STRUCT-NO-TITLE") && plainTitle(doc) !== null
  if (criteria.has("structure") && wantsTitle && !h1 && !marksHeadings && !xmlOnly && !marksTitle && unclosedEnd === undefined) {
    const first = doc.split.lines.findIndex((l, i) => i + 1 >= bodyStart && l.trim() !== "")
    const before = first < 0 ? doc.split.lines.length + 1 : first + 1
    inserts.push({ before, lines: [`# ${title}`, ""] })
    changes.push({ line: before, order: 50, text: `Line ${before}: added the title heading "# ${title}".` })
  }
}

const addWhenToUse = ({ ctx, doc, found, criteria, inserts, changes }: ImproveState) => {
  const { artifactType } = ctx
  const { descField, topic } = namingOf(doc)
  // "When to use" section for skills whose description has no trigger
  const descValue = descField?.value.trim() ?? ""
  const hasWhenSection =
    doc.md.headings.some((h) => /\b(when to (use|apply)|use cases?|triggers?|when should)\b/i.test(h.text)) ||
    doc.prose.some(([, t]) => /^\s*use (this skill )?when\b/i.test(t))
  // the description itself gets its trigger when it is one plain line (Repairs.ts); this section is the fallback
  const rewritesDescription = found("SK-DESC-SHORT") || found("SK-DESC-GENERIC") || found("SK-DESC-EMPTY") ||
    (descField !== undefined && descField.line === descField.endLine && descField.kind === "scalar")
  if (criteria.has("description") && artifactType === "skill" && !TRIGGER.test(descValue) && !hasWhenSection && !rewritesDescription) {
    const h2 = doc.md.headings.find((h) => h.level === 2)
    const before = h2 ? h2.line : doc.split.lines.length + 1
    const lines = ["## When to use", "", `Use this skill when a request involves ${topic}.`, ""]
    if (!h2 && (doc.split.lines[doc.split.lines.length - 1] ?? "").trim() !== "") lines.unshift("")
    inserts.push({ before, lines })
    changes.push({
      line: before,
      order: 51,
      text: `Line ${before}: added a "When to use" section, since neither the description nor the body says when to use the skill; refine its trigger conditions.`
    })
  }
}

const closeOpenFence = (s: ImproveState) => {
  const { doc, entries, eol, inserts, changes } = s
  const open = doc.md.codeBlocks.find((b) => !b.closed)
  if (open) {
    if (!s.finalNewline && entries.length > 0) entries[entries.length - 1]!.term = eol
    inserts.push({ before: doc.split.lines.length + 1, lines: [open.fence] })
    s.finalNewline = true
    changes.push({ line: open.startLine, order: 52, text: `Line ${open.startLine}: closed the code block left open at the end of the file.` })
  }
}

const addFrontmatterFields = ({ ctx, doc, criteria, inserts, changes }: ImproveState) => {
  const { artifactType } = ctx
  const { fm, nameField, descField, nameValue, generatedDescription } = namingOf(doc)
  // frontmatter: add missing required fields, never edit existing lines
  const add: Array<string> = []
  const added: Array<string> = []
  const wantsName = artifactType === "skill" && (criteria.has("name") || criteria.has("frontmatter"))
  const wantsDesc =
    (artifactType === "skill" || artifactType === "command") && (criteria.has("description") || criteria.has("frontmatter"))
  if (fm.closed || !fm.present) {
    if (wantsName && !nameField) {
      add.push(`name: ${nameValue}`)
      added.push("name")
    }
    if (wantsDesc && !descField) {
      add.push(`description: ${yamlScalar(generatedDescription)}`)
      added.push("description")
    }
  }
  if (add.length > 0 && fm.closed) {
    inserts.push({ before: fm.endLine, lines: add })
    changes.push({
      line: fm.endLine,
      order: 1,
      text: `Line ${fm.endLine}: added the missing frontmatter field${added.length > 1 ? "s" : ""} ${added.map((a) => `\`${a}\``).join(" and ")} (existing frontmatter lines unchanged); review the generated wording.`
    })
  } else if (add.length > 0 && !fm.present) {
    inserts.push({ before: 1, lines: ["---", ...add, "---", ...(doc.split.lines[0]?.trim() === "" ? [] : [""])] })
    changes.push({
      line: 1,
      order: 0,
      text: `Line 1: added a frontmatter block with ${added.map((a) => `\`${a}\``).join(" and ")}; review the generated wording.`
    })
  }
}

const repairFindings = (s: ImproveState) => {
  const { ctx } = s
  const editor = editorOver(s, s.unclosedEnd)
  repairFrontmatter(ctx, editor)
  repairShape(ctx, editor)
  repairConsistency(ctx, editor)
  repairSafety(ctx, editor)
  finishRepairs(ctx, editor)
}

const addFinalNewline = (s: ImproveState) => {
  const { entries, eol, changes } = s
  if (s.finalNewline || entries.length === 0) return
  entries[entries.length - 1]!.term = eol
  s.finalNewline = true
  changes.push({ line: entries.length, order: 60, text: `Line ${entries.length}: added the missing final newline.` })
}

/**
 * The passes in the order they run. Each change note carries an order that sorts the notes of one line;
 * the inserts before one line are written in the order the passes made them.
 */
const IMPROVE_PASSES: ReadonlyArray<ImprovePass> = [
  { name: "references", improves: "paths to files the bundle lacks: repointed to an existing file, else marked missing", when: (s) => s.criteria.has("references"), run: fixReferences },
  { name: "hedges", improves: "hedged instructions, stated directly (outside code, links and headings)", when: (s) => s.criteria.has("clarity"), run: stateHedgesDirectly },
  { name: "list numbering", improves: "numbered lists that skip or repeat a number", when: (s) => s.criteria.has("steps"), run: renumberLists },
  {
    name: "heading numbering",
    // renumbered consecutively; the finding's change note asks whether a section was lost (the apply cannot write it)
    improves: "numbered headings that skip a number",
    when: (s) => s.criteria.has("steps") && s.found("SK-STEPS-HEADING-GAP"),
    run: renumberHeadings
  },
  {
    name: "code block languages",
    // in a file's review only when it is found as a cost (an info note alone is not worth a change)
    improves: "bare code fences: tagged bash for commands, json when it parses, else text",
    when: (s) => s.criteria.has("examples") && (!s.structural || s.found("SK-EX-NO-LANGUAGE")),
    run: tagCodeBlocks
  },
  { name: "heading levels", improves: "a second '# ' title (later sections demoted with their subsections) and skipped levels", when: (s) => s.criteria.has("structure"), run: fixHeadingLevels },
  { name: "whitespace", improves: "trailing whitespace and runs of blank lines", when: (s) => s.criteria.has("formatting"), run: tidyWhitespace },
  // the structural additions and the content repairs: file mode only
  { name: "title", improves: "a missing title heading", when: (s) => s.structural, run: addTitle },
  { name: "when to use", improves: "a skill that never says when to use it: a \"When to use\" section", when: (s) => s.structural, run: addWhenToUse },
  { name: "open fence", improves: "a code block left open at the end of the file", when: (s) => s.structural && s.criteria.has("structure"), run: closeOpenFence },
  { name: "frontmatter fields", improves: "a missing `name` or `description`, added without editing existing lines", when: (s) => s.structural, run: addFrontmatterFields },
  { name: "findings", improves: "each the fix of a rule the review reported (Repairs.ts)", when: (s) => s.structural, run: repairFindings },
  { name: "final newline", improves: "a missing final newline", when: (s) => s.criteria.has("formatting"), run: addFinalNewline }
]

/** The edited lines with the inserts in place; null when nothing changed after all. */
const render = ({ doc, entries, eol, inserts, finalNewline, changes }: ImproveState): Improvement | null => {
  const out: Array<string> = []
  const byBefore = new Map<number, Array<Array<string>>>()
  for (const ins of inserts) byBefore.set(ins.before, [...(byBefore.get(ins.before) ?? []), ins.lines])
  const emitInserts = (before: number) => {
    for (const lines of byBefore.get(before) ?? []) for (const l of lines) out.push(l + eol)
  }
  for (const e of entries) {
    emitInserts(e.orig!)
    if (!e.deleted) out.push(e.text + e.term)
  }
  const tail = byBefore.get(entries.length + 1)
  if (tail) {
    if (entries.length > 0 && entries[entries.length - 1]!.term === "") out[out.length - 1] += eol
    emitInserts(entries.length + 1)
    if (!finalNewline) out[out.length - 1] = out[out.length - 1]!.slice(0, -eol.length)
  }
  const content = out.join("")
  if (content === doc.text) return null
  return {
    content,
    changes: changes.sort((a, b) => a.line - b.line || a.order - b.order).map((c) => c.text)
  }
}

export const improveDoc = (
  ctx: CheckContext,
  criteria: ReadonlySet<CriterionKey>,
  structural: boolean,
  /** whether the review reported this rule on this file: the content repairs act only on findings */
  found: (ruleId: string) => boolean = () => false
): Improvement | null => {
  const { doc } = ctx
  const pieces = doc.text.length === 0 ? [] : doc.text.split(/(?<=\n)/)
  const entries: Array<Entry> = pieces.map((p, i) => {
    const term = p.endsWith("\r\n") ? "\r\n" : p.endsWith("\n") ? "\n" : ""
    return { text: p.slice(0, p.length - term.length), term, orig: i + 1 }
  })
  // an unclosed frontmatter is still frontmatter: edits start after its last key
  const unclosedEnd = unclosedFrontmatterEnd(doc)
  const state: ImproveState = {
    ctx,
    doc,
    criteria,
    structural,
    found,
    entries,
    eol: doc.split.eol,
    unclosedEnd,
    bodyStart: unclosedEnd === undefined ? doc.md.bodyStartLine : unclosedEnd + 1,
    changes: [],
    inserts: [],
    finalNewline: doc.split.finalNewline,
    at: (line) => entries[line - 1]!
  }
  for (const pass of IMPROVE_PASSES) if (pass.when(state)) pass.run(state)
  return state.changes.length === 0 ? null : render(state)
}

export type { Doc }
