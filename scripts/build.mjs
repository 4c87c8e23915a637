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
 *   packages/cli/  the lean `rubr-cli` package: bin/rubr.js and the CLI and SDK bundles above, no
 *                  dependencies (`npm pack packages/cli`)
 *   dist/dashboard/ the web dashboard (src/dashboard/web): index.html and hashed, precompressed assets,
 *                  split so the sign-in page loads only its own small entry (the signed-in app, the
 *                  typed client and Effect come after sign-in); the service serves it at `/`
 */
import { build } from "esbuild"
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { copyFileSync, cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, extname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { brotliCompressSync, constants as zlibConstants } from "node:zlib"

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

// ---- the dashboard ------------------------------------------------------------------------------

/**
 * The typed client carries the contract (src/Api.ts) to the browser. Two modules it reaches are
 * server machinery the browser never runs: @effect/platform's HttpRouter (the contract uses only its
 * `prefixPath`; the router brings find-my-way, the multipart parser and the server request) and
 * fast-check (Schema's arbitraries). The browser build replaces them: HttpRouter by `prefixPath`
 * alone, fast-check by a stub that throws if ever called. The browser tests drive every page.
 */
const browserStubs = {
  name: "rubr-browser-stubs",
  setup(b) {
    b.onLoad({ filter: /@effect[\\/]platform[\\/]dist[\\/]esm[\\/]HttpRouter\.js$/ }, () => ({
      contents: `import { dual } from "effect/Function"
export const prefixPath = dual(2, (self, prefix) => {
  prefix = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix
  return self === "/" ? prefix : prefix + self
})`,
      loader: "js",
      resolveDir: join(root, "node_modules/@effect/platform/dist/esm")
    }))
    b.onLoad({ filter: /effect[\\/]dist[\\/]esm[\\/]FastCheck\.js$/ }, () => ({
      contents: `export const array = () => { throw new Error("fast-check is not available in the browser") }`,
      loader: "js"
    }))
    // the endpoints' and groups' OpenAPI prose (`.annotate(OpenApi.Description, "…")`) is read only when
    // the service builds its OpenAPI document: the browser gets empty strings (about 5 KiB gzipped less).
    // Schema annotations (`description` in `.annotations({…})`) stay: error messages quote them.
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, "utf8")
      if (!text.includes("OpenApi.")) return undefined
      return { contents: text.replace(openApiProse, '$1""'), loader: "ts" }
    })
  }
}

/** `OpenApi.Description, "…" + "…"` (string or template literals, concatenated): the prose argument. */
const literal = String.raw`(?:"(?:[^"\\\n]|\\.)*"|\x60(?:[^\x60\\]|\\.)*\x60)`
const openApiProse = new RegExp(String.raw`(OpenApi\.(?:Description|Summary),\s*)${literal}(?:\s*\+\s*${literal})*`, "g")

const webRoot = "src/dashboard/web"
const dashboardDir = join(root, "dist/dashboard")
rmSync(dashboardDir, { recursive: true, force: true })
const dashboard = await build({
  absWorkingDir: root,
  entryPoints: { main: `${webRoot}/main.tsx` },
  outdir: "dist/dashboard/assets",
  bundle: true,
  format: "esm",
  splitting: true,
  platform: "browser",
  target: ["chrome111", "firefox111", "safari16.4", "edge111"],
  minify: true,
  // UTF-8 as it is (the service sends charset=utf-8): escaped, non-ASCII text and regexps grow
  charset: "utf8",
  legalComments: "linked",
  jsx: "automatic",
  jsxImportSource: "preact",
  alias: { "rubr/client": "./src/client/index.ts" },
  entryNames: "[name]-[hash]",
  chunkNames: "chunks/[name]-[hash]",
  assetNames: "[name]-[hash]",
  loader: { ".svg": "file" },
  define: { "process.env.NODE_ENV": '"production"' },
  plugins: [browserStubs],
  metafile: true,
  logLevel: "warning",
  tsconfig: `${webRoot}/tsconfig.json`
})

/** The page: the entry, its stylesheet, the chunks it imports at once (preloaded), a hashed favicon. */
const outputs = dashboard.metafile.outputs
const [entryPath, entry] = Object.entries(outputs).find(([, o]) => o.entryPoint === `${webRoot}/main.tsx`)
const url = (path) => `/${relative("dist/dashboard", path).split("\\").join("/")}`
const favicon = readFileSync(join(root, webRoot, "favicon.svg"))
const faviconName = `favicon-${createHash("sha256").update(favicon).digest("hex").slice(0, 8)}.svg`
copyFileSync(join(root, webRoot, "favicon.svg"), join(dashboardDir, "assets", faviconName))
const preloads = entry.imports.filter((i) => i.kind === "import-statement").map((i) => `<link rel="modulepreload" href="${url(i.path)}" />`)
writeFileSync(
  join(dashboardDir, "index.html"),
  readFileSync(join(root, webRoot, "index.html"), "utf8")
    .replace("%ENTRY%", url(entryPath))
    .replace("%STYLES%", url(entry.cssBundle))
    .replace("%FAVICON%", `/assets/${faviconName}`)
    .replace("%PRELOADS%", preloads.join("\n    "))
)

/**
 * Every text asset also as .br and .gz beside it: the service sends what the browser accepts. The .gz is
 * zopfli's (an ordinary gzip stream, about 4% smaller than zlib's level 9; 3 iterations, about a second
 * for the largest chunk).
 */
// loaded here, not at the top: `--server` never needs it (its WebAssembly takes a moment to load)
const { gzipAsync: zopfliGzip } = await import("@gfx/zopfli")
const compressAll = async (dir) => {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name)
    if (statSync(file).isDirectory()) await compressAll(file)
    else if ([".js", ".css", ".svg", ".txt", ".json"].includes(extname(name))) {
      const body = readFileSync(file)
      writeFileSync(`${file}.gz`, await zopfliGzip(body, { numiterations: 3 }))
      writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }))
    }
  }
}
await compressAll(join(dashboardDir, "assets"))
// `--analyze`: the whole metafile, for a look at what each chunk holds (esbuild's analyzer reads it)
if (process.argv.includes("--analyze")) writeFileSync(join(dashboardDir, "metafile.json"), JSON.stringify(dashboard.metafile))
mkdirSync(dashboardDir, { recursive: true })
// which chunks each output imports at once: what a page's first load fetches (the bench reads it)
writeFileSync(
  join(dashboardDir, "meta.json"),
  JSON.stringify({
    entry: url(entryPath),
    outputs: Object.fromEntries(
      Object.entries(outputs).filter(([p]) => p.endsWith(".js")).map(([p, o]) => [url(p), { imports: o.imports.filter((i) => i.kind === "import-statement").map((i) => url(i.path)) }])
    )
  }, null, 1)
)

if (withTypes) {
  rmSync(join(root, "dist/types"), { recursive: true, force: true })
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.client.json")], { stdio: "inherit" })
}
// ---- the lean CLI package (packages/cli, docs/decisions.md) ------------------------------------------

// the same bin and bundles, without the service: `npm pack packages/cli` installs no dependency
const lean = join(root, "packages/cli")
rmSync(join(lean, "dist"), { recursive: true, force: true })
rmSync(join(lean, "bin"), { recursive: true, force: true })
mkdirSync(join(lean, "bin"), { recursive: true })
copyFileSync(join(root, "bin/rubr.js"), join(lean, "bin/rubr.js"))
for (const dir of ["dist/cli", "dist/client", ...(withTypes ? ["dist/types"] : [])]) cpSync(join(root, dir), join(lean, dir), { recursive: true })
// one version for both packages: the service's
const leanJson = JSON.parse(readFileSync(join(lean, "package.json"), "utf8"))
const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version
if (leanJson.version !== version) writeFileSync(join(lean, "package.json"), `${JSON.stringify({ ...leanJson, version }, null, 2)}\n`)

process.stderr.write(`built dist/ in ${Date.now() - started} ms\n`)
