/**
 * The baseline: plain node:http + pg issuing the same SQL statements, in the same order, as the service
 * does for the benchmarked routes (API-key lookup, rate-limit upserts for key/user and bundle, the use
 * case's queries and transaction). No framework, no schema encoding, no logging: the floor the service
 * is compared against. Started as a child process by bench/run.ts: `DATABASE_URL=... PORT=... tsx bench/baseline.ts`.
 */
import * as Crypto from "node:crypto"
import * as Http from "node:http"
import pg from "pg"
import { contentProblem, detectLanguage, digest, inferType, mediaTypeFor, pathProblem, skillFoldersOf, choosePrimary } from "../src/bundles/Detect.js"
import { bundleColumns, fileColumns, fileFrom, versionColumns } from "../src/bundles/Store.js"

const int8 = (value: string) => Number(value)
pg.types.setTypeParser(20, int8)
pg.types.setTypeParser(1700, int8)

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 20) })
const LIMIT = 1_000_000_000
const MAX_FILE_BYTES = 1024 * 1024
const apiKeyColumns = "id, user_id, name, prefix, scopes, status, last_used_at, expires_at, revoked_at, created_at, updated_at"

class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message)
  }
}

const send = (res: Http.ServerResponse, status: number, body: unknown) => {
  const requestId = Crypto.randomUUID()
  const json = JSON.stringify(status < 400 ? { data: body, requestId } : body)
  res.writeHead(status, { "content-type": "application/json", "x-request-id": requestId })
  res.end(json)
}

const readBody = (req: Http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

/** Same statements as ApiKeys.authenticateCounting and the authentication middleware. */
const authenticate = async (req: Http.IncomingMessage, scopes: ReadonlyArray<string>) => {
  const header = req.headers.authorization ?? ""
  const raw = header.startsWith("Bearer ") ? header.slice(7).trim() : ""
  const hash = Crypto.createHash("sha256").update(raw, "utf8").digest()
  // the service's ApiKeys.authenticateCounting: lookup, key/user rate-limit counting, lastUsedAt, one statement
  const { rows } = await pool.query(
    `WITH k AS (SELECT ${apiKeyColumns} FROM api_keys WHERE key_hash = $1),
     live AS (SELECT id, user_id FROM k WHERE status = 'active' AND (expires_at IS NULL OR expires_at > now())),
     counted AS (
       INSERT INTO rate_limit_counters (bucket, window_start, hits)
       SELECT b.bucket, date_trunc('minute', now()), 1
       FROM live CROSS JOIN LATERAL (VALUES ('key:' || live.id::text), ('user:' || live.user_id::text)) AS b(bucket)
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
       RETURNING bucket, hits, ceil(extract(epoch FROM (window_start + interval '1 minute' - now())))::int AS reset_seconds),
     touched AS (
       UPDATE api_keys SET last_used_at = now()
       WHERE id IN (SELECT id FROM live) AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
       RETURNING id)
     SELECT k.*,
       (SELECT COALESCE(json_agg(json_build_object('bucket', bucket, 'hits', hits, 'resetSeconds', reset_seconds)), '[]'::json) FROM counted) AS counters,
       (SELECT count(*) FROM touched) AS touched
     FROM k`,
    [hash]
  )
  const key = rows[0]
  if (!key || key.status !== "active") throw new HttpError(401, "unauthorized", "invalid key")
  if (!scopes.some((s) => key.scopes.includes(s))) throw new HttpError(403, "forbidden", "scope")
  return { userId: key.user_id as string, apiKeyId: key.id as string }
}

const toFile = (r: any) => ({
  id: r.id,
  artifactBundleId: r.artifact_bundle_id,
  path: r.path,
  artifactType: r.artifact_type,
  status: r.status,
  isPrimary: r.is_primary,
  sizeBytes: r.size_bytes,
  contentHash: r.content_hash,
  latestVersionNumber: r.latest_version_number,
  metadata: { mediaType: r.media_type, detectedLanguage: r.detected_language, storageProvider: r.storage_provider },
  deletedAt: r.deleted_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at
})

const toVersion = (r: any) => ({
  id: r.id,
  fileId: r.file_id,
  artifactBundleId: r.artifact_bundle_id,
  versionNumber: r.version_number,
  artifactBundleVersionNumber: r.artifact_bundle_version_number,
  path: r.file_path,
  source: r.source,
  contentHash: r.content_hash,
  sizeBytes: r.size_bytes,
  parentVersionId: r.parent_version_id,
  restoredFromVersionId: r.restored_from_version_id,
  message: r.message,
  metadata: { mediaType: r.media_type, detectedLanguage: r.detected_language, storageProvider: r.storage_provider },
  createdAt: r.created_at
})

/** The service's `guarded`: the lookup and the bundle's rate-limit upsert in one statement. */
const guarded = async (bundleId: string, select: string, params: ReadonlyArray<unknown>) => {
  const { rows } = await pool.query(
    `WITH target AS (${select}),
     hit AS (
       INSERT INTO rate_limit_counters (bucket, window_start, hits)
       SELECT $${params.length + 1}, date_trunc('minute', now()), 1 FROM (SELECT 1 FROM target LIMIT 1) AS found
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
       RETURNING hits, ceil(extract(epoch FROM (window_start + interval '1 minute' - now())))::int AS reset_seconds
     )
     SELECT target.*, hit.hits AS rate_hits, hit.reset_seconds AS rate_reset_seconds FROM target LEFT JOIN hit ON true`,
    [...params, `bundle:${bundleId}`]
  )
  const row = rows[0]
  if (row && row.rate_hits > LIMIT) throw new HttpError(429, "rate_limit_exceeded", "rate limited")
  return row
}

const owned = async (userId: string, bundleId: string) => {
  const row = await guarded(bundleId, `SELECT ${bundleColumns} FROM artifact_bundles b WHERE b.id = $1 AND b.user_id = $2`, [
    bundleId,
    userId
  ])
  if (!row) throw new HttpError(404, "not_found", "Artifact bundle not found")
}

const transaction = async <A>(f: (client: pg.PoolClient) => Promise<A>) => {
  const client = await pool.connect()
  try {
    await client.query("BEGIN")
    const result = await f(client)
    await client.query("COMMIT")
    return result
  } catch (error) {
    await client.query("ROLLBACK")
    throw error
  } finally {
    client.release()
  }
}

const lock = async (client: pg.PoolClient, userId: string, bundleId: string) => {
  const { rows } = await client.query(`SELECT ${bundleColumns} FROM artifact_bundles b WHERE b.id = $1 AND b.user_id = $2 FOR UPDATE`, [
    bundleId,
    userId
  ])
  if (!rows[0]) throw new HttpError(404, "not_found", "not found")
  if (rows[0].status === "archived") throw new HttpError(409, "conflict", "archived")
  return rows[0]
}

const putContents = (client: pg.PoolClient, bundleId: string, items: ReadonlyArray<{ contentHash: string; sizeBytes: number; content: string }>) => {
  const distinct = [...new Map(items.map((c) => [c.contentHash, c])).values()]
  return client.query(
    `INSERT INTO file_contents (artifact_bundle_id, content_hash, size_bytes, content)
     SELECT $1, h, s, c FROM unnest($2::text[], $3::int[], $4::text[]) AS t(h, s, c) ON CONFLICT DO NOTHING`,
    [bundleId, distinct.map((c) => c.contentHash), distinct.map((c) => c.sizeBytes), distinct.map((c) => c.content)]
  )
}

interface NewVersion {
  fileId: string
  versionNumber: number
  path: string
  source: string
  contentHash: string
  sizeBytes: number
  parentVersionId: string | null
  message: string | null
  mediaType: string
  detectedLanguage: string
}

const appendVersions = async (client: pg.PoolClient, bundleId: string, count: number, versions: ReadonlyArray<NewVersion>, apiKeyId: string) => {
  const { rows } = await client.query(
    `INSERT INTO file_versions (file_id, artifact_bundle_id, version_number, artifact_bundle_version_number, file_path,
       source, content_hash, size_bytes, parent_version_id, restored_from_version_id, message, media_type,
       detected_language, storage_provider, created_by_api_key_id)
     SELECT t.file_id, $1, t.version_number, t.bundle_version_number, t.path, t.source, t.content_hash, t.size_bytes,
            t.parent_version_id, t.restored_from_version_id, t.message, t.media_type, t.detected_language, 'postgres', $14
     FROM unnest($2::uuid[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::int[], $9::uuid[], $10::uuid[],
                 $11::text[], $12::text[], $13::text[])
       WITH ORDINALITY AS t(file_id, version_number, bundle_version_number, path, source, content_hash, size_bytes,
                            parent_version_id, restored_from_version_id, message, media_type, detected_language, ord)
     ORDER BY t.ord RETURNING id, file_id`,
    [
      bundleId,
      versions.map((v) => v.fileId),
      versions.map((v) => v.versionNumber),
      versions.map((_, i) => count + i + 1),
      versions.map((v) => v.path),
      versions.map((v) => v.source),
      versions.map((v) => v.contentHash),
      versions.map((v) => v.sizeBytes),
      versions.map((v) => v.parentVersionId),
      versions.map(() => null),
      versions.map((v) => v.message),
      versions.map((v) => v.mediaType),
      versions.map((v) => v.detectedLanguage),
      apiKeyId
    ]
  )
  await client.query(
    `UPDATE bundle_files f SET latest_version_number = t.n, updated_at = clock_timestamp()
     FROM unnest($1::uuid[], $2::int[]) AS t(id, n) WHERE f.id = t.id`,
    [versions.map((v) => v.fileId), versions.map((v) => v.versionNumber)]
  )
  await client.query(`UPDATE artifact_bundles SET version_count = version_count + $1, updated_at = clock_timestamp() WHERE id = $2`, [
    versions.length,
    bundleId
  ])
  const idByFile = new Map(rows.map((r) => [r.file_id, r.id]))
  return versions.map((v) => idByFile.get(v.fileId) as string)
}

const fileWithVersions = async (client: pg.PoolClient, bundleId: string, fileIds: Array<string>, versionIds: Array<string>) => {
  const files = await client.query(`SELECT ${fileColumns} FROM ${fileFrom} WHERE f.artifact_bundle_id = $1 AND f.id = ANY($2::uuid[])`, [
    bundleId,
    fileIds
  ])
  const versions = await client.query(`SELECT ${versionColumns} FROM file_versions v WHERE v.id = ANY($1::uuid[])`, [versionIds])
  const fileMap = new Map(files.rows.map((r) => [r.id, toFile(r)]))
  const versionMap = new Map(versions.rows.map((r) => [r.id, toVersion(r)]))
  return fileIds.map((id, i) => ({ file: fileMap.get(id), version: versionMap.get(versionIds[i]) }))
}

const UUID = "[0-9a-f-]{36}"
const routes: Array<[string, RegExp, (req: Http.IncomingMessage, m: RegExpMatchArray, url: URL) => Promise<[number, unknown]>]> = [
  ["GET", new RegExp(`^/api/v1/artifact-bundles/(${UUID})/files/(${UUID})$`), async (req, [, bundleId, fileId]) => {
    const actor = await authenticate(req, ["files:read", "artifacts:pull"])
    const row = await guarded(
      bundleId,
      `SELECT ${fileColumns}, lv.id AS version_id, lv.version_number, lv.artifact_bundle_version_number,
              lv.file_path, lv.source, lv.parent_version_id, lv.restored_from_version_id, lv.message,
              lv.created_at AS version_created_at, c.content
       FROM ${fileFrom}
       JOIN file_contents c ON c.artifact_bundle_id = lv.artifact_bundle_id AND c.content_hash = lv.content_hash
       WHERE f.id = $1 AND f.artifact_bundle_id = $2 AND b.user_id = $3 AND f.status = 'active'`,
      [fileId, bundleId, actor.userId]
    )
    if (!row) throw new HttpError(404, "not_found", "File not found")
    return [200, {
      file: toFile(row),
      version: toVersion({ ...row, id: row.version_id, file_id: row.id, created_at: row.version_created_at }),
      content: row.content
    }]
  }],
  ["PUT", new RegExp(`^/api/v1/artifact-bundles/(${UUID})/files/(${UUID})$`), async (req, [, bundleId, fileId]) => {
    const body = JSON.parse(await readBody(req))
    if (typeof body.content !== "string") throw new HttpError(400, "validation_failed", "content")
    const problem = contentProblem(body.content, MAX_FILE_BYTES)
    if (problem) throw new HttpError(400, "validation_failed", problem)
    const actor = await authenticate(req, ["files:write"])
    await owned(actor.userId, bundleId)
    const { contentHash, sizeBytes } = digest(body.content)
    return [200, await transaction(async (client) => {
      const bundle = await lock(client, actor.userId, bundleId)
      const { rows } = await client.query(
        `SELECT ${versionColumns} FROM bundle_files f
         JOIN file_versions v ON v.file_id = f.id AND v.version_number = f.latest_version_number
         WHERE f.id = $1 AND f.artifact_bundle_id = $2 AND f.status = 'active'`,
        [fileId, bundleId]
      )
      const latest = rows[0]
      if (!latest) throw new HttpError(404, "not_found", "File not found")
      await putContents(client, bundleId, [{ contentHash, sizeBytes, content: body.content }])
      const [versionId] = await appendVersions(client, bundleId, bundle.version_count, [{
        fileId,
        versionNumber: latest.version_number + 1,
        path: latest.file_path,
        source: "edit",
        contentHash,
        sizeBytes,
        parentVersionId: latest.id,
        message: body.message ?? null,
        mediaType: body.mediaType ?? latest.media_type,
        detectedLanguage: latest.detected_language
      }], actor.apiKeyId)
      return (await fileWithVersions(client, bundleId, [fileId], [versionId]))[0]
    })]
  }],
  ["POST", new RegExp(`^/api/v1/artifact-bundles/(${UUID})/files$`), async (req, [, bundleId]) => {
    const body = JSON.parse(await readBody(req))
    const files: Array<{ path: string; content: string; mediaType?: string; message?: string }> = body.files
    for (const f of files) {
      if (pathProblem(f.path) || contentProblem(f.content, MAX_FILE_BYTES)) throw new HttpError(400, "validation_failed", "bad file")
    }
    const actor = await authenticate(req, ["files:write"])
    await owned(actor.userId, bundleId)
    const prepared = files.map((f) => {
      const language = detectLanguage(f.path)
      return { ...f, ...digest(f.content), language, mediaType: f.mediaType ?? mediaTypeFor(language) }
    })
    const paths = prepared.map((f) => f.path)
    return [201, { files: await transaction(async (client) => {
      const bundle = await lock(client, actor.userId, bundleId)
      const taken = await client.query(
        `SELECT path FROM bundle_files WHERE artifact_bundle_id = $1 AND status = 'active' AND path = ANY($2::text[]) ORDER BY path`,
        [bundleId, paths]
      )
      if (taken.rows.length > 0) throw new HttpError(409, "conflict", "taken")
      await putContents(client, bundleId, prepared)
      const skillFolders = skillFoldersOf(paths)
      const inserted = await client.query(
        `INSERT INTO bundle_files (artifact_bundle_id, path, artifact_type, latest_version_number, created_bundle_version_number)
         SELECT $1, t.path, t.type, 0, t.n FROM unnest($2::text[], $3::text[], $4::int[]) AS t(path, type, n) RETURNING id, path`,
        [bundleId, paths, paths.map((p) => inferType(p, skillFolders)), paths.map((_, i) => bundle.version_count + i + 1)]
      )
      const idByPath = new Map(inserted.rows.map((r) => [r.path, r.id]))
      const fileIds = paths.map((p) => idByPath.get(p) as string)
      const versionIds = await appendVersions(client, bundleId, bundle.version_count, prepared.map((f, i) => ({
        fileId: fileIds[i],
        versionNumber: 1,
        path: f.path,
        source: "upload",
        contentHash: f.contentHash,
        sizeBytes: f.sizeBytes,
        parentVersionId: null,
        message: f.message ?? null,
        mediaType: f.mediaType,
        detectedLanguage: f.language
      })), actor.apiKeyId)
      // refresh: artifact types, primary, fileCount
      const active = await client.query(
        `SELECT id, path, artifact_type FROM bundle_files WHERE artifact_bundle_id = $1 AND status = 'active'`,
        [bundleId]
      )
      const folders = skillFoldersOf(active.rows.map((r) => r.path))
      const changed = active.rows.filter((r) => inferType(r.path, folders) !== r.artifact_type)
      if (changed.length > 0) {
        await client.query(
          `UPDATE bundle_files f SET artifact_type = t.type FROM unnest($1::uuid[], $2::text[]) AS t(id, type) WHERE f.id = t.id`,
          [changed.map((r) => r.id), changed.map((r) => inferType(r.path, folders))]
        )
      }
      const primary = choosePrimary(active.rows as Array<{ id: string; path: string }>)
      await client.query(
        `UPDATE artifact_bundles SET file_count = $1, primary_file_id = $2, updated_at = clock_timestamp() WHERE id = $3`,
        [active.rows.length, primary?.id ?? null, bundleId]
      )
      return fileWithVersions(client, bundleId, fileIds, versionIds)
    }) }]
  }],
  ["GET", new RegExp(`^/api/v1/artifact-bundles/(${UUID})/files/(${UUID})/versions$`), async (req, [, bundleId, fileId], url) => {
    const actor = await authenticate(req, ["files:read", "artifacts:pull"])
    const limit = Number(url.searchParams.get("limit") ?? 50)
    const found = await guarded(
      bundleId,
      `SELECT f.id FROM bundle_files f JOIN artifact_bundles b ON b.id = f.artifact_bundle_id
       WHERE f.id = $1 AND f.artifact_bundle_id = $2 AND b.user_id = $3 AND f.status = 'active'`,
      [fileId, bundleId, actor.userId]
    )
    if (!found) throw new HttpError(404, "not_found", "File not found")
    const { rows } = await pool.query(
      `SELECT ${versionColumns} FROM file_versions v WHERE v.file_id = $1 ORDER BY v.version_number DESC LIMIT $2 OFFSET $3`,
      [fileId, limit + 1, 0]
    )
    const more = rows.length > limit
    const items = more ? rows.slice(0, limit) : rows
    return [200, {
      versions: items.map(toVersion),
      pagination: {
        limit,
        offset: 0,
        nextOffset: more ? limit : null,
        nextCursor: more ? Buffer.from(`v:${items[items.length - 1].version_number}`).toString("base64url") : null
      }
    }]
  }]
]

const server = Http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? "/", "http://localhost")
    for (const [method, pattern, handler] of routes) {
      const match = req.method === method ? url.pathname.match(pattern) : null
      if (match) {
        const [status, body] = await handler(req, match, url)
        return send(res, status, body)
      }
    }
    throw new HttpError(404, "not_found", "no route")
  } catch (error) {
    if (error instanceof HttpError) {
      return send(res, error.status, { error: { code: error.code, message: error.message, requestId: "", details: [] } })
    }
    send(res, 500, { error: { code: "internal_error", message: String(error), requestId: "", details: [] } })
  }
})

server.listen(Number(process.env.PORT), "127.0.0.1", () => {
  process.stdout.write(`baseline listening on ${process.env.PORT}\n`)
})
process.on("SIGTERM", () => {
  server.close()
  void pool.end().then(() => process.exit(0))
})
