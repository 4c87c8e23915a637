/**
 * Exports on any S3-compatible store (AWS S3, MinIO, Cloudflare R2, ...), with @aws-sdk/client-s3.
 *
 * - The bucket is created on first write when it does not exist (HeadBucket, then CreateBucket; once
 *   per process, after it succeeds).
 * - Short timeouts (connect 2 s, request 5 s, 2 attempts, 8 s in all per operation by default), so an
 *   outage fails fast with reason "unavailable" instead of holding a worker for minutes.
 * - Checksums only where the API requires them: several S3-compatible stores refuse the SDK's newer
 *   default checksum headers.
 * - Error messages are ours (operation, key, the provider's error name and HTTP status): never the
 *   provider's text, never credentials.
 */
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig
} from "@aws-sdk/client-s3"
import { Duration, Effect, Option, Redacted } from "effect"
import { describeBytes, type ObjectStoreShape, StorageError, toBytes, validateKey } from "./Common.js"

export interface S3StoreConfig {
  readonly endpoint: Option.Option<string>
  readonly region: string
  readonly bucket: string
  readonly accessKeyId: Option.Option<string>
  readonly secretAccessKey: Option.Option<Redacted.Redacted<string>>
  readonly forcePathStyle: boolean
}

export interface S3Timeouts {
  /** TCP (and TLS) connect */
  readonly connectMs: number
  /** one request, from sending to the whole response */
  readonly requestMs: number
  /** one operation, retries included */
  readonly totalMs: number
  readonly maxAttempts: number
}

export const defaultS3Timeouts: S3Timeouts = { connectMs: 2_000, requestMs: 5_000, totalMs: 8_000, maxAttempts: 2 }

interface ProviderError {
  readonly name?: string
  readonly code?: string
  readonly $metadata?: { readonly httpStatusCode?: number }
}

const describeError = (error: unknown) => {
  const e = (typeof error === "object" && error !== null ? error : {}) as ProviderError
  const status = e.$metadata?.httpStatusCode
  const name = typeof e.name === "string" && /^[\w.-]{1,60}$/.test(e.name) ? e.name : "Error"
  const code = typeof e.code === "string" && /^[A-Z_]{1,30}$/.test(e.code) ? e.code : undefined
  return { status, name, text: [name, code, status ? `HTTP ${status}` : undefined].filter(Boolean).join(", ") }
}

const isNotFound = (error: unknown) => {
  const { status, name } = describeError(error)
  return status === 404 || name === "NoSuchKey" || name === "NotFound" || name === "NoSuchBucket"
}

export const makeS3Store = (
  config: S3StoreConfig,
  timeouts: S3Timeouts = defaultS3Timeouts
): ObjectStoreShape & { readonly destroy: () => void } => {
  const clientConfig: S3ClientConfig = {
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    maxAttempts: timeouts.maxAttempts,
    requestHandler: {
      connectionTimeout: timeouts.connectMs,
      requestTimeout: timeouts.requestMs,
      throwOnRequestTimeout: true
    },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED"
  }
  if (Option.isSome(config.endpoint)) clientConfig.endpoint = config.endpoint.value
  // without both, the SDK's default chain applies (environment, shared config, instance role)
  if (Option.isSome(config.accessKeyId) && Option.isSome(config.secretAccessKey)) {
    clientConfig.credentials = {
      accessKeyId: config.accessKeyId.value,
      secretAccessKey: Redacted.value(config.secretAccessKey.value)
    }
  }
  const client = new S3Client(clientConfig)
  const bucket = config.bucket

  /** one SDK call, bounded in time, cancelled (aborted) when interrupted */
  const call = <A>(operation: string, key: string | null, send: (signal: AbortSignal) => Promise<A>) =>
    Effect.tryPromise({
      try: send,
      catch: (error) => ({ error, operation, key })
    }).pipe(
      Effect.timeoutFail({
        duration: Duration.millis(timeouts.totalMs),
        onTimeout: () => ({ error: { name: "TimeoutError" }, operation, key })
      })
    )

  const unavailable = (failure: { error: unknown; operation: string; key: string | null }) =>
    new StorageError({
      reason: "unavailable",
      message: `export storage (s3, bucket ${bucket}) unavailable: ${failure.operation}${failure.key ? ` ${failure.key}` : ""} failed (${describeError(failure.error).text})`
    })

  let bucketReady = false
  const ensureBucket = Effect.suspend(() => {
    if (bucketReady) return Effect.void
    return call("HeadBucket", null, (abortSignal) => client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal })).pipe(
      Effect.catchIf(
        (failure) => isNotFound(failure.error),
        () =>
          call("CreateBucket", null, (abortSignal) => client.send(new CreateBucketCommand({ Bucket: bucket }), { abortSignal })).pipe(
            Effect.catchIf(
              // another process created it meanwhile
              (failure) => ["BucketAlreadyOwnedByYou", "BucketAlreadyExists"].includes(describeError(failure.error).name),
              () => Effect.void
            ),
            Effect.tap(() => Effect.logInfo("export bucket created").pipe(Effect.annotateLogs({ bucket })))
          )
      ),
      Effect.mapError(unavailable),
      Effect.tap(() => {
        bucketReady = true
      }),
      Effect.asVoid
    )
  })

  const put: ObjectStoreShape["put"] = (key, body, contentType) =>
    Effect.gen(function*() {
      yield* validateKey(key)
      const bytes = toBytes(body)
      yield* ensureBucket
      yield* call("PutObject", key, (abortSignal) =>
        client.send(
          new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.byteLength }),
          { abortSignal }
        )).pipe(Effect.mapError(unavailable))
      return { provider: "s3" as const, key, bucket, ...describeBytes(bytes) }
    }).pipe(Effect.withSpan("ObjectStore.put", { attributes: { provider: "s3", bucket, key } }))

  const get: ObjectStoreShape["get"] = (key) =>
    Effect.gen(function*() {
      yield* validateKey(key)
      return yield* call("GetObject", key, async (abortSignal) => {
        const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), { abortSignal })
        if (!response.Body) return new Uint8Array()
        return await response.Body.transformToByteArray()
      }).pipe(
        Effect.mapError((failure) =>
          isNotFound(failure.error) ? new StorageError({ reason: "not_found", message: `no stored object ${key} (s3, bucket ${bucket})` }) : unavailable(failure)
        )
      )
    }).pipe(Effect.withSpan("ObjectStore.get", { attributes: { provider: "s3", bucket, key } }))

  return { provider: "s3", put, get, destroy: () => client.destroy() }
}

/** The store as a scoped resource: the client's sockets are closed with the scope. */
export const makeS3StoreScoped = (config: S3StoreConfig, timeouts: S3Timeouts = defaultS3Timeouts) =>
  Effect.acquireRelease(
    Effect.sync(() => makeS3Store(config, timeouts)),
    (store) => Effect.sync(() => store.destroy())
  ).pipe(Effect.map(({ get, provider, put }): ObjectStoreShape => ({ provider, put, get })))
