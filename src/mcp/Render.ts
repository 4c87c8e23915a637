/**
 * Short readings of tool results for people (the second text item of a tool result): a score and the
 * top findings read better than raw JSON. Each takes the tool's output and may decline (undefined).
 */
import { scoreColumn } from "../review/Score.js"

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

type Any = Record<string, any>

const auditReading = (run: Any): string => {
  const lines = [`Audit ${run.status}: ${run.overallScore ?? "–"}/100 against ${run.summary?.rubricTitle ?? run.rubricKey} (${run.rubricKey}@${run.rubricVersion}).`]
  for (const s of (run.scores ?? []) as Array<Any>) lines.push(`  ${scoreColumn(s.score)}  ${s.label}`)
  const findings = (run.findings ?? []) as Array<Any>
  if (findings.length > 0) {
    lines.push(`${plural(findings.length, "finding")}, most severe first:`)
    for (const f of findings.slice(0, 8)) lines.push(`  [${f.severity}] ${f.filePath}:${f.lineStart} ${clip(f.message, 160)}${f.ruleId ? ` (${f.ruleId})` : ""}`)
    if (findings.length > 8) lines.push(`  … and ${findings.length - 8} more`)
  }
  if (run.improvedVersion) lines.push(`An improved ${run.improvedVersion.path} is ready (apply it with the REST apply route).`)
  return lines.join("\n")
}

const conversionReading = (c: Any): string => {
  const v = c.validation
  const lines = [
    `Conversion ${c.status}: ${c.outputPath}${c.outputFileVersionId ? " written" : " not written"}.`,
    v ? `Validation: ${v.valid ? "valid" : "invalid"}, ${plural(v.errorCount, "error")}, ${plural(v.warningCount, "warning")}.` : ""
  ]
  if (c.repair?.attempted) lines.push(`Repair: ${c.repair.reason}`)
  for (const i of (v?.issues ?? []).slice(0, 5) as Array<Any>) lines.push(`  ${i.severity} ${i.code} at ${i.path || "(document)"}: ${clip(i.message, 140)}`)
  for (const r of (c.remainingRisks ?? []).slice(0, 3) as Array<Any>) lines.push(`  risk: ${clip(r.message, 160)}`)
  return lines.filter((l) => l !== "").join("\n")
}

const evalReading = (e: Any): string => {
  const lines = [
    `Eval ${e.status}: candidate passed ${e.passCount}/${e.scenarioCount}` +
    (e.comparison ? ` (source ${e.comparison.sourcePassCount}/${e.scenarioCount}), score delta ${e.comparison.scoreDelta >= 0 ? "+" : ""}${e.comparison.scoreDelta}` : "") + "."
  ]
  for (const r of (e.results ?? []) as Array<Any>) {
    lines.push(`  ${r.verdict.padEnd(9)} ${String(r.source.score).padStart(3)} → ${String(r.candidate.score).padStart(3)}  ${clip(r.name, 90)}`)
  }
  if (e.diff && !e.diff.identical) lines.push(`Diff: +${e.diff.linesAdded} −${e.diff.linesRemoved} lines.`)
  return lines.join("\n")
}

export const render = {
  searchResults: (o: Any) =>
    o.results.length === 0
      ? "No page matches; try other words."
      : (o.results as Array<Any>).map((r, i) => `${i + 1}. ${r.title} (slug ${r.slug}${r.section ? `, § ${r.section}` : ""}): ${r.snippet}`).join("\n"),
  bundles: (o: Any) =>
    (o.artifactBundles as Array<Any>).length === 0
      ? "No bundles yet: create one with create_bundle."
      : (o.artifactBundles as Array<Any>)
        .map((b) => `${b.name} (${b.id}): ${plural(b.fileCount, "file")}, ${b.status}${b.primaryFile ? `, main ${b.primaryFile.path}` : ""}`)
        .join("\n"),
  bundle: (o: Any) =>
    [`${o.artifactBundle.name}: ${plural(o.files.length, "file")}${o.artifactBundle.primaryFile ? `, main artifact ${o.artifactBundle.primaryFile.path}` : ", no main artifact"}.`,
      ...(o.files as Array<Any>).map((f) => `  ${f.path} (${f.artifactType}, v${f.latestVersionNumber}, ${f.sizeBytes} bytes) ${f.id}`)].join("\n"),
  files: (o: Any) => (o.files as Array<Any>).map((f) => `${f.path} (${f.artifactType}, v${f.latestVersionNumber}) ${f.id}`).join("\n") || "No files.",
  written: (o: Any) => {
    const items = (o.files ?? [o]) as Array<Any>
    return items.map((w) => `${w.file.path}: version ${w.version.versionNumber} (${w.version.contentHash.slice(0, 19)}…)`).join("\n")
  },
  versions: (o: Any) =>
    (o.versions as Array<Any>)
      .map((v) => v.artifactBundleVersionNumber !== undefined && v.fileVersionNumber !== undefined
        ? `#${v.artifactBundleVersionNumber} ${v.filePath} v${v.fileVersionNumber} (${v.source})`
        : `v${v.versionNumber} (${v.source})${v.message ? `: ${v.message}` : ""}`)
      .join("\n") || "No versions.",
  started: (o: Any) =>
    `Started (${o.job.kind}): job ${o.jobId}, ${o.creditCost.credits} credit${o.creditCost.credits === 1 ? "" : "s"} (${o.creditCost.mode}). Poll get_job with this jobId.`,
  proofReport: (o: Any) =>
    o.export
      ? `Proof report ${o.proofReport.id} is completed and signed (key ${o.proofReport.signature?.kid}); its signed document is the result's export field.`
      : `Proof report ${o.proofReport.id} is ${o.proofReport.status}: poll get_job ${o.jobId}, then call export_proof_report with proofReportId.`,
  job: (o: Any) => {
    const j = o.job
    const progress = j.phase === j.state ? "" : `, ${j.phase} ${Math.round(j.percent)}%`
    const head = `Job ${j.id} (${j.kind}): ${j.state}${progress}${j.message ? `: ${j.message}` : ""}` +
      (j.error ? `\nError ${j.error.code}: ${j.error.message}` : "")
    if (!o.run) return o.runNote ? `${head}\n${o.runNote}` : head
    const reading = j.kind === "audit"
      ? auditReading(o.run)
      : j.kind === "rubr_flow_conversion"
      ? conversionReading(o.run)
      : j.kind === "eval"
      ? evalReading(o.run)
      : `Proof report ${o.run.status}${o.run.exportPath ? `: export at ${o.run.exportPath}` : ""}.`
    return `${head}\n${reading}`
  }
}
