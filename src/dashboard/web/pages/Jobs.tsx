/**
 * Every job of yours, newest first, across bundles, a page at a time: what is queued or running now
 * (its phase and percent, refreshed every second while any is active, and Cancel), and what ended.
 * Each links to its run's page.
 */
import { useLocation, useRoute } from "preact-iso"
import { useEffect, useState } from "preact/hooks"
import { type Client, type Data, useAction, useQuery } from "../api.js"
import { ErrorNotice } from "../ui/ErrorNotice.js"
import { formatAgo, formatDate } from "../ui/format.js"
import { EmptyState, PageHeader, QueryView } from "../ui/Page.js"
import { Pager, useCursorPages } from "../ui/Pager.js"
import { toast } from "../ui/Toasts.js"
import { ProgressBar, StateBadge } from "./work/JobProgress.js"
import { isActive, phaseLabel } from "./work/useJob.js"
import { Segmented } from "../ui/Segmented.js"

type Job = Data<Client["jobs"]["listJobs"]>["jobs"][number]

const KINDS: Record<string, { label: string; area: string }> = {
  audit: { label: "Audit", area: "audits" },
  rubr_flow_conversion: { label: "Conversion", area: "conversions" },
  eval: { label: "Eval", area: "evals" },
  proof_report: { label: "Proof report", area: "proof-reports" }
}

export const runHref = (job: Pick<Job, "kind" | "artifactBundleId" | "resourceId">) =>
  `/bundles/${job.artifactBundleId}/${KINDS[job.kind]?.area ?? "audits"}/${job.resourceId}`

const FILTERS = [["all", "All"], ["active", "Active"], ["ended", "Ended"], ["failed", "Failed"]] as const
type Filter = (typeof FILTERS)[number][0]

/** One job: what it runs and on which bundle, its state, its progress or how it ended, and Cancel while it runs. */
function JobRow(props: { job: Job; bundleName: string | undefined; onCancel: () => void }) {
  const j = props.job
  return (
    <tr data-job={j.id} data-state={j.state}>
      <td><a href={runHref(j)}>{KINDS[j.kind]?.label ?? j.kind}</a> <span class="hint">{j.resourceId.slice(0, 8)}</span></td>
      <td>{props.bundleName ?? <span class="muted">…</span>}</td>
      <td><StateBadge state={j.state} /></td>
      <td class="job-progress-cell">
        {isActive(j.state)
          ? (
            <div class="job-progress-inner">
              <ProgressBar percent={j.percent} label={`${KINDS[j.kind]?.label ?? j.kind} progress`} />
              <span class="hint">{phaseLabel(j.phase)} · {Math.round(j.percent)}% · {j.message}</span>
            </div>
          )
          : (
            <span class="hint">
              {j.error ? <><code>{j.error.code}</code> {j.error.message}</> : j.state === "completed" ? `Finished ${formatAgo(j.finishedAt ?? j.updatedAt)}` : j.message}
            </span>
          )}
      </td>
      <td title={formatDate(j.createdAt)}>{formatAgo(j.createdAt)}</td>
      <td class="cell-actions">
        {isActive(j.state)
          ? (
            <button
              type="button"
              class="button button-small button-danger-quiet"
              aria-label={`Cancel ${KINDS[j.kind]?.label ?? j.kind} ${j.resourceId.slice(0, 8)}`}
              onClick={props.onCancel}
            >
              Cancel
            </button>
          )
          : null}
      </td>
    </tr>
  )
}

export function Jobs() {
  const [filter, setFilter] = useState<Filter>("all")
  const { query: jobs, pager, reset } = useCursorPages(
    (c, cursor) => c.jobs.listJobs({ urlParams: { limit: 100, ...(filter === "all" ? {} : { state: filter }), ...(cursor ? { cursor } : {}) } }),
    [filter]
  )
  const bundles = useQuery((c) => c.artifactBundles.list({ urlParams: { limit: 200, status: "all" } }), [])
  const names = new Map((bundles.data?.data.artifactBundles ?? []).map((b) => [b.id, b.name]))
  const cancel = useAction((c, jobId: string) => c.jobs.cancelJob({ path: { jobId } }))
  const anyActive = jobs.data?.data.jobs.some((j) => isActive(j.state)) ?? false
  useEffect(() => {
    if (!anyActive) return
    const timer = setTimeout(() => void jobs.reload(), 1000)
    return () => clearTimeout(timer)
  }, [anyActive, jobs.data])
  return (
    <div class="page page-wide">
      <PageHeader title="Jobs" description="Audits, conversions, evals and proof reports run as jobs. Here are yours, newest first; running ones update as they go." />
      <div class="toolbar">
        <Segmented
          label="Show jobs"
          value={filter}
          options={FILTERS}
          onChange={(value) => {
            setFilter(value)
            reset()
          }}
        />
        {anyActive ? <span class="muted live-dot">Updating every second</span> : null}
      </div>
      {cancel.error ? <ErrorNotice error={cancel.error} /> : null}
      <QueryView query={jobs} label="Loading your jobs…">
        {({ data }) =>
          data.jobs.length === 0
            ? (
              <EmptyState title={filter === "all" ? "No jobs yet" : "No jobs here"}>
                <p class="muted">Start an audit, a conversion or an eval from one of your <a href="/bundles">bundles</a>.</p>
              </EmptyState>
            )
            : (
              <div class="table-wrap card card-flush">
                <table class="table jobs-table" data-testid="jobs">
                  <caption class="visually-hidden">Your jobs, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Job</th>
                      <th scope="col">Bundle</th>
                      <th scope="col">State</th>
                      <th scope="col">Progress</th>
                      <th scope="col">Started</th>
                      <th scope="col"><span class="visually-hidden">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.jobs.map((j) => (
                      <JobRow
                        key={j.id}
                        job={j}
                        bundleName={names.get(j.artifactBundleId)}
                        onCancel={async () => {
                          if (await cancel.run(j.id)) {
                            toast("Cancelled. Unused credits go back to your balance.")
                            void jobs.reload()
                          }
                        }}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
      </QueryView>
      {pager.page > 0 || pager.hasOlder ? <Pager {...pager} /> : null}
    </div>
  )
}

/**
 * `/runs/:area/:runId`: a run named without its bundle (the ledger knows a run's id, not its bundle).
 * Its job says where it lives; the page goes there.
 */
export function RunRedirect() {
  const { params } = useRoute()
  const { route } = useLocation()
  const found = useQuery(async (c) => {
    let cursor: string | undefined
    for (let page = 0; page < 10; page++) {
      const { data } = await c.jobs.listJobs({ urlParams: { limit: 200, ...(cursor ? { cursor } : {}) } })
      const job = data.jobs.find((j) => j.resourceId === params["runId"])
      if (job) return job
      if (!data.pagination.nextCursor) break
      cursor = data.pagination.nextCursor
    }
    return null
  }, [params["runId"]])
  useEffect(() => {
    if (found.data) route(runHref(found.data), true)
  }, [found.data])
  return (
    <div class="page">
      {found.error ? <ErrorNotice error={found.error} onRetry={found.reload} /> : null}
      {found.data === null
        ? (
          <EmptyState title="Run not found">
            <p class="muted">It may have been deleted with its bundle.</p>
            <a class="button" href="/jobs">Your jobs</a>
          </EmptyState>
        )
        : <p class="muted">Opening the run…</p>}
    </div>
  )
}
