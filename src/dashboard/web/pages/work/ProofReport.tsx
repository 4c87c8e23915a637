/**
 * A proof report's page: its summary (the two versions it is bound to, byte for byte; the eval's
 * verdicts; the audit it includes), its signature checked here, in the browser, against the service's
 * public keys (`GET /signing-keys`) with the same `verifyExport` the CLI uses, the export downloaded as
 * a file, any export file checked the same way (an edited one is shown invalid, with the reason), and
 * the links to share.
 */
import { useEffect, useState } from "preact/hooks"
import { api, asRubrError, type Client, type Data, type RubrError, useQuery } from "../../api.js"
import { CopyButton } from "../../ui/CopyButton.js"
import { ErrorNotice } from "../../ui/ErrorNotice.js"
import { formatAgo, formatBytes, formatDate, plural } from "../../ui/format.js"
import { QueryView } from "../../ui/Page.js"
import { JobProgress, StateBadge } from "./JobProgress.js"
import { deltaText } from "./Lists.js"
import { Outcome } from "./Outcome.js"
import type { WorkProps } from "./Start.js"
import { useJob } from "./useJob.js"

type Report = Data<Client["proofReports"]["getProofReport"]>["proofReport"]
type Jwks = Awaited<ReturnType<Client["signingKeys"]["signingKeys"]>>

interface Verdict {
  readonly valid: boolean
  readonly kid: string | null
  readonly reason: string
  /** the key is the service's current one (the first of the JWKS), or an older one it still lists */
  readonly active: boolean
}

/** Checks a document against the service's JWKS, here in the browser (WebCrypto, jose). */
const verify = async (document: unknown, jwks: Jwks): Promise<Verdict> => {
  const { verifyExport } = await import("../../../../signing/Verify.js")
  const result = await verifyExport(document, jwks as Parameters<typeof verifyExport>[1])
  return { ...result, active: result.kid !== null && jwks.keys[0]?.kid === result.kid }
}

function VerdictView(props: { verdict: Verdict | null; error?: RubrError | undefined; testId: string }) {
  if (props.error) return <ErrorNotice error={props.error} />
  const v = props.verdict
  if (!v) return <p class="muted" data-testid={props.testId} data-verdict="pending"><span class="spinner" aria-hidden="true" /> Checking the signature…</p>
  return (
    <div class={`verdict-box ${v.valid ? "verdict-valid" : "verdict-invalid"}`} data-testid={props.testId} data-verdict={v.valid ? "valid" : "invalid"} role="status">
      <p class="verdict-title">{v.valid ? "Signature valid" : "Signature invalid"}</p>
      <p>{v.valid ? `Signed by this service's ${v.active ? "current" : "earlier"} key; not one byte of the signed content has changed.` : v.reason}</p>
      {v.kid ? <p class="hint">Key <code data-testid="kid">{v.kid}</code>{v.valid ? "" : " (named by the document)"}</p> : null}
    </div>
  )
}

/** The export document, and its check against `/signing-keys`. */
const useVerifiedExport = (bundleId: string, reportId: string, enabled: boolean) => {
  const [state, setState] = useState<{ document?: unknown; jwks?: Jwks; verdict?: Verdict; error?: RubrError }>({})
  useEffect(() => {
    if (!enabled) return
    let live = true
    api(async (c) => {
      const [document, jwks] = await Promise.all([
        c.proofReports.exportProofReport({ path: { artifactBundleId: bundleId, proofReportId: reportId } }),
        c.signingKeys.signingKeys()
      ])
      return { document, jwks, verdict: await verify(document, jwks) }
    }).then(
      (done) => live && setState(done),
      (e: unknown) => live && setState({ error: asRubrError(e) })
    )
    return () => void (live = false)
  }, [reportId, enabled])
  return state
}

const download = (name: string, document: unknown) => {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(document, null, 2)}\n`], { type: "application/json" }))
  const a = Object.assign(window.document.createElement("a"), { href: url, download: name })
  window.document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

function CheckAFile(props: { jwks: Jwks | undefined }) {
  const [result, setResult] = useState<{ name: string; verdict: Verdict } | { name: string; problem: string } | null>(null)
  return (
    <section class="card" aria-labelledby="check-title">
      <h3 id="check-title" class="card-title">Check an export file</h3>
      <p class="muted">Someone sent you a proof report? Choose it: its signature is checked here, in your browser, against this service's public keys.</p>
      <input
        type="file"
        accept="application/json,.json"
        class="file-input"
        aria-label="Export file to check"
        data-testid="check-file"
        disabled={!props.jwks}
        onChange={async (e) => {
          const file = e.currentTarget.files?.[0]
          if (!file || !props.jwks) return
          let document: unknown
          try {
            document = JSON.parse(await file.text())
          } catch {
            setResult({ name: file.name, problem: "This file is not JSON: it cannot be an export document." })
            return
          }
          setResult({ name: file.name, verdict: await verify(document, props.jwks) })
        }}
      />
      {result
        ? "problem" in result
          ? <div class="verdict-box verdict-invalid" data-testid="file-verdict" data-verdict="invalid" role="status"><p class="verdict-title">{result.name}: not valid</p><p>{result.problem}</p></div>
          : (
            <div>
              <p class="hint">{result.name}</p>
              <VerdictView verdict={result.verdict} testId="file-verdict" />
            </div>
          )
        : null}
    </section>
  )
}

const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "—")
type Bound = { path?: string; versionNumber?: number; contentHash?: string; sizeBytes?: number }

function Summary(props: { report: Report }) {
  const p = (props.report.report ?? {}) as Record<string, any>
  const source = (p["source"] ?? {}) as Bound
  const candidate = (p["candidate"] ?? {}) as Bound
  const ev = (p["eval"] ?? {}) as Record<string, any>
  const comparison = (ev["comparison"] ?? {}) as Record<string, number>
  const audit = p["audit"] as Record<string, unknown> | null
  const model = (p["model"] ?? {}) as Record<string, unknown>
  const cases = Array.isArray(p["cases"]) ? p["cases"].length : 0
  const bound = (title: string, b: Bound) => (
    <div class="bound">
      <p class="stat-label">{title}</p>
      <p><code>{b.path}</code> version {b.versionNumber}</p>
      <p class="hint hash" title="sha256 of the exact bytes">{b.contentHash}</p>
      <p class="hint">{b.sizeBytes !== undefined ? formatBytes(b.sizeBytes) : null}</p>
    </div>
  )
  return (
    <section class="card" aria-labelledby="summary-title" data-testid="proof-summary">
      <h3 id="summary-title" class="card-title">What it proves</h3>
      <div class="bounds">
        {bound("Before", source)}
        <span class="bound-arrow" aria-hidden="true">→</span>
        {bound("After", candidate)}
      </div>
      <dl class="facts">
        <dt>Eval</dt>
        <dd>
          {plural(cases, "case")}: {str(comparison["sourcePassCount"])} passed before, {str(comparison["candidatePassCount"])} after; score {deltaText(typeof comparison["scoreDelta"] === "number" ? comparison["scoreDelta"] : null)}
          {typeof comparison["regressedCount"] === "number" ? ` · ${comparison["regressedCount"]} regressed, ${comparison["improvedCount"]} improved` : ""}
        </dd>
        <dt>Audit</dt>
        <dd>{audit ? `score ${str(audit["overallScore"])} of 100 with ${str(audit["findingCount"])} findings (rubric ${str(audit["rubricKey"])} ${str(audit["rubricVersion"])})` : "none included"}</dd>
        <dt>Judged by</dt>
        <dd>{str(model["provider"])} · {str(model["model"])} · evaluator {str(model["evaluatorVersion"])}</dd>
        <dt>Generated</dt>
        <dd>{typeof p["generatedAt"] === "string" ? formatDate(new Date(p["generatedAt"])) : "—"}</dd>
        <dt>Stored</dt>
        <dd>
          {props.report.export
            ? `${props.report.export.provider}, ${formatBytes(props.report.export.sizeBytes)}`
            : props.report.exportFailure
            ? `not in object storage (${props.report.exportFailure.reason}): served from the database`
            : "—"}
        </dd>
      </dl>
      {Array.isArray(p["knownLimitations"]) && p["knownLimitations"].length > 0
        ? (
          <details>
            <summary>What a proof cannot show</summary>
            <ul>{(p["knownLimitations"] as Array<unknown>).map((l, i) => <li key={i}>{str(l)}</li>)}</ul>
          </details>
        )
        : null}
    </section>
  )
}

function Completed(props: WorkProps & { report: Report }) {
  const r = props.report
  const checked = useVerifiedExport(props.bundle.id, r.id, true)
  const pageUrl = `${location.origin}${props.base}/proof-reports/${r.id}`
  const exportUrl = `${location.origin}/api/v1/artifact-bundles/${props.bundle.id}/proof-reports/${r.id}/export`
  return (
    <div class="stack">
      <div class="proof-top">
        <section class="card" aria-labelledby="signature-title">
          <h3 id="signature-title" class="card-title">Signature</h3>
          <VerdictView verdict={checked.verdict ?? null} error={checked.error} testId="signature-verdict" />
          <p class="hint">Checked in this browser against <a href="/api/v1/signing-keys" target="_blank" rel="noopener">/api/v1/signing-keys</a> ({r.signature?.alg ?? "—"}, JCS canonical JSON, detached JWS).</p>
          <div class="button-row">
            <button type="button" class="button button-primary" disabled={checked.document === undefined} onClick={() => download(`proof-report-${r.id}.json`, checked.document)}>
              Download the export
            </button>
          </div>
        </section>
        <section class="card" aria-labelledby="links-title">
          <h3 id="links-title" class="card-title">Share it</h3>
          <p class="field-label">This page</p>
          <p class="inline-copy"><code data-testid="page-link">{pageUrl}</code><CopyButton text={pageUrl} label="Copy the page's link" /></p>
          <p class="field-label">The export (API key with <code>exports:read</code>)</p>
          <p class="inline-copy"><code data-testid="export-link">{exportUrl}</code><CopyButton text={exportUrl} label="Copy the export's link" /></p>
          <p class="hint">Verify offline: <code>npm run -s verify-export -- proof-report-{r.id.slice(0, 8)}….json --base-url {location.origin}/api/v1</code></p>
        </section>
      </div>
      <Summary report={r} />
      <CheckAFile jwks={checked.jwks} />
    </div>
  )
}

export function ProofReportPage(props: WorkProps & { runId: string; onChanged: () => void }) {
  const report = useQuery((c) => c.proofReports.getProofReport({ path: { artifactBundleId: props.bundle.id, proofReportId: props.runId } }), [props.runId])
  const status = report.data?.data.proofReport.status
  const live = useJob(status === "queued" || status === "running" ? report.data!.data.proofReport.jobId : null, () => void report.reload())
  return (
    <QueryView query={report} label="Loading the proof report…">
      {({ data }) => {
        const r = data.proofReport
        return (
          <div class="stack" data-testid="proof-report" data-status={r.status}>
            <div class="work-header">
              <div>
                <nav aria-label="Proof report" class="work-crumbs"><a href={`${props.base}/proof-reports`}>Proof reports</a> <span aria-hidden="true">/</span></nav>
                <h2 class="work-title">Proof report {r.id.slice(0, 8)} <StateBadge state={r.status} /></h2>
                <p class="muted">
                  Created {formatAgo(r.createdAt)} · of <a href={`${props.base}/evals/${r.evalRunId}`}>eval {r.evalRunId.slice(0, 8)}</a>
                  {r.auditRunId ? <> and <a href={`${props.base}/audits/${r.auditRunId}`}>audit {r.auditRunId.slice(0, 8)}</a></> : null}
                </p>
              </div>
            </div>
            {r.status === "queued" || r.status === "running" ? <JobProgress live={live} what="Proof report" /> : null}
            {r.status === "failed" || r.status === "cancelled"
              ? <Outcome what="proof report" status={r.status} error={r.error} resourceId={r.id} jobId={r.jobId} again={{ href: `${props.base}/proof-reports/new`, label: "Create a new one" }} />
              : null}
            {r.status === "completed" ? <Completed {...props} report={r} /> : null}
          </div>
        )
      }}
    </QueryView>
  )
}

