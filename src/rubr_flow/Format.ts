/**
 * The rubr_flow format, version 1.0: one Effect Schema, the single definition behind the validator,
 * the renderer, the JSON Schema served at /api/v1/rubr-flow/schema.json and the AI converter's
 * structured output. docs/rubr-flow.md documents it for people.
 *
 * A `.rubr_flow` file is YAML (block style, comments allowed) holding one procedure package:
 *
 *   rubr_flow: "1.0"            the format version
 *   name, description, when_to_use, from   identity (and where it came from)
 *   sources[]                   what it was converted from: {path, content_hash, lines}
 *   inputs[]                    {id, description, required?, from?}
 *   steps[]                     ordered {id, title, action, check, uses?, produces?, on_failure?, from?}
 *   outputs[]                   {id, description, from?}; every output is produced by a step
 *   guardrails[]                {must | never, id?, from?}
 *   failure_handling[]          {id, when, then, resume_at?, from?}
 *   evals[]                     optional suggested cases {id, name, type, input, expected_behavior, pass_criteria, from?}
 *
 * `from` is the source mapping of a block: `PATH:LINE` or `PATH:START-END` (1-based, inclusive), naming
 * a path listed in `sources`. Keys are snake_case so the file reads naturally as YAML.
 *
 * Pure: no services, no I/O (the CLI validates offline).
 */
import { JSONSchema, Schema } from "effect"
import { CONTENT_HASH } from "../domain/ContentHash.js"

export const FORMAT_VERSION = "1.0"
export const FILE_EXTENSION = ".rubr_flow"

/** Ids are stable handles other blocks refer to: lower-case letters, digits, `-` and `_`. */
export const FlowId = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9_-]{0,79}$/),
  Schema.annotations({
    identifier: "FlowId",
    description: "A stable id: 1-80 characters of a-z, 0-9, '-' and '_', starting with a letter or digit."
  })
)

/** Free text; may span lines (write it as a YAML block scalar `|`). Each use says what the text is. */
const Text = Schema.String.annotations({ description: "Free text; use a YAML block scalar (|) for several lines." })

/** Free text with its own description. */
const text = (description: string) => Text.annotations({ description })

/** `PATH:LINE` or `PATH:START-END`, 1-based inclusive lines of a file listed in `sources`. */
export const SourceRef = Schema.String.pipe(
  Schema.pattern(/^.+:[1-9][0-9]{0,6}(-[1-9][0-9]{0,6})?$/),
  Schema.annotations({
    identifier: "SourceRef",
    description: "Where this block came from: PATH:LINE or PATH:START-END (1-based, inclusive), PATH listed in sources."
  })
)

const from = Schema.optional(SourceRef)

export const FlowSource = Schema.Struct({
  path: Schema.String.pipe(Schema.minLength(1)).annotations({
    title: "Path",
    description: "The source file's path in the bundle (as `from` references name it)."
  }),
  content_hash: Schema.optional(Schema.String.pipe(Schema.pattern(CONTENT_HASH))).annotations({
    description: "sha256 of the exact source bytes this flow was converted from."
  }),
  // Number + int + nonNegative is Schema.Int >= 0, written so its JSON Schema is a plain integer
  lines: Schema.Number.pipe(Schema.int(), Schema.nonNegative()).annotations({
    title: "Line count",
    description:
      "The number of lines of the source as an editor shows them (a final line break adds none); every `from` range naming it must lie inside."
  })
}).annotations({ identifier: "FlowSource", title: "Source" })

export const FlowInput = Schema.Struct({
  id: FlowId,
  description: text("What the input is and where the agent gets it."),
  required: Schema.optional(Schema.Boolean).annotations({ description: "Whether the procedure needs it; defaults to true." }),
  from
}).annotations({ identifier: "FlowInput", title: "Input" })

export const FlowStep = Schema.Struct({
  id: FlowId,
  title: Schema.String.annotations({ description: "A short imperative title, e.g. \"Run the test suite\"." }),
  action: Text.annotations({ description: "What to do, precisely enough to follow without the source." }),
  check: Text.annotations({ description: "How to tell the step is done (an observable result)." }),
  uses: Schema.optional(Schema.Array(FlowId)).annotations({
    description: "Ids of inputs, or of outputs produced by earlier steps, that this step reads."
  }),
  produces: Schema.optional(Schema.Array(FlowId)).annotations({ description: "Ids of outputs this step produces." }),
  on_failure: Schema.optional(FlowId).annotations({ description: "The id of the failure_handling entry that applies." }),
  from
}).annotations({ identifier: "FlowStep", title: "Step" })

export const FlowOutput = Schema.Struct({
  id: FlowId,
  description: text("What the output is; a step lists its id in `produces`."),
  from
}).annotations({ identifier: "FlowOutput", title: "Output" })

const guardrailFields = { id: Schema.optional(FlowId), from }

/** Exactly one of `must` / `never`. */
export const Guardrail = Schema.Union(
  Schema.Struct({ must: Text.annotations({ description: "Something the agent must always do." }), ...guardrailFields })
    .annotations({ identifier: "MustGuardrail", title: "Must" }),
  Schema.Struct({ never: Text.annotations({ description: "Something the agent must never do." }), ...guardrailFields })
    .annotations({ identifier: "NeverGuardrail", title: "Never" })
).annotations({
  identifier: "Guardrail",
  title: "Guardrail",
  description: "A rule that holds throughout the procedure: exactly one of `must` or `never`."
})

export const FailureHandler = Schema.Struct({
  id: FlowId,
  when: Text.annotations({ description: "The failure or situation this entry handles." }),
  then: Text.annotations({ description: "What the agent does then." }),
  resume_at: Schema.optional(FlowId).annotations({ description: "The id of the step to continue from, if any." }),
  from
}).annotations({ identifier: "FailureHandler", title: "Failure handler" })

export const FlowEval = Schema.Struct({
  id: FlowId,
  name: Schema.String.annotations({ description: "A short name for the case." }),
  type: Schema.Literal("standard", "scenario").annotations({
    description: "standard: one request and its expected handling; scenario: a situation that tests a step, a guardrail or a failure path."
  }),
  input: text("What the agent is asked or given."),
  expected_behavior: text("What the agent should do when following the flow."),
  pass_criteria: text("How to tell, observably, that the case passed."),
  from
}).annotations({ identifier: "FlowEval", title: "Eval case" })

export const RubrFlow = Schema.Struct({
  rubr_flow: Schema.Literal(FORMAT_VERSION).annotations({ description: "The format version of this file." }),
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
    title: "Name",
    description: "A short name for the procedure, 1 to 100 characters."
  }),
  description: Text.annotations({ description: "What the procedure does, in one or two sentences." }),
  when_to_use: Text.annotations({ description: "When an agent should follow this procedure." }),
  from: Schema.optional(SourceRef).annotations({
    description: "Where the identity (name, description, when_to_use) came from: PATH:START-END."
  }),
  sources: Schema.optionalWith(
    Schema.Array(FlowSource).annotations({ description: "The files this flow was converted from; `from` references name them." }),
    { default: () => [] }
  ),
  inputs: Schema.optionalWith(
    Schema.Array(FlowInput).annotations({ description: "What the procedure needs before it starts; steps name them in `uses`." }),
    { default: () => [] }
  ),
  steps: Schema.Array(FlowStep).annotations({
    description: "The steps, in the order they are followed; at least one (the validator reports an empty list)."
  }),
  outputs: Schema.optionalWith(
    Schema.Array(FlowOutput).annotations({ description: "What the procedure produces; every output is produced by a step." }),
    { default: () => [] }
  ),
  guardrails: Schema.optionalWith(
    Schema.Array(Guardrail).annotations({ description: "Rules that hold throughout: each is a `must` or a `never`." }),
    { default: () => [] }
  ),
  failure_handling: Schema.optionalWith(
    Schema.Array(FailureHandler).annotations({ description: "What to do when something goes wrong; steps name an entry in `on_failure`." }),
    { default: () => [] }
  ),
  evals: Schema.optionalWith(
    Schema.Array(FlowEval).annotations({ description: "Optional suggested evaluation cases for the procedure." }),
    { default: () => [] }
  )
}).annotations({
  identifier: "RubrFlow",
  title: "rubr_flow 1.0",
  description: "A procedure package: identity, inputs, ordered steps with checks, outputs, guardrails, failure handling, source mapping."
})

export type RubrFlow = typeof RubrFlow.Type
export type RubrFlowEncoded = typeof RubrFlow.Encoded
export type FlowStep = typeof FlowStep.Type
export type FlowInput = typeof FlowInput.Type
export type FlowOutput = typeof FlowOutput.Type
export type FlowSource = typeof FlowSource.Type
export type Guardrail = typeof Guardrail.Type
export type FailureHandler = typeof FailureHandler.Type
export type FlowEval = typeof FlowEval.Type

/** A parsed `from`: the path and the inclusive line range. */
export interface SourceRange {
  readonly path: string
  readonly start: number
  readonly end: number
}

export const parseSourceRef = (ref: string): SourceRange | undefined => {
  const m = /^(.+):([1-9][0-9]{0,6})(?:-([1-9][0-9]{0,6}))?$/.exec(ref)
  if (!m) return undefined
  const start = Number(m[2])
  return { path: m[1]!, start, end: m[3] === undefined ? start : Number(m[3]) }
}

export const formatSourceRef = (range: SourceRange): string =>
  range.start === range.end ? `${range.path}:${range.start}` : `${range.path}:${range.start}-${range.end}`

/** The JSON Schema (draft 2020-12) of a rubr_flow document, derived from `RubrFlow`. */
export const rubrFlowJsonSchema = (): Record<string, unknown> => {
  const schema = JSONSchema.make(RubrFlow, { target: "jsonSchema2020-12" }) as unknown as Record<string, unknown>
  return {
    ...schema,
    $id: "https://rubr.dev/schemas/rubr_flow/1.0/schema.json",
    title: "rubr_flow 1.0",
    description:
      "A rubr_flow procedure package (a YAML file, extension .rubr_flow). This schema checks its shape; `rubr validate` also checks its meaning (references, checks, contradictions, source ranges)."
  }
}
