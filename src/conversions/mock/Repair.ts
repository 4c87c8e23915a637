/**
 * The mock converter's repair phase: fixes what can be fixed deterministically from the validator's
 * issues and records one line per change. It works on the document itself (the issue codes say what
 * to look for), so it also mends drafts written by another converter.
 *
 * REPAIR_PASSES lists the passes in their order, each with what it fixes.
 *
 * Never invented: contradictory guardrails (which one is meant?) and a flow with no steps. Those
 * issues stay, and the conversion fails with them. A draft without errors is returned unchanged.
 */
import { formatSourceRef, parseSourceRef, RubrFlow } from "../../rubr_flow/Format.js"
import type { ValidationIssue } from "../../rubr_flow/Validator.js"
import { lineCount } from "../../rubr_flow/Validator.js"
import { SECTION_KEYS } from "../../rubr_flow/validate/Vocabulary.js"
import { assessFlow, idFrom, planBlocks, type PlannedIdentity, type SourceAnalysis } from "../Analysis.js"
import type { ConversionDraft, ConversionInput, MissingRequirement, RemainingRisk, RepairedDraft } from "../Types.js"
import { deriveCheck, GENERIC_CHECK } from "./Checks.js"
import { artifactSourcesOf, DEFAULT_FAILURE_HANDLER } from "./Generate.js"
import { clip } from "./Text.js"
import { CONTENT_HASH } from "../../domain/ContentHash.js"

type Rec = Record<string, unknown>

const SECTIONS = ["inputs", "steps", "outputs", "guardrails", "failure_handling", "evals"] as const
type Section = (typeof SECTIONS)[number]

// the validator's table of each section's keys (one place), and the root's
const KEYS: Record<Section | "sources" | "root", ReadonlyArray<string>> = { root: Object.keys(RubrFlow.fields), ...SECTION_KEYS }

/** Keys a draft may use for a known one (the validator suggests the same). */
const SYNONYMS: Record<Section | "sources" | "root", Record<string, string>> = {
  root: { version: "rubr_flow", title: "name", summary: "description", purpose: "description", when: "when_to_use", usage: "when_to_use", procedure: "steps", failures: "failure_handling", rules: "guardrails", constraints: "guardrails", tests: "evals" },
  sources: { file: "path", hash: "content_hash", sha256: "content_hash", line_count: "lines" },
  inputs: { name: "id", source: "from" },
  steps: { name: "title", description: "action", do: "action", instructions: "action", verify: "check", verification: "check", validation: "check", expected: "check", inputs: "uses", outputs: "produces", source: "from", on_error: "on_failure" },
  outputs: { name: "id", source: "from" },
  guardrails: { always: "must", do: "must", dont: "never", do_not: "never", rule: "must", source: "from" },
  failure_handling: { if: "when", condition: "when", action: "then", do: "then", resume: "resume_at", source: "from" },
  evals: { expected: "expected_behavior", criteria: "pass_criteria", source: "from" }
}

const ID = /^[a-z0-9][a-z0-9_-]{0,79}$/

const asRec = (x: unknown): Rec | null => (x !== null && typeof x === "object" && !Array.isArray(x) ? (x as Rec) : null)
const str = (x: unknown): string => (typeof x === "string" ? x : "")
const list = (doc: Rec, key: string): Array<Rec> => {
  const v = doc[key]
  return Array.isArray(v) ? v.map(asRec).filter((r): r is Rec => r !== null) : []
}
const ids = (doc: Rec, key: Section): Set<string> => new Set(list(doc, key).map((b) => str(b.id)).filter((x) => x !== ""))

const rangeOf = (b: Rec) => parseSourceRef(str(b.from))

/** How far block `b`'s range is from `ref`'s (0 when one contains the other's start). */
const distance = (a: Rec, b: Rec): number => {
  const ra = rangeOf(a)
  const rb = rangeOf(b)
  if (!ra || !rb) return Number.MAX_SAFE_INTEGER
  if (ra.path !== rb.path) return Number.MAX_SAFE_INTEGER - 1
  if (ra.start >= rb.start && ra.start <= rb.end) return 0
  if (rb.start >= ra.start && rb.start <= ra.end) return 0
  return Math.min(Math.abs(ra.start - rb.end), Math.abs(rb.start - ra.end))
}

const words = (s: string): Set<string> =>
  new Set(s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 4).map((w) => (w.endsWith("s") && w.length > 4 ? w.slice(0, -1) : w)))

/**
 * What the passes work on: a deep copy of the draft's document, which each pass mends in place, and the
 * records the repair returns (one line per change, the requirements and risks it leaves for the author).
 */
interface RepairState {
  readonly doc: Rec
  readonly issues: ReadonlyArray<ValidationIssue>
  readonly input: ConversionInput
  readonly identity: PlannedIdentity | undefined
  readonly sources: ReturnType<typeof artifactSourcesOf>
  readonly changes: Array<string>
  readonly missing: Array<MissingRequirement>
  readonly risks: Array<RemainingRisk>
}

interface RepairPass {
  readonly name: string
  /** What the pass fixes. */
  readonly fixes: string
  /** The validator codes that call for it; `"always"`: it checks the document itself on every repair. */
  readonly when: ReadonlyArray<string> | "always"
  readonly run: (state: RepairState) => void
}

type RefKind = "step" | "handler" | "output" | "input"

/** Renames id `oldId` → `newId` in the references to a block of `kind`; `follows` chooses which referring blocks follow. */
const retarget = (doc: Rec, kind: RefKind, oldId: string, newId: string, follows: (ref: Rec) => boolean) => {
  for (const st of list(doc, "steps")) {
    if (kind === "handler" && st.on_failure === oldId && follows(st)) st.on_failure = newId
    for (const key of ["uses", "produces"] as const) {
      if ((kind === "output" || kind === "input") && Array.isArray(st[key]) && follows(st)) {
        st[key] = (st[key] as Array<unknown>).map((x) => (x === oldId && (kind === "output" || key === "uses") ? newId : x))
      }
    }
  }
  if (kind === "step") for (const h of list(doc, "failure_handling")) if (h.resume_at === oldId && follows(h)) h.resume_at = newId
}

const setVersion = ({ doc, changes }: RepairState) => {
  if (doc.rubr_flow !== "1.0") {
    doc.rubr_flow = "1.0"
    changes.push('Set `rubr_flow: "1.0"`.')
  }
}

const fixUnknownKeys = ({ doc, changes }: RepairState) => {
  const fixKeys = (rec: Rec, where: Section | "sources" | "root", label: string) => {
    for (const key of Object.keys(rec)) {
      if (KEYS[where].includes(key)) continue
      const target = SYNONYMS[where][key.toLowerCase().replace(/[\s-]+/g, "_")] ?? (KEYS[where].includes(key.toLowerCase()) ? key.toLowerCase() : undefined)
      if (target !== undefined && rec[target] === undefined) {
        rec[target] = rec[key]
        changes.push(`Renamed the key \`${key}\` of ${label} to \`${target}\`.`)
      } else {
        changes.push(`Removed the unknown key \`${key}\` of ${label}.`)
      }
      delete rec[key]
    }
  }
  fixKeys(doc, "root", "the document")
  for (const section of [...SECTIONS, "sources"] as const) list(doc, section).forEach((b, i) => fixKeys(b, section, `${section}.${i}`))
}

const fillIdentity = ({ doc, changes, identity, input }: RepairState) => {
  for (const key of ["name", "description", "when_to_use"] as const) {
    if (typeof doc[key] === "string" && str(doc[key]).trim() !== "") continue
    const value = key === "name" ? identity?.name || input.bundleName || "procedure" : key === "description" ? identity?.description : identity?.whenToUse
    if (value) {
      doc[key] = key === "name" ? value.slice(0, 100) : value
      changes.push(`Filled the empty \`${key}\` from the source.`)
    }
  }
  if (typeof doc.name === "string" && doc.name.length > 100) {
    doc.name = doc.name.slice(0, 100)
    changes.push("Shortened `name` to 100 characters.")
  }
}

const listSingleIds = ({ doc, changes }: RepairState) => {
  for (const st of list(doc, "steps")) {
    for (const key of ["uses", "produces"] as const) {
      if (typeof st[key] === "string") {
        st[key] = [st[key]]
        changes.push(`Made \`${key}\` of step ${str(st.id)} a list.`)
      }
    }
  }
}

const fixMalformedIds = ({ doc, changes }: RepairState) => {
  for (const section of SECTIONS) {
    list(doc, section).forEach((b, i) => {
      if (b.id === undefined || (typeof b.id === "string" && ID.test(b.id))) return
      const old = str(b.id)
      const fresh = idFrom(old) || idFrom(str(b.title) || str(b.name) || str(b.when) || str(b.description)) || `${section.replace(/s$/, "")}-${i + 1}`
      b.id = fresh
      if (old !== "") {
        const kind = section === "steps" ? "step" : section === "failure_handling" ? "handler" : section === "outputs" ? "output" : "input"
        retarget(doc, kind, old, fresh, () => true)
      }
      changes.push(`Replaced the invalid id ${JSON.stringify(clip(old, 40))} of ${section}.${i} with \`${fresh}\`.`)
    })
  }
}

const mergeEmptySteps = ({ doc, changes }: RepairState) => {
  const steps = list(doc, "steps")
  const kept: Array<Rec> = []
  for (let i = 0; i < steps.length; i++) {
    const st = steps[i]!
    if (typeof st.action !== "string" || st.action.trim() !== "") {
      kept.push(st)
      continue
    }
    const next = steps[i + 1]
    const id = str(st.id)
    if (next) {
      const title = str(st.title).trim()
      if (title !== "") next.action = `${title}:\n${str(next.action)}`
      const a = rangeOf(st)
      const b = rangeOf(next)
      if (a && b && a.path === b.path) next.from = formatSourceRef({ path: a.path, start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) })
      if (id !== "") retarget(doc, "step", id, str(next.id), () => true)
      changes.push(`Merged the empty step ${id || `#${i + 1}`} (a heading with no text) into the next step, ${str(next.id)}.`)
    } else {
      const prev = kept[kept.length - 1]
      if (id !== "") {
        for (const h of list(doc, "failure_handling")) {
          if (h.resume_at === id) {
            if (prev) h.resume_at = prev.id
            else delete h.resume_at
          }
        }
      }
      for (const p of asArr(st.produces)) {
        if (prev) prev.produces = [...asArr(prev.produces), p]
      }
      changes.push(`Dropped the empty last step ${id || `#${i + 1}`} (no text to act on).`)
    }
  }
  if (kept.length !== steps.length) doc.steps = kept
}

const renameDuplicateIds = ({ doc, changes }: RepairState) => {
  for (const section of SECTIONS) {
    const blocks = list(doc, section)
    const taken = new Set(blocks.map((b) => str(b.id)))
    const groups = new Map<string, Array<Rec>>()
    for (const b of blocks) {
      const id = str(b.id)
      if (id === "") continue
      groups.set(id, [...(groups.get(id) ?? []), b])
    }
    for (const [id, same] of groups) {
      if (same.length < 2) continue
      const renamed: Array<{ block: Rec; id: string }> = [{ block: same[0]!, id }]
      let n = 2
      for (const b of same.slice(1)) {
        let fresh = `${id}-${n}`.slice(0, 80)
        while (taken.has(fresh)) fresh = `${id}-${++n}`.slice(0, 80)
        taken.add(fresh)
        n++
        b.id = fresh
        renamed.push({ block: b, id: fresh })
        changes.push(`Renamed the second ${section === "failure_handling" ? "failure handler" : section.replace(/s$/, "")} \`${id}\` to \`${fresh}\` (ids must be unique).`)
      }
      const nearest = (ref: Rec) => [...renamed].sort((a, b) => distance(ref, a.block) - distance(ref, b.block))[0]!.id
      const kind = section === "steps" ? "step" : section === "failure_handling" ? "handler" : section === "outputs" ? "output" : section === "inputs" ? "input" : null
      if (kind === null) continue
      // each reference to the duplicated id goes to the nearest block that has it
      if (kind === "step") for (const h of list(doc, "failure_handling")) if (h.resume_at === id) h.resume_at = nearest(h)
      if (kind === "handler") for (const st of list(doc, "steps")) if (st.on_failure === id) st.on_failure = nearest(st)
      if (kind === "output") for (const st of list(doc, "steps")) if (Array.isArray(st.produces)) st.produces = st.produces.map((x) => (x === id ? nearest(st) : x))
    }
  }
}

const renameOutputsNamedLikeInputs = ({ doc, changes }: RepairState) => {
  const inputIds = ids(doc, "inputs")
  const taken = new Set([...inputIds, ...ids(doc, "outputs")])
  list(doc, "outputs").forEach((o) => {
    const id = str(o.id)
    if (!inputIds.has(id)) return
    let fresh = `${id}-output`
    let n = 2
    while (taken.has(fresh)) fresh = `${id}-output-${n++}`
    taken.add(fresh)
    o.id = fresh
    for (const st of list(doc, "steps")) if (Array.isArray(st.produces)) st.produces = st.produces.map((x) => (x === id ? fresh : x))
    changes.push(`Renamed the output \`${id}\` to \`${fresh}\`: an input has the same id.`)
  })
}

const fixSources = ({ doc, changes, sources }: RepairState) => {
  const declared = list(doc, "sources")
  const byPath = new Map<string, Rec>()
  const deduped: Array<Rec> = []
  for (const s of declared) {
    if (byPath.has(str(s.path))) {
      changes.push(`Removed the second listing of the source ${str(s.path)}.`)
      continue
    }
    byPath.set(str(s.path), s)
    deduped.push(s)
  }
  for (const src of sources) {
    const lines = lineCount(src.content)
    const s = byPath.get(src.path)
    if (!s) {
      const named = SECTIONS.some((sec) => list(doc, sec).some((b) => rangeOf(b)?.path === src.path))
      if (!named && deduped.length > 0) continue
      const entry: Rec = { path: src.path, ...(CONTENT_HASH.test(src.contentHash) ? { content_hash: src.contentHash } : {}), lines }
      deduped.push(entry)
      byPath.set(src.path, entry)
      changes.push(`Listed the source ${src.path} (${lines} lines) under \`sources\`.`)
      continue
    }
    if (s.lines !== lines) {
      changes.push(`Set the line count of the source ${src.path} to ${lines} (was ${String(s.lines)}).`)
      s.lines = lines
    }
    if (typeof s.content_hash === "string" && s.content_hash !== src.contentHash && CONTENT_HASH.test(src.contentHash)) {
      s.content_hash = src.contentHash
      changes.push(`Updated the content hash of the source ${src.path}.`)
    }
  }
  doc.sources = deduped
}

const fixSourceRanges = ({ doc, changes }: RepairState) => {
  const lengths = new Map(list(doc, "sources").map((s) => [str(s.path), typeof s.lines === "number" ? s.lines : -1] as const))
  // the identity's `from` (at the root), then every block's
  const mapped: Array<readonly [string, Rec]> = [
    ["the identity", doc],
    ...SECTIONS.flatMap((section) => list(doc, section).map((b, i) => [`${section}.${i}`, b] as const))
  ]
  for (const [where, b] of mapped) {
    const r = rangeOf(b)
    if (!r) continue
    let path = r.path
    if (!lengths.has(path)) {
      const base = path.split("/").pop()
      const same = [...lengths.keys()].filter((p) => p.split("/").pop() === base)
      if (same.length === 1) {
        path = same[0]!
      } else {
        delete b.from
        changes.push(`Removed the source mapping of ${where}: ${r.path} is not a source of this flow.`)
        continue
      }
    }
    const max = lengths.get(path)!
    let start = r.start
    let end = r.end
    if (start > end) [start, end] = [end, start]
    if (max === 0) {
      delete b.from
      changes.push(`Removed the source mapping of ${where}: ${path} is empty.`)
      continue
    }
    if (max > 0) {
      end = Math.min(end, max)
      start = Math.min(start, end)
    }
    const ref = formatSourceRef({ path, start, end })
    if (ref !== b.from) {
      changes.push(`Clamped the source mapping of ${where} from ${str(b.from)} to ${ref}.`)
      b.from = ref
    }
  }
}

const attachUnproducedOutputs = ({ doc, changes, missing }: RepairState) => {
  const steps = list(doc, "steps")
  const produced = new Set(steps.flatMap((st) => asArr(st.produces)))
  const outputs = list(doc, "outputs")
  const keptOutputs: Array<Rec> = []
  for (const o of outputs) {
    const id = str(o.id)
    if (produced.has(id)) {
      keptOutputs.push(o)
      continue
    }
    const want = words(`${id.replace(/-/g, " ")} ${str(o.description)}`)
    let best: { st: Rec; score: number; index: number } | null = null
    steps.forEach((st, index) => {
      const have = words(`${str(st.title)} ${str(st.action)}`)
      let score = 0
      for (const w of want) if (have.has(w)) score++
      const near = distance(o, st) === 0 ? 0.5 : 0
      if (score + near > 0 && (best === null || score + near > best.score)) best = { st, score: score + near, index }
    })
    const chosen = best as { st: Rec; score: number; index: number } | null
    if (chosen !== null && chosen.score >= 1) {
      chosen.st.produces = [...asArr(chosen.st.produces), id]
      // a use of it before it exists cannot stand
      steps.slice(0, chosen.index + 1).forEach((st) => {
        if (asArr(st.uses).includes(id)) st.uses = asArr(st.uses).filter((x) => x !== id)
      })
      keptOutputs.push(o)
      changes.push(`Attached the output \`${id}\` to the step that delivers it, ${str(chosen.st.id)}.`)
    } else {
      for (const st of steps) if (asArr(st.uses).includes(id)) st.uses = asArr(st.uses).filter((x) => x !== id)
      missing.push({ code: "output_without_step", message: `The output ${id} (${clip(str(o.description), 80)}) is not delivered by any step of the source; it was dropped.`, block: null })
      changes.push(`Dropped the output \`${id}\`: no step delivers it.`)
    }
  }
  doc.outputs = keptOutputs
}

const dropDanglingReferences = ({ doc, changes }: RepairState) => {
  const usable = new Set([...ids(doc, "inputs"), ...ids(doc, "outputs")])
  const outputIds = ids(doc, "outputs")
  const handlerIds = ids(doc, "failure_handling")
  const stepIds = ids(doc, "steps")
  const firstProducer = new Map<string, number>()
  list(doc, "steps").forEach((st, i) => {
    for (const p of asArr(st.produces)) if (!firstProducer.has(p)) firstProducer.set(p, i)
  })
  list(doc, "steps").forEach((st, i) => {
    const name = str(st.id) || `#${i + 1}`
    for (const key of ["uses", "produces"] as const) {
      if (!Array.isArray(st[key])) continue
      const before = asArr(st[key])
      const after = before.filter((x) => {
        if (key === "produces") return outputIds.has(x)
        if (!usable.has(x)) return false
        const p = firstProducer.get(x)
        return !(outputIds.has(x) && !ids(doc, "inputs").has(x) && p !== undefined && p >= i)
      })
      for (const x of before.filter((y) => !after.includes(y))) {
        changes.push(
          key === "uses" && usable.has(x)
            ? `Removed \`${x}\` from the uses of step ${name}: it is produced only later.`
            : `Removed the dangling reference \`${x}\` from the ${key} of step ${name}.`
        )
      }
      if (after.length === 0) delete st[key]
      else st[key] = after
    }
    if (typeof st.on_failure === "string" && !handlerIds.has(st.on_failure)) {
      changes.push(`Removed the dangling \`on_failure: ${st.on_failure}\` of step ${name}.`)
      delete st.on_failure
    }
    for (const key of ["action", "check"] as const) {
      if (typeof st[key] !== "string") continue
      const text = str(st[key]).replace(/(?<!\$)\{\{\s*([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*\}\}/g, (m, n: string) => {
        if (usable.has(n.split(".")[0]!)) return m
        changes.push(`Unwrapped the undeclared placeholder {{${n}}} in the ${key} of step ${name}.`)
        return n
      })
      st[key] = text
    }
  })
  list(doc, "failure_handling").forEach((h, i) => {
    if (typeof h.resume_at === "string" && !stepIds.has(h.resume_at)) {
      changes.push(`Removed the dangling \`resume_at: ${h.resume_at}\` of failure handler ${str(h.id) || `#${i + 1}`}.`)
      delete h.resume_at
    }
  })
}

const deriveChecks = ({ doc, changes, risks }: RepairState) => {
  list(doc, "steps").forEach((st, i) => {
    const check = typeof st.check === "string" ? st.check : ""
    const restates = check.trim() !== "" && check.replace(/\s+/g, " ").trim().toLowerCase() === str(st.action).replace(/\s+/g, " ").trim().toLowerCase()
    if (check.trim() !== "" && !restates) return
    if (st.action === undefined && st.title === undefined) return
    const derived = deriveCheck({ title: str(st.title), action: str(st.action), commands: [] })
    const usable = derived !== null && derived.toLowerCase() !== str(st.action).trim().toLowerCase()
    st.check = usable ? derived : GENERIC_CHECK
    const name = str(st.id) || `#${i + 1}`
    if (usable) {
      changes.push(`${restates ? "Replaced the check that repeated the action of" : "Derived a check for"} step ${name} from its action.`)
    } else {
      changes.push(`Gave step ${name} a generic check: its text states no observable result.`)
      risks.push({
        code: "generic_check",
        message: `Step ${name} has a generic check: the source says nothing observable about when it is done. Write a concrete one.`,
        block: `steps.${i}`
      })
    }
  })
}

const fillOrDropEmptyTexts = ({ doc, changes }: RepairState) => {
  list(doc, "steps").forEach((st, i) => {
    if (str(st.title).trim() === "") {
      st.title = clip(str(st.action).split("\n")[0]!.replace(/^[-*\d.)\s]+/, ""), 80) || str(st.id) || `Step ${i + 1}`
      changes.push(`Gave step ${str(st.id) || `#${i + 1}`} a title from its action.`)
    }
  })
  for (const section of ["inputs", "outputs"] as const) {
    list(doc, section).forEach((b) => {
      if (str(b.description).trim() === "" && str(b.id) !== "") {
        b.description = `${str(b.id).replace(/[-_]+/g, " ")}.`.replace(/^./, (c) => c.toUpperCase())
        changes.push(`Described the ${section.replace(/s$/, "")} ${str(b.id)} by its id.`)
      }
    })
  }
  for (const [section, keys] of [["guardrails", ["must", "never"]], ["failure_handling", ["when", "then"]], ["evals", ["name", "input", "expected_behavior", "pass_criteria"]]] as const) {
    const blocks = list(doc, section)
    const kept = blocks.filter((b) => {
      const empty = section === "guardrails"
        ? str(b.must ?? b.never).trim() === ""
        : keys.some((k) => typeof b[k] !== "string" || str(b[k]).trim() === "")
      if (empty) changes.push(`Dropped ${section === "guardrails" ? "a guardrail" : section === "evals" ? "an eval case" : "a failure handler"} with no text${str(b.id) ? ` (${str(b.id)})` : ""}.`)
      return !empty
    })
    if (kept.length !== blocks.length) {
      if (section === "failure_handling") {
        const left = new Set(kept.map((b) => str(b.id)))
        for (const st of list(doc, "steps")) if (typeof st.on_failure === "string" && !left.has(st.on_failure)) delete st.on_failure
      }
      doc[section] = kept
    }
  }
}

const dropDuplicateGuardrails = ({ doc, changes, issues }: RepairState) => {
  const dupIndex = new Set(
    issues.filter((i) => i.code === "duplicate_guardrail").map((i) => Number(i.path.split(".")[1])).filter((n) => Number.isInteger(n))
  )
  const blocks = list(doc, "guardrails")
  if (dupIndex.size > 0 && blocks.length > Math.max(...dupIndex)) {
    doc.guardrails = blocks.filter((_, i) => !dupIndex.has(i))
    for (const i of [...dupIndex].sort((a, b) => a - b)) changes.push(`Dropped guardrails.${i}: it repeats an earlier guardrail.`)
  }
}

const addFailureHandler = ({ doc, changes }: RepairState) => {
  if (list(doc, "failure_handling").length > 0) return
  doc.failure_handling = [{ ...DEFAULT_FAILURE_HANDLER }]
  changes.push("Added a default failure handler (stop, report, ask): the draft had none.")
}

const noteContradictions = ({ issues, risks }: RepairState) => {
  risks.push({
    code: "contradictory_guardrails",
    message: "A must and a never guardrail are about the same thing; the repair does not choose between them. Decide which one the procedure means.",
    block: issues.find((i) => i.code === "contradictory_guardrails")?.path.split(".").slice(0, 2).join(".") ?? null
  })
}

const noteNoSteps = ({ doc, issues, missing }: RepairState) => {
  if (!issues.some((i) => i.code === "no_steps") && list(doc, "steps").length > 0) return
  missing.push({ code: "no_steps_in_source", message: "The source states no procedure: there is nothing to turn into steps.", block: null })
}

/** The passes in the order they run: later passes rely on earlier ones (ids are valid before references are checked). */
const REPAIR_PASSES: ReadonlyArray<RepairPass> = [
  { name: "version", fixes: "a missing or wrong `rubr_flow` version", when: "always", run: setVersion },
  { name: "unknown keys", fixes: "keys the format does not know: moved to the key they mean, else dropped", when: ["unknown_field"], run: fixUnknownKeys },
  { name: "identity", fixes: "an empty name, description or when_to_use (filled from the source), a name over 100 characters", when: "always", run: fillIdentity },
  { name: "single ids", fixes: "`uses` or `produces` given as one id instead of a list", when: "always", run: listSingleIds },
  { name: "malformed ids", fixes: "ids the format rejects: replaced, references follow", when: "always", run: fixMalformedIds },
  { name: "empty steps", fixes: "a heading-only step: merged into the next one, dropped when it is the last", when: ["empty_step"], run: mergeEmptySteps },
  { name: "duplicate ids", fixes: "ids used twice: suffixed -2, -3, references follow the nearest block", when: ["duplicate_id"], run: renameDuplicateIds },
  { name: "ambiguous ids", fixes: "an output id equal to an input id", when: ["ambiguous_id"], run: renameOutputsNamedLikeInputs },
  {
    name: "sources",
    fixes: "sources undeclared, unknown or listed twice, stale line counts and hashes",
    when: ["undeclared_source", "unknown_source", "source_lines_mismatch", "source_hash_mismatch", "duplicate_source"],
    run: fixSources
  },
  { name: "source ranges", fixes: "ranges in unknown paths (dropped) or outside their source (clamped)", when: ["unknown_source", "undeclared_source", "source_range_outside"], run: fixSourceRanges },
  { name: "unproduced outputs", fixes: "outputs no step produces: attached to the best-matching step, else dropped", when: ["unproduced_output"], run: attachUnproducedOutputs },
  {
    name: "references",
    fixes: "dangling references and uses before production (also those the passes above left behind)",
    when: ["undefined_reference", "used_before_produced", "empty_step", "unproduced_output", "duplicate_id"],
    run: dropDanglingReferences
  },
  { name: "checks", fixes: "missing checks or checks that repeat the action: derived, generic only when nothing can be derived", when: ["missing_check", "check_restates_action", "missing_field"], run: deriveChecks },
  { name: "empty texts", fixes: "empty titles and descriptions (filled), guardrails, handlers and evals with no text (dropped)", when: ["empty_text", "missing_field"], run: fillOrDropEmptyTexts },
  { name: "duplicate guardrails", fixes: "a guardrail that repeats an earlier one: the first is kept", when: ["duplicate_guardrail"], run: dropDuplicateGuardrails },
  { name: "failure handling", fixes: "no failure handling: a default handler (stop, report, ask)", when: ["no_failure_handling"], run: addFailureHandler },
  // left as they are, noted for the author: which guardrail is meant, and a procedure the source lacks
  { name: "contradictions", fixes: "nothing: contradictory guardrails become a remaining risk", when: ["contradictory_guardrails"], run: noteContradictions },
  { name: "no steps", fixes: "nothing: a flow without steps becomes a missing requirement", when: "always", run: noteNoSteps }
]

export const repairMock = (
  input: ConversionInput,
  analysis: SourceAnalysis,
  draft: ConversionDraft,
  issues: ReadonlyArray<ValidationIssue>
): RepairedDraft => {
  if (!issues.some((i) => i.severity === "error")) return { ...draft, changes: [] }
  const codes = new Set(issues.map((i) => i.code))
  // assessFlow's notes are recomputed on the repaired document below; the draft's own notes stay
  const fresh = assessFlow(draft.document, analysis)
  const assessedCodes = new Set([...fresh.missingRequirements, ...fresh.remainingRisks].map((x) => x.code).concat(ASSESS_CODES))
  const state: RepairState = {
    doc: JSON.parse(JSON.stringify(draft.document)) as Rec,
    issues,
    input,
    identity: planBlocks(analysis).blocks.find((b) => b.kind === "identity") as PlannedIdentity | undefined,
    sources: artifactSourcesOf(input),
    changes: [],
    missing: draft.missingRequirements.filter((m) => !assessedCodes.has(m.code)),
    risks: draft.remainingRisks.filter((r) => !assessedCodes.has(r.code) && r.code !== "check_not_derivable")
  }
  for (const pass of REPAIR_PASSES) {
    if (pass.when === "always" || pass.when.some((c) => codes.has(c))) pass.run(state)
  }
  const assessed = assessFlow(state.doc, analysis)
  return {
    ...draft,
    document: state.doc,
    missingRequirements: [...assessed.missingRequirements, ...state.missing],
    remainingRisks: [...assessed.remainingRisks, ...state.risks],
    changes: state.changes
  }
}

/** The codes assessFlow reports (replaced by a fresh assessment after the repair). */
const ASSESS_CODES = [
  "no_failure_handling_in_source",
  "no_inputs_in_source",
  "no_outputs_in_source",
  "no_checks_in_source",
  "no_guardrails_in_source",
  "no_when_to_use_in_source",
  "derived_checks",
  "missing_reference",
  "destructive_command",
  "unmapped_source_lines"
]

const asArr = (x: unknown): Array<string> => (Array.isArray(x) ? x.filter((y): y is string => typeof y === "string") : [])
