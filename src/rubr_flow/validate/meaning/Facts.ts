/**
 * What the meaning passes read, gathered once: each section's blocks, the ids in them, which sections
 * can be relied on, and which step first produces each output. The passes run on the plain data even
 * when the shape has errors, so everything here skips whatever is malformed.
 */
import { type Block, blocks, field, listField, type Rec, strField } from "../Data.js"
import type { ValidateOptions } from "../Types.js"
import type { Section } from "../Vocabulary.js"

export interface FlowFacts {
  readonly root: Rec
  readonly options: ValidateOptions | undefined
  readonly blocks: Readonly<Record<Section, ReadonlyArray<Block>>>
  /** the index of each id's first block in its section (ids are unique per section) */
  readonly ids: Readonly<Record<IdSection, ReadonlyMap<string, number>>>
  /** the ids `uses` can name: inputs and outputs share that namespace */
  readonly usable: ReadonlySet<string>
  /** the index of the first step that produces each output id */
  readonly firstProducer: ReadonlyMap<string, number>
  /** false for a section that is there but is not a list: what it holds cannot be referred to reliably */
  readonly readable: (section: Section) => boolean
  readonly stepsReadable: boolean
  /** the ids of inputs and outputs can be relied on */
  readonly namesReadable: boolean
}

/** The sections whose blocks have ids. */
export type IdSection = Exclude<Section, "sources">
export const ID_SECTIONS: ReadonlyArray<IdSection> = ["steps", "inputs", "outputs", "failure_handling", "guardrails", "evals"]

const firstIds = (list: ReadonlyArray<Block>): Map<string, number> => {
  const first = new Map<string, number>()
  for (const b of list) {
    const id = strField(b.value, "id")
    if (id !== undefined && !first.has(id)) first.set(id, b.index)
  }
  return first
}

export const flowFacts = (root: Rec, options: ValidateOptions | undefined): FlowFacts => {
  const byKind: Record<Section, ReadonlyArray<Block>> = {
    sources: blocks(root, "sources"),
    inputs: blocks(root, "inputs"),
    steps: blocks(root, "steps"),
    outputs: blocks(root, "outputs"),
    guardrails: blocks(root, "guardrails"),
    failure_handling: blocks(root, "failure_handling"),
    evals: blocks(root, "evals")
  }
  const ids = {} as Record<IdSection, ReadonlyMap<string, number>>
  for (const s of ID_SECTIONS) ids[s] = firstIds(byKind[s])
  const firstProducer = new Map<string, number>()
  for (const s of byKind.steps) {
    for (const id of listField(s.value, "produces")) {
      if (typeof id === "string" && !firstProducer.has(id)) firstProducer.set(id, s.index)
    }
  }
  const readable = (section: Section): boolean => {
    const v = field(root, section)
    return v === undefined || Array.isArray(v)
  }
  return {
    root,
    options,
    blocks: byKind,
    ids,
    usable: new Set<string>([...ids.inputs.keys(), ...ids.outputs.keys()]),
    firstProducer,
    readable,
    stepsReadable: Array.isArray(field(root, "steps")),
    namesReadable: readable("inputs") && readable("outputs")
  }
}

const PLACEHOLDER = /(?<!\$)\{\{\s*([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*\}\}/g

/** The names a text mentions as `{{name}}` (or `{{name.field}}`), each once. */
export const placeholders = (text: string | undefined): Array<string> => {
  if (text === undefined || !text.includes("{{")) return []
  const out: Array<string> = []
  for (const m of text.matchAll(PLACEHOLDER)) {
    const name = m[1].split(".")[0]
    if (!out.includes(name)) out.push(name)
  }
  return out
}
