/**
 * The analysis of one artifact source (`analyzeFile`): YAML workflows go to Yaml.ts; a Markdown
 * source is scanned once, then its identity (frontmatter, H1, opening), failure handlers, stated
 * checks, examples, steps and procedures, rules, inputs, outputs, when to use it, bundle references
 * and content ranges are found by the sibling modules and assembled into one `FileAnalysis`.
 */
import { isImperative } from "../../markdown/Instructions.js"
import { analyzeDoc, BundleIndex, type Doc } from "../../markdown/Document.js"
import { type FrontmatterField, getField } from "../../markdown/Frontmatter.js"
import { dirname } from "../../markdown/Paths.js"
import { countWords } from "../../ai/Tokens.js"
import type { ConversionSource } from "../Types.js"
import { findExamples } from "./Examples.js"
import { findFailures } from "./Failures.js"
import { findInputs } from "./Inputs.js"
import type { AnalyzedExample, AnalyzedFailure, AnalyzedStep, FileAnalysis, SourceReferenceInfo } from "./Model.js"
import { findOutputs } from "./Outputs.js"
import { findStatedChecks, groupProcedures, inlineCommands, renderBody } from "./Procedures.js"
import { findRules } from "./Rules.js"
import { depthOf, itemLead, paragraphAt, type Scan, scanFile } from "./Scan.js"
import { findSteps } from "./Steps.js"
import {
  cap,
  cleanInline,
  HR,
  idFrom,
  isBlank,
  lowerFirst,
  sentence,
  splitSentences,
  stripEnd,
  validId
} from "./Text.js"
import { analyzeYamlFile } from "./Yaml.js"

/** The clause of a description saying when to use the artifact ("Use when ..."), up to the sentence end. */
const whenClause = (description: string): string | null => {
  const m = description.match(/\b(?:use (?:this skill |this |it )?(?:when|whenever|if|for|to)\b|(?:should )?use this skill (?:when|whenever|for)\b|invoke (?:when|whenever)\b|triggers? (?:when|on)\b)/i)
  if (!m) return null
  const from = m.index!
  let depth = 0
  let end = description.length
  for (let i = from; i < description.length; i++) {
    const c = description[i]!
    if (c === "(") depth++
    else if (c === ")") depth = Math.max(0, depth - 1)
    else if (depth === 0 && (c === ";" || (c === "." && (i + 1 === description.length || /\s/.test(description[i + 1]!))))) {
      if (c === "." && /\b(e\.g|i\.e|etc)$/i.test(description.slice(Math.max(0, i - 4), i))) continue
      end = i
      break
    }
  }
  const text = description.slice(from, end).trim()
  return text.split(/\s+/).length >= 3 ? sentence(cap(text)) : null
}

/** The opening: the first paragraph after the H1 (or of an Overview section right after it). */
const openingOf = (s: Scan, title: FileAnalysis["title"]): FileAnalysis["opening"] => {
  const { doc, lines } = s
  for (let n = title ? title.line + 1 : s.bodyStart; n <= lines.length; n++) {
    const l = lines[n - 1]!
    if (isBlank(l) || HR.test(l)) continue
    if (s.headingAt.has(n)) {
      const sec = s.secs[s.headingAt.get(n)!]!
      if (sec.role === "overview" || (sec.role === "other" && n === (title ? title.line : 0) + 2)) continue
      break
    }
    if (doc.md.inCode[n] || s.itemAt.has(n) || s.tableLines.has(n)) break
    const p = paragraphAt(s, n)
    if (/^\s*(<|!`|\{\{|\$ARGUMENTS)/.test(l) || !/[a-z]{3,}\s+[a-z]{2,}/i.test(p.text.replace(/`[^`]*`/g, ""))) {
      n = p.end
      continue
    }
    return { text: p.text.replace(/\n/g, " "), lineStart: n, lineEnd: p.end }
  }
  return null
}

/** The steps `findSteps` drafted, each with its action text, stated check and commands. */
const stepsOf = (
  s: Scan,
  drafts: ReturnType<typeof findSteps>,
  { consumedByFailures, examples, stated }: {
    readonly consumedByFailures: ReadonlySet<number>
    readonly examples: ReadonlyArray<AnalyzedExample>
    readonly stated: ReturnType<typeof findStatedChecks>
  }
): Array<AnalyzedStep> =>
  drafts.map((d) => {
    const exclude = new Set<number>(consumedByFailures)
    const checks = stated.filter((c) => c.lineStart >= d.lineStart && c.lineStart <= d.lineEnd)
    for (const e of examples) if (e.kind === "good_bad" && e.lineStart >= d.lineStart && e.lineEnd <= d.lineEnd) for (let n = e.lineStart; n <= e.lineEnd; n++) exclude.add(n)
    const base = d.lead !== "" && s.itemAt.has(d.lineStart) ? depthOf(s, s.itemAt.get(d.lineStart)!) + 1 : 0
    const body = d.bodyTo >= d.bodyFrom ? renderBody(s, d.bodyFrom, d.bodyTo, exclude, base) : { text: "", subItems: 0, commands: [] as Array<string> }
    // checklist items ("- [ ] ...") are the check of a verification step
    let statedCheck = checks.length > 0 ? checks.map((c) => c.text).join(" ") : null
    let action = [d.lead, body.text].filter((x) => x !== "").join("\n")
    if (d.origin === "section" || d.origin === "checklist") {
      const sec = s.secs[s.headingAt.get(d.lineStart) ?? -1]
      if (sec && sec.role === "verification") {
        const boxes = s.items.filter((it) => it.line > d.lineStart && it.line <= d.lineEnd && /^\[[ xX]\]\s/.test(it.text))
        if (boxes.length > 0) {
          statedCheck = sentence(boxes.map((b, i) => (i === 0 ? cap : lowerFirst)(stripEnd(cleanInline(b.text.replace(/^\[[ xX]\]\s*/, ""))))).join("; "))
          const boxLines = new Set(boxes.map((b) => b.line))
          const rest = renderBody(s, d.bodyFrom, d.bodyTo, new Set([...exclude, ...boxLines]), 0).text
          const go = `go through the checklist of ${boxes.length} items (${s.path}:${boxes[0]!.line}-${boxes[boxes.length - 1]!.line}) and confirm each one.`
          action = rest.trim() === "" ? cap(go) : `${stripEnd(rest)}: ${go}`
        }
      }
    }
    return {
      number: d.number,
      title: d.title,
      lineStart: d.lineStart,
      lineEnd: d.lineEnd,
      action,
      subItems: body.subItems,
      statedCheck,
      commands: [...new Set((d.lead !== "" ? inlineCommands(d.lead) : []).concat(body.commands))],
      origin: d.origin
    }
  })

/** When to use the artifact: its description's clause, a "when to use" section, or derived from the opening. */
const whenToUseOf = (
  s: Scan,
  source: ConversionSource,
  descField: FrontmatterField | undefined,
  fmDescription: string | null,
  opening: FileAnalysis["opening"]
): FileAnalysis["whenToUse"] => {
  const { doc, lines } = s
  let whenToUse: FileAnalysis["whenToUse"] = null
  const clause = fmDescription ? whenClause(fmDescription) : null
  if (clause && descField) whenToUse = { text: clause, lineStart: descField.line, lineEnd: descField.endLine, origin: "description" }
  if (!whenToUse) {
    const sec = s.secs.find((x) => x.role === "when_to_use")
    if (sec) {
      const parts: Array<string> = []
      for (let n = sec.line + 1; n <= sec.end; n++) {
        if (isBlank(lines[n - 1]!) || doc.md.inCode[n] || s.headingAt.has(n)) continue
        const li = s.itemAt.get(n)
        parts.push(li !== undefined ? stripEnd(itemLead(s, li).text) : stripEnd(cleanInline(lines[n - 1]!)))
      }
      if (parts.length > 0) {
        const [lead, ...rest] = parts
        whenToUse = {
          text: sentence(rest.length > 0 ? `${cap(lead!)}: ${rest.join("; ")}` : cap(lead!)),
          lineStart: sec.line,
          lineEnd: sec.end,
          origin: "section"
        }
      }
    }
  }
  if (!whenToUse && !opening && source.artifactType === "agent") {
    whenToUse = { text: "Use when working in the codebase these instructions belong to.", lineStart: s.bodyStart, lineEnd: s.bodyStart, origin: "opening" }
  }
  if (!whenToUse && opening) {
    const first = splitSentences(opening.text)[0] ?? opening.text
    const role = first.match(/^you are\s+(?:an?\s+|the\s+)?(.+)$/i)
    const repo = first.match(/^this (repository|repo|project|codebase|monorepo|package|service)\s+(?:contains|is|holds|provides|hosts|implements)\s+(.+)$/i)
    const text = repo
      ? `Use when working in this ${repo[1]!.toLowerCase()}: ${stripEnd(repo[2]!)}.`
      : source.artifactType === "agent"
      ? `Use when working in the codebase these instructions belong to.`
      : role
      ? `Use when the task calls for ${/^[aeiou]/i.test(role[1]!) ? "an" : "a"} ${stripEnd(role[1]!)}.`
      : isImperative(first) === true
      ? `Use when you need to ${lowerFirst(stripEnd(first))}.`
      : `Use for: ${sentence(lowerFirst(stripEnd(first)))}`
    whenToUse = { text, lineStart: opening.lineStart, lineEnd: opening.lineStart, origin: "opening" }
  }
  return whenToUse
}

/** The source's references to bundle files, each path once per resolution. */
const referencesOf = (doc: Doc, bundle: BundleIndex, source: ConversionSource, rootDir: string): Array<SourceReferenceInfo> => {
  const refs: Array<SourceReferenceInfo> = []
  const seenRefs = new Set<string>()
  for (const r of doc.refs) {
    // a bare file name (`package.json`, `config.toml`) usually means a file of the user's project
    if (r.glob || r.directory || r.kind === "name") continue
    const res = bundle.resolve(r, dirname(source.path), rootDir)
    if (res.status === "outside") continue
    const path = res.status === "ok" ? res.resolved : r.path.replace(/^\.\//, "")
    const key = `${path}:${res.status}`
    if (seenRefs.has(key)) continue
    seenRefs.add(key)
    refs.push({ line: r.line, path, exists: res.status === "ok" })
  }
  return refs
}

/** The lines with content (headings and rules excluded), counted and as ranges: what coverage measures. */
const contentOf = ({ bodyStart, headingAt, lines }: Scan) => {
  let contentLines = 0
  const contentRanges: Array<{ lineStart: number; lineEnd: number }> = []
  for (let n = bodyStart; n <= lines.length; n++) {
    // headings only organise the content; coverage counts what they hold
    if (isBlank(lines[n - 1]!) || HR.test(lines[n - 1]!) || headingAt.has(n)) continue
    contentLines++
    const last = contentRanges[contentRanges.length - 1]
    if (last && last.lineEnd === n - 1) last.lineEnd = n
    else contentRanges.push({ lineStart: n, lineEnd: n })
  }
  return { contentLines, contentRanges }
}

export const analyzeFile = (source: ConversionSource, bundle: BundleIndex, rootDir: string): FileAnalysis => {
  if (/\.ya?ml$/i.test(source.path)) {
    const y = analyzeYamlFile(source)
    if (y) return y
  }
  const doc = analyzeDoc({ path: source.path, content: source.content })
  const s = scanFile(doc, source.path)
  const { lines } = s
  const fm = doc.fm
  const fmName = fm.closed ? getField(fm, "name")?.value.trim() || null : null
  const descField = fm.closed ? getField(fm, "description") : undefined
  const fmDescription = descField?.value.replace(/\s+/g, " ").trim() || null
  const h1 = doc.md.headings.find((h) => h.level === 1)
  const title = h1 ? { text: cleanInline(h1.text), line: h1.line } : null
  const opening = openingOf(s, title)
  const failuresFound = findFailures(s)
  const failureSections = new Set(failuresFound.filter((f) => f.kind === "section").map((f) => f.lineStart))
  const stated = findStatedChecks(s)
  const examples = findExamples(s)
  const consumedByFailures = new Set(failuresFound.flatMap((f) => f.consumed))
  const steps = stepsOf(s, findSteps(s, failureSections), { consumedByFailures, examples, stated })
  const procedures = groupProcedures(s, steps)
  const rules = findRules(s, new Set([...consumedByFailures, ...stated.flatMap((c) => c.lines)]))
  const failures: Array<AnalyzedFailure> = failuresFound.map(({ consumed: _c, ...f }) => ({
    ...f,
    id: validId(failureId(f), "on-failure")
  }))
  const inputs = findInputs(s)
  const outputs = findOutputs(s, steps, fmDescription)
  const whenToUse = whenToUseOf(s, source, descField, fmDescription, opening)
  const refs = referencesOf(doc, bundle, source, rootDir)
  const { contentLines, contentRanges } = contentOf(s)
  return {
    path: source.path,
    artifactType: source.artifactType,
    contentHash: source.contentHash,
    lines: lines.length,
    words: countWords(source.content),
    frontmatter: {
      present: fm.present,
      name: fmName,
      description: fmDescription,
      otherKeys: fm.fields.map((f) => f.key).filter((k) => k !== "name" && k !== "description"),
      lineStart: fm.closed ? 1 : 0,
      lineEnd: fm.closed ? fm.endLine : 0,
      descriptionLineStart: descField ? descField.line : 0,
      descriptionLineEnd: descField ? descField.endLine : 0
    },
    title,
    opening,
    whenToUse,
    outline: s.secs.map((x) => ({ level: x.level, title: x.title, lineStart: x.line, lineEnd: x.end, role: x.role })),
    procedures,
    rules,
    inputs,
    examples,
    failures,
    outputs,
    references: refs,
    contentLines,
    contentRanges
  }
}

const failureId = (f: Omit<AnalyzedFailure, "id">): string => {
  if (f.kind === "condition_list") {
    const lead = f.then.split(/[.:]/)[0] ?? f.then
    return idFrom(lead.replace(/\((?:step|phase)[^)]*\)/i, ""), 4)
  }
  return `if-${idFrom(f.when, 5)}`
}
