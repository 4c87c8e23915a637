/**
 * What a document teaches in code, read from its inline code and its wording (split from Shape.ts):
 * code needs a block to show its usage, a command written out in full is shown already.
 */
import type { Doc } from "../../../markdown/Document.js"
import { isCommandLine } from "../../../markdown/Instructions.js"
import { perDoc } from "../../../markdown/PerDoc.js"
import { TODO_WORDS } from "./Words.js"

// ---------------------------------------------------------------- code taught without code

/** A file or folder name alone (`reference/style.md`, `scripts/`, `report.pdf`): a reference, not code being taught. */
const PATH_ONLY = /^(\.{0,2}\/)?[\w.@~<>{}$*-]+(\/[\w.@<>{}$*-]+)*\/?$/
const FILE_LIKE = /\/|\.(md|txt|py|js|ts|json|ya?ml|csv|tsv|sh|xml|html|pdf|png|jpe?g|svg|tex|docx?|xlsx?|pptx?|toml|ini|cfg|log|sql|ipynb|env|lock|rs|go|c|h|cc|cpp|hpp|java|kt|rb|swift|cs|php|ps1|psm1|tf|proto)$/i
/** Code: calls, operators, flags, dotted or snake_case or camelCase identifiers, constants. */
const CODEISH = /(^-{1,2}[a-z][\w-]*|[=(){}[\];]|^\$|::|->|=>|^[A-Z_]{3,}$|[a-z0-9]\.[a-z_]\w*|[a-z]_[a-z]|[a-z][A-Z])/

/**
 * A complete command line in inline code: a known tool with arguments, any command with a flag, or an
 * HTTP request line (`POST /3.0/campaigns/{id}/actions/test`), the call written out as it is made.
 */
export const isInlineCommand = (t: string): boolean =>
  (isCommandLine(t) && /\s/.test(t)) || /^[a-z][\w.-]*(\s+[^\s`]+)*\s--?[a-z][\w-]*/.test(t) || /^(?:GET|POST|PUT|PATCH|DELETE|HEAD)\s+(?:https?:\/\/\S+|\/\S*)$/.test(t)

const FUNCTION_WORD = /^(?:of|to|the|a|an|for|with|is|are|was|were|be|been|not|no|needs|cannot|could)$/

/**
 * Text in inline code that reads as a sentence: three lowercase words at least, three quarters of its
 * words plain words, one of them a function word ("of", "to", "with"), no upper-case keyword (so
 * `SELECT id FROM users` stays code). A tool's message quoted so it can be recognised.
 */
const quotedMessage = (t: string): boolean => {
  const tokens = t.split(/\s+/).filter((x) => x !== "")
  const words = tokens.filter((x) => /^[a-z][a-z']*[.,]?$/.test(x))
  return words.length >= 3 && words.length >= tokens.length * 0.75 && words.some((w) => FUNCTION_WORD.test(w.replace(/[.,]$/, ""))) &&
    !tokens.some((x) => /^[A-Z]{2,}$/.test(x))
}

/**
 * A bracketed marker written into a document as it is (`[chart: weekly error rate, Jan–Apr]`, `[TODO:
 * Q1 churn figure from finance]`): a label, a colon and words, a placeholder the skill has the agent
 * leave in its text, not code.
 */
const MARKER = /^\[[A-Za-z][\w -]{0,20}:\s+[^\]]*\s[^\]]*\]$/

/**
 * A placeholder in capitals, alone or with a note after a dash (`[CLIENT NAME]`, `[HEARING DEADLINE —
 * confirm with policy]`): a gap the skill has the agent leave visible in its text, not code.
 */
const CAPS_PLACEHOLDER = /^\[[A-Z][A-Z'’]+(?:[ _][A-Z][A-Z'’]*)*(?:\s+[—–-]\s+[^\]]+)?\]$/

/**
 * A bracketed token (`[confirm]`) on a line that calls it a placeholder or a mark ("explicitly marked
 * `[confirm]`"): a gap in a text, not code. Without that word it may be code (`[features]` heads a TOML
 * table), and a word in braces is a template's variable (`{count}`): the syntax an i18n skill teaches.
 */
const BRACKETED = /^\[[^\]\s][^\]]*\]$/
const CALLED_PLACEHOLDER = /\b(?:placeholders?|marked|markers?)\b/i

/**
 * A label written as it appears on a thing (`UPS-2A output breaker Q4 (UPS-2A cabinet)`): three words or
 * more, half of them plain lower-case words, with none of code's punctuation (no `=`, braces, `$`, a pipe,
 * a call's `name(`) and none of a query's or a program's keywords. A name to match, not code.
 */
const equipmentLabel = (t: string): boolean => {
  const tokens = t.split(/\s+/).filter((x) => x !== "")
  return tokens.length >= 3 && tokens.filter((x) => /^\(?[a-z]+[),.]?$/.test(x)).length * 2 >= tokens.length && !/[=;{}<>$|\\`*]|\w\(/.test(t) &&
    !tokens.some((x) => CODE_KEYWORD.test(x))
}

/** Words of a query or a program (`select count from events`, `import os`): code, however plain. */
const CODE_KEYWORD = /^(?:select|from|where|join|group|order|insert|update|delete|create|alter|drop|import|def|return|let|const|var|function|class|await|async|lambda|print|echo|export)$/i

/** A to-do marker opening the span, with its tag and colon: `TODO(ask):`, `TODO: confirm date`, `TBD(legal): …`. */
const TODO_MARKER = new RegExp(`^(?:${TODO_WORDS})(?:\\([\\w .-]{1,20}\\))?:`)

/** A domain name alone (`example.gov`, `status.acme.com`): an address, not code. */
const DOMAIN = /^(?:[a-z0-9-]+\.)+(?:com|org|net|gov|edu|mil|int|io|dev|co|us|uk|eu|de|fr|ca|au|example)$/

/**
 * Inline code that is text written as it is, not code being taught: a message a tool prints, quoted to
 * be matched (`error[E0432]: unresolved import`, `linking with cc failed`); a marker or placeholder the
 * skill has the agent leave in its text, in single or doubled brackets (`[chart: …]`, `[[TBD: breaker
 * number]]`, `[CLIENT NAME]`, `[confirm]` on a line that calls it a mark) or as a to-do with its tag
 * (`TODO(ask): target FRT`); a domain name.
 */
const writtenAsIs = (t: string, line: string): boolean => {
  const marker = t.replace(/^\[(\[[^\]]*\])\]$/, "$1")
  return quotedMessage(t) || MARKER.test(marker) || CAPS_PLACEHOLDER.test(marker) || DOMAIN.test(t) || TODO_MARKER.test(t) ||
    (BRACKETED.test(marker) && CALLED_PLACEHOLDER.test(line))
}

/** An MCP tool as agents name it: `mcp__<server>__<tool>`. */
const MCP_TOOL = /^mcp__[\w-]+__[\w-]+$/

/**
 * A search query written out in full as a table cell of its own: three terms or more, two of them
 * `field:value` qualifiers (GitHub, Sentry, Lucene, mail search), nothing elided, alone between the
 * pipes (`| Stale issues | \`repo:acme/app is:issue updated:<2024-01-01\` |`). A table of them shows
 * the syntax in use, row by row; a table of flags, fragments or messages does not.
 */
const wholeCellInput = (doc: Doc, line: number, t: string): boolean =>
  t.split(/\s+/).length >= 3 && t.split(/\s+/).filter((x) => /^-?[\w.]+:[^\s:]/.test(x)).length >= 2 && !/[(){};=…]|\.\.\./.test(t) && doc.split.lines[line - 1]!.split("|").some((cell) => cell.trim() === `\`${t}\``)

/** A turn of a sample dialogue: "User: …", "**Assistant:** …", "Human: …". */
const TURN = /^\s*(?:>\s*)?(?:\*\*|__)?(?:user|assistant|human|ai|agent|claude|model|customer|support|learner|tutor)(?:\*\*|__)?\s*:/i

/**
 * The lines of sample dialogues: from a turn to the next heading or horizontal rule. What a sample
 * conversation names in code (`--verbose`, `display_name`) is the sample's, not code the skill teaches.
 */
const dialogueLines = (doc: Doc): Set<number> => {
  const out = new Set<number>()
  let open = false
  for (const [n, t] of doc.prose) {
    if (/^\s*#{1,6}\s|^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/.test(t)) open = false
    else if (TURN.test(t)) open = true
    if (open) out.add(n)
  }
  return out
}

export interface Teaching {
  /** lines teaching code: identifiers, calls, operators in inline code, or words announcing code or a format */
  readonly code: ReadonlyArray<number>
  /** lines holding a complete command in inline code (the command is shown as it is run) */
  readonly commands: ReadonlyArray<number>
  /** table rows holding a search query written out in full, alone in its cell */
  readonly inputs: ReadonlyArray<number>
  /** lines holding a statement or expression written out in full in inline code (shown, as a command is) */
  readonly snippets: ReadonlyArray<number>
}

/**
 * A statement or an expression written out in full in inline code: code, and four tokens or more
 * with an operator between them (`v = get(); v += 1; set(v)`, `y ~ condition + (1 + condition |
 * subject)`, `if not exists(x): create(x)`). It shows the code in use, as a command written out does;
 * a name (`sync.Once`, `putIfAbsent`) or a call alone (`fetch(url)`) only names it.
 */
const snippet = (t: string): boolean =>
  CODEISH.test(t) &&
  ((t.split(/\s+/).length >= 4 && /\s(?:[-+*/%|&^~<>!]?=|[-+*/%~|<>]|&&|\|\||==|!=|<=|>=|=>|->|:=|:|;)\s|[;:]\s/.test(t)) ||
    (t.split(/\s+/).length >= 3 && /\S;$/.test(t)))

/**
 * What the document teaches in code, read from its inline code and its wording: code (library calls,
 * identifiers, a format) needs a block to show its usage; a command written out in full is shown
 * already. Returns the lines of each.
 */
export const teaching = perDoc((doc: Doc): Teaching => {
  const code = new Set<number>()
  const commands = new Set<number>()
  const inputs = new Set<number>()
  const snippets = new Set<number>()
  const dialogue = dialogueLines(doc)
  for (const c of doc.md.inlineCode) {
    if (doc.md.inCode[c.line] || dialogue.has(c.line)) continue
    const t = c.text.trim()
    // a tool's name (`mcp__mail__search_threads`, an MCP server's tool as the agent calls it) names a
    // tool, as a command's name does: it is called with arguments, not written as code
    if (MCP_TOOL.test(t)) continue
    if (writtenAsIs(t, doc.split.lines[c.line - 1] ?? "")) continue
    if (isInlineCommand(t)) commands.add(c.line)
    else if (wholeCellInput(doc, c.line, t)) inputs.add(c.line)
    else if (snippet(t)) {
      snippets.add(c.line)
      code.add(c.line)
    } else if (CODEISH.test(t) && t.length >= 3 && !(PATH_ONLY.test(t) && FILE_LIKE.test(t)) && !/^(pip|conda|uv|npm|brew|apt(-get)?)\b/.test(t) && !equipmentLabel(t)) code.add(c.line)
  }
  for (const [n, text] of doc.prose) {
    if (/\b(run (the following|this command|these commands)|the (following|this) (command|snippet|query|script|code|config(uration)?|schema|template|format|output|example)|syntax|as (json|yaml|csv)|in (json|yaml|csv) format|code (block|snippet|sample))\b/i.test(text)) code.add(n)
  }
  const sorted = (xs: Set<number>) => [...xs].sort((a, b) => a - b)
  return { code: sorted(code), commands: sorted(commands), inputs: sorted(inputs), snippets: sorted(snippets) }
})

/** Every line teaching code or commands (for the apply's example and the eval kit). */
export const teachesCode = (doc: Doc): Array<number> => {
  const t = teaching(doc)
  return [...new Set([...t.code, ...t.commands])].sort((a, b) => a - b)
}
