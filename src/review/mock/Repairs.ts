/**
 * The content repairs of the improved version (file mode), each the fix of one rule, each making only
 * a change that follows from the text itself: it closes, splits, restores, removes or redacts; it
 * never writes domain content it cannot know. What it cannot repair stays a finding.
 *
 *   SK-FM-UNCLOSED        close the frontmatter after its last key
 *   SK-NAME-FOLDER        set `name:` to the folder's (the bundle's) name
 *   SK-DESC-SHORT/-VAGUE  rewrite the description from the title and the opening, with "Use when"
 *   SK-STEPS-FLATTENED    one step per line
 *   SK-STRUCT-NO-HEADINGS heading text that lost its `#` marked again; a `## Steps` heading
 *   SK-STRUCT-NO-SECTIONS a long section split where a part opens, under its lead-in or "Notes"
 *   SK-STRUCT-RUN-TOGETHER a heading for a part run into the one above
 *   SK-RULES-NO-SECTION, SK-VERIFY-WEAK  a heading over the rules or checks that close a section
 *                         (the heading repairs are in Sectioning.ts)
 *   SK-STRUCT-DUP-SECTION the later copy of a section removed
 *   SK-LEN-DUPLICATE      the later of two near-identical paragraphs removed
 *   SK-STRUCT-CUT-SHORT   an unfinished last sentence removed (the finding on missing parts stays)
 *   SK-EX-*               an example from the skill's own material: the commands the text names, a
 *                         short example file, the first code sample of a file it links, a worked run
 *   SK-CONS-*             the later of two contradicting statements, an undoing step, a sentence
 *                         forbidding the description's trigger: removed
 *   SK-SAFE-*             secrets redacted; injected, exfiltrating and unbounded instructions removed;
 *                         a confirmation before destructive commands; piped scripts downloaded first
 */
import type { Doc } from "../../markdown/Document.js"
import { getField, yamlScalar } from "../../markdown/Frontmatter.js"
import { isParagraphLine, maskInlineCode, plainText } from "../../markdown/Markdown.js"
import { folderOf, USE_OPENING, USE_WHEN } from "./checks/Identity.js"
import { contradictions, triggerContradictions, undoneSteps } from "./checks/Consistency.js"
import { type CheckContext, headingAbove, unclosedFrontmatterEnd } from "./checks/Common.js"
import { commandLines, isCommandLine, isImperative, orderedLists } from "../../markdown/Instructions.js"
import { PROHIBITED_TITLE, STEP_HEADING } from "../../markdown/Sections.js"
import { needsOf, stepTables } from "./checks/Needs.js"
import { namesDestructive, scanHazards } from "./checks/Safety.js"
import { sentenceEndIn, wrappedSentences } from "./checks/Runs.js"
import { orphanFiles } from "./checks/References.js"
import { relativePath } from "../../markdown/Paths.js"
import { duplicateSections, nearDuplicateParagraphs } from "./checks/Repeats.js"
import { cutShort, plainTitle, unmarkedHeadings } from "./checks/Shape.js"
import { flattenedSteps } from "./checks/Flattened.js"
import { teachesCode } from "./checks/Teaching.js"
import type { Editor } from "./Editor.js"
import { repairSections } from "./Sectioning.js"

const SENTENCE = /[^.!?]+(?:[.!?]+["')\]`*]*|$)\s*/g

/** A line's list or quote marker with its indentation ("  - ", "3. ", "> "), or "". */
const lineMarker = (line: string): string => /^(\s*(?:[-*+]|\d{1,4}[.)])\s+|\s*>\s*)?/.exec(line)![0]

/**
 * Removes the sentences of a line that match; the line goes when nothing but its marker is left.
 * Sentences are found, and matched, on the line with its inline code masked (as the checks read it),
 * so a `terraform plan` or a `v1.2` inside code neither splits a sentence nor hides it.
 */
const dropSentences = (ed: Editor, line: number, match: (sentence: string) => boolean): boolean => {
  const original = ed.text(line)
  const marker = lineMarker(original)
  const body = original.slice(marker.length)
  const masked = maskInlineCode(body).masked
  let rest = ""
  let dropped = false
  for (const m of masked.matchAll(SENTENCE)) {
    const raw = body.slice(m.index, m.index + m[0].length)
    if (match(m[0]) || match(raw)) dropped = true
    else rest += raw
  }
  if (!dropped) return false
  rest = rest.trim()
  if (rest === "" || /^[\W_]*$/.test(rest)) ed.remove(line)
  else ed.setText(line, marker + rest)
  return true
}

/** Renumbers the ordered lists that lost items, keeping their first number. */
const renumber = (ctx: CheckContext, ed: Editor) => {
  for (const list of orderedLists(ctx.doc)) {
    if (!list.items.some((i) => ed.removed(i.line))) continue
    const left = list.items.filter((i) => !ed.removed(i.line))
    left.forEach((it, k) => {
      const n = list.items[0]!.number + k
      ed.setText(it.line, ed.text(it.line).replace(/^(\s*)(\d{1,4})([.)])/, (_m, ws: string, _old: string, mk: string) => `${ws}${n}${mk}`))
    })
  }
}

export const titleOf = (ctx: CheckContext): string => {
  const h1 = ctx.doc.md.headings.find((h) => h.level === 1)
  if (h1) return plainText(h1.text)
  const name = getField(ctx.doc.fm, "name")?.value.trim() || folderOf(ctx)
  return name.split(/[-_\s]+/).filter((w) => w !== "").map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ")
}

/** The first real sentence of the body: what the artifact does, in its own words. */
export const openingSentence = (ctx: CheckContext): string | null => {
  for (const [, text] of ctx.doc.prose) {
    const t = text.trim()
    if (t === "" || /^(#|[-*+] |\d+[.)] |<|\||>|\*\*[^*]+:\*\*$)/.test(t)) continue
    const p = plainText(t)
    if (p.split(/\s+/).length < 5 || /[:]$/.test(p)) continue
    const sentence = (p.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? p).replace(/:$/, ".")
    return sentence.length > 240 ? `${sentence.slice(0, 237).replace(/\s+\S*$/, "")}...` : sentence
  }
  return null
}

/** A description from the document's own words: its opening sentence, then a trigger on its title. */
export const generatedDescription = (ctx: CheckContext): string => {
  const title = titleOf(ctx)
  const opening = openingSentence(ctx)
  return `${opening ?? `${title}.`} Use when a request involves ${title.toLowerCase()}.`.slice(0, 1024)
}

export const repairFrontmatter = (ctx: CheckContext, ed: Editor) => {
  const { doc } = ctx
  // unclosed: the block ends after its last YAML line
  if (doc.fm.present && !doc.fm.closed && ed.found("SK-FM-UNCLOSED")) {
    const end = unclosedFrontmatterEnd(doc) ?? 1
    ed.insertBefore(end + 1, ["---"])
    ed.change(end + 1, 2, `Line ${end + 1}: closed the frontmatter after its last key (it was never closed, so the whole file read as YAML).`)
    return
  }
  if (!doc.fm.closed) return
  const name = getField(doc.fm, "name")
  const folder = folderOf(ctx)
  if (name && folder && ed.found("SK-NAME-FOLDER") && name.line === name.endLine) {
    ed.setText(name.line, ed.text(name.line).replace(/^(\s*name\s*:\s*).*$/, `$1${folder}`))
    ed.change(name.line, 3, `Line ${name.line}: set \`name\` to \`${folder}\`, the folder's name (it was \`${name.value.trim()}\`).`)
  }
  const description = getField(doc.fm, "description")
  const rewrite = ed.found("SK-DESC-SHORT") || ed.found("SK-DESC-GENERIC") || ed.found("SK-DESC-EMPTY")
  if (description && !rewrite && ed.found("SK-DESC-NO-TRIGGER") && description.line === description.endLine && description.kind === "scalar") {
    // a good "what" without a "when": the trigger is appended, from the title
    const value = `${description.value.trim().replace(/[.\s]*$/, ".")} Use when a request involves ${titleOf(ctx).toLowerCase()}.`.slice(0, 1024)
    ed.setText(description.line, `description: ${yamlScalar(value)}`)
    ed.change(description.line, 4, `Line ${description.line}: appended a "Use when" clause to the description, from the title; name the real triggers.`)
  }
  if (description && rewrite) {
    const value = generatedDescription(ctx)
    ed.setText(description.line, `description: ${yamlScalar(value)}`)
    for (let n = description.line + 1; n <= description.endLine; n++) ed.remove(n)
    ed.change(description.line, 4, `Line ${description.line}: rewrote the description from the title and the opening, with a "Use when" clause (it was ${JSON.stringify(description.value.trim().slice(0, 60))}); review the wording.`)
  }
}


/**
 * Removes the unfinished last sentence of a document that stops mid-way or on a colon. A sentence
 * hard-wrapped over several lines goes whole, up to the line where it starts; the complete sentences
 * before it stay ("Next, read the flame graph. … worth knowing:").
 */
const dropUnfinishedSentence = (doc: Doc, ed: Editor) => {
  const cut = cutShort(doc, 0).find((c) => /stops mid-way|announces/.test(c.reason))
  if (!cut || ed.removed(cut.line)) return
  const lines = doc.split.lines
  let start = cut.line
  if (isParagraphLine(doc.md, cut.line)) {
    while (isParagraphLine(doc.md, start - 1) && !/[.!?]["')\]`*]*\s*$/.test(lines[start - 2]!) && !/[.!?]["')\]`*]*\s+\S/.test(lines[start - 1]!)) start--
  }
  for (let n = start + 1; n <= cut.line; n++) ed.remove(n)
  const [, marker = "", body = ""] = /^(\s*(?:(?:[-*+]|\d{1,4}[.)])\s+)?)(.*)$/.exec(ed.text(start)) ?? []
  const rest = body.replace(/(?<=[.!?])\s+[^.!?]+$/, "")
  const sentence = rest !== body && /[.!?]$/.test(rest) && rest.split(/\s+/).length >= 3
  if (sentence) ed.setText(start, marker + rest)
  else ed.remove(start)
  const where = start === cut.line ? `Line ${start}` : `Lines ${start}-${cut.line}`
  ed.change(start, 42, `${where}: removed the unfinished last ${sentence || start !== cut.line ? "sentence" : "line"}; the document still looks cut short: write what is missing.`)
}

export const repairShape = (ctx: CheckContext, ed: Editor) => {
  const { doc } = ctx
  const eolLines = (lines: ReadonlyArray<string>) => lines
  // one step per line
  if (ed.found("SK-STEPS-FLATTENED")) {
    for (const f of flattenedSteps(doc)) {
      const steps = f.steps.map((s, k) => `${f.indent}${k + 1}${f.marker} ${s}`)
      const lead = f.lead.trim() === "" ? [] : [f.lead, ""]
      ed.setText(f.line, [...lead, ...eolLines(steps)].join("\n"))
      ed.change(f.line, 30, `Line ${f.line}: split the ${f.steps.length} steps written as one paragraph into a numbered list.`)
    }
  }
  // a document without headings: heading text marked again, or a title and a Steps heading
  if (ed.found("SK-STRUCT-NO-HEADINGS") && doc.md.headings.length === 0) {
    // a label that comes back ("**Input**", "**Output**" over each sample) marks the parts of samples: as
    // headings they would repeat
    const candidates = unmarkedHeadings(doc)
    const seen = (t: string) => candidates.filter((x) => x.text.toLowerCase() === t.toLowerCase()).length
    const marked = candidates.filter((h, k) => k === 0 || seen(h.text) === 1)
    marked.forEach((h, k) => {
      ed.setText(h.line, `${k === 0 ? "#" : "##"} ${h.text}`)
    })
    if (marked.length > 0) {
      ed.change(marked[0]!.line, 37, `Line${marked.length > 1 ? "s" : ""} ${marked.map((m) => m.line).join(", ")}: marked the heading text as headings (the document had none).`)
    } else {
      const first = orderedLists(doc)[0]
      if (first && first.items.length >= 2) {
        ed.insertBefore(first.items[0]!.line, ["## Steps", ""])
        ed.change(first.items[0]!.line, 37, `Line ${first.items[0]!.line}: added a "## Steps" heading before the numbered procedure (the document had no headings).`)
      }
    }
  }
  // a title written as a plain line above sections in XML tags: marked as the title
  const title = ed.found("SK-STRUCT-NO-TITLE") ? plainTitle(doc) : null
  if (title !== null) {
    ed.setText(title.line, `# ${title.text}`)
    ed.change(title.line, 37, `Line ${title.line}: marked the title as the '# ' heading.`)
  }
  // the headings a part lacks: parts run together, rules or checks at a section's end, a long section
  repairSections(ctx, ed)
  // said twice: the later copy goes
  if (ed.found("SK-STRUCT-DUP-SECTION")) {
    for (const d of duplicateSections(doc)) {
      for (let n = d.section.heading; n <= d.section.end; n++) ed.remove(n)
      ed.change(d.section.heading, 38, `Lines ${d.section.heading}-${d.section.end}: removed the section "${d.section.title}", a copy of the one on line ${d.of.heading}.`)
    }
  }
  if (ed.found("SK-LEN-DUPLICATE")) {
    for (const d of nearDuplicateParagraphs(doc)) {
      for (let n = d.paragraph.start; n <= d.paragraph.end; n++) ed.remove(n)
      if ((doc.split.lines[d.paragraph.end] ?? "x").trim() === "") ed.remove(d.paragraph.end + 1)
      ed.change(d.paragraph.start, 39, `Lines ${d.paragraph.start}-${d.paragraph.end}: removed a paragraph that repeats the one on line ${d.of.start}.`)
    }
  }
  // an unfinished last sentence
  if (ed.found("SK-STRUCT-CUT-SHORT")) dropUnfinishedSentence(doc, ed)
  // bundle files nothing leads to: listed, so the agent knows they exist
  if (ed.found("SK-REF-UNREFERENCED")) {
    const orphans = orphanFiles(ctx).slice(0, 20)
    if (orphans.length > 0) {
      const end = doc.split.lines.length + 1
      ed.insertBefore(end, ["", "## Bundled files", "", ...orphans.map((p) => { const rel = relativePath(doc.dir, p); return `- [${rel}](${rel})` })])
      ed.change(end, 46, `Line ${end}: listed the ${orphans.length} bundle file(s) nothing referred to; say when each is needed.`)
    }
  }
  // examples: the commands the text names, else the first short example file, else a worked run of the steps
  if (ed.found("SK-EX-NO-CODE") || ed.found("SK-EX-MISSING") || ed.found("SK-EX-ONLY-IN-FILES")) {
    const block = exampleBlock(ctx, ed)
    if (block) {
      const end = doc.split.lines.length + 1
      const fenced = [block.lead, "", `\`\`\`${block.lang}`, ...block.lines, "```"]
      // a text sectioned by XML tags (`<purpose>`, `<constraints>`) and no heading takes an example tag:
      // a first markdown heading would leave it without a title
      ed.insertBefore(end, doc.md.headings.length === 0 ? ["", "<example>", ...fenced, "</example>"] : ["", "## Example", "", ...fenced])
      ed.change(end, 44, `Line ${end}: added an example: ${block.what}.`)
    }
  }
}

/** The description's use sentence, from "use" to its end: "Use after a deploy when users still see stale pages". */
const USE_SENTENCE = new RegExp(`\\b(?:${USE_OPENING}|(?:should|can|may) be used (?:${USE_WHEN}))\\b[^.]*`, "i")

/** An example made only of the document's own material. */
const exampleBlock = (ctx: CheckContext, ed: Editor): { lead: string; lang: string; lines: ReadonlyArray<string>; what: string } | null => {
  const { doc } = ctx
  // from what the repairs keep: a line they removed (an unfinished step, a hazard) is no example
  const commands: Array<string> = []
  // a command quoted as a mistake (under "## Common mistakes", "## Don't") or a destructive one named in
  // passing is not one the skill runs: a list of what it runs must not promote it
  const mistaken = (line: number) => PROHIBITED_TITLE.test(plainText(headingAbove(doc, line)?.text ?? ""))
  for (const c of doc.md.inlineCode) {
    const t = c.text.trim()
    // a command with its arguments, not a tool's bare name (`gh`)
    if (!doc.md.inCode[c.line] && !ed.removed(c.line) && /\s/.test(t) && isCommandLine(t) && !commands.includes(t) && !mistaken(c.line) && !namesDestructive(t)) commands.push(t)
  }
  if (commands.length >= 2) {
    return { lead: "The commands this skill runs, in order:", lang: "bash", lines: commands.slice(0, 10), what: `the ${Math.min(10, commands.length)} commands the text names, in order; add their expected output` }
  }
  // the first example or template file the document links, when it is short
  for (const ref of doc.refs) {
    if (!/example|sample|template/i.test(ref.path)) continue
    const target = bundleTarget(ctx, ref.path)
    const file = target === undefined ? undefined : ctx.docAt(target)
    if (!file) continue
    const lines = file.text.replace(/\n+$/, "").split("\n")
    if (lines.length === 0 || lines.length > 40 || lines.some((l) => /^\s*(```|~~~)/.test(l))) continue
    return { lead: `From \`${target}\`:`, lang: /\.md$/.test(target!) ? "markdown" : "text", lines, what: `the content of ${target}, shown inline` }
  }
  // a code sample the bundle already holds: the first code block of a file the document links
  // (example files first), copied verbatim with its source; for a skill that teaches code it is the
  // example it needs, for others the fallback when no run can be built from its steps
  const linked = linkedCodeBlock(ctx, ed)
  if (linked && (ed.found("SK-EX-NO-CODE") || needsOf(doc).writesCode || teachesCode(doc).length >= 2)) return linked
  // a worked run: the description's trigger as the request, the steps as what happens
  // the procedure: "Step N" headings, else the longest list of mostly imperative steps, else numbered
  // headings, else the first list
  const lists = orderedLists(doc).map((l) => l.items.filter((s) => !ed.removed(s.line)))
  const imperative = lists.filter((l) => l.length >= 2 && l.filter((i) => isImperative(i.text) === true).length >= l.length * 0.6)
  const headed = doc.md.headings.filter((h) => STEP_HEADING.test(plainText(h.text)) && !ed.removed(h.line)).map((h) => ({ line: h.line, text: plainText(h.text) }))
  const labelled = headed.filter((h) => /^(?:step|phase|stage)\s*\d/i.test(h.text))
  // (a Step | Command | Check table's rows are the steps when there is no list)
  const table = stepTables(doc)[0]?.steps.filter((s) => !ed.removed(s.line)) ?? []
  const steps = labelled.length >= 2 ? labelled : [...imperative].sort((a, b) => b.length - a.length)[0] ?? (headed.length >= 2 ? headed : lists[0] ?? (table.length >= 2 ? table : []))
  // "Use when …", "Use this skill for …", "This skill should be used when …", "… at the start of …"
  const description = getField(doc.fm, "description")?.value ?? ""
  const trigger = description.match(USE_SENTENCE)?.[0]
  if (!trigger) return linked
  const request = `Request: ${trigger.replace(/^(?:use (this skill |it )?|(?:should|can|may) be used )/i, "").replace(/^when(?:ever)? (the user |a user )?/i, "").trim()}`
  if (steps.length < 2) {
    // guidance with no steps: the request it serves and what the description says it gives back
    const gives = plainText(description).split(/(?<=[.!?])\s/)[0]?.trim() ?? ""
    // (code it teaches wants code, which this is not; and a skill that runs a command, given an example
    // section, reads as a task whose steps are missing)
    if (linked || gives === "" || USE_SENTENCE.test(gives) || ed.found("SK-EX-NO-CODE") || needsOf(doc).writesCode || commandLines(doc).length > 0) return linked
    return {
      lead: "A request this skill serves and what it gives back, from its description (replace both with a real case):",
      lang: "text",
      lines: [request, `Result: ${gives}`],
      what: "a request from the description's trigger and the result it promises; replace both with a real case"
    }
  }
  // each step's first sentence, cut at a word when long (a colon inside `Notion:search` is no end)
  const titles = steps.slice(0, 8).map((s, k) => {
    const first = (plainText(s.text).split(/(?<=[.!?])\s/)[0] ?? "").replace(/[.:;\s]+$/, "")
    const short = first.length <= 100 ? first : `${first.slice(0, first.lastIndexOf(" ", 100))}…`
    return `${k + 1}. ${short}`
  })
  return {
    lead: "A run of this skill, from its trigger and its steps (replace it with a real request and result):",
    lang: "text",
    lines: [request, ...titles],
    what: "a run built from the description's trigger and the steps; replace it with a real request and result"
  }
}

/** Code, not a transcript or a document: a block whose language names a programming or shell language or a data format. */
const NOT_CODE = /^(text|txt|plain|plaintext|markdown|md|output|log|console-output|none)$/i

/** A line that installs, fetches or enters a tool rather than using it. */
const SETUP_LINE = /^\s*(?:\$\s*)?(?:sudo\s+)?(?:(?:uv\s+)?(?:pip3?|uv|conda|mamba|npm|pnpm|yarn|brew|apt(?:-get)?|gem|cargo|go|tlmgr)\s+(?:install|add|get)\b|git\s+clone\b|install\.packages\(|(?:curl|wget)\s)/

/** The bundle file a reference of the document names, if it is in the bundle. */
const bundleTarget = (ctx: CheckContext, refPath: string): string | undefined => {
  const { doc } = ctx
  return ctx.bundle.paths.find((p) => p === refPath || p.endsWith(`/${refPath}`) || p === `${doc.dir ? `${doc.dir}/` : ""}${refPath}`)
}

/**
 * The first closed code block (3 to 25 lines, with a code language) of a markdown file the document
 * links, example and sample files first: the skill's own sample, shown where the agent reads.
 */
const linkedCodeBlock = (ctx: CheckContext, ed: Editor): { lead: string; lang: string; lines: ReadonlyArray<string>; what: string } | null => {
  const { doc } = ctx
  const refs = doc.refs.filter((r) => !ed.removed(r.line) && /\.(md|markdown)$/i.test(r.path))
  const ordered = [...refs.filter((r) => /example|sample/i.test(r.path)), ...refs.filter((r) => !/example|sample/i.test(r.path))]
  const seen = new Set<string>()
  for (const ref of ordered) {
    const target = bundleTarget(ctx, ref.path)
    if (target === undefined || target === doc.path || seen.has(target)) continue
    seen.add(target)
    const file = ctx.docAt(target)
    if (!file) continue
    for (const b of file.md.codeBlocks) {
      const lang = b.info.split(/\s+/)[0] ?? ""
      const size = b.endLine - b.startLine - 1
      if (!b.closed || lang === "" || NOT_CODE.test(lang) || size < 3 || size > 25) continue
      // a block inside a list item keeps its code's own indentation, not the item's
      const indent = /^\s*/.exec(file.split.lines[b.startLine - 1]!)![0].length
      const lines = file.split.lines.slice(b.startLine, b.endLine - 1).map((l) => l.slice(Math.min(indent, /^\s*/.exec(l)![0].length)))
      if (lines.some((l) => /^\s*(```|~~~)/.test(l))) continue
      // a block that starts by installing or fetching a tool is its setup, not a use of it
      const first = lines.find((l) => l.trim() !== "" && !/^\s*(#|\/\/|--)/.test(l))
      if (first === undefined || SETUP_LINE.test(first)) continue
      return { lead: `From \`${target}\`:`, lang, lines, what: `the first code sample of ${target}, shown inline` }
    }
  }
  return null
}

/**
 * Removes the last sentence of line n when it is hard-wrapped onto the lines below and matches:
 * the text before it on line n and after its end on its last line stay.
 */
const dropWrappedSentence = (doc: Doc, ed: Editor, n: number, match: (sentence: string) => boolean): boolean => {
  const { last } = wrappedSentences(doc, n)
  if (last === n || [...Array(last - n).keys()].some((k) => ed.removed(n + 1 + k))) return false
  const first = ed.text(n)
  const marker = lineMarker(first)
  const masked = maskInlineCode(first.slice(marker.length)).masked
  // the last sentence of the line starts after the last stop in it
  const stops = [...masked.matchAll(/[.!?]["')\]`*_]*\s+(?=\S)/g)]
  const from = marker.length + (stops.length > 0 ? stops.at(-1)!.index! + stops.at(-1)![0].length : 0)
  const end = ed.text(last)
  const at = sentenceEndIn(end)
  const middle = [...Array(last - n - 1).keys()].map((k) => ed.text(n + 1 + k).trim())
  if (!match([first.slice(from).trim(), ...middle, (at < 0 ? end : end.slice(0, at)).trim()].join(" "))) return false
  const after = at < 0 ? "" : end.slice(at).trim()
  const before = first.slice(0, from).trimEnd()
  for (let k = n + 1; k <= last; k++) ed.remove(k)
  const kept = [before.slice(marker.length).trim() === "" ? "" : before, after].filter((t) => t !== "").join(" ")
  if (kept === "") ed.remove(n)
  else ed.setText(n, before.slice(marker.length).trim() === "" ? marker + after : kept)
  return true
}

export const repairConsistency = (ctx: CheckContext, ed: Editor) => {
  const { doc } = ctx
  if (ed.found("SK-CONS-ALWAYS-NEVER")) {
    for (const c of contradictions(doc)) {
      const d = c.dropped
      // the statement was read with its code spans unwrapped (`rm` → rm): compare the sentence the same way
      const unwrapped = (s: string) => s.replace(/`([^`]*)`/g, "$1")
      const matches = (s: string) => unwrapped(s).trim().startsWith(d.text.slice(0, 30).trim()) || unwrapped(s).includes(d.text)
      if (dropSentences(ed, d.line, matches) || dropWrappedSentence(doc, ed, d.line, matches)) {
        ed.change(d.line, 50, `Line ${d.line}: removed ${JSON.stringify(d.text.slice(0, 70))}, which contradicts line ${c.kept.line} (kept: ${c.kept.step ? "it is a step of the procedure" : c.kept.kind === "negative" ? "the prohibition" : "the rule in the rules section"}); check which of the two you meant.`)
      }
    }
  }
  if (ed.found("SK-CONS-UNDO-STEP")) {
    for (const u of undoneSteps(doc)) {
      ed.remove(u.line)
      ed.change(u.line, 51, `Line ${u.line}: removed the step that undoes the step on line ${u.earlierLine}.`)
    }
  }
  if (ed.found("SK-CONS-USE-WHEN")) {
    for (const t of triggerContradictions(doc)) {
      if (dropSentences(ed, t.line, (s) => s.includes(t.text) || t.text.includes(s.trim()))) {
        ed.change(t.line, 52, `Line ${t.line}: removed ${JSON.stringify(t.text.slice(0, 70))}, which forbids what the description offers the skill for.`)
      }
    }
  }
}

const CURL_TO_FILE = /^(\s*)(?:sudo\s+)?(curl|wget)\b(.*?)\s*\|\s*(sudo\s+(?:-\w+\s+)*)?((?:ba|z|k|da)?sh|python3?|perl|ruby|node)\b(.*)$/

export const repairSafety = (ctx: CheckContext, ed: Editor) => {
  const { doc } = ctx
  const hazards = scanHazards(doc)
  const has = (id: string) => ed.found(id)
  for (const h of hazards) {
    if (ed.removed(h.line)) continue
    switch (h.hazard) {
      case "secret": {
        if (!has("SK-SAFE-SECRET")) break
        if (h.endLine !== undefined && h.endLine > h.line) {
          ed.setText(h.line, ed.text(h.line).replace(/-----BEGIN[^-]*-----.*/, "<private key removed: load it from a secret store>"))
          for (let n = h.line + 1; n <= h.endLine; n++) ed.remove(n)
          ed.change(h.line, 60, `Lines ${h.line}-${h.endLine}: removed a private key; rotate it and load it from a secret store.`)
        } else {
          ed.setText(h.line, ed.text(h.line).split(h.match).join("<redacted>"))
          ed.change(h.line, 60, `Line ${h.line}: redacted a secret; rotate it and read it from an environment variable.`)
        }
        break
      }
      case "prompt_injection":
      case "exfiltration":
      case "unbounded": {
        const id = h.hazard === "prompt_injection" ? "SK-SAFE-INJECTION" : h.hazard === "exfiltration" ? "SK-SAFE-EXFIL" : "SK-SAFE-UNBOUNDED"
        if (!has(id)) break
        if (doc.md.inCode[h.line]) {
          ed.remove(h.line)
        } else if (!dropSentences(ed, h.line, (s) => s.includes(h.match) || h.match.includes(s.trim()))) break
        // a second sentence of the same kind on the line is dropped with the first, under one change line
        if (hazards.some((o) => o !== h && o.hazard === h.hazard && o.line === h.line && hazards.indexOf(o) < hazards.indexOf(h))) break
        ed.change(h.line, 61, `Line ${h.line}: removed ${h.hazard === "prompt_injection" ? "an instruction to ignore earlier instructions" : h.hazard === "exfiltration" ? "an instruction to send data elsewhere" : "an instruction granting unbounded autonomy"}.`)
        break
      }
      case "destructive": {
        if (!has("SK-SAFE-DESTRUCTIVE")) break
        const line = ed.text(h.line)
        if (doc.md.inCode[h.line]) {
          // before the code block: a sentence at the block's indentation
          const block = doc.md.codeBlocks.find((b) => b.startLine < h.line && h.line <= b.endLine)
          if (!block) break
          const indent = /^\s*/.exec(doc.split.lines[block.startLine - 1]!)![0]
          ed.insertBefore(block.startLine, [`${indent}Ask the user to confirm before running \`${h.match.replace(/`/g, "")}\`: it cannot be undone.`, ""])
          ed.change(block.startLine, 62, `Line ${block.startLine}: added a confirmation before \`${h.match}\`, which destroys data.`)
        } else {
          ed.setText(h.line, `${line.trimEnd()}${/[.!?]$/.test(line.trim()) ? "" : "."} Ask the user to confirm before running it: it cannot be undone.`)
          ed.change(h.line, 62, `Line ${h.line}: added a confirmation before \`${h.match}\`, which destroys data.`)
        }
        break
      }
      case "pipe_to_shell": {
        if (!has("SK-SAFE-PIPE-SHELL")) break
        const m = CURL_TO_FILE.exec(ed.text(h.line))
        if (doc.md.inCode[h.line] && m) {
          const [, indent, tool, args, sudo, shell, rest] = m
          const cleaned = args!.replace(/\s+-(?:o|O)\s*-(?=\s|$)|\s+-qO-|\s+-O-/g, "")
          const download = tool === "wget" ? `${indent}wget${cleaned} -O install.sh` : `${indent}curl${cleaned} -o install.sh`
          ed.setText(h.line, [download, `${indent}less install.sh   # read the script before running it`, `${indent}${sudo ?? ""}${shell} install.sh${rest!.replace(/^\s*-s\s+--\s*/, " ").replace(/^\s*-s\b/, "")}`.trimEnd()].join("\n"))
          ed.change(h.line, 63, `Line ${h.line}: the script is downloaded and read before it runs, instead of piped into ${shell}.`)
        } else if (!doc.md.inCode[h.line]) {
          const line = ed.text(h.line)
          ed.setText(h.line, `${line.trimEnd()}${/[.!?]$/.test(line.trim()) ? "" : "."} Download the script first and read the script before running it; do not pipe it into a shell.`)
          ed.change(h.line, 63, `Line ${h.line}: added a review of the downloaded script before it runs.`)
        }
        break
      }
    }
  }
}

export const finishRepairs = (ctx: CheckContext, ed: Editor) => renumber(ctx, ed)
