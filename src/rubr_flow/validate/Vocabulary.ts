/**
 * The document's vocabulary: its sections and their keys, what each field holds (for messages about
 * a missing one), the keys people and models write instead, and what kind of value each path takes.
 */
import { FailureHandler, FlowEval, FlowInput, FlowOutput, FlowSource, FlowStep, RubrFlow } from "../Format.js"
import type { PathSegment } from "../Parse.js"

export type Section = "sources" | "inputs" | "steps" | "outputs" | "guardrails" | "failure_handling" | "evals"

export const SECTION_NOUN: Record<Section, string> = {
  sources: "source",
  inputs: "input",
  steps: "step",
  outputs: "output",
  guardrails: "guardrail",
  failure_handling: "failure handler",
  evals: "eval case"
}

export const isSection = (key: PathSegment | undefined): key is Section =>
  typeof key === "string" && Object.prototype.hasOwnProperty.call(SECTION_NOUN, key)

export const ROOT_KEYS: ReadonlyArray<string> = Object.keys(RubrFlow.fields)

export const SECTION_KEYS: Record<Section, ReadonlyArray<string>> = {
  sources: Object.keys(FlowSource.fields),
  inputs: Object.keys(FlowInput.fields),
  steps: Object.keys(FlowStep.fields),
  outputs: Object.keys(FlowOutput.fields),
  guardrails: ["id", "must", "never", "from"],
  failure_handling: Object.keys(FailureHandler.fields),
  evals: Object.keys(FlowEval.fields)
}

/** What each field holds, for messages about a missing field. */
export const HINTS: Record<"root" | Section, Record<string, string>> = {
  root: {
    name: "a short name for the procedure",
    description: "what the procedure does, in one or two sentences",
    when_to_use: "when an agent should follow this procedure",
    steps: "the ordered list of steps, each with an id, title, action and check"
  },
  sources: { path: "the source file's path", lines: "the number of lines of the source file" },
  inputs: { id: "a stable id such as `repo`", description: "what the input is" },
  steps: {
    id: "a stable id such as `run-tests`",
    title: "a short imperative title",
    action: "what to do, precisely enough to follow without the source",
    check: "how to tell the step is done: an observable result"
  },
  outputs: { id: "a stable id such as `report`", description: "what the output is" },
  guardrails: {},
  failure_handling: {
    id: "a stable id such as `tests-fail`",
    when: "the failure or situation this entry handles",
    then: "what the agent does then"
  },
  evals: {
    id: "a stable id",
    name: "a short name",
    type: "`standard` or `scenario`",
    input: "the case's input",
    expected_behavior: "what the agent should do",
    pass_criteria: "how to tell the case passed"
  }
}

/** Likely intended keys that are not typos (frequent in model answers). */
export const SYNONYMS: Record<string, Record<string, string>> = {
  root: {
    version: "rubr_flow",
    format: "rubr_flow",
    title: "name",
    summary: "description",
    purpose: "description",
    when: "when_to_use",
    usage: "when_to_use",
    trigger: "when_to_use",
    procedure: "steps",
    failures: "failure_handling",
    errors: "failure_handling",
    rules: "guardrails",
    constraints: "guardrails",
    tests: "evals"
  },
  steps: {
    name: "title",
    description: "action",
    do: "action",
    instructions: "action",
    verify: "check",
    verification: "check",
    validation: "check",
    expected: "check",
    inputs: "uses",
    outputs: "produces",
    source: "from",
    on_error: "on_failure"
  },
  inputs: { name: "id", source: "from" },
  outputs: { name: "id", source: "from" },
  guardrails: { always: "must", do: "must", dont: "never", do_not: "never", rule: "must", source: "from" },
  failure_handling: { if: "when", condition: "when", action: "then", do: "then", resume: "resume_at", source: "from" },
  sources: { file: "path", hash: "content_hash", sha256: "content_hash", line_count: "lines" },
  evals: { expected: "expected_behavior", criteria: "pass_criteria", source: "from" }
}

export type Kind =
  | "document"
  | "version"
  | "name"
  | "text"
  | "id"
  | "idList"
  | "ref"
  | "boolean"
  | "count"
  | "hash"
  | "path"
  | "evalType"
  | "list"
  | "item"
  | "unknown"

export const kindOf = (path: ReadonlyArray<PathSegment>): Kind => {
  const [top, index, key, sub] = path
  if (path.length === 0) return "document"
  if (path.length === 1) {
    if (top === "rubr_flow") return "version"
    if (top === "name") return "name"
    return isSection(top) ? "list" : ROOT_KEYS.includes(String(top)) ? "text" : "unknown"
  }
  if (!isSection(top) || typeof index !== "number") return "unknown"
  if (path.length === 2) return "item"
  if (path.length === 4) return (key === "uses" || key === "produces") && typeof sub === "number" ? "id" : "unknown"
  if (path.length !== 3) return "unknown"
  switch (key) {
    case "id":
    case "on_failure":
    case "resume_at":
      return "id"
    case "uses":
    case "produces":
      return "idList"
    case "from":
      return "ref"
    case "required":
      return "boolean"
    case "lines":
      return "count"
    case "content_hash":
      return "hash"
    case "path":
      return top === "sources" ? "path" : "text"
    case "type":
      return top === "evals" ? "evalType" : "text"
    default:
      return SECTION_KEYS[top].includes(String(key)) ? "text" : "unknown"
  }
}

export const EXPECTED: Record<Kind, string> = {
  document: "a mapping of `key: value` lines starting with `rubr_flow: \"1.0\"`",
  version: "\"1.0\"",
  name: "a name of 1 to 100 characters",
  text: "text (use a block scalar `|` for several lines)",
  id: "an id: 1-80 characters of a-z, 0-9, '-' and '_', starting with a letter or digit (e.g. `run-tests`)",
  idList: "a list of ids, e.g. `[repo, pr]`",
  ref: "a source reference PATH:LINE or PATH:START-END (1-based), e.g. `SKILL.md:12-30`",
  boolean: "true or false",
  count: "a whole number, 0 or more",
  hash: "`sha256:` followed by 64 lower-case hex digits",
  path: "a non-empty file path",
  evalType: "`standard` or `scenario`",
  list: "a list of `- ` items",
  item: "a mapping of `key: value` lines",
  unknown: "a different value"
}

export const BASE_TYPE: Record<Kind, "string" | "array" | "object" | "boolean" | "number" | "any"> = {
  document: "object",
  version: "string",
  name: "string",
  text: "string",
  id: "string",
  idList: "array",
  ref: "string",
  boolean: "boolean",
  count: "number",
  hash: "string",
  path: "string",
  evalType: "string",
  list: "array",
  item: "object",
  unknown: "any"
}
