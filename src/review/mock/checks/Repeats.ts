/**
 * Sections and paragraphs said twice: a section whose content repeats an earlier one's (perhaps under
 * another title), later paragraphs or list items that say again what an earlier one said. Shared by
 * the check that scores them (Layout.ts) and the improved version that removes them (Repairs.ts).
 */
import { plainText } from "../../../markdown/Markdown.js"
import type { Doc } from "../../../markdown/Document.js"
import { perDoc } from "../../../markdown/PerDoc.js"
import { MISSING_MARKS } from "../../../markdown/BundleRefs.js"
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

const shingleCache = new Map<string, Set<string>>()

/** Word 3-grams of a text (memoised for the texts of the current review; the cache is bounded). */
const shingles = (text: string): Set<string> => {
  const hit = shingleCache.get(text)
  if (hit) return hit
  if (shingleCache.size > 5000) shingleCache.clear()
  const value = computeShingles(text)
  shingleCache.set(text, value)
  return value
}

const computeShingles = (text: string, k = 3): Set<string> => {
  const words = plainText(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  const out = new Set<string>()
  for (let i = 0; i + k <= words.length; i++) out.add(words.slice(i, i + k).join(" "))
  if (words.length < k && words.length > 0) out.add(words.join(" "))
  return out
}

export const similarity = (a: string, b: string): number => {
  const x = shingles(a)
  const y = shingles(b)
  if (x.size === 0 || y.size === 0) return 0
  // the Jaccard index cannot reach 0.45 when one set is more than twice the other
  if (Math.min(x.size, y.size) * 2.2 < Math.max(x.size, y.size)) return 0
  let shared = 0
  for (const s of x) if (y.has(s)) shared++
  return shared / (x.size + y.size - shared)
}

/** Sections whose content repeats an earlier section's (a copy, perhaps under another title). */
export const duplicateSections = perDoc((doc: Doc): Array<{ readonly section: Section; readonly of: Section }> => {
  const all = sections(doc).filter((s) => plainText(s.text).split(/\s+/).length >= 8)
  const out: Array<{ section: Section; of: Section }> = []
  for (let j = 1; j < all.length; j++) {
    const later = all[j]!
    const earlier = all.slice(0, j).find((e) => e.level === later.level && (similarity(e.text, later.text) >= 0.8 || (e.title.toLowerCase() === later.title.toLowerCase() && similarity(e.text, later.text) >= 0.5)))
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
  for (let j = 1; j < ps.length; j++) {
    const later = ps[j]!
    if (inDupSection(later)) continue
    // neighbouring items of one list built on one frame, each headed by its own word ("1. Seller (last
    // known entity by whom …), name and address", "2. Buyer (… to whom …), name and address"), are entries
    const entries = (e: (typeof ps)[number]) => e.item && later.item && later.start - e.end <= 2 && headWord(e.text) !== headWord(later.text)
    const earlier = ps.slice(0, j).find((e) => !entries(e) && saysAgain(e.text, later.text))
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
 * Whether `later` says again what `earlier` says: nearly the same text, or mostly the same word
 * sequences with the same content words (a rewording keeps the content; two items built on one frame,
 * "Use X when …" / "Use Y when …", each bring their own).
 */
const saysAgain = (earlier: string, later: string): boolean => {
  // a lead that announces a restatement ("In other words, …", "Put simply, …") is read past: what follows it is what is said again
  const sim = similarity(earlier, later.replace(RESTATES, ""))
  if (sim >= 0.9) return true
  if (sim < 0.5) return false
  const a = new Set(contentWords(earlier))
  const b = new Set(contentWords(later))
  if (a.size < 8) return false
  const novel = [...b].filter((w) => !a.has(w)).length
  const lost = [...a].filter((w) => !b.has(w)).length
  return novel <= Math.max(2, 0.35 * b.size) && lost <= Math.max(2, 0.25 * a.size)
}
