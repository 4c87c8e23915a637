/** `rubr validate FILE...`: rubr_flow validation, offline (no key, no network). */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { Effect } from "effect"
import { VERSION } from "../../Version.js"
import { usage } from "../Failure.js"
import { expandFlowFiles, toPosix } from "../Files.js"
import type { ValidateReport } from "../reports/Model.js"
import { run } from "../Run.js"
import { described } from "../Shared.js"
import { globalOptions, guidesUrl } from "../Settings.js"

const files = Args.text({ name: "FILE" }).pipe(
  Args.withDescription("A rubr_flow file to validate; a folder stands for every *.rubr_flow file under it."),
  Args.atLeast(1)
)

export const validate = Command.make("validate", { ...globalOptions, files }, (flags) =>
  run("validate", flags, ({ settings, output }) =>
    Effect.gen(function*() {
      const { files, missing } = expandFlowFiles(flags.files)
      if (missing.length > 0) return yield* Effect.fail(usage(`No such file: ${missing.join(", ")}`))
      if (files.length === 0) return yield* Effect.fail(usage(`No *.rubr_flow file in ${flags.files.join(", ")}.`))
      // loaded here, not at start: `rubr --help` does not pay for the validator
      const { validateText, VALIDATOR_VERSION } = yield* Effect.promise(() => import("../../rubr_flow/Validator.js"))
      const { readFileSync } = yield* Effect.promise(() => import("node:fs"))
      const checked = files.map((file) => {
        const result = validateText(readFileSync(file, "utf8"))
        return {
          file: toPosix(file),
          valid: result.valid,
          issues: result.issues.map((i) => ({ code: i.code, severity: i.severity, message: i.message, line: i.line, path: i.path }))
        }
      })
      const report: ValidateReport = {
        tool: { name: "rubr", version: VERSION, informationUri: `${guidesUrl(settings)}/rubr-flow` },
        files: checked,
        passed: checked.every((f) => f.valid),
        guidesUrl: guidesUrl(settings)
      }
      const { validateSarif } = yield* Effect.promise(() => import("../reports/Sarif.js"))
      const { validateJunit } = yield* Effect.promise(() => import("../reports/Junit.js"))
      const c = output.colors
      return {
        exitCode: report.passed ? 0 : 1,
        json: () => ({ passed: report.passed, validatorVersion: VALIDATOR_VERSION, files: report.files }),
        junit: () => validateJunit(report),
        sarif: () => validateSarif(report),
        text: () => {
          const lines: Array<string> = []
          for (const f of report.files) {
            const errors = f.issues.filter((i) => i.severity === "error").length
            const warnings = f.issues.length - errors
            lines.push(`${f.valid ? c.green("✓") : c.red("✗")} ${f.file}${f.issues.length > 0 ? c.dim(`  ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`) : ""}`)
            for (const i of f.issues) {
              const tag = i.severity === "error" ? c.red("error  ") : c.yellow("warning")
              lines.push(`  ${f.file}:${i.line ?? 1}  ${tag} ${i.code}${i.path ? c.dim(` (${i.path})`) : ""}: ${i.message}`)
            }
          }
          const bad = report.files.filter((f) => !f.valid).length
          lines.push(bad === 0 ? c.green(`${report.files.length} valid`) : c.red(`${bad} of ${report.files.length} invalid`))
          return lines.join("\n")
        }
      } as const
    }), ["text", "json", "junit", "sarif"])).pipe(Command.withDescription(described("Validate rubr_flow files offline: no key, no network. Exit 1 when a file has errors.", "rubr validate flows/", "rubr validate deploy.rubr_flow --format sarif > flows.sarif")))
