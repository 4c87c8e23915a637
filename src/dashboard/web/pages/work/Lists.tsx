/**
 * A bundle's runs of each kind, newest first, each a link to its page, and the bundle's score over
 * its audits (a chart over versions: did the edits help?). Runs still going show their state and
 * refresh until they end.
 */
import type { ComponentChildren } from "preact"
import { useEffect } from "preact/hooks"
import { type Client, type Data, useQuery } from "../../api.js"
import { formatAgo, formatDate, formatNumber } from "../../ui/format.js"
import { EmptyState, QueryView } from "../../ui/Page.js"
import { StateBadge } from "./JobProgress.js"
import { auditHref } from "../loaders.js"
import { POLL_MS } from "./useJob.js"
import type { WorkProps } from "./Start.js"

export type AuditRun = Data<Client["audits"]["listAudits"]>["auditRuns"][number]

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
  const top = 14
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
  const summary = points.length === 1
    ? `One audit so far: ${last} of 100 at ${auditTargetLabel(points[0]!)}.`
    : `${points.length} audits, from ${first} to ${last} of 100 (${last - first >= 0 ? "+" : ""}${last - first}); latest at ${auditTargetLabel(points.at(-1)!)}.`
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

function ListPage(props: { title: string; description: string; newHref: string; newLabel: string; children: ComponentChildren }) {
  return (
    <div class="stack" data-testid="run-list">
      <div class="work-header">
        <div>
          <h2 class="work-title">{props.title}</h2>
          <p class="muted">{props.description}</p>
        </div>
        <a class="button button-primary" href={props.newHref}>{props.newLabel}</a>
      </div>
      {props.children}
    </div>
  )
}

const Credits = (props: { estimated: number; charged: number | null }) => (
  <span title={`estimated ${props.estimated}`}>{props.charged === null ? `${formatNumber(props.estimated)} (est.)` : formatNumber(props.charged)}</span>
)

export function AuditList(props: WorkProps) {
  const runs = useQuery((c) => c.audits.listAudits({ path: { artifactBundleId: props.bundle.id }, urlParams: { limit: 100 } }), [props.bundle.id])
  useRefreshWhileActive(runs, runs.data?.data.auditRuns.some((r) => active(r.status)) ?? false)
  return (
    <ListPage
      title="Audits"
      description="Each audit scores a version against a rubric, finds what to fix line by line, and proposes an improved version."
      newHref={`${props.base}/audits/new`}
      newLabel="New audit"
    >
      <QueryView query={runs} label="Loading the audits…">
        {({ data }) =>
          data.auditRuns.length === 0
            ? (
              <EmptyState title="No audits yet">
                <p class="muted">Start one to see your artifact's score, the findings on their lines, and an improved version to apply.</p>
                <a class="button button-primary" href={`${props.base}/audits/new`}>New audit</a>
              </EmptyState>
            )
            : (
              <>
                <section class="card" aria-labelledby="score-title">
                  <h3 id="score-title" class="card-title">Score over versions</h3>
                  <ScoreChart runs={data.auditRuns} />
                </section>
                <div class="table-wrap card card-flush">
                  <table class="table" data-testid="audit-runs">
                    <caption class="visually-hidden">Audits, newest first</caption>
                    <thead>
                      <tr>
                        <th scope="col">Audit</th>
                        <th scope="col">State</th>
                        <th scope="col" class="num">Score</th>
                        <th scope="col">Rubric</th>
                        <th scope="col">Model</th>
                        <th scope="col" class="num">Credits</th>
                        <th scope="col">Started</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.auditRuns.map((r) => (
                        <tr key={r.id} data-run={r.id}>
                          <td><a href={auditHref(props.base, r)}>{auditTargetLabel(r)}</a></td>
                          <td><StateBadge state={r.status} /></td>
                          <td class="num">{r.overallScore === null ? "—" : <strong>{r.overallScore}</strong>}</td>
                          <td>{r.summary.rubricTitle} <span class="hint">{r.rubricVersion}</span></td>
                          <td>{r.summary.estimate.modelTier}, {r.summary.estimate.reasoningEffort}</td>
                          <td class="num"><Credits estimated={r.summary.estimate.estimatedCredits} charged={r.summary.creditCost.finalChargedCredits} /></td>
                          <td title={formatDate(r.createdAt)}>{formatAgo(r.createdAt)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </>
            )}
      </QueryView>
    </ListPage>
  )
}

export function ConversionList(props: WorkProps) {
  const runs = useQuery((c) => c.conversions.listConversions({ path: { artifactBundleId: props.bundle.id }, urlParams: { limit: 100 } }), [props.bundle.id])
  useRefreshWhileActive(runs, runs.data?.data.conversions.some((r) => active(r.status)) ?? false)
  return (
    <ListPage
      title="Conversions"
      description="Each conversion turns the artifact into a rubr_flow: steps an agent can follow and check, validated before it is saved."
      newHref={`${props.base}/conversions/new`}
      newLabel="Convert to rubr_flow"
    >
      <QueryView query={runs} label="Loading the conversions…">
        {({ data }) =>
          data.conversions.length === 0
            ? <EmptyState title="No conversions yet"><p class="muted">Convert the main artifact, one file, or the whole bundle.</p></EmptyState>
            : (
              <div class="table-wrap card card-flush">
                <table class="table" data-testid="conversion-runs">
                  <caption class="visually-hidden">Conversions, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Conversion</th>
                      <th scope="col">State</th>
                      <th scope="col">Output</th>
                      <th scope="col" class="num">Coverage</th>
                      <th scope="col" class="num">Credits</th>
                      <th scope="col">Started</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.conversions.map((r) => (
                      <tr key={r.id} data-run={r.id}>
                        <td>
                          <a href={`${props.base}/conversions/${r.id}`}>
                            {r.summary.target.targetMode === "file" ? `${r.summary.target.targetFilePath} v${r.summary.target.targetFileVersionNumber}` : `whole bundle v${r.summary.target.artifactBundleVersionNumber}`}
                          </a>
                        </td>
                        <td><StateBadge state={r.status} /></td>
                        <td><code>{r.outputPath}</code></td>
                        <td class="num">{r.sourceMapping.coverage === null ? "—" : `${Math.round(r.sourceMapping.coverage * 100)}%`}</td>
                        <td class="num"><Credits estimated={r.estimatedCredits} charged={r.finalChargedCredits} /></td>
                        <td title={formatDate(r.createdAt)}>{formatAgo(r.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
      </QueryView>
    </ListPage>
  )
}

export const deltaText = (delta: number | null) => (delta === null ? "—" : `${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${formatNumber(Math.abs(Math.round(delta * 10) / 10))}`)

export function EvalList(props: WorkProps) {
  const runs = useQuery((c) => c.evals.listEvals({ path: { artifactBundleId: props.bundle.id }, urlParams: { limit: 100 } }), [props.bundle.id])
  useRefreshWhileActive(runs, runs.data?.data.evalRuns.some((r) => active(r.status)) ?? false)
  return (
    <ListPage
      title="Evals"
      description="Each eval runs the same test cases on two versions and judges both: what improved, what regressed."
      newHref={`${props.base}/evals/new`}
      newLabel="New eval"
    >
      <QueryView query={runs} label="Loading the evals…">
        {({ data }) =>
          data.evalRuns.length === 0
            ? <EmptyState title="No evals yet"><p class="muted">Compare the first version of your artifact with the latest, or any two versions.</p></EmptyState>
            : (
              <div class="table-wrap card card-flush">
                <table class="table" data-testid="eval-runs">
                  <caption class="visually-hidden">Evals, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Versions</th>
                      <th scope="col">State</th>
                      <th scope="col" class="num">Passed</th>
                      <th scope="col" class="num">Score Δ</th>
                      <th scope="col" class="num">Credits</th>
                      <th scope="col">Started</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.evalRuns.map((r) => (
                      <tr key={r.id} data-run={r.id}>
                        <td>
                          <a href={`${props.base}/evals/${r.id}`}>
                            {r.summary.target.sourceFilePath} v{r.summary.target.sourceFileVersionNumber} → {r.summary.target.candidateFilePath === r.summary.target.sourceFilePath ? "" : `${r.summary.target.candidateFilePath} `}v{r.summary.target.candidateFileVersionNumber}
                          </a>
                        </td>
                        <td><StateBadge state={r.status} /></td>
                        <td class="num">{r.status === "completed" ? `${r.passCount}/${r.scenarioCount}` : "—"}</td>
                        <td class="num">{deltaText(r.scoreDelta)}</td>
                        <td class="num"><Credits estimated={r.estimatedCredits} charged={r.finalChargedCredits} /></td>
                        <td title={formatDate(r.createdAt)}>{formatAgo(r.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
      </QueryView>
    </ListPage>
  )
}

export function ProofList(props: WorkProps) {
  const runs = useQuery((c) => c.proofReports.listProofReports({ path: { artifactBundleId: props.bundle.id }, urlParams: { limit: 100 } }), [props.bundle.id])
  useRefreshWhileActive(runs, runs.data?.data.proofReports.some((r) => active(r.status)) ?? false)
  return (
    <ListPage
      title="Proof reports"
      description="Signed evidence of an eval, bound to the exact bytes of both versions; verifiable by anyone with the service's public keys."
      newHref={`${props.base}/proof-reports/new`}
      newLabel="New proof report"
    >
      <QueryView query={runs} label="Loading the proof reports…">
        {({ data }) =>
          data.proofReports.length === 0
            ? <EmptyState title="No proof reports yet"><p class="muted">Run an eval, then sign its result as a proof report.</p></EmptyState>
            : (
              <div class="table-wrap card card-flush">
                <table class="table" data-testid="proof-runs">
                  <caption class="visually-hidden">Proof reports, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Report</th>
                      <th scope="col">State</th>
                      <th scope="col">Signed with</th>
                      <th scope="col">Export</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.proofReports.map((r) => (
                      <tr key={r.id} data-run={r.id}>
                        <td><a href={`${props.base}/proof-reports/${r.id}`}>Report {r.id.slice(0, 8)}</a></td>
                        <td><StateBadge state={r.status} /></td>
                        <td>{r.signature ? <code>{r.signature.alg} · {r.signature.kid.slice(0, 12)}…</code> : "—"}</td>
                        <td>{r.export ? r.export.provider : r.exportFailure ? `not stored (${r.exportFailure.reason})` : "—"}</td>
                        <td title={formatDate(r.createdAt)}>{formatAgo(r.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
      </QueryView>
    </ListPage>
  )
}
