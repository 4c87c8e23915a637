/** Steps, commands, constraints, output format, inputs, verification and failure handling (examples: Examples.ts). */
import { getField } from "../../../markdown/Frontmatter.js"
import { plainText } from "../../../markdown/Markdown.js"
import { resolvePath } from "../../../markdown/Paths.js"
import type { Doc } from "../../../markdown/Document.js"
import { contradictions, triggerContradictions } from "./Consistency.js"
import { commandLines, isImperative, orderedLists } from "../../../markdown/Instructions.js"
import { PAIR_TITLE, SECTION_TOPICS, sectionRole, STEP_HEADING, stepNumberOf } from "../../../markdown/Sections.js"
import { explicitCheck, FAILURE_LINE, needsOf, recipeBook, SHELL } from "./Needs.js"
import { hazardLines } from "./Safety.js"
import { flattenedSteps } from "./Flattened.js"
import { isNounPhrase } from "./Words.js"
import { bodyStart, type CheckContext, type CheckOutcome, headingAbove, headingMatches, Out, proseMatches, quote } from "./Common.js"

// ---------------------------------------------------------------- steps

/** Artifact types that are procedures by definition. */
const PROCEDURE_TYPES: ReadonlySet<string> = new Set(["workflow", "rubr_flow", "command"])

/** The steps of a document in every form they take, and how many there are in all. */
const stepsFound = ({ doc, artifactType }: CheckContext) => {
  const lists = orderedLists(doc)
  const items = lists.flatMap((l) => l.items)
  const stepHeadings = doc.md.headings.filter((h) => STEP_HEADING.test(h.text))
  let yamlSteps = 0
  if (artifactType === "rubr_flow" || artifactType === "workflow") {
    const stepsKey = doc.split.lines.findIndex((l) => /^\s*"?steps"?\s*:/.test(l))
    if (stepsKey >= 0) yamlSteps = doc.split.lines.slice(stepsKey + 1).filter((l) => /^\s*-\s+\S|^\s*\{\s*"/.test(l)).length
  }
  const checklist = doc.md.listItems.filter((i) => !i.ordered && /^\[[ xX]\]\s/.test(i.text)).length
  const needs = needsOf(doc)
  // steps in any form count: bold step labels, a numbered list inside a code block, a procedure in prose,
  // sections headed by their actions, a table of numbered steps
  const otherForms = needs.steps.bold + needs.steps.inCode + (needs.steps.prose ? 3 : 0) + needs.steps.actions + needs.steps.table + needs.steps.tree + needs.steps.entries
  const total = items.length + stepHeadings.length + yamlSteps + checklist + otherForms
  return { lists, items, stepHeadings, checklist, needs, total }
}

/** A document with no steps at all: instructions as bullets, a reference (which needs none), or nothing to follow. */
const noSteps = (o: Out, doc: Doc, reference: boolean, required: boolean, critical: boolean, procedureType: boolean): CheckOutcome => {
  const imperativeBullets = doc.md.listItems.filter(
    (i) => !i.ordered && !doc.md.inCode[i.line] && !/^\[[ xX]\]\s/.test(i.text) && isImperative(i.text) === true
  )
  if (imperativeBullets.length >= 3) {
    // guidance written as bullets of instructions: concrete, but in no stated order. For a command, a
    // workflow or a rubr_flow the order is the point; in a skill, an agent or a prompt bullets are as
    // often inputs, alternatives, checks or rules, and the sections carry the order (a note)
    o.issue(
      "unordered",
      critical ? "major" : procedureType ? "minor" : "info",
      imperativeBullets[0]!.line,
      critical || procedureType
        ? `No numbered steps: the ${imperativeBullets.length} instructions are bullets, so the order of the work is left to the agent`
        : `No numbered steps: ${imperativeBullets.length} instructions are bullets; where their order matters, number them`,
      "Where the order matters, turn the bullets into a numbered procedure ('1. Read ...', '2. Run ...')."
    )
    o.deduct(critical ? 50 : required ? 25 : 15, "instructions as bullets, no ordered procedure")
    return o.done()
  }
  if (reference && !critical) {
    // a reference (library calls, API facts) has no procedure of its own to number
    o.note("no numbered steps: a reference, which needs none")
    return o.done()
  }
  // the commands it runs: lines of its shell blocks, and known tools in code
  const run = new Set<string>(commandLines(doc).map((c) => `${c.line}:${c.text}`))
  for (const b of doc.md.codeBlocks) {
    if (!SHELL.test(b.info.split(/\s+/)[0] ?? "")) continue
    for (let n = b.startLine + 1; n < b.endLine; n++) if (/^\s*[^\s#]/.test(doc.split.lines[n - 1] ?? "")) run.add(`${n}:${doc.split.lines[n - 1]!.trim()}`)
  }
  // a task (its inputs, outputs, examples or checks have sections) has work to order, even with no commands
  // (the title names the skill, not a section: "# Closing wire verification" is no verification section)
  const task = doc.md.headings.some((h, i) => !(i === 0 && h.level === 1) && ["verification", "outputs", "examples", "procedure", "quick_start", "inputs"].includes(sectionRole(h.text)))
  // a skill that writes a document and gives its parts in order ("## The parts, in order", "## Structure",
  // "## Template" over the report's skeleton) orders the work by the document's shape: writing it is
  // filling those parts in (a note)
  const shaped = needsOf(doc).producesDocument && doc.md.headings.some((h) => /\b(?:parts|structure|sections|outline|order|template|skeleton)\b/i.test(plainText(h.text)))
  // a skill that runs nothing and shows the work in sections of worked examples ("## Examples" of
  // input and output, "## Example 2: Live, after a segment ran long", "## Good / bad" versions): a
  // judgement, a calculation or a wording the examples carry out; steps are a nicety there (a note)
  const worked = run.size === 0 && doc.md.headings.some((h) => sectionRole(h.text) === "examples" || PAIR_TITLE.test(plainText(h.text)))
  if (!procedureType && ((run.size <= 1 && (!task || shaped)) || worked)) {
    // guidance in prose that runs a command at most (how to delegate, how to act in a user's browser): the
    // judgement it teaches has no order to number; blind authors wrote four such skills, all clear
    o.issue(
      "missing",
      "info",
      bodyStart(doc),
      worked
        ? "No numbered steps: it runs nothing, and its worked examples show the work; number the steps if the work has an order"
        : shaped && task
        ? "No numbered steps: the document's parts, given in order, order the work; number the steps if there is more to it"
        : "No numbered steps: guidance in prose, which runs a command at most; number the steps if the work has an order",
      "Where the work has an order, add a numbered procedure ('1. Read ...', '2. Run ...')."
    )
    return o.done()
  }
  o.issue(
    "missing",
    critical ? "critical" : required ? "major" : "minor",
    bodyStart(doc),
    "No numbered steps: the agent has to infer the procedure",
    "Add a numbered procedure ('1. Read ...', '2. Run ...'), one action per step, in the order to perform them."
  )
  o.deduct(critical ? 90 : required ? 70 : 40, "no numbered procedure")
  return o.done()
}

/**
 * A skill that wraps one script: every command in its code blocks runs the same bundled script
 * (`bash scripts/reset-dev-db.sh`, `… --dry-run`), linked from the text or a file of the bundle. The
 * script holds the order; the text around it says when to run it and what to do when it refuses.
 */
const oneScript = ({ doc, bundle, rootDir }: CheckContext): boolean => {
  const inBlocks = commandLines(doc).filter((c) => doc.md.inCode[c.line])
  const script = (t: string) => /(?:^|[\s/])((?:\.\/)?scripts\/[\w./-]+\.(?:sh|py|js|mjs|ts|rb|ps1|pl))\b/.exec(t)?.[1]?.replace(/^\.\//, "")
  const named = new Set(inBlocks.map((c) => script(c.text)))
  const only = [...named][0]
  return inBlocks.length > 0 && named.size === 1 && only !== undefined &&
    (doc.refs.some((r) => r.path.replace(/^\.\//, "") === only) || bundle.has(resolvePath(rootDir, only) ?? ""))
}

/** Imperative mood: each numbered step should start with the action the agent performs. */
const imperativeSteps = (o: Out, items: ReadonlyArray<{ readonly line: number; readonly text: string }>) => {
  let judged = 0
  let imperative = 0
  const weak: Array<{ line: number; text: string }> = []
  for (const it of items) {
    const v = isImperative(it.text)
    // a noun phrase ("The pod, its status, and the reason", "The cost ceiling: how many terabytes") names
    // a thing the list enumerates (an input, a part of the report), not a step written badly
    if (v === null || (v === false && isNounPhrase(it.text))) continue
    judged++
    if (v) imperative++
    else weak.push(it)
  }
  if (judged >= 3) {
    const ratio = imperative / judged
    for (const w of weak.slice(0, 5)) {
      o.issue(
        "not_imperative",
        "info",
        w.line,
        `The step ${quote(plainText(w.text))} does not start with an action verb`,
        "Start each step with the verb the agent should perform (\"Run ...\", \"Read ...\", \"Ask ...\")."
      )
    }
    if (ratio < 0.7) o.deduct((0.7 - ratio) * 60, `${weak.length} of ${judged} steps are not imperative`, "not_imperative")
  }
  return { judged, imperative }
}

/** Numbering: a gap or a step out of order in a numbered list, and a list too long to follow. */
const numbering = (o: Out, lists: ReturnType<typeof orderedLists>) => {
  let gaps = 0
  for (const l of lists) {
    const ns = l.items.map((i) => i.number)
    if (ns.every((n) => n === ns[0])) continue
    for (let i = 1; i < ns.length; i++) {
      if (ns[i] !== ns[i - 1]! + 1) {
        gaps++
        o.issue(
          "numbering_gap",
          "minor",
          l.items[i]!.line,
          ns[i]! > ns[i - 1]! + 1
            ? `Step numbering jumps from ${ns[i - 1]} to ${ns[i]}: a step may be missing`
            : `Step ${ns[i]} follows step ${ns[i - 1]}: the numbering is out of order`,
          "Check that no step was lost, then number the steps consecutively.",
          l.items[i]!.line
        )
        break
      }
    }
    // a long enumeration of things (the 18 identifiers, the 31 procedures) is not a long procedure
    const actions = l.items.filter((i) => isImperative(i.text) === true).length
    if (l.items.length > 12 && actions >= l.items.length / 2) {
      o.issue(
        "long_list",
        "minor",
        l.items[0]!.line,
        `A single list of ${l.items.length} steps is hard to follow`,
        "Split it into phases of at most 7-10 steps with a heading each.",
        l.items[l.items.length - 1]!.line
      )
      o.deduct(10, "a list of more than 12 steps")
    }
  }
  o.deductEach(gaps, 15, 30, "gaps in step numbering", "numbering_gap")
}

/** "Step N" headings and references: a gap in numbered headings, and a reference to a step that does not exist. */
const stepReferences = (o: Out, doc: Doc, stepHeadings: ReadonlyArray<{ readonly line: number; readonly text: string }>) => {
  // the numbered parts a "Step N" can name: labelled step headings, and a run of two or more bare
  // numbered sibling headings ("## 1. Inventory", "## 2. Create the new key"), which number the steps
  const bare = new Set(numberedHeadingRuns(doc).filter((r) => r.label === "Section" && r.headings.length >= 2).flatMap((r) => r.headings.map((h) => h.line)))
  const numbered = stepHeadings.flatMap((h) => {
    const title = plainText(h.text)
    const labelled = STEP_HEADING.exec(title)?.groups?.["label"] !== undefined
    const n = labelled || bare.has(h.line) ? stepNumberOf(title) : null
    return n === null ? [] : [{ h, n }]
  })
  // any numbered run of sibling headings ("### 2. Splitting", "### Issue 3:", "### Use Case 4") counts
  // on: a number skipped between two of them means a section was lost or never written
  for (const gap of headingGaps(doc)) {
    o.issue(
      "heading_gap",
      "minor",
      gap.line,
      gap.from === null
        ? `${gap.label} ${gap.to} is the first of its numbered headings: ${gap.label.toLowerCase()}${gap.to === 2 ? " 1 is" : gap.to === 3 ? "s 1 and 2 are" : `s 1 to ${gap.to - 1} are`} missing`
        : `${gap.label} ${gap.from} is followed by ${gap.to}: a section may be missing`,
      "Restore the missing section or renumber."
    )
    o.deduct(15, "gap in numbered headings")
  }
  // without step headings, a numbered list is what a "Step N" names ("go to step 5" in item 2): a body
  // cut after item 3 still sends the reader on to steps it no longer has
  if (numbered.length === 0 && !doc.md.listItems.some((i) => i.ordered && i.number >= 2)) return
  // a "Step N" resolves against every numbered list, step heading and bold step label of the file
  const known = new Set([
    ...numbered.map((x) => x.n),
    ...doc.md.listItems.filter((i) => i.ordered).map((i) => i.number),
    ...doc.md.headings.map((h) => Number(/^(?:\w+\s+)?(\d+)\b/.exec(plainText(h.text))?.[1] ?? NaN)),
    ...doc.prose.map(([, t]) => Number(/^\s*(?:[-*+]\s+)?(?:\*\*|__)(?:step\s*)?(\d+)\b/i.exec(t)?.[1] ?? NaN))
  ])
  const headingSet = new Set(numbered.map((x) => x.h.line))
  // "Base (step 0) is body text": a step 0 that no list or heading numbers is a step of something
  // else (a type scale, a ladder); the file's "step N" does not count the procedure
  if (!known.has(0) && doc.prose.some(([n, t]) => !headingSet.has(n) && /\bstep\s+0\b/i.test(t))) return
  // "Phase 3" or "Stage 3" names a heading of that word, when the file numbers two of them at least
  const labelled = (label: string) => new Set(doc.md.headings.flatMap((h) => {
    const g = STEP_HEADING.exec(plainText(h.text))?.groups
    return g?.["label"]?.toLowerCase() === label ? [Number(g["n"])] : []
  }))
  const parts = new Map(["phase", "stage"].map((l) => [l, labelled(l)] as const).filter(([, ns]) => ns.size >= 2))
  // a file that numbers its steps in "Step N" headings from Step 1 means those by "Step N": an item 4
  // of a list under Step 2 is no Step 4 (a body cut after Step 3 still says "clear sessions (Step 4)");
  // a run that starts late has lost its first heading, which the gap says
  const labelledSteps = labelled("step")
  const steps = labelledSteps.size >= 2 && labelledSteps.has(1) ? labelledSteps : known
  for (const [n, text] of doc.prose) {
    if (headingSet.has(n)) continue
    const named = new Set<string>()
    for (const m of text.matchAll(/\b(step|phase|stage)\s+(\d+)\b/gi)) {
      const label = m[1]!.toLowerCase()
      const within = label === "step" ? steps : parts.get(label)
      if (within === undefined || within.has(Number(m[2]))) continue
      const name = `${label[0]!.toUpperCase()}${label.slice(1)} ${m[2]}`
      // one finding a line for each step it names, however often the line names it
      if (named.has(name)) continue
      named.add(name)
      o.issue("dangling_step_ref", "minor", n, `The text refers to ${name}, which does not exist`, "Point at an existing step or restore the missing one.")
      o.deduct(10, `reference to a missing ${label}`)
    }
  }
}

export const steps = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("steps", ctx.disabledRules)
  const { doc, artifactType } = ctx
  const { lists, items, stepHeadings, checklist, needs, total } = stepsFound(ctx)
  const required = artifactType === "skill" || artifactType === "command" || artifactType === "workflow" || artifactType === "rubr_flow"
  const critical = artifactType === "workflow" || artifactType === "rubr_flow"
  // a numbered procedure written as one paragraph: the steps exist, the agent just cannot tell them apart
  const flat = flattenedSteps(doc)
  for (const f of flat) {
    o.issue(
      "flattened",
      "major",
      f.line,
      `${f.steps.length} numbered steps run together in one paragraph: the agent reads them as one instruction and loses the order`,
      "Put each step on its own line as a numbered list ('1. …', '2. …')."
    )
  }
  o.deductEach(flat.length, 60, 80, "numbered steps run together into a paragraph", "flattened")
  if (flat.length > 0 && total === 0) return o.done()
  if (total === 0 && oneScript(ctx)) {
    o.note("no numbered steps: the work is one bundled script, whose own steps are the procedure")
    return o.done()
  }
  if (total === 0) return noSteps(o, doc, needs.reference || recipeBook(doc), required, critical, PROCEDURE_TYPES.has(artifactType))
  // one or two numbered items under an output heading ("## Output": "1. **Open questions**: every
  // placeholder still unfilled") list the parts of the answer: no procedure, so none too short
  const parts = total === items.length && items.every((i) => sectionRole(headingAbove(doc, i.line)?.text ?? "") === "outputs")
  // so is a short list in a subsection ("### Dependencies need the network": two phases) that is no
  // procedure section: a local enumeration, while the sections above carry the work
  const local = total === items.length && items.every((i) => {
    const h = headingAbove(doc, i.line)
    return h !== undefined && h.level >= 3 && sectionRole(h.text) !== "procedure"
  })
  if (total < 3 && required && !parts && !local) {
    o.issue(
      "too_few",
      "minor",
      items[0]?.line ?? stepHeadings[0]?.line ?? bodyStart(doc),
      `The procedure has only ${total} step(s)`,
      "Break the work into the concrete actions the agent performs, in order."
    )
    o.deduct(15, "very short procedure")
  }
  const { judged, imperative } = imperativeSteps(o, items)
  numbering(o, lists)
  stepReferences(o, doc, stepHeadings)
  if (o.deductions.length === 0) o.note(`${total} steps (${items.length} numbered items, ${stepHeadings.length} step headings, ${checklist} checklist items)${judged > 0 ? `, ${imperative}/${judged} imperative` : ""}`)
  return o.done()
}

/**
 * Runs of numbered sibling headings: the same level, the same label word ("Step", "Phase", "Issue",
 * "Use Case", none for "2. Splitting"), under the same parent heading.
 */
export const numberedHeadingRuns = (doc: Doc): Array<{ label: string; headings: Array<{ line: number; n: number }> }> => {
  const runs = new Map<string, { label: string; headings: Array<{ line: number; n: number }> }>()
  const parents: Array<number> = []
  for (const h of doc.md.headings) {
    parents.length = h.level - 1
    // "2.1 Setup" is a subsection of section 2, not section 2 again
    const m = /^(?:([A-Za-z]+(?: [A-Za-z]+)?)\s+)?(\d{1,2})(?:[.):](?!\d)|\s[-—–]|\s*$)/.exec(plainText(h.text))
    if (m) {
      const key = `${parents.join(">")}|${h.level}|${(m[1] ?? "").toLowerCase()}`
      const run = runs.get(key) ?? { label: m[1] ?? "Section", headings: [] }
      run.headings.push({ line: h.line, n: Number(m[2]) })
      runs.set(key, run)
    }
    parents[h.level - 1] = h.line
  }
  return [...runs.values()]
}

/** Labels that number the parts of a sequence: "Step 2" alone means a step 1 was written, or lost. */
const SEQUENCE_LABEL = /^(?:step|phase|stage|part|task|round|level|tier|option|scenario|pattern|example|use case|case|workflow|module|lesson|chapter|day|week|session|section|issue|problem|rule|principle|tip)$/i

/**
 * Numbered sibling headings that skip a number: a section was lost, or never written. A run that
 * starts after 1 skips the first ones ("Step 2" with no "Step 1"): when it has two headings at least,
 * or one that numbers a sequence ("Step 2", "### 3. Loading"; not "Python 3").
 */
export const headingGaps = (doc: Doc): Array<{ line: number; label: string; from: number | null; to: number }> =>
  numberedHeadingRuns(doc)
    .flatMap((r) => {
      const first = r.headings[0]!
      const sequence = r.headings.length >= 2 || r.label === "Section" || SEQUENCE_LABEL.test(r.label)
      const late = first.n > 1 && sequence ? [{ line: first.line, label: r.label, from: null, to: first.n }] : []
      return [...late, ...r.headings.slice(1).map((h, i) => ({ line: h.line, label: r.label, from: r.headings[i]!.n, to: h.n })).filter((g) => g.to > g.from + 1)]
    })
    .sort((a, b) => a.line - b.line)

// ---------------------------------------------------------------- commands

export const commands = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("commands", ctx.disabledRules)
  const { doc, artifactType } = ctx
  const cmds = commandLines(doc)
  const main = artifactType === "agent"
  if (cmds.length === 0) {
    o.issue(
      "missing",
      main ? "major" : "minor",
      bodyStart(doc),
      "No runnable commands (build, test, lint) in code",
      "List the exact commands in a code block, e.g. ```bash\\nnpm install\\nnpm test\\n```."
    )
    o.deduct(main ? 80 : 40, "no runnable commands")
    return o.done()
  }
  const all = cmds.map((c) => c.text).join("\n")
  if (!/test|pytest|jest|vitest|spec|check/i.test(all)) {
    o.issue("no_test", main ? "major" : "minor", cmds[0]!.line, "No command runs the tests", "Add the exact test command (and how to run a single test).")
    o.deduct(main ? 25 : 10, "no test command")
  }
  if (main && !/lint|eslint|ruff|clippy|fmt|format|prettier|tsc|typecheck|mypy|vet/i.test(all)) {
    o.issue("no_lint", "minor", cmds[0]!.line, "No lint, format or type-check command", "Add the command that checks style and types before committing.")
    o.deduct(10, "no lint command")
  }
  if (main && !/install|build|compile|setup|sync|bootstrap/i.test(all)) {
    o.issue("no_setup", "minor", cmds[0]!.line, "No setup or build command", "Add how to install dependencies and build.")
    o.deduct(10, "no setup command")
  }
  o.note(`${cmds.length} command line(s)`)
  return o.done()
}

// ---------------------------------------------------------------- constraints

/** The lines that state a rule: a boundary in any form (a prohibition, an obligation, "only", asking the user before acting). */
export const ruleLines = (doc: Doc): Array<number> => {
  // an unsafe instruction ("never stop to ask") is not a rule, nor is one that contradicts the procedure
  const unsafe = new Set([...hazardLines(doc), ...contradictions(doc).map((c) => c.dropped.line), ...triggerContradictions(doc).map((t) => t.line)])
  return proseMatches(doc, /\b(do not|don'?t|never|must not|avoid|only|always|must|unless|ask (?:the user|first|before|for (?:approval|permission|confirmation))|confirm with|get (?:explicit )?(?:approval|permission|confirmation))\b/i).filter((n) => !unsafe.has(n))
}

export const constraints = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("constraints", ctx.disabledRules)
  const { doc } = ctx
  const rules = ruleLines(doc)
  const needs = needsOf(doc)
  const sections = headingMatches(doc, SECTION_TOPICS.rules)
  if (rules.length === 0 && sections.length === 0 && !needs.sideEffects && ctx.artifactType === "skill") {
    // nothing it does changes what others share or pay for: boundaries are a nicety, not a gap
    o.note("no explicit rules; it neither pushes, deploys, sends, submits nor deletes anything")
    o.short("missing", 10, "no explicit rule or boundary")
  } else if (rules.length === 0 && sections.length === 0) {
    o.issue(
      "missing",
      "major",
      bodyStart(doc),
      "No explicit rules or boundaries: nothing says what the agent must not do",
      "Add a '## Rules' section: what to always do, what never to do, and when to stop and ask."
    )
    o.deduct(70, "no explicit constraints")
  } else if (rules.length + sections.length < 2) {
    o.issue("few", "info", rules[0] ?? sections[0]?.line ?? bodyStart(doc), "Only one explicit rule", "State the important boundaries explicitly (what never to change, what needs approval).")
    o.deduct(25, "few explicit constraints")
    o.short("few", 5, "a single explicit rule")
  } else if (sections.length === 0 && rules.length < 4) {
    // where the rules sit is the author's choice: a rule inside the step it governs is where it is needed
    o.issue(
      "no_section",
      "info",
      rules[0] ?? bodyStart(doc),
      `The rules are ${rules.length} scattered line(s) and no section collects them`,
      "Gather the boundaries in a '## Rules' section, so the agent finds them in one place."
    )
    o.deduct(15, "no rules section")
  } else {
    o.note(`${rules.length} rule line(s), ${sections.length} rules section(s)`)
  }
  // coverage's last step (a shortfall above, or a finding's cost, comes first: they never stack)
  if (sections.length === 0) o.short("no_section", 3, "no section gathers the rules")
  return o.done()
}

// ---------------------------------------------------------------- output format

export const outputFormat = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("output_format", ctx.disabledRules)
  const { doc } = ctx
  const sections = headingMatches(doc, SECTION_TOPICS.outputs)
  const strong = proseMatches(doc, /\b(output format|respond (with|in)|reply (with|in)|return (a|an|the|only)|format (as|:)|as json|in json|json (object|schema)|markdown table|following (format|template|structure))\b/i)
  const blocks = doc.md.codeBlocks.filter((b) => /^(json|ya?ml|xml|markdown|md|text)$/i.test(b.info))
  const weak = proseMatches(doc, /\b(output|format|summar(y|ize)|report|produce)\b/i)
  if (sections.length + strong.length + blocks.length === 0) {
    o.issue(
      weak.length > 0 ? "vague" : "missing",
      weak.length > 0 ? "minor" : "major",
      weak[0] ?? bodyStart(doc),
      weak.length > 0 ? "The expected output is only mentioned, never specified" : "The expected output is not specified",
      "Add an '## Output' section: the format (markdown, JSON), its sections or schema, and a short template."
    )
    o.deduct(weak.length > 0 ? 30 : 75, "output format not specified")
  } else {
    o.note(`output specified (${sections.length} section(s), ${strong.length} explicit statement(s), ${blocks.length} template block(s))`)
  }
  return o.done()
}

// ---------------------------------------------------------------- inputs

export const inputs = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("inputs", ctx.disabledRules)
  const { doc, artifactType } = ctx
  const vars = proseMatches(doc, /\{\{\s*[\w.-]+\s*\}\}|\$ARGUMENTS|\$\d\b|<(input|document|context|data|query|question|text|user_input|code|request)>/)
  const varsInCode = doc.md.inlineCode.filter((c) => /\{\{\s*[\w.-]+\s*\}\}|\$ARGUMENTS|\$\d\b/.test(c.text)).map((c) => c.line)
  const allVars = [...vars, ...varsInCode]
  const sections = headingMatches(doc, SECTION_TOPICS.inputs)
  const labels = proseMatches(doc, /^\s*(\*\*)?(inputs?|arguments?|parameters?|prereq(uisite)?s?|requires?)(\*\*)?\s*:|^\s*"?inputs"?\s*:/i)
  const hint = doc.fm.closed ? getField(doc.fm, "argument-hint") : undefined
  if (allVars.length + sections.length + labels.length === 0 && !hint) {
    const major = artifactType === "command" || artifactType === "workflow" || artifactType === "rubr_flow"
    o.issue(
      "missing",
      major ? "major" : "minor",
      bodyStart(doc),
      artifactType === "command" ? "The command never uses its arguments ($ARGUMENTS) nor declares any" : "Inputs are not declared",
      artifactType === "command"
        ? "Use $ARGUMENTS (or $1, $2) where the user's input goes, and add `argument-hint:` to the frontmatter."
        : "Add an '## Inputs' section listing what the agent receives (name, format, where it comes from) and what to do when one is missing."
    )
    o.deduct(major ? 65 : 40, "inputs not declared")
    return o.done()
  }
  if (artifactType === "command") {
    const usesArgs = allVars.length > 0
    if (hint && !usesArgs) {
      o.issue("hint_unused", "minor", hint.line, "`argument-hint` is declared but $ARGUMENTS is never used", "Insert $ARGUMENTS where the argument belongs.")
      o.deduct(15, "argument-hint without $ARGUMENTS")
    } else if (usesArgs && !hint) {
      o.issue("no_hint", "info", allVars[0]!, "The command uses arguments but has no `argument-hint`", "Add `argument-hint: <what to pass>` to the frontmatter.")
      o.deduct(5, "no argument-hint")
    }
  }
  o.note(`inputs declared (${sections.length} section(s), ${allVars.length} placeholder(s))`)
  return o.done()
}

// ---------------------------------------------------------------- verification

/**
 * Looking at what the work produced, as a check made by eye: "Look at every PNG", "inspect the
 * rendered slides", "examine each screenshot". The object is an output (an image, a render, a page),
 * not the input or the docs ("look at the existing code" reads, it checks nothing).
 */
const INSPECTS_OUTPUT =
  /\b(?:look at|inspect|examine|eyeball)\s+(?:(?:every|each|all|the|your|all the)\s+)+(?:[\w-]+\s+)?(?:pngs?|images?|renders?|rendered|stills?|screenshots?|outputs?|results?|previews?|slides?|frames?|charts?|plots?|figures?|thumbnails?)\b/i

/** The words of a check: "verify", "test", "done when", "expected output". */
const CHECK_WORDS = /\b(verify|verified|verification|validate|validation|confirm|check|test|tests|assert|done when|success criteria|acceptance criteria|expected (output|result)|definition of done)\b/i

/** The lines that say how to check the work (not a hazard's, not a sample's). */
export const checkLines = (doc: Doc): Array<number> => {
  const unsafe = hazardLines(doc)
  return doc.prose
    .filter(([n, t]) => (CHECK_WORDS.test(t) || INSPECTS_OUTPUT.test(t)) && !unsafe.has(n) && !doc.exampleLines.has(n))
    .map(([n]) => n)
}

export const verification = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("verification", ctx.disabledRules)
  const { doc } = ctx
  const sections = headingMatches(doc, SECTION_TOPICS.verification)
  const lines = checkLines(doc)
  const needs = needsOf(doc)
  if (sections.length === 0 && lines.length === 0 && !needs.fallible && ctx.artifactType === "skill") {
    // a reference, a writing or a thinking skill has no test step to give (a sample's "check your input" is the sample's)
    o.note("no verification step; its procedure runs nothing whose result can be checked")
    o.short("missing", 10, "nothing says how to check the result")
  } else if (sections.length === 0 && lines.length === 0) {
    o.issue(
      "missing",
      "major",
      bodyStart(doc),
      "Nothing says how to verify the work is done",
      "Add a '## Verification' section: the checks or tests to run and the result that counts as success."
    )
    o.deduct(75, "no verification")
  } else if (sections.length === 0 && lines.length < 3 && !lines.some((n) => explicitCheck(doc, n))) {
    // a workflow or a rubr_flow is a procedure by definition: thin verification is a gap there; in a
    // skill it is as often a reference or a guide that needs none (a note)
    o.issue("weak", PROCEDURE_TYPES.has(ctx.artifactType) ? "minor" : "info", lines[0]!, "Verification is only mentioned in passing", "Give verification its own step with concrete success criteria.")
    o.deduct(25, "verification only mentioned in passing")
    o.short("weak", 5, "verification mentioned only in passing")
  } else {
    o.note(`${sections.length} verification section(s), ${lines.length} line(s) on checks`)
  }
  // coverage's last step (a shortfall above, or a finding's cost, comes first: they never stack)
  if (sections.length === 0) o.short("weak", 3, "no section gathers the checks")
  return o.done()
}

// ---------------------------------------------------------------- error handling

/** A step that calls a service ("Call the staging API", "send requests to the webhook"), which can fail or act. */
const CALLS_OUT = /\b(?:call|hit|query|post to|send (?:a |the )?requests? to|submit to|upload to)\s+(?:the\s+|each\s+|every\s+|a\s+)?(?:[\w-]+\s+)?(?:api|apis|endpoints?|service|server|webhook)\b/i

export const errorHandling = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("error_handling", ctx.disabledRules)
  const { doc } = ctx
  const sections = headingMatches(doc, SECTION_TOPICS.failure)
  const unsafe = hazardLines(doc)
  const lines = proseMatches(doc, FAILURE_LINE).filter((n) => !unsafe.has(n))
  const needs = needsOf(doc)
  if (sections.length === 0 && lines.length === 0 && !needs.fallible && ctx.artifactType === "skill") {
    // no command, script or service call in its procedure: nothing fails in a way it must handle
    o.note("no failure handling; its procedure runs no command, script or service")
    o.short("missing", 10, "nothing says what to do when something is missing or goes wrong")
  } else if (sections.length === 0 && lines.length === 0) {
    // a procedure that changes nothing shared (no push, deploy, delete or send, no call to a service;
    // it may write its own output files) leaves nothing half-done when a step fails: the gap is real
    // but smaller (minor)
    const callsOut = doc.prose.some(([n, t]) => needs.procedure.some(([a, b]) => a <= n && n <= b) && CALLS_OUT.test(t))
    const severity = needs.sideEffects || callsOut || ctx.artifactType !== "skill" ? "major" : "minor"
    o.issue(
      "missing",
      severity,
      bodyStart(doc),
      severity === "major" ? "Nothing says what to do when a step fails or information is missing" : "Nothing says what to do when a step fails or information is missing (no step pushes, deploys, deletes, sends or calls a service, so nothing shared is left half-done)",
      "Add what to do on failure: when to retry, when to stop and ask, how to roll back."
    )
    o.deduct(severity === "major" ? 70 : 40, "no failure handling")
  } else if (sections.length === 0 && lines.length < 2) {
    o.issue("weak", PROCEDURE_TYPES.has(ctx.artifactType) ? "minor" : "info", lines[0]!, "Failure handling covers a single case", "Cover the likely failures of each step (missing input, failing command, unclear request).")
    o.deduct(25, "thin failure handling")
    o.short("weak", 5, "failure handling covers a single case")
  } else {
    // (no shortfall for failure cases without a section: they belong in the step that fails)
    o.note(`${sections.length} failure-handling section(s), ${lines.length} line(s)`)
  }
  return o.done()
}
