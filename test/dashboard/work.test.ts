/**
 * Issue 24 in a real browser: a skill author's work, start to end, on the service as `npm start` runs it
 * (the mock reviewer): upload a corpus skill, price and start an audit (a double click starts one job),
 * find a finding's gutter mark on the line it names, read the improved version as a diff, apply it, see
 * the new version, audit again and watch the score chart gain a point; an eval of the two versions; a
 * proof report whose signature the page verifies against /signing-keys, and shows invalid once the export
 * is edited; a conversion whose draft needed its repair (each validation error on its line); a conversion
 * that fails, with its refund linked to the ledger entry. Every page: axe (no serious or critical
 * violation), a screenshot under test-results/dashboard/, no CSP violation or console error.
 */
import type { Browser, Page, Request } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createClient, type RubrPromiseClient } from "../../src/client/index.js"
import { corpusSkill, expectCleanPage, launchBrowser, newPage, see, type Service, sessionToken, startService, type Watched } from "../support/Browser.js"
import { CONTRADICTORY_SKILL, REPAIRABLE_SKILL } from "../support/fixtures.js"

let service: Service
let browser: Browser
let watched: Watched
let page: Page
let sdk: RubrPromiseClient

const url = (path: string) => `${service.origin}${path}`
const check = (name: string) => expectCleanPage(watched, name)
const heading = (name: string | RegExp, level = 2) => page.getByRole("heading", { name, level })

beforeAll(async () => {
  service = await startService()
  browser = await launchBrowser()
  watched = await newPage(browser)
  page = watched.page
  await page.goto(url("/bundles"))
  await page.getByRole("button", { name: "Continue as a local developer" }).click()
  await page.getByRole("heading", { name: "Bundles", level: 1 }).waitFor()
  sdk = createClient({ baseUrl: service.baseUrl, apiKey: (await sessionToken(page))!, retries: 0 })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

let bundleId = ""
let base = ""
let firstAuditId = ""
let skillFileId = ""

/** Waits for the run page to show the run ended in `status`. */
const ended = (testId: string, status: string) => page.locator(`[data-testid=${testId}][data-status=${status}]`).waitFor({ timeout: 30_000 })

describe("a skill author's work in the dashboard", () => {
  it("uploads a corpus skill; an empty bundle's work pages say what to do first", async () => {
    await page.getByRole("button", { name: "New bundle" }).first().click()
    const dialog = page.getByRole("dialog", { name: "New bundle" })
    await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("internal-comms")
    await dialog.getByRole("button", { name: "Create bundle" }).click()
    await page.waitForURL(/\/bundles\/[0-9a-f-]{36}$/)
    base = new URL(page.url()).pathname
    bundleId = base.split("/")[2]!
    await page.getByRole("link", { name: "Audits", exact: true }).click()
    await page.getByText("No audits yet").waitFor()
    await check("work-audits-empty")
    await page.getByRole("link", { name: "Proof reports", exact: true }).click()
    await page.getByText("No proof reports yet").waitFor()

    await page.getByRole("link", { name: "Files", exact: true }).click()
    await page.getByRole("button", { name: "Upload files" }).first().click()
    await page.getByTestId("folder-input").setInputFiles(corpusSkill("internal-comms"))
    await page.getByTestId("upload-plan").getByRole("button", { name: /^Upload \d+ files$/ }).click()
    await page.getByTestId("upload-done").waitFor()
    await page.getByRole("button", { name: "Close" }).click()
    await page.getByTestId("file-tree").locator("[data-path='SKILL.md']").waitFor()
    skillFileId = (await sdk.files.list({ path: { artifactBundleId: bundleId }, urlParams: {} })).data.files.find((f) => f.path === "SKILL.md")!.id
  })

  it("an audit, priced first: the estimate, the balance after, and a double-clicked start that starts one job", async () => {
    await page.getByRole("link", { name: "New audit" }).click()
    await heading("New audit").waitFor()
    const estimate = page.getByTestId("estimate")
    const priced = (await sdk.audits.estimateAudit({ path: { artifactBundleId: bundleId }, payload: { modelTier: "standard", reasoningEffort: "medium", targetMode: "file" } })).data.estimate
    await see.exactText(estimate.getByTestId("estimate-credits"), String(priced.estimatedCredits))
    await see.exactText(estimate.getByTestId("balance-now"), "100")
    await see.exactText(estimate.getByTestId("balance-after"), String(100 - priced.estimatedCredits))
    await see.text(estimate, "SKILL.md under review")
    // a premium, high-effort review costs more: the price follows the form
    await page.getByRole("button", { name: "Premium" }).click()
    await page.getByRole("button", { name: "High" }).click()
    const premium = (await sdk.audits.estimateAudit({ path: { artifactBundleId: bundleId }, payload: { modelTier: "premium", reasoningEffort: "high", targetMode: "file" } })).data.estimate
    expect(premium.estimatedCredits).toBeGreaterThan(priced.estimatedCredits)
    await see.exactText(estimate.getByTestId("estimate-credits"), String(premium.estimatedCredits))
    await page.getByRole("button", { name: "Standard" }).click()
    await page.getByRole("button", { name: "Medium" }).click()
    await see.exactText(estimate.getByTestId("estimate-credits"), String(priced.estimatedCredits))
    await check("work-audit-new")

    const starts: Array<Request> = []
    const onRequest = (r: Request) => r.method() === "POST" && /\/audits$/.test(new URL(r.url()).pathname) && starts.push(r)
    page.on("request", onRequest)
    await estimate.getByTestId("start").dblclick()
    await page.waitForURL(/\/audits\/[0-9a-f-]{36}(\?|$)/)
    page.off("request", onRequest)
    firstAuditId = new URL(page.url()).pathname.split("/").at(-1)!
    // every start request carried the same key, and the service started exactly one job
    expect(starts.length).toBeGreaterThanOrEqual(1)
    expect(new Set(starts.map((r) => r.headers()["idempotency-key"])).size).toBe(1)
    expect(starts[0]!.headers()["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/)
    const jobs = (await sdk.jobs.listJobs({ urlParams: { artifactBundleId: bundleId } })).data.jobs
    expect(jobs.map((j) => [j.kind, j.resourceId])).toEqual([["audit", firstAuditId]])
  })

  it("the audit: scores, findings filterable, each on its line in the file, the list and the file following each other", async () => {
    await ended("audit", "completed")
    const run = (await sdk.audits.getAudit({ path: { artifactBundleId: bundleId, auditRunId: firstAuditId } })).data.auditRun
    expect(run.findings.length).toBeGreaterThan(2)
    await see.text(page.getByTestId("overall-score"), String(run.overallScore))
    const file = page.getByTestId("annotated-source")
    await file.waitFor()
    // every finding of SKILL.md has its gutter mark on the line it names
    const onSkill = run.findings.filter((f) => f.filePath === "SKILL.md")
    for (const f of onSkill) await see.count(file.locator(`tr[data-line="${f.lineStart}"] .gutter-mark[data-note="${f.id}"]`), 1)
    await see.count(file.locator(".gutter-mark"), onSkill.length)
    await check("work-audit")

    // the list → the file: the finding's lines are marked
    const target = onSkill.at(-1)!
    const item = page.locator(`[data-finding="${target.id}"]`)
    await item.getByRole("button", { name: new RegExp(`^SKILL\\.md:${target.lineStart}\\b.*show in the file$`) }).click()
    await expect.poll(() => file.locator(`tr[data-line="${target.lineStart}"]`).getAttribute("class")).toContain("line-selected")
    // the file → the list: choosing a mark selects its finding
    const first = onSkill[0]!
    await file.locator(`.gutter-mark[data-note="${first.id}"]`).click()
    await expect.poll(() => page.locator(`[data-finding="${first.id}"]`).getAttribute("class")).toContain("finding-selected")
    // each rule links to its entry in the guide
    await see.attribute(item.locator("a.finding-rule"), "href", `/api/v1/guides/rubrics#${target.ruleId.toLowerCase()}`)

    // filters: a severity off hides its findings (and their marks), a criterion narrows to its own
    const severity = run.findings[0]!.severity
    const ofSeverity = run.findings.filter((f) => f.severity === severity).length
    await page.getByRole("group", { name: "Filter by severity" }).getByRole("button", { name: new RegExp(`^${severity}`) }).click()
    await see.text(page.getByTestId("findings-count"), `Showing ${run.findings.length - ofSeverity} of`)
    await page.getByRole("group", { name: "Filter by severity" }).getByRole("button", { name: new RegExp(`^${severity}`) }).click()
    await page.getByLabel("Filter by criterion").selectOption(target.criterionKey)
    await see.text(page.getByTestId("findings-count"), `Showing ${run.findings.filter((f) => f.criterionKey === target.criterionKey).length} of`)
    await page.getByLabel("Filter by criterion").selectOption("")
  })

  it("the improved version as a diff, side by side and unified; apply names the files and their new versions, then links them", async () => {
    await page.getByRole("button", { name: /^Improved version/ }).click()
    const diff = page.getByTestId("diff")
    await see.attribute(diff, "data-mode", "split")
    await see.count(diff.locator("td.diff-add").first(), 1)
    await check("work-audit-diff")
    await page.getByRole("button", { name: "Unified" }).click()
    await see.attribute(diff, "data-mode", "unified")
    await check("work-audit-diff-unified")

    await page.getByTestId("improved").getByRole("button", { name: "Apply improvements" }).click()
    const dialog = page.getByRole("dialog", { name: "Apply the improvements?" })
    await see.text(dialog.getByTestId("apply-files"), "SKILL.md: version 2 (now 1)")
    await check("work-audit-apply")
    await dialog.getByRole("button", { name: "Write 1 new version" }).click()
    const result = page.getByTestId("apply-result")
    await see.text(result, "SKILL.md version 2")
    await check("work-audit-applied")
    const latest = (await sdk.files.get({ path: { artifactBundleId: bundleId, fileId: skillFileId } })).data
    expect(latest.version.versionNumber).toBe(2)
    expect(latest.version.source).toBe("audit_improvement")
    await result.getByRole("link", { name: "SKILL.md version 2" }).click()
    await see.text(page.locator(".file-meta").first(), "version 2")
  })

  it("a second audit, of the new version: the score chart gains a point", async () => {
    await page.goto(url(`${base}/audits/new`))
    await page.getByTestId("estimate-credits").waitFor()
    await page.getByTestId("start").click()
    await page.waitForURL(/\/audits\/[0-9a-f-]{36}(\?|$)/)
    expect(page.url()).not.toContain(firstAuditId)
    await ended("audit", "completed")
    await see.attribute(page.getByTestId("score-chart"), "data-points", "2")
    await page.getByRole("link", { name: "Audits", exact: true }).first().click()
    await see.attribute(page.getByTestId("score-chart"), "data-points", "2")
    await see.count(page.getByTestId("audit-runs").locator("tbody tr"), 2)
    // the change between two scores reads as a score (one decimal), not a float's tail (+0.7999999999999972)
    expect(await page.getByTestId("score-chart").locator("figcaption").textContent()).toMatch(/\([+-]\d+(\.\d)?\)/)
    // a value label near 100 stays inside the chart, not cut by its top edge
    const clipped = await page.getByTestId("score-chart").locator("svg").evaluate((svg) => {
      const box = svg.getBoundingClientRect()
      return [...svg.querySelectorAll("text.chart-value")].filter((t) => t.getBoundingClientRect().top < box.top).map((t) => t.textContent)
    })
    expect(clipped).toEqual([])
    await check("work-audits")
  })

  it("an eval of the two versions: pass rates, the score delta, each case with both sides and the verdict, regressions first", async () => {
    await page.goto(url(`${base}/evals/new`))
    await heading("New eval").waitFor()
    await page.getByTestId("estimate-credits").waitFor()
    await see.value(page.getByLabel("After (candidate): version"), "2")
    await check("work-eval-new")
    await page.getByTestId("start").click()
    await page.waitForURL(/\/evals\/[0-9a-f-]{36}$/)
    await ended("eval", "completed")
    const evalRunId = new URL(page.url()).pathname.split("/").at(-1)!
    const run = (await sdk.evals.getEval({ path: { artifactBundleId: bundleId, evalRunId } })).data.evalRun
    await see.text(page.getByTestId("pass-after"), `${Math.round((run.comparison!.candidatePassCount / run.results.length) * 100)}%`)
    const cases = page.getByTestId("cases").locator("[data-case]")
    await see.count(cases, run.results.length)
    const verdicts = await cases.evaluateAll((items) => items.map((i) => i.getAttribute("data-verdict")))
    const rank = { regressed: 0, improved: 1, unchanged: 2 } as Record<string, number>
    expect(verdicts.map((v) => rank[v!])).toEqual([...verdicts.map((v) => rank[v!])].sort((a, b) => a - b))
    await see.text(cases.first(), "Before")
    await see.text(cases.first(), "After")
    await check("work-eval")
  })

  it("a proof report: verified in the browser against /signing-keys; an edited export is shown invalid", async () => {
    await page.getByRole("link", { name: "Create a proof report" }).click()
    await heading("New proof report").waitFor()
    await see.exactText(page.getByTestId("estimate-credits"), "0")
    await check("work-proof-new")
    await page.getByTestId("start").click()
    await page.waitForURL(/\/proof-reports\/[0-9a-f-]{36}$/)
    await ended("proof-report", "completed")
    const verdict = page.getByTestId("signature-verdict")
    await see.attribute(verdict, "data-verdict", "valid")
    const jwks = await (await fetch(`${service.baseUrl}/signing-keys`)).json() as { keys: Array<{ kid: string }> }
    await see.exactText(verdict.getByTestId("kid"), jwks.keys[0]!.kid)
    await check("work-proof")

    const proofReportId = new URL(page.url()).pathname.split("/").at(-1)!
    const download = page.waitForEvent("download")
    await page.getByRole("button", { name: "Download the export" }).click()
    expect((await download).suggestedFilename()).toBe(`proof-report-${proofReportId}.json`)
    await see.text(page.getByTestId("export-link"), `/proof-reports/${proofReportId}/export`)

    const exported = await sdk.proofReports.exportProofReport({ path: { artifactBundleId: bundleId, proofReportId } }) as { payload: { eval: { passCount: number } } }
    const input = page.getByTestId("check-file")
    await input.setInputFiles({ name: "as-exported.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(exported, null, 2)) })
    await see.attribute(page.getByTestId("file-verdict"), "data-verdict", "valid")
    const edited = structuredClone(exported)
    edited.payload.eval.passCount += 1
    await input.setInputFiles({ name: "edited.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(edited, null, 2)) })
    const invalid = page.getByTestId("file-verdict")
    await see.attribute(invalid, "data-verdict", "invalid")
    await see.text(invalid, "payload hash mismatch")
    await check("work-proof-edited")
  })

  it("a conversion whose draft needed its repair: each validation error located on its line, the attempts, the rendered flow", async () => {
    const { data } = await sdk.artifactBundles.create({ payload: { name: "tidy-release" } })
    await sdk.files.upload({ path: { artifactBundleId: data.artifactBundle.id }, payload: { files: [{ path: "SKILL.md", content: REPAIRABLE_SKILL }] } })
    await page.goto(url(`/bundles/${data.artifactBundle.id}/conversions/new`))
    await heading("Convert to rubr_flow").waitFor()
    await page.getByTestId("estimate-credits").waitFor()
    await check("work-conversion-new")
    await page.getByTestId("start").click()
    await page.waitForURL(/\/conversions\/[0-9a-f-]{36}$/)
    await ended("conversion", "completed")
    await see.attribute(page.getByTestId("validation"), "data-valid", "true")
    await check("work-conversion")
    const conversionId = new URL(page.url()).pathname.split("/").at(-1)!
    const report = (await sdk.conversions.getConversion({ path: { artifactBundleId: data.artifactBundle.id, conversionId } })).data.conversion
    const draftErrors = report.attempts[0]!.validation.issues.filter((i) => i.severity === "error")
    expect(draftErrors.length).toBeGreaterThan(0)

    await page.getByRole("button", { name: /^Attempts/ }).click()
    const attempts = page.getByTestId("attempts")
    await see.attribute(attempts.getByRole("button", { name: /The draft/ }), "aria-pressed", "true")
    const text = attempts.getByTestId("annotated-source")
    for (const issue of draftErrors) await see.count(text.locator(`tr[data-line="${issue.line}"] .gutter-mark.mark-error`), 1)
    await see.count(attempts.getByTestId("issue-list").locator(`[data-issue="${draftErrors[0]!.code}"]`).first(), 1)
    await check("work-conversion-attempts")
    await attempts.getByRole("button", { name: /The repair/ }).click()
    await see.text(attempts, "What the repair changed")

    await page.getByRole("button", { name: "Generated rubr_flow" }).click()
    await page.getByRole("button", { name: "Rendered" }).click()
    await page.getByTestId("flow-rendered").waitFor()
    await check("work-conversion-rendered")
    await page.getByRole("button", { name: "Report", exact: true }).click()
    await page.getByText("Where each block came from").waitFor()
    await check("work-conversion-report")
  })

  it("a conversion that fails: what happened, its issues on their lines, and the refund linked to its ledger entry", async () => {
    const { data } = await sdk.artifactBundles.create({ payload: { name: "push-policy" } })
    await sdk.files.upload({ path: { artifactBundleId: data.artifactBundle.id }, payload: { files: [{ path: "SKILL.md", content: CONTRADICTORY_SKILL }] } })
    await page.goto(url(`/bundles/${data.artifactBundle.id}/conversions/new`))
    await page.getByTestId("estimate-credits").waitFor()
    await page.getByTestId("start").click()
    await page.waitForURL(/\/conversions\/[0-9a-f-]{36}$/)
    await ended("conversion", "failed")
    const conversionId = new URL(page.url()).pathname.split("/").at(-1)!
    const outcome = page.getByTestId("outcome")
    await see.exactText(outcome.getByTestId("outcome-code"), "conversion_invalid")
    await see.text(outcome.getByTestId("outcome-message"), "still invalid after one repair attempt")
    const ledger = (await sdk.credits.getCredits({ urlParams: { limit: 200 } })).data.ledger
    const refund = ledger.find((e) => e.type === "refund" && e.resourceId === conversionId)!
    expect(refund).toBeDefined()
    await see.text(outcome.getByTestId("refund"), `${refund.amount} credit`)
    // the issues of what was not saved, on their lines
    const contradiction = (await sdk.conversions.getConversion({ path: { artifactBundleId: data.artifactBundle.id, conversionId } })).data.conversion.validation!.issues.find((i) => i.code === "contradictory_guardrails")!
    await see.count(page.getByTestId("annotated-source").locator(`tr[data-line="${contradiction.line}"] .gutter-mark.mark-error`), 1)
    await check("work-conversion-failed")
    await outcome.getByRole("link", { name: "see the ledger entry" }).click()
    await page.getByRole("heading", { name: "Credits", level: 1 }).waitFor()
    await see.attribute(page.locator(`#ledger-${refund.id}`), "aria-current", "true")
    await check("credits-refund-entry")
  })

  it("the lists of a bundle's conversions, evals and proof reports, and the jobs page", async () => {
    for (const [tab, testId, name] of [["Conversions", "conversion-runs", "work-conversions"], ["Evals", "eval-runs", "work-evals"], ["Proof reports", "proof-runs", "work-proofs"]] as const) {
      await page.goto(url(base))
      await page.getByRole("link", { name: tab, exact: true }).click()
      if (tab === "Conversions") await page.getByText("No conversions yet").waitFor()
      else await page.getByTestId(testId).waitFor()
      await check(name)
    }
    await page.getByRole("link", { name: "Jobs", exact: true }).click()
    const table = page.getByTestId("jobs")
    await table.waitFor()
    const all = (await sdk.jobs.listJobs({ urlParams: {} })).data.jobs
    await see.count(table.locator("tbody tr"), all.length)
    await see.text(table.locator(`tr[data-state="failed"]`), "conversion_invalid")
    await check("jobs")
    await page.getByRole("button", { name: "Failed" }).click()
    await see.count(table.locator("tbody tr"), 1)
  })
})
