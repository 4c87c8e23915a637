/**
 * A bundle's runs of each kind, newest first, each a link to its page, and the bundle's score over
 * its audits (a chart over versions: did the edits help?). Runs still going show their state and
 * refresh until they end. One `RunList` serves every kind: its columns are what differs.
 */
import type { ComponentChildren } from "preact"
import { useEffect } from "preact/hooks"
import type { Client, Data } from "../../api.js"
import { formatAgo, formatDate, formatNumber } from "../../ui/format.js"
import { EmptyState, QueryView } from "../../ui/Page.js"
import { Pager, useCursorPages } from "../../ui/Pager.js"
import { StateBadge } from "./JobProgress.js"
import { auditHref } from "../loaders.js"
import { POLL_MS } from "./useJob.js"
import type { WorkProps } from "./Start.js"

export type AuditRun = Data<Client["audits"]["listAudits"]>["auditRuns"][number]
type Conversion = Data<Client["conversions"]["listConversions"]>["conversions"][number]
type EvalRun = Data<Client["evals"]["listEvals"]>["evalRuns"][number]
type ProofReport = Data<Client["proofReports"]["listProofReports"]>["proofReports"][number]

const active = (status: string) => status === "queued" || status === "running"

/** Reloads the list while any of its runs is still going. */
const useRefreshWhileActive = (query: { readonly data: unknown; readonly reload: () => Promise<void> }, anyActive: boolean) =>
  useEffect(() => {
    if (!anyActive) return
    const timer = setTimeout(() => void query.reload(), POLL_MS * 3)
    return () => clearTimeout(timer)
  }, [anyActive, query.data])

/** What an audit looked at: "SKILL.md v3" or "whole bundle v12". */
export const auditTargetLabel = (run: Pick<AuditRun, "summary">) => {
  const t = run.summary.target
  return t.targetMode === "file" && t.targetFilePath ? `${t.targetFilePath} v${t.targetFileVersionNumber}` : `whole bundle v${t.artifactBundleVersionNumber}`
}

/**
 * The overall score of each completed audit, oldest first, over the versions audited. The current
 * run's point (on its page) is marked.
 */
export function ScoreChart(props: { runs: ReadonlyArray<AuditRun>; current?: string | undefined; compact?: boolean }) {
  const points = props.runs.filter((r) => r.status === "completed" && r.overallScore !== null).slice().reverse()
  if (points.length === 0) return <p class="muted" data-testid="score-chart-empty">No completed audit yet: the chart starts with the first.</p>
  const width = props.compact ? 640 : 720
  const height = props.compact ? 130 : 200
  const left = 36
  const right = 16
  // room above the 100 line for a point's value label (drawn 10 px above the point)
  const top = 26
  const bottom = 38
  const plotH = height - top - bottom
  const step = points.length === 1 ? 0 : (width - left - right) / (points.length - 1)
  const x = (i: number) => (points.length === 1 ? (width + left - right) / 2 : left + i * step)
  const y = (score: number) => top + plotH - (score / 100) * plotH
  const path = points.map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(p.overallScore!).toFixed(1)}`).join(" ")
  // labels: every point when they fit, else every n-th and the last
  const every = Math.max(1, Math.ceil(points.length / (props.compact ? 4 : 8)))
  const first = points[0]!.overallScore!
  const last = points.at(-1)!.overallScore!
  // scores carry one decimal; their difference in floating point does not (98.8 - 98 = 0.79999…)
  const change = Math.round((last - first) * 10) / 10
  const summary = points.length === 1
    ? `One audit so far: ${last} of 100 at ${auditTargetLabel(points[0]!)}.`
    : `${points.length} audits, from ${first} to ${last} of 100 (${change >= 0 ? "+" : ""}${change}); latest at ${auditTargetLabel(points.at(-1)!)}.`
  return (
    <figure class="chart score-chart" data-testid="score-chart" data-points={points.length}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Overall score over the audits: ${summary}`}>
        {[0, 25, 50, 75, 100].map((g) => (
          <g key={g}>
            <line x1={left} x2={width - right} y1={y(g)} y2={y(g)} class={g === 0 ? "chart-axis" : "chart-grid"} />
            <text x={left - 8} y={y(g) + 4} class="chart-label" text-anchor="end">{g}</text>
          </g>
        ))}
        <path d={path} class="score-line" />
        {points.map((p, i) => (
          <g key={p.id} data-point={p.id}>
            <title>{`${auditTargetLabel(p)}: ${p.overallScore} of 100 (${formatDate(p.completedAt ?? p.createdAt)})`}</title>
            <circle cx={x(i)} cy={y(p.overallScore!)} r={p.id === props.current ? 6 : 4} class={p.id === props.current ? "score-point score-point-current" : "score-point"} />
            {i % every === 0 || i === points.length - 1
              ? (
                <>
                  <text x={x(i)} y={y(p.overallScore!) - 10} class="chart-value" text-anchor="middle">{p.overallScore}</text>
                  <text x={x(i)} y={height - bottom + 18} class="chart-label" text-anchor="middle">{auditTargetLabel(p)}</text>
                </>
              )
              : null}
          </g>
        ))}
      </svg>
      <figcaption class="chart-legend"><span>{summary}</span></figcaption>
    </figure>
  )
}

/** The runs a list page shows at once; older ones are a page further (the pager). */
const RUNS_PAGE = 100

/** A column of a run table: its header, and the cell of each run. */
interface Column<R> {
  readonly header: string
  readonly num?: boolean
  readonly cell: (run: R) => ComponentChildren
  /** the cell's tooltip */
  readonly title?: (run: R) => string
}

interface Page<R> {
  readonly data: { readonly pagination: { readonly nextCursor: string | null } }
  readonly runs: ReadonlyArray<R>
}

/**
 * A kind's runs of this bundle, newest first, a page at a time: the header with the New button, the
 * empty state, then (after `above`, e.g. the score chart) the table and the pager.
 */
function RunList<R extends { readonly id: string; readonly status: string }>(props: {
  readonly title: string
  readonly description: string
  readonly newHref: string
  readonly newLabel: string
  readonly load: (c: Client, cursor: string | undefined) => Promise<Page<R>>
  readonly deps: ReadonlyArray<unknown>
  readonly loadingLabel: string
  readonly empty: ComponentChildren
  readonly testId: string
  readonly caption: string
  readonly columns: ReadonlyArray<Column<R>>
  readonly above?: (runs: ReadonlyArray<R>) => ComponentChildren
}) {
  const { query, pager } = useCursorPages(props.load, props.deps)
  useRefreshWhileActive(query, query.data?.runs.some((r) => active(r.status)) ?? false)
  return (
    <div class="stack" data-testid="run-list">
      <div class="work-header">
        <div>
          <h2 class="work-title">{props.title}</h2>
          <p class="muted">{props.description}</p>
        </div>
        <a class="button button-primary" href={props.newHref}>{props.newLabel}</a>
      </div>
      <QueryView query={query} label={props.loadingLabel}>
        {({ runs }) =>
          runs.length === 0 && pager.page === 0
            ? props.empty
            : (
              <>
                {props.above?.(runs)}
                <div class="table-wrap card card-flush">
                  <table class="table" data-testid={props.testId}>
                    <caption class="visually-hidden">{props.caption}</caption>
                    <thead>
                      <tr>
                        {props.columns.map((c) => <th key={c.header} scope="col" class={c.num ? "num" : undefined}>{c.header}</th>)}
                      </tr>
                    </thead>
                    <tbody>
                      {runs.map((r) => (
                        <tr key={r.id} data-run={r.id}>
                          {props.columns.map((c) => <td key={c.header} class={c.num ? "num" : undefined} title={c.title?.(r)}>{c.cell(r)}</td>)}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                {pager.page > 0 || pager.hasOlder ? <Pager {...pager} /> : null}
              </>
            )}
      </QueryView>
    </div>
  )
}

const Credits = (props: { estimated: number; charged: number | null }) => (
  <span title={`estimated ${props.estimated}`}>{props.charged === null ? `${formatNumber(props.estimated)} (est.)` : formatNumber(props.charged)}</span>
)

/** When a run started, as "3 minutes ago" with the date on hover. */
const started: Column<{ readonly createdAt: Date }> = { header: "Started", title: (r) => formatDate(r.createdAt), cell: (r) => formatAgo(r.createdAt) }

const bundlePage = (props: WorkProps, cursor: string | undefined) => ({
  path: { artifactBundleId: props.bundle.id },
  urlParams: { limit: RUNS_PAGE, ...(cursor ? { cursor } : {}) }
})

export function AuditList(props: WorkProps) {
  return (
    <RunList<AuditRun>
      title="Audits"
      description="Each audit scores a version against a rubric, finds what to fix line by line, and proposes an improved version."
      newHref={`${props.base}/audits/new`}
      newLabel="New audit"
      load={(c, cursor) => c.audits.listAudits(bundlePage(props, cursor)).then((page) => ({ ...page, runs: page.data.auditRuns }))}
      deps={[props.bundle.id]}
      loadingLabel="Loading the audits…"
      empty={
        <EmptyState title="No audits yet">
          <p class="muted">Start one to see your artifact's score, the findings on their lines, and an improved version to apply.</p>
          <a class="button button-primary" href={`${props.base}/audits/new`}>New audit</a>
        </EmptyState>
      }
      above={(runs) => (
        <section class="card" aria-labelledby="score-title">
          <h3 id="score-title" class="card-title">Score over versions</h3>
          <ScoreChart runs={runs} />
        </section>
      )}
      testId="audit-runs"
      caption="Audits, newest first"
      columns={[
        { header: "Audit", cell: (r) => <a href={auditHref(props.base, r)}>{auditTargetLabel(r)}</a> },
        { header: "State", cell: (r) => <StateBadge state={r.status} /> },
        { header: "Score", num: true, cell: (r) => (r.overallScore === null ? "—" : <strong>{r.overallScore}</strong>) },
        { header: "Rubric", cell: (r) => <>{r.summary.rubricTitle} <span class="hint">{r.rubricVersion}</span></> },
        { header: "Model", cell: (r) => <>{r.summary.estimate.modelTier}, {r.summary.estimate.reasoningEffort}</> },
        { header: "Credits", num: true, cell: (r) => <Credits estimated={r.summary.estimate.estimatedCredits} charged={r.summary.creditCost.finalChargedCredits} /> },
        started
      ]}
    />
  )
}

export function ConversionList(props: WorkProps) {
  return (
    <RunList<Conversion>
      title="Conversions"
      description="Each conversion turns the artifact into a rubr_flow: steps an agent can follow and check, validated before it is saved."
      newHref={`${props.base}/conversions/new`}
      newLabel="Convert to rubr_flow"
      load={(c, cursor) => c.conversions.listConversions(bundlePage(props, cursor)).then((page) => ({ ...page, runs: page.data.conversions }))}
      deps={[props.bundle.id]}
      loadingLabel="Loading the conversions…"
      empty={<EmptyState title="No conversions yet"><p class="muted">Convert the main artifact, one file, or the whole bundle.</p></EmptyState>}
      testId="conversion-runs"
      caption="Conversions, newest first"
      columns={[
        {
          header: "Conversion",
          cell: (r) => (
            <a href={`${props.base}/conversions/${r.id}`}>
              {r.summary.target.targetMode === "file" ? `${r.summary.target.targetFilePath} v${r.summary.target.targetFileVersionNumber}` : `whole bundle v${r.summary.target.artifactBundleVersionNumber}`}
            </a>
          )
        },
        { header: "State", cell: (r) => <StateBadge state={r.status} /> },
        { header: "Output", cell: (r) => <code>{r.outputPath}</code> },
        { header: "Coverage", num: true, cell: (r) => (r.sourceMapping.coverage === null ? "—" : `${Math.round(r.sourceMapping.coverage * 100)}%`) },
        { header: "Credits", num: true, cell: (r) => <Credits estimated={r.estimatedCredits} charged={r.finalChargedCredits} /> },
        started
      ]}
    />
  )
}

export const deltaText = (delta: number | null) => (delta === null ? "—" : `${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${formatNumber(Math.abs(Math.round(delta * 10) / 10))}`)

export function EvalList(props: WorkProps) {
  return (
    <RunList<EvalRun>
      title="Evals"
      description="Each eval runs the same test cases on two versions and judges both: what improved, what regressed."
      newHref={`${props.base}/evals/new`}
      newLabel="New eval"
      load={(c, cursor) => c.evals.listEvals(bundlePage(props, cursor)).then((page) => ({ ...page, runs: page.data.evalRuns }))}
      deps={[props.bundle.id]}
      loadingLabel="Loading the evals…"
      empty={<EmptyState title="No evals yet"><p class="muted">Compare the first version of your artifact with the latest, or any two versions.</p></EmptyState>}
      testId="eval-runs"
      caption="Evals, newest first"
      columns={[
        {
          header: "Versions",
          cell: (r) => (
            <a href={`${props.base}/evals/${r.id}`}>
              {r.summary.target.sourceFilePath} v{r.summary.target.sourceFileVersionNumber} → {r.summary.target.candidateFilePath === r.summary.target.sourceFilePath ? "" : `${r.summary.target.candidateFilePath} `}v{r.summary.target.candidateFileVersionNumber}
            </a>
          )
        },
        { header: "State", cell: (r) => <StateBadge state={r.status} /> },
        { header: "Passed", num: true, cell: (r) => (r.status === "completed" ? `${r.passCount}/${r.scenarioCount}` : "—") },
        { header: "Score Δ", num: true, cell: (r) => deltaText(r.scoreDelta) },
        { header: "Credits", num: true, cell: (r) => <Credits estimated={r.estimatedCredits} charged={r.finalChargedCredits} /> },
        started
      ]}
    />
  )
}

export function ProofList(props: WorkProps) {
  return (
    <RunList<ProofReport>
      title="Proof reports"
      description="Signed evidence of an eval, bound to the exact bytes of both versions; verifiable by anyone with the service's public keys."
      newHref={`${props.base}/proof-reports/new`}
      newLabel="New proof report"
      load={(c, cursor) => c.proofReports.listProofReports(bundlePage(props, cursor)).then((page) => ({ ...page, runs: page.data.proofReports }))}
      deps={[props.bundle.id]}
      loadingLabel="Loading the proof reports…"
      empty={<EmptyState title="No proof reports yet"><p class="muted">Run an eval, then sign its result as a proof report.</p></EmptyState>}
      testId="proof-runs"
      caption="Proof reports, newest first"
      columns={[
        { header: "Report", cell: (r) => <a href={`${props.base}/proof-reports/${r.id}`}>Report {r.id.slice(0, 8)}</a> },
        { header: "State", cell: (r) => <StateBadge state={r.status} /> },
        { header: "Signed with", cell: (r) => (r.signature ? <code>{r.signature.alg} · {r.signature.kid.slice(0, 12)}…</code> : "—") },
        { header: "Export", cell: (r) => (r.export ? r.export.provider : r.exportFailure ? `not stored (${r.exportFailure.reason})` : "—") },
        { ...started, header: "Created" }
      ]}
    />
  )
}
