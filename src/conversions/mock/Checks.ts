/**
 * Checks derived from a step's text, for the mock converter's generation and repair: an explicit
 * clause of the step ("to confirm", "so that", "until", "to pass the test", "keep tests green"), the
 * result of its verb applied to its object ("Resolve the PR" → "The PR is resolved"), evidence from its
 * commands ("`gh auth status` succeeds") and what it must provide ("Provide the check name, run URL
 * ..."). `null` when the text gives nothing to check: the caller decides what to do then.
 */
import { isImperative } from "../../markdown/Instructions.js"
import { IMPERATIVE_VERBS } from "../../markdown/Vocabulary.js"
import { maskInlineCode, plainText } from "../../markdown/Markdown.js"
import { cleanInline, splitSentences } from "../Analysis.js"
import { cap, lowerFirst, stripEnd } from "./Text.js"

export interface CheckSource {
  readonly title: string
  readonly action: string
  readonly commands: ReadonlyArray<string>
  readonly statedCheck?: string | null
}

type Group = "confirm" | "identify" | "read" | "load" | "deliver" | "summarize" | "create" | "change" | "run" | "follow" | "ask"

const GROUPS: Record<Group, ReadonlyArray<string>> = {
  confirm: ["verify", "confirm", "check", "recheck", "re-check", "validate", "test", "double-check", "retest"],
  identify: [
    "resolve", "identify", "determine", "find", "locate", "pick", "choose", "select", "decide", "define", "clarify",
    "establish", "detect", "classify", "categorize", "categorise", "triage", "assess", "evaluate", "scope", "estimate",
    "measure", "compute", "calculate", "list", "map", "name"
  ],
  read: ["inspect", "review", "examine", "analyze", "analyse", "read", "study", "understand", "explore", "research", "investigate", "search", "skim", "survey", "audit", "trace", "reproduce"],
  load: ["load", "fetch", "pull", "gather", "collect", "extract", "download", "retrieve", "capture", "obtain", "import", "clone", "open"],
  deliver: ["report", "present", "announce", "tell", "notify", "explain", "share", "send", "post", "publish", "reply", "respond", "answer", "communicate", "inform", "return", "show", "display", "print", "deliver", "propose", "suggest", "hand"],
  summarize: ["summarize", "summarise"],
  create: [
    "create", "draft", "write", "generate", "produce", "prepare", "compose", "build", "implement", "add", "make", "design",
    "plan", "file", "initialize", "initialise", "scaffold", "configure", "install", "enable", "record", "document", "outline",
    "structure", "organize", "organise", "register", "set"
  ],
  change: [
    "apply", "fix", "update", "edit", "change", "modify", "refactor", "rename", "move", "remove", "delete", "clean", "format",
    "merge", "rebase", "commit", "push", "deploy", "release", "migrate", "link", "mark", "tag", "label", "archive", "upgrade",
    "bump", "replace", "resolve-conflicts", "convert", "translate", "rewrite", "revise", "improve", "optimize", "simplify",
    "split", "combine", "sort", "filter", "group", "order", "rank", "prioritize", "prioritise", "close", "approve", "restart", "reset", "stage", "sync", "save", "store", "attach"
  ],
  run: ["run", "execute", "perform", "complete", "finish", "stop", "halt", "repeat", "iterate", "rerun", "re-run", "invoke", "launch", "start", "trigger", "call"],
  follow: ["follow", "apply-rules", "use", "keep"],
  ask: ["ask", "request", "get"]
}

const GROUP_OF = new Map<string, Group>()
for (const [g, verbs] of Object.entries(GROUPS) as Array<[Group, ReadonlyArray<string>]>) for (const v of verbs) GROUP_OF.set(v, g)

/** Verbs that do not say what the step achieves: the next clause says it better. */
const WEAK = new Set(["use", "keep", "follow", "see", "consider", "note", "prefer", "start", "get"])

const IRREGULAR: Record<string, string> = {
  find: "found", build: "built", write: "written", run: "run", rerun: "rerun", "re-run": "rerun", make: "made", read: "read", choose: "chosen",
  take: "taken", send: "sent", get: "got", give: "given", keep: "kept", understand: "understood", do: "done", put: "put",
  tell: "told", set: "set", show: "shown", split: "split", draw: "drawn", hold: "held", lead: "led", "double-check": "double-checked",
  "re-check": "re-checked", pull: "pulled", mark: "marked", label: "labelled", plan: "planned", scan: "scanned", commit: "committed",
  submit: "submitted", stop: "stopped", tag: "tagged", drop: "dropped", map: "mapped", ship: "shipped", pin: "pinned", log: "logged",
  file: "filed", begin: "begun", hand: "handed"
}

export const participle = (verb: string): string => {
  const v = verb.toLowerCase()
  if (IRREGULAR[v]) return IRREGULAR[v]!
  if (v.endsWith("e")) return `${v}d`
  if (/[^aeiou]y$/.test(v)) return `${v.slice(0, -1)}ied`
  return `${v}ed`
}

const PARTICLES = /^(up|out|down|over|back|off)\b\s*/i
const PREPOSITION_START = /^(for|to|with|in|on|at|from|using|via|into|as|by|after|before|when|if|and|or|so|that|then|until|while|about|of)\b/i
const OBJECT_END = /\s+(?:for|to|with|in|on|at|from|using|via|into|as|by|after|before|when|whenever|if|so|that|which|while|until|and then|then|according)\b.*$|\s*[.:;(—–].*$|\s+-\s.*$/i
const DETERMINER = /^(a|an|the|your|its|their|this|that|these|those|each|every|all|any|one|our|my|both|either|some|no)\b/i

const isPlural = (obj: string): boolean => {
  const words = plainText(obj).replace(/\([^)]*\)/g, "").replace(/\s+(?:of|per|for|from|in|on|with|following|according|based)\s.*$/i, "").trim().split(/\s+/)
  const last = (words[words.length - 1] ?? "").toLowerCase().replace(/[^a-z]/g, "")
  if (/\band\b|,/.test(obj)) return true
  if (/^(each|every|one)$/i.test(words[0] ?? "")) return false
  return last.length > 3 && /s$/.test(last) && !/(ss|us|is|ics|sis)$/.test(last)
}

/** "Plan Your Implementation" → "plan your implementation"; acronyms and code kept. */
const untitle = (text: string): string => {
  const words = text.split(/\s+/)
  const capitalized = words.filter((w) => /^[A-Z][a-z]/.test(w)).length
  if (words.length < 2 || capitalized * 3 < words.length * 2) return text
  return words.map((w) => (/^[A-Z][a-z]+$/.test(w) ? w.toLowerCase() : w)).join(" ")
}

/** A list of actions ("the approved plan, summarize diffs, and ask ...") ends the object at the next verb. */
const cutAtVerb = (text: string): string => {
  for (const m of text.matchAll(/(,\s*(?:and\s+|or\s+|then\s+)?|\s+(?:and|or|then)\s+)([a-z-]+)\b/g)) {
    if (GROUP_OF.has(m[2]!) || IMPERATIVE_VERBS.has(m[2]!)) return text.slice(0, m.index)
  }
  return text
}

/** The noun phrase after the verb, with "the" added when it has no determiner. */
const objectPhrase = (rest: string): string | null => {
  // "Present the user the commit message": the thing, not the person
  let t = rest.replace(PARTICLES, "").trim().replace(/^(?:the user|the human|them|me|us)\s+(?=(?:a|an|the|your|this|these)\s)/i, "")
  // an adverb is not the object ("Review critically - identify ...")
  t = t.replace(/^[a-z]+ly\b[\s,]*/i, "")
  if (t === "" || PREPOSITION_START.test(t)) return null
  t = t.replace(/\s*\((?:[^()]|\([^()]*\))*\)/g, "")
  t = cutAtVerb(t)
  // cut where the object ends, never inside inline code
  const end = maskInlineCode(t).masked.search(OBJECT_END)
  if (end >= 0) t = t.slice(0, end)
  t = t.trim().replace(/(?:\s+[a-z]+ly)+$/i, "")
  t = t.replace(/[,\s]+$/, "")
  if (t === "" || /^(it|them|this|that|everything|anything|something|here|there|now|again|everything else)$/i.test(t)) return null
  if (t.split(/\s+/).length > 12) return null
  t = t.replace(/^(both|either)\s+/i, "")
  if (DETERMINER.test(t) || /^`/.test(t) || /^\d/.test(t) || /^[A-Z][A-Za-z]*[A-Z]/.test(t)) return t
  return `the ${t}`
}

interface VerbObject {
  readonly verbs: ReadonlyArray<string>
  readonly object: string | null
  /** "Group them by area": the pronoun object and what follows it */
  readonly pronoun?: { readonly word: string; readonly rest: string }
}

/** The leading verb(s) and object of an instruction ("Load and Review Plan", "Create/update X"). */
const verbObject = (text: string): VerbObject | null => {
  const t = untitle(
    cleanInline(text)
      .replace(/^(?:[A-Z]{2,}\s*[-–—:]\s*)/, "")
      // a condition or loop before the instruction ("If no concerns: Create todos ...", "For each task, run ...")
      .replace(/^(?:if|when|once|after|for each|for every)\b[^:,]{0,60}[:,]\s*/i, "")
      .replace(/^(?:then|next|finally|first|now)[,\s]+/i, "")
      .trim()
  )
  const m = t.match(/^([A-Za-z-]+)(?:\s*(?:\/|\s+and\s+|\s*&\s*)\s*([A-Za-z-]+)(?=\s|$))?(?:\s+(.*))?$/)
  if (!m) return null
  if (/^(stop|halt)$/i.test(m[1]!)) return { verbs: ["stop"], object: null, pronoun: { word: "stop", rest: "" } }
  const v1 = m[1]!.toLowerCase()
  const v2 = m[2]?.toLowerCase()
  const rest = m[3] ?? ""
  // "Pull Request Hygiene", "Test Plan", "Build Commands": a noun phrase, not an instruction
  if (v2 === undefined && /^(request|requests|process|coverage|notes|review|reviews|message|messages|plan|strategy|commands?|guidelines|conventions|checklist|hygiene|style|requirements|workflow|pipeline|setup|steps|log|logs|policy|rules|standards|tips|instructions|overview|structure|layout|format|files|results|cases|data|environment|suite|system)\b/i.test(m[3] ?? "") && /^[A-Z]/.test(text.trim())) return null
  const verbs = [v1]
  if (!GROUP_OF.has(v1)) return null
  // "Link and surface": a second verb we do not know leaves no object to speak of
  if (v2 !== undefined && !GROUP_OF.has(v2)) return { verbs, object: null }
  if (v2 !== undefined) verbs.push(v2)
  if (v1 === "set" && /^up\b/i.test(rest)) return { verbs: ["set up"], object: objectPhrase(rest.replace(/^up\s*/i, "")) }
  const pronoun = rest.match(/^(it|them)\b\s*(.*)$/i)
  if (pronoun) return { verbs, object: null, pronoun: { word: pronoun[1]!.toLowerCase(), rest: stripEnd(pronoun[2]!) } }
  return { verbs, object: objectPhrase(rest) }
}

const resultOf = (vo: VerbObject): string | null => {
  const verb = vo.verbs[0]!
  const group = GROUP_OF.get(verb.split(" ")[0]!) ?? "create"
  const obj = vo.object
  if (group === "summarize") return obj ? `The user has a summary of ${obj.replace(/^the\s+/i, "the ")}` : null
  if (verb === "stop") return "The work has stopped here; nothing further is done"
  if (obj === null && vo.pronoun && ["change", "create", "identify", "confirm"].includes(group)) {
    const done = vo.verbs.map((v) => participle(v)).join(" and ")
    return `${vo.pronoun.word === "them" ? "They are" : "It is"} ${done}${vo.pronoun.rest !== "" ? ` ${vo.pronoun.rest}` : ""}`
  }
  if (obj === null) return null
  const be = isPlural(obj) ? "are" : "is"
  const parts = vo.verbs.map((v) => (v === "set up" ? "set up" : participle(v)))
  const done = parts.join(" and ")
  const subject = cap(obj)
  switch (group) {
    case "confirm":
      return `${subject} ${be} confirmed`
    case "deliver":
      return `${subject} ${be} ${done} to the user`
    case "ask":
      return verb === "request" ? `${subject} ${be} received` : `The user has answered about ${lowerFirst(obj)}`
    case "follow":
      return `${subject} ${be} followed`
    case "run":
      if (verb === "complete" || verb === "finish") return `${subject} ${be} complete`
      return /^`[^`]+`$/.test(obj) ? `${obj} completes without errors` : `${subject} ${be} ${done}`
    default:
      return `${subject} ${be} ${done}`
  }
}

/** Evidence from the step's commands: what the command shows when the step worked. */
const evidenceOf = (group: Group | null, commands: ReadonlyArray<string>): string | null => {
  const usable = commands.filter((c) => c.length <= 70)
  const cmd = usable[0]
  if (!cmd) return null
  if (group === "read" || group === "load") return `the output of \`${cmd}\` is read`
  if (group === "identify") return `\`${cmd}\` returns it`
  if (/\b(test|tests|pytest|jest|vitest|spec|check)\b/.test(cmd)) return `\`${cmd}\` passes`
  return `\`${cmd}\` succeeds`
}

const CLAUSE_VERB = /\b(is|are|was|were|has|have|had|can|will|shows?|passes|pass|succeeds?|works?|fails?|returns?|matches|match|exists?|contains?|runs?|builds?|compiles?|appears?|stays?|remains?|reports?|lists?)\b/i

/** An explicit clause of the step that says what done looks like. */
const explicitClause = (clauses: ReadonlyArray<string>): string | null => {
  for (const raw of clauses) {
    const c = stripEnd(raw)
    const reply = c.match(/^(?:respond|reply|answer|return|output)\s+(?:only\s+)?(with|as|in)\s+(.+)$/i)
    if (reply) return `The response ${reply[1]!.toLowerCase() === "with" ? "is" : `is ${reply[1]!.toLowerCase()}`} ${reply[2]}`
    let m = c.match(/\b(?:re-?run(?:ning)?|run(?:ning)?|execut(?:e|ing))\s+(.+?)\s+to\s+(?:confirm|verify|check|make sure)\b\s*(.*)$/i)
    if (m && m[2]!.trim() === "") return `${cap(m[1]!.replace(/^the\s/i, "the "))} ${isPlural(m[1]!) ? "pass" : "passes"}`
    m = c.match(/\bto\s+(?:verify|confirm|check|make sure|ensure)(?:\s+that)?\s+(.+)$/i)
    if (m) {
      const what = cutAtVerb(m[1]!.trim())
      const cmd = c.match(/`([^`]+)`/)
      if (CLAUSE_VERB.test(what)) return cap(what)
      return `${cap(what)} ${isPlural(what) ? "are" : "is"} confirmed${cmd ? `: \`${cmd[1]}\` completes without errors` : ""}`
    }
    m = c.match(/\bto\s+(?:pass|make\s+(.+?)\s+pass)\s*(.*)$/i)
    if (m) {
      const what = (m[1] ?? m[2] ?? "").trim()
      if (what !== "") return `${cap(what)} ${isPlural(what) ? "pass" : "passes"}`
    }
    m = c.match(/\bso(?:\s+that)?\s+(.+)$/i)
    if (m && CLAUSE_VERB.test(m[1]!) && m[1]!.split(/\s+/).length >= 2) return cap(m[1]!.trim())
    m = c.match(/\buntil\s+(.+)$/i)
    if (m && m[1]!.split(/\s+/).length >= 2) return cap(m[1]!.trim())
    m = c.match(/^keep\s+(.+?)\s+(green|passing|clean|working|unchanged|intact|up to date|in sync|consistent)\b/i)
    if (m) return `${cap(m[1]!)} ${isPlural(m[1]!) ? "stay" : "stays"} ${m[2]}`
    m = c.match(/^(?:verify|confirm|check)(?:\s+that)?\s+(.+)$/i)
    if (m && CLAUSE_VERB.test(m[1]!)) return cap(m[1]!.trim())
  }
  return null
}

/** Sentences and ";"-separated clauses of the action, list markers removed, in order. */
const clausesOf = (action: string): Array<string> => {
  let fenced = false
  return action
    .split("\n")
    .filter((l) => {
      if (/^\s*(`{3,}|~{3,})/.test(l)) {
        fenced = !fenced
        return false
      }
      return !fenced && !/^\s*\|/.test(l)
    })
    .map((l) => cleanInline(l.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "")))
    .filter((l) => l !== "")
    .flatMap((l) => splitSentences(l))
    .flatMap((s) => s.split(/;\s+/))
    .map((s) => s.trim())
    .filter((s) => s !== "")
}

const withDetail = (main: string, detail: string | null): string =>
  detail === null || detail === "" ? `${stripEnd(main)}.` : `${stripEnd(main)}: ${lowerFirst(stripEnd(detail))}.`

/** The result of the last clause of the action that has one (a second, different observable result). */
const lastResult = (clauses: ReadonlyArray<string>, main: string): string | null => {
  for (let i = clauses.length - 1; i >= 1; i--) {
    // a conditional branch is not what always happens
    if (/^(if|when|unless|whenever)\b/i.test(clauses[i]!)) continue
    const vo = verbObject(clauses[i]!)
    if (!vo || vo.object === null || WEAK.has(vo.verbs[0]!)) continue
    const r = resultOf(vo)
    if (r && r.toLowerCase() !== main.toLowerCase()) return r
  }
  return null
}

/** A concrete check for a step, or null when its text gives nothing observable. */
export const deriveCheck = (step: CheckSource): string | null => {
  if (step.statedCheck) return step.statedCheck
  const clauses = clausesOf(step.action)
  const explicit = explicitClause(clauses)
  const titleParts = [step.title, ...step.title.split(/\s[-–—]\s/).slice(1)]
  const fromTitle = titleParts.map(verbObject).find((x) => x !== null && (x.object !== null || x.pronoun !== undefined) && resultOf(x) !== null) ?? null
  const provide = clauses.map((c) => c.match(/^(?:provide|include|give)\s+(.+)$/i)).find((m) => m !== null)
  const delivers = [step.title, ...clauses.slice(0, 1)].some((t) => {
    const vo = verbObject(t)
    return vo !== null && ["summarize", "deliver"].includes(GROUP_OF.get(vo.verbs[0]!) ?? "")
  })
  const provideText = provide && delivers ? `it includes ${stripEnd(provide[1]!)}` : null
  const approval = clauses.some((c) => /\b(?:request|ask for|get|obtain|wait for|seek)\s+(?:the user'?s?\s+|explicit\s+|their\s+)?(?:approval|confirmation|sign-?off|consent)\b/i.test(c))
    ? "the user's approval has been requested"
    : null
  const titleKey = stripEnd(plainText(step.title)).toLowerCase()
  const confirmed = clauses
    .filter((c) => stripEnd(plainText(c)).toLowerCase() !== titleKey)
    .map((c) => c.match(/^(?:confirm|verify|check|double-check)\s+(?!that\b)(.+)$/i))
    .map((m) => (m ? objectPhrase(m[1]!) : null))
    .find((o) => o !== null && o !== undefined)
  const confirmedText = confirmed ? `${confirmed} ${isPlural(confirmed) ? "are" : "is"} confirmed` : null
  if (fromTitle) {
    const main = resultOf(fromTitle)
    const runGroup = GROUP_OF.get(fromTitle.verbs[0]!) === "run"
    if (main && runGroup && explicit) return `${stripEnd(explicit)}.`
    if (main) {
      const group = GROUP_OF.get(fromTitle.verbs[0]!.split(" ")[0]!) ?? null
      const last = fromTitle.verbs[0] === "understand" ? null : lastResult(clauses, main)
      const evidence = evidenceOf(group, step.commands)
      const confirmedDetail = confirmedText !== null && confirmedText.toLowerCase() !== main.toLowerCase() ? confirmedText : null
      return withDetail(main, explicit ?? provideText ?? approval ?? (group === "confirm" ? evidence ?? confirmedDetail : confirmedDetail ?? evidence) ?? last)
    }
  }
  if (explicit) return `${stripEnd(explicit)}.`
  // the first clause of the action that says what it achieves
  for (const c of clauses) {
    const vo = verbObject(c)
    if (!vo || (vo.object === null && vo.pronoun === undefined) || WEAK.has(vo.verbs[0]!)) continue
    const main = resultOf(vo)
    if (!main) continue
    const group = GROUP_OF.get(vo.verbs[0]!.split(" ")[0]!) ?? null
    return withDetail(main, provideText ?? approval ?? confirmedText ?? evidenceOf(group, step.commands.filter((cmd) => c.includes(cmd)).concat(step.commands)) ?? lastResult(clauses, main))
  }
  // a verb with nothing after it ("Repeat") over a text that says what it covers
  const verbOnly = titleParts.map((p) => plainText(p).trim()).find((p) => /^[A-Za-z-]+$/.test(p) && isImperative(p) === true)
  const firstText = clauses[0]
  if (verbOnly && firstText) return `${cap(participle(verbOnly))} as described: ${lowerFirst(stripEnd(firstText))}.`
  if (step.commands.length > 0) return withDetail(`The step's command${step.commands.length > 1 ? "s" : ""} ran`, evidenceOf("run", step.commands))
  // a specification line ("Title format: `[area] summary`"): the result follows it
  for (const c of clauses) {
    const spec = c.match(/^([A-Za-z][A-Za-z -]{1,30}):\s+(.+)$/)
    if (spec && spec[1]!.split(/\s+/).length <= 4) return `The ${lowerFirst(spec[1]!.trim())} is ${stripEnd(spec[2]!)}.`
  }
  return null
}

/** The clearly generic check the repair uses when nothing can be derived. */
export const GENERIC_CHECK = "The action has been carried out as written and its result reviewed against the source before moving on."
