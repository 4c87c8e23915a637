/** `rubr check` for people: the score, the criteria, the findings most severe first, the eval, the gates, the verdict. */
import type { Colors } from "../Output.js"
import type { CheckReport, RepoReport, Severity } from "./Model.js"
import { SEVERITIES } from "./Model.js"
import { scoreColumn } from "../../review/Score.js"

const bar = (score: number, width = 20) => {
  const filled = Math.round((Math.max(0, Math.min(100, score)) / 100) * width)
  return `${"█".repeat(filled)}${"░".repeat(width - filled)}`
}

/**
 * What a criterion's line says beside its bar: for a score below 100 that no finding names, the first
 * clause of its rationale, at most 90 characters ("-3 short: no section gathers the rules").
 */
const reasonOf = (score: { readonly score: number; readonly rationale?: string | undefined }, named: boolean, c: Colors): string => {
  if (score.score >= 100 || !score.rationale || named) return ""
  const first = score.rationale.split("; ")[0]!.trim()
  return c.dim(`  ${first.length <= 90 ? first : `${first.slice(0, 89)}…`}`)
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

export const checkText = (report: CheckReport, c: Colors): string => {
  const tone = (severity: Severity, s: string) => (severity === "critical" || severity === "major" ? c.red(s) : severity === "minor" ? c.yellow(s) : c.dim(s))
  const scoreTone = (score: number) => (score >= 80 ? c.green : score >= 60 ? c.yellow : c.red)
  const lines: Array<string> = []
  const s = report.sync
  lines.push(`${c.bold(`rubr check ${report.target}`)} → bundle ${report.bundle.name} ${c.dim(report.bundle.id)}`)
  lines.push(
    c.dim(`files: ${s.uploaded} uploaded, ${s.updated} updated, ${s.unchanged} unchanged${s.removed > 0 ? `, ${s.removed} removed` : ""}${s.skipped > 0 ? `, ${s.skipped} skipped` : ""}`)
  )
  lines.push("")
  const a = report.audit
  lines.push(`${c.bold("Score")} ${scoreTone(a.overallScore)(`${a.overallScore}/100`)}  ${a.rubricTitle} ${c.dim(`(${a.rubricKey}@${a.rubricVersion}${a.fresh ? "" : ", reused"})`)}`)
  for (const score of a.scores) {
    const why = reasonOf(score, report.findings.some((f) => f.ruleName === score.label), c)
    lines.push(`  ${scoreTone(score.score)(bar(score.score, 10))} ${scoreColumn(score.score)}  ${score.label}${why}`)
  }
  lines.push("")
  if (report.findings.length === 0) lines.push(c.green("No findings."))
  else {
    lines.push(c.bold(`${plural(report.findings.length, "finding")}, most severe first:`))
    for (const f of report.findings) {
      // relative to the working directory, unless that climbs out of it: then as the bundle names it
      const where = `${f.path.startsWith("../") ? f.bundlePath : f.path}:${f.lineStart}${f.lineEnd > f.lineStart ? `-${f.lineEnd}` : ""}`
      lines.push(`  ${tone(f.severity, f.severity.padEnd(8))} ${where}  ${f.message} ${c.dim(f.ruleId)}`)
      if (f.suggestion) lines.push(`  ${" ".repeat(8)} ${c.dim(`→ ${f.suggestion}`)}`)
    }
  }
  if (report.eval) {
    const e = report.eval
    lines.push("")
    lines.push(
      e.scenarioCount === 0
        ? `${c.bold("Eval")} against ${e.baseline}: the baseline is the current version, nothing to compare.`
        : `${c.bold("Eval")} against ${e.baseline}: passed ${e.sourcePassCount} → ${e.candidatePassCount} of ${e.scenarioCount}; ${e.improvedCount} improved, ${
          e.regressedCount > 0 ? c.red(`${e.regressedCount} regressed`) : "0 regressed"
        }, ${e.unchangedCount} unchanged (score ${e.scoreDelta >= 0 ? "+" : ""}${e.scoreDelta})`
    )
    for (const r of e.regressedCases) lines.push(`  ${c.red("regressed")} ${r.name} (${r.scoreDelta})`)
  }
  lines.push("")
  lines.push(c.bold("Gates"))
  for (const g of report.gates) lines.push(`  ${g.passed ? c.green("✓") : c.red("✗")} ${g.name.padEnd(13)} ${g.message}`)
  lines.push("")
  lines.push(report.passed ? c.green(c.bold("PASSED")) : c.red(c.bold("FAILED")))
  return lines.join("\n")
}

/** Columns padded to their widest cell (measured without colour codes). */
const columns = (rows: ReadonlyArray<ReadonlyArray<string>>, paint: (row: number, col: number, cell: string) => string) => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows.map((r, row) => r.map((cell, col) => paint(row, col, col === r.length - 1 ? cell : cell.padEnd(widths[col]!))).join("  ").trimEnd())
}

/** `rubr check` over a repository: a summary table (one row per artifact), then each artifact's findings, then the verdict. */
export const repoText = (report: RepoReport, c: Colors): string => {
  const tone = (severity: Severity, s: string) => (severity === "critical" || severity === "major" ? c.red(s) : severity === "minor" ? c.yellow(s) : c.dim(s))
  const lines: Array<string> = []
  const q = report.quote
  if (report.artifacts.length === 0) return c.dim("No artifact to check.")
  const header = ["ARTIFACT", "KIND", "SCORE", ...SEVERITIES.map((s) => s.toUpperCase()), "GATE"]
  const rows = report.artifacts.map((a) => [
    a.target,
    a.kind ?? "skill",
    `${a.audit.overallScore}${a.audit.fresh ? "" : "*"}`,
    ...SEVERITIES.map((s) => String(a.findings.filter((f) => f.severity === s).length)),
    a.passed ? "passed" : `FAILED (${a.gates.filter((g) => !g.passed).map((g) => g.name).join(", ")})`
  ])
  lines.push(...columns([header, ...rows], (row, col, cell) => {
    if (row === 0) return c.bold(cell)
    const a = report.artifacts[row - 1]!
    if (col === header.length - 1) return a.passed ? c.green(cell) : c.red(cell)
    if (col >= 3 && col < 3 + SEVERITIES.length && cell.trim() !== "0") return tone(SEVERITIES[col - 3]!, cell)
    return cell
  }))
  if (q.reused > 0) lines.push(c.dim(`* reused from an identical earlier audit (no credits); ${q.toAudit} audited now for ${q.credits} credit${q.credits === 1 ? "" : "s"}`))
  for (const a of report.artifacts) {
    if (a.findings.length === 0 && a.passed) continue
    lines.push("")
    lines.push(`${c.bold(a.target)} ${c.dim(`→ bundle ${a.bundle.name}, audit ${a.audit.id}`)}  ${a.audit.overallScore}/100`)
    for (const g of a.gates.filter((g) => !g.passed)) lines.push(`  ${c.red("✗")} ${g.name.padEnd(13)} ${g.message}`)
    for (const f of a.findings) {
      lines.push(`  ${tone(f.severity, f.severity.padEnd(8))} ${f.path}:${f.lineStart}${f.lineEnd > f.lineStart ? `-${f.lineEnd}` : ""}  ${f.message} ${c.dim(f.ruleId)}`)
      if (f.suggestion) lines.push(`  ${" ".repeat(8)} ${c.dim(`→ ${f.suggestion}`)}`)
    }
    if (a.fixed && a.fixed.length > 0) lines.push(c.green(`  fixed: ${a.fixed.join(", ")}`))
  }
  if (report.skipped.length > 0) {
    lines.push("")
    lines.push(c.dim(`Not sent (${report.skipped.length}): ${report.skipped.map((s) => `${s.path} (${s.reason})`).join(", ")}`))
  }
  const failed = report.artifacts.filter((a) => !a.passed).length
  lines.push("")
  lines.push(
    report.passed
      ? c.green(c.bold(`PASSED: ${plural(report.artifacts.length, "artifact")}`))
      : c.red(c.bold(`FAILED: ${failed} of ${plural(report.artifacts.length, "artifact")}`))
  )
  return lines.join("\n")
}

/** An audit run (`GET …/audits/{id}`) for people: the score, the criteria, the top findings. */
export const auditText = (run: {
  readonly id: string
  readonly status: string
  readonly overallScore: number | null
  readonly rubricKey: string
  readonly rubricVersion: string
  readonly scores: ReadonlyArray<{ readonly key: string; readonly label: string; readonly score: number; readonly rationale?: string | undefined }>
  readonly findings: ReadonlyArray<{ readonly severity: string; readonly criterionKey: string; readonly filePath: string; readonly lineStart: number; readonly message: string }>
  readonly improvedVersion: { readonly path: string } | null
  readonly improvedFiles: ReadonlyArray<{ readonly path: string }>
  readonly appliedAt: Date | null
}, c: Colors, limit = 10): string => {
  const lines = [`${c.bold(`Audit ${run.id}`)} ${run.status}${run.overallScore === null ? "" : `: ${run.overallScore}/100`} ${c.dim(`(${run.rubricKey}@${run.rubricVersion})`)}`]
  for (const s of run.scores) {
    lines.push(`  ${bar(s.score, 10)} ${scoreColumn(s.score)}  ${s.label}${reasonOf(s, run.findings.some((f) => f.criterionKey === s.key), c)}`)
  }
  if (run.findings.length > 0) {
    lines.push(`${plural(run.findings.length, "finding")}:`)
    for (const f of run.findings.slice(0, limit)) lines.push(`  ${f.severity.padEnd(8)} ${f.filePath}:${f.lineStart}  ${f.message}`)
    if (run.findings.length > limit) lines.push(c.dim(`  … ${run.findings.length - limit} more (--format json shows all)`))
  }
  const improved = run.improvedVersion ? [run.improvedVersion.path] : run.improvedFiles.map((f) => f.path)
  if (improved.length > 0) {
    lines.push(run.appliedAt ? c.dim(`Applied ${date(run.appliedAt)}.`) : `An improved ${improved.join(", ")} is ready: \`rubr audits apply\` writes it as new versions.`)
  }
  return lines.join("\n")
}

const date = (d: Date | string) => new Date(d).toISOString().replace("T", " ").slice(0, 16)
