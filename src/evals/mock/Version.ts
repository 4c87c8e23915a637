/**
 * One side of an eval read once for the mock evaluator: every line with its place in the
 * instructions (a step, a list item, a rule, a heading, plain prose, code, the description), its
 * stemmed words (vague filler left out), its vague wording and the bundle files it names that the
 * bundle lacks; step positions; and where the version says when it applies. Built on the shared
 * markdown model (src/markdown/: `analyzeDoc`, `resolveRefs`, `orderedLists`), as the reviewer is, so
 * both read a file the same way. Pure; a small cache keyed by the exact input keeps a run's repeated sides from being read twice.
 */
import { orderedLists } from "../../markdown/Instructions.js"
import { resolveRefs } from "../../markdown/BundleRefs.js"
import { analyzeDoc, BundleIndex, type Doc } from "../../markdown/Document.js"
import { ANY_VAGUE, IMPERATIVE_VERBS, VAGUE_TERMS } from "../../markdown/Vocabulary.js"
import { getField } from "../../markdown/Frontmatter.js"
import { maskInlineCode, plainText } from "../../markdown/Markdown.js"
import { ArtifactType, PACKAGE_TYPES } from "../../domain/Artifact.js"
import { STEP_HEADING, WHEN_TO_USE_TITLE } from "../../markdown/Sections.js"
import { lineStems, stripVague } from "./Terms.js"

/**
 * Where a line sits. `step`: a numbered item or a step heading ("Step 2", "Phase 1", "3."); `item`:
 * a bullet or the indented text under an item; `rule`: prose that instructs (imperative, must/never,
 * a condition); `description`: the frontmatter description; `meta`: other frontmatter.
 */
export type Place = "description" | "meta" | "step" | "item" | "heading" | "rule" | "prose" | "code" | "blank"

export interface VagueHit {
  readonly label: string
  readonly strength: "strong" | "weak"
}

export interface VLine {
  /** 1-based */
  readonly n: number
  readonly raw: string
  readonly place: Place
  /** the line as plain text (markup, list marker and emphasis removed; inline code kept) */
  readonly plain: string
  readonly stems: ReadonlySet<string>
  /** says "if", "when", "unless", "otherwise" ... */
  readonly conditional: boolean
  readonly vague: ReadonlyArray<VagueHit>
  /** bundle paths this line names that the bundle lacks (links, and paths in package artifacts) */
  readonly dangling: ReadonlyArray<string>
  /** 0-based position in its sequence of steps (numbered list or step headings); null off steps */
  readonly stepIndex: number | null
  /** the last line of the block this line opens (a heading's first lines, an item's sub-lines, a paragraph) */
  readonly windowEnd: number
}

export interface Version {
  readonly doc: Doc
  readonly artifactType: ArtifactType
  readonly lines: ReadonlyArray<VLine>
  /** lines saying when to use the version (a "use when" description, a "When to use" section, "Use this skill when" lines) */
  readonly triggerLines: ReadonlyArray<number>
  /** the frontmatter description's lines, when it has one */
  readonly descriptionLines: ReadonlyArray<number>
  /** the words of the block starting at a line (cached) */
  readonly windowStems: (n: number) => ReadonlySet<string>
  /** the plain text of the block starting at a line */
  readonly windowText: (n: number) => string
  readonly line: (n: number) => VLine
}

const ARTIFACT_TYPES: ReadonlySet<string> = new Set(ArtifactType.literals)
const CONDITIONAL = /\b(if|when|whenever|unless|otherwise|in case|once|until)\b/i
const RULE = /\b(must|never|always|do not|don'?t|avoid|only|required?|ensure|make sure|should)\b/i
const TRIGGER_EXPLICIT =
  /\b(use (this skill |this |it |the skill )?(when|whenever|if|for|before|after|during)\b|use this skill\b|(when|whenever|if) (the |a )?(user|you|someone|asked|requested)\b|applies (when|to)\b|for (tasks|requests|questions) (about|involving|that)\b|trigger(s|ed)? (when|on|by)\b|invoke (this|it) (when|for|if)\b)/i

const VAGUE = VAGUE_TERMS.map((v) => ({ ...v, once: new RegExp(v.pattern.source, "i") }))

const vagueOf = (prose: string): Array<VagueHit> => {
  if (!ANY_VAGUE.test(prose)) return []
  const masked = prose.replace(/\[([^\[\]]*)\]\([^()]*\)/g, "$1").replace(/https?:\/\/\S+/g, "")
  const hits: Array<VagueHit> = []
  for (const v of VAGUE) {
    if (!v.once.test(masked)) continue
    if (v.label === "appropriate" && hits.some((h) => h.label === "as appropriate")) continue
    if (v.label === "properly" && /\bproper (noun|name)/i.test(masked)) continue
    hits.push({ label: v.label, strength: v.strength })
  }
  return hits
}

const stripMarker = (s: string) => s.replace(/^\s*(?:[-*+]|\d{1,4}[.)])\s+/, "")

const indentOf = (s: string) => s.replace(/\t/g, "    ").search(/\S/)

/** What the passes below look a version's lines up in: its raw lines, headings and list items by line, its description. */
const layoutOf = (doc: Doc) => {
  const description = doc.fm.closed ? getField(doc.fm, "description") : undefined
  const descriptionLines: Array<number> = []
  if (description) for (let n = description.line; n <= description.endLine; n++) descriptionLines.push(n)
  return {
    doc,
    raw: doc.split.lines,
    count: doc.split.lines.length,
    headingAt: new Map(doc.md.headings.map((h) => [h.line, h] as const)),
    itemAt: new Map(doc.md.listItems.filter((i) => !doc.md.inCode[i.line]).map((i) => [i.line, i] as const)),
    description,
    descriptionLines
  }
}
type Layout = ReturnType<typeof layoutOf>

/** Step positions: numbered lists, then step headings by style ("Step", "Phase", "1.", "1.1"). */
const stepPositions = (doc: Doc): Map<number, number> => {
  const stepIndex = new Map<number, number>()
  for (const l of orderedLists(doc)) l.items.forEach((it, i) => stepIndex.set(it.line, i))
  const styleCount = new Map<string, number>()
  for (const h of doc.md.headings) {
    const g = STEP_HEADING.exec(plainText(h.text))?.groups
    if (!g) continue
    const key = g["label"] ? g["label"].toLowerCase() : `num${g["num"]!.split(".").length}`
    const i = styleCount.get(key) ?? 0
    styleCount.set(key, i + 1)
    stepIndex.set(h.line, i)
  }
  return stepIndex
}

/** References to files the bundle lacks, by line (links; in package artifacts, paths too). */
const danglingRefs = (doc: Doc, path: string, type: ArtifactType, bundlePaths: ReadonlyArray<string>): Map<number, Array<string>> => {
  const ctx = { doc, bundle: new BundleIndex([...bundlePaths, path]), rootDir: doc.dir }
  const dangling = new Map<number, Array<string>>()
  for (const r of resolveRefs(ctx)) {
    if (r.status !== "missing" || r.ref.kind === "name") continue
    if (r.ref.kind === "path" && !PACKAGE_TYPES.has(type)) continue
    const list = dangling.get(r.ref.line) ?? []
    if (!list.includes(r.ref.path)) list.push(r.ref.path)
    dangling.set(r.ref.line, list)
  }
  return dangling
}

/** Every line with its place, words, vague wording and dangling references; its block is measured next (`measureBlocks`). */
const readLines = (layout: Layout, stepIndex: ReadonlyMap<number, number>, dangling: ReadonlyMap<number, ReadonlyArray<string>>) => {
  const { doc, raw, count, headingAt, itemAt } = layout
  const bodyStart = doc.md.bodyStartLine
  const descSet = new Set(layout.descriptionLines)
  const lines: Array<VLine> = []
  let lastItemIndent = -1
  for (let n = 1; n <= count; n++) {
    const text = raw[n - 1]!
    const blank = text.trim() === ""
    let place: Place
    const h = headingAt.get(n)
    const it = itemAt.get(n)
    if (n < bodyStart) place = descSet.has(n) ? "description" : "meta"
    else if (doc.md.inCode[n]) place = "code"
    else if (blank) place = "blank"
    else if (h) place = stepIndex.has(n) ? "step" : "heading"
    else if (it) place = it.ordered ? "step" : "item"
    else if (/^ {0,3}=+\s*$|^ {0,3}-+\s*$/.test(text) && headingAt.has(n - 1)) place = "heading"
    else if (lastItemIndent >= 0 && indentOf(text) > lastItemIndent) place = "item"
    else place = "prose"
    if (it) lastItemIndent = it.indent
    else if (h || (place === "prose" && indentOf(text) === 0)) lastItemIndent = -1
    const plain = place === "code" || place === "blank" ? text.trim() : plainText(stripMarker(h ? h.text : text))
    const prose = place === "code" || place === "meta" ? "" : maskInlineCode(text).masked
    const conditional = place !== "code" && CONDITIONAL.test(plain)
    if (place === "prose" && (conditional || RULE.test(plain) || isImperativeStart(plain))) {
      place = "rule"
    }
    lines.push({
      n,
      raw: text,
      place,
      plain,
      // vague filler is no content: removing "try to" or "properly" never takes a word away
      stems: place === "blank" ? new Set() : lineStems(place === "code" ? text : stripVague(`${plain} ${linkTargets(text)}`)),
      conditional,
      vague: prose === "" ? [] : vagueOf(prose),
      dangling: dangling.get(n) ?? [],
      stepIndex: stepIndex.get(n) ?? null,
      windowEnd: n
    })
  }
  return lines
}

/** Sets each line's `windowEnd`, the end of its block: a heading with its first lines, an item with its sub-lines, a paragraph. */
const measureBlocks = ({ doc, raw, count, headingAt, itemAt, description }: Layout, lines: ReadonlyArray<VLine>): void => {
  for (const l of lines) {
    let end = l.n
    let nonBlank = 0
    if (l.place === "description") {
      end = description ? description.endLine : l.n
    } else if (headingAt.has(l.n)) {
      for (let k = l.n + 1; k <= count && nonBlank < 6; k++) {
        if (headingAt.has(k)) break
        if (lines[k - 1]!.place !== "blank") nonBlank++
        end = k
      }
    } else if (itemAt.has(l.n)) {
      const ind = itemAt.get(l.n)!.indent
      for (let k = l.n + 1; k <= count && nonBlank < 6; k++) {
        const t = raw[k - 1]!
        if (t.trim() === "") continue
        if (headingAt.has(k) || (!doc.md.inCode[k] && indentOf(t) <= ind)) break
        nonBlank++
        end = k
      }
    } else if (l.place === "rule" || l.place === "prose" || l.place === "item") {
      for (let k = l.n + 1; k <= count && nonBlank < 3; k++) {
        const p = lines[k - 1]!.place
        if (p === "blank" || p === "heading" || p === "code" || itemAt.has(k) || headingAt.has(k)) break
        nonBlank++
        end = k
      }
    }
    ;(l as { windowEnd: number }).windowEnd = end
  }
}

/** The lines saying when to use the version: a "use when" description, a "When to use" section, "Use this skill when" lines. */
const triggerLinesOf = ({ doc, count, headingAt, description, descriptionLines }: Layout, lines: ReadonlyArray<VLine>) => {
  const triggers = new Set<number>()
  if (description && TRIGGER_EXPLICIT.test(description.value)) descriptionLines.forEach((n) => triggers.add(n))
  for (const h of doc.md.headings) {
    if (!WHEN_TO_USE_TITLE.test(h.text)) continue
    triggers.add(h.line)
    for (let k = h.line + 1; k <= count; k++) {
      const next = headingAt.get(k)
      if (next && next.level <= h.level) break
      if (lines[k - 1]!.place !== "blank" && lines[k - 1]!.place !== "code") triggers.add(k)
    }
  }
  for (const l of lines) {
    if ((l.place === "rule" || l.place === "prose" || l.place === "item") && /^(use|invoke|apply)\b/i.test(l.plain) && TRIGGER_EXPLICIT.test(l.plain)) {
      triggers.add(l.n)
    }
  }
  return [...triggers].sort((a, b) => a - b)
}

/** The words (cached) and the plain text of the block starting at a line. */
const windowsOf = (lines: ReadonlyArray<VLine>) => {
  const windowCache = new Map<number, ReadonlySet<string>>()
  const windowStems = (n: number): ReadonlySet<string> => {
    const hit = windowCache.get(n)
    if (hit) return hit
    const l = lines[n - 1]!
    let s: ReadonlySet<string> = l.stems
    if (l.windowEnd > n) {
      const u = new Set(l.stems)
      for (let k = n + 1; k <= l.windowEnd; k++) for (const w of lines[k - 1]!.stems) u.add(w)
      s = u
    }
    windowCache.set(n, s)
    return s
  }
  const windowText = (n: number): string => {
    const l = lines[n - 1]!
    return lines.slice(n - 1, l.windowEnd).filter((x) => x.place !== "blank").map((x) => x.plain).join(" ")
  }
  return { windowStems, windowText }
}

const build = (path: string, content: string, artifactType: string, bundlePaths: ReadonlyArray<string>): Version => {
  const type: ArtifactType = ARTIFACT_TYPES.has(artifactType) ? (artifactType as ArtifactType) : "skill"
  const doc = analyzeDoc({ path, content })
  const layout = layoutOf(doc)
  const lines = readLines(layout, stepPositions(doc), danglingRefs(doc, path, type, bundlePaths))
  measureBlocks(layout, lines)
  const triggerLines = triggerLinesOf(layout, lines)
  const { windowStems, windowText } = windowsOf(lines)
  return {
    doc,
    artifactType: type,
    lines,
    triggerLines,
    descriptionLines: layout.descriptionLines,
    windowStems,
    windowText,
    line: (n) => lines[n - 1]!
  }
}

const linkTargets = (text: string): string =>
  [...text.matchAll(/\]\(([^()\s]*)\)/g)].map((m) => m[1]!.replace(/[/._#-]+/g, " ")).join(" ")

const isImperativeStart = (plain: string): boolean => {
  const w = (plain.match(/^[\p{L}'-]+/u)?.[0] ?? "").toLowerCase()
  return IMPERATIVE_VERBS.has(w)
}

const CACHE_SIZE = 16
/** larger versions are read again each time rather than held */
const CACHE_MAX_CHARS = 256 * 1024
const cache = new Map<string, Version>()

/** The analysis of one version; the same input returns the same (cached) analysis. */
export const readVersion = (
  path: string,
  content: string,
  artifactType: string,
  bundlePaths: ReadonlyArray<string>
): Version => {
  if (content.length > CACHE_MAX_CHARS) return build(path, content, artifactType, bundlePaths)
  const key = `${artifactType}\u0001${path}\u0001${bundlePaths.join("\u0002")}\u0001${content}`
  const hit = cache.get(key)
  if (hit) return hit
  const v = build(path, content, artifactType, bundlePaths)
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!)
  cache.set(key, v)
  return v
}
