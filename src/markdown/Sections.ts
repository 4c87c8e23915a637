/**
 * The one section vocabulary: what a heading says its section is for. The reviewer, the conversion
 * analysis and the mock evaluator read headings only through this file, so a word added here is read
 * the same way by all three.
 *
 * A heading is read in two strengths:
 * - its **role** (`sectionRole`): what the section is, one role per section, tried in a fixed order.
 *   A conversion maps sections to rubr_flow blocks by it, and the evaluator finds a version's inputs
 *   and triggers by the same titles.
 * - the **topics** it mentions (`SECTION_TOPICS`): wider word lists, for the reviewer's "is it there in
 *   any form" checks. A "## Testing" section holds a skill's verification even though its role is
 *   not `verification`; counting it keeps a "no verification" finding from being wrong.
 */
import { plainText } from "./Markdown.js"

/** What a section is, by its title (a conversion's outline carries it). */
export type SectionRole =
  | "overview"
  | "when_to_use"
  | "inputs"
  | "procedure"
  | "quick_start"
  | "rules"
  | "failure"
  | "verification"
  | "outputs"
  | "examples"
  | "reference"
  | "other"

/**
 * A heading that numbers a step: "Step 2:", "Phase 1 -", "Part 3", "2)", "1.1", "3." at its start.
 * Groups: `label` (step, phase, stage, part) with `n` its number, or `num` the dotted number with `first`
 * its first part. A replace with it leaves the step's own title.
 */
export const STEP_HEADING =
  /^(?:(?<label>step|phase|stage|part)\s*(?<n>\d+)[a-z]?\b\s*[:.)\-–—]?|(?<num>(?<first>\d+)(?:\.\d+)*)[.):]?(?=\s))\s*/i

/** A step heading of a procedure: "Step 3: …", "Phase 2 —", "Stage 4", "3. …" (not "Part 3", "Case 3" or "Example 2"). */
export const isStepHeading = (title: string): boolean => {
  const m = STEP_HEADING.exec(plainText(title))
  return m !== null && (m.groups?.["label"] === undefined || /^(?:step|phase|stage)$/i.test(m.groups["label"]))
}

/** The number a step heading gives its step (`Step 2` → 2, `3.1` → 3), or null for another heading. */
export const stepNumberOf = (title: string): number | null => {
  const g = STEP_HEADING.exec(title)?.groups
  return g ? Number(g["n"] ?? g["first"]) : null
}

// ---------------------------------------------------------------- roles, in the order they are tried

const FAILURE_TITLE =
  /\b(stop|stuck|failures?|failure handling|failure modes|errors?|error handling|troubleshoot\w*|recover\w*|rollback|roll back|blockers?|blocked|revisit\w*|red flags?|problems|when things go wrong|when .{0,20}\bfails?|if .{0,30}\bfails?|fallbacks?|escalat\w*|edge cases?)\b/i
/** When to use the artifact: the section that says when it applies. */
export const WHEN_TO_USE_TITLE =
  /\b(when to (use|invoke|apply|trigger)|use (this|it) when|use cases?|triggers?|when should|when this applies|applies to)\b/i
/**
 * What the artifact needs before it starts (read on the plain text of the title). "Before you start"
 * is not among them (`PREPARATION_TITLE`): its items are as often the first actions (find the tool,
 * check the sizes) as things to ask for.
 */
export const INPUTS_TITLE =
  /^\W*(inputs?|parameters?|arguments?|args|variables?|prerequisites?|prereqs?|requirements|required (information|inputs?)|what you need)\b/i
/** The part before the procedure ("Before you start"): where an artifact gathers what it needs, or prepares. */
export const PREPARATION_TITLE = /^\W*before you (start|begin)\b/i
const VERIFY_TITLE = /\b(verif\w*|validat\w*|checklist|definition of done|done when|success criteria|acceptance criteria|self-check)\b/i
export const REFERENCE_TITLE =
  /^(references?|resources?|bundled resources|bundled files|files|reference files|see also|related|further reading|documentation|documentation library|keywords|license|credits|links|appendix)\b|\b(references and|reference files|documentation library)\b/i
const EXAMPLE_TITLE = /\b(examples?|samples?|demo|walkthrough|sample output|worked example)\b/i
const OUTPUT_TITLE = /^(outputs?|output format|deliverables?|results?|response( format)?|report( format)?|returns?|format|what to return|expected output)\b/i
const QUICK_TITLE = /\b(quick ?start|tl;?dr|summary|at a glance|cheat ?sheet|quick reference|in short|overview of steps)\b/i
const RULES_TITLE =
  /\b(rules?|laws?|constraints?|guardrails?|principles?|guidelines?|remember|don'?ts|dos and don'?ts|boundaries|restrictions|polic(y|ies)|conventions?|code style|style guide|must|never|pitfalls|anti-?patterns|rationali[sz]ations|important)\b/i
const PROCEDURE_TITLE =
  /\b(workflow|process|procedure|steps?|instructions|how to|how-to|usage|method|playbook|runbook|approach|tasks?|phases?)\b/i
const OVERVIEW_TITLE =
  /^(introduction|intro|about|purpose|background|context|description|core principle|goal|goals|what this (skill|does))\b|\b(overview|architecture|layout|(?:project|directory|folder|repository|repo|code) (?:structure|layout|map)|tech(?:nology)? stack|glossary|terminology)\b/i
/** "How to think about it", "How to reason about effort": the ideas the work rests on, not its steps. */
const THINKING_TITLE = /^how to (?:think|reason) about\b/i

/** The role of a section by its title; a step number in front of it is left out. */
export const sectionRole = (title: string): SectionRole => {
  const t = plainText(title).replace(/\p{Extended_Pictographic}\uFE0F?/gu, "").trim().replace(STEP_HEADING, "")
  if (WHEN_TO_USE_TITLE.test(t) && !FAILURE_TITLE.test(t)) return "when_to_use"
  if (FAILURE_TITLE.test(t)) return "failure"
  if (INPUTS_TITLE.test(t)) return "inputs"
  if (VERIFY_TITLE.test(t)) return "verification"
  if (REFERENCE_TITLE.test(t)) return "reference"
  if (EXAMPLE_TITLE.test(t)) return "examples"
  if (OUTPUT_TITLE.test(t)) return "outputs"
  if (QUICK_TITLE.test(t)) return "quick_start"
  if (RULES_TITLE.test(t)) return "rules"
  if (THINKING_TITLE.test(t)) return "overview"
  if (PROCEDURE_TITLE.test(t)) return "procedure"
  if (OVERVIEW_TITLE.test(t)) return "overview"
  return "other"
}

// ---------------------------------------------------------------- topics a heading mentions

/**
 * The reviewer's presence checks: a heading that mentions one of these holds that kind of content
 * somewhere, whatever its role (a "Usage" section may hold the examples, "Context" the inputs).
 */
export const SECTION_TOPICS = {
  overview: /\b(overview|purpose|goal|objective|about|introduction|summary|role|context)\b/i,
  examples: /\b(examples?|samples?|usage|demo|walkthrough|quick ?start)\b/i,
  rules:
    /\b(rules?|constraints?|boundaries|guardrails|don'?ts|restrictions|limits|conventions|style|requirements|policy|policies|remember|red flags|important|iron law|guidelines|best practices|common mistakes|anti-?patterns|pitfalls|gotchas|when to stop|caveats|warnings?)\b/i,
  outputs: /\b(output|format|response|result|report|deliverables?|return|template)\b/i,
  inputs: /\b(inputs?|arguments?|parameters?|variables?|prerequisites?|requirements|context|usage)\b/i,
  verification: /\b(verif\w*|validat\w*|testing|tests?|check(s|ing)?|done|success|acceptance|quality|checklist|before (?:handing (?:it )?over|you hand (?:it )?over|delivering|submitting))\b/i,
  // named for failures, or headed by the condition it handles ("If the disk is still full", "When
  // something is off", "If something goes wrong"); "When to use" is no contingency
  failure:
    /\b(errors?|fail\w*|troubleshoot\w*|recovery|stuck|blockers?|rollback|fallback|stop|common (?:issues|problems)|known issues|limitations|gotchas)\b|^(?:if|when|in case)\b(?!\s+(?:not\s+)?to\b).*\b(?:not|\w+n't|no|nothing|wrong|off|still|fails?|broken|breaks|missing|problems?|trouble|unclear|unsure|conflicts?)\b/i
} as const

/**
 * Sections whose bullets state the artifact's rules: where two statements are compared for a
 * contradiction (a "never" there is a rule, not a step's remark).
 */
export const RULE_STATEMENTS_TITLE =
  /\b(rules?|constraints?|guidelines?|guardrails?|boundaries|don'?ts|dos and don'?ts|must|never|important|critical|policy|policies|non-negotiable|iron law|red flags)\b/i

/** Sections about when to use a skill, or what it is: not where its procedure belongs. */
export const INTRO_TITLE = /^(?:when (?:to|not to) (?:use|invoke|apply)\b|triggers?$|overview$|introduction$|about\b|keywords$)/i

/** The sections that list when to use the skill, or when not to: a subset of the introduction's titles. */
export const USE_CASES_TITLE = /^(?:when (?:to|not to) (?:use|invoke|apply)\b|triggers?$)/i

/**
 * Sections whose text is quoted material, not instructions: samples, the excuses a skill warns
 * against, before/after pairs, word lists. A hedge there is the sample's wording. "Bad", "wrong",
 * "before" and "after" name a pair only as the whole title or paired ("Before / after", "Good vs bad"):
 * "## Re-checking after a module substitution", "## Before you start" and "## When something goes
 * wrong" are instructions. So "sample" names samples of text only alone or with the text it samples
 * ("## Sample output", "## Sample replies"): "## Collecting a sample" of soil is a procedure.
 */
/** A section of versions side by side: "Good / bad", "Before and after", "Wrong vs right". */
export const PAIR_TITLE = /\b(?:bad|wrong|before|after|good|right|better)\s*(?:\/|vs\.?|versus|and|or|→|->|&)\s*(?:bad|wrong|before|after|good|right|better)\b/i

export const QUOTED_TITLE = new RegExp(
  [
    /\b(examples?|anti-?patterns?|red flags?|rationali[sz]ations?|excuses?|mistakes?|pitfalls?|don'?ts|transcripts?|dialogu?es?|phrases?|wording|vocabulary|word list|templates?)\b/.source,
    /^\W*samples?\W*$|\bsamples?\s+(?:outputs?|repl(?:y|ies)|messages?|reports?|e-?mails?|texts?|responses?|prompts?|notes?|letters?|tags?|cards?|copy|phrasing|dialogu?es?|conversations?|answers?)\b|\b(?:output|reply|message|report|text|response|writing) samples?\b/.source,
    /^\W*(?:bad|wrong|before|after)\W*$/.source,
    PAIR_TITLE.source
  ].join("|"),
  "i"
)

/** A heading that is a file's name ("### scripts/run.py"): a section describing one resource of a list. */
export const FILE_TITLE = /^\S*(?:\/|\.\w{1,5}$)\S*$/

/**
 * A section that closes the work ("## Cleanup", "## When you're done", "## Hand-off"): an act of its
 * own, written as it needs; so does a note that closes the document ("## Scope note", "## Caveats").
 */
export const CLOSING_TITLE = /^\W*(?:clean(?:ing)?[- ]?up|tear(?:ing)?[- ]?down|wrap(?:ping)?[- ]up|afterwards|when (?:you(?:'re| are) )?(?:done|finished)|finish(?:ing)? up|hand[- ]?(?:off|over)|close[- ]out|(?:an? |scope |final |closing )?notes?(?: on)?|scope|caveats?|limitations?|disclaimers?)\b/i

/**
 * A numbered heading, of any label: "Phase 2: Compare", "3. Deploy", "2a. Build", "Use Case 4". A run
 * of them is a sequence; an unnumbered sibling after it ("If something goes wrong") is no member.
 */
export const NUMBERED_TITLE = /^(?:[A-Za-z]+(?: [A-Za-z]+)?\s+)?\d{1,2}[a-z]?(?:[.):]|\s|$)/

/**
 * Sections whose items are what not to do ("## Don't", "## Never", "## Common Pitfalls", "##
 * Anti-patterns", "## Mistakes"): a command an item names there is the mistake quoted.
 */
export const PROHIBITED_TITLE = /\b(don'?ts?|do not|never|avoid|anti-?patterns?|pitfalls?|mistakes?|what not to|not to (?:do|run|use)|red flags|gotchas)\b/i

/** Of those, a heading that is the bare prohibition ("## Do not", "## Never"): each item completes it. */
export const NEGATION_TITLE = /^\W*(?:do not|don'?t|never|must not|avoid|what not to do|things to (?:never do|avoid))\W*(?:do)?\W*$/i
