/**
 * The documentation the service ships: README.md and docs/*.md, read once at start. The MCP
 * documentation tools and resources serve it, and `/api/v1/guides` shows it as HTML pages (the
 * targets of the CLI's help links). A small ranked index searches it (title, headings and text,
 * with snippets). Pure but for the one read of the files.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

export const repoRoot = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "../..")

export interface Doc {
  /** `readme`, or the file name under docs/ without `.md` */
  readonly slug: string
  /** relative to the repository: `README.md`, `docs/audits.md` */
  readonly path: string
  readonly title: string
  readonly content: string
  readonly headings: ReadonlyArray<{ readonly line: number; readonly text: string }>
}

export interface SearchHit {
  readonly slug: string
  readonly path: string
  readonly title: string
  /** the section the best match is in */
  readonly section: string | null
  readonly snippet: string
  readonly score: number
}

const STOP = new Set(["the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "is", "are", "be", "it", "how", "what", "do", "i", "with", "by", "as", "at", "from", "can", "my"])

/** Lower-case words of 2+ letters, with a light plural/verb stem, stop words dropped. */
export const terms = (text: string): Array<string> =>
  (text.toLowerCase().match(/[\p{L}\p{N}_]{2,}/gu) ?? [])
    .filter((t) => !STOP.has(t))
    .map((t) => t.replace(/(?:ies)$/, "y").replace(/(?<=[a-z]{3})(?:es|s|ing|ed)$/, ""))

const loadDoc = (slug: string, path: string): Doc => {
  const content = Fs.readFileSync(Path.join(repoRoot, path), "utf8")
  const lines = content.split("\n")
  let fence = false
  const headings: Array<{ line: number; text: string }> = []
  lines.forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence
    const m = !fence && /^(#{1,4})\s+(.+?)\s*#*\s*$/.exec(line)
    if (m) headings.push({ line: i + 1, text: m[2]! })
  })
  return { slug, path, title: headings[0]?.text ?? slug, content, headings }
}

/** README.md and every docs/*.md, README first, then by name. */
export const loadDocs = (): ReadonlyArray<Doc> => {
  const docs = [loadDoc("readme", "README.md")]
  const dir = Path.join(repoRoot, "docs")
  for (const name of Fs.readdirSync(dir).filter((n) => n.endsWith(".md")).sort()) {
    docs.push(loadDoc(name.slice(0, -3), `docs/${name}`))
  }
  return docs
}

/** A doc by slug (`audits`), or by path (`docs/audits.md`, `README.md`); undefined for anything else. */
export const findDoc = (docs: ReadonlyArray<Doc>, ref: { readonly slug?: string | undefined; readonly path?: string | undefined }) => {
  const slug = ref.slug
  if (slug !== undefined) return docs.find((d) => d.slug === slug.toLowerCase().replace(/\.md$/, ""))
  if (ref.path !== undefined) {
    const normalized = Path.posix.normalize(ref.path.replace(/^\.\//, ""))
    return docs.find((d) => d.path === normalized)
  }
  return undefined
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

/** Ranked hits: title words count most, then headings, then the text (with diminishing returns). */
export const searchDocs = (docs: ReadonlyArray<Doc>, query: string, limit = 10): Array<SearchHit> => {
  const wanted = [...new Set(terms(query))]
  if (wanted.length === 0) return []
  const hits: Array<SearchHit> = []
  for (const doc of docs) {
    const title = new Set(terms(doc.title))
    const headingTerms = doc.headings.map((h) => new Set(terms(h.text)))
    const lines = doc.content.split("\n")
    const lineTerms = lines.map((l) => terms(l))
    let score = 0
    let matched = 0
    let bestLine = -1
    let bestLineScore = 0
    for (const t of wanted) {
      const inTitle = title.has(t) ? 5 : 0
      const inHeadings = headingTerms.filter((h) => h.has(t)).length
      const count = lineTerms.reduce((n, lt) => n + lt.filter((x) => x === t).length, 0)
      if (inTitle + inHeadings + count > 0) matched++
      score += inTitle + 3 * Math.min(inHeadings, 3) + Math.log2(1 + count)
    }
    if (matched === 0) continue
    // every query word found counts double: a page about all of them beats one about a single word
    score *= matched / wanted.length
    lineTerms.forEach((lt, i) => {
      const s = wanted.filter((t) => lt.includes(t)).length
      if (s > bestLineScore && !/^\s*(```|~~~|\|[-| ]+\|\s*$)/.test(lines[i]!)) {
        bestLineScore = s
        bestLine = i
      }
    })
    const section = bestLine < 0 ? null : [...doc.headings].reverse().find((h) => h.line <= bestLine + 1)?.text ?? null
    hits.push({
      slug: doc.slug,
      path: doc.path,
      title: doc.title,
      section,
      snippet: bestLine < 0 ? clip(doc.content.replace(/\s+/g, " "), 200) : clip(lines[bestLine]!.trim().replace(/\s+/g, " "), 240),
      score: Math.round(score * 100) / 100
    })
  }
  return hits.sort((a, b) => b.score - a.score || a.slug.localeCompare(b.slug)).slice(0, limit)
}
