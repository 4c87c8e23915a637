#!/usr/bin/env node
// The `rubr` CLI: runs the compiled bundle (built by `npm install` through the `prepare` script).
import * as Module from "node:module"

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
