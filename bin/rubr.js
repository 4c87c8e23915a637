#!/usr/bin/env node
// The `rubr` CLI: runs the compiled bundle (built by `npm install` through the `prepare` script; the
// lean rubr-cli package, packages/cli, ships this same file beside the same bundle).
import { readFileSync } from "node:fs"
import * as Module from "node:module"

const args = process.argv.slice(2)
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  // the fast path: the version without loading the CLI (Effect and the commands take ~100 ms)
  process.stdout.write(`${JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version}\n`)
} else {
  // Node 22+ keeps the compiled bundle between runs (a faster start); Node 20 has no such cache
  Module.enableCompileCache?.()
  import("../dist/cli/main.js").catch((error) => {
    if (error && error.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/cli/main.js")) {
      process.stderr.write("rubr: the CLI is not built yet: run `npm install` (or `npm run build`) in the rubr package.\n")
      process.exitCode = 2
    } else {
      throw error
    }
  })
}
