/**
 * GET /jobs (issue 24: the dashboard's jobs page): a user's jobs across bundles, newest first, by state
 * or bundle, in keyset pages; nobody else's. An API process without a worker keeps them queued.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeTestApp } from "./support/TestApp.js"
import { bundleWith, call, SKILL_WITH_DANGLING_LINK } from "./support/fixtures.js"

layer(makeTestApp({ role: "api" }))("GET /jobs", (it) => {
  it.effect("lists the caller's jobs newest first, filtered by state or bundle, paged by cursor", () =>
    Effect.gen(function*() {
      const alice = yield* call((app) => app.token("jobs-alice"))
      const first = yield* bundleWith(alice, [{ path: "SKILL.md", content: SKILL_WITH_DANGLING_LINK }], "release-notes")
      const second = yield* bundleWith(alice, [{ path: "SKILL.md", content: SKILL_WITH_DANGLING_LINK }], "release-notes-2")
      const start = (bundleId: string) =>
        call((app) => app.request("POST", `/artifact-bundles/${bundleId}/audits`, { token: alice, body: { force: true } })).pipe(
          Effect.map((reply) => {
            expect(reply.status).toBe(202)
            return reply.body.data.jobId as string
          })
        )
      const started = [yield* start(first.bundleId), yield* start(first.bundleId), yield* start(first.bundleId), yield* start(second.bundleId)]
      const cancelled = yield* call((app) => app.request("POST", `/jobs/${started[1]}/cancel`, { token: alice }))
      expect(cancelled.body.data.job.state).toBe("cancelled")

      const list = <const Q extends "" | `?${string}`>(query: Q, token = alice) => call((app) => app.request("GET", `/jobs${query}`, { token }))
      const ids = (reply: { readonly body: { readonly data: { readonly jobs: ReadonlyArray<{ readonly id: string }> } } }) => reply.body.data.jobs.map((j) => j.id)
      const all = yield* list("")
      expect(all.status).toBe(200)
      expect(ids(all)).toEqual([...started].reverse())
      expect(all.body.data.jobs[0]).toMatchObject({ kind: "audit", state: "queued", artifactBundleId: second.bundleId, resourceType: "audit_run" })
      expect(all.body.data.pagination).toMatchObject({ limit: 50, nextCursor: null })
      expect(ids(yield* list("?state=active"))).toEqual([started[3], started[2], started[0]])
      expect(ids(yield* list("?state=ended"))).toEqual([started[1]])
      expect(ids(yield* list("?state=cancelled"))).toEqual([started[1]])
      expect(ids(yield* list(`?artifactBundleId=${second.bundleId}`))).toEqual([started[3]])

      // pages: the cursor names the last job of a page; none repeats, none is skipped
      const page1 = yield* list("?limit=3")
      expect(ids(page1)).toEqual([started[3], started[2], started[1]])
      const page2 = yield* list(`?limit=3&cursor=${page1.body.data.pagination.nextCursor}`)
      expect(ids(page2)).toEqual([started[0]])
      expect(page2.body.data.pagination.nextCursor).toBeNull()

      // bad parameters are 400s with the parameter named
      for (const [query, path] of [["?limit=0", "limit"], ["?cursor=nonsense", "cursor"], ["?state=sleeping", "state"]] as const) {
        const reply = yield* list(query)
        expect([query, reply.status, reply.body.error.code]).toEqual([query, 400, "validation_failed"])
        expect(JSON.stringify(reply.body.error.details)).toContain(path)
      }

      // another user sees none of them, even naming the bundle
      const bob = yield* call((app) => app.token("jobs-bob"))
      expect(ids(yield* list("", bob))).toEqual([])
      expect(ids(yield* list(`?artifactBundleId=${first.bundleId}`, bob))).toEqual([])

      // API keys need jobs:read
      const reader = yield* call((app) => app.apiKey("jobs-alice", ["jobs:read"], "jobs reader"))
      expect(ids(yield* list("?state=active", reader))).toHaveLength(3)
      const other = yield* call((app) => app.apiKey("jobs-alice", ["artifact_bundles:read"], "no jobs"))
      const refused = yield* list("", other)
      expect([refused.status, refused.body.error.code]).toEqual([403, "forbidden"])
    }))
})
