/** Issue 3: file versions, bundle version events, file and bundle restore, append-only history. */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import { makeTestApp, TestApp } from "./support/TestApp.js"
import { call, expectError } from "./support/fixtures.js"

const sha = (text: string) => `sha256:${Crypto.createHash("sha256").update(text, "utf8").digest("hex")}`

const newBundle = (sub: string) =>
  call(async (app) => {
    const token = await app.token(sub)
    const r = await app.request("POST", "/artifact-bundles", { token, body: { name: sub } })
    return { token, bundleId: r.body.data.artifactBundle.id as string }
  })

layer(makeTestApp({ env: { SERVICE_RATE_LIMIT_BUNDLE_PER_MINUTE: "100000", SERVICE_RATE_LIMIT_USER_PER_MINUTE: "100000" } }))(
  "versions",
  (it) => {
    it.effect("a new user's walk-through: upload a skill folder, edit SKILL.md twice, restore the bundle, read the history", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* newBundle("walkthrough")
        const req = <const M extends string, const P extends string>(method: M, path: P, body?: unknown) =>
          call((app) => app.request(method, `/artifact-bundles/${bundleId}${path}`, { token, body }))
        const up = yield* req("POST", "/files", {
          files: [
            { path: "SKILL.md", content: "# Skill v1\n" },
            { path: "references/api.md", content: "ref v1" },
            { path: "examples/one.md", content: "example" }
          ]
        })
        expect(up.status).toBe(201)
        const skillId = up.body.data.files[0].file.id
        const refId = up.body.data.files[1].file.id
        expect((yield* req("PUT", `/files/${skillId}`, { content: "# Skill v2\n", message: "tighten" })).status).toBe(200)
        expect((yield* req("PUT", `/files/${refId}`, { content: "ref v2" })).status).toBe(200)
        expect((yield* req("PUT", `/files/${skillId}`, { content: "# Skill v3\n" })).status).toBe(200)
        // a file added after the target, and one deleted since
        const late = yield* req("POST", "/files", { files: [{ path: "late.md", content: "late" }] })
        const lateId = late.body.data.files[0].file.id
        const exampleId = up.body.data.files[2].file.id
        expect((yield* req("DELETE", `/files/${exampleId}`)).status).toBe(200)

        // bundle events: one per file version, newest first
        const events = yield* req("GET", "/versions")
        expect(events.status).toBe(200)
        expect(events.body.data.versions.map((e) => e.artifactBundleVersionNumber)).toEqual([7, 6, 5, 4, 3, 2, 1])
        expect(events.body.data.versions[0]).toMatchObject({ fileId: lateId, filePath: "late.md", fileVersionNumber: 1, source: "upload" })
        expect(events.body.data.versions[1]).toMatchObject({
          artifactBundleId: bundleId,
          fileId: skillId,
          filePath: "SKILL.md",
          fileVersionNumber: 3,
          source: "edit",
          contentHash: sha("# Skill v3\n"),
          sizeBytes: Buffer.byteLength("# Skill v3\n")
        })

        // restore to bundle version 3 (right after the upload)
        const restore = yield* req("POST", "/restore", { versionNumber: 3, message: "back to the start" })
        expect(restore.status).toBe(200)
        const data = restore.body.data
        expect(data.restoredFromArtifactBundleVersionNumber).toBe(3)
        expect(data.restoredFiles.map((r) => r.file.path)).toEqual(["references/api.md", "SKILL.md"].sort())
        for (const r of data.restoredFiles) {
          expect(r.version.source).toBe("restore")
          expect(r.version.message).toBe("back to the start")
          expect(r.file.latestVersionNumber).toBe(r.version.versionNumber)
        }
        const skill = data.restoredFiles.find((r) => r.file.path === "SKILL.md")!
        expect(skill.version.versionNumber).toBe(4)
        expect(skill.version.contentHash).toBe(sha("# Skill v1\n"))
        expect(data.skippedFiles).toEqual(
          expect.arrayContaining([
            { fileId: exampleId, path: "examples/one.md", reason: "file_missing_or_deleted" },
            { fileId: lateId, path: "late.md", reason: "file_missing_or_deleted" }
          ])
        )
        expect(data.skippedFiles).toHaveLength(2)
        expect(data.artifactBundle).toMatchObject({ versionCount: 9, activeVersionNumber: 9, fileCount: 3 })
        expect(data.artifactBundle.latestVersion!.artifactBundleVersionNumber).toBe(9)
        expect(data.artifactBundle.primaryFile!.path).toBe("SKILL.md")

        const read = yield* req("GET", `/files/${skillId}`)
        expect(read.body.data.content).toBe("# Skill v1\n")
        // the late file keeps its content
        expect((yield* req("GET", `/files/${lateId}`)).body.data.content).toBe("late")

        // file history: newest first, nothing rewritten
        const history = yield* req("GET", `/files/${skillId}/versions`)
        expect(history.body.data.versions.map((v) => [v.versionNumber, v.source])).toEqual([
          [4, "restore"],
          [3, "edit"],
          [2, "edit"],
          [1, "upload"]
        ])
        expect(history.body.data.versions[2].message).toBe("tighten")
        expect(history.body.data.versions[0].parentVersionId).toBe(history.body.data.versions[1].id)
        expect(history.body.data.versions[0].restoredFromVersionId).toBe(history.body.data.versions[3].id)
        const v2 = yield* req("GET", `/files/${skillId}/versions/2`)
        expect(v2.body.data).toMatchObject({ content: "# Skill v2\n", version: { versionNumber: 2, fileId: skillId } })

        // restoring to the latest or a missing bundle version
        expectError(yield* req("POST", "/restore", { versionNumber: 10 }), 404, "not_found")
        expect((yield* req("POST", "/restore", { versionNumber: 9 })).status).toBe(200)
      }))

    it.effect("file version restore writes a new version and leaves history untouched", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* newBundle("file-restore")
        const up = yield* call((app) =>
          app.request("POST", `/artifact-bundles/${bundleId}/files`, { token, body: { files: [{ path: "p.md", content: "one" }] } })
        )
        const fileId = up.body.data.files[0].file.id
        const base = `/artifact-bundles/${bundleId}/files/${fileId}` as const
        yield* call((app) => app.request("PUT", base, { token, body: { content: "two" } }))
        const restored = yield* call((app) => app.request("POST", `${base}/versions/1/restore`, { token }))
        expect(restored.status).toBe(200)
        expect(restored.body.data.version).toMatchObject({
          versionNumber: 3,
          source: "restore",
          contentHash: sha("one"),
          message: "Restored from version 1"
        })
        expect(restored.body.data.file).toMatchObject({ latestVersionNumber: 3, contentHash: sha("one") })
        const withMessage = yield* call((app) =>
          app.request("POST", `${base}/versions/2/restore`, { token, body: { message: "redo" } })
        )
        expect(withMessage.body.data.version).toMatchObject({ versionNumber: 4, message: "redo", contentHash: sha("two") })
        const v1 = yield* call((app) => app.request("GET", `${base}/versions/1`, { token }))
        expect(v1.body.data.content).toBe("one")
        expect(v1.body.data.version.source).toBe("upload")
        // identical content is stored once per bundle
        const [{ n }] = yield* call((app) =>
          Effect.runPromise(app.sql<{ n: number }>`SELECT count(*)::int AS n FROM file_contents WHERE artifact_bundle_id = ${bundleId}`)
        )
        expect(n).toBe(2)

        expectError(yield* call((app) => app.request("POST", `${base}/versions/9/restore`, { token })), 404, "not_found")
        expectError(yield* call((app) => app.request("GET", `${base}/versions/9`, { token })), 404, "not_found")
        expectError(
          yield* call((app) => app.request("POST", `${base}/versions/1/restore`, { token, body: { message: 5 } })),
          400,
          "validation_failed"
        )
        expectError(
          yield* call((app) => app.request("POST", `${base}/versions/1/restore`, { token, body: { extra: true } })),
          400,
          "validation_failed"
        )
        // a deleted file's version routes are 404
        yield* call((app) => app.request("DELETE", base, { token }))
        expectError(yield* call((app) => app.request("GET", `${base}/versions`, { token })), 404, "not_found")
        expectError(yield* call((app) => app.request("GET", `${base}/versions/1`, { token })), 404, "not_found")
        expectError(yield* call((app) => app.request("POST", `${base}/versions/1/restore`, { token })), 404, "not_found")
      }))

    it.effect("version lists page by keyset cursor, newest first, without gaps or repeats", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* newBundle("keyset")
        const up = yield* call((app) =>
          app.request("POST", `/artifact-bundles/${bundleId}/files`, { token, body: { files: [{ path: "k.md", content: "0" }] } })
        )
        const fileId = up.body.data.files[0].file.id
        for (let i = 1; i < 12; i++) {
          yield* call((app) => app.request("PUT", `/artifact-bundles/${bundleId}/files/${fileId}`, { token, body: { content: `${i}` } }))
        }
        const seen: Array<number> = []
        let cursor: string | null = null
        do {
          const q: string = cursor ? `limit=5&cursor=${cursor}` : "limit=5"
          const page = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files/${fileId}/versions?${q}`, { token }))
          expect(page.status).toBe(200)
          seen.push(...page.body.data.versions.map((v) => v.versionNumber))
          cursor = page.body.data.pagination.nextCursor
        } while (cursor)
        expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => 12 - i))

        const events: Array<number> = []
        cursor = null
        do {
          const q: string = cursor ? `limit=4&cursor=${cursor}` : "limit=4"
          const page = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/versions?${q}`, { token }))
          events.push(...page.body.data.versions.map((v) => v.artifactBundleVersionNumber))
          cursor = page.body.data.pagination.nextCursor
        } while (cursor)
        expect(events).toEqual(Array.from({ length: 12 }, (_, i) => 12 - i))
        // offset paging works too
        const byOffset = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/versions?limit=3&offset=3`, { token }))
        expect(byOffset.body.data.versions.map((v) => v.artifactBundleVersionNumber)).toEqual([9, 8, 7])
        expect(byOffset.body.data.pagination.nextOffset).toBe(6)
        expectError(
          yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/versions?limit=500`, { token })),
          400,
          "validation_failed"
        )
      }))

    it.effect("version rows and contents are append-only in the database", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* newBundle("append-only")
        yield* call((app) =>
          app.request("POST", `/artifact-bundles/${bundleId}/files`, { token, body: { files: [{ path: "a.md", content: "a" }] } })
        )
        const attempts = [
          (app: typeof TestApp.Service) => app.sql`UPDATE file_versions SET message = 'tampered' WHERE artifact_bundle_id = ${bundleId}`,
          (app: typeof TestApp.Service) => app.sql`DELETE FROM file_versions WHERE artifact_bundle_id = ${bundleId}`,
          (app: typeof TestApp.Service) => app.sql`UPDATE file_contents SET content = 'x' WHERE artifact_bundle_id = ${bundleId}`,
          (app: typeof TestApp.Service) => app.sql`DELETE FROM file_contents WHERE artifact_bundle_id = ${bundleId}`,
          (app: typeof TestApp.Service) => app.sql`TRUNCATE file_versions CASCADE`
        ]
        for (const attempt of attempts) {
          const error = yield* call((app) => Effect.runPromise(Effect.flip(attempt(app))))
          expect(String((error as any).cause?.message)).toMatch(/append-only/)
        }
        const [{ n }] = yield* call((app) =>
          Effect.runPromise(app.sql<{ n: number }>`SELECT count(*)::int AS n FROM file_versions WHERE artifact_bundle_id = ${bundleId} AND message IS NULL`)
        )
        expect(n).toBe(1)
      }))

    it.effect("artifacts:pull reads bundles, files and versions but cannot write", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* newBundle("puller")
        const up = yield* call((app) =>
          app.request("POST", `/artifact-bundles/${bundleId}/files`, { token, body: { files: [{ path: "a.md", content: "a" }] } })
        )
        const fileId = up.body.data.files[0].file.id
        const pull = yield* call((app) => app.apiKey("puller", ["artifacts:pull"]))
        for (const path of ["", "/files", `/files/${fileId}`, "/versions", `/files/${fileId}/versions`, `/files/${fileId}/versions/1`]) {
          expect((yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}${path}`, { token: pull }))).status).toBe(200)
        }
        for (const [method, path, body] of [
          ["POST", "/restore", { versionNumber: 1 }],
          ["POST", `/files/${fileId}/versions/1/restore`, {}],
          ["PUT", `/files/${fileId}`, { content: "x" }],
          ["POST", "/files", { files: [{ path: "b.md", content: "b" }] }],
          ["PATCH", "", { name: "x" }],
          ["DELETE", `/files/${fileId}`, undefined]
        ] as const) {
          expectError(
            yield* call((app) => app.request(method, `/artifact-bundles/${bundleId}${path}`, { token: pull, body })),
            403,
            "forbidden"
          )
        }
      }))
  }
)
