/**
 * The report notes every converter gets (`assessFlow`), deterministic whichever converter drafted the
 * document: what the source did not say (no failure handling, inputs, outputs, checks, rules or
 * "when to use") and what a reader should still check (derived checks, references to files the
 * conversion lacks, state-changing commands with no confirmation guardrail, unmapped source lines).
 */
import { parseSourceRef } from "../../rubr_flow/Format.js"
import type { MissingRequirement, RemainingRisk } from "../Types.js"
import { blockMappingOf, fileCoverage } from "./Mapping.js"
import type { FileAnalysis } from "./Model.js"
import type { UnmappedRange } from "./Model.js"
import type { SourceAnalysis } from "./Sources.js"
import { cmp } from "./Text.js"

const DESTRUCTIVE =
  /(?:^|[\s`;&|(])(?:rm\s+-[a-z]*[rf]|rm\s+\S|git\s+push\s+(?:\S+\s+)*(?:--force\b|-f\b|--force-with-lease\b)|git\s+reset\s+--hard|git\s+clean\s+-[a-z]*f|git\s+branch\s+-D|drop\s+(?:table|database|schema)\b|truncate\s+table\b|delete\s+from\b|kubectl\s+delete\b|terraform\s+destroy\b|docker\s+(?:system\s+prune|rm\b|rmi\b)|gh\s+(?:repo|release|pr)\s+delete\b|npm\s+unpublish\b|mkfs\b|dd\s+if=|chmod\s+-R\s+777|shutdown\b|reboot\b)/i
const CONFIRMATION = /\b(confirm\w*|approv\w*|consent|permission|ask (?:the user|first|before)|explicit(?:ly)? (?:ok|agree\w*)|sign-?off|double-check|never\b.*\bwithout\b)/i

const arr = (v: unknown): ReadonlyArray<Record<string, unknown>> =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => x !== null && typeof x === "object") : []
const str = (v: unknown): string => (typeof v === "string" ? v : "")

const rangesText = (r: ReadonlyArray<UnmappedRange>, max = 6): string =>
  r.slice(0, max).map((x) => (x.lineStart === x.lineEnd ? `${x.lineStart}` : `${x.lineStart}-${x.lineEnd}`)).join(", ") + (r.length > max ? `, and ${r.length - max} more` : "")

/** The parts of a drafted document the notes look at (each a list of objects, whatever the draft held). */
const partsOf = (document: Record<string, unknown>) => ({
  steps: arr(document.steps),
  handlers: arr(document.failure_handling),
  guardrails: arr(document.guardrails),
  inputs: arr(document.inputs),
  outputs: arr(document.outputs)
})
type Parts = ReturnType<typeof partsOf>

/** Every step of the sources, with its file. */
const sourceStepsOf = (files: ReadonlyArray<FileAnalysis>) =>
  files.flatMap((f) => f.procedures.flatMap((p) => p.steps.map((st) => ({ f, st }))))
type SourceSteps = ReturnType<typeof sourceStepsOf>

/** What the source did not say, each with the block that stands in for it (when the flow has one). */
const missingRequirementsOf = (
  { guardrails, handlers, inputs, outputs, steps }: Parts,
  files: ReadonlyArray<FileAnalysis>,
  sourceSteps: SourceSteps
): Array<MissingRequirement> => {
  const missing: Array<MissingRequirement> = []
  if (files.every((f) => f.failures.length === 0)) {
    missing.push({
      code: "no_failure_handling_in_source",
      message: handlers.length > 0
        ? "The source says nothing about what to do when a step fails; the flow carries a default handler (stop, report, ask)."
        : "The source says nothing about what to do when a step fails.",
      block: handlers.length > 0 ? "failure_handling.0" : null
    })
  }
  if (files.every((f) => f.inputs.length === 0)) {
    missing.push({
      code: "no_inputs_in_source",
      message: inputs.length > 0 ? "The source states no inputs; the flow's inputs were inferred." : "The source states no inputs (what the agent receives and where it comes from).",
      block: inputs.length > 0 ? "inputs.0" : null
    })
  }
  if (files.every((f) => f.outputs.length === 0)) {
    missing.push({
      code: "no_outputs_in_source",
      message: outputs.length > 0 ? "The source states no outputs; the flow's outputs were inferred." : "The source states no outputs (what the procedure delivers).",
      block: outputs.length > 0 ? "outputs.0" : null
    })
  }
  if (sourceSteps.length > 0 && sourceSteps.every((x) => x.st.statedCheck === null)) {
    missing.push({
      code: "no_checks_in_source",
      message: "The source states no check for any step (how to tell a step is done); every check in the flow was derived from the step's text.",
      block: steps.length > 0 ? "steps.0" : null
    })
  }
  if (files.every((f) => f.rules.length === 0)) {
    missing.push({
      code: "no_guardrails_in_source",
      message: "The source states no rules (what the agent must always or never do).",
      block: guardrails.length > 0 ? "guardrails.0" : null
    })
  }
  if (files.every((f) => f.whenToUse === null || f.whenToUse.origin === "opening")) {
    missing.push({
      code: "no_when_to_use_in_source",
      message: "The source does not say when to use it; `when_to_use` was derived from its opening or description.",
      block: null
    })
  }
  return missing
}

/** Steps whose check was derived rather than stated. */
const derivedChecks = ({ steps }: Parts, sourceSteps: SourceSteps): Array<RemainingRisk> => {
  const risks: Array<RemainingRisk> = []
  const derived: Array<number> = []
  steps.forEach((st, i) => {
    const r = parseSourceRef(str(st.from))
    const src = r ? sourceSteps.find((x) => x.f.path === r.path && x.st.lineStart === r.start) : undefined
    if (!src || src.st.statedCheck === null) derived.push(i)
  })
  if (derived.length > 0 && derived.length < steps.length) {
    risks.push({
      code: "derived_checks",
      message: `${derived.length} of ${steps.length} step checks were derived from the step's text, not stated by the source (${derived.slice(0, 8).map((i) => str(steps[i]!.id) || `steps.${i}`).join(", ")}${derived.length > 8 ? ", …" : ""}); confirm they match what "done" means.`,
      block: `steps.${derived[0]}`
    })
  } else if (derived.length > 0) {
    risks.push({
      code: "derived_checks",
      message: `All ${steps.length} step checks were derived from the step's text; confirm they match what "done" means.`,
      block: "steps.0"
    })
  }
  return risks
}

/** References to files the conversion lacks, each at the step that mentions it (when one does). */
const missingReferences = ({ steps }: Parts, files: ReadonlyArray<FileAnalysis>): Array<RemainingRisk> => {
  const risks: Array<RemainingRisk> = []
  const missingRefs = new Map<string, { file: FileAnalysis; line: number }>()
  for (const f of files) for (const r of f.references) if (!r.exists && !missingRefs.has(r.path)) missingRefs.set(r.path, { file: f, line: r.line })
  for (const [path, { file, line }] of [...missingRefs.entries()].sort((a, b) => cmp(a[0], b[0]))) {
    const idx = steps.findIndex((st) => {
      const r = parseSourceRef(str(st.from))
      return r !== undefined && r.path === file.path && line >= r.start && line <= r.end
    })
    const mentioned = idx < 0 ? steps.findIndex((st) => str(st.action).includes(path.split("/").pop() ?? path)) : idx
    risks.push({
      code: "missing_reference",
      message: `${file.path}:${line} refers to ${path}, which is not among the conversion's files; a step that needs it cannot be checked here.`,
      block: mentioned >= 0 ? `steps.${mentioned}` : null
    })
  }
  return risks
}

/** State-changing commands without a confirmation guardrail. */
const destructiveCommands = ({ guardrails, steps }: Parts): Array<RemainingRisk> => {
  const risks: Array<RemainingRisk> = []
  const confirmation = guardrails.some((g) => CONFIRMATION.test(`${str(g.must)} ${str(g.never)}`))
  if (!confirmation) {
    steps.forEach((st, i) => {
      const m = str(st.action).match(DESTRUCTIVE)
      if (!m) return
      risks.push({
        code: "destructive_command",
        message: `Step ${str(st.id) || i} runs a state-changing command (${m[0].trim().replace(/^[`;&|(]/, "")}) and no guardrail asks for confirmation first.`,
        block: `steps.${i}`
      })
    })
  }
  return risks
}

/** Coverage: source content no block maps. */
const unmappedSourceLines = (document: Record<string, unknown>, files: ReadonlyArray<FileAnalysis>): Array<RemainingRisk> => {
  const risks: Array<RemainingRisk> = []
  const mapping = blockMappingOf(document)
  for (const f of files) {
    const { content, gaps, unmapped } = fileCoverage(f, mapping)
    if (unmapped > 0) {
      risks.push({
        code: "unmapped_source_lines",
        message: `${unmapped} of ${content} content lines of ${f.path} map to no block (lines ${rangesText(gaps)}); check nothing there is an instruction the flow needs.`,
        block: null
      })
    }
  }
  return risks
}

/**
 * Deterministic notes for the conversion report, whichever converter drafted `document`: what the
 * source did not say (missing requirements) and what a reader should still check (remaining risks,
 * in this order: derived checks, missing references, destructive commands, unmapped lines).
 */
export const assessFlow = (
  document: Record<string, unknown>,
  analysis: SourceAnalysis
): { missingRequirements: Array<MissingRequirement>; remainingRisks: Array<RemainingRisk> } => {
  const files = analysis.files
  const parts = partsOf(document)
  const sourceSteps = sourceStepsOf(files)
  return {
    missingRequirements: missingRequirementsOf(parts, files, sourceSteps),
    remainingRisks: [
      ...derivedChecks(parts, sourceSteps),
      ...missingReferences(parts, files),
      ...destructiveCommands(parts),
      ...unmappedSourceLines(document, files)
    ]
  }
}
