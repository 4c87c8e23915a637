/** Issue 3: bundles: create, list, read, update, archive, permanent delete, scopes, cross-user 404s, rate limit. */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { inOneMinuteWindow, makeTestApp, type OpenApiDocument } from "./support/TestApp.js"
import { call, expectError } from "./support/fixtures.js"

const ZERO_UUID = "00000000-0000-4000-8000-000000000000"

/** A bundle with SKILL.md (v1, v2) and notes.md; ids for every route. */
const fixture = (sub: string) =>
  call(async (app) => {
    const token = await app.token(sub)
    const created = await app.request("POST", "/artifact-bundles", { token, body: { name: `b-${sub}` } })
    const bundleId = created.body.data.artifactBundle.id as string
    const up = await app.request("POST", `/artifact-bundles/${bundleId}/files`, {
      token,
      body: { files: [{ path: "SKILL.md", content: "v1" }, { path: "notes.md", content: "n" }] }
    })
    const fileId = up.body.data.files[0].file.id as string
    await app.request("PUT", `/artifact-bundles/${bundleId}/files/${fileId}`, { token, body: { content: "v2" } })
    return { token, bundleId, fileId, otherFileId: up.body.data.files[1].file.id as string }
  })

/** Every route of the three groups, for a bundle and file. */
const routes = (b: string, f: string, f2: string) => [
  { method: "GET", path: `/artifact-bundles/${b}` },
  { method: "PATCH", path: `/artifact-bundles/${b}`, body: { name: "x" } },
  { method: "DELETE", path: `/artifact-bundles/${b}` },
  { method: "DELETE", path: `/artifact-bundles/${b}/permanent` },
  { method: "GET", path: `/artifact-bundles/${b}/files` },
  { method: "POST", path: `/artifact-bundles/${b}/files`, body: { files: [{ path: "new.md", content: "x" }] } },
  { method: "GET", path: `/artifact-bundles/${b}/files/${f}` },
  { method: "PUT", path: `/artifact-bundles/${b}/files/${f}`, body: { content: "x" } },
  { method: "DELETE", path: `/artifact-bundles/${b}/files/${f2}` },
  { method: "GET", path: `/artifact-bundles/${b}/versions` },
  { method: "POST", path: `/artifact-bundles/${b}/restore`, body: { versionNumber: 1 } },
  { method: "GET", path: `/artifact-bundles/${b}/files/${f}/versions` },
  { method: "GET", path: `/artifact-bundles/${b}/files/${f}/versions/1` },
  { method: "POST", path: `/artifact-bundles/${b}/files/${f}/versions/1/restore`, body: {} }
]

layer(makeTestApp({ env: { SERVICE_RATE_LIMIT_BUNDLE_PER_MINUTE: "100000", SERVICE_RATE_LIMIT_USER_PER_MINUTE: "100000", SERVICE_RATE_LIMIT_KEY_PER_MINUTE: "100000" } }))(
  "bundles",
  (it) => {
    it.effect("create answers 201 with a consistent empty bundle; settings keep defaultRubricKey", () =>
      Effect.gen(function*() {
        const token = yield* call((app) => app.token("creator"))
        const reply = yield* call((app) =>
          app.request("POST", "/artifact-bundles", {
            token,
            body: { name: "  My skill  ", description: "d", settings: { defaultRubricKey: "skill-v1" } }
          })
        )
        expect(reply.status).toBe(201)
        expect(reply.headers.get("x-request-id")).toBe(reply.body.requestId)
        expect(reply.body.data.artifactBundle).toMatchObject({
          name: "My skill",
          description: "d",
          status: "active",
          activeVersionNumber: 0,
          customRubric: {},
          settings: { defaultRubricKey: "skill-v1" },
          primaryFile: null,
          fileCount: 0,
          versionCount: 0,
          latestVersion: null,
          archivedAt: null
        })
        const minimal = yield* call((app) => app.request("POST", "/artifact-bundles", { token, body: { name: "m" } }))
        expect(minimal.body.data.artifactBundle.description).toBeNull()
        expect(minimal.body.data.artifactBundle.settings).toEqual({})
      }))

    it.effect("create rejects bad bodies with 400", () =>
      Effect.gen(function*() {
        const token = yield* call((app) => app.token("creator-bad"))
        for (const body of [{}, { name: "" }, { name: "   " }, { name: "x".repeat(201) }, { name: 5 }, { name: "a", settings: "s" }, {
          name: "a",
          description: "d".repeat(2001)
        }, { name: "a", settings: { defaultRubricKey: 3 } }]) {
          expectError(yield* call((app) => app.request("POST", "/artifact-bundles", { token, body })), 400, "validation_failed")
        }
        expectError(
          yield* call((app) =>
            app.request("POST", "/artifact-bundles", { token, rawBody: "{bad", headers: { "content-type": "application/json" } })
          ),
          400,
          "validation_failed"
        )
        expectError(yield* call((app) => app.request("POST", "/artifact-bundles", { body: { name: "a" } })), 401, "unauthorized")
      }))

    it.effect("list: newest first, status filter, limit/offset pagination, only the caller's bundles", () =>
      Effect.gen(function*() {
        const token = yield* call((app) => app.token("lister"))
        const ids: Array<string> = []
        for (let i = 0; i < 5; i++) {
          const r = yield* call((app) => app.request("POST", "/artifact-bundles", { token, body: { name: `b${i}` } }))
          ids.push(r.body.data.artifactBundle.id)
        }
        yield* call((app) => app.request("DELETE", `/artifact-bundles/${ids[1]}`, { token }))
        yield* call(async (app) => app.request("POST", "/artifact-bundles", { token: await app.token("someone-else"), body: { name: "z" } }))

        const all = yield* call((app) => app.request("GET", "/artifact-bundles", { token }))
        expect(all.status).toBe(200)
        expect(all.body.data.artifactBundles.map((b) => b.id)).toEqual([...ids].reverse())
        expect(all.body.data.pagination).toEqual({ limit: 50, offset: 0, nextOffset: null, nextCursor: null })

        const active = yield* call((app) => app.request("GET", "/artifact-bundles?status=active", { token }))
        expect(active.body.data.artifactBundles).toHaveLength(4)
        const archived = yield* call((app) => app.request("GET", "/artifact-bundles?status=archived", { token }))
        expect(archived.body.data.artifactBundles.map((b) => b.id)).toEqual([ids[1]])
        expect(archived.body.data.artifactBundles[0].status).toBe("archived")

        const page = yield* call((app) => app.request("GET", "/artifact-bundles?limit=2&offset=2", { token }))
        expect(page.body.data.artifactBundles.map((b) => b.id)).toEqual([ids[2], ids[1]])
        expect(page.body.data.pagination).toEqual({ limit: 2, offset: 2, nextOffset: 4, nextCursor: "4" })

        for (const q of ["status=deleted", "limit=0", "limit=201", "limit=abc", "offset=-1", "limit=1.5"]) {
          expectError(yield* call((app) => app.request("GET", `/artifact-bundles?${q}`, { token })), 400, "validation_failed")
        }
      }))

    it.effect("PATCH changes name and description only; other fields are rejected and never applied", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* fixture("patcher")
        const reply = yield* call((app) =>
          app.request("PATCH", `/artifact-bundles/${bundleId}`, { token, body: { name: "Renamed", description: "new" } })
        )
        expect(reply.status).toBe(200)
        expect(reply.body.data.artifactBundle).toMatchObject({ name: "Renamed", description: "new" })
        expect(reply.body.data.files).toHaveLength(2)
        expect(reply.body.data.tree).toHaveLength(2)
        const cleared = yield* call((app) => app.request("PATCH", `/artifact-bundles/${bundleId}`, { token, body: { description: null } }))
        expect(cleared.body.data.artifactBundle).toMatchObject({ name: "Renamed", description: null })

        for (const body of [
          { primaryFile: "notes.md" },
          { primaryFileId: ZERO_UUID },
          { status: "archived" },
          { name: "ok", fileCount: 99 },
          { settings: { defaultRubricKey: "x" } },
          { name: "" }
        ]) {
          expectError(yield* call((app) => app.request("PATCH", `/artifact-bundles/${bundleId}`, { token, body })), 400, "validation_failed")
        }
        const after = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token }))
        expect(after.body.data.artifactBundle).toMatchObject({
          name: "Renamed",
          status: "active",
          fileCount: 2,
          settings: {}
        })
        expect(after.body.data.artifactBundle.primaryFile!.path).toBe("SKILL.md")
      }))

    it.effect("archived bundles are readable but reject every write with 409; archive is idempotent", () =>
      Effect.gen(function*() {
        const { token, bundleId, fileId, otherFileId } = yield* fixture("archiver")
        const archived = yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}`, { token }))
        expect(archived.status).toBe(200)
        expect(archived.body.data.artifactBundle.status).toBe("archived")
        expect(archived.body.data.artifactBundle.archivedAt).not.toBeNull()
        expect(archived.body.data.artifactBundle.fileCount).toBe(2)
        const again = yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}`, { token }))
        expect(again.status).toBe(200)
        expect(again.body.data.artifactBundle.archivedAt).toBe(archived.body.data.artifactBundle.archivedAt)

        const writes = routes(bundleId, fileId, otherFileId).filter((r) =>
          r.method !== "GET" && !(r.method === "DELETE" && !r.path.includes("/files/"))
        )
        for (const route of writes) {
          expectError(yield* call((app) => app.request(route.method, route.path, { token, body: route.body })), 409, "conflict")
        }
        // reads still work and nothing changed
        for (const route of routes(bundleId, fileId, otherFileId).filter((r) => r.method === "GET")) {
          expect((yield* call((app) => app.request("GET", route.path, { token }))).status).toBe(200)
        }
        const bundle = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token }))
        expect(bundle.body.data.artifactBundle).toMatchObject({ fileCount: 2, versionCount: 3, name: "b-archiver" })
      }))

    it.effect("permanent delete: 409 unless archived, then removes files, versions and contents in one go", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* fixture("deleter")
        expectError(yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}/permanent`, { token })), 409, "conflict")
        yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}`, { token }))
        const reply = yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}/permanent`, { token }))
        expect(reply.status).toBe(200)
        expect(reply.body.data.artifactBundle).toEqual({ id: bundleId, deleted: true })
        expectError(yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token })), 404, "not_found")
        expectError(yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}/permanent`, { token })), 404, "not_found")
        const [counts] = yield* call((app) =>
          Effect.runPromise(app.sql<{ files: number; versions: number; contents: number }>`
            SELECT (SELECT count(*)::int FROM bundle_files WHERE artifact_bundle_id = ${bundleId}) AS files,
                   (SELECT count(*)::int FROM file_versions WHERE artifact_bundle_id = ${bundleId}) AS versions,
                   (SELECT count(*)::int FROM file_contents WHERE artifact_bundle_id = ${bundleId}) AS contents`)
        )
        expect(counts).toEqual({ files: 0, versions: 0, contents: 0 })
      }))

    it.effect("another user's bundle, file and version ids are 404 on every route", () =>
      Effect.gen(function*() {
        const owner = yield* fixture("owner")
        const intruder = yield* call((app) => app.token("intruder"))
        const intruderKey = yield* call((app) =>
          app.apiKey("intruder", ["artifact_bundles:read", "artifact_bundles:write", "files:read", "files:write"])
        )
        // the intruder's own bundle with the owner's file ids
        const own = yield* call((app) => app.request("POST", "/artifact-bundles", { token: intruder, body: { name: "mine" } }))
        const ownId = own.body.data.artifactBundle.id
        const matrices = [
          routes(owner.bundleId, owner.fileId, owner.otherFileId),
          routes(ownId, owner.fileId, owner.otherFileId).filter((r) => r.path.includes("/files/")),
          routes(ZERO_UUID, ZERO_UUID, ZERO_UUID)
        ]
        for (const credential of [intruder, intruderKey]) {
          for (const route of matrices.flat()) {
            const reply = yield* call((app) => app.request(route.method, route.path, { token: credential, body: route.body }))
            expectError(reply, 404, "not_found")
          }
        }
        // and the owner's data is untouched
        const bundle = yield* call((app) => app.request("GET", `/artifact-bundles/${owner.bundleId}`, { token: owner.token }))
        expect(bundle.body.data.artifactBundle).toMatchObject({ name: "b-owner", status: "active", fileCount: 2, versionCount: 3 })
        const list = yield* call((app) => app.request("GET", "/artifact-bundles", { token: intruder }))
        expect(list.body.data.artifactBundles.map((b) => b.id)).toEqual([ownId])
      }))

    it.effect("malformed ids and version numbers are 400 before any lookup", () =>
      Effect.gen(function*() {
        const { token, bundleId, fileId } = yield* fixture("malformed")
        for (const path of [
          "/artifact-bundles/not-a-uuid",
          `/artifact-bundles/${bundleId}/files/123`,
          `/artifact-bundles/${bundleId}/files/${fileId}/versions/0`,
          `/artifact-bundles/${bundleId}/files/${fileId}/versions/abc`,
          `/artifact-bundles/${bundleId}/files/${fileId}/versions/1.5`,
          `/artifact-bundles/${bundleId}/versions?cursor=garbage`
        ]) {
          expectError(yield* call((app) => app.request("GET", path, { token })), 400, "validation_failed")
        }
        expectError(
          yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/restore`, { token, body: { versionNumber: 0 } })),
          400,
          "validation_failed"
        )
        expectError(
          yield* call((app) => app.request("POST", `/artifact-bundles/${bundleId}/restore`, { token, body: {} })),
          400,
          "validation_failed"
        )
      }))

    it.effect("scopes: each route accepts exactly the scopes of the endpoint tables", () =>
      Effect.gen(function*() {
        const { token, bundleId, fileId, otherFileId } = yield* fixture("scoper")
        const sub = "scoper"
        const keys: Record<string, string> = {}
        for (const scope of [
          "artifact_bundles:read",
          "artifact_bundles:write",
          "artifacts:pull",
          "files:read",
          "files:write",
          "audits:run"
        ]) keys[scope] = yield* call((app) => app.apiKey(sub, [scope], scope))
        const both = yield* call((app) => app.apiKey(sub, ["artifact_bundles:write", "files:write"], "both"))

        const allowed: Record<string, ReadonlyArray<string>> = {
          "GET /artifact-bundles": ["artifact_bundles:read", "artifacts:pull"],
          "POST /artifact-bundles": ["artifact_bundles:write"],
          "GET /artifact-bundles/{b}": ["artifact_bundles:read", "artifacts:pull"],
          "PATCH /artifact-bundles/{b}": ["artifact_bundles:write"],
          "GET /artifact-bundles/{b}/files": ["files:read", "artifacts:pull"],
          "POST /artifact-bundles/{b}/files": ["files:write"],
          "GET /artifact-bundles/{b}/files/{f}": ["files:read", "artifacts:pull"],
          "PUT /artifact-bundles/{b}/files/{f}": ["files:write"],
          "GET /artifact-bundles/{b}/versions": ["artifact_bundles:read", "artifacts:pull"],
          "POST /artifact-bundles/{b}/restore": [],
          "GET /artifact-bundles/{b}/files/{f}/versions": ["files:read", "artifacts:pull"],
          "GET /artifact-bundles/{b}/files/{f}/versions/1": ["files:read", "artifacts:pull"],
          "POST /artifact-bundles/{b}/files/{f}/versions/1/restore": ["files:write"]
        }
        let counter = 0
        for (const [route, scopes] of Object.entries(allowed)) {
          const [method, template] = route.split(" ")
          const path = template.replace("{b}", bundleId).replace("{f}", fileId)
          for (const [scope, key] of Object.entries(keys)) {
            const body = method === "POST" && template.endsWith("/files")
              ? { files: [{ path: `k${counter++}.md`, content: "x" }] }
              : method === "POST" && template === "/artifact-bundles"
              ? { name: "k" }
              : method === "PATCH"
              ? { description: "k" }
              : method === "PUT"
              ? { content: `k${counter++}` }
              : method === "POST" && template.endsWith("/restore") && !template.includes("/files/")
              ? { versionNumber: 1 }
              : method === "POST"
              ? {}
              : undefined
            const reply = yield* call((app) => app.request(method, path, { token: key, body }))
            if (scopes.includes(scope)) expect([200, 201], `${route} with ${scope}`).toContain(reply.status)
            else {
              expect(reply.status, `${route} with ${scope}`).toBe(403)
              expect(reply.body.error.code).toBe("forbidden")
            }
          }
        }
        // bundle restore needs both artifact_bundles:write AND files:write
        const restore = yield* call((app) =>
          app.request("POST", `/artifact-bundles/${bundleId}/restore`, { token: both, body: { versionNumber: 1 } })
        )
        expect(restore.status).toBe(200)
        // deletes: artifact_bundles:write archives; files:write deletes files
        expectError(yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}/files/${otherFileId}`, { token: keys["artifacts:pull"] })), 403, "forbidden")
        expectError(yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}/files/${otherFileId}`, { token: keys["artifact_bundles:write"] })), 403, "forbidden")
        expect((yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}/files/${otherFileId}`, { token: keys["files:write"] }))).status).toBe(200)
        expectError(yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}`, { token: keys["files:write"] })), 403, "forbidden")
        expectError(yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}`, { token: keys["artifacts:pull"] })), 403, "forbidden")
        expect((yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}`, { token: keys["artifact_bundles:write"] }))).status).toBe(200)
        expectError(yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}/permanent`, { token: keys["files:write"] })), 403, "forbidden")
        expect((yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}/permanent`, { token: keys["artifact_bundles:write"] }))).status).toBe(200)
        // login tokens are not scope-limited
        expect((yield* call((app) => app.request("GET", "/artifact-bundles", { token }))).status).toBe(200)
      }))

    it.effect("the OpenAPI document lists every bundle, file and version route with its statuses", () =>
      Effect.gen(function*() {
        const reply = yield* call((app) => app.requestAs<OpenApiDocument>("GET", "/openapi.json"))
        expect(reply.status).toBe(200)
        const paths = reply.body.paths
        const expected: Record<string, Record<string, ReadonlyArray<string>>> = {
          "/api/v1/artifact-bundles": { get: ["200", "400", "401", "403", "429"], post: ["201", "400", "401", "403", "429"] },
          "/api/v1/artifact-bundles/{artifactBundleId}": {
            get: ["200", "400", "401", "403", "404"],
            patch: ["200", "400", "401", "403", "404", "409"],
            delete: ["200", "400", "401", "403", "404"]
          },
          "/api/v1/artifact-bundles/{artifactBundleId}/permanent": { delete: ["200", "400", "401", "403", "404", "409"] },
          "/api/v1/artifact-bundles/{artifactBundleId}/files": {
            get: ["200", "400", "401", "403", "404", "429"],
            post: ["201", "400", "401", "403", "404", "409", "429", "503"]
          },
          "/api/v1/artifact-bundles/{artifactBundleId}/files/{fileId}": {
            get: ["200", "400", "401", "403", "404"],
            put: ["200", "400", "401", "403", "404", "429", "503"],
            delete: ["200", "400", "401", "403", "404", "409", "429"]
          },
          "/api/v1/artifact-bundles/{artifactBundleId}/versions": { get: ["200", "400", "401", "403", "404"] },
          "/api/v1/artifact-bundles/{artifactBundleId}/restore": { post: ["200", "400", "401", "403", "404", "409", "429", "503"] },
          "/api/v1/artifact-bundles/{artifactBundleId}/files/{fileId}/versions": { get: ["200", "400", "401", "403", "404"] },
          "/api/v1/artifact-bundles/{artifactBundleId}/files/{fileId}/versions/{versionNumber}": {
            get: ["200", "400", "401", "403", "404"]
          },
          "/api/v1/artifact-bundles/{artifactBundleId}/files/{fileId}/versions/{versionNumber}/restore": {
            post: ["200", "400", "401", "403", "404", "429", "503"]
          }
        }
        for (const [path, methods] of Object.entries(expected)) {
          for (const [method, codes] of Object.entries(methods)) {
            expect(Object.keys(paths[path]?.[method]?.responses ?? {}), `${method} ${path}`).toEqual(expect.arrayContaining([...codes]))
          }
        }
      }))

    it.effect("versions written through an API key record the key", () =>
      Effect.gen(function*() {
        const key = yield* call((app) => app.apiKey("keyed", ["artifact_bundles:write", "files:write"]))
        const created = yield* call((app) => app.request("POST", "/artifact-bundles", { token: key, body: { name: "k" } }))
        const bundleId = created.body.data.artifactBundle.id
        const up = yield* call((app) =>
          app.request("POST", `/artifact-bundles/${bundleId}/files`, { token: key, body: { files: [{ path: "a.md", content: "a" }] } })
        )
        const [row] = yield* call((app) =>
          Effect.runPromise(app.sql<{ createdByApiKeyId: string | null }>`
            SELECT created_by_api_key_id FROM file_versions WHERE id = ${up.body.data.files[0].version.id}`)
        )
        expect(row.createdByApiKeyId).not.toBeNull()
      }))
  }
)

layer(makeTestApp({ env: { SERVICE_RATE_LIMIT_BUNDLE_PER_MINUTE: "5" } }))("per-bundle rate limit", (it) => {
  it.effect("requests to one bundle beyond the limit are 429 with Retry-After; other bundles are unaffected", () =>
    Effect.gen(function*() {
      yield* inOneMinuteWindow()
      const token = yield* call((app) => app.token("limited"))
      const a = (yield* call((app) => app.request("POST", "/artifact-bundles", { token, body: { name: "a" } }))).body.data.artifactBundle.id
      const b = (yield* call((app) => app.request("POST", "/artifact-bundles", { token, body: { name: "b" } }))).body.data.artifactBundle.id
      const statuses: Array<number> = []
      for (let i = 0; i < 7; i++) {
        statuses.push((yield* call((app) => app.request("GET", `/artifact-bundles/${a}/files`, { token }))).status)
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
      const limited = yield* call((app) =>
        app.request("POST", `/artifact-bundles/${a}/files`, { token, body: { files: [{ path: "x.md", content: "x" }] } })
      )
      expectError(limited, 429, "rate_limit_exceeded")
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
      expect((yield* call((app) => app.request("GET", `/artifact-bundles/${b}`, { token }))).status).toBe(200)
      // another user's probes of this bundle are 404 and do not count against it
      const other = yield* call((app) => app.token("prober"))
      expectError(yield* call((app) => app.request("GET", `/artifact-bundles/${b}`, { token: other })), 404, "not_found")
    }))
})
