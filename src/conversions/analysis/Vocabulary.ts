/**
 * The sentence words the analysis recognises: when a sentence is a failure condition, a resume
 * instruction, a "never" or a "must". What a section is for, by its title, is the shared section
 * vocabulary (src/markdown/Sections.ts).
 */

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
