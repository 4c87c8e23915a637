/**
 * `npm run build` (and `prepare`, which `npm install` and `npm pack` run): compiles what users run
 * with plain `node`, so nothing is compiled at each start.
 *
 *   dist/server/   the service (`npm start` runs dist/server/main.js): our code in one module, every
 *                  dependency left to node_modules; plain `node` runs it, without tsx's loader thread
 *                  and its in-memory source maps (about 55 MB less RSS, docs/performance.md, "Memory").
 *                  `--server` builds only this one, which `npm start` does first so that it never runs
 *                  code older than src/ (about 0.3 s).
 *   dist/cli/      the `rubr` CLI: one bundle with its dependencies, split so a command loads only
 *                  what it uses (bin/rubr.js imports dist/cli/main.js)
 *   dist/client/   the SDK (`rubr/client`): our code bundled, `effect` and `@effect/*` left to the
 *                  user's install so both share one Effect runtime
 *   dist/types/    the SDK's type declarations (skipped with --no-types: the tests need only the CLI)
 */
import { build } from "esbuild"
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const withTypes = !process.argv.includes("--no-types")
const serverOnly = process.argv.includes("--server")
const started = Date.now()

// some bundled dependencies are CommonJS and call require(): give the ESM bundle one
const requireShim = "import { createRequire as __rubrCreateRequire } from 'node:module'; const require = __rubrCreateRequire(import.meta.url);"

/** Empties `outdir` and bundles into it as an ES module; `options` say what and for which runtime. */
const bundleInto = (outdir, options) => {
  rmSync(join(root, outdir), { recursive: true, force: true })
  return build({ absWorkingDir: root, outdir, bundle: true, format: "esm", logLevel: "warning", ...options })
}

// two folders below the root, as src/<dir>/ is: the paths the code finds from import.meta.url (sql/,
// docs/) resolve the same from the bundle
await bundleInto("dist/server", {
  entryPoints: { main: "src/main.ts" },
  // split, so that what src/ imports on demand (the OpenAI-compatible providers) stays a module of its
  // own, with its dependencies' imports, instead of being hoisted into main.js
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  packages: "external",
  platform: "node",
  target: "node20"
})
if (serverOnly) {
  process.stderr.write(`built dist/server/ in ${Date.now() - started} ms\n`)
  process.exit(0)
}

await bundleInto("dist/cli", {
  entryPoints: { main: "src/cli/main.ts" },
  splitting: true,
  platform: "node",
  target: "node20",
  minify: true,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  banner: { js: requireShim }
})

await bundleInto("dist/client", {
  entryPoints: { index: "src/client/index.ts" },
  packages: "external",
  platform: "neutral",
  target: "es2022"
})

if (withTypes) {
  rmSync(join(root, "dist/types"), { recursive: true, force: true })
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.client.json")], { stdio: "inherit" })
}
process.stderr.write(`built dist/ in ${Date.now() - started} ms\n`)
