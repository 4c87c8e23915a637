/**
 * The inputs a source states: the items of an inputs section (`name`: description, optional or
 * required), `$ARGUMENTS` and positional `$1`..`$9` arguments, `{{placeholder}}` values, and a
 * command's `argument-hint` frontmatter field when nothing else names the arguments.
 */
import { getField } from "../../markdown/Frontmatter.js"
import { plainText } from "../../markdown/Markdown.js"
import type { AnalyzedInput } from "./Model.js"
import { itemLead, type Scan } from "./Scan.js"
import { cap, cleanInline, idFrom, sentence, validId } from "./Text.js"

export const findInputs = (s: Scan): Array<AnalyzedInput> => {
  const out: Array<AnalyzedInput> = []
  const seen = new Set<string>()
  const add = (x: AnalyzedInput) => {
    if (x.id === "" || seen.has(x.id)) return
    seen.add(x.id)
    out.push(x)
  }
  for (const sec of s.secs) {
    if (sec.role !== "inputs") continue
    for (let i = 0; i < s.items.length; i++) {
      const it = s.items[i]!
      if (it.line <= sec.line || it.line > sec.ownEnd || it.parent !== -1) continue
      const lead = itemLead(s, i)
      const raw = it.text
      const m = raw.match(/^`([^`]+)`\s*(?:[:–—-]\s*|\s+)(.*)$/) ?? raw.match(/^\*\*([^*]+)\*\*\s*[:–—-]?\s*(.*)$/) ?? raw.match(/^([\w .-]{1,40}?)\s*[:–—]\s+(.*)$/)
      const name = m ? plainText(m[1]!).trim() : plainText(raw).split(/\s+/).slice(0, 3).join(" ")
      const description = m ? cleanInline(m[2]!) : lead.text
      const desc = m && /^`/.test(raw) && !/^[:–—-]/.test(raw.replace(/^`[^`]+`\s*/, "")) ? lead.text : description
      add({
        id: /^[a-z0-9][a-z0-9_-]{0,79}$/.test(name) ? name : validId(idFrom(name, 4), `input-${out.length + 1}`),
        name,
        description: sentence(cap(desc === "" ? name : desc)),
        required: !/\b(optional|default(?:s)?\b|if (?:any|available|provided|given)|may be omitted|not required)/i.test(lead.text),
        lineStart: it.line,
        lineEnd: it.end,
        kind: "list"
      })
    }
  }
  const hint = s.doc.fm.closed ? getField(s.doc.fm, "argument-hint") : undefined
  for (let n = s.bodyStart; n <= s.lines.length; n++) {
    const l = s.lines[n - 1]!
    if (/\$ARGUMENTS\b/.test(l)) {
      add({
        id: "arguments",
        name: "$ARGUMENTS",
        description: sentence(hint ? `The command's arguments: ${hint.value}` : "The arguments passed to the command ($ARGUMENTS)"),
        required: true,
        lineStart: n,
        lineEnd: n,
        kind: "arguments"
      })
    }
    for (const m of l.matchAll(/\$([1-9])\b/g)) {
      if (s.doc.md.inCode[n] && !/\$ARGUMENTS/.test(l)) continue
      add({ id: `argument-${m[1]}`, name: `$${m[1]}`, description: `Positional argument ${m[1]} ($${m[1]}).`, required: true, lineStart: n, lineEnd: n, kind: "arguments" })
    }
    for (const m of l.matchAll(/(?<!\$)\{\{\s*([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*\}\}/g)) {
      const name = m[1]!.split(".")[0]!
      add({
        id: validId(name.toLowerCase(), `input-${out.length + 1}`),
        name: m[1]!,
        description: sentence(`The value of {{${m[1]}}}`),
        required: true,
        lineStart: n,
        lineEnd: n,
        kind: "placeholder"
      })
    }
  }
  if (hint && !out.some((x) => x.kind === "arguments")) {
    add({ id: "arguments", name: "argument-hint", description: sentence(cap(hint.value)), required: true, lineStart: hint.line, lineEnd: hint.endLine, kind: "hint" })
  }
  return out
}
