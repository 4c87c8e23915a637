/** The real CLI as a child process: `node bin/rubr.js …`, as users run it (the bundle globalSetup built). */
import { Effect } from "effect"
import { spawn } from "node:child_process"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

export const BIN = fileURLToPath(new URL("../../bin/rubr.js", import.meta.url))

export interface CliRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
}

// what `rubr check` remembers goes to this test process's own folder, never the user's ~/.cache
const CACHE_DIR = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-cli-cache-"))
process.once("exit", () => Fs.rmSync(CACHE_DIR, { recursive: true, force: true }))

/** Runs the CLI with exactly this environment (nothing of the test process's SERVICE_* leaks in). */
export const runCli = (args: ReadonlyArray<string>, options: { readonly env?: Record<string, string | undefined>; readonly cwd?: string } = {}) =>
  new Promise<CliRun>((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, RUBR_CACHE_DIR: CACHE_DIR, ...options.env } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()))
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }))
  })

export const cli = (args: ReadonlyArray<string>, options: { readonly env?: Record<string, string | undefined>; readonly cwd?: string } = {}) =>
  Effect.promise(() => runCli(args, options))

/** A temporary folder with these files, removed when the scope ends. */
export const folderWith = (name: string, files: Record<string, string | Uint8Array>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const root = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-cli-"))
      const dir = Path.join(root, name)
      for (const [path, content] of Object.entries(files)) {
        Fs.mkdirSync(Path.dirname(Path.join(dir, path)), { recursive: true })
        Fs.writeFileSync(Path.join(dir, path), content)
      }
      Fs.mkdirSync(dir, { recursive: true })
      return { root, dir }
    }),
    ({ root }) => Effect.sync(() => Fs.rmSync(root, { recursive: true, force: true }))
  )

/** A server that counts the requests it gets: a dry run, `--list` or refused input must leave it at 0. */
export const countingServer = Effect.acquireRelease(
  Effect.async<{ url: string; hits: () => number; close: () => void }>((resume) => {
    let hits = 0
    const server = Http.createServer((req, res) => {
      hits++
      req.resume()
      res.writeHead(500).end()
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, hits: () => hits, close: () => server.close() })))
  }),
  (s) => Effect.sync(s.close)
)
