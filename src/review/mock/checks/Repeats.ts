/**
 * Sections and paragraphs said twice: a section whose content repeats an earlier one's (perhaps under
 * another title), later paragraphs or list items that say again what an earlier one said. Shared by
 * the check that scores them (Layout.ts) and the improved version that removes them (Repairs.ts).
 */
import { plainText } from "../../../markdown/Markdown.js"
import type { Doc } from "../../../markdown/Document.js"
import { perDoc } from "../../../markdown/PerDoc.js"
import { MISSING_MARKS } from "../../../markdown/BundleRefs.js"
import { memoByText } from "../../../markdown/Memo.js"
import { contentWords } from "./Words.js"

export interface Section {
  readonly heading: number
  readonly level: number
  readonly title: string
  /** first and last line of the section's own content (up to the next heading of any level) */
  readonly start: number
  readonly end: number
  readonly text: string
}

export const sections = (doc: Doc): Array<Section> => {
  const hs = doc.md.headings
  return hs.map((h, i) => {
    const end = (hs[i + 1]?.line ?? doc.split.lines.length + 1) - 1
    return {
      heading: h.line,
      level: h.level,
      title: plainText(h.text),
      start: h.line + 1,
      end,
      text: doc.split.lines.slice(h.line, end).join("\n").trim()
    }
  })
}

/** Word 3-grams of a text (memoised: a review compares the same paragraphs many times). */
const shingles = memoByText((text) => computeShingles(text))

const computeShingles = (text: string, k = 3): Set<string> => {
  const words = plainText(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  const out = new Set<string>()
  for (let i = 0; i + k <= words.length; i++) out.add(words.slice(i, i + k).join(" "))
  if (words.length < k && words.length > 0) out.add(words.join(" "))
  return out
}

/** The Jaccard index of two sets of word 3-grams, of these sizes, sharing `shared` members. */
const jaccard = (x: number, y: number, shared: number): number => {
  if (x === 0 || y === 0) return 0
  // the index cannot reach 0.45 when one set is more than twice the other
  if (Math.min(x, y) * 2.2 < Math.max(x, y)) return 0
  return shared / (x + y - shared)
}

/**
 * For each text, its similarity to every earlier text (the Jaccard index of the earlier text's word
 * 3-grams and those of `asLater(text)`), through an index of the 3-grams: texts that share none are
 * left out (their similarity is 0), so a long document costs far less than comparing every pair.
 */
const similarToEarlier = (texts: ReadonlyArray<string>, asLater: (text: string) => string = (t) => t): Array<Map<number, number>> => {
  const index = new Map<string, Array<number>>()
  const sets = texts.map((t) => shingles(t))
  return texts.map((text, j) => {
    const query = shingles(asLater(text))
    const shared = new Map<number, number>()
    for (const s of query) for (const i of index.get(s) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1)
    for (const s of sets[j]!) {
      const at = index.get(s)
      if (at) at.push(j)
      else index.set(s, [j])
    }
    const out = new Map<number, number>()
    for (const [i, n] of [...shared].sort(([a], [b]) => a - b)) out.set(i, jaccard(sets[i]!.size, query.size, n))
    return out
  })
}

/** Sections whose content repeats an earlier section's (a copy, perhaps under another title). */
export const duplicateSections = perDoc((doc: Doc): Array<{ readonly section: Section; readonly of: Section }> => {
  const all = sections(doc).filter((s) => plainText(s.text).split(/\s+/).length >= 8)
  const out: Array<{ section: Section; of: Section }> = []
  const similar = similarToEarlier(all.map((s) => s.text))
  for (let j = 1; j < all.length; j++) {
    const later = all[j]!
    const i = [...similar[j]!].find(([i, sim]) => all[i]!.level === later.level && (sim >= 0.8 || (all[i]!.title.toLowerCase() === later.title.toLowerCase() && sim >= 0.5)))?.[0]
    const earlier = i === undefined ? undefined : all[i]
    if (earlier && !out.some((d) => d.section.heading === earlier.heading)) out.push({ section: later, of: earlier })
  }
  return out
})

export interface Paragraph {
  readonly start: number
  readonly end: number
  readonly text: string
}

/** Runs of prose lines between blank lines, headings, code and lists. */
export const paragraphs = (doc: Doc): Array<Paragraph> => {
  const out: Array<Paragraph> = []
  const lines = doc.split.lines
  const headingLines = new Set(doc.md.headings.map((h) => h.line))
  const listLines = new Set(doc.md.listItems.map((i) => i.line))
  let start = -1
  const flush = (end: number) => {
    if (start > 0) out.push({ start, end, text: lines.slice(start - 1, end).join(" ").trim() })
    start = -1
  }
  for (let n = doc.md.bodyStartLine; n <= lines.length; n++) {
    const l = lines[n - 1]!
    const plain = !doc.md.inCode[n] && !headingLines.has(n) && !listLines.has(n) && l.trim() !== "" && !/^\s*(\||>|<)/.test(l)
    if (plain && start < 0) start = n
    if (!plain) flush(n - 1)
  }
  flush(lines.length)
  return out
}

/** List items with their continuation lines (nested lists excluded), as units of text. */
export const listItemUnits = (doc: Doc): Array<Paragraph> => {
  const lines = doc.split.lines
  const items = doc.md.listItems.filter((i) => !doc.md.inCode[i.line])
  return items.map((it, k) => {
    const next = items[k + 1]?.line ?? lines.length + 1
    let end = it.line
    for (let n = it.line + 1; n < next; n++) {
      const l = lines[n - 1]!
      if (l.trim() === "" || doc.md.inCode[n] || /^#{1,6}\s/.test(l)) break
      end = n
    }
    return { start: it.line, end, text: lines.slice(it.line - 1, end).join(" ").replace(/^\s*(?:[-*+]|\d{1,4}[.)])\s+/, "").trim() }
  })
}

/** Later paragraphs (or list items) that say again what an earlier one said, in nearly the same words. */
export const nearDuplicateParagraphs = perDoc((doc: Doc): Array<{ readonly paragraph: Paragraph; readonly of: Paragraph }> => {
  // the apply's own "(not included in this bundle)" marks say the same thing on purpose; a list item's
  // continuation lines ("2. Write the config:" then "2a. …", "2b. …") are part of the item, not a paragraph of their own
  const items = listItemUnits(doc)
  const continuation = new Set(items.flatMap((it) => Array.from({ length: it.end - it.start }, (_, k) => it.start + 1 + k)))
  const ps = [...paragraphs(doc).filter((p) => !continuation.has(p.start)).map((p) => ({ ...p, item: false })), ...items.map((p) => ({ ...p, item: true }))]
    .map((p) => ({ ...p, text: p.text.replace(MISSING_MARKS, "") }))
    .filter((p) => plainText(p.text).split(/\s+/).length >= 8)
    .sort((a, b) => a.start - b.start)
  const dupSections = duplicateSections(doc)
  const inDupSection = (p: Paragraph) => dupSections.some((d) => p.start >= d.section.start && p.end <= d.section.end)
  const found: Array<{ paragraph: Paragraph; of: Paragraph; short: boolean; k: number }> = []
  // a lead that announces a restatement ("In other words, …", "Put simply, …") is read past: what follows it is what is said again
  const similar = similarToEarlier(ps.map((p) => p.text), (t) => t.replace(RESTATES, ""))
  for (let j = 1; j < ps.length; j++) {
    const later = ps[j]!
    if (inDupSection(later)) continue
    // neighbouring items of one list built on one frame, each headed by its own word ("1. Seller (last
    // known entity by whom …), name and address", "2. Buyer (… to whom …), name and address"), are entries
    const entries = (e: (typeof ps)[number]) => e.item && later.item && later.start - e.end <= 2 && headWord(e.text) !== headWord(later.text)
    const i = [...similar[j]!].find(([i, sim]) => !entries(ps[i]!) && saysAgain(ps[i]!.text, later.text, sim))?.[0]
    const earlier = i === undefined ? undefined : ps[i]
    if (earlier) found.push({ paragraph: later, of: earlier, short: plainText(later.text).split(/\s+/).length < 10, k: j })
  }
  // a short line said twice stands alone in two places on purpose (the same step in two procedures);
  // a run of them is a pasted block
  return found
    .filter((d) => !d.short || found.some((x) => x !== d && Math.abs(x.k - d.k) === 1))
    .map(({ paragraph, of }) => ({ paragraph, of }))
})

/** The first word of a text, past a restatement's lead, in lower case: what an item is about. */
const headWord = (text: string): string => (plainText(text.replace(RESTATES, "")).trim().split(/[\s(:,]+/)[0] ?? "").toLowerCase()

/** The words that open a restatement: "In other words,", "Put simply,", "To put it another way,", "That is,", "Again,", "As noted above,". */
const RESTATES = /^\s*(?:in other words|put simply|simply put|to put it (?:another way|simply)|that is|again|as (?:noted|said|mentioned) (?:above|before|earlier)),\s*/i

/**
 * Whether `later` says again what `earlier` says (`sim`: their similarity): nearly the same text, or
 * mostly the same word sequences with the same content words (a rewording keeps the content; two items
 * built on one frame, "Use X when …" / "Use Y when …", each bring their own).
 */
const saysAgain = (earlier: string, later: string, sim: number): boolean => {
  if (sim >= 0.9) return true
  if (sim < 0.5) return false
  const a = new Set(contentWords(earlier))
  const b = new Set(contentWords(later))
  if (a.size < 8) return false
  const novel = [...b].filter((w) => !a.has(w)).length
  const lost = [...a].filter((w) => !b.has(w)).length
  return novel <= Math.max(2, 0.35 * b.size) && lost <= Math.max(2, 0.25 * a.size)
}
