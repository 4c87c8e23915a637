/**
 * npm run -s validate -- FILE.rubr_flow [--source PATH=LOCAL_FILE ...]
 * Validates rubr_flow files offline with the service's own validator (no key, no network) and prints
 * one line per issue (`file:line: severity code at path: message`). Exit 0 when every file is valid,
 * 1 when one has errors, 2 on bad usage. `--source SKILL.md=./skills/x/SKILL.md` also checks the
 * flow's `from` ranges, line counts and hash against the real source. (`rubr validate` will do the same.)
 */
import * as Fs from "node:fs"
import { parseArgs } from "node:util"
import { type SourceInfo, validateText } from "../src/rubr_flow/Validator.js"

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { source: { type: "string", multiple: true, default: [] } }
})

if (positionals.length === 0) {
  process.stderr.write("usage: npm run -s validate -- FILE.rubr_flow [--source PATH=LOCAL_FILE ...]\n")
  process.exit(2)
}

const sources: Array<SourceInfo> = []
for (const spec of values.source ?? []) {
  const eq = spec.indexOf("=")
  if (eq <= 0) {
    process.stderr.write(`--source wants PATH=LOCAL_FILE, got ${spec}\n`)
    process.exit(2)
  }
  sources.push({ path: spec.slice(0, eq), content: Fs.readFileSync(spec.slice(eq + 1), "utf8") })
}

let failed = false
for (const file of positionals) {
  let text: string
  try {
    text = Fs.readFileSync(file, "utf8")
  } catch (error) {
    process.stderr.write(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? "error"})\n`)
    process.exit(2)
  }
  const result = validateText(text, { sources })
  for (const issue of result.issues) {
    process.stdout.write(`${file}:${issue.line}: ${issue.severity} ${issue.code}${issue.path ? ` at ${issue.path}` : ""}: ${issue.message}\n`)
  }
  const errors = result.issues.filter((i) => i.severity === "error").length
  process.stdout.write(`${file}: ${result.valid ? "valid" : "invalid"} (${errors} error(s), ${result.issues.length - errors} warning(s); validator ${result.validatorVersion})\n`)
  failed ||= !result.valid
}
process.exit(failed ? 1 : 0)
