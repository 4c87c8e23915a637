/**
 * Issue 15, item 10: links people follow point where the service listens. The API process records
 * its address in the data directory; `npm run outbox`, started without the service's PORT, mints
 * unsubscribe links to that address.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { listeningRecordPath, originOf, resolvePublicBaseUrl, writeListeningRecord } from "../src/config/PublicUrl.js"
import { npmStartCommand } from "../scripts/start-command.js"
import { makeTestApp, sleep, TestApp } from "./support/TestApp.js"

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = Net.createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as Net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })

const waitFor = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const outbox = (env: Record<string, string>, args: ReadonlyArray<string>) =>
  new Promise<string>((resolve, reject) => {
    const { PORT: _port, SERVICE_PUBLIC_BASE_URL: _base, ...rest } = process.env
    execFile(process.execPath, ["--import", "tsx", "scripts/outbox.ts", ...args], { env: { ...rest, ...env } }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))
  })

describe("the public base URL", () => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-links-"))
  const config = (publicBaseUrl?: string) => ({ publicBaseUrl, host: "0.0.0.0", port: 3222, database: { dataDir: dir } })

  it("is SERVICE_PUBLIC_BASE_URL when set, else the live API process's record, else HOST:PORT made reachable", () => {
    expect(resolvePublicBaseUrl(config())).toBe("http://127.0.0.1:3222")
    writeListeningRecord(dir, "http://127.0.0.1:4555")
    expect(resolvePublicBaseUrl(config())).toBe("http://127.0.0.1:4555")
    expect(resolvePublicBaseUrl(config("https://rubr.example.com/"))).toBe("https://rubr.example.com")
    // a record left by a process that is gone is ignored
    Fs.writeFileSync(listeningRecordPath(dir), JSON.stringify({ baseUrl: "http://127.0.0.1:4666", pid: 2 ** 22 + 17, startedAt: "" }))
    expect(resolvePublicBaseUrl(config())).toBe("http://127.0.0.1:3222")
    expect(originOf("::", 80)).toBe("http://127.0.0.1:80")
    expect(originOf("::1", 3000)).toBe("http://[::1]:3000")
  })
})

/**
 * What `npm start` runs once it has built dist/server/ (the last command of its script), as node's
 * arguments: the test setup has built dist/ from these sources, so this runs the same service.
 */
const npmStartArgs = () => {
  const [command, ...args] = npmStartCommand(process.cwd())
  expect([command, args.at(-1)]).toEqual(["node", "dist/server/main.js"])
  return args
}

layer(makeTestApp({ role: "api" }))("links from the outbox", (it) => {
  it.scoped("npm run outbox, without the service's PORT, links to where `PORT=… npm start` listens (npm start's own command: the built service)", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const port = yield* Effect.promise(freePort)
      const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-links-data-"))
      const child = yield* Effect.acquireRelease(
        Effect.sync(() =>
          spawn(process.execPath, npmStartArgs(), {
            env: { ...process.env, DATABASE_URL: app.databaseUrl, SERVICE_ROLE: "api", PORT: String(port), SERVICE_DATA_DIR: dataDir, SERVICE_LOG_LEVEL: "WARN" },
            stdio: ["ignore", "inherit", "inherit"]
          })
        ),
        (c: ChildProcess) => Effect.sync(() => c.exitCode === null && c.kill("SIGKILL"))
      )
      const record = listeningRecordPath(dataDir)
      yield* Effect.promise(() => waitFor(() => Fs.existsSync(record), "the API process's address record"))
      expect(JSON.parse(Fs.readFileSync(record, "utf8"))).toMatchObject({ baseUrl: `http://127.0.0.1:${port}`, pid: child.pid })

      const email = `links-${port}@example.com`
      const subscribed = yield* Effect.promise(() =>
        fetch(`http://127.0.0.1:${port}/api/v1/newsletter/subscriptions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, consent: true })
        }))
      expect(subscribed.status).toBeLessThan(300)
      const printed = yield* Effect.promise(() => outbox({ DATABASE_URL: app.databaseUrl, SERVICE_DATA_DIR: dataDir }, ["--to", email]))
      expect(printed).toContain(`http://127.0.0.1:${port}/api/v1/email/unsubscribe-tokens/`)
      expect(printed).not.toContain("127.0.0.1:3000")

      // a graceful stop (DATABASE_URL set: no embedded server's exit hooks cut it short) takes the record with it
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
      child.kill("SIGTERM")
      expect(yield* Effect.promise(() => exited)).toBe(0)
      expect(Fs.existsSync(record)).toBe(false)
      yield* sleep(10)
    }), 60_000)
})
