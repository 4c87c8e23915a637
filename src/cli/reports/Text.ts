/** `rubr check` for people: the score, the criteria, the findings most severe first, the eval, the gates, the verdict. */
import type { Colors } from "../Output.js"
import type { CheckReport, Severity } from "./Model.js"

const bar = (score: number, width = 20) => {
  const filled = Math.round((Math.max(0, Math.min(100, score)) / 100) * width)
  return `${"█".repeat(filled)}${"░".repeat(width - filled)}`
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
    lines.push(`  ${scoreTone(score.score)(bar(score.score, 10))} ${String(Math.round(score.score)).padStart(3)}  ${score.label}`)
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

/** An audit run (`GET …/audits/{id}`) for people: the score, the criteria, the top findings. */
export const auditText = (run: {
  readonly id: string
  readonly status: string
  readonly overallScore: number | null
  readonly rubricKey: string
  readonly rubricVersion: string
  readonly scores: ReadonlyArray<{ readonly label: string; readonly score: number }>
  readonly findings: ReadonlyArray<{ readonly severity: string; readonly filePath: string; readonly lineStart: number; readonly message: string }>
  readonly improvedVersion: { readonly path: string } | null
  readonly improvedFiles: ReadonlyArray<{ readonly path: string }>
  readonly appliedAt: Date | null
}, c: Colors, limit = 10): string => {
  const lines = [`${c.bold(`Audit ${run.id}`)} ${run.status}${run.overallScore === null ? "" : `: ${run.overallScore}/100`} ${c.dim(`(${run.rubricKey}@${run.rubricVersion})`)}`]
  for (const s of run.scores) lines.push(`  ${bar(s.score, 10)} ${String(Math.round(s.score)).padStart(3)}  ${s.label}`)
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
