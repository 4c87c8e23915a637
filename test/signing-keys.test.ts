/** The SigningKeys service: key files, first-start generation, registration, the JWKS, rotation. */
import { PgClient } from "@effect/sql-pg"
import { ConfigProvider, Effect, Exit, Layer, Redacted } from "effect"
import * as jose from "jose"
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { promisify } from "node:util"
import pg from "pg"
import { afterAll, describe, expect, inject, it } from "vitest"
import { AppConfig } from "../src/config/AppConfig.js"
import { type ExportDocument, signPayload, verifyExport } from "../src/signing/Document.js"
import { ensureGeneratedKey, generatedKeyPath, retiredKeysDir, rotateGeneratedKey } from "../src/signing/KeyFile.js"
import { deterministicPrivateJwk, fromPrivateJwk, generatePrivateJwk } from "../src/signing/Keys.js"
import { SigningKeys } from "../src/signing/SigningKeys.js"

const TEMPLATE_DB = "rubr_test_template"
const databases: Array<string> = []
const dirs: Array<string> = []

const createDatabase = async () => {
  const adminUrl = inject("pgAdminUrl")
  const name = `rubr_sk_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`)
  } finally {
    await admin.end()
  }
  databases.push(name)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

const tempDir = () => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-signing-"))
  dirs.push(dir)
  return dir
}

afterAll(async () => {
  for (const dir of dirs) Fs.rmSync(dir, { recursive: true, force: true })
  const admin = new pg.Client({ connectionString: inject("pgAdminUrl") })
  await admin.connect()
  try {
    for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  } finally {
    await admin.end()
  }
})

/** SigningKeys.Default as a process builds it: its configuration and its database. */
const keysLayer = (databaseUrl: string, env: Record<string, string>) =>
  SigningKeys.Default.pipe(
    Layer.provide(PgClient.layer({ url: Redacted.make(databaseUrl), maxConnections: 2 })),
    Layer.provide(AppConfig.layer),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries({ SERVICE_LOG_LEVEL: "WARN", ...env })))))
  )

/** Builds the layer (a process start), runs `body` with the service, then stops. */
const withKeys = <A>(databaseUrl: string, env: Record<string, string>, body: (keys: SigningKeys) => Promise<A>) =>
  Effect.runPromise(
    Effect.flatMap(SigningKeys, (keys) => Effect.promise(() => body(keys))).pipe(Effect.provide(keysLayer(databaseUrl, env)))
  )

const startFailure = async (databaseUrl: string, env: Record<string, string>) => {
  const exit = await Effect.runPromiseExit(Effect.provide(SigningKeys, keysLayer(databaseUrl, env)))
  expect(Exit.isFailure(exit)).toBe(true)
  return Exit.isFailure(exit) ? String(exit.cause) : ""
}

const sign = (keys: SigningKeys, payload: Record<string, unknown>) => Effect.runPromise(keys.sign(payload))
const jwks = (keys: SigningKeys) => Effect.runPromise(keys.jwks)

const payload = (n: number) => ({ proofReport: { id: `report-${n}` }, eval: { cases: [{ pass: true, score: n }] } })

describe("the generated key", () => {
  it("is created on first start (mode 0600), kept, and the same on the next start", async () => {
    const db = await createDatabase()
    const dir = tempDir()
    const first = await withKeys(db, { SERVICE_DATA_DIR: dir }, async (keys) => {
      const doc = await sign(keys, payload(1))
      return { kid: keys.activeKid, alg: keys.alg, doc, jwks: await jwks(keys) }
    })
    expect(first.alg).toBe("EdDSA")
    const file = generatedKeyPath(dir)
    expect(Fs.statSync(file).mode & 0o777).toBe(0o600)
    const jwk = JSON.parse(Fs.readFileSync(file, "utf8"))
    expect(jwk).toMatchObject({ kty: "OKP", crv: "Ed25519", d: expect.any(String) })
    expect(first.kid).toBe(await jose.calculateJwkThumbprint(jwk, "sha256"))
    expect(first.doc.signature.kid).toBe(first.kid)

    const second = await withKeys(db, { SERVICE_DATA_DIR: dir }, async (keys) => ({ kid: keys.activeKid, jwks: await jwks(keys) }))
    expect(second.kid).toBe(first.kid)
    expect(second.jwks.keys.map((k) => k.kid)).toEqual([first.kid])
    expect((await verifyExport(first.doc, second.jwks)).valid).toBe(true)
  })

  it("two processes starting at once end up with one key", async () => {
    const dir = tempDir()
    const results = await Promise.all(Array.from({ length: 12 }, () => ensureGeneratedKey(dir)))
    expect(new Set(results.map((r) => r.key.kid)).size).toBe(1)
    expect(results.filter((r) => r.created)).toHaveLength(1)
    expect(Fs.readdirSync(dir)).toEqual(["signing-key.json"]) // no temp files left

    const db = await createDatabase()
    const dir2 = tempDir()
    const kids = await Promise.all(Array.from({ length: 4 }, () => withKeys(db, { SERVICE_DATA_DIR: dir2 }, async (keys) => keys.activeKid)))
    expect(new Set(kids).size).toBe(1)
    const keys = await withKeys(db, { SERVICE_DATA_DIR: dir2 }, jwks)
    expect(keys.keys.map((k) => k.kid)).toEqual([kids[0]])
  })
})

describe("SERVICE_SIGNING_KEY_FILE", () => {
  it("is used when set (a P-256 key signs ES256), and no key is generated", async () => {
    const db = await createDatabase()
    const dir = tempDir()
    const file = Path.join(dir, "my-key.json")
    const privateJwk = await generatePrivateJwk("ES256")
    Fs.writeFileSync(file, JSON.stringify({ ...privateJwk, kid: "ignored-label" }))
    const result = await withKeys(db, { SERVICE_DATA_DIR: dir, SERVICE_SIGNING_KEY_FILE: file }, async (keys) => ({
      kid: keys.activeKid,
      alg: keys.alg,
      doc: await sign(keys, payload(2)),
      jwks: await jwks(keys)
    }))
    expect(result.alg).toBe("ES256")
    expect(result.kid).toBe(await jose.calculateJwkThumbprint(privateJwk, "sha256"))
    expect(result.doc.signature).toMatchObject({ alg: "ES256", kid: result.kid })
    expect(await verifyExport(result.doc, result.jwks)).toMatchObject({ valid: true, kid: result.kid })
    expect(Fs.existsSync(generatedKeyPath(dir))).toBe(false)

    // an Ed25519 file works too
    const edFile = Path.join(dir, "ed.json")
    Fs.writeFileSync(edFile, JSON.stringify(deterministicPrivateJwk("key file test")))
    const ed = await withKeys(db, { SERVICE_DATA_DIR: dir, SERVICE_SIGNING_KEY_FILE: edFile }, async (keys) => keys.alg)
    expect(ed).toBe("EdDSA")
  })

  it("a wrong or unreadable file stops the start with an error naming the variable", async () => {
    const db = await createDatabase()
    const dir = tempDir()
    const write = (name: string, content: string) => {
      const path = Path.join(dir, name)
      Fs.writeFileSync(path, content)
      return path
    }
    const ed = deterministicPrivateJwk("a")
    const other = deterministicPrivateJwk("b")
    const { publicKey: rsa } = await jose.generateKeyPair("RS256", { extractable: true })
    const cases: Array<[string, RegExp]> = [
      [Path.join(dir, "missing.json"), /no such file/],
      [write("garbage.json", "not json {"), /not JSON/],
      [write("public.json", JSON.stringify({ kty: ed.kty, crv: ed.crv, x: ed.x })), /public key/],
      [write("rsa.json", JSON.stringify(await jose.exportJWK(rsa))), /unsupported key/],
      [write("mismatch.json", JSON.stringify({ ...ed, d: other.d })), /does not match/],
      [write("wrong-alg.json", JSON.stringify({ ...ed, alg: "ES256" })), /does not fit/],
      [write("array.json", "[]"), /expected a JSON object/]
    ]
    for (const [path, problem] of cases) {
      const message = await startFailure(db, { SERVICE_DATA_DIR: dir, SERVICE_SIGNING_KEY_FILE: path })
      expect(message).toContain("SERVICE_SIGNING_KEY_FILE")
      expect(message).toContain(path)
      expect(message).toMatch(problem)
    }
    // nothing was registered
    const rows = await withKeys(db, { SERVICE_DATA_DIR: tempDir() }, jwks)
    expect(rows.keys).toHaveLength(1)
  })

  it("an unusable data dir names SERVICE_DATA_DIR", async () => {
    const db = await createDatabase()
    const dir = tempDir()
    Fs.writeFileSync(generatedKeyPath(dir), "{}")
    const message = await startFailure(db, { SERVICE_DATA_DIR: dir })
    expect(message).toContain("SERVICE_DATA_DIR")
    expect(message).toMatch(/unsupported key/)
  })
})

describe("the JWKS and rotation", () => {
  it("after a rotation new documents use the new kid and old documents still verify", async () => {
    const db = await createDatabase()
    const dir = tempDir()
    const before = await withKeys(db, { SERVICE_DATA_DIR: dir }, async (keys) => ({ kid: keys.activeKid, doc: await sign(keys, payload(3)) }))

    const rotation = await rotateGeneratedKey(dir)
    expect(rotation.retired?.kid).toBe(before.kid)
    expect(rotation.active.kid).not.toBe(before.kid)
    expect(Fs.existsSync(Path.join(retiredKeysDir(dir), `${before.kid}.json`))).toBe(true)

    const after = await withKeys(db, { SERVICE_DATA_DIR: dir }, async (keys) => ({
      kid: keys.activeKid,
      doc: await sign(keys, payload(4)),
      jwks: await jwks(keys)
    }))
    expect(after.kid).toBe(rotation.active.kid)
    expect(after.doc.signature.kid).toBe(after.kid)
    expect(after.jwks.keys.map((k) => k.kid)).toEqual([after.kid, before.kid])
    expect(await verifyExport(before.doc, after.jwks)).toMatchObject({ valid: true, kid: before.kid })
    expect(await verifyExport(after.doc, after.jwks)).toMatchObject({ valid: true, kid: after.kid })
    // the old key's document does not verify against the new key alone
    expect((await verifyExport(before.doc, { keys: [after.jwks.keys[0]] })).valid).toBe(false)
  })

  it("every process serves every key any process registered, its own first; public parts only", async () => {
    const db = await createDatabase()
    const fileA = Path.join(tempDir(), "a.json")
    Fs.writeFileSync(fileA, JSON.stringify(await generatePrivateJwk("ES256")))
    const a = await withKeys(db, { SERVICE_DATA_DIR: tempDir(), SERVICE_SIGNING_KEY_FILE: fileA }, async (keys) => ({
      kid: keys.activeKid,
      doc: await sign(keys, payload(5))
    }))
    const b = await withKeys(db, { SERVICE_DATA_DIR: tempDir() }, async (keys) => ({ kid: keys.activeKid, jwks: await jwks(keys) }))
    expect(b.jwks.keys.map((k) => k.kid)).toEqual([b.kid, a.kid])
    for (const key of b.jwks.keys) {
      expect(Object.keys(key).sort()).toEqual(key.kty === "EC" ? ["alg", "crv", "kid", "kty", "use", "x", "y"] : ["alg", "crv", "kid", "kty", "use", "x"])
      expect(key.use).toBe("sig")
    }
    expect((await verifyExport(a.doc, b.jwks)).valid).toBe(true)
    const again = await withKeys(db, { SERVICE_DATA_DIR: tempDir(), SERVICE_SIGNING_KEY_FILE: fileA }, jwks)
    expect(again.keys[0].kid).toBe(a.kid)
    expect(again.keys.map((k) => k.kid)).toEqual([a.kid, b.kid])
  })

  it("the table is history: keys cannot be changed or removed", async () => {
    const db = await createDatabase()
    await withKeys(db, { SERVICE_DATA_DIR: tempDir() }, async () => undefined)
    const client = new pg.Client({ connectionString: db })
    await client.connect()
    try {
      await expect(client.query("UPDATE signing_keys SET alg = 'ES256'")).rejects.toThrow(/append-only/)
      await expect(client.query("DELETE FROM signing_keys")).rejects.toThrow(/append-only/)
      await expect(client.query("TRUNCATE signing_keys")).rejects.toThrow(/append-only/)
      await expect(
        client.query(`INSERT INTO signing_keys (kid, alg, public_jwk) VALUES ('${"a".repeat(43)}', 'EdDSA', '{"kid":"${"a".repeat(43)}","alg":"EdDSA","d":"x"}')`)
      ).rejects.toThrow(/check constraint/)
      const { rows } = await client.query("SELECT count(*)::int AS n FROM signing_keys")
      expect(rows[0].n).toBe(1)
    } finally {
      await client.end()
    }
  })
})

describe("test layers", () => {
  it("SigningKeys.Test signs with a fixed in-memory key (no database)", async () => {
    const run = () =>
      Effect.runPromise(
        Effect.gen(function*() {
          const keys = yield* SigningKeys
          const doc: ExportDocument = yield* keys.sign(payload(6))
          return { kid: keys.activeKid, doc, jwks: yield* keys.jwks }
        }).pipe(Effect.provide(SigningKeys.Test))
      )
    const [a, b] = [await run(), await run()]
    expect(a.kid).toBe(b.kid)
    expect(a.doc).toEqual(b.doc) // Ed25519 is deterministic
    expect((await verifyExport(a.doc, a.jwks)).valid).toBe(true)
  })

  it("SigningKeys.layerFromJwk serves extra (retired) keys after its own", async () => {
    const old = deterministicPrivateJwk("old")
    const oldKey = await fromPrivateJwk(old)
    const oldDoc = await signPayload(payload(7), oldKey)
    const result = await Effect.runPromise(
      Effect.flatMap(SigningKeys, (keys) => keys.jwks).pipe(Effect.provide(SigningKeys.layerFromJwk(deterministicPrivateJwk("new"), [oldKey.publicJwk])))
    )
    expect(result.keys.map((k) => k.kid)).toHaveLength(2)
    expect(result.keys[1].kid).toBe(oldKey.kid)
    expect((await verifyExport(oldDoc, result)).valid).toBe(true)
  })
})

describe("npm run signing-key", () => {
  const { SERVICE_SIGNING_KEY_FILE: _, ...withoutKeyFile } = process.env
  const run = (args: Array<string>, env: Record<string, string>) =>
    promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/signing-key.ts", ...args], {
      env: { ...withoutKeyFile, ...env },
      cwd: Path.resolve(import.meta.dirname, "..")
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error) => ({ code: error.code as number, stdout: String(error.stdout), stderr: String(error.stderr) })
    )

  it("show prints the active key; rotate keeps the old one and creates a new one", async () => {
    const dir = tempDir()
    const env = { SERVICE_DATA_DIR: dir }
    const none = await run(["show"], env)
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(/no signing key yet/)

    const { key } = await ensureGeneratedKey(dir)
    const shown = await run(["show"], env)
    expect(shown.code).toBe(0)
    expect(JSON.parse(shown.stdout)).toEqual({ kid: key.kid, alg: "EdDSA", publicJwk: key.publicJwk })

    const rotated = await run(["rotate"], env)
    expect(rotated.code).toBe(0)
    const out = JSON.parse(rotated.stdout)
    expect(out.retiredKid).toBe(key.kid)
    expect(out.kid).not.toBe(key.kid)
    expect(JSON.parse((await run(["show"], env)).stdout).kid).toBe(out.kid)
    expect(Fs.existsSync(Path.join(retiredKeysDir(dir), `${key.kid}.json`))).toBe(true)

    const withFile = await run(["rotate"], { ...env, SERVICE_SIGNING_KEY_FILE: generatedKeyPath(dir) })
    expect(withFile.code).toBe(2)
    expect(withFile.stderr).toMatch(/SERVICE_SIGNING_KEY_FILE is set/)
    expect((await run(["frobnicate"], env)).code).toBe(2)
  })
})
