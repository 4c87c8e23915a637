/**
 * What the CLI's verdicts say, independent of how they are printed: `rubr check` (an audit, its
 * gates and an optional eval against a baseline) and `rubr validate` (rubr_flow files). The text,
 * JSON, JUnit and SARIF renderings all read these.
 */

export type Severity = "critical" | "major" | "minor" | "info"
export type FailOn = Severity | "none"

/** Most severe first. */
export const SEVERITIES: ReadonlyArray<Severity> = ["critical", "major", "minor", "info"]

/** Whether a finding of `severity` fails the check under `--fail-on failOn`. */
export const failsAt = (severity: Severity, failOn: FailOn): boolean =>
  failOn !== "none" && SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(failOn)

export interface Tool {
  readonly name: string
  readonly version: string
  /** where people read about the tool (the service's guides) */
  readonly informationUri: string
}

export interface Gate {
  /** `min-score`, `fail-on`, `no-regression` */
  readonly name: string
  readonly passed: boolean
  /** one line for people: what was required and what was found */
  readonly message: string
}

export interface CheckFinding {
  readonly id: string
  /** the rule's stable id (`SK-NAME-FOLDER`); the SARIF rule id, documented in the rubrics guide */
  readonly ruleId: string
  /** the label of the criterion the rule belongs to, when the audit named it */
  readonly ruleName: string | null
  readonly severity: Severity
  /** the file as the bundle knows it (`SKILL.md`, `reference/style.md`) */
  readonly bundlePath: string
  /** the same file relative to the working directory (the repository root in CI), `/`-separated */
  readonly path: string
  readonly lineStart: number
  readonly lineEnd: number
  readonly message: string
  readonly suggestion: string
  /** at or above `--fail-on` */
  readonly failing: boolean
}

export interface EvalSummary {
  readonly evalRunId: string
  /** `v1`, a file version id, or a local file name: what `--baseline` named */
  readonly baseline: string
  readonly sourceFileVersionId: string
  readonly candidateFileVersionId: string
  readonly scenarioCount: number
  readonly sourcePassCount: number
  readonly candidatePassCount: number
  readonly improvedCount: number
  readonly regressedCount: number
  readonly unchangedCount: number
  readonly scoreDelta: number
  readonly regressedCases: ReadonlyArray<{ readonly caseId: string; readonly name: string; readonly scoreDelta: number }>
}

export interface CheckReport {
  readonly tool: Tool
  /** the folder as given on the command line; over a repository, the artifact's repository-relative path */
  readonly target: string
  /** over a repository: what the artifact is (`skill`, `agent-instructions`, `command`, `prompt`, `rubr_flow`, `folder`) */
  readonly kind?: string | undefined
  /** with --fix: the files written back (repository-relative) */
  readonly fixed?: ReadonlyArray<string> | undefined
  readonly bundle: { readonly id: string; readonly name: string }
  readonly sync: { readonly uploaded: number; readonly updated: number; readonly unchanged: number; readonly removed: number; readonly skipped: number }
  readonly audit: {
    readonly id: string
    readonly overallScore: number
    readonly rubricKey: string
    readonly rubricVersion: string
    readonly rubricTitle: string
    /** `rationale`: the reviewer's reason for the score (for a criterion below 100 that no finding names, the text report shows its first clause) */
    readonly scores: ReadonlyArray<{ readonly key: string; readonly label: string; readonly score: number; readonly rationale?: string | undefined }>
    /** false when an identical earlier audit was reused (same input versions and rubric) */
    readonly fresh: boolean
  }
  readonly eval: EvalSummary | null
  readonly gates: ReadonlyArray<Gate>
  /** most severe first */
  readonly findings: ReadonlyArray<CheckFinding>
  readonly minScore: number
  readonly failOn: FailOn
  readonly passed: boolean
  /** the guides' base URL: a rule's helpUri is `${guidesUrl}/rubrics#${ruleId in lower case}` */
  readonly guidesUrl: string
  readonly durationMs: number
}

export interface ValidationIssue {
  readonly code: string
  readonly severity: "error" | "warning"
  readonly message: string
  /** 1-based; null when the issue is about the whole document */
  readonly line: number | null
  /** the place in the document (`steps[2].check`); "" for the document */
  readonly path: string
}

export interface ValidatedFile {
  /** as given on the command line, `/`-separated */
  readonly file: string
  readonly valid: boolean
  readonly issues: ReadonlyArray<ValidationIssue>
}

export interface ValidateReport {
  readonly tool: Tool
  readonly files: ReadonlyArray<ValidatedFile>
  readonly passed: boolean
  /** a rule's helpUri is `${guidesUrl}/rubr-flow#issue-codes` (the codes are rows of one table) */
  readonly guidesUrl: string
}

/** What the run will cost, worked out before anything starts (`rubr check` over several artifacts). */
export interface Quote {
  readonly artifacts: number
  /** artifacts a new audit will be started for */
  readonly toAudit: number
  /** artifacts whose identical earlier audit is reused, at no cost */
  readonly reused: number
  /** the credits the new audits are estimated at */
  readonly credits: number
}

/** `rubr check` over a repository: one verdict per artifact and one overall. */
export interface RepoReport {
  readonly tool: Tool
  /** the repository root every path is relative to (absolute) */
  readonly root: string
  readonly quote: Quote
  /** one per artifact, sorted by path */
  readonly artifacts: ReadonlyArray<CheckReport>
  /** files inside artifacts that were not sent (binary, or over the size limit), repository-relative */
  readonly skipped: ReadonlyArray<{ readonly path: string; readonly reason: string }>
  /** every artifact passed its gates */
  readonly passed: boolean
  readonly guidesUrl: string
  readonly durationMs: number
}
