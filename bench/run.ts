/**
 * `npm run bench`: starts an embedded PostgreSQL, the service and a plain node:http + pg baseline as
 * child processes, runs every section with autocannon from this process, and prints one markdown table
 * (also written to bench/results/latest.md). Add a section: export `(ctx) => Promise<Row[]>` from a
 * module beside this one and list it below. BENCH_DURATION (seconds per measurement, default 10) and
 * BENCH_SECTIONS (comma-separated names), or the names as arguments (`npm run bench -- cli`), narrow a run. `--pg=fast` (the default), `--pg=durable` or
 * `--pg=fast,durable` (or BENCH_PG) picks the embedded PostgreSQL's settings: fast (fsync,
 * synchronous_commit and full_page_writes off, as in the tests) or durable (all on, as in production);
 * with both, the whole run is made once per setting, each on a fresh database, and every table says
 * which setting it used. `npm run bench:durable` is `--pg=fast,durable`.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { auditsSection } from "./audits.js"
import { cliSection } from "./cli.js"
import { conversionsSection } from "./conversions.js"
import { dashboardSection } from "./dashboard.js"
import { evalsSection } from "./evals.js"
import { faultsSection } from "./faults.js"
import { filesSection } from "./files.js"
import { loadSection } from "./load.js"
import { mcpSection } from "./mcp.js"
import { reviewSection } from "./review.js"
import { type BenchContext, type PostgresMode, postgresModes, root, type Row, table, withBench } from "./harness.js"

/** A section answers rows (service vs baseline) or a markdown table of its own. */
const sections: Record<string, (ctx: BenchContext) => Promise<Array<Row> | string>> = {
  files: filesSection,
  audits: auditsSection,
  conversions: conversionsSection,
  evals: evalsSection,
  mcp: mcpSection,
  cli: cliSection,
  review: reviewSection,
  load: loadSection,
  faults: faultsSection,
  dashboard: dashboardSection
}

// `npm run bench -- cli jobs` names sections as BENCH_SECTIONS=cli,jobs does
const named = process.argv.slice(2).filter((arg) => !arg.startsWith("-"))
const selected = (named.length > 0 ? named.join(",") : process.env.BENCH_SECTIONS ?? Object.keys(sections).join(","))
  .split(",")
  .map((s) => s.trim())
  .filter((s) => s.length > 0)

const pgArg = process.argv.slice(2).find((arg) => arg.startsWith("--pg="))?.slice("--pg=".length)
const modes = (pgArg ?? process.env.BENCH_PG ?? "fast")
  .split(",")
  .map((s) => s.trim())
  .filter((s) => s.length > 0)
  .map((s) => {
    if (!(s in postgresModes)) throw new Error(`unknown PostgreSQL setting ${s}; known: ${Object.keys(postgresModes).join(", ")}`)
    return s as PostgresMode
  })

const main = async () => {
  for (const name of selected) {
    if (!sections[name]) throw new Error(`unknown bench section ${name}; known: ${Object.keys(sections).join(", ")}`)
  }
  const loadAtStart = Os.loadavg()[0]
  const outputs: Array<string> = []
  for (const mode of modes) {
    process.stderr.write(`bench: embedded PostgreSQL ${postgresModes[mode]}\n`)
    outputs.push(
      await withBench(async (ctx) => {
        const parts: Array<string> = []
        for (const name of selected) {
          const result = await sections[name](ctx)
          parts.push(`### ${name} (PostgreSQL ${mode})\n\nPostgreSQL ${postgresModes[mode]}.\n\n${typeof result === "string" ? result : table(result)}`)
        }
        return parts.join("\n\n")
      }, { postgres: mode })
    )
  }
  const output = outputs.join("\n\n")
  const machine = `${Os.cpus().length} CPU (${Os.cpus()[0]?.model ?? "unknown"}), ${
    Math.round(Os.totalmem() / 2 ** 30)
  } GiB RAM, Node ${process.version}, ${Os.platform()} ${Os.release()}`
  const report = `Run ${new Date().toISOString()} on ${machine}; ${
    process.env.BENCH_DURATION ?? 10
  } s per measurement after a warm-up; load average (1 min) ${loadAtStart.toFixed(2)} at the start, ${
    Os.loadavg()[0].toFixed(2)
  } at the end.\n\n${output}\n`
  process.stdout.write(report)
  const dir = Path.join(root, "bench", "results")
  Fs.mkdirSync(dir, { recursive: true })
  Fs.writeFileSync(Path.join(dir, "latest.md"), report)
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  }
)
