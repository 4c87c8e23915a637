/**
 * The rubr_flow renderer: a document in the file's shape → the YAML text a person reads and edits.
 *
 * Deterministic (same object, same text) and forgiving: the object may be malformed (a model's
 * answer), and still renders as it is, so the validator can point at its problems. Known keys come in
 * the canonical order (the order of `RubrFlow`'s fields; inside blocks `id` first and `from` last),
 * unknown keys after them in their own order. Multi-line text is a literal block (`|`), short id lists
 * are flow lists (`uses: [repo, pr]`), long lines are folded, `rubr_flow: "1.0"` stays quoted.
 * Each top-level section gets a blank line and a one-line comment before it.
 *
 * Round trip: `validateText(renderFlow(x)).flow` equals `x` decoded, for every valid `x`.
 */
import { Document, Pair, Scalar, YAMLMap, YAMLSeq, type Node as YamlNode } from "yaml"
import { FailureHandler, FlowEval, FlowInput, FlowOutput, FlowSource, FlowStep, RubrFlow } from "./Format.js"

export interface RenderOptions {
  /** comment lines put at the top of the file, each prefixed with "# " */
  readonly header?: ReadonlyArray<string> | undefined
}

/** `id` first, `from` last, the schema's order in between. */
const blockOrder = (fields: ReadonlyArray<string>): ReadonlyArray<string> => [
  ...fields.filter((k) => k === "id"),
  ...fields.filter((k) => k !== "id" && k !== "from"),
  ...fields.filter((k) => k === "from")
]

const ROOT_ORDER: ReadonlyArray<string> = Object.keys(RubrFlow.fields)

const BLOCK_ORDER: Record<string, ReadonlyArray<string>> = {
  sources: blockOrder(Object.keys(FlowSource.fields)),
  inputs: blockOrder(Object.keys(FlowInput.fields)),
  steps: blockOrder(Object.keys(FlowStep.fields)),
  outputs: blockOrder(Object.keys(FlowOutput.fields)),
  guardrails: ["id", "must", "never", "from"],
  failure_handling: blockOrder(Object.keys(FailureHandler.fields)),
  evals: blockOrder(Object.keys(FlowEval.fields))
}

/** The comment before each top-level section (the identity keys share one). */
const SECTION_COMMENT: Record<string, string> = {
  name: "What this procedure is, and when an agent should follow it.",
  sources: "Sources this flow was converted from; each `from: PATH:START-END` points into one of them.",
  inputs: "Inputs the procedure needs; steps name them in `uses` or as {{id}} in their text.",
  steps: "Steps, in order: each has an action and a check.",
  outputs: "Outputs the steps produce (see each step's `produces`).",
  guardrails: "Guardrails: what the agent must always do (must) and must never do (never).",
  failure_handling: "Failure handling: what to do when something goes wrong, and where to resume.",
  evals: "Suggested evaluation cases."
}

const IDENTITY: ReadonlySet<string> = new Set(["name", "description", "when_to_use", "from"])

/** Sections whose items are separated by a blank line (their items are long). */
const SPACED_SECTIONS: ReadonlySet<string> = new Set(["steps", "failure_handling", "evals"])

const MAX_DEPTH = 100
const FLOW_LIST_MAX = 60

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k)

const isPlainRecord = (x: unknown): x is Record<string, unknown> => {
  if (x === null || typeof x !== "object" || Array.isArray(x)) return false
  const proto = Object.getPrototypeOf(x)
  return proto === Object.prototype || proto === null
}

/** Keys in the canonical order: the known ones first (in `order`), then the others as they come. */
const orderedKeys = (record: Record<string, unknown>, order: ReadonlyArray<string> | undefined): Array<string> => {
  const keys = Object.keys(record).filter((k) => record[k] !== undefined)
  if (order === undefined) return keys
  return [...order.filter((k) => hasOwn(record, k) && record[k] !== undefined), ...keys.filter((k) => !order.includes(k))]
}

/**
 * A literal block (`|`) is used where it reads back exactly and plainly: no trailing whitespace on a
 * line (the file has none), no leading blank line, at most one final line break (no `|+`).
 */
const literalBlockFits = (s: string): boolean =>
  s.includes("\n") &&
  !s.startsWith("\n") &&
  !s.endsWith("\n\n") &&
  !/[ \t]\n|[ \t]$/.test(s) &&
  !/[\r\u0085\u2028\u2029]/.test(s)

const stringNode = (s: string): Scalar => {
  const node = new Scalar(s)
  if (s.includes("\n")) node.type = literalBlockFits(s) ? Scalar.BLOCK_LITERAL : Scalar.QUOTE_DOUBLE
  else if (/[ \t]$/.test(s) || /[\r\u0085\u2028\u2029]/.test(s)) node.type = Scalar.QUOTE_DOUBLE
  return node
}

/** Short lists of simple words (ids) read best on one line. */
const isShortWordList = (items: ReadonlyArray<unknown>): boolean => {
  if (items.length === 0) return true
  let length = 0
  for (const item of items) {
    if (typeof item !== "string" || !/^[A-Za-z0-9][A-Za-z0-9_./-]*$/.test(item)) return false
    length += item.length + 2
  }
  return length <= FLOW_LIST_MAX
}

const keyNode = (key: string): Scalar => new Scalar(key)

const toNode = (value: unknown, section: string | undefined, depth: number, ancestors: Set<object>): YamlNode => {
  if (value === null || value === undefined) return new Scalar(null)
  switch (typeof value) {
    case "string":
      return stringNode(value)
    case "number":
    case "boolean":
      return new Scalar(value)
    case "bigint":
      return new Scalar(Number.isSafeInteger(Number(value)) ? Number(value) : value.toString())
    case "object":
      break
    default:
      return stringNode(String(value))
  }
  const obj = value as object
  if (value instanceof Date) return stringNode(Number.isNaN(value.getTime()) ? String(value) : value.toISOString())
  if (depth > MAX_DEPTH || ancestors.has(obj)) return new Scalar(null)
  ancestors.add(obj)
  try {
    if (Array.isArray(value)) {
      const seq = new YAMLSeq()
      seq.flow = isShortWordList(value)
      const order = section !== undefined && hasOwn(BLOCK_ORDER, section) ? BLOCK_ORDER[section] : undefined
      value.forEach((item, i) => {
        // a section's items are blocks, their keys in the section's order
        const node = order !== undefined && isPlainRecord(item)
          ? mapNode(item, order, depth + 1, ancestors)
          : toNode(item, undefined, depth + 1, ancestors)
        if (section !== undefined && SPACED_SECTIONS.has(section) && i > 0) node.spaceBefore = true
        seq.items.push(node)
      })
      return seq
    }
    if (isPlainRecord(value)) return mapNode(value, undefined, depth, ancestors)
    if (value instanceof Map) return mapNode(Object.fromEntries([...value].map(([k, v]) => [String(k), v])), undefined, depth, ancestors)
    if (value instanceof Set) return toNode([...value], undefined, depth, ancestors)
    return mapNode({ ...(value as Record<string, unknown>) }, undefined, depth, ancestors)
  } finally {
    ancestors.delete(obj)
  }
}

const mapNode = (
  record: Record<string, unknown>,
  order: ReadonlyArray<string> | undefined,
  depth: number,
  ancestors: Set<object>
): YAMLMap => {
  const map = new YAMLMap()
  for (const key of orderedKeys(record, order)) {
    map.items.push(new Pair(keyNode(key), toNode(record[key], undefined, depth + 1, ancestors)))
  }
  return map
}

const rootNode = (document: Record<string, unknown>): YAMLMap => {
  const ancestors = new Set<object>([document])
  const map = new YAMLMap()
  const keys = orderedKeys(document, ROOT_ORDER)
  let unknownSeen = false
  keys.forEach((key, i) => {
    const k = keyNode(key)
    const raw = document[key]
    let value: YamlNode
    if (key === "rubr_flow" && typeof raw === "string") {
      const v = new Scalar(raw)
      v.type = Scalar.QUOTE_DOUBLE
      value = v
    } else {
      value = toNode(raw, hasOwn(BLOCK_ORDER, key) ? key : undefined, 1, ancestors)
    }
    const known = ROOT_ORDER.includes(key)
    const startsIdentity = IDENTITY.has(key) && !(i > 0 && IDENTITY.has(keys[i - 1]))
    if (i > 0 && (!IDENTITY.has(key) || startsIdentity)) k.spaceBefore = true
    if (startsIdentity) k.commentBefore = ` ${SECTION_COMMENT.name}`
    else if (known && hasOwn(SECTION_COMMENT, key) && !IDENTITY.has(key)) k.commentBefore = ` ${SECTION_COMMENT[key]}`
    else if (!known && !unknownSeen) {
      k.commentBefore = " Not part of rubr_flow 1.0 (the validator reports these keys)."
      unknownSeen = true
    }
    map.items.push(new Pair(k, value))
  })
  return map
}

const headerText = (lines: ReadonlyArray<string> | undefined): string => {
  if (lines === undefined || lines.length === 0) return ""
  const out: Array<string> = []
  for (const line of lines) {
    for (const part of String(line).split(/\r\n|\r|\n/)) {
      const text = part.replace(/\s+$/, "")
      out.push(text === "" ? "#" : `# ${text}`)
    }
  }
  return `${out.join("\n")}\n\n`
}

const TO_STRING = {
  indent: 2,
  indentSeq: true,
  lineWidth: 100,
  minContentWidth: 40,
  flowCollectionPadding: false,
  directives: false,
  // text that cannot be a literal block stays on one line with \n escapes: the library's multi-line
  // double quotes end a line with an escaped space ("\ ") where the text has one before a line break
  doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER
} as const

/** Renders `document` (normally `RubrFlowEncoded`, possibly malformed) as a `.rubr_flow` text. */
export const renderFlow = (document: Record<string, unknown>, options?: RenderOptions): string => {
  const doc = new Document()
  doc.contents = (isPlainRecord(document) || (document !== null && typeof document === "object" && !Array.isArray(document))
    ? rootNode(document)
    : toNode(document, undefined, 0, new Set())) as typeof doc.contents
  const body = doc.toString(TO_STRING)
  return `${headerText(options?.header)}${body}`
}
