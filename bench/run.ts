/**
 * `npm run bench`: starts an embedded PostgreSQL, the service and a plain node:http + pg baseline as
 * child processes, runs every section with autocannon from this process, and prints one markdown table
 * (also written to bench/results/latest.md). Add a section: export `(ctx) => Promise<Row[]>` from a
 * module beside this one and list it below. BENCH_DURATION (seconds per measurement, default 10) and
 * BENCH_SECTIONS (comma-separated names) narrow a run.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { auditsSection } from "./audits.js"
import { cliSection } from "./cli.js"
import { conversionsSection } from "./conversions.js"
import { evalsSection } from "./evals.js"
import { filesSection } from "./files.js"
import { mcpSection } from "./mcp.js"
import { reviewSection } from "./review.js"
import { type BenchContext, root, type Row, table, withBench } from "./harness.js"

/** A section answers rows (service vs baseline) or a markdown table of its own. */
const sections: Record<string, (ctx: BenchContext) => Promise<Array<Row> | string>> = {
  files: filesSection,
  audits: auditsSection,
  conversions: conversionsSection,
  evals: evalsSection,
  mcp: mcpSection,
  cli: cliSection,
  review: reviewSection
}

const selected = (process.env.BENCH_SECTIONS ?? Object.keys(sections).join(","))
  .split(",")
  .map((s) => s.trim())
  .filter((s) => s.length > 0)

const main = async () => {
  const output = await withBench(async (ctx) => {
    const parts: Array<string> = []
    for (const name of selected) {
      const section = sections[name]
      if (!section) throw new Error(`unknown bench section ${name}; known: ${Object.keys(sections).join(", ")}`)
      const result = await section(ctx)
      parts.push(`### ${name}\n\n${typeof result === "string" ? result : table(result)}`)
    }
    return parts.join("\n\n")
  })
  const machine = `${Os.cpus().length} CPU (${Os.cpus()[0]?.model ?? "unknown"}), ${
    Math.round(Os.totalmem() / 2 ** 30)
  } GiB RAM, Node ${process.version}, ${Os.platform()} ${Os.release()}`
  const report = `Run ${new Date().toISOString()} on ${machine}; ${
    process.env.BENCH_DURATION ?? 10
  } s per measurement after a warm-up.\n\n${output}\n`
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
