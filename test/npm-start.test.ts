/**
 * `npm start` as people run it: under a supervisor that signals npm (a Kubernetes pod or a unit whose
 * main process is npm), or in a terminal, where Ctrl-C reaches the whole foreground group. npm forwards
 * SIGTERM and SIGINT to its script's process; the script execs node, so that process is the service,
 * which drains. `--ignore-scripts` skips the `prestart` rebuild: the global setup built dist/server/,
 * and other test files run it meanwhile.
 */
import { describe, expect, it } from "vitest"
import { healthy, type ServiceProcess, sleep, spawnService, tempDir, waitForRunning } from "./support/Processes.js"
import { useServiceFixture } from "./support/ServiceFixture.js"

const NPM_START = ["npm", "start", "--ignore-scripts", "--silent"] as const

const fx = useServiceFixture("npm_start")

const npmStart = async (detached: boolean) => {
  const databaseUrl = await fx.newDatabase()
  const svc = fx.track(await spawnService(
    {
      DATABASE_URL: databaseUrl,
      SERVICE_DATA_DIR: tempDir("rubr-npm-start-data-"),
      SERVICE_AUTH_JWKS_FILE: fx.identity.jwksFile,
      SERVICE_SHUTDOWN_TIMEOUT_S: "15",
      // an audit's mock review lasts this long: a drain waits for it, which gives a second signal time to arrive
      SERVICE_MOCK_REVIEW_DELAY_MS: "4000",
      SERVICE_SIGNUP_CREDITS: "100"
    },
    { command: NPM_START, detached }
  ))
  await healthy(svc, 60_000)
  return { svc, databaseUrl }
}

/** An audit the worker is running (its mock review takes 4 s), so that a drain has work to wait for. */
const auditRunning = async (svc: ServiceProcess, databaseUrl: string) => {
  const token = await fx.identity.token(`npm-start-${databaseUrl.split("/").pop()}`)
  const bundle = await svc.request("POST", "/artifact-bundles", { token, body: { name: "npm-start" } })
  const bundleId = bundle.body.data.artifactBundle.id
  await svc.request("POST", `/artifact-bundles/${bundleId}/files`, { token, body: { files: [{ path: "SKILL.md", content: SKILL }] } })
  const audit = await svc.request("POST", `/artifact-bundles/${bundleId}/audits`, { token, body: {} })
  expect(audit.status).toBe(202)
  await waitForRunning(databaseUrl, [audit.body.data.jobId])
}

const SKILL = "---\nname: npm-start\ndescription: Use when testing how npm start stops.\n---\n# npm start\n\n1. Read the input.\n2. Check the result.\n"

/** Whether anything still answers on the service's port. */
const answers = (svc: ServiceProcess) => svc.request("GET", "/health").then(() => true, () => false)

/** The one line the service ended with. */
const stoppedLines = (svc: ServiceProcess) => svc.stderrLines().filter((l) => l.startsWith("rubr: stopped"))

describe("npm start hands the stop to the service", () => {
  it("SIGTERM sent to npm alone: the service drains, and npm ends with the service's exit code", async () => {
    const { svc } = await npmStart(false)
    svc.kill("SIGTERM")
    const { code } = await svc.exited
    expect(stoppedLines(svc)).toEqual([expect.stringMatching(/^rubr: stopped on SIGTERM: drained in \d+\.\d s$/)])
    expect(code).toBe(0)
    expect(await answers(svc)).toBe(false)
  }, 120_000)

  it("Ctrl-C (SIGINT to the whole group): the copy npm forwards is the same stop, not a second one that cuts the drain short", async () => {
    const { svc, databaseUrl } = await npmStart(true)
    await auditRunning(svc, databaseUrl)
    process.kill(-svc.pid, "SIGINT")
    // npm's forwarded copy, apart from the terminal's (the two often arrive as one)
    await sleep(300)
    svc.kill("SIGINT")
    const { code } = await svc.exited
    expect(stoppedLines(svc)).toEqual([expect.stringMatching(/^rubr: stopped on SIGINT: drained in \d+\.\d s$/)])
    expect(code).toBe(0)
    expect(await answers(svc)).toBe(false)
  }, 120_000)

  it("a second Ctrl-C a second or more later still cuts the drain short", async () => {
    const { svc, databaseUrl } = await npmStart(true)
    await auditRunning(svc, databaseUrl)
    process.kill(-svc.pid, "SIGINT")
    await sleep(1_500)
    process.kill(-svc.pid, "SIGINT")
    const { code } = await svc.exited
    expect(stoppedLines(svc)).toEqual(["rubr: stopped on SIGINT: a second signal cut the drain short"])
    expect(code).toBe(1)
  }, 120_000)
})
