/** Object storage for exports: key rules, the filesystem store, S3 (against a local s3rver), none. */
import { ListBucketsCommand, S3Client } from "@aws-sdk/client-s3"
import { ConfigProvider, Effect, Either, Layer, Option, Redacted } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AppConfig } from "../src/config/AppConfig.js"
import { sha256Tag } from "../src/domain/ContentHash.js"
import {
  ObjectStore,
  ObjectStoreLive,
  type ObjectStoreShape,
  type S3StoreConfig,
  StorageError,
  validateKey
} from "../src/storage/ObjectStore.js"
import { type LocalS3, S3RVER_CREDENTIALS, startS3rver } from "./support/S3rver.js"

// the SDK's notice about its future Node.js versions is not this suite's business
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true"

const dirs: Array<string> = []
const tempDir = () => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-storage-"))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) Fs.rmSync(dir, { recursive: true, force: true })
})

/** runs `body` with the store a layer builds, then closes the layer */
const withStore = <A>(layer: Layer.Layer<ObjectStore, unknown>, body: (store: ObjectStoreShape) => Promise<A>) =>
  Effect.runPromise(Effect.flatMap(ObjectStore, (store) => Effect.promise(() => body(store))).pipe(Effect.provide(layer)))

const ok = <A>(effect: Effect.Effect<A, StorageError>) => Effect.runPromise(effect)
const failure = async (effect: Effect.Effect<unknown, StorageError>) => {
  const result = await Effect.runPromise(Effect.either(effect))
  if (Either.isRight(result)) throw new Error("expected a StorageError")
  expect(result.left).toBeInstanceOf(StorageError)
  expect(result.left._tag).toBe("StorageError")
  return result.left
}

const randomBytes = (n: number) => new Uint8Array(Crypto.randomBytes(n))
const KEY = () => `proof-reports/${Crypto.randomUUID()}/${Crypto.randomUUID()}.json`

const BAD_KEYS = [
  "",
  "/etc/passwd",
  "../escape.json",
  "proof-reports/../../escape.json",
  "a/./b",
  "a//b",
  "a/",
  ".hidden",
  "a/.hidden",
  "a\\b",
  "a b",
  "a\nb",
  "C:/x",
  "é.json",
  "a/-dash",
  "x".repeat(513)
]

describe("object keys", () => {
  it("relative paths of plain segments are accepted", async () => {
    for (const key of ["a", "proof-reports/0b8f4c57-6f3c-4a55-8b7e-5e6a2f1c9d01/5d0b0a8e.json", "A1/b_2/c-3.v1.json"]) {
      expect(await ok(validateKey(key))).toBe(key)
    }
  })

  it("'..', absolute paths, empty segments and odd characters are refused", async () => {
    for (const key of BAD_KEYS) {
      const error = await failure(validateKey(key))
      expect(error.reason, JSON.stringify(key)).toBe("invalid_key")
    }
  })
})

describe("the filesystem store", () => {
  it("round-trips bytes and text byte-identical, creating folders on demand", async () => {
    const root = Path.join(tempDir(), "exports")
    await withStore(ObjectStore.filesystem(root), async (store) => {
      expect(store.provider).toBe("filesystem")
      const bytes = randomBytes(70_000)
      const key = KEY()
      const stored = await ok(store.put(key, bytes, "application/octet-stream"))
      expect(stored).toEqual({ provider: "filesystem", key, bucket: null, sizeBytes: 70_000, sha256: sha256Tag(bytes) })
      expect(Buffer.compare(Buffer.from(await ok(store.get(key))), Buffer.from(bytes))).toBe(0)
      expect(Buffer.compare(Fs.readFileSync(Path.join(root, key)), Buffer.from(bytes))).toBe(0)

      const text = '{"a":"é 😀 \\u0000","b":[1,2]}\n'
      const textKey = KEY()
      const storedText = await ok(store.put(textKey, text, "application/json"))
      expect(storedText.sizeBytes).toBe(Buffer.byteLength(text))
      expect(new TextDecoder().decode(await ok(store.get(textKey)))).toBe(text)

      // an overwrite replaces the whole object and leaves no temp file behind
      await ok(store.put(textKey, "second", "text/plain"))
      expect(new TextDecoder().decode(await ok(store.get(textKey)))).toBe("second")
      expect(Fs.readdirSync(Path.dirname(Path.join(root, textKey)))).toEqual([Path.basename(textKey)])
    })
  })

  it("refuses bad keys without touching the disk, and a missing object is not_found", async () => {
    const base = tempDir()
    const root = Path.join(base, "exports")
    await withStore(ObjectStore.filesystem(root), async (store) => {
      for (const key of BAD_KEYS) {
        expect((await failure(store.put(key, "x", "text/plain"))).reason, JSON.stringify(key)).toBe("invalid_key")
        expect((await failure(store.get(key))).reason).toBe("invalid_key")
      }
      expect(Fs.readdirSync(base)).toEqual([])
      expect((await failure(store.get("proof-reports/nope.json"))).reason).toBe("not_found")
      expect((await failure(store.get("proof-reports/nope.json/deeper"))).reason).toBe("not_found")
    })
  })

  it("a store that cannot write is unavailable", async () => {
    const base = tempDir()
    const root = Path.join(base, "exports")
    Fs.writeFileSync(root, "a file where the folder should be")
    await withStore(ObjectStore.filesystem(root), async (store) => {
      const error = await failure(store.put(KEY(), "x", "application/json"))
      expect(error.reason).toBe("unavailable")
      expect(error.message).toMatch(/cannot write proof-reports\//)
    })
  })
})

describe("storage off (none)", () => {
  it("put and get fail with reason disabled", async () => {
    await withStore(ObjectStore.none, async (store) => {
      expect(store.provider).toBe("none")
      const error = await failure(store.put(KEY(), "x", "application/json"))
      expect(error.reason).toBe("disabled")
      expect(error.message).toMatch(/SERVICE_EXPORT_STORAGE=none/)
      expect((await failure(store.get(KEY()))).reason).toBe("disabled")
    })
  })
})

describe("ObjectStoreLive", () => {
  const live = (env: Record<string, string>) =>
    ObjectStoreLive.pipe(
      Layer.provide(AppConfig.layer),
      Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
    )

  it("follows SERVICE_EXPORT_STORAGE: filesystem under the data dir by default, none, s3", async () => {
    const dataDir = tempDir()
    const key = KEY()
    await withStore(live({ SERVICE_DATA_DIR: dataDir }), async (store) => {
      expect(store.provider).toBe("filesystem")
      await ok(store.put(key, "hello", "text/plain"))
    })
    expect(Fs.readFileSync(Path.join(dataDir, "exports", key), "utf8")).toBe("hello")
    expect(await withStore(live({ SERVICE_DATA_DIR: dataDir, SERVICE_EXPORT_STORAGE: "none" }), async (s) => s.provider)).toBe("none")
    expect(
      await withStore(live({ SERVICE_DATA_DIR: dataDir, SERVICE_EXPORT_STORAGE: "s3", SERVICE_S3_ENDPOINT: "http://127.0.0.1:9" }), async (s) => s.provider)
    ).toBe("s3")
  })
})

describe("the S3 store (s3rver on loopback)", () => {
  let s3: LocalS3
  beforeAll(async () => {
    s3 = await startS3rver()
  })
  afterAll(async () => {
    await s3?.dispose()
  })

  const configFor = (endpoint: string, bucket: string, credentials: { accessKeyId: string; secretAccessKey: string } = S3RVER_CREDENTIALS): S3StoreConfig => ({
    endpoint: Option.some(endpoint),
    region: "us-east-1",
    bucket,
    accessKeyId: Option.some(credentials.accessKeyId),
    secretAccessKey: Option.some(Redacted.make(credentials.secretAccessKey)),
    forcePathStyle: true
  })

  const listBuckets = async (endpoint: string) => {
    const client = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS })
    try {
      return ((await client.send(new ListBucketsCommand({}))).Buckets ?? []).map((b) => b.Name)
    } finally {
      client.destroy()
    }
  }

  it("creates the bucket, writes the object and reads it back byte-identical", async () => {
    const bucket = "rubr-exports-a"
    expect(await listBuckets(s3.endpoint)).not.toContain(bucket)
    await withStore(ObjectStore.s3(configFor(s3.endpoint, bucket)), async (store) => {
      expect(store.provider).toBe("s3")
      const bytes = randomBytes(300_000)
      const key = KEY()
      const stored = await ok(store.put(key, bytes, "application/octet-stream"))
      expect(stored).toEqual({ provider: "s3", key, bucket, sizeBytes: 300_000, sha256: sha256Tag(bytes) })
      expect(Buffer.compare(Buffer.from(await ok(store.get(key))), Buffer.from(bytes))).toBe(0)

      const text = JSON.stringify({ format: "rubr.proof_report.v1", payload: { note: "é 😀" } }, null, 2)
      const textKey = KEY()
      await ok(store.put(textKey, text, "application/json"))
      expect(new TextDecoder().decode(await ok(store.get(textKey)))).toBe(text)
      await ok(store.put(textKey, "v2", "application/json"))
      expect(new TextDecoder().decode(await ok(store.get(textKey)))).toBe("v2")

      expect((await failure(store.get(KEY()))).reason).toBe("not_found")
      for (const key of ["../x", "/abs", "a b"]) expect((await failure(store.put(key, "x", "text/plain"))).reason).toBe("invalid_key")
    })
    expect(await listBuckets(s3.endpoint)).toContain(bucket)
    // a second process finds the bucket there and uses it
    await withStore(ObjectStore.s3(configFor(s3.endpoint, bucket)), async (store) => {
      await ok(store.put(KEY(), "again", "text/plain"))
    })
  })

  it("refused credentials are unavailable, and the message never carries the secret", async () => {
    const credentials = { accessKeyId: "UNKNOWNKEYID0123", secretAccessKey: "not-the-secret-0123456789" }
    await withStore(ObjectStore.s3(configFor(s3.endpoint, "rubr-exports-b", credentials)), async (store) => {
      const error = await failure(store.put(KEY(), "x", "application/json"))
      expect(error.reason).toBe("unavailable")
      expect(error.message).toMatch(/HeadBucket failed \(.*HTTP 403\)/)
      for (const secret of [credentials.accessKeyId, credentials.secretAccessKey]) {
        expect(error.message).not.toContain(secret)
        expect(JSON.stringify(error)).not.toContain(secret)
        expect(String(error)).not.toContain(secret)
      }
    })
  })

  it("an outage (the server stops mid-test) fails fast with reason unavailable", async () => {
    const local = await startS3rver()
    try {
      await withStore(ObjectStore.s3(configFor(local.endpoint, "rubr-exports-c")), async (store) => {
        const key = KEY()
        await ok(store.put(key, "before the outage", "application/json"))
        expect(new TextDecoder().decode(await ok(store.get(key)))).toBe("before the outage")

        await local.stop()
        const started = Date.now()
        const putError = await failure(store.put(KEY(), "during the outage", "application/json"))
        expect(putError.reason).toBe("unavailable")
        expect(putError.message).toMatch(/unavailable: PutObject proof-reports\//)
        const getError = await failure(store.get(key))
        expect(getError.reason).toBe("unavailable")
        expect(Date.now() - started).toBeLessThan(5_000)
      })
    } finally {
      await local.dispose()
    }
  })

  it("a store that accepts connections and never answers times out, within the configured bounds", async () => {
    const sockets = new Set<Net.Socket>()
    const silent = Net.createServer((socket) => {
      sockets.add(socket)
      socket.on("error", () => undefined)
    })
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
    const port = (silent.address() as Net.AddressInfo).port
    try {
      const timeouts = { connectMs: 300, requestMs: 400, totalMs: 1_500, maxAttempts: 2 }
      await withStore(ObjectStore.s3(configFor(`http://127.0.0.1:${port}`, "rubr-exports-d"), timeouts), async (store) => {
        const started = Date.now()
        const error = await failure(store.put(KEY(), "x", "application/json"))
        expect(error.reason).toBe("unavailable")
        expect(Date.now() - started).toBeLessThan(2_500)
      })
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })
})
