/**
 * npm run quality [-- --json | --write [--before SHA] [--doc PATH] | --check]
 *
 * The seeded-defect harness (quality/): reviews every skill clean and with each kind of damage, and
 * prints the tables of docs/quality.md.
 *   --json          raw per-variant results instead of the tables (for debugging)
 *   --write         also writes the tables into the "After" section of docs/quality.md
 *   --before SHA    with --write: into the "Before (commit SHA)" section instead (run it in a worktree of that commit)
 *   --doc PATH      with --write: the document to update (default docs/quality.md of this checkout)
 *   --check         exit 1 when a kind misses a goal; without it the exit code is always 0 (it is a report)
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { runHarness } from "../quality/Harness.js"
import { allGoalsMet, renderMarkdown } from "../quality/Report.js"

const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    write: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    before: { type: "string" },
    doc: { type: "string" }
  }
})

const started = performance.now()
const report = runHarness()
const tables = renderMarkdown(report)

if (values.json) {
  process.stdout.write(JSON.stringify({ skills: report.skills, variants: report.variants, notApplicable: report.notApplicable }, null, 2) + "\n")
} else {
  process.stdout.write(tables)
}

/** Replaces the text between `<!-- quality:NAME:start -->` and `<!-- quality:NAME:end -->`, or appends the section. */
const replaceSection = (doc: string, name: string, body: string): string => {
  const start = `<!-- quality:${name}:start -->`
  const end = `<!-- quality:${name}:end -->`
  const i = doc.indexOf(start)
  const j = doc.indexOf(end)
  const block = `${start}\n${body}${end}`
  if (i >= 0 && j > i) return doc.slice(0, i) + block + doc.slice(j + end.length)
  return `${doc.trimEnd()}\n\n${block}\n`
}

if (values.write) {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
  const docPath = values.doc ?? path.join(repo, "docs/quality.md")
  const name = values.before ? "before" : "after"
  const heading = values.before ? `### Before (commit ${values.before})` : "### After"
  const current = fs.existsSync(docPath) ? fs.readFileSync(docPath, "utf8") : "# Review quality\n\n## Results\n"
  fs.writeFileSync(docPath, replaceSection(current, name, `${heading}\n\n${tables}`))
  process.stderr.write(`wrote the ${name} section of ${docPath}\n`)
}

process.stderr.write(`quality: ${report.variants.length} variants of ${report.skills.length} skills in ${Math.round(performance.now() - started)} ms\n`)
if (values.check && !allGoalsMet(report)) process.exitCode = 1
