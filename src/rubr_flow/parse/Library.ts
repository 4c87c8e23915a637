/**
 * The full reader: the yaml library, for any text (`parseFlowText` uses it when the fast path gives
 * up). Its document is turned into plain data here rather than with the library's `toJS`:
 * - duplicate keys are found with a set per mapping (the library's own check is quadratic);
 * - aliases are expanded by copying, with a budget on the expanded nodes (no "billion laughs") and a
 *   cycle check;
 * - a depth limit holds while converting.
 */
import { type Document, isAlias, isMap, isScalar, isSeq, type Node as YamlNode, parseDocument, type YAMLMap } from "yaml"
import { keyString, makeOffsetOf } from "./LibraryOffsets.js"
import { estimateNesting, MAX_ALIAS_NODES, MAX_DEPTH, MAX_ESTIMATED_NESTING, MAX_TEXT_LENGTH } from "./Limits.js"
import { duplicateKeyProblem, type ParsedText, type ParseProblem, type PathSegment, setKey, tooLarge, unreadable } from "./Reading.js"

const YAML_OPTIONS = {
  prettyErrors: false,
  uniqueKeys: false,
  resolveKnownTags: false,
  strict: true,
  // not "silent": that also drops the MULTIPLE_DOCS error (parseDocument itself never logs)
  logLevel: "error"
} as const

const syntaxMessage = (code: string, message: string): string => {
  switch (code) {
    case "TAB_AS_INDENT":
      return "Tabs are not allowed as indentation in YAML: indent with spaces."
    case "DUPLICATE_KEY":
      return "This key appears twice in the same mapping."
    case "RESOURCE_EXHAUSTION":
      return "The document is nested too deeply to read."
    default:
      return `YAML syntax error: ${message.replace(/\s+/g, " ").trim()}`
  }
}

/** The library's errors and warnings; any error but a second document stops the reading (`fatal`). */
const documentProblems = (doc: Document.Parsed): { readonly problems: Array<ParseProblem>; readonly fatal: boolean } => {
  const problems: Array<ParseProblem> = []
  let fatal = false
  for (const error of doc.errors) {
    const offset = Math.max(0, error.pos[0])
    if (error.code === "MULTIPLE_DOCS") {
      problems.push({
        code: "multiple_documents",
        offset,
        path: [],
        message: "The file holds more than one YAML document (a `---` or `...` line): a rubr_flow is one document. Remove the marker and everything that belongs to the other document."
      })
    } else {
      fatal = true
      problems.push({
        code: error.code === "RESOURCE_EXHAUSTION" ? "too_deep" : "yaml_syntax",
        offset,
        path: [],
        message: syntaxMessage(error.code, error.message)
      })
    }
  }
  for (const warning of doc.warnings) {
    problems.push({
      code: "yaml_warning",
      offset: Math.max(0, warning.pos[0]),
      path: [],
      message: `YAML: ${warning.message.replace(/\s+/g, " ").trim()}`
    })
  }
  return { problems, fatal }
}

const readVersionText = (contents: YamlNode | null): string | null => {
  if (contents === null || !isMap(contents)) return null
  for (let i = contents.items.length - 1; i >= 0; i--) {
    const pair = contents.items[i]
    if (keyString(pair.key) === "rubr_flow") {
      const v = pair.value
      if (!isScalar(v) || v.value === null) return null
      if (typeof v.value === "string") return v.value
      return typeof v.source === "string" && v.source !== "" ? v.source : String(v.value)
    }
  }
  return null
}

/** Stops the conversion: the document cannot be read as plain data. */
class Abort {
  constructor(readonly problem: ParseProblem) {}
}

const describeKind = (node: YamlNode): string => (isMap(node) ? "a mapping" : isSeq(node) ? "a list" : "a value")

/**
 * The library's nodes as plain data. Anchors are registered in document order; an alias expands to a
 * copy of its anchor's value, and problems are reported once, where the text is, not in the copies.
 */
class PlainData {
  readonly anchors = new Map<string, YamlNode>()
  /** the nodes being converted, to find an alias inside its own anchor */
  readonly active = new Set<YamlNode>()
  readonly path: Array<PathSegment> = []
  aliasNodes = 0

  constructor(readonly problems: Array<ParseProblem>) {}

  abort(node: YamlNode, code: string, message: string): never {
    throw new Abort({ code, offset: node.range?.[0] ?? 0, path: [...this.path], message })
  }

  convert(node: YamlNode, depth: number, expanding: boolean): unknown {
    if (depth > MAX_DEPTH) {
      this.abort(node, "too_deep", `The document is nested more than ${MAX_DEPTH} levels deep; a rubr_flow needs at most 5.`)
    }
    if (expanding && ++this.aliasNodes > MAX_ALIAS_NODES) {
      this.abort(node, "yaml_alias", `Aliases (*name) expand to more than ${MAX_ALIAS_NODES} values: write the content out instead of repeating it through aliases.`)
    }
    if (isAlias(node)) {
      const target = this.anchors.get(node.source)
      if (target === undefined) this.abort(node, "yaml_alias", `The alias *${node.source} names no anchor &${node.source} defined before it.`)
      if (this.active.has(target)) this.abort(node, "yaml_alias", `The alias *${node.source} is inside the value it refers to (a cycle).`)
      return this.convert(target, depth, true)
    }
    if (!expanding && node.anchor) this.anchors.set(node.anchor, node)
    if (isScalar(node)) return node.value
    this.active.add(node)
    try {
      if (isSeq(node)) {
        const out: Array<unknown> = []
        node.items.forEach((item, i) => {
          this.path.push(i)
          out.push(item == null ? null : this.convert(item as YamlNode, depth + 1, expanding))
          this.path.pop()
        })
        return out
      }
      if (isMap(node)) return this.mapping(node, depth, expanding)
      return null
    } finally {
      this.active.delete(node)
    }
  }

  mapping(node: YAMLMap, depth: number, expanding: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    const seen = new Set<string>()
    for (const pair of node.items) {
      const keyNode = pair.key as YamlNode | null
      let key: string
      if (keyNode === null) key = ""
      else {
        const k = isScalar(keyNode) || isAlias(keyNode) ? this.convert(keyNode, depth + 1, expanding) : undefined
        if (k !== null && typeof k === "object" || k === undefined) {
          if (!expanding) {
            this.problems.push({
              code: "invalid_key",
              offset: keyNode.range?.[0] ?? 0,
              path: [...this.path],
              message: `A key here is ${describeKind(isAlias(keyNode) ? this.anchors.get(keyNode.source) ?? keyNode : keyNode)}; keys must be plain words such as \`steps\` or \`check\`.`
            })
          }
          continue
        }
        key = String(k)
      }
      if (seen.has(key) && !expanding) {
        this.problems.push(duplicateKeyProblem(key, keyNode?.range?.[0] ?? node.range?.[0] ?? 0, [...this.path, key]))
      }
      seen.add(key)
      this.path.push(key)
      const value = pair.value == null ? null : this.convert(pair.value as YamlNode, depth + 1, expanding)
      this.path.pop()
      setKey(out, key, value)
    }
    return out
  }
}

/** Reads `text` with the yaml library. Never throws. */
export const readWithLibrary = (text: string): ParsedText => {
  if (text.length > MAX_TEXT_LENGTH) return tooLarge(text)
  const nesting = estimateNesting(text)
  if (nesting > MAX_ESTIMATED_NESTING) {
    return unreadable("too_deep", `The document is nested too deeply to read (about ${nesting} levels); a rubr_flow needs at most 5.`)
  }
  let doc: Document.Parsed
  try {
    doc = parseDocument(text, YAML_OPTIONS)
  } catch (e) {
    // the library reports its problems as errors; this is a last resort
    return unreadable("yaml_syntax", `The YAML could not be read: ${String(e)}`)
  }
  const { problems, fatal } = documentProblems(doc)
  const contents = doc.contents as YamlNode | null
  const offsetOf = makeOffsetOf(contents)
  const versionText = readVersionText(contents)
  if (fatal) return { value: undefined, versionText, fatal, offsetOf, problems }
  if (contents === null || (isScalar(contents) && contents.value === null && !contents.source)) {
    problems.push({
      code: "empty_document",
      offset: 0,
      path: [],
      message: "The file is empty: a rubr_flow starts with `rubr_flow: \"1.0\"` followed by name, description, when_to_use and steps."
    })
    return { value: undefined, versionText, fatal: true, offsetOf, problems }
  }
  try {
    const value = new PlainData(problems).convert(contents, 0, false)
    return { value, versionText, fatal: false, offsetOf, problems }
  } catch (e) {
    problems.push(
      e instanceof Abort ? e.problem : { code: "too_deep", offset: 0, path: [], message: `The document could not be read: ${String(e)}` }
    )
    return { value: undefined, versionText, fatal: true, offsetOf, problems }
  }
}
