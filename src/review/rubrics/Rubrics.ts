/**
 * The built-in rubrics, one per artifact type. A rubric is identified by a stable `key` (the
 * artifact type's name) and a `version` (the ISO date its criteria and weights were fixed, ".2" for a
 * second one that day). Changing a criterion, a weight or how the mock scores one means a new
 * version; old versions stay here so stored audit runs (which record rubricKey and rubricVersion)
 * remain explainable.
 */
import type { ArtifactType } from "../../domain/Artifact.js"
import type { Criterion, Rubric } from "../Types.js"
import { CRITERIA, type CriterionKey } from "./Criteria.js"

export const RUBRIC_VERSION_2026_11 = "2026-11-01"
/** Adds consistency and safety to every rubric; the mock also checks names against the bundle's name, flattened steps, code examples, truncation and bloat. */
export const RUBRIC_VERSION_2026_11_22 = "2026-11-22"
/**
 * The criteria and weights of 2026-11-22; the mock also scores coverage: a part a criterion asks for
 * and the text lacks (a worked example, a check of the result, a failure case, a rule) costs a few
 * points of that criterion, with no finding (docs/rubrics.md, "Coverage").
 */
export const RUBRIC_VERSION_2026_11_28 = "2026-11-28"
/** The criteria and weights of 2026-11-22; coverage also asks for sections enough for the length of the text. */
export const RUBRIC_VERSION_2026_11_29 = "2026-11-29"
/**
 * The criteria and weights of 2026-11-22; a text with more than enough lines a section costs in
 * proportion to how far over it is (3 points at the limit), not a flat 3. The second version fixed on
 * one day takes the suffix ".2", so versions still sort by when they were fixed.
 */
export const RUBRIC_VERSION_2026_11_29_2 = "2026-11-29.2"
/**
 * The criteria and weights of 2026-11-22; coverage also asks that an example stand apart (a code
 * block, an example section or file): examples only as labelled lines in the prose cost 3 points.
 */
export const RUBRIC_VERSION_2026_11_29_3 = "2026-11-29.3"
/**
 * The criteria and weights of 2026-11-22; sections enough for the text start costing at 6 lines of
 * text a section (half a point a line over it), where 15 did: a text with half the headings it had
 * scores lower however short its sections were.
 */
export const RUBRIC_VERSION_2026_11_29_4 = "2026-11-29.4"
/** The first built-in version the mock scores for coverage; custom rubrics always are. */
export const COVERAGE_SINCE = RUBRIC_VERSION_2026_11_28

const criteria = (weights: Partial<Record<CriterionKey, number>>): ReadonlyArray<Criterion> =>
  (Object.entries(weights) as Array<[CriterionKey, number]>).map(([key, weight]) => ({
    key,
    label: CRITERIA[key].label,
    weight,
    description: CRITERIA[key].description
  }))

const rubric = (artifactType: ArtifactType, title: string, weights: Partial<Record<CriterionKey, number>>, version = RUBRIC_VERSION_2026_11): Rubric => ({
  key: artifactType,
  version,
  artifactType,
  title,
  criteria: criteria(weights)
})

/**
 * 2026-11-22: consistency and safety in every rubric (the other weights scaled by 0.8, rounded);
 * skills also state their rules, how to verify the work and what to do on failure (the parts a
 * document cut short loses first). The versions from 2026-11-28 to 2026-11-29.3 keep them.
 */
const WEIGHTS_2026_11_22: ReadonlyArray<readonly [ArtifactType, string, Partial<Record<CriterionKey, number>>]> = [
  ["skill", "Agent skill (SKILL.md)", {
    frontmatter: 8,
    name: 8,
    description: 12,
    structure: 8,
    steps: 12,
    examples: 8,
    references: 6,
    clarity: 6,
    length: 3,
    formatting: 3,
    constraints: 4,
    verification: 4,
    error_handling: 4,
    consistency: 6,
    safety: 8
  }],
  ["agent", "Agent instructions (AGENTS.md)", {
    purpose: 4,
    structure: 12,
    commands: 16,
    constraints: 8,
    verification: 8,
    references: 8,
    clarity: 12,
    length: 8,
    formatting: 4,
    consistency: 8,
    safety: 12
  }],
  ["prompt", "Prompt", {
    purpose: 16,
    inputs: 8,
    constraints: 8,
    output_format: 12,
    examples: 12,
    clarity: 12,
    structure: 4,
    length: 4,
    formatting: 4,
    consistency: 8,
    safety: 12
  }],
  ["command", "Slash command", {
    frontmatter: 8,
    description: 8,
    inputs: 12,
    steps: 16,
    output_format: 8,
    examples: 4,
    references: 4,
    clarity: 12,
    length: 4,
    formatting: 4,
    consistency: 8,
    safety: 12
  }],
  ["workflow", "Workflow", {
    purpose: 8,
    inputs: 8,
    steps: 20,
    verification: 12,
    error_handling: 8,
    references: 8,
    clarity: 8,
    structure: 4,
    formatting: 4,
    consistency: 8,
    safety: 12
  }],
  ["rubr_flow", "rubr_flow procedure package", {
    purpose: 8,
    inputs: 8,
    steps: 20,
    verification: 16,
    error_handling: 8,
    structure: 8,
    clarity: 8,
    formatting: 4,
    consistency: 8,
    safety: 12
  }]
]

export const BUILT_IN_RUBRICS: ReadonlyArray<Rubric> = [
  rubric("skill", "Agent skill (SKILL.md)", {
    frontmatter: 10,
    name: 10,
    description: 15,
    structure: 10,
    steps: 15,
    examples: 10,
    references: 10,
    clarity: 10,
    length: 5,
    formatting: 5
  }),
  rubric("agent", "Agent instructions (AGENTS.md)", {
    purpose: 5,
    structure: 15,
    commands: 20,
    constraints: 10,
    verification: 10,
    references: 10,
    clarity: 15,
    length: 10,
    formatting: 5
  }),
  rubric("prompt", "Prompt", {
    purpose: 20,
    inputs: 10,
    constraints: 10,
    output_format: 15,
    examples: 15,
    clarity: 15,
    structure: 5,
    length: 5,
    formatting: 5
  }),
  rubric("command", "Slash command", {
    frontmatter: 10,
    description: 10,
    inputs: 15,
    steps: 20,
    output_format: 10,
    examples: 5,
    references: 5,
    clarity: 15,
    length: 5,
    formatting: 5
  }),
  rubric("workflow", "Workflow", {
    purpose: 10,
    inputs: 10,
    steps: 25,
    verification: 15,
    error_handling: 10,
    references: 10,
    clarity: 10,
    structure: 5,
    formatting: 5
  }),
  rubric("rubr_flow", "rubr_flow procedure package", {
    purpose: 10,
    inputs: 10,
    steps: 25,
    verification: 20,
    error_handling: 10,
    structure: 10,
    clarity: 10,
    formatting: 5
  }),
  ...[RUBRIC_VERSION_2026_11_22, RUBRIC_VERSION_2026_11_28, RUBRIC_VERSION_2026_11_29, RUBRIC_VERSION_2026_11_29_2, RUBRIC_VERSION_2026_11_29_3, RUBRIC_VERSION_2026_11_29_4].flatMap((version) =>
    WEIGHTS_2026_11_22.map(([type, title, weights]) => rubric(type, title, weights, version))
  )
]
