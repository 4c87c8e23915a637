import { Schema } from "effect"
import { Envelope } from "../../src/http/Envelope.js"
import { FileRecord, FileVersion } from "../../src/bundles/Schemas.js"
const S = Envelope(Schema.Struct({ file: FileRecord, version: FileVersion, content: Schema.String }))
const enc = Schema.encodeSync(S)
const u = () => crypto.randomUUID()
const meta = { mediaType: "text/markdown", detectedLanguage: "markdown", storageProvider: "postgres" }
const v = { data: {
  file: { id: u(), artifactBundleId: u(), path: "SKILL.md", artifactType: "skill", status: "active", isPrimary: true, sizeBytes: 4096, contentHash: "sha256:" + "a".repeat(64), latestVersionNumber: 1, metadata: meta, deletedAt: null, createdAt: new Date(), updatedAt: new Date() },
  version: { id: u(), fileId: u(), artifactBundleId: u(), versionNumber: 1, artifactBundleVersionNumber: 1, path: "SKILL.md", source: "upload", contentHash: "sha256:" + "a".repeat(64), sizeBytes: 4096, parentVersionId: null, restoredFromVersionId: null, message: null, metadata: meta, createdAt: new Date() },
  content: "x".repeat(4096) }, requestId: u() }
for (let r = 0; r < 3; r++) {
  const t = performance.now(); for (let i = 0; i < 50000; i++) enc(v); const t2 = performance.now()
  for (let i = 0; i < 50000; i++) JSON.stringify(v); const t3 = performance.now()
  console.log("encode", ((t2 - t) / 50).toFixed(2), "µs; stringify", ((t3 - t2) / 50).toFixed(2), "µs")
}
