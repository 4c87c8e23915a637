/**
 * The mock converter's generation phase: the block plan → a rubr_flow document, deterministically.
 * A faithful translation: the source's defects (duplicate titles, empty steps, steps without a
 * checkable result, contradictory rules) stay visible for the validator; the repair pass
 * (./Repair.ts) fixes what can be fixed. Checks are derived (./Checks.ts); a step whose text gives
 * nothing to check keeps an empty check.
 */
import type { EvalCase } from "../../domain/EvalCase.js"
import { formatSourceRef } from "../../rubr_flow/Format.js"
import { lineCount } from "../../rubr_flow/Validator.js"
import {
  assessFlow,
  type BlockPlan,
  type PlannedEval,
  type PlannedFailure,
  type PlannedGuardrail,
  type PlannedIdentity,
  type PlannedInput,
  type PlannedOutput,
  type PlannedStep,
  type SourceAnalysis
} from "../Analysis.js"
import type { ConversionDraft, ConversionInput, MissingRequirement, RemainingRisk } from "../Types.js"
import { deriveCheck } from "./Checks.js"
import { clip, cmp, lowerFirst, sentence, stripEnd } from "./Text.js"
import { CONTENT_HASH } from "../../domain/ContentHash.js"

export const MOCK_CONVERTER_PROVIDER = "mock"
export const MOCK_CONVERTER_MODEL = "rubr-mock-converter-1"

/** The handler a flow carries when its source says nothing about failure. */
export const DEFAULT_FAILURE_HANDLER = {
  id: "step-fails",
  when: "A step's action cannot be carried out, or its check does not pass.",
  then: "Stop. Tell the user which step failed and what you observed, and ask how to proceed; do not skip the step or continue as if it had passed."
} as const


const fromOf = (b: { path: string; lineStart: number; lineEnd: number }): string =>
  formatSourceRef({ path: b.path, start: Math.max(1, b.lineStart), end: Math.max(1, b.lineStart, b.lineEnd) })

/** `{{Name}}` → `{{name}}`: placeholder names must be the (lower-case) ids of inputs. */
const lowerPlaceholders = (text: string, ids: ReadonlySet<string>): string =>
  text.replace(/(?<!\$)\{\{\s*([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*\}\}/g, (m, name: string) => {
    const [head, ...rest] = name.split(".")
    const low = head!.toLowerCase()
    return low !== head && ids.has(low) ? `{{${[low, ...rest].join(".")}}}` : m
  })

export const artifactSourcesOf = (input: ConversionInput) => {
  const arts = input.sources.filter((s) => s.role === "artifact")
  return [...(arts.length > 0 ? arts : input.sources)].sort((a, b) => cmp(a.path, b.path))
}

export const sourcesBlock = (input: ConversionInput): Array<Record<string, unknown>> =>
  artifactSourcesOf(input).map((s) => ({
    path: s.path,
    ...(CONTENT_HASH.test(s.contentHash) ? { content_hash: s.contentHash } : {}),
    lines: lineCount(s.content)
  }))

const stepBlock = (st: PlannedStep, ids: ReadonlySet<string>): Record<string, unknown> => {
  const check = deriveCheck({ title: st.title, action: st.action, commands: st.commands, statedCheck: st.statedCheck })
  return {
    id: st.id,
    title: st.title !== "" ? st.title : st.id,
    action: lowerPlaceholders(st.action, ids),
    check: check ?? "",
    ...(st.uses.length > 0 ? { uses: [...st.uses] } : {}),
    ...(st.produces.length > 0 ? { produces: [...st.produces] } : {}),
    ...(st.onFailure !== null ? { on_failure: st.onFailure } : {}),
    from: fromOf(st)
  }
}

// ---------------------------------------------------------------- evals

interface EvalDraft {
  readonly case: Omit<EvalCase, "id">
  readonly from: string | null
}

const triggerEval = (identity: PlannedIdentity | undefined, steps: ReadonlyArray<PlannedStep>): EvalDraft | null => {
  if (!identity) return null
  const situation = stripEnd(identity.whenToUse.replace(/^use (?:this skill |this |it )?(?:when(?:ever)?|if|for|to)\b[:,]?\s*/i, "")) || stripEnd(identity.description)
  const first = steps[0]
  return {
    case: {
      name: `Follows ${identity.name} on a matching request`,
      type: "standard",
      input: sentence(`A request that fits this procedure: ${lowerFirst(clip(situation, 220))}`),
      expectedBehavior: first
        ? sentence(`The agent follows ${identity.name} in order, starting with "${first.title}"`)
        : sentence(`The agent follows ${identity.name}`),
      passCriteria: first
        ? `The transcript shows "${clip(first.title, 80)}" before the later steps, and each step's check is met before the next one starts.`
        : "The transcript follows the procedure's instructions."
    },
    from: null
  }
}

const exampleEval = (e: PlannedEval, steps: ReadonlyArray<PlannedStep>): EvalDraft => {
  const step = e.stepId ? steps.find((s) => s.id === e.stepId) : undefined
  const at = `${e.path}:${e.lineStart}-${e.lineEnd}`
  switch (e.exampleKind) {
    case "good_bad":
      return {
        case: {
          name: e.name,
          type: "standard",
          input: sentence(`A task that reaches the step "${step ? step.title : e.title}"`),
          expectedBehavior: sentence(`The agent's work looks like the good example at ${at}${e.good ? ` (${stripEnd(e.good)})` : ""}`),
          passCriteria: sentence(
            `The result has what the good example shows${e.good ? ` (${stripEnd(e.good)})` : ""}${e.bad ? ` and none of what the bad example shows (${stripEnd(e.bad)})` : ""}`
          )
        },
        from: fromOf(e)
      }
    case "section": {
      const parts = e.excerpt.split(" / ").filter((p) => p !== "")
      const situation = parts[0] ?? e.title
      const labels = parts.slice(1).filter((p) => p.length <= 40).slice(0, 6)
      return {
        case: {
          name: e.name,
          type: "scenario",
          input: sentence(`The situation of the worked example "${e.title}": ${lowerFirst(stripEnd(situation))}`),
          expectedBehavior: labels.length > 0
            ? sentence(`The agent works through it as the example at ${at} does: ${labels.join(", then ")}`)
            : sentence(`The agent works through it as the example at ${at} does`),
          passCriteria: sentence(`The transcript follows the example's sequence${labels.length > 0 ? ` (${labels.join(" → ")})` : ""} and reaches the same result`)
        },
        from: fromOf(e)
      }
    }
    default:
      return {
        case: {
          name: e.name,
          type: "standard",
          input: sentence(`A request matching the usage example at ${at}${e.excerpt ? `: ${clip(e.excerpt, 160)}` : ""}`),
          expectedBehavior: sentence(`The agent uses the procedure as the example shows${e.excerpt ? ` (${clip(e.excerpt, 120)})` : ""}`),
          passCriteria: "The agent's commands and result match the example's form."
        },
        from: fromOf(e)
      }
  }
}

const failureEval = (f: PlannedFailure): EvalDraft => {
  // a list of conditions ("A; B; C"): the case takes the first one
  const when = stripEnd(f.when.split(/;\s+/)[0]!)
  return {
  case: {
    name: `Handles: ${clip(when, 70)}`,
    type: "scenario",
    input: sentence(`During the task this happens: ${lowerFirst(clip(when, 200))}`),
    expectedBehavior: sentence(`As the flow says, the agent does this: ${clip(f.then.split("\n")[0]!, 220)}${f.then.includes("\n") ? " (and the instructions listed under it)" : ""}`),
    passCriteria: sentence(`The agent handles "${clip(when, 60)}" as written${f.resumeAt ? ` and then continues from step ${f.resumeAt}` : ""}, without improvising or carrying on as if nothing happened`)
  },
  from: fromOf(f)
  }
}

const MAX_EVALS = 8

// ---------------------------------------------------------------- generate

/** What the mock knows beyond assessFlow's notes: how it cut the steps, and the steps it left without a check. */
const mockRisks = (steps: ReadonlyArray<PlannedStep>, stepBlocks: ReadonlyArray<Record<string, unknown>>): Array<RemainingRisk> => {
  const risks: Array<RemainingRisk> = []
  const origins = new Set(steps.map((s) => s.origin))
  if (origins.has("sentence")) {
    risks.push({
      code: "steps_from_sentences",
      message: "The source has no headings or lists: its steps were cut from its imperative sentences; check their order and granularity.",
      block: "steps.0"
    })
  } else if (steps.length > 0 && [...origins].every((o) => o === "section" || o === "checklist")) {
    risks.push({
      code: "steps_from_sections",
      message: "The source has no numbered procedure: its steps were taken from its sections in document order; check that this is the order to follow.",
      block: "steps.0"
    })
  }
  stepBlocks.forEach((b, i) => {
    if (b.check === "") {
      risks.push({
        code: "check_not_derivable",
        message: `The text of step ${String(b.id)} gives nothing observable to check, so its check is empty.`,
        block: `steps.${i}`
      })
    }
  })
  return risks
}

export const generateMock = (input: ConversionInput, analysis: SourceAnalysis, plan: BlockPlan): ConversionDraft => {
  const of = <K extends string>(kind: K) => plan.blocks.filter((b) => b.kind === kind)
  const identity = of("identity")[0] as PlannedIdentity | undefined
  const inputs = of("input") as Array<PlannedInput>
  const steps = of("step") as Array<PlannedStep>
  const outputs = of("output") as Array<PlannedOutput>
  const guardrails = of("guardrail") as Array<PlannedGuardrail>
  const failures = of("failure_handling") as Array<PlannedFailure>
  const examples = of("eval") as Array<PlannedEval>
  const ids = new Set([...inputs.map((i) => i.id), ...outputs.map((o) => o.id)])
  const name = identity?.name || input.bundleName || "procedure"
  const description = identity?.description || `The procedure in ${artifactSourcesOf(input).map((s) => s.path).join(", ")}.`
  const whenToUse = identity?.whenToUse || `Use when the task is to ${lowerFirst(stripEnd(description))}.`

  const stepBlocks = steps.map((st) => stepBlock(st, ids))
  const handlerBlocks: Array<Record<string, unknown>> = failures.map((f) => ({
    id: f.id,
    when: f.when,
    then: f.then,
    ...(f.resumeAt !== null ? { resume_at: f.resumeAt } : {}),
    from: fromOf(f)
  }))
  if (handlerBlocks.length === 0) handlerBlocks.push({ ...DEFAULT_FAILURE_HANDLER })

  const evals: Array<EvalDraft> = []
  const trigger = triggerEval(identity, steps)
  if (trigger) evals.push(trigger)
  for (const e of examples) evals.push(exampleEval(e, steps))
  for (const f of failures.slice(0, 2)) evals.push(failureEval(f))
  const chosen = evals.slice(0, MAX_EVALS).map((e, i) => ({ id: `eval-${i + 1}`, ...e }))
  const suggestedEvals: Array<EvalCase> = chosen.map((e) => ({ id: e.id, ...e.case }))

  const document: Record<string, unknown> = {
    rubr_flow: "1.0",
    name: name.slice(0, 100),
    description,
    when_to_use: whenToUse,
    ...(identity ? { from: fromOf(identity) } : {}),
    sources: sourcesBlock(input),
    ...(inputs.length > 0
      ? { inputs: inputs.map((i) => ({ id: i.id, description: i.description, ...(i.required ? {} : { required: false }), from: fromOf(i) })) }
      : {}),
    steps: stepBlocks,
    ...(outputs.length > 0 ? { outputs: outputs.map((o) => ({ id: o.id, description: o.description, from: fromOf(o) })) } : {}),
    ...(guardrails.length > 0
      ? { guardrails: guardrails.map((g) => (g.polarity === "must" ? { must: g.text, from: fromOf(g) } : { never: g.text, from: fromOf(g) })) }
      : {}),
    failure_handling: handlerBlocks,
    ...(chosen.length > 0
      ? {
        evals: chosen.map((e) => ({
          id: e.id,
          name: e.case.name,
          type: e.case.type,
          input: e.case.input,
          expected_behavior: e.case.expectedBehavior,
          pass_criteria: e.case.passCriteria,
          ...(e.from !== null ? { from: e.from } : {})
        }))
      }
      : {})
  }

  // assessFlow's notes (the pipeline recomputes them on the final document; identical notes merge),
  // then what the mock knows beyond them
  const assessed = assessFlow(document, analysis)
  const missingRequirements: Array<MissingRequirement> = [...assessed.missingRequirements]
  const remainingRisks: Array<RemainingRisk> = [...assessed.remainingRisks, ...mockRisks(steps, stepBlocks)]
  return {
    document,
    missingRequirements,
    remainingRisks,
    suggestedEvals,
    usage: null,
    provider: {
      provider: MOCK_CONVERTER_PROVIDER,
      model: MOCK_CONVERTER_MODEL,
      modelTier: input.modelTier,
      reasoningEffort: input.reasoningEffort
    }
  }
}
