/**
 * Issue 26: the GitHub Action (action.yml at the root). Its YAML is parsed, its inputs are the CLI's
 * flags (each named by `rubr check --help`), and its check step, run by bash with a stand-in `rubr`
 * on the PATH, passes each input on as that flag, writes the job summary table and ends with the
 * check's exit code.
 */
import { execFileSync, spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import * as Yaml from "yaml"
import { runCli } from "./support/Cli.js"

const action = Yaml.parse(Fs.readFileSync(new URL("../action.yml", import.meta.url), "utf8"))

/** Inputs that are `rubr check` flags of the same name (the others say how to run it). */
const FLAG_INPUTS = ["min-score", "fail-on", "changed-since", "max-credits", "concurrency", "api-key", "base-url"]

describe("action.yml", () => {
  it("is a composite action whose inputs are the CLI's flags", async () => {
    expect(action.runs.using).toBe("composite")
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(["path", ...FLAG_INPUTS]))
    for (const [name, input] of Object.entries<any>(action.inputs)) expect([name, typeof input.description]).toEqual([name, "string"])
    expect(action.inputs["api-key"].required).toBe(true)
    const help = (await runCli(["check", "--help"])).stdout
    for (const name of FLAG_INPUTS) expect(help).toContain(`--${name}`)
    // set-up-node, then the install, the check, the upload and the verdict
    expect(action.runs.steps[0].uses).toMatch(/^actions\/setup-node@/)
    expect(action.runs.steps.map((s: any) => s.uses).filter(Boolean)).toContain("github/codeql-action/upload-sarif@v3")
  })

  it("the check step passes each input as its flag, writes the summary table, and hands on the exit code", () => {
    const step = action.runs.steps.find((s: any) => s.id === "check")
    // inputs reach the script only through the environment
    expect(step.run).not.toContain("${{")
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-action-"))
    const calls = Path.join(dir, "calls.txt")
    // a stand-in rubr: records its arguments, fails the gate, prints a small report
    const report = {
      passed: false,
      quote: { artifacts: 1, toAudit: 1, reused: 0, credits: 12 },
      artifacts: [{ target: "skills/pdf", audit: { overallScore: 61 }, passed: false, findings: [{ severity: "major" }], gates: [{ passed: false, message: "overall score 61 < 70" }] }]
    }
    Fs.writeFileSync(
      Path.join(dir, "rubr"),
      `#!/bin/sh\necho "$*" >> ${JSON.stringify(calls)}\ncase "$*" in *"--format json"*) echo '${JSON.stringify(report)}' ;; *) echo '{"version":"2.1.0"}' ;; esac\nexit 1\n`,
      { mode: 0o755 }
    )
    const output = Path.join(dir, "output")
    const summary = Path.join(dir, "summary.md")
    const run = spawnSync("bash", ["-e", "-c", step.run], {
      encoding: "utf8",
      cwd: dir,
      env: {
        PATH: `${dir}:${process.env.PATH}`,
        HOME: process.env.HOME,
        SERVICE_API_KEY: "rubr_x",
        SERVICE_BASE_URL: "https://rubr.example.com",
        RUBR_PATH: "skills AGENTS.md",
        RUBR_MIN_SCORE: "70",
        RUBR_FAIL_ON: "major",
        RUBR_CHANGED_SINCE: "",
        RUBR_MAX_CREDITS: "500",
        RUBR_CONCURRENCY: "2",
        RUBR_OUT: dir,
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary
      }
    })
    expect([run.status, run.stderr]).toEqual([0, ""])
    const lines = Fs.readFileSync(calls, "utf8").trim().split("\n")
    expect(lines).toEqual([
      "check skills AGENTS.md --concurrency 2 --min-score 70 --fail-on major --max-credits 500 --format sarif",
      "check skills AGENTS.md --concurrency 2 --min-score 70 --fail-on major --max-credits 500 --format json"
    ])
    expect(Fs.readFileSync(output, "utf8")).toContain("exit-code=1")
    expect(JSON.parse(Fs.readFileSync(Path.join(dir, "rubr.sarif"), "utf8")).version).toBe("2.1.0")
    const table = Fs.readFileSync(summary, "utf8")
    expect(table).toContain("## rubr check: failed")
    expect(table).toContain("| skills/pdf | 61 | 0 | 1 | 0 | 0 | ❌ overall score 61 < 70 |")
    // the verdict step ends the job with the check's code
    const verdict = action.runs.steps.at(-1)
    expect(spawnSync("bash", ["-c", verdict.run], { env: { CODE: "1" } }).status).toBe(1)
    expect(execFileSync("bash", ["-c", verdict.run], { env: { CODE: "0" } }).toString()).toBe("")
  })
})
