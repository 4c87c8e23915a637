/**
 * A local S3 (s3rver) on loopback, a free port and a temp folder, for the storage tests. `stop()`
 * closes it at once (open keep-alive connections included), to simulate an outage.
 */
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"

// s3rver ships no types (and @types/s3rver is not a dependency): the little used here, typed here
interface S3rverInstance {
  run(): Promise<AddressInfo>
  close(): Promise<void>
  httpServer?: Server
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverConstructor

/** s3rver's fixed credentials (it checks signatures against them) */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const

export interface LocalS3 {
  readonly endpoint: string
  readonly port: number
  readonly directory: string
  /** stops the server now, dropping open connections */
  readonly stop: () => Promise<void>
  /** stops it and removes its folder */
  readonly dispose: () => Promise<void>
}

export const startS3rver = async (): Promise<LocalS3> => {
  const directory = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-s3rver-"))
  const server = new S3rver({ address: "127.0.0.1", port: 0, directory, silent: true })
  const address = await server.run()
  let running = true
  const stop = async () => {
    if (!running) return
    running = false
    server.httpServer?.closeAllConnections()
    await server.close()
  }
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    port: address.port,
    directory,
    stop,
    dispose: async () => {
      await stop().catch(() => undefined)
      Fs.rmSync(directory, { recursive: true, force: true })
    }
  }
}
