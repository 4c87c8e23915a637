/**
 * Examples: whether the text shows what it teaches, in any form (a code block, an example section or
 * tag, a labelled sample, an example file, inline samples, a table of full commands or queries), and
 * whether the kind of skill needs one (split from Procedure.ts).
 */
import type { Severity } from "../../Types.js"
import { RUBRIC_VERSION_2026_11_29_3 } from "../../rubrics/Rubrics.js"
import { plainText } from "../../../markdown/Markdown.js"
import { commandLines } from "../../../markdown/Instructions.js"
import { PAIR_TITLE, REFERENCE_TITLE, SECTION_TOPICS } from "../../../markdown/Sections.js"
import { resolveRefs, type ResolvedRef } from "../../../markdown/BundleRefs.js"
import { needsOf } from "./Needs.js"
import { isInlineCommand, type Teaching, teaching } from "./Teaching.js"
import { filledOutputTable, outputWording, workedSamples } from "./Samples.js"
import { renderedLine, unitText } from "./Runs.js"
import { sentencesOf } from "./Words.js"
import type { Doc } from "../../../markdown/Document.js"
import { bodyStart, type CheckContext, type CheckOutcome, headingAbove, headingMatches, Out, proseMatches, sectionHas } from "./Common.js"

// ---------------------------------------------------------------- examples

/**
 * No example in any form: no block, section, label or file. A skill or prompt that teaches code,
 * commands or a format needs one most (major), others get a note. What it weighs: `inline`, the
 * inline samples and passing "e.g."s; `codeLines`, the code it teaches; `sample`, the lines that
 * sample a document; `commandRows`, the table rows that give a command in full.
 */
/** What a document with a code block, an example block or an example table teaches without one: nothing. */
const NOTHING_TAUGHT: Teaching = { code: [], commands: [], inputs: [], snippets: [] }

/** A sentence that has the agent put a template to use: print it, copy it, fill it in, start from it. */
const USES_TEMPLATE = /^\W*(?:print|copy|fill(?: in| out)?|use|start from|duplicate)\b/i

/** What a sentence that links a file says it holds: the syntax, the commands, the code. */
const ROUTES_CODE = /\b(?:syntax|commands|code|queries|snippets|recipes|config(?:uration)? (?:examples|snippets))\b/i

/** The rows of the tables of versions side by side (a "Bad" and a "Good" column) that hold inline code. */
const versionRowsInCode = (doc: Doc): Set<number> => {
  const lines = doc.split.lines
  const rows = new Set<number>()
  for (const header of workedSamples(doc)) {
    if (!/^\s*\|/.test(lines[header - 1] ?? "")) continue
    for (let n = header + 2; n <= lines.length && /^\s*\|/.test(lines[n - 1]!); n++) if (/`[^`]+`/.test(lines[n - 1]!)) rows.add(n)
  }
  return rows
}

/** Two terms or more of the inline code on the taught lines, used in the rows between start and end. */
const usesTaughtTerms = (doc: Doc, codeLines: ReadonlyArray<number>, rows: { readonly start: number; readonly end: number }): boolean => {
  const words = (t: string) => t.split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length >= 3)
  const taught = new Set(doc.md.inlineCode.filter((c) => codeLines.includes(c.line)).flatMap((c) => words(c.text)))
  const used = new Set(words(doc.split.lines.slice(rows.start - 1, rows.end).join(" ")))
  return [...taught].filter((w) => used.has(w)).length >= 2
}

const noExampleAtAll = (
  o: Out,
  ctx: CheckContext,
  { inline, codeLines, sample, commandRows, resolved }: { readonly inline: number; readonly codeLines: ReadonlyArray<number>; readonly sample: ReadonlyArray<number>; readonly commandRows: number; readonly resolved: ReadonlyArray<ResolvedRef> }
) => {
  // the code or commands it teaches, shown nowhere: the agent has names and no usage (major for a
  // skill or prompt); with nothing taught in code, an example is a nicety (a note)
  const { doc, artifactType } = ctx
  const needs = needsOf(doc)
  const skillLike = artifactType === "skill" || artifactType === "prompt"
  // a table of queries or expressions written out in full shows the syntax it teaches in use, unless
  // the skill writes code, which only code shows
  if (!needs.writesCode && teaching(doc).inputs.length >= 2) {
    o.note("examples shown inline: a table of queries or expressions written out in full")
    return
  }
  // so does a table of versions side by side whose rows give them in inline code (`| \`SHOOTING 48.2\`
  // | \`48.2 FG% THIS SEASON\` |`) when it holds most of what the text teaches: the format, bad and good
  const versions = versionRowsInCode(doc)
  if (!needs.writesCode && versions.size >= 2 && codeLines.filter((n) => versions.has(n)).length * 2 >= codeLines.length) {
    o.note("examples shown inline: a table of versions side by side, written out in inline code")
    return
  }
  // and so does the output section's table filled in with values (a findings table with its rows
  // written out) that uses the terms the text teaches in code (`MOLOO`, `MOLCO`), in a skill that runs
  // no commands: the format shown in use; commands are shown only by themselves
  const filled = filledOutputTable(doc)
  if (!needs.writesCode && commandLines(doc).length === 0 && filled !== null && usesTaughtTerms(doc, codeLines, filled)) {
    o.note("examples shown inline: the output's table filled in")
    return
  }
  // a checklist is its own example: each item names the state to check, and it reports the list with their states
  const teaches = skillLike && !needs.checklist && (codeLines.length >= 2 || needs.writesCode)
  const shapesOutput = skillLike && !teaches && !needs.checklist && needs.producesDocument && sample.length === 0
  // a procedure that runs commands, with no example in any form (not even an "e.g.", a quoted sample or
  // a table of the exact commands): the agent has the tools' names and must compose every invocation itself
  const ran = commandLines(doc)
  // commands written out in full in the steps, arguments and all (`git ls-files | head -200`, not `npm
  // test`), are shown in use already
  const written = ran.filter((c) => isInlineCommand(c.text) && c.text.split(/\s+/).length >= 3 && needs.procedure.some(([a, b]) => a <= c.line && c.line <= b)).length
  const runsUnshown = skillLike && !teaches && !shapesOutput && inline === 0 && commandRows < 2 && needs.procedure.length > 0 && ran.length >= 2 && written < 2
  // code it teaches, shown in a bundle file the skill links (a reference implementation in references/):
  // one hop away, not absent (minor)
  const holding = teaches ? resolved.filter((r) => r.status === "ok" && r.resolved !== undefined && r.resolved !== doc.path && (ctx.docAt(r.resolved)?.md.codeBlocks.some((b) => b.closed) ?? false)) : []
  const codeElsewhere = holding.length > 0
  // and the text, which names little code itself, sends the agent there for it ("Vendor syntax is in
  // [references/vendor.md]"): the code is kept out of the skill on purpose, loaded when needed (a note)
  const routed = codeLines.length <= 3 && holding.some((r) => ROUTES_CODE.test(sentencesOf(renderedLine(doc, r.ref.line)).find((x) => x.includes(r.ref.written)) ?? doc.split.lines[r.ref.line - 1] ?? ""))
  const severity: Severity = teaches && !codeElsewhere ? "major" : routed ? "info" : teaches || shapesOutput || runsUnshown ? "minor" : skillLike ? "info" : "minor"
  // nothing it needs shown, and samples in another form (blockquotes, versions side by side, the exact commands)
  if (severity === "info" && (commandRows >= 2 || workedSamples(doc).length > 0)) {
    o.note("examples shown inline: blockquoted samples, a table of versions side by side or of the exact commands")
    return
  }
  o.issue(
    "missing",
    severity,
    bodyStart(doc),
    teaches && codeElsewhere
      ? "No examples in the document of the code, commands or format it teaches: only the files it links show code"
      : teaches
      ? "No examples of the code, commands or format it teaches: no code block, example section or example file"
      : shapesOutput
      ? "No example of what it produces: no sample output, code block, example section or example file"
      : runsUnshown
      ? `No example at all: its procedure runs commands (${ran.slice(0, 3).map((c) => `\`${c.text}\``).join(", ")}) but no code block, example section, example file or sample shows one in use`
      : inline > 0
      ? `No worked example: only ${inline} inline sample(s) or passing mention(s) like "e.g."`
      : "No examples: no code block, example section or example file",
    "Add a short '## Examples' section with a realistic input and the expected output or command."
  )
  o.deduct(severity === "major" ? 70 : 40, "no worked example")
}

/** A verdict label that opens a sample: "Bad:", "**Good:**", "Better:" (one side of a worked pair). */
const VERDICT = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:good|bad|better|worse|wrong|right)(?:\s+(?:example|version|phrasing|prompt|reply|answer|comment|output))?\s*(?::\s*(?:\*\*|__)?|(?:\*\*|__)\s*:?)\s*(.*)$/i

/**
 * Lines that label a sample with a verdict, the sample following on the line (a quote, code, a
 * blockquote) or opening the next one: "Bad: \"A mixed model showed …\"", "**Good:**⏎> Possible lost
 * update …". The pair shows the format as an example section would.
 */
const judgedSamples = (doc: Doc): Array<number> => {
  const lines = doc.split.lines
  const out: Array<number> = []
  for (const [n] of doc.prose) {
    const m = VERDICT.exec(lines[n - 1]!)
    if (!m) continue
    const rest = m[1]!.trim()
    let next = n + 1
    while (next <= lines.length && lines[next - 1]!.trim() === "") next++
    const following = lines[next - 1] ?? ""
    if (/^["“'`>]/.test(rest) || (rest === "" && (/^\s*(?:>|```|~~~)/.test(following) || doc.md.inCode[next] === true))) out.push(n)
  }
  return out
}

/**
 * Code the judged samples show in use, so no block is wanted for it: with a sample judged Good or
 * Bad, code written out in use on two lines or more (`v = get(); v += 1; set(v)`), the names around
 * it (`sync.Once`, `putIfAbsent`) being what it recommends, as a cheat sheet's rows do; or, in a skill
 * that writes no code, a Good and a Bad at least that hold inline code themselves ("Bad:
 * `alt=\"image\"`", a hand-off message naming `--since`): that code is part of what it teaches.
 */
const shownInUse = (doc: Doc, judged: ReadonlyArray<number>, snippets: number): boolean => {
  const judgedCode = judged.filter((n) => /`[^`]+`/.test(doc.split.lines[n - 1] ?? "")).length
  return (judged.length > 0 && snippets >= 2) || (judged.length >= 2 && judgedCode >= 1 && !needsOf(doc).writesCode)
}

/** The example files the document links and the bundle has: a dangling link to `examples/walkthrough.md` shows nothing. */
const exampleFilesOf = (ctx: CheckContext, resolved: ReadonlyArray<ResolvedRef>) => {
  const absent = new Set(resolved.filter((r) => r.status === "missing" || r.status === "marked").map((r) => r.ref))
  return ctx.doc.refs.filter((r) => /example|sample|template/i.test(r.path) && !absent.has(r))
}

/**
 * A labelled example worked out in prose, with its numbers ("Example: buy 100 XYZ at $50 (Jan 5). Sell
 * 100 at $40 …"): concrete, with twelve words and three numbers at least in its paragraph.
 */
const workedOut = (doc: Doc, line: number): boolean => {
  const text = plainText(renderedLine(doc, line))
  return text.split(/\s+/).length >= 12 && (text.match(/\d+(?:[.,]\d+)*/g) ?? []).length >= 3
}

/**
 * An example file the text sends the agent to where it needs it: a skill whose procedure is to open the
 * right one of them (a router); a template linked from the section that defines the output ("## Output:
 * use templates/report.md"), where the format lives; a list of the bundle's files ("## Bundled files"),
 * an index; a template the sentence linking it has the agent print, copy or fill in ("Print the
 * datasheet from templates/…"), a form to use, not an example to learn from.
 */
const routedTo = (doc: Doc, r: Doc["refs"][number]): boolean => {
  const section = headingAbove(doc, r.line)?.text ?? ""
  const sentence = sentencesOf(unitText(doc, r.line)).find((x) => x.includes(r.written)) ?? ""
  return needsOf(doc).procedure.some(([a, b]) => a <= r.line && r.line <= b) || SECTION_TOPICS.outputs.test(section) || REFERENCE_TITLE.test(section) ||
    (/template/i.test(r.path) && (USES_TEMPLATE.test(plainText(sentence)) || MADE_FROM.test(sentence.slice(0, sentence.indexOf(r.written)))))
}

/** An output said to be made from the file linked next: "`survey-plan.md`, filled in from [templates/…]", "copied from `templates/…`". */
const MADE_FROM = /\b(?:fill(?:ed)?\s+(?:in|out)|cop(?:y|ied)|buil[dt]|start(?:ed)?|made|generated)\s+from\s*[[`(]*$/i

/**
 * Coverage (docs/rubrics.md): how much of a worked example the text itself shows, though it may need
 * none. `whole` counts the blocks, example sections and example tags; `labels` the labelled samples.
 */
const exampleCoverage = (o: Out, doc: Doc, { whole, labels, files }: { whole: number; labels: ReadonlyArray<number>; files: number }) => {
  // none at all: samples only inline, in passing or in linked files
  if (whole + labels.length === 0) {
    o.short("missing", 10, "no worked example in the text itself (a code block, an example section or a labelled sample)")
  }
  // examples only as labelled lines in the prose ("Example: a 500-gal tank …", "for example: …"): none
  // stands apart where it can be read whole, as a block, a section ("## Before and after"), a file or a
  // label on a line of its own ("Example:", "**Output:**", "**Bad**" over what it labels) does. Less
  // missing than no example at all, so the same rule (SK-EX-MISSING: turned off, never short; the
  // apply adds a whole one)
  const standsApart = headingMatches(doc, PAIR_TITLE).length > 0 || labels.some((n) => plainText(doc.split.lines[n - 1]!).split(/\s+/).length <= 4)
  if (whole + files === 0 && labels.length > 0 && !standsApart) {
    o.short("missing", 3, "examples only as labelled lines in the prose; none stands apart in a code block, an example section or an example file", RUBRIC_VERSION_2026_11_29_3)
  }
}

export const examples = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("examples", ctx.disabledRules)
  const { doc, artifactType } = ctx
  const blocks = doc.md.codeBlocks.filter((b) => b.closed)
  const exampleHeadings = headingMatches(doc, SECTION_TOPICS.examples)
  // a bold "Before" / "After" label opens one side of a worked pair, as "Input:" does; a label on a line
  // of its own names what the samples below it are ("**Example questions:**", "Example output:")
  const labels = proseMatches(doc, /(^\s*(\*\*|__)?\s*(examples?|for example|sample|usage examples?|input|output)\b\s*[:*])|<(example|good|bad)\b|^\s*(\*\*|__)(before|after)[.:]?(\*\*|__)|^\s*(\*\*|__)?(examples?|sample)\s+[a-z][\w-]*\s*(:\s*(\*\*|__)?|(\*\*|__)\s*:)\s*$/i)
  const judged = judgedSamples(doc)
  labels.push(...judged)
  // the document's links resolved once: the example files, and the files holding the code it teaches
  const resolved = resolveRefs(ctx)
  const exampleFiles = exampleFilesOf(ctx, resolved)
  const weak = proseMatches(doc, /\b(e\.g\.|for example|for instance|such as)/i)
  // inline examples: a quoted sample of two words or more ("I'm using the X skill"), a before/after pair
  const quoted = proseMatches(doc, /"[^"\s][^"]*\s[^"]*"|“[^”]+\s[^”]+”|\b(before|after|good|bad|input|output)\s*:/i)
  const strong = blocks.length + exampleHeadings.length + labels.length + exampleFiles.length
  // code or a format taught in the text with not one block (or example tag block) that shows it; commands
  // written out in full in inline code (`gh pr checks 123 --json …`) are shown already, but library calls are not
  // a table in an example section (learner and reply side by side) shows its samples as a block does
  const exampleTable = exampleHeadings.some((h) => sectionHas(doc, h, /^\s*\|/))
  const taught = blocks.length === 0 && doc.exampleBlocks.length === 0 && !exampleTable ? teaching(doc) : NOTHING_TAUGHT
  const shownInline = taught.commands.length + taught.snippets.length
  // a CLI skill shows its commands with a few field names around them; a library skill names calls it never shows
  // a cheat sheet that writes out statements on three lines or more shows its code as a CLI skill shows
  // its commands: the statements are shown, not named, and only the other code lines are names
  const named = taught.code.filter((n) => !taught.snippets.includes(n)).length
  const codeLines = shownInline >= 2 && (taught.code.length <= shownInline || (taught.snippets.length >= 3 && named <= shownInline))
    ? []
    : [...new Set([...taught.code, ...(shownInline < 2 ? taught.commands : [])])].sort((a, b) => a - b)
  // a slash command or AGENTS.md names its commands inline by custom; a skill or workflow should show them
  const teachesCodeWithoutBlock = codeLines.length >= 2 && (artifactType === "skill" || artifactType === "workflow") && !shownInUse(doc, judged, taught.snippets.length)
  if (strong > 0 && teachesCodeWithoutBlock) {
    o.issue(
      "no_code_example",
      exampleFiles.length > 0 ? "minor" : "major",
      codeLines[0]!,
      `It teaches commands, code or a format (lines ${codeLines.slice(0, 6).join(", ")}${codeLines.length > 6 ? ", …" : ""}) but shows none in a code block`,
      "Add fenced examples of what it teaches: the exact command lines, a code sample, or the format filled in."
    )
    o.deduct(exampleFiles.length > 0 ? 25 : 50, "teaches code without a code block")
  }
  // a sample of a document is more than a quoted phrase: a long quote, a blockquote, a before/after pair
  const sample = [...proseMatches(doc, /"[^"]*(?:\s[^"\s]+){5,}[^"]*"|“[^”]*(?:\s[^”\s]+){5,}[^”]*”|^\s*>\s+\S|\b(before|after|input|output)\s*:/i), ...outputWording(doc), ...workedSamples(doc)]
  // table rows giving the exact command for a task (`| one package | \`make test PKG=x\` |`) show it in use
  const commandRows = taught.commands.filter((n) => /^\s*\|/.test(doc.split.lines[n - 1] ?? "")).length
  if (strong === 0) noExampleAtAll(o, ctx, { inline: weak.length + quoted.length, codeLines, sample, commandRows, resolved })
  if (blocks.length === 0 && exampleHeadings.length === 0 && labels.length === 0 && exampleFiles.length > 0 && !teachesCodeWithoutBlock) {
    // the examples live only in other files: the agent sees their shape only after opening one, unless
    // the text sends it to them where it needs them
    const routed = exampleFiles.some((r) => routedTo(doc, r))
    // a sample in the text itself (a long quote, a blockquote, a before/after pair) shows the shape
    // already; a quoted phrase or an "e.g." in passing does not
    const inlineSamples = sample.length > 0
    o.issue(
      "only_in_files",
      routed || inlineSamples ? "info" : "minor",
      doc.refs.find((r) => exampleFiles.includes(r))?.line ?? bodyStart(doc),
      `The examples are only in other files (${exampleFiles.slice(0, 3).map((r) => r.path).join(", ")}); the document shows none`,
      "Show one short example inline (a fenced block), and keep the files for the rest."
    )
    o.deduct(20, "examples only in other files")
  }
  if (strong > 0 && blocks.length === 0 && !labels.some((n) => workedOut(doc, n)) && !doc.exampleBlocks.some((b) => b.end - b.start >= 2) && exampleFiles.length === 0 && commandLines(doc).length === 0 && quoted.length === 0 && shownInline === 0 && !sample.some((n) => /^\s*>\s/.test(doc.split.lines[n - 1] ?? ""))) {
    o.issue(
      "no_concrete_example",
      "minor",
      exampleHeadings[0]?.line ?? labels[0] ?? bodyStart(doc),
      "Examples are named but none is concrete: no code block, command or example file",
      "Show at least one complete sample (a fenced code block with the exact input and output, or an examples/ file)."
    )
    o.deduct(15, "no concrete example")
  }
  exampleCoverage(o, doc, { whole: blocks.length + exampleHeadings.length + doc.exampleBlocks.length, labels, files: exampleFiles.length })
  const bare = blocks.filter((b) => b.info === "")
  for (const b of bare.slice(0, 5)) {
    o.issue(
      "no_language",
      "info",
      b.startLine,
      "A code block without a language tag",
      "Add the language after the opening fence (```bash, ```python, ```text) so it renders and reads unambiguously.",
      b.endLine
    )
  }
  o.deductEach(bare.length, 2, 10, "code blocks without a language tag")
  if (strong > 0) {
    o.note(
      `${blocks.length} code block(s), ${exampleHeadings.length} example section(s), ${labels.length} labelled example(s), ${exampleFiles.length} example file reference(s)`
    )
  }
  return o.done()
}
