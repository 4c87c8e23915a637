/**
 * Directly written JSON responses (src/http/DirectJson.ts): the schema check, byte equality with the
 * schema's own encoding, and the two routes that use it answering exactly their declared schema.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { ArtifactBundle, FileContent, FileVersionPage, FileWithVersion, TreeNode, UploadedFiles } from "../src/bundles/Schemas.js"
import { directJson, notDirectJson } from "../src/http/DirectJson.js"
import { Envelope } from "../src/http/Envelope.js"
import { CurrentRequestId } from "../src/domain/RequestId.js"
import { bundleWith, call } from "./support/fixtures.js"
import { makeTestApp } from "./support/TestApp.js"

const uuid = () => crypto.randomUUID()
const metadata = { mediaType: "text/markdown", detectedLanguage: "markdown", storageProvider: "postgres" }
const fileContent: typeof FileContent.Type = {
  file: {
    id: uuid(), artifactBundleId: uuid(), path: "SKILL.md", artifactType: "skill", status: "active", isPrimary: true,
    sizeBytes: 12, contentHash: `sha256:${"a".repeat(64)}`, latestVersionNumber: 2, metadata, deletedAt: null,
    createdAt: new Date("2026-11-22T10:00:00.123Z"), updatedAt: new Date("2026-11-22T11:00:00Z")
  },
  version: {
    id: uuid(), fileId: uuid(), artifactBundleId: uuid(), versionNumber: 2, artifactBundleVersionNumber: 3, path: "SKILL.md",
    source: "edit", contentHash: `sha256:${"b".repeat(64)}`, sizeBytes: 12, parentVersionId: uuid(), restoredFromVersionId: null,
    message: "tighten \"steps\"\n", metadata, createdAt: new Date("2026-11-22T11:00:00Z")
  },
  content: "# Skill ✓\n\u0000\u2028"
}

describe("directJson", () => {
  it("accepts schemas whose encoding is JSON.stringify's, Dates and recursion included", () => {
    for (const schema of [FileContent, FileVersionPage, ArtifactBundle, TreeNode]) expect(notDirectJson(schema.ast)).toBeUndefined()
  })

  it("refuses any other transformation, so the wire format cannot drift", () => {
    expect(() => directJson(Schema.Struct({ n: Schema.NumberFromString }))).toThrow(/transformation/)
    expect(() => directJson(Schema.Struct({ big: Schema.BigIntFromSelf }))).toThrow(/BigIntKeyword/)
    expect(() => directJson(Schema.Struct({ o: Schema.Option(Schema.String) }))).toThrow(/directJson/)
  })

  it.effect("writes the same bytes as the schema's encoding", () =>
    Effect.gen(function*() {
      const response = yield* directJson(FileContent)(fileContent).pipe(Effect.locally(CurrentRequestId, "req-direct-1"))
      expect(response.status).toBe(200)
      expect(response.body._tag).toBe("Uint8Array")
      const written = new TextDecoder().decode((response.body as { body: Uint8Array }).body)
      const encoded = Schema.encodeSync(Envelope(FileContent))({ data: fileContent, requestId: "req-direct-1" })
      expect(written).toBe(JSON.stringify(encoded))
      expect(JSON.parse(written).data.file.createdAt).toBe("2026-11-22T10:00:00.123Z")
    }))
})

/** Decodes a reply body with the route's declared schema, refusing any field the schema does not declare. */
const exactly = <S extends Schema.Schema.Any>(schema: S, body: unknown) =>
  Schema.decodeUnknownSync(Envelope(schema) as any, { errors: "all", onExcessProperty: "error" })(body)

layer(makeTestApp())("routes answering with direct JSON", (it) => {
  it.effect("the file read and the version list answer exactly their declared schemas", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("direct-json"))
      const { bundleId, files } = yield* bundleWith(token, [{ path: "SKILL.md", content: "# Skill\n" }])
      const fileId = files[0].file.id
      yield* call((app) => app.request("PUT", `/artifact-bundles/${bundleId}/files/${fileId}`, { token, body: { content: "# Skill v2\n" } }))
      const read = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files/${fileId}`, { token }))
      expect(read.status).toBe(200)
      expect(read.headers.get("content-type")).toBe("application/json")
      expect(read.body.requestId).toBe(read.headers.get("x-request-id"))
      expect(() => exactly(FileContent, read.body)).not.toThrow()
      expect(read.body.data.content).toBe("# Skill v2\n")
      const page = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files/${fileId}/versions?limit=1`, { token }))
      expect(page.status).toBe(200)
      expect(() => exactly(FileVersionPage, page.body)).not.toThrow()
      expect(page.body.data.versions.map((v) => v.versionNumber)).toEqual([2])
      expect(page.body.data.pagination.nextCursor).toEqual(expect.any(String))
    }))

  it.effect("the upload (201) and the new version (200) answer exactly their declared schemas", () =>
    Effect.gen(function*() {
      const token = yield* call((app) => app.token("direct-json-writes"))
      const { bundleId } = yield* bundleWith(token, [{ path: "SKILL.md", content: "# Skill\n" }])
      const upload = yield* call((app) =>
        app.request("POST", `/artifact-bundles/${bundleId}/files`, {
          token,
          body: { files: [{ path: "references/a.md", content: "# A\n" }, { path: "references/b.md", content: "# B\n", message: "b" }] }
        }))
      expect(upload.status).toBe(201)
      expect(upload.headers.get("content-type")).toBe("application/json")
      expect(upload.body.requestId).toBe(upload.headers.get("x-request-id"))
      expect(() => exactly(UploadedFiles, upload.body)).not.toThrow()
      expect(upload.body.data.files.map((f) => [f.file.path, f.version.versionNumber, f.version.message])).toEqual([
        ["references/a.md", 1, null],
        ["references/b.md", 1, "b"]
      ])
      const fileId = upload.body.data.files[0].file.id
      const put = yield* call((app) => app.request("PUT", `/artifact-bundles/${bundleId}/files/${fileId}`, { token, body: { content: "# A v2\n" } }))
      expect(put.status).toBe(200)
      expect(() => exactly(FileWithVersion, put.body)).not.toThrow()
      expect(put.body.data.version.versionNumber).toBe(2)
      expect(put.body.data.version.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    }))
})
