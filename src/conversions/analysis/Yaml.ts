/**
 * The analysis of a YAML workflow (a CI file, a task runner's steps) into the same `FileAnalysis` a
 * Markdown source gets: every `steps:` list of mappings becomes steps, a step that runs only on
 * `if: failure()` becomes a failure handler, declared inputs become inputs, and the triggers say
 * when to use it. null when the text is not a YAML mapping, so the caller falls back to Markdown.
 */
import { countWords } from "../../ai/Tokens.js"
import { isMap, isScalar, isSeq, LineCounter, type Node as YamlNode, parseDocument, type YAMLMap } from "yaml"
import type { ConversionSource } from "../Types.js"
import type { AnalyzedFailure, AnalyzedInput, AnalyzedStep, FileAnalysis } from "./Model.js"
import { cap, cleanInline, idFrom, sentence, validId } from "./Text.js"

const yamlText = (n: unknown): string | null =>
  isScalar(n) && (typeof n.value === "string" || typeof n.value === "number" || typeof n.value === "boolean") ? String(n.value) : null

/** The lines a node spans (trailing blank lines trimmed). */
type RangeOf = (n: YamlNode) => { readonly start: number; readonly end: number }

/** `RangeOf` for the nodes of one source, its line positions counted by `lc` while parsing. */
const rangesIn = (source: ConversionSource, lc: LineCounter): RangeOf => {
  const lineOf = (offset: number) => lc.linePos(Math.min(offset, Math.max(0, source.content.length - 1))).line
  return (n) => {
    const r = n.range ?? [0, 0, 0]
    const start = lineOf(r[0])
    let end = lineOf(Math.max(r[0], r[1] - 1))
    while (end > start && (source.content.split(/\r?\n/)[end - 1] ?? "").trim() === "") end--
    return { start, end }
  }
}

/**
 * Every `steps:` list of mappings, in document order, as steps (`name`, `run`, `uses`, `with`); a step
 * that runs only `if: failure()` is a failure handler instead.
 */
const stepsOf = (root: YAMLMap, rangeOf: RangeOf) => {
  const steps: Array<AnalyzedStep> = []
  const failures: Array<AnalyzedFailure> = []
  const visit = (node: unknown, key: string | null, job: string | null) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = yamlText(pair.key) ?? ""
        visit(pair.value, k, key === "jobs" ? k : job)
      }
    } else if (isSeq(node) && key === "steps") {
      node.items.forEach((item) => {
        if (!isMap(item)) return
        const get = (k: string) => yamlText(item.get(k, true))
        const run = get("run")
        const uses = get("uses")
        const withArgs = item.get("with", true)
        const params = isMap(withArgs) ? withArgs.items.map((p) => `${yamlText(p.key) ?? ""}: ${yamlText(p.value) ?? "…"}`) : []
        const runLines = (run ?? "").split("\n").map((l) => l.trimEnd()).filter((l) => l.trim() !== "")
        const title = get("name") ?? get("description") ?? (uses ? `Use ${uses}` : runLines[0] ? `Run ${runLines[0]}` : `Step ${steps.length + 1}`)
        const action = [
          get("description") && get("name") ? get("description")! : null,
          runLines.length === 1 ? `Run \`${runLines[0]}\`.` : runLines.length > 1 ? ["Run:", ...runLines.map((l) => `  ${l}`)].join("\n") : null,
          uses ? `Use the action \`${uses}\`${params.length > 0 ? ` with ${params.map((p) => `\`${p}\``).join(", ")}` : ""}.` : null,
          item.get("continue-on-error") === true ? "A failure of this step does not stop the workflow (continue-on-error)." : null
        ].filter((x): x is string => x !== null).join("\n")
        const r = rangeOf(item as unknown as YamlNode)
        const cond = get("if") ?? ""
        if (/\bfailure\(\)/.test(cond)) {
          failures.push({
            id: validId(`if-${idFrom(`earlier step fails ${title}`, 6)}`, "on-failure"),
            when: job ? `An earlier step of job ${job} fails` : "An earlier step fails",
            then: sentence(action !== "" ? action : title),
            lineStart: r.start,
            lineEnd: r.end,
            kind: "conditional",
            resumeStepNumber: null,
            resumeSameStep: false
          })
          return
        }
        steps.push({
          number: null,
          title: cleanInline(title),
          lineStart: r.start,
          lineEnd: r.end,
          action: action !== "" ? action : cleanInline(title),
          subItems: 0,
          statedCheck: runLines.length > 0
            ? `\`${runLines.length === 1 ? runLines[0] : runLines[runLines.length - 1]}\` exits with status 0.`
            : uses
            ? `The action \`${uses}\` completes successfully.`
            : null,
          commands: runLines,
          origin: "yaml"
        })
      })
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item, null, job)
    }
  }
  visit(root, null, null)
  return { steps, failures }
}

/** The inputs: top-level, or those of a manually dispatched / called workflow. */
const inputsOf = (root: YAMLMap, rangeOf: RangeOf): Array<AnalyzedInput> => {
  const inputs: Array<AnalyzedInput> = []
  const on = root.get("on", true)
  const inputMaps = [root.get("inputs", true), ...(isMap(on) ? [on.getIn(["workflow_dispatch", "inputs"], true), on.getIn(["workflow_call", "inputs"], true)] : [])]
  for (const m of inputMaps) {
    if (!isMap(m)) continue
    for (const pair of m.items) {
      const id = yamlText(pair.key) ?? ""
      if (!/^[a-z0-9][a-z0-9_-]{0,79}$/.test(id) || inputs.some((i) => i.id === id)) continue
      const spec = pair.value
      const r = rangeOf((pair.key as YamlNode | null) ?? (spec as YamlNode))
      const end = isMap(spec) ? rangeOf(spec as unknown as YamlNode).end : r.end
      inputs.push({
        id,
        name: id,
        description: sentence(cap((isMap(spec) ? yamlText(spec.get("description", true)) : yamlText(spec)) ?? id)),
        required: isMap(spec) ? spec.get("required") === true : true,
        lineStart: r.start,
        lineEnd: Math.max(r.start, end),
        kind: "list"
      })
    }
  }
  return inputs
}

/**
 * A YAML workflow (a CI file, a task runner's steps): every `steps:` list of mappings, in document
 * order, becomes steps (`name`, `run`, `uses`, `with`); a step that runs only `if: failure()` is a
 * failure handler; `inputs` (top level, or under `on.workflow_dispatch` / `on.workflow_call`) are
 * inputs. null when the text is not a YAML mapping.
 */
export const analyzeYamlFile = (source: ConversionSource): FileAnalysis | null => {
  const lc = new LineCounter()
  const doc = parseDocument(source.content, { lineCounter: lc, uniqueKeys: false })
  if (doc.errors.length > 0 || !isMap(doc.contents)) return null
  const root = doc.contents as YAMLMap
  const rangeOf = rangesIn(source, lc)
  const total = source.content === "" ? 0 : source.content.replace(/\r?\n$/, "").split(/\r?\n/).length
  const name = yamlText(root.get("name", true)) ?? null
  const description = yamlText(root.get("description", true)) ?? null
  const { failures, steps } = stepsOf(root, rangeOf)
  const inputs = inputsOf(root, rangeOf)
  const on = root.get("on", true)
  const triggers = isMap(on) ? on.items.map((p) => yamlText(p.key) ?? "").filter((x) => x !== "") : isSeq(on) ? on.items.map(yamlText).filter((x): x is string => x !== null) : yamlText(on) ? [yamlText(on)!] : []
  const title = name ?? null
  return {
    path: source.path,
    artifactType: source.artifactType,
    contentHash: source.contentHash,
    lines: total,
    words: countWords(source.content),
    frontmatter: {
      present: false,
      name: name ? idFrom(name, 8) || null : null,
      description: description ?? (name ? `The ${name} workflow.` : null),
      otherKeys: root.items.map((p) => yamlText(p.key) ?? "").filter((k) => k !== "" && k !== "name" && k !== "description"),
      lineStart: 0,
      lineEnd: 0,
      descriptionLineStart: 0,
      descriptionLineEnd: 0
    },
    title: title ? { text: title, line: rangeOf(root.get("name", true) as YamlNode).start } : null,
    opening: null,
    whenToUse: triggers.length > 0 ? { text: `Use when the workflow is triggered (on: ${triggers.join(", ")}).`, lineStart: rangeOf(on as YamlNode).start, lineEnd: rangeOf(on as YamlNode).end, origin: "section" } : null,
    outline: [],
    procedures: steps.length > 0 ? [{ kind: "yaml", section: null, lineStart: steps[0]!.lineStart, lineEnd: steps[steps.length - 1]!.lineEnd, steps }] : [],
    rules: [],
    inputs,
    examples: [],
    failures,
    outputs: [],
    references: [],
    contentLines: source.content.split(/\r?\n/).filter((l) => l.trim() !== "" && !l.trim().startsWith("#")).length,
    contentRanges: source.content.split(/\r?\n/).flatMap((l, i) => (l.trim() !== "" && !l.trim().startsWith("#") ? [{ lineStart: i + 1, lineEnd: i + 1 }] : []))
  }
}
