/**
 * Issue 24, jobs as they run, in a real browser: the service on a fake OpenAI-compatible provider that
 * answers slowly (reviews never in time; conversions after a moment, with a server error). So jobs stay
 * running long enough to be seen: an audit's phase, percent and messages appear in its page as they are
 * recorded, the jobs page shows several running at once, the audit is cancelled from its page and says
 * so (with its refund), and the conversion fails with the provider's safe error and its refund linked
 * to the ledger entry.
 */
import { Effect, Exit, Scope } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createClient, type RubrPromiseClient } from "../../src/client/index.js"
import { expectCleanPage, launchBrowser, newPage, see, type Service, sessionToken, startService, type Watched } from "../support/Browser.js"
import { errorReply, type FakeOpenAi, make as makeFakeOpenAi, messagesOf } from "../support/FakeOpenAi.js"
import { DEPLOY_SKILL } from "../support/fixtures.js"

let service: Service
let browser: Browser
let watched: Watched
let page: Page
let sdk: RubrPromiseClient
let fake: FakeOpenAi
const scope = Effect.runSync(Scope.make())

const url = (path: string) => `${service.origin}${path}`
const check = (name: string) => expectCleanPage(watched, name)

beforeAll(async () => {
  fake = await Effect.runPromise(Scope.extend(makeFakeOpenAi((request) =>
    // a review waits (the test cancels it); a conversion fails after a moment, as a provider outage would
    messagesOf(request).system.includes("converter") ? { ...errorReply(500), delayMs: 2500 } : { ...errorReply(500), delayMs: 60_000 }
  ), scope))
  service = await startService({
    SERVICE_AI_ENABLED: "true",
    SERVICE_AI_BASE_URL: fake.baseUrl,
    SERVICE_AI_API_KEY: "test-key",
    SERVICE_AI_TIMEOUT_MS: "90000"
  })
  browser = await launchBrowser()
  watched = await newPage(browser)
  page = watched.page
  await page.goto(url("/jobs"))
  await page.getByRole("button", { name: "Continue as a local developer" }).click()
  await page.getByRole("heading", { name: "Jobs", level: 1 }).waitFor()
  sdk = createClient({ baseUrl: service.baseUrl, apiKey: (await sessionToken(page))!, retries: 0 })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await service?.stop()
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

let bundleId = ""
let auditId = ""
let conversionId = ""

describe("jobs as they run", () => {
  it("no jobs yet: the jobs page says where to start", async () => {
    await page.getByText("No jobs yet").waitFor()
    await check("jobs-empty")
  })

  it("an audit's progress shows in its page as the service records it; the jobs page shows every running job", async () => {
    const { data } = await sdk.artifactBundles.create({ payload: { name: "deploy-preview" } })
    bundleId = data.artifactBundle.id
    await sdk.files.upload({ path: { artifactBundleId: bundleId }, payload: { files: [{ path: "SKILL.md", content: DEPLOY_SKILL }] } })
    await page.goto(url(`/bundles/${bundleId}/audits/new`))
    await page.getByTestId("estimate-credits").waitFor()
    await page.getByTestId("start").click()
    await page.waitForURL(/\/audits\/[0-9a-f-]{36}(\?|$)/)
    auditId = new URL(page.url()).pathname.split("/").at(-1)!
    const progress = page.getByTestId("job-progress")
    // the review waits on the provider: the page shows the phase the service recorded, without a reload
    await see.text(progress.getByTestId("job-phase"), "Scoring")
    const events = (await sdk.jobs.listJobEvents({ path: { jobId: (await sdk.audits.getAudit({ path: { artifactBundleId: bundleId, auditRunId: auditId } })).data.auditRun.jobId }, urlParams: {} })).data.events
    for (const e of events.filter((x) => x.message !== "")) await see.text(progress.getByTestId("job-log"), e.message)
    await see.attribute(progress.getByRole("progressbar"), "aria-valuenow", String(Math.round(events.at(-1)!.percent)))
    await check("work-audit-running")

    const converting = await sdk.conversions.startConversion({ path: { artifactBundleId: bundleId }, payload: {} })
    conversionId = converting.data.conversion.id
    await page.getByRole("link", { name: "Jobs", exact: true }).click()
    const table = page.getByTestId("jobs")
    await see.count(table.locator("tbody tr[data-state=running], tbody tr[data-state=queued]"), 2)
    await see.text(table.locator(`tr[data-job="${converting.data.jobId}"]`), "Conversion")
    await check("jobs-running")
  })

  it("a conversion that fails on the provider: its safe error and its refund, linked to the ledger entry", async () => {
    await page.goto(url(`/bundles/${bundleId}/conversions/${conversionId}`))
    await page.locator("[data-testid=conversion][data-status=failed]").waitFor({ timeout: 30_000 })
    const outcome = page.getByTestId("outcome")
    await see.exactText(outcome.getByTestId("outcome-code"), "provider_error")
    expect(await outcome.innerText()).not.toContain("secret-internal-detail")
    const refund = (await sdk.credits.getCredits({ urlParams: { limit: 200 } })).data.ledger.find((e) => e.type === "refund" && e.resourceId === conversionId)!
    await see.attribute(outcome.locator("[data-ledger-entry]"), "data-ledger-entry", refund.id)
    await see.text(outcome.getByTestId("refund"), `${refund.amount} credit`)
    await check("work-conversion-provider-failed")
  })

  it("cancel a running audit from its page: it says cancelled, and gives the credits back", async () => {
    await page.goto(url(`/bundles/${bundleId}/audits/${auditId}`))
    const progress = page.getByTestId("job-progress")
    await progress.getByRole("button", { name: "Cancel" }).click()
    await page.locator("[data-testid=audit][data-status=cancelled]").waitFor()
    const outcome = page.getByTestId("outcome")
    await see.attribute(outcome, "data-outcome", "cancelled")
    await see.text(outcome, "The audit was cancelled")
    await see.text(outcome.getByTestId("refund"), "refunded")
    await check("work-audit-cancelled")
    const job = (await sdk.jobs.listJobs({ urlParams: { artifactBundleId: bundleId, state: "cancelled" } })).data.jobs
    expect(job.map((j) => j.resourceId)).toEqual([auditId])
    await page.getByRole("link", { name: "Jobs", exact: true }).click()
    await page.getByTestId("jobs").locator("tr[data-state=cancelled]").waitFor()
    await check("jobs-ended")
  })
})
