/** Pure pieces of the conversion report: the validator's result in the report's shape. */
import type { ValidationIssue, ValidationResult } from "../rubr_flow/Validator.js"
import type { ConversionValidation, ValidationIssue as ReportIssue } from "./Api.js"

export const issueJson = (issue: ValidationIssue): typeof ReportIssue.Type => ({
  code: issue.code,
  severity: issue.severity,
  message: issue.message,
  line: issue.line,
  path: issue.path
})

export const validationJson = (result: ValidationResult): typeof ConversionValidation.Type => ({
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
