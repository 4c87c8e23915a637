/**
 * The words the analysis recognises. Section titles give a section its role (`sectionRole`: when to
 * use, inputs, procedure, rules, failure, verification, outputs, examples, reference, overview), and
 * "Step 2:" / "1)" / "1.1" headings are steps (`STEP_HEADING`). The failure and rule vocabulary says
 * when a sentence is a failure condition, a resume instruction, a "never" or a "must".
 */
import { plainText } from "../../review/text/Markdown.js"
import type { SectionRole } from "./Model.js"

// ====================================================================== section roles

/** "Step 2:", "Phase 1 -", "2)", "1.1", "3." at the start of a heading. */
export const STEP_HEADING = /^(?:(?:step|phase|stage|part)\s*(\d+)[a-z]?\b\s*[:.)\-–—]?|(\d+)(?:\.\d+)*[.):]?(?=\s))\s*/i


const FAILURE_TITLE =
  /\b(stop|stuck|failures?|failure handling|failure modes|errors?|error handling|troubleshoot\w*|recover\w*|rollback|roll back|blockers?|blocked|revisit\w*|red flags?|problems|when things go wrong|when .{0,20}\bfails?|if .{0,30}\bfails?|fallbacks?|escalat\w*|edge cases?)\b/i
const WHEN_TITLE = /\b(when to use|when to (invoke|apply|trigger)|use (this|it) when|triggers?|use cases?|when should)\b/i
const INPUT_TITLE = /^(inputs?|parameters?|arguments?|args|variables?|prerequisites?|prereqs?|what you need|required (information|inputs?))\b/i
const VERIFY_TITLE = /\b(verif\w*|validat\w*|checklist|definition of done|done when|success criteria|acceptance criteria|self-check)\b/i
export const REFERENCE_TITLE =
  /^(references?|resources?|bundled resources|reference files|see also|related|further reading|documentation|documentation library|keywords|license|credits|links|appendix)\b|\b(references and|reference files|documentation library)\b/i
const EXAMPLE_TITLE = /\b(examples?|samples?|demo|walkthrough|sample output|worked example)\b/i
const RULES_TITLE =
  /\b(rules?|laws?|constraints?|guardrails?|principles?|guidelines?|remember|don'?ts|dos and don'?ts|boundaries|restrictions|polic(y|ies)|conventions?|code style|style guide|must|never|pitfalls|anti-?patterns|rationali[sz]ations|important)\b/i
const OUTPUT_TITLE = /^(outputs?|output format|deliverables?|results?|response( format)?|report( format)?|returns?|format|what to return|expected output)\b/i
const PROCEDURE_TITLE =
  /\b(workflow|process|procedure|steps?|instructions|how to|how-to|usage|method|playbook|runbook|approach|tasks?|phases?)\b/i
const QUICK_TITLE = /\b(quick ?start|tl;?dr|summary|at a glance|cheat ?sheet|quick reference|in short|overview of steps)\b/i
const OVERVIEW_TITLE =
  /^(introduction|intro|about|purpose|background|context|description|core principle|goal|goals|what this (skill|does))\b|\b(overview|architecture|layout|(?:project|directory|folder|repository|repo|code) (?:structure|layout|map)|tech(?:nology)? stack|glossary|terminology)\b/i

export const sectionRole = (title: string): SectionRole => {
  const t = plainText(title).replace(/\p{Extended_Pictographic}\uFE0F?/gu, "").trim().replace(STEP_HEADING, "")
  if (WHEN_TITLE.test(t) && !FAILURE_TITLE.test(t)) return "when_to_use"
  if (FAILURE_TITLE.test(t)) return "failure"
  if (INPUT_TITLE.test(t)) return "inputs"
  if (VERIFY_TITLE.test(t)) return "verification"
  if (REFERENCE_TITLE.test(t)) return "reference"
  if (EXAMPLE_TITLE.test(t)) return "examples"
  if (OUTPUT_TITLE.test(t)) return "outputs"
  if (QUICK_TITLE.test(t)) return "quick_start"
  if (RULES_TITLE.test(t)) return "rules"
  if (PROCEDURE_TITLE.test(t)) return "procedure"
  if (OVERVIEW_TITLE.test(t)) return "overview"
  return "other"
}

// ====================================================================== failure and rule vocabulary

export const FAILURE_WORDS =
  /\b(fail\w*|errors?|erroring|rejected|refused|denied|unauthenticated|unauthori[sz]ed|not (?:authenticated|logged in|connected|available|found|installed|running|reachable|configured|present|clear|sure|possible|supported)|unavailable|blocks?|blocked|missing|cannot|can'?t|unable|unclear|ambiguous|stuck|times? out|timed out|timeout|crash\w*|broken|breaks|invalid|empty|no (?:results?|matches?|access|response|output|answer)|doesn'?t|does not|don'?t (?:know|have|understand)|conflicts?|wrong|unexpected|goes wrong|not working|too (?:large|big|long)|unsure|in doubt|not sure|confused)\b/i
export const RESUME_SAME = /\b(re-?run|retry|try again|re-?try|before proceeding|then (?:continue|proceed|resume)|and (?:continue|proceed|resume)|re-?check|fix\b|ask\b)/i
export const STOP_WORDS_THEN = /\b(stop|abort|halt|give up|do not continue|don'?t continue)\b/i
export const STEP_REF = /\b(?:step|phase)\s*(\d+)\b/i

export const NEVER_LEAD =
  /^(?:you\s+|agents?\s+|the agent\s+|claude\s+)?(?:must never|should never|never ever|never|do not|don'?t|must not|mustn'?t|should not|shouldn'?t|may not|avoid|under no circumstances(?: should you)?)\b[\s,:]*/i
export const MUST_LEAD =
  /^(?:you\s+|agents?\s+|the agent\s+|claude\s+)?(?:must always|should always|always|must|make sure (?:to|that)|be sure to|it is (?:important|essential|critical|required) (?:to|that)|it'?s (?:important|essential|critical) (?:to|that))\b[\s,:]*/i
export const RULE_WORD = /\b(must|never|always|mandatory)\b|\b(?:is|are) required\b|\bunder no circumstances\b/i
export const CLAUSE_NEGATION = /(?:^|[;:(]\s*|,\s*|\s[-–—]\s*)(?:do not|don'?t|avoid|never)\b/i
