/**
 * npm run quality [-- --json | --write [--before SHA] [--doc PATH] | --check] [--precision] [--skills a,b] [--kinds x,y]
 *
 * The seeded-defect harness (quality/): reviews every skill clean and with each kind of damage, and
 * prints the tables of docs/quality.md: the damage tables, then the precision of the clean skills'
 * findings against the labels of quality/labels (per rule and severity band) and every unlabeled finding.
 *   --precision     the clean reviews only (precision, noise, clean scores): no damage, a few seconds
 *   --skills a,b    only these skill folders; --kinds x,y only these kinds of damage
 *   --json          raw per-variant results instead of the tables (for debugging)
 *   --write         also writes the tables into the "After" section of docs/quality.md
 *   --before SHA    with --write: into the "Before (commit SHA)" section instead (run it in a worktree of that commit)
 *   --doc PATH      with --write: the document to update (default docs/quality.md of this checkout)
 *   --check         exit 1 when a kind or a precision goal is missed; without it the exit code is always 0 (it is a report)
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { DAMAGE_KINDS } from "../quality/Damage.js"
import { runHarness } from "../quality/Harness.js"
import { loadLabels } from "../quality/Labels.js"
import { precisionGoalsMet, renderPrecision } from "../quality/Precision.js"
import { allGoalsMet, renderMarkdown } from "../quality/Report.js"
import { loadAllSkills } from "../quality/Skills.js"

const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    write: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    before: { type: "string" },
    doc: { type: "string" },
    precision: { type: "boolean", default: false },
    skills: { type: "string" },
    kinds: { type: "string" }
  }
})

const only = (list: string | undefined) => (list === undefined ? null : new Set(list.split(",").map((x) => x.trim())))
const skillFilter = only(values.skills)
const kindFilter = only(values.kinds)

const started = performance.now()
const labels = loadLabels()
const report = runHarness(
  loadAllSkills().filter((s) => skillFilter === null || skillFilter.has(s.skill.folder)),
  values.precision ? [] : DAMAGE_KINDS.filter((k) => kindFilter === null || kindFilter.has(k.id))
)
const tables = (values.precision ? "" : renderMarkdown(report) + "\n") + "#### Precision on the clean skills\n\n" + renderPrecision(report, labels)

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
if (values.check && !(allGoalsMet(report) && precisionGoalsMet(report, labels))) process.exitCode = 1
