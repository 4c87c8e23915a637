/**
 * Issue 13 benchmarks: the CLI as users run it (`node bin/rubr.js`, the bundle `npm run build` makes),
 * each run a new process timed from spawn to exit:
 *   - cold `rubr --help` (goal ≤ 300 ms);
 *   - `rubr validate` of 100 rubr_flow files in one run (goal ≤ 1 s);
 *   - `rubr check` of a corpus skill folder against the bench service and a worker, mock reviewer
 *     (goal ≤ 2 s end to end): a first check (new bundle, upload, audit) and a re-check of the
 *     unchanged folder (reuses the audit).
 */
import { execFileSync, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import type { BenchContext } from "./harness.js"
import { root } from "./harness.js"
import { grant, ms, percentile, startWorker, stopWorker } from "./jobs.js"

const BIN = Path.join(root, "bin/rubr.js")
const CORPUS = Path.join(root, "../shared/corpus/skills/gh-fix-ci")

const timed = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ ms: number; code: number | null; stderr: string }>((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env }, stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()))
    child.on("error", reject)
    child.on("close", (code) => resolve({ ms: performance.now() - started, code, stderr }))
  })

const row = (name: string, times: ReadonlyArray<number>, goal: number) => {
  const p50 = percentile(times, 50)!
  return `| ${name} | ${times.length} | ${ms(p50)} | ${ms(Math.min(...times))} | ${ms(Math.max(...times))} | ≤ ${goal} ms: ${p50 <= goal ? "**met**" : "**NOT met**"} |`
}

/**
 * Issue 26: `rubr check` over a 40-skill repository (the corpus's skills-extra under skills/), each
 * first run with a bundle prefix of its own so nothing is cached (40 bundles created, every file
 * uploaded, 40 audits at --concurrency 4), then again with nothing changed (every audit reused).
 */
const repositoryRows = async (env: Record<string, string>) => {
  const extra = Path.join(root, "../shared/corpus/skills-extra")
  const repo = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-bench-repo-"))
  const skills = Fs.readdirSync(extra, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).slice(0, 40)
  for (const name of skills) Fs.cpSync(Path.join(extra, name), Path.join(repo, "skills", name), { recursive: true })
  Fs.mkdirSync(Path.join(repo, ".git"))
  const rows: Array<string> = []
  try {
    const cold: Array<number> = []
    const warm: Array<number> = []
    const fresh: Array<number> = []
    for (let i = 0; i < 3; i++) {
      Fs.writeFileSync(Path.join(repo, ".rubr.yaml"), `bundlePrefix: bench-repo-${Date.now()}-${i}/\n`)
      const first = await timed(["check", repo, "--fail-on", "none"], env)
      if (first.code !== 0) throw new Error(`rubr check of the repository exited ${first.code}: ${first.stderr.slice(-500)}`)
      cold.push(first.ms)
      const again = await timed(["check", repo, "--fail-on", "none"], env)
      if (again.code !== 0 || !again.stderr.includes(`0 to audit (0 credits), ${skills.length} reused`)) throw new Error(`the unchanged re-run audited again: ${again.stderr.slice(-500)}`)
      warm.push(again.ms)
      // a CI runner's case: nothing changed, nothing remembered on this machine (three requests an artifact)
      const uncached = await timed(["check", repo, "--fail-on", "none", "--no-cache"], env)
      if (uncached.code !== 0 || !uncached.stderr.includes(`0 to audit (0 credits), ${skills.length} reused`)) throw new Error(`the --no-cache re-run audited again: ${uncached.stderr.slice(-500)}`)
      fresh.push(uncached.ms)
    }
    rows.push(row(`\`rubr check\` of a ${skills.length}-skill repository, nothing cached (${skills.length} bundles, uploads, audits)`, cold, 8000))
    rows.push(row(`\`rubr check\` of the same repository, nothing changed (every audit reused)`, warm, 1000))
    rows.push(`| \`rubr check --no-cache\` of the same repository, nothing changed, nothing remembered (a CI runner) | ${fresh.length} | ${ms(percentile(fresh, 50)!)} | ${ms(Math.min(...fresh))} | ${ms(Math.max(...fresh))} | no goal (shown for CI) |`)
  } finally {
    Fs.rmSync(repo, { recursive: true, force: true })
  }
  return rows
}

/** `rubr check --list` over a tree of 1,000 skill folders (a SKILL.md and a reference file each), and `rubr --version`. */
const offlineRows = async () => {
  const tree = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-bench-tree-"))
  const skill = "---\nname: s\ndescription: Use when benchmarking.\n---\n# S\n"
  for (let i = 0; i < 1000; i++) {
    const dir = Path.join(tree, `plugins/p${i % 20}/skills/skill-${i}`)
    Fs.mkdirSync(Path.join(dir, "reference"), { recursive: true })
    Fs.writeFileSync(Path.join(dir, "SKILL.md"), skill)
    Fs.writeFileSync(Path.join(dir, "reference/notes.md"), "# Notes\n")
  }
  Fs.mkdirSync(Path.join(tree, ".git"))
  const list: Array<number> = []
  const version: Array<number> = []
  try {
    for (let i = 0; i < 3; i++) await timed(["check", "--list", tree])
    for (let i = 0; i < 10; i++) {
      const run = await timed(["check", "--list", tree])
      if (run.code !== 0) throw new Error(`rubr check --list exited ${run.code}: ${run.stderr.slice(0, 500)}`)
      list.push(run.ms)
    }
    for (let i = 0; i < 20; i++) version.push((await timed(["--version"])).ms)
  } finally {
    Fs.rmSync(tree, { recursive: true, force: true })
  }
  return [row("`rubr --version` (answered before the CLI loads)", version, 150), row("`rubr check --list` of a 1,000-skill-folder tree (2,000 files)", list, 500)]
}

export const cliSection = async (ctx: BenchContext): Promise<string> => {
  execFileSync(process.execPath, [Path.join(root, "scripts/build.mjs"), "--no-types"], { stdio: "ignore" })
  const rows: Array<string> = []

  // --help: a few warm-ups for the OS file cache, then 20 runs
  for (let i = 0; i < 3; i++) await timed(["--help"])
  const help: Array<number> = []
  for (let i = 0; i < 20; i++) {
    const run = await timed(["--help"])
    if (run.code !== 0) throw new Error(`rubr --help exited ${run.code}: ${run.stderr}`)
    help.push(run.ms)
  }
  rows.push(row("cold `rubr --help`", help, 300))
  rows.push(...await offlineRows())

  // validate: 100 distinct valid flows in one folder
  const flowDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-bench-flows-"))
  const example = Fs.readFileSync(Path.join(root, "docs/rubr-flow.md"), "utf8").match(/```yaml\n([\s\S]*?)```/)![1]!
  for (let i = 0; i < 100; i++) Fs.writeFileSync(Path.join(flowDir, `flow-${i}.rubr_flow`), example.replace(/^name: (.*)$/m, `name: $1 ${i}`))
  const validate: Array<number> = []
  for (let i = 0; i < 10; i++) {
    const run = await timed(["validate", flowDir])
    if (run.code !== 0) throw new Error(`rubr validate exited ${run.code}: ${run.stderr.slice(0, 500)}`)
    validate.push(run.ms)
  }
  Fs.rmSync(flowDir, { recursive: true, force: true })
  rows.push(row("`rubr validate` of 100 files (≈2.4 KiB each)", validate, 1000))

  // check: a worker beside the bench service, the mock reviewer
  if (Fs.existsSync(CORPUS)) {
    const { worker, dataDir } = startWorker(ctx.databaseUrl)
    try {
      await grant(ctx, 1, 1_000_000)
      const env = { SERVICE_BASE_URL: ctx.urls.service, SERVICE_API_KEY: ctx.apiKey }
      // the worker is up once a check completes
      const warm = await timed(["check", CORPUS, "--bundle", "bench-cli-warmup"], env)
      if (warm.code !== 0) throw new Error(`rubr check exited ${warm.code}: ${warm.stderr.slice(0, 500)}`)
      const first: Array<number> = []
      const again: Array<number> = []
      for (let i = 0; i < 10; i++) {
        const run = await timed(["check", CORPUS, "--bundle", `bench-cli-${Date.now()}-${i}`], env)
        if (run.code !== 0) throw new Error(`rubr check exited ${run.code}: ${run.stderr.slice(0, 500)}`)
        first.push(run.ms)
        const rerun = await timed(["check", CORPUS, "--bundle", `bench-cli-warmup`], env)
        again.push(rerun.ms)
      }
      rows.push(row("`rubr check` of gh-fix-ci, first run (create, upload 2 files, audit, gates)", first, 2000))
      rows.push(row("`rubr check` of gh-fix-ci, unchanged folder (audit reused)", again, 2000))
      rows.push(...await repositoryRows(env))
    } finally {
      await stopWorker(worker, dataDir)
    }
  } else {
    rows.push("| `rubr check`: skipped, ../shared/corpus is absent | | | | | |")
  }
  return ["| Run (a new process each) | runs | p50 (ms) | min | max | goal |", "|---|---:|---:|---:|---:|---|", ...rows].join("\n")
}
