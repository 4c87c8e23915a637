/**
 * The docs page at /api/v1/docs: Scalar's API reference over the served OpenAPI document (the one
 * /api/v1/openapi.json answers, with the access extensions).
 *
 * Why not `HttpApiScalar.layer`: it imports Scalar's standalone bundle at startup, a 6.5 MB string
 * literal whose module source stays in the heap beside it (about 13 MB for a page most processes
 * never serve; docs/performance.md, "Memory"). Here the bundle is imported on the first request to
 * the page and the page is kept from then on; a process that never serves it never loads it.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"
import { DOCS_PATH } from "../Routes.js"
import { escapeHtml } from "./Html.js"
import { openApiDocument } from "../system/Http.js"


/** `JSON.stringify` made safe inside a <script> element (as @effect/platform's Html.escapeJson). */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, "\\u003c").replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"))

/**
 * Scalar's bundle as @effect/platform ships it. Its module is internal (not in the package's
 * exports), so it is imported by file URL, found from the package's own directory.
 */
const scalarJavascript = Effect.promise(async () => {
  const packageJson = createRequire(import.meta.url).resolve("@effect/platform/package.json")
  const url = pathToFileURL(Path.join(Path.dirname(packageJson), "dist", "esm", "internal", "httpApiScalar.js"))
  const module = (await import(url.href)) as { readonly javascript: string }
  return module.javascript
})

const renderPage = Effect.map(scalarJavascript, (javascript) => {
  const spec = openApiDocument()
  const description = typeof spec.info?.description === "string" ? escapeHtml(spec.info.description) : undefined
  return `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(String(spec.info?.title ?? "API"))}</title>
    ${description === undefined ? "" : `<meta name="description" content="${description}"/>`}
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <script id="api-reference" type="application/json">
      ${scriptJson(spec)}
    </script>
    <script>
      document.getElementById('api-reference').dataset.configuration = JSON.stringify(${scriptJson({ _integration: "html" })})
    </script>
    <script>${javascript}</script>
  </body>
</html>`
})

export const DocsPageLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    // Built once, on the first request (concurrent first requests share the one build).
    const page = yield* Effect.cached(renderPage)
    yield* router.get(DOCS_PATH, Effect.map(page, (html) => HttpServerResponse.html(html)))
  })
)
