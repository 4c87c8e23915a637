/**
 * Credits: the balance and totals, the last 30 days as a chart of daily grants (refunds included) and
 * debits, and the ledger, filterable by type and paged. The service answers the newest 200 events
 * (GET /credits?limit=200); filter and pages work on those.
 */
import { useLocation } from "preact-iso"
import { useEffect, useMemo, useState } from "preact/hooks"
import { type Client, type Data, useQuery } from "../api.js"
import { formatDate, formatDay, formatNumber } from "../ui/format.js"
import { EmptyState, PageHeader, QueryView } from "../ui/Page.js"
import { Pager, pageOf } from "../ui/Pager.js"
import { Segmented } from "../ui/Segmented.js"

type Credits = Data<Client["credits"]["getCredits"]>
type LedgerEvent = Credits["ledger"][number]

const LEDGER_LIMIT = 200
const PAGE = 20
const DAYS = 30

/** `signup_grant` → "Signup grant" */
const humanize = (s: string) => {
  const words = s.replace(/[_-]+/g, " ").trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`

/** Per day of the last 30 (oldest first): credits in (grants and refunds) and out (debits). */
export const dailyTotals = (ledger: ReadonlyArray<LedgerEvent>, now = new Date()) => {
  const days: Array<{ date: Date; credited: number; debited: number }> = []
  for (let i = DAYS - 1; i >= 0; i--) {
    const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() - i)
    days.push({ date, credited: 0, debited: 0 })
  }
  const byKey = new Map(days.map((d) => [dayKey(d.date), d]))
  for (const event of ledger) {
    const day = byKey.get(dayKey(event.createdAt))
    if (!day) continue
    if (event.type === "debit") day.debited += event.amount
    else day.credited += event.amount
  }
  return days
}

function Chart(props: { ledger: ReadonlyArray<LedgerEvent> }) {
  const days = useMemo(() => dailyTotals(props.ledger), [props.ledger])
  const max = Math.max(1, ...days.map((d) => Math.max(d.credited, d.debited)))
  const width = 720
  const height = 180
  const margin = 24
  const slot = (width - 2 * margin) / days.length
  const bar = Math.max(3, slot / 2 - 3)
  const scale = (v: number) => (v / max) * (height - 24)
  const totalIn = days.reduce((s, d) => s + d.credited, 0)
  const totalOut = days.reduce((s, d) => s + d.debited, 0)
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${width} ${height + 22}`}
        role="img"
        aria-label={`Last 30 days: ${formatNumber(totalIn)} credits granted or refunded, ${formatNumber(totalOut)} debited.`}
      >
        <line x1={margin} x2={width - margin} y1={height} y2={height} class="chart-axis" />
        {days.map((d, i) => {
          const x = margin + i * slot + slot / 2
          return (
            <g key={i}>
              <title>{`${formatDay(d.date)}: +${d.credited} / −${d.debited}`}</title>
              {d.credited > 0 ? <rect x={x - bar - 1} y={height - scale(d.credited)} width={bar} height={scale(d.credited)} class="chart-in" rx="2" /> : null}
              {d.debited > 0 ? <rect x={x + 1} y={height - scale(d.debited)} width={bar} height={scale(d.debited)} class="chart-out" rx="2" /> : null}
              {i % 5 === 4 || i === 0 ? <text x={x} y={height + 16} class="chart-label" text-anchor="middle">{formatDay(d.date)}</text> : null}
            </g>
          )
        })}
      </svg>
      <figcaption class="chart-legend">
        <span><span class="swatch swatch-in" aria-hidden="true" /> granted and refunded ({formatNumber(totalIn)})</span>
        <span><span class="swatch swatch-out" aria-hidden="true" /> debited ({formatNumber(totalOut)})</span>
        <span class="muted">max {formatNumber(max)} a day</span>
      </figcaption>
    </figure>
  )
}

/** The ledger; `entry` (from `?entry=`, a run page's refund link) opens the page holding that event, marked. */
function Ledger(props: { ledger: ReadonlyArray<LedgerEvent>; entry: string | undefined }) {
  const [type, setType] = useState<"all" | LedgerEvent["type"]>("all")
  const [page, setPage] = useState(() => {
    const at = props.ledger.findIndex((e) => e.id === props.entry)
    return at < 0 ? 0 : Math.floor(at / PAGE)
  })
  useEffect(() => {
    if (props.entry) document.getElementById(`ledger-${props.entry}`)?.scrollIntoView({ block: "center" })
  }, [props.entry])
  const rows = props.ledger.filter((e) => type === "all" || e.type === type)
  const { shown, pages, hasOlder } = pageOf(rows, page, PAGE)
  return (
    <section class="card" aria-labelledby="ledger-title">
      <div class="card-header">
        <h2 id="ledger-title" class="card-title">Ledger</h2>
        <Segmented
          label="Filter by type"
          value={type}
          options={(["all", "grant", "debit", "refund"] as const).map((t) => [t, t === "all" ? "All" : `${t[0]!.toUpperCase()}${t.slice(1)}s`] as const)}
          onChange={(t) => {
            setType(t)
            setPage(0)
          }}
        />
      </div>
      {shown.length === 0
        ? <EmptyState title="No events of this type" />
        : (
          <div class="table-wrap">
            <table class="table" data-testid="ledger">
              <caption class="visually-hidden">Ledger events, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Type</th>
                  <th scope="col">Reason</th>
                  <th scope="col" class="num">Amount</th>
                  <th scope="col" class="num">Balance after</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((e) => (
                  <tr key={e.id} id={`ledger-${e.id}`} class={e.id === props.entry ? "row-marked" : undefined} aria-current={e.id === props.entry ? "true" : undefined}>
                    <td>{formatDate(e.createdAt)}</td>
                    <td><span class={`badge badge-${e.type}`}>{e.type}</span></td>
                    <td>
                      {humanize(e.reason)}
                      {e.resourceType && !humanize(e.reason).startsWith(humanize(e.resourceType)) ? <span class="hint"> · {humanize(e.resourceType)}</span> : null}
                      {e.resourceType && e.resourceId ? <ResourceLink resourceType={e.resourceType} resourceId={e.resourceId} /> : null}
                    </td>
                    <td class={`num amount-${e.type}`}>{e.type === "debit" ? "−" : "+"}{formatNumber(e.amount)}</td>
                    <td class="num">{formatNumber(e.balanceAfter)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      <Pager page={page} pages={pages} hasOlder={hasOlder} onPage={setPage} />
      {props.ledger.length === LEDGER_LIMIT ? <p class="hint">Showing your latest {LEDGER_LIMIT} events.</p> : null}
    </section>
  )
}

/** The run an event is about, when the page can open it (it needs the run's bundle: the jobs list has it). */
function ResourceLink(props: { resourceType: string; resourceId: string }) {
  const area = ({ audit_run: "audits", rubr_flow_conversion: "conversions", eval_run: "evals", proof_report: "proof-reports" } as Record<string, string>)[props.resourceType]
  if (!area) return null
  return <span class="hint"> · <a href={`/runs/${area}/${props.resourceId}`}>open the run</a></span>
}

export function Credits() {
  const { query } = useLocation()
  const credits = useQuery((c) => c.credits.getCredits({ urlParams: { limit: LEDGER_LIMIT } }), [])
  return (
    <div class="page">
      <PageHeader title="Credits" description="Audits, conversions and evals spend credits; every grant, debit and refund is in the ledger." />
      <QueryView query={credits} label="Loading credits…">
        {({ data }) => (
          <div class="stack">
            <div class="stats">
              <div class="stat stat-main">
                <p class="stat-label">Balance</p>
                <p class="stat-value" data-testid="balance">{formatNumber(data.balance)}</p>
                <p class="hint">credits</p>
              </div>
              <div class="stat">
                <p class="stat-label">Granted</p>
                <p class="stat-value">{formatNumber(data.totals.granted)}</p>
              </div>
              <div class="stat">
                <p class="stat-label">Debited</p>
                <p class="stat-value">{formatNumber(data.totals.debited)}</p>
              </div>
              <div class="stat">
                <p class="stat-label">Refunded</p>
                <p class="stat-value">{formatNumber(data.totals.refunded)}</p>
              </div>
            </div>
            <section class="card" aria-labelledby="chart-title">
              <h2 id="chart-title" class="card-title">Last 30 days</h2>
              <Chart ledger={data.ledger} />
            </section>
            <Ledger ledger={data.ledger} entry={query["entry"]} />
            <section class="card" aria-labelledby="limits-title">
              <h2 id="limits-title" class="card-title">Limits in force</h2>
              <dl class="facts">
                <dt>Audit pricing</dt>
                <dd>{data.limits.auditCreditMode}{data.limits.auditCreditMode === "flat" ? ` (${data.limits.auditRunCredits} credits a run)` : ""}</dd>
                <dt>Spent today</dt>
                <dd>{formatNumber(data.limits.spentTodayCredits)}{data.limits.usageCapUserCreditsPerDay !== null ? ` of ${formatNumber(data.limits.usageCapUserCreditsPerDay)} a day` : " (no daily cap)"}</dd>
                <dt>Requests</dt>
                <dd>{formatNumber(data.limits.rateLimitUserPerMinute)} a minute</dd>
                <dt>Signup grant</dt>
                <dd>{formatNumber(data.freeGrants.signupCredits)} credits</dd>
              </dl>
            </section>
          </div>
        )}
      </QueryView>
    </div>
  )
}
