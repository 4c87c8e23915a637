/**
 * Pure pieces of the conversion report: how much of the source the flow accounts for (source
 * mapping coverage), and the validator's result in the report's shape.
 */
import type { ValidationIssue, ValidationResult } from "../rubr_flow/Validator.js"
import type { IssueJson, SourceMappingJson, ValidationJson } from "./Records.js"
import type { BlockMappingEntry } from "./Types.js"

/** Non-blank source lines some block came from, and the runs of non-blank lines none did. */
export const coverageOf = (
  sources: ReadonlyArray<{ readonly path: string; readonly role: "artifact" | "context"; readonly content: string }>,
  blocks: ReadonlyArray<BlockMappingEntry>
): Omit<SourceMappingJson, "sources"> => {
  let totalLines = 0
  let mappedLines = 0
  const unmappedRanges: Array<{ path: string; lineStart: number; lineEnd: number }> = []
  for (const source of sources.filter((s) => s.role === "artifact")) {
    const lines = source.content.split(/\r?\n/)
    const mapped = new Uint8Array(lines.length + 2)
    for (const b of blocks) {
      if (b.path !== source.path) continue
      for (let n = Math.max(1, b.lineStart); n <= Math.min(lines.length, b.lineEnd); n++) mapped[n] = 1
    }
    // runs of unmapped non-blank lines; blank lines neither extend nor end a run
    let run: { path: string; lineStart: number; lineEnd: number } | null = null
    for (let n = 1; n <= lines.length; n++) {
      if (lines[n - 1]!.trim() === "") continue
      totalLines++
      if (mapped[n]) {
        mappedLines++
        if (run) unmappedRanges.push(run)
        run = null
      } else if (run) {
        run.lineEnd = n
      } else {
        run = { path: source.path, lineStart: n, lineEnd: n }
      }
    }
    if (run) unmappedRanges.push(run)
  }
  return {
    totalLines,
    mappedLines,
    coverage: totalLines === 0 ? null : Math.round((mappedLines / totalLines) * 1000) / 1000,
    unmappedRanges
  }
}

export const issueJson = (issue: ValidationIssue): IssueJson => ({
  code: issue.code,
  severity: issue.severity,
  message: issue.message,
  line: issue.line,
  path: issue.path
})

export const validationJson = (result: ValidationResult): ValidationJson => ({
  valid: result.valid,
  validatorVersion: result.validatorVersion,
  errorCount: result.issues.filter((i) => i.severity === "error").length,
  warningCount: result.issues.filter((i) => i.severity === "warning").length,
  issues: result.issues.map(issueJson)
})

/** "3 errors (first: steps.2.check: …)" for messages. */
export const describeErrors = (result: ValidationResult): string => {
  const errors = result.issues.filter((i) => i.severity === "error")
  if (errors.length === 0) return "no errors"
  const first = errors[0]!
  return `${errors.length} error${errors.length === 1 ? "" : "s"} (first, line ${first.line}${first.path ? ` at ${first.path}` : ""}: ${first.message})`
}
