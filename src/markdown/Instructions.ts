/**
 * How instructions are read, for every check that needs them: ordered lists, a step's first word and
 * whether it is an instruction, and the lines that run a command. Apart from the checks, so the steps,
 * needs, shape and consistency checks share them without importing one another.
 */
import { plainText } from "./Markdown.js"
import type { Doc } from "./Document.js"
import { IMPERATIVE_VERBS, NON_IMPERATIVE_STARTS, STEP_CONNECTIVES } from "./Vocabulary.js"
import { perDoc } from "./PerDoc.js"

export interface OrderedList {
  readonly items: ReadonlyArray<{ line: number; number: number; text: string }>
}

export const orderedLists = perDoc((doc: Doc): ReadonlyArray<OrderedList> => {
  const items = doc.md.listItems.filter((i) => i.ordered && !doc.md.inCode[i.line])
  const headingLines = new Set(doc.md.headings.map((h) => h.line))
  const lists: Array<Array<(typeof items)[number]>> = []
  for (const it of items) {
    const list = [...lists].reverse().find((l) => {
      const last = l[l.length - 1]!
      if (last.indent !== it.indent || last.marker !== it.marker) return false
      for (let n = last.line + 1; n < it.line; n++) {
        if (headingLines.has(n)) return false
        const text = doc.split.lines[n - 1]!
        if (text.trim() === "" || doc.md.inCode[n]) continue
        const ind = text.length - text.trimStart().length
        if (ind <= it.indent) return false
      }
      return true
    })
    if (list) list.push(it)
    else lists.push([it])
  }
  return lists.map((l) => ({ items: l.map((i) => ({ line: i.line, number: i.number, text: i.text })) }))
})

/** The first word of a step, with emphasis, code and a "Step N:" prefix removed. */
export const firstWord = (text: string): string => {
  const t = plainText(text)
    .replace(/^(?:step|phase)\s*\d+\s*[:.)-]\s*/i, "")
    .replace(/^[^\p{L}]+/u, "")
  return (t.match(/^[\p{L}'-]+/u)?.[0] ?? "").toLowerCase()
}

/** A hedge in front of an instruction ("Maybe run …") does not make it something else than an instruction. */
const LEADING_HEDGE = /^\s*(?:\*\*)?(?:maybe|perhaps|you might want to|you may want to|you should probably|you could|if (?:at all )?possible,|try to|ideally,?|feel free to)\s+/i

/** Whether the text opens on a verb that tells somebody to act ("Perform …", "Drop …"), not on a connective ("After …"). */
export const opensOnVerb = (text: string): boolean => IMPERATIVE_VERBS.has(firstWord(text.replace(LEADING_HEDGE, "")))

export const isImperative = (text: string): boolean | null => {
  const w = firstWord(text.replace(LEADING_HEDGE, ""))
  if (w === "") return null
  if (IMPERATIVE_VERBS.has(w) || STEP_CONNECTIVES.has(w)) return true
  if (NON_IMPERATIVE_STARTS.has(w) || /ing$|ed$/.test(w)) return false
  // a word followed by a colon is a label ("Prereq: ...", "Manual fallback:")
  if (/^[\p{L} '-]{1,30}:/u.test(plainText(text))) return null
  return /^(re|pre|un|de)/.test(w) && IMPERATIVE_VERBS.has(w.replace(/^(re|pre|un|de)/, "")) ? true : null
}

const CMD = /^(?:\$\s*)?(npm|pnpm|yarn|bun|npx|node|deno|make|cargo|go|python3?|pip3?|uv|poetry|pytest|ruff|black|mypy|tox|nox|rake|bundle|rails|gradle|\.\/gradlew|mvn|dotnet|docker|docker-compose|kubectl|terraform|git|gh|bash|sh|just|task|tsc|eslint|prettier|jest|vitest|php|composer|mix|swift|xcodebuild|flutter|dart|cmake|ctest|bazel|nx|turbo|\.\/[\w.-]+)\b(?![.\/-]\w)/

/** A line that runs a known tool (`npm test`, `$ pytest -q`, `./scripts/x.sh`); a file named after one (`go.mod`, `node.js`) runs nothing. */
export const isCommandLine = (text: string): boolean => CMD.test(text.trim())

export const commandLines = perDoc((doc: Doc): Array<{ line: number; text: string }> => {
  const out: Array<{ line: number; text: string }> = []
  for (const b of doc.md.codeBlocks) {
    for (let n = b.startLine + 1; n < (b.closed ? b.endLine : b.endLine + 1); n++) {
      const t = doc.split.lines[n - 1]!.trim()
      if (CMD.test(t)) out.push({ line: n, text: t })
    }
  }
  for (const c of doc.md.inlineCode) if (CMD.test(c.text.trim())) out.push({ line: c.line, text: c.text.trim() })
  return out.sort((a, b) => a.line - b.line)
})
