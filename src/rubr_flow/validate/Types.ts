/** What the validator takes and gives back. */
import type { RubrFlow } from "../Format.js"

export type IssueSeverity = "error" | "warning"

export interface ValidationIssue {
  readonly code: string
  readonly severity: IssueSeverity
  readonly message: string
  /** 1-based line in the validated text */
  readonly line: number
  /** dotted document path, e.g. `steps.2.check` (list indices 0-based; "" for the whole document) */
  readonly path: string
}

/** What the caller knows about a source file the flow names (for the `lines` and hash checks). */
export interface SourceInfo {
  readonly path: string
  readonly content?: string | undefined
  readonly lines?: number | undefined
  /** `sha256:<hex>`; computed from `content` when absent */
  readonly contentHash?: string | undefined
}

export interface ValidateOptions {
  readonly sources?: ReadonlyArray<SourceInfo> | undefined
}

export interface ValidationResult {
  /** no issue of severity "error" */
  readonly valid: boolean
  readonly validatorVersion: string
  /** the file's `rubr_flow` value when readable (as written, for a number) */
  readonly formatVersion: string | null
  /** sorted by line, then path, then code */
  readonly issues: ReadonlyArray<ValidationIssue>
  /** the decoded document when it passed the schema */
  readonly flow: RubrFlow | null
}
