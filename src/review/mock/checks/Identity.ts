/**
 * Frontmatter, name and description: how an agent finds and chooses the artifact.
 */
import type { Severity } from "../../Types.js"
import { type FrontmatterField, getField } from "../../../markdown/Frontmatter.js"
import { plainText } from "../../../markdown/Markdown.js"
import { basename } from "../../../markdown/Paths.js"
import type { Doc } from "../../../markdown/Document.js"
import { COMMAND_FRONTMATTER_KEYS, SKILL_FRONTMATTER_KEYS } from "../../../markdown/Vocabulary.js"
import { descriptionHedges } from "./Hedges.js"
import { type CheckContext, type CheckOutcome, Out, quote } from "./Common.js"
import { lightStem } from "./Words.js"
import { toKebab } from "../../../markdown/Names.js"

// ---------------------------------------------------------------- frontmatter

export const frontmatter = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("frontmatter", ctx.disabledRules)
  const { doc, artifactType } = ctx
  const fm = doc.fm
  const required = artifactType === "skill"
  if (!fm.present) {
    const firstNonBlank = doc.split.lines.findIndex((l) => l.trim() !== "")
    if (firstNonBlank > 0 && doc.split.lines[firstNonBlank]!.trim() === "---") {
      o.issue(
        "not_at_line_1",
        "major",
        firstNonBlank + 1,
        "The frontmatter does not start on line 1, so it is read as body text",
        "Remove the blank lines before the opening '---'."
      )
      o.deduct(30, "frontmatter not on line 1")
    } else if (doc.text.startsWith("\uFEFF")) {
      o.note("a byte-order mark precedes the content")
    }
    if (required) {
      o.issue(
        "missing",
        "critical",
        1,
        "No YAML frontmatter: agents discover a skill by its frontmatter `name` and `description`",
        "Start the file with a frontmatter block:\n---\nname: your-skill-name\ndescription: What it does. Use when ...\n---"
      )
      o.deduct(60, "no frontmatter")
    } else if (artifactType === "command") {
      o.issue(
        "missing",
        "minor",
        1,
        "No frontmatter: the command has no `description` or `argument-hint` for the command menu",
        "Add a frontmatter block with `description:` and, if the command takes arguments, `argument-hint:`."
      )
      o.deduct(30, "no frontmatter")
    } else {
      o.note("frontmatter is optional for this artifact type and absent")
    }
    return o.done()
  }
  if (!fm.closed) {
    o.issue(
      "unclosed",
      "critical",
      1,
      "The frontmatter opened on line 1 is never closed, so the whole file is read as YAML",
      "Close the frontmatter with a '---' line after the last key."
    )
    o.deduct(60, "frontmatter never closed")
    return o.done()
  }
  const weights = { critical: 40, major: 20, minor: 10 } as const
  let parsePoints = 0
  for (const i of fm.issues) {
    o.issue("yaml", i.severity, i.line, `Frontmatter: ${i.message}`, "Fix the YAML so a strict parser accepts it (quote values that contain ': ' or start with a special character).")
    parsePoints += weights[i.severity]
  }
  if (parsePoints > 0) o.deduct(Math.min(60, parsePoints), `${fm.issues.length} frontmatter syntax problem(s)`)
  const known = artifactType === "skill" ? SKILL_FRONTMATTER_KEYS : artifactType === "command" ? COMMAND_FRONTMATTER_KEYS : null
  if (known) {
    const unknown = fm.fields.filter((f) => !known.has(f.key))
    for (const f of unknown) {
      o.issue(
        "unknown_key",
        "info",
        f.line,
        `Unknown frontmatter key '${f.key}'`,
        `Move custom data under \`metadata:\` (known keys: ${[...known].join(", ")}).`
      )
    }
    o.deductEach(unknown.length, 3, 9, "unknown frontmatter keys")
  }
  if (o.deductions.length === 0) o.note(`frontmatter parses (${fm.fields.map((f) => f.key).join(", ")})`)
  return o.done()
}

// ---------------------------------------------------------------- name

export const name = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("name", ctx.disabledRules)
  const { doc, artifactType } = ctx
  const field = doc.fm.closed ? getField(doc.fm, "name") : undefined
  const line = field?.line ?? 1
  const folder = folderOf(ctx)
  const suggested = toKebab(folder || firstHeading(doc) || basename(doc.path).replace(/\.[^.]+$/, "")) || "my-skill"
  if (!field || field.value.trim() === "") {
    if (artifactType === "skill") {
      o.issue(
        "missing",
        "critical",
        line,
        "The frontmatter has no `name`",
        `Add \`name: ${suggested}\` (lowercase letters, digits and hyphens, matching the folder name).`
      )
      o.deduct(100, "no name")
    } else {
      o.note("no `name` field (optional for this artifact type)")
    }
    return o.done()
  }
  const value = field.value.trim()
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(value)) {
    o.issue(
      "format",
      "major",
      line,
      `The name ${quote(value)} is not kebab-case (lowercase letters, digits and single hyphens)`,
      `Use \`name: ${toKebab(value) || suggested}\`.`
    )
    o.deduct(40, "name not kebab-case")
  }
  if (value.length > 64) {
    o.issue("too_long", "major", line, `The name is ${value.length} characters long; the limit is 64`, "Shorten the name to at most 64 characters.")
    o.deduct(30, "name over 64 characters")
  }
  if (/<[^<>]+>/.test(value)) {
    o.issue("xml", "major", line, "The name contains an XML tag", "Remove angle-bracket tags from the name.")
    o.deduct(30, "XML in name")
  }
  if (/\b(anthropic|claude|openai)\b/i.test(value)) {
    o.issue("reserved", "minor", line, `The name ${quote(value)} contains a reserved vendor word`, "Name the skill after what it does, without vendor names.")
    o.deduct(15, "reserved word in name")
  }
  if (artifactType === "skill" && folder && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value) && value !== folder) {
    o.issue(
      "folder_mismatch",
      "major",
      line,
      `The name ${quote(value)} differs from its folder '${folder}'${folderSource(ctx)}: agents that load skills by folder refuse or misname it`,
      `Set \`name: ${folder}\`, or rename the folder to '${value}'.`
    )
    o.deduct(40, "name differs from folder")
  }
  if (o.deductions.length === 0) o.note(`name '${value}' is kebab-case, ${value.length} characters`)
  return spanField(o.done(), field)
}

/** A question reported from its asker, to the clause's end: "asks how we handle …", "wants to know what I owe". */
const REPORTED_QUESTION = /\b(?:asks?|asking|wonders?|wants? to know)\s+(?:\w+\s+){0,2}?(?:how|what|why|whether|if|where|when|which|who)\b[^.;,]*/gi

/**
 * The description speaks as its author: "I", "me", "my", "we", "our". A quoted request ("what's my
 * thinking style") or a reported one ("asks how we …") is the user speaking; an "I" joined to another
 * word ("I/O", "I-MR" charts) is a name, and one that closes a phrase ("Kirchhoff I)", "Type I,") is a
 * numeral: the pronoun is followed by its verb.
 */
const firstPerson = (value: string): boolean =>
  /\b(I|me|my|we|our)\b/.test(stripQuotes(value).replace(/(?<![\w/-])I(?=[-/]\w)|(?<=\w[-/])I\b|(?<=\w )I(?=[),;:.]|$)/g, "X").replace(REPORTED_QUESTION, " "))

/** Findings on a frontmatter field's first line cover all its lines (block scalars, folded values). */
const spanField = (out: CheckOutcome, field: FrontmatterField | undefined): CheckOutcome =>
  field && field.endLine > field.line
    ? { ...out, issues: out.issues.map((i) => (i.line === field.line ? { ...i, lineEnd: Math.max(i.lineEnd, field.endLine) } : i)) }
    : out

/**
 * The folder a skill's name must match: its directory in the bundle; for a file at the bundle's root,
 * the folder the client read the files from (`folderName`, as `rubr check DIR` sends it), else the
 * bundle's name, when that is itself a valid name.
 */
export const folderOf = (ctx: Pick<CheckContext, "doc" | "bundleName" | "folderName">): string => {
  const dir = basename(ctx.doc.dir)
  if (dir) return dir
  const valid = (s: string) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(s) && s.length <= 64
  const folder = ctx.folderName?.trim() ?? ""
  if (folder !== "") return valid(folder) ? folder : ""
  const bundle = ctx.bundleName?.trim() ?? ""
  return valid(bundle) ? bundle : ""
}

/** Where the folder name came from, for the message. */
const folderSource = (ctx: Pick<CheckContext, "doc" | "folderName">): string =>
  ctx.doc.dir !== "" ? "" : (ctx.folderName?.trim() ?? "") !== "" ? " (the folder the files were read from)" : " (the bundle's name)"

const firstHeading = (doc: Doc): string => plainText(doc.md.headings.find((h) => h.level === 1)?.text ?? "")

// ---------------------------------------------------------------- description

/** Words that fit any skill: a description made only of them names nothing. */
const GENERIC = new Set(
  ("skill skills help helps helping helpful useful utility utilities assist assists assisting tool tools various variety many different " +
    "kind kinds sort sorts type types thing things stuff task tasks work works job jobs general generic purpose purposes feature features " +
    "everything anything something lot lots simple easy quick quickly handle handles handling do does doing make makes use used using " +
    "with for and the a an of to in on that this it its can will your you user users").split(" ")
)

const topicWords = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !GENERIC.has(w)).map(lightStem))

/** The description names nothing the document is about: only words that fit any skill, or none the body uses. */
const saysNothingSpecific = (doc: Doc, description: string): boolean => {
  const wanted = [...topicWords(description)]
  if (wanted.length === 0) return true
  const body = topicWords(`${doc.md.headings.map((h) => h.text).join(" ")} ${doc.prose.map(([, t]) => t).join(" ")} ${basename(doc.dir)}`)
  return !wanted.some((w) => body.has(w))
}

/** Text without its quoted parts: a description quotes the requests it answers. */
const stripQuotes = (text: string): string => text.replace(/"[^"]*"|“[^”]*”|‘[^’]*’|(?<![\w])'[^']{2,}'(?![\w])/g, " ")

/** The words that open a use sentence after "Use (this skill)": "Use when …", "Use after a deploy …", "Use at month-end …", "Use every time …". */
export const USE_WHEN = "when|whenever|if|for|to|before|after|during|at|on|in|as|once|while|upon|any ?time|every ?time|each time"
/** "Use when", "Use this skill after", "Use it at": the opening of a use sentence, as regex source. */
export const USE_OPENING = `use (?:this skill |it )?(?:${USE_WHEN})`

export const TRIGGER = new RegExp(
  `\\b(use (this|it|the skill|${USE_WHEN})\\b|used (when|for|to)|when(ever)?\\b|if (the )?(user|you|a user)|invoke|trigger(s|ed)?|activate|applies (when|to)|for (tasks|requests|questions) (about|involving|that))`,
  "i"
)

export const description = (ctx: CheckContext): CheckOutcome => {
  const o = new Out("description", ctx.disabledRules)
  const { doc, artifactType } = ctx
  const field: FrontmatterField | undefined = doc.fm.closed ? getField(doc.fm, "description") : undefined
  const value = field?.value.replace(/\s+/g, " ").trim() ?? ""
  const line = field?.line ?? (doc.fm.closed ? doc.fm.endLine : 1)
  if (value === "") {
    const severity: Severity = artifactType === "skill" ? "critical" : artifactType === "command" ? "major" : "minor"
    o.issue(
      field ? "empty" : "missing",
      severity,
      line,
      field ? "The `description` is empty" : "The frontmatter has no `description`",
      artifactType === "skill"
        ? "Add `description:` saying what the skill does and when to use it, e.g. \"Builds X from Y. Use when the user asks to ...\" (at most 1024 characters)."
        : "Add `description:` with one sentence on what this does and when to use it."
    )
    o.deduct(artifactType === "skill" ? 100 : artifactType === "command" ? 90 : 50, "no description")
    return o.done()
  }
  const minLen = artifactType === "skill" ? 40 : 15
  if (value.length < minLen) {
    o.issue(
      "too_short",
      "major",
      line,
      `The description is only ${value.length} characters: too little for an agent to decide when to use it`,
      "Say what it does, for which inputs, and when to use it (aim for 1-3 sentences)."
    )
    o.deduct(30, "description too short")
  }
  if (value.length > 1024) {
    o.issue(
      "too_long",
      "major",
      line,
      `The description is ${value.length} characters; the limit is 1024`,
      "Keep the description to what and when; move details into the body."
    )
    o.deduct(30, "description over 1024 characters")
  }
  if (artifactType === "skill" && !TRIGGER.test(value)) {
    o.issue(
      "no_trigger",
      "major",
      line,
      "The description says what the skill is but not when to use it",
      `Append a trigger, e.g. "Use when the user asks to ..." (name the requests, file types or situations).`
    )
    o.deduct(35, "description lacks a 'when to use' trigger")
  }
  if (artifactType === "skill" && /^use (this skill )?when\b/i.test(value) && value.split(/[.;]\s/).length < 2) {
    o.issue(
      "no_what",
      "info",
      line,
      "The description only gives the trigger, not what the skill does",
      "Open with one clause on what the skill does, then the 'Use when ...' trigger."
    )
    o.deduct(5, "description gives no 'what'")
  }
  if (firstPerson(value)) {
    o.issue(
      "first_person",
      "minor",
      line,
      "The description is written in the first person",
      "Write it in the third person (\"Drafts internal updates ...\"), as it is injected into the agent's system prompt."
    )
    o.deduct(10, "first-person description")
  }
  const vague = descriptionHedges(value)
  if (artifactType === "skill" && value.length >= minLen && saysNothingSpecific(doc, value)) {
    o.issue(
      "generic",
      "major",
      line,
      "The description says nothing specific: none of its words name what the document is about",
      "Say what it does and on what (the task, the inputs, the tools), then when to use it."
    )
    o.deduct(40, "generic description")
  } else if (vague.length > 0) {
    o.issue(
      "vague",
      "minor",
      line,
      `Vague wording in the description: ${vague.map((t) => `"${t}"`).join(", ")}`,
      "Name the exact requests and situations that should trigger it; the description is all the agent sees when choosing."
    )
    o.deduct(10, "vague description")
  }
  if (/<[A-Za-z/][^>]*>/.test(value)) {
    o.issue("xml", "major", line, "The description contains an XML tag", "Remove angle-bracket tags from the description.")
    o.deduct(20, "XML in description")
  }
  if (o.deductions.length === 0) o.note(`description states what and when (${value.length} characters)`)
  return spanField(o.done(), field)
}
