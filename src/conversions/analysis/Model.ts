/**
 * The shapes the analysis of one artifact source produces: a file's outline (sections and their
 * roles), its procedures and steps, rules, inputs, examples, failure handlers, outputs, bundle
 * references and content ranges, all with 1-based line ranges. Plain JSON data (no Maps, no
 * `undefined`), shared by every phase after the analysis: the block plan, the converters, the report.
 */
import type { SectionRole } from "../../markdown/Sections.js"


export interface OutlineSection {
  readonly level: number
  readonly title: string
  readonly lineStart: number
  /** the last line of the section, subsections included (trailing blank lines left out) */
  readonly lineEnd: number
  readonly role: SectionRole
}

export type StepOrigin = "heading" | "ordered_list" | "bullet_list" | "section" | "checklist" | "sentence" | "yaml"

export interface AnalyzedStep {
  /** the number the source gives the step ("Step 2", "2)", "2."), null when unnumbered */
  readonly number: number | null
  readonly title: string
  readonly lineStart: number
  readonly lineEnd: number
  /**
   * The step as the source says it: the lead text, then its sub-items, paragraphs and short code
   * blocks, inline code kept. Lines that became failure handlers, stated checks or examples are left out.
   */
  readonly action: string
  readonly subItems: number
  /** a check the source states for this step ("Confirm: ...", "Ensure each ... is:", a checklist) */
  readonly statedCheck: string | null
  /** inline or fenced commands in the step, in order */
  readonly commands: ReadonlyArray<string>
  readonly origin: StepOrigin
}

export interface AnalyzedProcedure {
  readonly kind: StepOrigin
  /** the heading of the section holding it (null at the top level) */
  readonly section: string | null
  readonly lineStart: number
  readonly lineEnd: number
  readonly steps: ReadonlyArray<AnalyzedStep>
}

export interface AnalyzedRule {
  readonly polarity: "must" | "never"
  /** the rule as a guardrail text: the leading "Never"/"Do not"/"Always" removed for clear cases */
  readonly text: string
  /** the source sentence, markup removed */
  readonly source: string
  readonly lineStart: number
  readonly lineEnd: number
  readonly section: string | null
}

export interface AnalyzedInput {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly required: boolean
  readonly lineStart: number
  readonly lineEnd: number
  readonly kind: "list" | "arguments" | "placeholder" | "hint"
}

export interface AnalyzedExample {
  readonly kind: "section" | "good_bad" | "usage" | "code"
  readonly title: string
  readonly lineStart: number
  readonly lineEnd: number
  /** the code block's info string, "" otherwise */
  readonly info: string
  /** a short excerpt of the example (first prose lines, or the labels of a worked example) */
  readonly excerpt: string
  /** <Good>/<Bad> blocks: the caption under each block */
  readonly good: string | null
  readonly bad: string | null
}

export interface AnalyzedFailure {
  readonly id: string
  readonly when: string
  readonly then: string
  readonly lineStart: number
  readonly lineEnd: number
  readonly kind: "conditional" | "question" | "condition_list" | "table" | "section"
  /** the source says to continue at step N ("continue with Step 1", "Return to Review (Step 1)") */
  readonly resumeStepNumber: number | null
  /** the handler retries or continues the step it occurs in */
  readonly resumeSameStep: boolean
}

export interface AnalyzedOutput {
  readonly id: string
  readonly description: string
  readonly lineStart: number
  readonly lineEnd: number
  readonly kind: "section" | "step" | "description"
  /** the line of the step that produces it (null when no step was found) */
  readonly stepLine: number | null
}

export interface SourceReferenceInfo {
  readonly line: number
  readonly path: string
  /** the path resolves to a file of the conversion (artifact or context source) */
  readonly exists: boolean
}

export interface FileAnalysis {
  readonly path: string
  readonly artifactType: string
  readonly contentHash: string
  /** lines by the validator's rule: a trailing newline does not add a line */
  readonly lines: number
  readonly words: number
  readonly frontmatter: {
    readonly present: boolean
    readonly name: string | null
    readonly description: string | null
    readonly otherKeys: ReadonlyArray<string>
    /** the frontmatter block's lines (0-0 when absent) */
    readonly lineStart: number
    readonly lineEnd: number
    /** the description field's lines (0-0 when absent) */
    readonly descriptionLineStart: number
    readonly descriptionLineEnd: number
  }
  readonly title: { readonly text: string; readonly line: number } | null
  readonly opening: { readonly text: string; readonly lineStart: number; readonly lineEnd: number } | null
  readonly whenToUse: {
    readonly text: string
    readonly lineStart: number
    readonly lineEnd: number
    readonly origin: "description" | "section" | "opening"
  } | null
  readonly outline: ReadonlyArray<OutlineSection>
  readonly procedures: ReadonlyArray<AnalyzedProcedure>
  readonly rules: ReadonlyArray<AnalyzedRule>
  readonly inputs: ReadonlyArray<AnalyzedInput>
  readonly examples: ReadonlyArray<AnalyzedExample>
  readonly failures: ReadonlyArray<AnalyzedFailure>
  readonly outputs: ReadonlyArray<AnalyzedOutput>
  readonly references: ReadonlyArray<SourceReferenceInfo>
  /** content lines (non-blank, not headings or rules, outside frontmatter) */
  readonly contentLines: number
  /** the runs of content lines, for coverage */
  readonly contentRanges: ReadonlyArray<{ readonly lineStart: number; readonly lineEnd: number }>
}

/** Source lines no step, example or note of the plan came from. */
export interface UnmappedRange {
  readonly path: string
  readonly lineStart: number
  readonly lineEnd: number
}
