/**
 * The documentation as HTML pages (`/api/v1/guides`): the targets of the CLI's help links. Every
 * rubric criterion and every rule id (SARIF's rules) has its anchor in the rubrics guide, and the rubr_flow issue
 * codes theirs in the format's guide.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { CRITERION_KEYS } from "../src/review/rubrics/Criteria.js"
import { RULES } from "../src/review/rules/Rules.js"
import { inOneMinuteWindow, makeTestApp } from "./support/TestApp.js"
import { call } from "./support/fixtures.js"

layer(makeTestApp({ env: { SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "1000" } }))("guides", (it) => {
  it.effect("the list and each page are HTML; headings carry the anchors the CLI links to", () =>
    Effect.gen(function*() {
      const list = yield* call((app) => app.request("GET", "/guides"))
      expect(list.status).toBe(200)
      expect(list.headers.get("content-type")).toBe("text/html; charset=utf-8")
      for (const slug of ["readme", "rubrics", "rubr-flow", "ci", "cli", "sdk", "mcp"]) expect(list.text).toContain(`href="/api/v1/guides/${slug}"`)

      const rubrics = yield* call((app) => app.request("GET", "/guides/rubrics"))
      expect(rubrics.status).toBe(200)
      for (const key of CRITERION_KEYS) expect([key, rubrics.text.includes(`id="${key}"`)]).toEqual([key, true])
      // every rule id too: SARIF's helpUri points at `#sk-name-folder`
      for (const rule of RULES) expect([rule.id, rubrics.text.includes(`id="${rule.id.toLowerCase()}"`)]).toEqual([rule.id, true])
      const flow = yield* call((app) => app.request("GET", "/guides/rubr-flow"))
      expect(flow.text).toContain('id="issue-codes"')
      // links between the docs lead to the other guides
      const readme = yield* call((app) => app.request("GET", "/guides/readme"))
      expect(readme.text).toContain('href="/api/v1/guides/mcp"')
      expect(readme.text).not.toContain('href="docs/mcp.md"')
      // raw HTML in a page is shown, never run
      expect(readme.text).not.toMatch(/<script/i)
    }))

  it.effect("unknown guides are 404 and bad slugs 400, in the error envelope", () =>
    Effect.gen(function*() {
      const missing = yield* call((app) => app.request("GET", "/guides/nope"))
      expect([missing.status, missing.body.error.code]).toEqual([404, "not_found"])
      const bad = yield* call((app) => app.request("GET", "/guides/..%2Fpackage.json"))
      expect([bad.status, bad.body.error.code]).toEqual([400, "validation_failed"])
    }))
})

layer(makeTestApp({ env: { SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE: "3" } }))("guides under the per-IP limit", (it) => {
  it.effect("they are public routes: counted per IP", () =>
    Effect.gen(function*() {
      yield* inOneMinuteWindow()
      const statuses: Array<number> = []
      for (let i = 0; i < 4; i++) statuses.push((yield* call((app) => app.request("GET", "/guides/readme"))).status)
      expect(statuses).toEqual([200, 200, 200, 429])
    }))
})
