/**
 * SARIF 2.1.0 logs for `rubr check` (one result per finding, one rule per rule id found) and
 * `rubr validate` (one result per issue, one rule per issue code), shaped for GitHub code scanning.
 * Pure: the caller JSON.stringifies the log.
 */
import { ruleById } from "../../review/rules/Rules.js"
import { createHash } from "node:crypto"
import type { CheckFinding, CheckReport, RepoReport, Severity, Tool, ValidateReport } from "./Model.js"

export type SarifLevel = "error" | "warning" | "note"

export interface SarifRule {
  readonly id: string
  readonly name: string
  readonly shortDescription: { readonly text: string }
  readonly fullDescription: { readonly text: string }
  readonly helpUri: string
  readonly help: { readonly text: string; readonly markdown: string }
  readonly defaultConfiguration: { readonly level: SarifLevel }
  readonly properties: { readonly tags: ReadonlyArray<string> }
}

export interface SarifResult {
  readonly ruleId: string
  readonly ruleIndex: number
  readonly level: SarifLevel
  readonly message: { readonly text: string }
  readonly locations: ReadonlyArray<{
    readonly physicalLocation: {
      readonly artifactLocation: { readonly uri: string; readonly uriBaseId: "%SRCROOT%" }
      readonly region: { readonly startLine: number; readonly endLine: number }
    }
  }>
  readonly partialFingerprints: Readonly<Record<string, string>>
  readonly properties: Readonly<Record<string, unknown>>
}

export interface SarifRun {
  readonly tool: {
    readonly driver: {
      readonly name: string
      readonly version: string
      readonly semanticVersion: string
      readonly informationUri: string
      readonly rules: ReadonlyArray<SarifRule>
    }
  }
  readonly automationDetails: { readonly id: string }
  readonly originalUriBaseIds: { readonly "%SRCROOT%": { readonly description: { readonly text: string } } }
  readonly invocations: ReadonlyArray<{ readonly executionSuccessful: true; readonly properties: Readonly<Record<string, unknown>> }>
  readonly results: ReadonlyArray<SarifResult>
}

export interface SarifLog {
  readonly $schema: "https://json.schemastore.org/sarif-2.1.0.json"
  readonly version: "2.1.0"
  readonly runs: readonly [SarifRun]
}

/** The key of our entry in `partialFingerprints`. */
export const FINGERPRINT_KEY = "rubrResultHash/v1"

/** `error_handling` → `ErrorHandling`, `SK-NAME-FOLDER` → `SkNameFolder` */
export const pascalCase = (id: string): string =>
  id.split(/[^A-Za-z0-9]+/).filter(Boolean)
    .map((w) => w[0].toUpperCase() + (w === w.toUpperCase() ? w.slice(1).toLowerCase() : w.slice(1)))
    .join("") || "Rule"

// results are relative to %SRCROOT%: `/`-separated, without a leading `./`, root or drive
const relative = (path: string) => path.replace(/\\/g, "/").replace(/^[A-Za-z]:(?=\/)/, "").replace(/^(\.?\/)+/, "")

/** A path as a relative URI reference; encodeURIComponent, unlike encodeURI, also encodes `#`, `?` and a `:` that would read as a scheme. */
export const artifactUri = (path: string): string => relative(path).split("/").map(encodeURIComponent).join("/")

const lineNo = (n: number | null) => (n !== null && Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1)

// GitHub merges results with equal fingerprints, so repeats of one key are numbered, as in its own primaryLocationLineHash
export const fingerprints = (keys: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Map<string, number>()
  return keys.map((key) => {
    const hash = createHash("sha256").update(key).digest("hex")
    const n = (seen.get(hash) ?? 0) + 1
    seen.set(hash, n)
    return `${hash}:${n}`
  })
}

const location = (path: string, start: number, end: number) => [{
  physicalLocation: {
    artifactLocation: { uri: artifactUri(path), uriBaseId: "%SRCROOT%" as const },
    region: { startLine: start, endLine: Math.max(start, end) }
  }
}]

const makeRun = (
  tool: Tool,
  automationId: string,
  rules: ReadonlyArray<SarifRule>,
  results: ReadonlyArray<SarifResult>,
  invocation: Readonly<Record<string, unknown>>
): SarifLog => ({
  $schema: "https://json.schemastore.org/sarif-2.1.0.json",
  version: "2.1.0",
  runs: [{
    tool: { driver: { name: tool.name, version: tool.version, semanticVersion: tool.version, informationUri: tool.informationUri, rules } },
    automationDetails: { id: automationId },
    // no `uri`: GitHub resolves %SRCROOT% to the checkout itself
    originalUriBaseIds: { "%SRCROOT%": { description: { text: "the working directory rubr ran in" } } },
    invocations: [{ executionSuccessful: true, properties: invocation }],
    results
  }]
})

const rule = (id: string, level: SarifLevel, helpUri: string, tags: ReadonlyArray<string>, short: string, full: string): SarifRule => ({
  id,
  name: pascalCase(id),
  shortDescription: { text: short },
  fullDescription: { text: full },
  helpUri,
  help: { text: `${full} See ${helpUri}`, markdown: `${full}\n\n[Read more in the rubr guides](${helpUri})` },
  defaultConfiguration: { level },
  properties: { tags }
})

const LEVELS: Record<Severity, SarifLevel> = { critical: "error", major: "error", minor: "warning", info: "note" }
// a finding below --fail-on does not fail the check, so it never shows as an error
const findingLevel = (f: CheckFinding): SarifLevel =>
  !f.failing && LEVELS[f.severity] === "error" ? "warning" : LEVELS[f.severity]

/** The rules and results of some artifacts' findings: one rule per rule id found, in id order (stable across runs). */
const findingRuns = (reports: ReadonlyArray<CheckReport>) => {
  const findings = reports.flatMap((r) => r.findings.map((f) => ({ f, report: r })))
  const ids = [...new Set(findings.map(({ f }) => f.ruleId))].sort()
  const rules = ids.map((id) => {
    const known = ruleById(id)
    const first = findings.find(({ f }) => f.ruleId === id)!
    const criterion = first.f.ruleName ?? null
    const audit = first.report.audit
    const title = known?.title ?? criterion ?? id
    // each documented in the rubrics guide under its id
    return rule(
      id,
      known ? LEVELS[known.severity] : "warning",
      `${first.report.guidesUrl}/rubrics#${id.toLowerCase()}`,
      ["rubr", "skill-quality", ...(known ? [known.criterion] : [])],
      title,
      `${title}${criterion ? ` (${criterion}, ${audit.rubricTitle} rubric ${audit.rubricKey}@${audit.rubricVersion})` : ""}.${known ? ` Fix: ${known.fix.replace(/\s*\(apply[^)]*\)$/, "")}` : ""}`
    )
  })
  const prints = fingerprints(findings.map(({ f }) => [f.ruleId, f.path, f.message].join("\0")))
  const results = findings.map(({ f }, i): SarifResult => {
    const start = lineNo(f.lineStart)
    return {
      ruleId: f.ruleId,
      ruleIndex: ids.indexOf(f.ruleId),
      level: findingLevel(f),
      message: { text: f.suggestion.trim() ? `${f.message} Suggestion: ${f.suggestion}` : f.message },
      locations: location(f.path, start, lineNo(f.lineEnd)),
      partialFingerprints: { [FINGERPRINT_KEY]: prints[i] },
      properties: { severity: f.severity, findingId: f.id, failing: f.failing, bundlePath: f.bundlePath }
    }
  })
  return { rules, results }
}

export const checkSarif = (report: CheckReport): SarifLog => {
  const { audit } = report
  const { rules, results } = findingRuns([report])
  const target = relative(report.target).replace(/\/+$/, "") || "."
  return makeRun(report.tool, `rubr/check/${target}/`, rules, results, {
    auditId: audit.id,
    overallScore: audit.overallScore,
    minScore: report.minScore,
    failOn: report.failOn,
    passed: report.passed,
    ...(report.eval ? { evalRunId: report.eval.evalRunId, evalScoreDelta: report.eval.scoreDelta } : {})
  })
}

/** `rubr check` over a repository: one run, every artifact's results, paths relative to the repository root. */
export const repoSarif = (report: RepoReport): SarifLog => {
  const { rules, results } = findingRuns(report.artifacts)
  return makeRun(report.tool, "rubr/check/", rules, results, {
    passed: report.passed,
    artifacts: report.artifacts.map((a) => ({ path: a.target, kind: a.kind, auditId: a.audit.id, overallScore: a.audit.overallScore, minScore: a.minScore, failOn: a.failOn, passed: a.passed }))
  })
}

export const validateSarif = (report: ValidateReport): SarifLog => {
  const issues = report.files.flatMap((f) => f.issues.map((issue) => ({ file: f.file, issue })))
  const ids = [...new Set(issues.map(({ issue }) => issue.code))].sort()
  const helpUri = `${report.guidesUrl}/rubr-flow#issue-codes`
  const rules = ids.map((code) => {
    const anyError = issues.some(({ issue }) => issue.code === code && issue.severity === "error")
    const words = code.replace(/_/g, " ")
    return rule(
      code, anyError ? "error" : "warning", helpUri, ["rubr", "rubr_flow"], `rubr_flow: ${words}`,
      `The rubr_flow validator's "${code}" check (${words}); the issue codes table in the rubr_flow guide says what it means and how to fix it.`
    )
  })
  const prints = fingerprints(issues.map(({ file, issue }) => [issue.code, file, issue.path, issue.message].join("\0")))
  const results = issues.map(({ file, issue }, i): SarifResult => {
    const line = lineNo(issue.line)
    return {
      ruleId: issue.code,
      ruleIndex: ids.indexOf(issue.code),
      level: issue.severity,
      message: { text: issue.message },
      locations: location(file, line, line),
      partialFingerprints: { [FINGERPRINT_KEY]: prints[i] },
      properties: { severity: issue.severity, documentPath: issue.path }
    }
  })
  return makeRun(report.tool, "rubr/validate/", rules, results, { passed: report.passed })
}
