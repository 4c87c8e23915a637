/** Issue 3: files: upload, read, PUT, soft delete, tree, metadata, primary detection, bad input, concurrency. */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { makeTestApp } from "./support/TestApp.js"
import { call, expectError } from "./support/fixtures.js"
import { corpusPath } from "./support/Corpus.js"

const sha = (text: string) => `sha256:${Crypto.createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex")}`

const CORPUS = corpusPath("skills", "notion-knowledge-capture")
const corpusFiles = (dir: string): Array<{ path: string; content: string }> => {
  const out: Array<{ path: string; content: string }> = []
  const walk = (rel: string) => {
    for (const entry of Fs.readdirSync(Path.join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory()) walk(p)
      else out.push({ path: p, content: Fs.readFileSync(Path.join(dir, p), "utf8") })
    }
  }
  walk("")
  return out
}

/** A user with a token and a fresh bundle. */
const setup = (sub: string) =>
  call(async (app) => {
    const token = await app.token(sub)
    const reply = await app.request("POST", "/artifact-bundles", { token, body: { name: `bundle of ${sub}` } })
    return { token, bundleId: reply.body.data.artifactBundle.id as string }
  })

const upload = (token: string, bundleId: string, files: ReadonlyArray<unknown>) =>
  call((app) => app.request("POST", `/artifact-bundles/${bundleId}/files`, { token, body: { files } }))

layer(makeTestApp({ env: { SERVICE_RATE_LIMIT_BUNDLE_PER_MINUTE: "100000", SERVICE_RATE_LIMIT_USER_PER_MINUTE: "100000" } }))(
  "files",
  (it) => {
    it.effect("uploading a skill folder records each file as version 1 with hash, size, metadata and a primary", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* setup("files-corpus")
        const files = corpusFiles(CORPUS)
        const reply = yield* upload(token, bundleId, files.map((f) => ({ ...f, message: "initial import" })))
        expect(reply.status).toBe(201)
        expect(reply.body.data.files).toHaveLength(files.length)
        for (const [i, { file, version }] of reply.body.data.files.entries()) {
          expect(file.path).toBe(files[i].path)
          expect(file.artifactBundleId).toBe(bundleId)
          expect(file.status).toBe("active")
          expect(file.sizeBytes).toBe(Buffer.byteLength(files[i].content))
          expect(file.contentHash).toBe(sha(files[i].content))
          expect(file.latestVersionNumber).toBe(1)
          expect(file.metadata.storageProvider).toBe("postgres")
          expect(version).toMatchObject({
            fileId: file.id,
            artifactBundleId: bundleId,
            versionNumber: 1,
            artifactBundleVersionNumber: i + 1,
            source: "upload",
            contentHash: file.contentHash,
            sizeBytes: file.sizeBytes,
            parentVersionId: null,
            message: "initial import"
          })
        }
        const byPath = new Map(reply.body.data.files.map((x) => [x.file.path, x.file]))
        expect(byPath.get("SKILL.md")!.isPrimary).toBe(true)
        expect(byPath.get("SKILL.md")!.artifactType).toBe("skill")
        expect(byPath.get("examples/how-to-guide.md")!.artifactType).toBe("skill")
        expect(byPath.get("SKILL.md")!.metadata).toEqual({
          mediaType: "text/markdown",
          detectedLanguage: "markdown",
          storageProvider: "postgres"
        })
        expect(byPath.get("evaluations/decision-record.json")!.metadata.detectedLanguage).toBe("json")
        expect(byPath.get("evaluations/decision-record.json")!.metadata.mediaType).toBe("application/json")
        expect(byPath.get("LICENSE.txt")!.metadata.detectedLanguage).toBe("text")
        expect([...byPath.values()].filter((f) => f.isPrimary)).toHaveLength(1)

        const bundle = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token }))
        expect(bundle.status).toBe(200)
        const b = bundle.body.data.artifactBundle
        expect(b.fileCount).toBe(files.length)
        expect(b.versionCount).toBe(files.length)
        expect(b.activeVersionNumber).toBe(files.length)
        expect(b.primaryFile!.path).toBe("SKILL.md")
        expect(b.latestVersion!.artifactBundleVersionNumber).toBe(files.length)
        expect(bundle.body.data.files).toHaveLength(files.length)
        // tree: folders first, then files, sorted by name
        const tree = bundle.body.data.tree
        expect(tree.map((n) => `${n.type}:${n.name}`)).toEqual([
          "folder:evaluations",
          "folder:examples",
          "folder:reference",
          "file:LICENSE.txt",
          "file:SKILL.md"
        ])
        const skill = tree.find((n) => n.name === "SKILL.md")
        expect(skill).toMatchObject({
          type: "file",
          path: "SKILL.md",
          artifactBundleId: bundleId,
          artifactType: "skill",
          status: "active",
          language: "markdown",
          isPrimary: true,
          sizeBytes: Buffer.byteLength(files.find((f) => f.path === "SKILL.md")!.content)
        })
        const examples = tree.find((n) => n.name === "examples")!
        expect(examples.path).toBe("examples")
        expect(examples.children!.map((c) => c.path)).toEqual([
          "examples/conversation-to-faq.md",
          "examples/decision-capture.md",
          "examples/how-to-guide.md"
        ])
      }))

    it.effect("GET file returns the record, latest version and exact content; PUT adds the next version", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* setup("files-put")
        const content = "# Prompt\n\nünïcødé ✓ 🚀\n"
        const up = yield* upload(token, bundleId, [{ path: "prompts/prompt.md", content, mediaType: "text/x-custom" }])
        const fileId = up.body.data.files[0].file.id
        const read = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files/${fileId}`, { token }))
        expect(read.status).toBe(200)
        expect(read.body.data.content).toBe(content)
        expect(read.body.data.file.sizeBytes).toBe(Buffer.byteLength(content, "utf8"))
        expect(read.body.data.file.sizeBytes).not.toBe(content.length)
        expect(read.body.data.file.contentHash).toBe(sha(content))
        expect(read.body.data.file.metadata.mediaType).toBe("text/x-custom")
        expect(read.body.data.version.versionNumber).toBe(1)

        const v1 = read.body.data.version
        const put = yield* call((app) =>
          app.request("PUT", `/artifact-bundles/${bundleId}/files/${fileId}`, {
            token,
            body: { content: "# Prompt v2\n", message: "second" }
          })
        )
        expect(put.status).toBe(200)
        expect(put.body.data.version).toMatchObject({
          versionNumber: 2,
          parentVersionId: v1.id,
          source: "edit",
          message: "second",
          contentHash: sha("# Prompt v2\n"),
          sizeBytes: 12
        })
        // the media type carries over unless a new one is given
        expect(put.body.data.file.metadata.mediaType).toBe("text/x-custom")
        expect(put.body.data.file.latestVersionNumber).toBe(2)
        const again = yield* call((app) =>
          app.request("PUT", `/artifact-bundles/${bundleId}/files/${fileId}`, {
            token,
            body: { content: "v3", mediaType: "text/markdown" }
          })
        )
        expect(again.body.data.file.metadata.mediaType).toBe("text/markdown")
        expect(again.body.data.version.parentVersionId).toBe(put.body.data.version.id)
        // earlier versions stay readable
        const old = yield* call((app) =>
          app.request("GET", `/artifact-bundles/${bundleId}/files/${fileId}/versions/1`, { token })
        )
        expect(old.body.data.content).toBe(content)
        // an empty file is fine
        const empty = yield* call((app) =>
          app.request("PUT", `/artifact-bundles/${bundleId}/files/${fileId}`, { token, body: { content: "" } })
        )
        expect(empty.status).toBe(200)
        expect(empty.body.data.file.sizeBytes).toBe(0)
      }))

    it.effect("soft delete hides the file, keeps history, frees the path and re-evaluates the primary", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* setup("files-delete")
        const up = yield* upload(token, bundleId, [
          { path: "README.md", content: "readme" },
          { path: "SKILL.md", content: "skill" },
          { path: "notes/a.md", content: "a" }
        ])
        const skillId = up.body.data.files[1].file.id
        let bundle = (yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token }))).body.data
        expect(bundle.artifactBundle.primaryFile!.path).toBe("SKILL.md")

        const del = yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}/files/${skillId}`, { token }))
        expect(del.status).toBe(200)
        expect(del.body.data.file.status).toBe("deleted")
        expect(del.body.data.file.deletedAt).not.toBeNull()

        bundle = (yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token }))).body.data
        expect(bundle.artifactBundle.fileCount).toBe(2)
        expect(bundle.artifactBundle.primaryFile!.path).toBe("README.md")
        expect(bundle.files.map((f) => f.path)).toEqual(["notes/a.md", "README.md"].sort())
        expect(bundle.files.find((f) => f.path === "README.md")!.isPrimary).toBe(true)

        expectError(yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files/${skillId}`, { token })), 404, "not_found")
        expectError(yield* call((app) => app.request("DELETE", `/artifact-bundles/${bundleId}/files/${skillId}`, { token })), 404, "not_found")
        expectError(
          yield* call((app) => app.request("PUT", `/artifact-bundles/${bundleId}/files/${skillId}`, { token, body: { content: "x" } })),
          404,
          "not_found"
        )
        // history stays in the database and in the bundle events
        const [{ n }] = yield* call((app) => Effect.runPromise(app.sql<{ n: number }>`SELECT count(*)::int AS n FROM file_versions WHERE file_id = ${skillId}`))
        expect(n).toBe(1)
        const events = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/versions`, { token }))
        expect(events.body.data.versions.some((e) => e.fileId === skillId)).toBe(true)

        // the path is reusable: a new file, a new id, version 1, primary again
        const reup = yield* upload(token, bundleId, [{ path: "SKILL.md", content: "skill again" }])
        expect(reup.status).toBe(201)
        expect(reup.body.data.files[0].file.id).not.toBe(skillId)
        expect(reup.body.data.files[0].file.latestVersionNumber).toBe(1)
        expect(reup.body.data.files[0].file.isPrimary).toBe(true)
      }))

    it.effect("file list pages by path and the tree covers every active file", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* setup("files-list")
        const files = Array.from({ length: 7 }, (_, i) => ({ path: `dir${i % 2}/f${i}.md`, content: `${i}` }))
        expect((yield* upload(token, bundleId, files)).status).toBe(201)
        const page = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files?limit=3&offset=3`, { token }))
        expect(page.status).toBe(200)
        const sorted = files.map((f) => f.path).sort()
        expect(page.body.data.files.map((f) => f.path)).toEqual(sorted.slice(3, 6))
        expect(page.body.data.pagination).toEqual({ limit: 3, offset: 3, nextOffset: 6, nextCursor: "6" })
        expect(page.body.data.tree.map((n) => n.path)).toEqual(["dir0", "dir1"])
        expect(page.body.data.tree[0].children).toHaveLength(4)
        const last = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files?limit=3&offset=6`, { token }))
        expect(last.body.data.pagination.nextOffset).toBeNull()
        expect(last.body.data.pagination.nextCursor).toBeNull()
        expectError(yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files?limit=0`, { token })), 400, "validation_failed")
        expectError(yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files?limit=201`, { token })), 400, "validation_failed")
        expectError(yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files?offset=-1`, { token })), 400, "validation_failed")
      }))

    it.effect("primary detection follows the documented precedence and clients cannot set it", () =>
      Effect.gen(function*() {
        const primaryOf = (paths: ReadonlyArray<string>) =>
          Effect.gen(function*() {
            const { token, bundleId } = yield* setup(`primary-${paths.join("|")}`)
            const reply = yield* upload(token, bundleId, paths.map((path) => ({ path, content: path })))
            expect(reply.status).toBe(201)
            const bundle = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token }))
            return bundle.body.data.artifactBundle.primaryFile?.path ?? null
          })
        expect(yield* primaryOf(["README.md", "SKILL.md"])).toBe("SKILL.md")
        expect(yield* primaryOf(["nested/SKILL.md", "AGENTS.md"])).toBe("AGENTS.md")
        expect(yield* primaryOf(["README.md", "skill/SKILL.md"])).toBe("skill/SKILL.md")
        expect(yield* primaryOf(["docs/README.md", "README.md"])).toBe("README.md")
        expect(yield* primaryOf(["system.md", "prompt.md"])).toBe("prompt.md")
        expect(yield* primaryOf(["flows/main.rubr_flow", "notes.md"])).toBe("flows/main.rubr_flow")
        expect(yield* primaryOf(["workflow.md", "x.md"])).toBe("workflow.md")
        expect(yield* primaryOf(["instructions.md", "README.md"])).toBe("instructions.md")
        expect(yield* primaryOf(["notes.md", "other.txt"])).toBeNull()
        expect(yield* primaryOf(["a/SKILL.md", "b/SKILL.md"])).toBeNull()

        const { token, bundleId } = yield* setup("primary-client")
        const reply = yield* upload(token, bundleId, [{ path: "x.md", content: "x", isPrimary: true }])
        expectError(reply, 400, "validation_failed")
      }))

    it.effect("artifactType is inferred per file", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* setup("types")
        const paths = ["AGENTS.md", "agents/reviewer.md", "commands/fix.md", "workflows/release.md", "a.rubr_flow", "prompt.md", "notes.md"]
        const reply = yield* upload(token, bundleId, paths.map((path) => ({ path, content: "x" })))
        expect(reply.body.data.files.map((f) => f.file.artifactType)).toEqual([
          "agent",
          "agent",
          "command",
          "workflow",
          "rubr_flow",
          "prompt",
          "prompt"
        ])
      }))

    it.effect("every path rule is a 400 with a detail per problem, and nothing is written", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* setup("paths")
        const bad = [
          "",
          "/abs.md",
          "a/../b.md",
          "../up.md",
          "./here.md",
          "a/./b.md",
          "a\\b.md",
          "a//b.md",
          "dir/",
          "tab\there.md",
          "nul\u0000.md",
          "bell\u0007.md",
          "del\u007f.md",
          "x".repeat(513)
        ]
        for (const path of bad) {
          const reply = yield* upload(token, bundleId, [{ path: "ok.md", content: "fine" }, { path, content: "x" }])
          expectError(reply, 400, "validation_failed")
          expect(reply.body.error.details.some((d) => d.path === "files.1.path")).toBe(true)
        }
        // all problems are reported together
        const many = yield* upload(token, bundleId, [{ path: "/a", content: "x" }, { path: "b/..", content: "y\u0000" }])
        expect(many.body.error.details.map((d) => d.path)).toEqual(["files.0.path", "files.1.path", "files.1.content"])
        // 512 characters is fine; so are unicode and spaces
        const ok = yield* upload(token, bundleId, [
          { path: "y".repeat(512), content: "x" },
          { path: "dossier é/ünï cødé.md", content: "x" },
          { path: "..hidden/.env.md", content: "x" }
        ])
        expect(ok.status).toBe(201)
        const bundle = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token }))
        expect(bundle.body.data.artifactBundle.fileCount).toBe(3)
        expect(bundle.body.data.artifactBundle.versionCount).toBe(3)
      }))

    it.effect("content rules and limits: NUL, invalid UTF-8, 1 MiB per file, 100 per upload, 500 per bundle, 10 MiB body", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* setup("limits")
        expectError(yield* upload(token, bundleId, [{ path: "a.md", content: "a\u0000b" }]), 400, "validation_failed")
        expectError(yield* upload(token, bundleId, [{ path: "a.md", content: "lone \ud800 surrogate" }]), 400, "validation_failed")
        // raw invalid UTF-8 bytes inside the JSON string
        const raw = Buffer.concat([
          Buffer.from(`{"files":[{"path":"bad.md","content":"abc`),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from(`"}]}`)
        ])
        const invalid = yield* call((app) =>
          app.request("POST", `/artifact-bundles/${bundleId}/files`, {
            token,
            rawBody: raw,
            headers: { "content-type": "application/json" }
          })
        )
        expectError(invalid, 400, "validation_failed")
        // 1 MiB exactly is fine (multi-byte characters count as bytes), one byte more is not
        const mib = 1024 * 1024
        expect((yield* upload(token, bundleId, [{ path: "big.md", content: "x".repeat(mib) }])).status).toBe(201)
        expectError(yield* upload(token, bundleId, [{ path: "big2.md", content: "x".repeat(mib + 1) }]), 400, "validation_failed")
        expectError(yield* upload(token, bundleId, [{ path: "big3.md", content: "é".repeat(mib / 2 + 1) }]), 400, "validation_failed")
        const bigId = (yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files`, { token }))).body.data.files[0].id
        expectError(
          yield* call((app) =>
            app.request("PUT", `/artifact-bundles/${bundleId}/files/${bigId}`, { token, body: { content: "x".repeat(mib + 1) } })
          ),
          400,
          "validation_failed"
        )
        expectError(
          yield* call((app) =>
            app.request("PUT", `/artifact-bundles/${bundleId}/files/${bigId}`, { token, body: { content: "a\u0000" } })
          ),
          400,
          "validation_failed"
        )
        // 101 files in one upload
        const many = Array.from({ length: 101 }, (_, i) => ({ path: `m/${i}.md`, content: `${i}` }))
        expectError(yield* upload(token, bundleId, many), 400, "validation_failed")
        expectError(yield* upload(token, bundleId, []), 400, "validation_failed")
        // a duplicate path inside one upload
        expectError(yield* upload(token, bundleId, [{ path: "d.md", content: "1" }, { path: "d.md", content: "2" }]), 400, "validation_failed")
        // bad media type
        expectError(yield* upload(token, bundleId, [{ path: "mt.md", content: "1", mediaType: "not a type" }]), 400, "validation_failed")
        // wrong types
        expectError(yield* upload(token, bundleId, [{ path: 1, content: "1" }]), 400, "validation_failed")
        expectError(yield* upload(token, bundleId, [{ path: "x.md" }]), 400, "validation_failed")
        // over 10 MiB body: 413
        const huge = yield* call((app) =>
          app.request("POST", `/artifact-bundles/${bundleId}/files`, {
            token,
            rawBody: JSON.stringify({ files: [{ path: "h.md", content: "x".repeat(10 * mib + 10) }] }),
            headers: { "content-type": "application/json" }
          })
        )
        expectError(huge, 413, "payload_too_large")
        // 500 active files per bundle (1 already there: big.md)
        for (let batch = 0; batch < 4; batch++) {
          const files = Array.from({ length: 100 }, (_, i) => ({ path: `fill/${batch}/${i}.md`, content: `${batch}-${i}` }))
          expect((yield* upload(token, bundleId, files)).status).toBe(201)
        }
        const last = Array.from({ length: 100 }, (_, i) => ({ path: `fill/4/${i}.md`, content: `4-${i}` }))
        const over = yield* upload(token, bundleId, last)
        expectError(over, 400, "validation_failed")
        expect((yield* upload(token, bundleId, last.slice(0, 99))).status).toBe(201)
        expectError(yield* upload(token, bundleId, [{ path: "one-more.md", content: "x" }]), 400, "validation_failed")
        const bundle = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token }))
        expect(bundle.body.data.artifactBundle.fileCount).toBe(500)
        expect(bundle.body.data.artifactBundle.versionCount).toBe(500)
        // nothing half-written: every rejected upload left no file, version or content behind
        const [{ files, versions }] = yield* call((app) =>
          Effect.runPromise(app.sql<{ files: number; versions: number }>`
            SELECT (SELECT count(*)::int FROM bundle_files WHERE artifact_bundle_id = ${bundleId}) AS files,
                   (SELECT count(*)::int FROM file_versions WHERE artifact_bundle_id = ${bundleId}) AS versions`)
        )
        expect(files).toBe(500)
        expect(versions).toBe(500)
      }))

    it.effect("uploading onto an active path is a 409 and writes nothing", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* setup("dup")
        expect((yield* upload(token, bundleId, [{ path: "a.md", content: "1" }])).status).toBe(201)
        const reply = yield* upload(token, bundleId, [{ path: "b.md", content: "2" }, { path: "a.md", content: "3" }])
        expectError(reply, 409, "conflict")
        expect(reply.body.error.details).toEqual([{ path: "a.md" }])
        const bundle = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token }))
        expect(bundle.body.data.files.map((f) => f.path)).toEqual(["a.md"])
        expect(bundle.body.data.artifactBundle.versionCount).toBe(1)
      }))

    it.effect("50 concurrent PUTs on one file give versions 2..51 with no gap or duplicate", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* setup("concurrent-put")
        const up = yield* upload(token, bundleId, [{ path: "c.md", content: "0" }])
        const fileId = up.body.data.files[0].file.id
        const replies = yield* call((app) =>
          Promise.all(Array.from({ length: 50 }, (_, i) =>
            app.request("PUT", `/artifact-bundles/${bundleId}/files/${fileId}`, { token, body: { content: `v${i}` } })
          ))
        )
        expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200))
        const numbers = replies.map((r) => r.body.data.version.versionNumber).sort((a, b) => a - b)
        expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 2))
        const rows = yield* call((app) =>
          Effect.runPromise(app.sql<{ versionNumber: number; parentVersionId: string | null; id: string; artifactBundleVersionNumber: number }>`
            SELECT id, version_number, parent_version_id, artifact_bundle_version_number FROM file_versions
            WHERE file_id = ${fileId} ORDER BY version_number`)
        )
        expect(rows.map((r) => r.versionNumber)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1))
        expect(rows.map((r) => r.artifactBundleVersionNumber)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1))
        // each version's parent is the one before it
        for (let i = 1; i < rows.length; i++) expect(rows[i].parentVersionId).toBe(rows[i - 1].id)
        const read = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}/files/${fileId}`, { token }))
        expect(read.body.data.file.latestVersionNumber).toBe(51)
        expect(read.body.data.version.versionNumber).toBe(51)
      }))

    it.effect("200 concurrent uploads of distinct paths leave fileCount exact", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* setup("concurrent-upload")
        const replies = yield* call((app) =>
          Promise.all(Array.from({ length: 200 }, (_, i) =>
            app.request("POST", `/artifact-bundles/${bundleId}/files`, { token, body: { files: [{ path: `p/${i}.md`, content: `${i}` }] } })
          ))
        )
        expect(replies.filter((r) => r.status === 201)).toHaveLength(200)
        const bundle = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token }))
        expect(bundle.body.data.artifactBundle.fileCount).toBe(200)
        expect(bundle.body.data.artifactBundle.versionCount).toBe(200)
        expect(bundle.body.data.files).toHaveLength(200)
        const events = yield* call((app) =>
          Effect.runPromise(app.sql<{ n: number }>`
            SELECT artifact_bundle_version_number AS n FROM file_versions WHERE artifact_bundle_id = ${bundleId} ORDER BY 1`)
        )
        expect(events.map((e) => e.n)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1))
      }))

    it.effect("two concurrent uploads of the same path: one 201 and one 409", () =>
      Effect.gen(function*() {
        for (let round = 0; round < 5; round++) {
          const { token, bundleId } = yield* setup(`race-${round}`)
          const replies = yield* call((app) =>
            Promise.all([0, 1].map((i) =>
              app.request("POST", `/artifact-bundles/${bundleId}/files`, { token, body: { files: [{ path: "same.md", content: `${i}` }] } })
            ))
          )
          expect(replies.map((r) => r.status).sort()).toEqual([201, 409])
          expect(replies.find((r) => r.status === 409)!.body.error.code).toBe("conflict")
          const bundle = yield* call((app) => app.request("GET", `/artifact-bundles/${bundleId}`, { token }))
          expect(bundle.body.data.artifactBundle.fileCount).toBe(1)
        }
      }))

    it.effect("the unique index on active paths backs the 409 in the database itself", () =>
      Effect.gen(function*() {
        const { token, bundleId } = yield* setup("index")
        yield* upload(token, bundleId, [{ path: "u.md", content: "1" }])
        const error = yield* call((app) =>
          Effect.runPromise(
            Effect.flip(app.sql`INSERT INTO bundle_files (artifact_bundle_id, path, artifact_type, created_bundle_version_number)
                                VALUES (${bundleId}, 'u.md', 'prompt', 1)`)
          )
        )
        expect(String((error as any).cause?.code)).toBe("23505")
      }))
  }
)
