/**
 * `npm run build` (and `prepare`, which `npm install` and `npm pack` run): compiles what users run
 * with plain `node`, so nothing is compiled at each start.
 *
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
const started = Date.now()

// some bundled dependencies are CommonJS and call require(): give the ESM bundle one
const requireShim = "import { createRequire as __rubrCreateRequire } from 'node:module'; const require = __rubrCreateRequire(import.meta.url);"

rmSync(join(root, "dist/cli"), { recursive: true, force: true })
await build({
  absWorkingDir: root,
  entryPoints: { main: "src/cli/main.ts" },
  outdir: "dist/cli",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: true,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  banner: { js: requireShim },
  logLevel: "warning"
})

rmSync(join(root, "dist/client"), { recursive: true, force: true })
await build({
  absWorkingDir: root,
  entryPoints: { index: "src/client/index.ts" },
  outdir: "dist/client",
  bundle: true,
  packages: "external",
  format: "esm",
  platform: "neutral",
  target: "es2022",
  logLevel: "warning"
})

if (withTypes) {
  rmSync(join(root, "dist/types"), { recursive: true, force: true })
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.client.json")], { stdio: "inherit" })
}
process.stderr.write(`built dist/ in ${Date.now() - started} ms\n`)
