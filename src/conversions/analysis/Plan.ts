/**
 * The block plan (`planBlocks`): which source ranges become which rubr_flow blocks, in document order
 * (identity, inputs, steps, outputs, guardrails, failure handlers, evals), with proposed ids, the
 * inputs and outputs each step uses or produces, each handler's step and resume point, and the
 * content lines no planned block covers.
 */
import { uncovered } from "./Mapping.js"
import type { AnalyzedExample, AnalyzedStep, FileAnalysis, StepOrigin, UnmappedRange } from "./Model.js"
import type { SourceAnalysis } from "./Sources.js"
import { cap, idFrom, lowerFirst, sentence, splitSentences, stripEnd, validId } from "./Text.js"

interface PlannedBase {
  readonly path: string
  readonly lineStart: number
  readonly lineEnd: number
}

export interface PlannedIdentity extends PlannedBase {
  readonly kind: "identity"
  readonly id: null
  readonly name: string
  readonly description: string
  readonly whenToUse: string
}

export interface PlannedInput extends PlannedBase {
  readonly kind: "input"
  readonly id: string
  readonly description: string
  readonly required: boolean
}

export interface PlannedStep extends PlannedBase {
  readonly kind: "step"
  readonly id: string
  readonly title: string
  readonly action: string
  readonly statedCheck: string | null
  readonly commands: ReadonlyArray<string>
  readonly uses: ReadonlyArray<string>
  readonly produces: ReadonlyArray<string>
  readonly onFailure: string | null
  readonly origin: StepOrigin
}

export interface PlannedOutput extends PlannedBase {
  readonly kind: "output"
  readonly id: string
  readonly description: string
  readonly producedBy: string | null
}

export interface PlannedGuardrail extends PlannedBase {
  readonly kind: "guardrail"
  readonly id: null
  readonly polarity: "must" | "never"
  readonly text: string
}

export interface PlannedFailure extends PlannedBase {
  readonly kind: "failure_handling"
  readonly id: string
  readonly when: string
  readonly then: string
  readonly resumeAt: string | null
  /** the step the handler belongs to (its `on_failure`), null for a flow-wide handler */
  readonly stepId: string | null
}

export interface PlannedEval extends PlannedBase {
  readonly kind: "eval"
  readonly id: string
  readonly name: string
  readonly exampleKind: AnalyzedExample["kind"]
  readonly title: string
  readonly excerpt: string
  readonly good: string | null
  readonly bad: string | null
  /** the step the example illustrates, when it sits inside one */
  readonly stepId: string | null
}

export type PlannedBlock = PlannedIdentity | PlannedInput | PlannedStep | PlannedOutput | PlannedGuardrail | PlannedFailure | PlannedEval

export interface BlockPlan {
  /** identity, inputs, steps (source by source, in line order), outputs, guardrails, failure handlers, evals */
  readonly blocks: ReadonlyArray<PlannedBlock>
  /** content lines no block covers */
  readonly unmapped: ReadonlyArray<UnmappedRange>
}

const wordRe = (w: string) => new RegExp(`(^|[^\\w-])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([^\\w-]|$)`, "i")

/** A step of the plan: the source step, its file, its proposed id and its stated number. */
interface Numbered {
  readonly f: FileAnalysis
  readonly st: AnalyzedStep
  readonly id: string
  readonly number: number | null
}

/** The step of `f` holding `line`, if any: the step a handler, output or example belongs to. */
const stepAt = (steps: ReadonlyArray<Numbered>, f: FileAnalysis, line: number) =>
  steps.find((x) => x.f === f && line >= x.st.lineStart && line <= x.st.lineEnd) ?? null

/** The identity block: name, description and when to use, from the lead file (the first described one). */
const identityOf = (analysis: SourceAnalysis): PlannedIdentity | null => {
  const files = analysis.files
  const lead = files.find((f) => f.frontmatter.description !== null) ?? files.find((f) => f.title !== null) ?? files[0]
  if (!lead) return null
  const fileName = idFrom(lead.path.split("/").pop() ?? "", 8)
  const fromTitle = files.length === 1 && lead.title ? idFrom(lead.title.text, 8) : ""
  const name = lead.frontmatter.name ?? (fromTitle !== fileName ? fromTitle : "")
  const fallbackName = idFrom(analysis.bundleName, 8) || idFrom(lead.path.replace(/\.[^.]+$/, ""), 8) || "procedure"
  const openingSentence = lead.opening ? (splitSentences(lead.opening.text).slice(0, 2).join(" ")) : ""
  const description = files.length > 1 && lead.frontmatter.description === null
    ? `The combined procedure of ${files.map((f) => f.path).join(", ")}${openingSentence !== "" ? `: ${lowerFirst(openingSentence)}` : "."}`
    : lead.frontmatter.description ?? (openingSentence || (lead.title ? `${lead.title.text}.` : `The procedure in ${lead.path}.`))
  const when = files.map((f) => f.whenToUse).find((w) => w !== null) ?? null
  const whenToUse = when?.text ?? `Use when the task is to ${lowerFirst(stripEnd(description))}.`
  const ranges = [
    lead.frontmatter.lineEnd > 0 ? [lead.frontmatter.lineStart, lead.frontmatter.lineEnd] : null,
    lead.title ? [lead.title.line, lead.title.line] : null,
    lead.opening ? [lead.opening.lineStart, lead.opening.lineEnd] : null
  ].filter((r): r is Array<number> => r !== null)
  return {
    kind: "identity",
    id: null,
    path: lead.path,
    lineStart: ranges.length > 0 ? Math.min(...ranges.map((r) => r[0]!)) : 1,
    lineEnd: ranges.length > 0 ? Math.max(...ranges.map((r) => r[1]!)) : Math.max(1, Math.min(lead.lines, 1)),
    name: (name !== "" ? name : fallbackName).slice(0, 100),
    description: sentence(description),
    whenToUse
  }
}

const inputsOf = (files: ReadonlyArray<FileAnalysis>): Array<PlannedInput> => {
  const inputs: Array<PlannedInput> = []
  for (const f of files) {
    for (const i of f.inputs) {
      inputs.push({ kind: "input", id: i.id, path: f.path, lineStart: i.lineStart, lineEnd: i.lineEnd, description: i.description, required: i.required })
    }
  }
  return inputs
}

/** Every source step in order, with a proposed id (unique by position when its title gives none). */
const numberedSteps = (files: ReadonlyArray<FileAnalysis>): Array<Numbered> => {
  const steps: Array<Numbered> = []
  for (const f of files) for (const p of f.procedures) for (const st of p.steps) steps.push({ f, st, id: validId(idFrom(st.title), `step-${steps.length + 1}`), number: st.number })
  return steps
}

/** The failure handlers, each with the step it belongs to and where it resumes. */
const failuresOf = (files: ReadonlyArray<FileAnalysis>, steps: ReadonlyArray<Numbered>): Array<PlannedFailure> => {
  const failures: Array<PlannedFailure> = []
  for (const f of files) {
    for (const fl of f.failures) {
      const owner = stepAt(steps, f, fl.lineStart)
      let resumeAt: string | null = null
      if (fl.resumeStepNumber !== null) {
        const target = steps.find((x) => x.f === f && x.number === fl.resumeStepNumber) ?? (fl.resumeStepNumber >= 1 ? steps.filter((x) => x.f === f)[fl.resumeStepNumber - 1] : undefined)
        resumeAt = target ? target.id : null
      } else if (fl.resumeSameStep && owner) {
        resumeAt = owner.id
      }
      const terse = fl.when.split(/\s+/).length <= 3 && owner !== null
      failures.push({
        kind: "failure_handling",
        id: fl.id,
        path: f.path,
        lineStart: fl.lineStart,
        lineEnd: fl.lineEnd,
        when: terse ? `${fl.when} (at step "${owner.st.title}")` : fl.when,
        then: fl.then,
        resumeAt,
        stepId: owner ? owner.id : null
      })
    }
  }
  return failures
}

/** The outputs, each with the step that produces it. */
const outputsOf = (files: ReadonlyArray<FileAnalysis>, steps: ReadonlyArray<Numbered>): Array<PlannedOutput> => {
  const outputs: Array<PlannedOutput> = []
  for (const f of files) {
    for (const o of f.outputs) {
      const producer = o.stepLine !== null ? stepAt(steps, f, o.stepLine) : null
      outputs.push({ kind: "output", id: o.id, path: f.path, lineStart: o.lineStart, lineEnd: o.lineEnd, description: o.description, producedBy: producer ? producer.id : null })
    }
  }
  return outputs
}

/** The step blocks: each with the inputs and earlier outputs it uses, what it produces and its own handler. */
const stepBlocksOf = (
  files: ReadonlyArray<FileAnalysis>,
  steps: ReadonlyArray<Numbered>,
  { failures, inputs, outputs }: {
    readonly inputs: ReadonlyArray<PlannedInput>
    readonly outputs: ReadonlyArray<PlannedOutput>
    readonly failures: ReadonlyArray<PlannedFailure>
  }
): Array<PlannedStep> =>
  steps.map((x, idx) => {
    const text = `${x.st.title}\n${x.st.action}`
    const uses: Array<string> = []
    for (const i of inputs) {
      const name = files.flatMap((f) => f.inputs).find((a) => a.id === i.id)?.name ?? i.id
      const names = [name.replace(/^\$/, ""), i.id].filter((n) => n.length >= 2)
      if (names.some((n) => wordRe(n).test(text)) && !uses.includes(i.id)) uses.push(i.id)
    }
    for (const o of outputs) {
      const pIdx = steps.findIndex((y) => y.id === o.producedBy && y.st === steps.find((z) => z.id === o.producedBy)?.st)
      if (o.producedBy === null || pIdx < 0 || pIdx >= idx) continue
      const head = o.id.split("-").pop() ?? ""
      if (head.length >= 4 && (wordRe(head).test(text) || wordRe(`${head}s`).test(text)) && !uses.includes(o.id)) uses.push(o.id)
    }
    const own = failures.filter((fl) => fl.stepId === x.id && fl.path === x.f.path && fl.lineStart >= x.st.lineStart && fl.lineStart <= x.st.lineEnd)
    return {
      kind: "step",
      id: x.id,
      title: x.st.title,
      path: x.f.path,
      lineStart: x.st.lineStart,
      lineEnd: x.st.lineEnd,
      action: x.st.action,
      statedCheck: x.st.statedCheck,
      commands: x.st.commands,
      uses,
      produces: outputs.filter((o) => o.producedBy === x.id && o.path === x.f.path).map((o) => o.id),
      onFailure: own.length > 0 ? own[0]!.id : null,
      origin: x.st.origin
    }
  })

const guardrailsOf = (files: ReadonlyArray<FileAnalysis>): Array<PlannedGuardrail> =>
  files.flatMap((f) =>
    f.rules.map((r): PlannedGuardrail => ({ kind: "guardrail", id: null, polarity: r.polarity, text: r.text, path: f.path, lineStart: r.lineStart, lineEnd: r.lineEnd }))
  )

/** The evals: every example but a bare code block, numbered in order, with the step it illustrates. */
const evalsOf = (files: ReadonlyArray<FileAnalysis>, steps: ReadonlyArray<Numbered>): Array<PlannedEval> => {
  const evals: Array<PlannedEval> = []
  let evalN = 0
  for (const f of files) {
    for (const e of f.examples) {
      if (e.kind === "code") continue
      evalN++
      const owner = stepAt(steps, f, e.lineStart)
      const name = e.kind === "good_bad"
        ? `${owner ? owner.st.title : e.title}: the good example, not the bad one`
        : e.kind === "section"
          ? e.title.replace(/^examples?\s*[:\-–—]\s*/i, "") || "Worked example"
          : `Usage: ${e.title}`
      evals.push({
        kind: "eval",
        id: `eval-${evalN}`,
        name: cap(name),
        path: f.path,
        lineStart: e.lineStart,
        lineEnd: e.lineEnd,
        exampleKind: e.kind,
        title: e.title,
        excerpt: e.excerpt,
        good: e.good,
        bad: e.bad,
        stepId: owner ? owner.id : null
      })
    }
  }
  return evals
}

export const planBlocks = (analysis: SourceAnalysis): BlockPlan => {
  const files = analysis.files
  const identity = identityOf(analysis)
  const inputs = inputsOf(files)
  // steps, with the failure handlers, outputs and uses that belong to them
  const steps = numberedSteps(files)
  const failures = failuresOf(files, steps)
  const outputs = outputsOf(files, steps)
  const blocks: Array<PlannedBlock> = [
    ...(identity ? [identity] : []),
    ...inputs,
    ...stepBlocksOf(files, steps, { failures, inputs, outputs }),
    ...outputs,
    ...guardrailsOf(files),
    ...failures,
    ...evalsOf(files, steps)
  ]
  // coverage
  const unmapped: Array<UnmappedRange> = []
  for (const f of files) {
    const ranges = blocks.filter((b) => b.path === f.path).map((b) => [b.lineStart, b.lineEnd] as const)
    unmapped.push(...uncovered(f, ranges))
  }
  return { blocks, unmapped }
}
