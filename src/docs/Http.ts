import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import { NotFound } from "../domain/Errors.js"
import { RubrApi } from "../Api.js"
import { findDoc, loadDocs } from "./Docs.js"
import { renderGuide } from "./Html.js"

const html = (body: string) => HttpServerResponse.text(body, { contentType: "text/html; charset=utf-8", headers: { "cache-control": "public, max-age=300" } })

export const GuidesHttp = HttpApiBuilder.group(RubrApi, "guides", (handlers) =>
  Effect.sync(() => {
    const docs = loadDocs()
    // rendered once: the pages are part of the release
    const base = "/api/v1/guides"
    const pages = new Map(docs.map((d) => [d.slug, renderGuide(d, docs, base, "/api/v1/docs")]))
    const listing = { slug: "", path: "", title: "rubr guides", headings: [], content: `# rubr guides\n\n${docs.map((d) => `- [${d.title}](${d.path})`).join("\n")}\n` }
    const index = renderGuide(listing, docs, base, "/api/v1/docs")
    return handlers
      .handle("listGuides", () => Effect.succeed(html(index)))
      .handle("getGuide", ({ path }) =>
        Effect.suspend(() => {
          const page = pages.get(findDoc(docs, { slug: path.slug })?.slug ?? "")
          return page === undefined
            ? Effect.fail(new NotFound({ message: `No guide is called ${path.slug}; GET /api/v1/guides lists them.`, details: [] }))
            : Effect.succeed(html(page))
        }))
  }))
