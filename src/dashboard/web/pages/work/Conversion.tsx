/**
 * A conversion's page: live progress while it runs; then the generated rubr_flow (as source, with
 * every validation issue on its line, or rendered), the validation report, each attempt the validator
 * checked (the draft, the repair and what it changed), and the report (block mapping, coverage,
 * missing requirements, risks, suggested evals). A failed conversion saved nothing, but its texts and
 * issues are in the report: they are shown the same way, beside what happened and the refund.
 */
import { useLocation } from "preact-iso"
import { useState } from "preact/hooks"
import { type Client, type Data, useQuery } from "../../api.js"
import { AnnotatedSource } from "../../ui/AnnotatedSource.js"
import { formatAgo, formatNumber, plural } from "../../ui/format.js"
import { Lazy, Loading } from "../../ui/Lazy.js"
import { EmptyState, QueryView } from "../../ui/Page.js"
import { JobProgress, StateBadge } from "./JobProgress.js"
import { Outcome } from "./Outcome.js"
import type { WorkProps } from "./Start.js"
import { useJob } from "./useJob.js"
import { Segmented } from "../../ui/Segmented.js"

type Report = Data<Client["conversions"]["getConversion"]>["conversion"]
type Attempt = Report["attempts"][number]
type Issue = Attempt["validation"]["issues"][number]

const loadFlowView = () => import("./FlowView.js").then((m) => m.FlowView)

const issueHref = "/api/v1/guides/rubr-flow#issue-codes"

/** The issues beside a text, and the text with each on its line; the two follow each other. */
function IssuesAndText(props: { text: string; issues: ReadonlyArray<Issue>; label: string; idPrefix: string }) {
  const idOf = (issue: Issue, i: number) => `${props.idPrefix}-${i}-${issue.code}`
  // the first error is where to look: the file opens on it
  const firstError = props.issues.findIndex((i) => i.severity === "error")
  const [selected, setSelected] = useState<string | null>(firstError < 0 ? null : idOf(props.issues[firstError]!, firstError))
  const notes = props.issues.map((issue, i) => ({
    id: idOf(issue, i),
    lineStart: issue.line,
    lineEnd: issue.line,
    severity: issue.severity,
    label: issue.code,
    message: issue.path ? `${issue.path}: ${issue.message}` : issue.message
  }))
  return (
    <div class={props.issues.length > 0 ? "findings-layout" : ""}>
      {props.issues.length > 0
        ? (
          <section class="findings-pane" aria-label={`Issues of ${props.label}`}>
            <ol class="finding-list" data-testid="issue-list">
              {props.issues.map((issue, i) => (
                <li key={i} id={`${props.idPrefix}-item-${i}`} class={`finding finding-${issue.severity}${selected === idOf(issue, i) ? " finding-selected" : ""}`} data-issue={issue.code}>
                  <div class="finding-head">
                    <span class={`sev sev-${issue.severity}`}>{issue.severity}</span>
                    <a class="finding-rule" href={issueHref} target="_blank" rel="noopener">{issue.code}</a>
                    <button type="button" class="finding-where" aria-pressed={selected === idOf(issue, i)} onClick={() => setSelected(idOf(issue, i))} aria-label={`Show line ${issue.line}`}>
                      line {issue.line}
                    </button>
                  </div>
                  <p class="finding-message">{issue.message}</p>
                  {issue.path ? <p class="hint">at <code>{issue.path}</code></p> : null}
                </li>
              ))}
            </ol>
          </section>
        )
        : null}
      <section class="file-pane" aria-label={props.label}>
        <AnnotatedSource
          text={props.text}
          notes={notes}
          idPrefix={props.idPrefix}
          label={`${props.label}, ${plural(props.issues.length, "issue")}`}
          selected={selected}
          onSelect={(id) => {
            setSelected(id)
            const i = notes.findIndex((n) => n.id === id)
            document.getElementById(`${props.idPrefix}-item-${i}`)?.scrollIntoView({ block: "nearest", behavior: "smooth" })
          }}
        />
      </section>
    </div>
  )
}

function ValidationSummary(props: { report: Report }) {
  const v = props.report.validation
  if (!v) return <p class="muted">Not validated (the conversion stopped before).</p>
  return (
    <div class={`validation ${v.valid ? "validation-valid" : "validation-invalid"}`} data-testid="validation" data-valid={String(v.valid)}>
      <p class="validation-verdict">{v.valid ? "Valid" : "Invalid"}</p>
      <p class="hint">
        {plural(v.errorCount, "error")}, {plural(v.warningCount, "warning")} · validator {v.validatorVersion} · format {props.report.formatVersion}
      </p>
    </div>
  )
}

function Attempts(props: { report: Report }) {
  const attempts = props.report.attempts
  const firstInvalid = attempts.findIndex((a) => !a.validation.valid)
  const [index, setIndex] = useState(firstInvalid >= 0 ? firstInvalid : 0)
  const repair = props.report.repair
  if (attempts.length === 0) return <EmptyState title="No attempts recorded"><p class="muted">This report predates the attempt log: {repair?.reason}</p></EmptyState>
  const current = attempts[index]!
  return (
    <div class="stack" data-testid="attempts">
      <ol class="attempts" aria-label="Attempts">
        {attempts.map((a, i) => (
          <li key={a.attempt}>
            <button type="button" class={`attempt${i === index ? " attempt-on" : ""}`} aria-pressed={i === index} onClick={() => setIndex(i)} data-attempt={a.attempt}>
              <span class="attempt-name">{a.kind === "draft" ? "1. The draft" : `${a.attempt}. The repair`}</span>
              <span class={`badge ${a.validation.valid ? "badge-success" : "badge-debit"}`}>
                {a.validation.valid ? "valid" : plural(a.validation.errorCount, "error")}
              </span>
              {a.validation.warningCount > 0 ? <span class="hint">{plural(a.validation.warningCount, "warning")}</span> : null}
            </button>
          </li>
        ))}
      </ol>
      {repair ? <p class="muted">{repair.reason}</p> : null}
      {current.changes.length > 0
        ? (
          <div class="changes">
            <h4 class="subheading">What the repair changed</h4>
            <ul>{current.changes.map((c, i) => <li key={i}>{c}</li>)}</ul>
          </div>
        )
        : null}
      <IssuesAndText key={current.attempt} text={current.text} issues={current.validation.issues} label={`Attempt ${current.attempt} (${current.kind})`} idPrefix={`attempt${current.attempt}`} />
    </div>
  )
}

function ReportDetails(props: { report: Report }) {
  const r = props.report
  const m = r.sourceMapping
  return (
    <div class="stack">
      <section class="card">
        <h3 class="card-title">Source coverage</h3>
        <p>
          {m.coverage === null ? "Not measured." : <><strong>{Math.round(m.coverage * 100)}%</strong> of the source's content lines ({formatNumber(m.mappedLines ?? 0)} of {formatNumber(m.totalLines ?? 0)}) are mapped to a block.</>}
        </p>
        {m.unmappedRanges.length > 0 ? <p class="hint">Not mapped: {m.unmappedRanges.map((u) => `${u.path}:${u.lineStart}–${u.lineEnd}`).join(", ")}</p> : null}
      </section>
      {r.missingRequirements.length + r.remainingRisks.length > 0
        ? (
          <section class="card">
            <h3 class="card-title">To check by hand</h3>
            <ul class="plain-list notes-list">
              {r.missingRequirements.map((n, i) => <li key={`m${i}`}><span class="badge badge-neutral">missing</span> <code>{n.code}</code> {n.message}{n.block ? <span class="hint"> ({n.block})</span> : null}</li>)}
              {r.remainingRisks.map((n, i) => <li key={`r${i}`}><span class="badge badge-debit">risk</span> <code>{n.code}</code> {n.message}{n.block ? <span class="hint"> ({n.block})</span> : null}</li>)}
            </ul>
          </section>
        )
        : null}
      {r.blockMapping.length > 0
        ? (
          <section class="card card-flush">
            <div class="table-wrap">
              <table class="table">
                <caption class="card-title table-caption">Where each block came from</caption>
                <thead>
                  <tr>
                    <th scope="col">Block</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Source lines</th>
                  </tr>
                </thead>
                <tbody>
                  {r.blockMapping.map((b) => (
                    <tr key={b.block}>
                      <td><code>{b.block}</code>{b.id ? <span class="hint"> {b.id}</span> : null}</td>
                      <td>{b.kind.replace(/_/g, " ")}</td>
                      <td><code>{b.path}:{b.lineStart}{b.lineEnd > b.lineStart ? `–${b.lineEnd}` : ""}</code></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        )
        : null}
      {r.suggestedEvals.length > 0
        ? (
          <section class="card">
            <h3 class="card-title">Suggested evals</h3>
            <ul class="plain-list">{r.suggestedEvals.map((e) => <li key={e.id}><strong>{e.name}</strong>: {e.input} <span class="hint">→ {e.expectedBehavior}</span></li>)}</ul>
          </section>
        )
        : null}
    </div>
  )
}

function Generated(props: { report: Report; bundleId: string }) {
  const { query, path, route } = useLocation()
  const last = props.report.attempts.at(-1)
  // reports from before the attempt log: the saved file's text
  const saved = useQuery(async (c) => {
    if (last || !props.report.outputFileId) return null
    return (await c.files.get({ path: { artifactBundleId: props.bundleId, fileId: props.report.outputFileId } })).data.content
  }, [props.report.id])
  const text = last?.text ?? saved.data
  const issues = last?.validation.issues ?? props.report.validation?.issues ?? []
  const shown = query["view"] === "rendered" ? "rendered" : "source"
  if (text === undefined) return <Loading />
  if (text === null) return <EmptyState title="No text to show" />
  return (
    <div class="stack">
      <div class="toolbar">
        <Segmented
          label="Show as"
          value={shown}
          options={[["source", "Source"], ["rendered", "Rendered"]]}
          onChange={(v) => route(`${path}?${new URLSearchParams({ ...query, view: v })}`, true)}
        />
        <span class="muted">{props.report.status === "completed" ? <>saved as <code>{props.report.outputPath}</code></> : "not saved: still invalid after the repair"}</span>
      </div>
      {shown === "rendered"
        ? <Lazy load={loadFlowView} props={{ text }} label="Rendering…" />
        : <IssuesAndText text={text} issues={issues} label={props.report.outputPath} idPrefix="generated" />}
    </div>
  )
}

function Result(props: WorkProps & { report: Report }) {
  const r = props.report
  const { query, path, route } = useLocation()
  const tab = query["tab"] === "attempts" ? "attempts" : query["tab"] === "report" ? "report" : "generated"
  const setTab = (t: string) => route(`${path}?${new URLSearchParams({ ...query, tab: t })}`, true)
  return (
    <div class="stack">
      <div class="summary-cards">
        <section class="card"><p class="stat-label">Validation</p><ValidationSummary report={r} /></section>
        <section class="card">
          <p class="stat-label">Repair</p>
          <p class="summary-value">{!r.repair ? "—" : !r.repair.attempted ? "Not needed" : r.repair.succeeded ? "Repaired" : "Failed"}</p>
          <p class="hint">{r.repair ? plural(r.repair.changes.length, "change") : ""}</p>
        </section>
        <section class="card">
          <p class="stat-label">Coverage of the source</p>
          <p class="summary-value">{r.sourceMapping.coverage === null ? "—" : `${Math.round(r.sourceMapping.coverage * 100)}%`}</p>
          <p class="hint">{plural(r.blockMapping.length, "block")} mapped to source lines</p>
        </section>
        <section class="card">
          <p class="stat-label">Output</p>
          {r.outputFileId
            ? <p class="summary-value summary-link"><a href={`${props.base}/files/${r.outputFileId}`}>{r.outputPath}</a></p>
            : <p class="summary-value">Nothing saved</p>}
          <p class="hint">{formatNumber(r.finalChargedCredits ?? r.estimatedCredits)} credits{r.resultMetadata ? ` · ${r.resultMetadata.model}` : ""}</p>
        </section>
      </div>
      <div class="tabs" role="group" aria-label="Conversion result">
        <button type="button" class={`tab${tab === "generated" ? " tab-on" : ""}`} aria-pressed={tab === "generated"} onClick={() => setTab("generated")}>
          Generated rubr_flow
        </button>
        <button type="button" class={`tab${tab === "attempts" ? " tab-on" : ""}`} aria-pressed={tab === "attempts"} onClick={() => setTab("attempts")}>
          Attempts <span class="tab-count">{r.attempts.length}</span>
        </button>
        <button type="button" class={`tab${tab === "report" ? " tab-on" : ""}`} aria-pressed={tab === "report"} onClick={() => setTab("report")}>Report</button>
      </div>
      {tab === "generated" ? <Generated report={r} bundleId={props.bundle.id} /> : tab === "attempts" ? <Attempts report={r} /> : <ReportDetails report={r} />}
    </div>
  )
}

export function ConversionPage(props: WorkProps & { runId: string; onChanged: () => void }) {
  const report = useQuery((c) => c.conversions.getConversion({ path: { artifactBundleId: props.bundle.id, conversionId: props.runId } }), [props.runId])
  const status = report.data?.data.conversion.status
  const live = useJob(status === "queued" || status === "running" ? report.data!.data.conversion.jobId : null, () => {
    void report.reload()
    props.onChanged()
  })
  return (
    <QueryView query={report} label="Loading the conversion…">
      {({ data }) => {
        const r = data.conversion
        const t = r.summary.target
        return (
          <div class="stack" data-testid="conversion" data-status={r.status}>
            <div class="work-header">
              <div>
                <nav aria-label="Conversion" class="work-crumbs"><a href={`${props.base}/conversions`}>Conversions</a> <span aria-hidden="true">/</span></nav>
                <h2 class="work-title">
                  Conversion of {t.targetMode === "file" ? `${t.targetFilePath} v${t.targetFileVersionNumber}` : `the whole bundle (v${t.artifactBundleVersionNumber})`} <StateBadge state={r.status} />
                </h2>
                <p class="muted">Started {formatAgo(r.createdAt)} · into <code>{r.outputPath}</code></p>
              </div>
            </div>
            {r.status === "queued" || r.status === "running" ? <JobProgress live={live} what="Conversion" /> : null}
            {r.status === "failed" || r.status === "cancelled"
              ? <Outcome what="conversion" status={r.status} error={r.error} resourceId={r.id} jobId={r.jobId} again={{ href: `${props.base}/conversions/new`, label: "Convert again" }} />
              : null}
            {r.status === "completed" || (r.status === "failed" && r.attempts.length > 0) ? <Result {...props} report={r} /> : null}
          </div>
        )
      }}
    </QueryView>
  )
}
