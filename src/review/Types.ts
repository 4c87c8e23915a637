/**
 * The review domain shared by the rubric engine, the mock reviewer and the real AI reviewer:
 * what goes into a review and what comes out. Both reviewers implement `AiReviewer` (src/review/AiReviewer.ts).
 */
import { Schema } from "effect"
import { EvalCase } from "../domain/EvalCase.js"
import { ModelTier, ProviderInfo, ReasoningEffort, Usage } from "../ai/Usage.js"
import { ArtifactType } from "../domain/Artifact.js"

export const Criterion = Schema.Struct({
  key: Schema.String,
  label: Schema.String,
  weight: Schema.Number,
  description: Schema.String
})
export type Criterion = typeof Criterion.Type

export const Rubric = Schema.Struct({
  key: Schema.String,
  version: Schema.String,
  artifactType: ArtifactType,
  title: Schema.String,
  criteria: Schema.Array(Criterion)
})
export type Rubric = typeof Rubric.Type

export interface ReviewFile {
  readonly path: string
  readonly content: string
  readonly fileVersionId: string
  readonly isPrimary: boolean
}

export interface ReviewInput {
  /** file: `target` is the artifact and `files` its context; bundle: every file in `files` is under review. */
  readonly mode: "file" | "bundle"
  readonly artifactType: ArtifactType
  readonly rubric: Rubric
  readonly target: ReviewFile | null
  readonly files: ReadonlyArray<ReviewFile>
  readonly modelTier: ModelTier
  readonly reasoningEffort: ReasoningEffort
  /** the bundle's name: a SKILL.md at the bundle root takes it as its folder name when no folder is known */
  readonly bundleName?: string | undefined
  /**
   * the folder the bundle's files were read from (`rubr check DIR` sends DIR's name): a SKILL.md at the
   * bundle root is named after it; without it, the bundle's name stands in
   */
  readonly folderName?: string | undefined
  /** rule ids the bundle's settings turn off (`settings.disabledRules`) */
  readonly disabledRules?: ReadonlyArray<string> | undefined
}

export const Severity = Schema.Literal("critical", "major", "minor", "info")
export type Severity = typeof Severity.Type

export const CriterionScore = Schema.Struct({
  key: Schema.String,
  label: Schema.String,
  weight: Schema.Number,
  /** 0..100 */
  score: Schema.Number,
  rationale: Schema.String
})
export type CriterionScore = typeof CriterionScore.Type

export const Finding = Schema.Struct({
  id: Schema.String,
  ruleId: Schema.String.annotations({ description: "the rule's stable id (`SK-NAME-FOLDER`), documented in the rubrics guide" }),
  criterionKey: Schema.String,
  severity: Severity,
  filePath: Schema.String,
  lineStart: Schema.Int,
  lineEnd: Schema.Int,
  message: Schema.String,
  suggestion: Schema.String
})
export type Finding = typeof Finding.Type

export const ImprovedFile = Schema.Struct({
  path: Schema.String,
  content: Schema.String,
  /** One line per change made, for people reading the result. */
  changes: Schema.Array(Schema.String)
})
export type ImprovedFile = typeof ImprovedFile.Type



export const ReviewResult = Schema.Struct({
  /** 0..100: the weighted mean of `scores`, less 10 per distinct critical rule broken (at most 25). */
  overallScore: Schema.Number,
  scores: Schema.Array(CriterionScore),
  findings: Schema.Array(Finding),
  /** file mode: the rewritten target (null when nothing could be improved). */
  improvedVersion: Schema.NullOr(ImprovedFile),
  /** bundle mode: every rewritten file. */
  improvedFiles: Schema.Array(ImprovedFile),
  evalKit: Schema.Struct({ cases: Schema.Array(EvalCase) }),
  /** null for the mock (no provider call). */
  usage: Schema.NullOr(Usage),
  provider: ProviderInfo
})
export type ReviewResult = typeof ReviewResult.Type
