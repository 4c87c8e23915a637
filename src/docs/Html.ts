/**
 * A documentation page as HTML, for people following a link (the CLI's SARIF rules, JUnit and help
 * text point here). Headings get GitHub's anchors (`### \`error_handling\`` → `#error_handling`), so
 * a link into a section lands on it; links between the pages are rewritten to their guide URLs.
 */
import { Marked, type Tokens } from "marked"
import type { Doc } from "./Docs.js"

/** GitHub's heading anchor: lower case, punctuation out (but `-` and `_`), spaces to hyphens. */
export const anchorOf = (text: string) =>
  text.toLowerCase().replace(/<[^>]*>/g, "").replace(/[^\p{L}\p{N}\s_-]/gu, "").trim().replace(/\s/g, "-")

/** Text and double-quoted attribute values made safe in HTML. */
export const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** `docs/evals.md#x`, `evals.md`, `../README.md` → `${base}/evals#x`, `${base}/evals`, `${base}/readme`. */
export const guideHref = (href: string, slugs: ReadonlySet<string>, base: string) => {
  const m = /^(?:\.{0,2}\/)*(?:docs\/)?([A-Za-z0-9_-]+)\.md(#.*)?$/.exec(href)
  if (!m) return href
  const slug = m[1]!.toLowerCase() === "readme" ? "readme" : m[1]!
  return slugs.has(slug) ? `${base}/${slug}${m[2] ?? ""}` : href
}

const STYLE = `
body{font:16px/1.55 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1f2328;background:#fff}
main{max-width:52rem;margin:0 auto;padding:1.5rem 1.25rem 4rem}
nav{font-size:.9rem;padding:.6rem 1.25rem;border-bottom:1px solid #d0d7de;background:#f6f8fa;overflow-x:auto;white-space:nowrap}
nav a{margin-right:.9rem;color:#0969da;text-decoration:none}nav a[aria-current]{font-weight:600;color:#1f2328}
h1,h2,h3,h4{line-height:1.25;margin:1.6em 0 .6em}h1{font-size:2rem}h2{font-size:1.5rem;border-bottom:1px solid #d0d7de;padding-bottom:.3em}
a{color:#0969da}code{font:.875em ui-monospace,SFMono-Regular,Menlo,monospace;background:#eff1f3;padding:.15em .35em;border-radius:4px}
pre{background:#f6f8fa;padding:1rem;overflow-x:auto;border-radius:6px}pre code{background:none;padding:0}
table{border-collapse:collapse;display:block;overflow-x:auto;margin:1rem 0}th,td{border:1px solid #d0d7de;padding:.4rem .7rem;vertical-align:top}th{background:#f6f8fa}
:target{scroll-margin-top:1rem;background:#fff8c5}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}nav{background:#161b22;border-color:#30363d}nav a[aria-current]{color:#e6edf3}
code,pre{background:#161b22}th{background:#161b22}th,td,h2{border-color:#30363d}a,nav a{color:#4493f8}:target{background:#3b2e00}}
`

/** `base` is where the guides are served (`/api/v1/guides`); `apiDocs` the API reference page. */
export const renderGuide = (doc: Doc, docs: ReadonlyArray<Doc>, base: string, apiDocs: string): string => {
  const slugs = new Set(docs.map((d) => d.slug))
  const seen = new Map<string, number>()
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline: (tokens: Tokens.Heading["tokens"]) => string } }, { tokens, depth, text }: Tokens.Heading) {
        // repeated headings get -1, -2 … as on GitHub
        const base = anchorOf(text)
        const n = seen.get(base) ?? 0
        seen.set(base, n + 1)
        const id = n === 0 ? base : `${base}-${n}`
        return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`
      },
      link(this: { parser: { parseInline: (tokens: Tokens.Link["tokens"]) => string } }, { href, title, tokens }: Tokens.Link) {
        const target = guideHref(href, slugs, base)
        return `<a href="${escapeHtml(target)}"${title ? ` title="${escapeHtml(title)}"` : ""}>${this.parser.parseInline(tokens)}</a>`
      },
      // the docs are ours, but raw HTML in them is shown, not run
      html({ text }: Tokens.HTML | Tokens.Tag) {
        return escapeHtml(text)
      }
    }
  })
  const body = marked.parse(doc.content, { async: false })
  const nav = docs.map((d) => `<a href="${base}/${d.slug}"${d.slug === doc.slug ? ' aria-current="page"' : ""}>${escapeHtml(d.slug === "readme" ? "Overview" : d.title)}</a>`).join("")
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(doc.title)} · rubr</title><style>${STYLE}</style></head>` +
    `<body><nav>${nav}<a href="${apiDocs}">API reference</a></nav><main>${body}</main></body></html>`
}
