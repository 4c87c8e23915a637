/**
 * GitLab's Code Quality report (`--format codeclimate`): a JSON array of issues in the Code Climate
 * format that merge requests show beside the diff. One issue per finding, and one per failed gate
 * (placed on the artifact's main file), paths relative to the repository root. Pure.
 */
import type { CheckReport, Severity } from "./Model.js"
import { fingerprints } from "./Sarif.js"

export interface CodeQualityIssue {
  readonly type: "issue"
  readonly check_name: string
  readonly description: string
  readonly content: { readonly body: string }
  readonly categories: ReadonlyArray<string>
  readonly severity: "info" | "minor" | "major" | "critical" | "blocker"
  readonly fingerprint: string
  readonly location: { readonly path: string; readonly lines: { readonly begin: number; readonly end: number } }
}

const SEVERITY: Record<Severity, CodeQualityIssue["severity"]> = { critical: "critical", major: "major", minor: "minor", info: "info" }

const line = (n: number) => (Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1)

/** The file a gate is reported on: the artifact's main file (`SKILL.md` of a skill folder, or the file). */
const mainFile = (report: CheckReport) =>
  report.kind === "skill" || report.kind === "folder" || report.kind === undefined
    ? (report.target === "." ? "SKILL.md" : `${report.target.replace(/\/+$/, "")}/SKILL.md`)
    : report.target

export const codeQuality = (reports: ReadonlyArray<CheckReport>): ReadonlyArray<CodeQualityIssue> => {
  const raw = reports.flatMap((report) => [
    ...report.findings.map((f) => ({
      key: [f.ruleId, f.path, f.message].join("\0"),
      issue: {
        type: "issue" as const,
        check_name: f.ruleId,
        description: `${f.message} (${f.ruleId})`,
        content: { body: [f.suggestion && `Suggestion: ${f.suggestion}`, `${report.guidesUrl}/rubrics#${f.ruleId.toLowerCase()}`].filter(Boolean).join("\n\n") },
        categories: ["Style"],
        // a finding below --fail-on does not fail the check: GitLab shows it, but not as critical
        severity: f.failing || f.severity === "minor" || f.severity === "info" ? SEVERITY[f.severity] : "minor",
        location: { path: f.path, lines: { begin: line(f.lineStart), end: Math.max(line(f.lineStart), line(f.lineEnd)) } }
      }
    })),
    ...report.gates.filter((g) => !g.passed).map((g) => ({
      key: [`rubr/${g.name}`, report.target].join("\0"),
      issue: {
        type: "issue" as const,
        check_name: `rubr/${g.name}`,
        description: `${report.target}: the ${g.name} gate failed: ${g.message}`,
        content: { body: `Audit ${report.audit.id}, overall score ${report.audit.overallScore}/100.` },
        categories: ["Style"],
        severity: "major" as const,
        location: { path: mainFile(report), lines: { begin: 1, end: 1 } }
      }
    }))
  ])
  const prints = fingerprints(raw.map((r) => r.key))
  return raw.map((r, i) => ({ ...r.issue, fingerprint: prints[i]!.replace(":", "-") }))
}
