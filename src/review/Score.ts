/**
 * The overall score, one rule for every reviewer: the weighted mean of the criterion scores, less
 * a penalty for critical problems. A critical problem (broken frontmatter, a leaked secret, a
 * destructive command) sits on one criterion whose weight may be light; the penalty makes sure it
 * always shows, so a skill with a critical problem never outscores the same skill without it.
 */
import type { Finding } from "./Types.js"

/** Points each distinct critical rule broken takes off the overall score, and their cap. */
export const CRITICAL_PENALTY = 10
export const CRITICAL_PENALTY_CAP = 25

/** The weighted mean of the scores (a plain mean when every weight is 0; 0 with no scores). */
export const weightedMean = (scores: ReadonlyArray<{ readonly weight: number; readonly score: number }>): number => {
  if (scores.length === 0) return 0
  const total = totalWeight(scores)
  if (total <= 0) return scores.reduce((s, c) => s + c.score, 0) / scores.length
  return scores.reduce((s, c) => s + Math.max(c.weight, 0) * c.score, 0) / total
}

const totalWeight = (xs: ReadonlyArray<{ readonly weight: number }>): number => xs.reduce((s, c) => s + Math.max(c.weight, 0), 0)

/** How far a point of the criterion `key` moves the weighted mean: its weight's share (equal shares when every weight is 0). */
export const weightShareOf = (criteria: ReadonlyArray<{ readonly key: string; readonly weight: number }>, key: string): number => {
  const c = criteria.find((x) => x.key === key)
  if (c === undefined) return 0
  const total = totalWeight(criteria)
  return total > 0 ? Math.max(c.weight, 0) / total : 1 / criteria.length
}

/** 10 points per distinct rule with a critical finding, at most 25. */
export const criticalPenalty = (findings: ReadonlyArray<Pick<Finding, "severity" | "ruleId">>): number => {
  const rules = new Set(findings.filter((f) => f.severity === "critical").map((f) => f.ruleId))
  return Math.min(CRITICAL_PENALTY_CAP, CRITICAL_PENALTY * rules.size)
}

/** The overall score before it is shown: the weighted mean less the critical penalty. */
export const unroundedScoreOf = (
  scores: ReadonlyArray<{ readonly weight: number; readonly score: number }>,
  findings: ReadonlyArray<Pick<Finding, "severity" | "ruleId">>
): number => Math.max(0, weightedMean(scores) - criticalPenalty(findings))

/** One decimal, so a small deduction on a light criterion still shows. */
export const shownScore = (unrounded: number): number => Math.round(10 * unrounded) / 10

export const overallScoreOf = (
  scores: ReadonlyArray<{ readonly weight: number; readonly score: number }>,
  findings: ReadonlyArray<Pick<Finding, "severity" | "ruleId">>
): number => shownScore(unroundedScoreOf(scores, findings))

/**
 * A score for people, as scored: to its tenth when it has one ("92.5" beside "-7.5 short: …"), so a
 * criterion's score and what it lost add up to 100 at every door (CLI, MCP, dashboard).
 */
export const scoreText = (score: number): string => (Number.isInteger(score) ? String(score) : score.toFixed(1))

/** A score in a right-aligned column of plain text, wide enough for "100" and "92.5" (CLI, MCP). */
export const scoreColumn = (score: number): string => scoreText(score).padStart(5)
