/**
 * A running job in the page: its state, phase, percent and messages as they arrive, and Cancel. The
 * newest message is announced politely to screen readers; the log keeps every message in order.
 */
import { useAction } from "../../api.js"
import { ErrorNotice } from "../../ui/ErrorNotice.js"
import { formatAgo } from "../../ui/format.js"
import { toast } from "../../ui/Toasts.js"
import { isActive, type LiveJob, phaseLabel } from "./useJob.js"

export const STATE_LABELS: Record<string, string> = {
  queued: "Queued",
  running: "Running",
  paused: "Paused",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled"
}

export function StateBadge(props: { state: string }) {
  return <span class={`badge badge-state badge-state-${props.state}`} data-state={props.state}>{STATE_LABELS[props.state] ?? props.state}</span>
}

export function ProgressBar(props: { percent: number; label: string }) {
  const percent = Math.max(0, Math.min(100, Math.round(props.percent)))
  return (
    <div class="progress" role="progressbar" aria-label={props.label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
      {/* a style object is set through the CSSOM, which the CSP allows (a style attribute it would not) */}
      <div class="progress-fill" style={{ width: `${percent}%` }} />
    </div>
  )
}

export function JobProgress(props: { live: LiveJob; what: string }) {
  const { live } = props
  const cancel = useAction((c, jobId: string) => c.jobs.cancelJob({ path: { jobId } }))
  const now = live.now
  if (!now || !live.job) {
    return live.error ? <ErrorNotice error={live.error} /> : <div class="card job-card"><p class="muted">Reading the job…</p></div>
  }
  const active = isActive(now.state)
  const recent = live.events.filter((e) => e.message !== "").slice(-8)
  return (
    <section class="card job-card" aria-labelledby="job-title" data-testid="job-progress" data-job-state={now.state}>
      <div class="job-head">
        <div>
          <h2 id="job-title" class="card-title job-title">
            {active ? <span class="spinner" aria-hidden="true" /> : null}
            {active ? "In progress" : "Progress"} <StateBadge state={now.state} />
          </h2>
          <p class="job-phase" data-testid="job-phase">
            <strong>{phaseLabel(now.phase)}</strong> · {Math.round(now.percent)}%
            {live.job.startedAt ? <span class="muted"> · started {formatAgo(live.job.startedAt)}</span> : <span class="muted"> · waiting for a worker</span>}
            {live.job.attempts > 1 ? <span class="muted"> · attempt {live.job.attempts} of {live.job.maxAttempts}</span> : null}
          </p>
        </div>
        {active
          ? (
            <button
              type="button"
              class="button button-danger-quiet"
              disabled={cancel.busy}
              onClick={async () => {
                const answer = await cancel.run(live.job!.id)
                if (answer) {
                  live.setJob(answer.data.job)
                  toast(`Cancelled. Unused credits go back to your balance.`)
                }
              }}
            >
              {cancel.busy ? "Cancelling…" : "Cancel"}
            </button>
          )
          : null}
      </div>
      <ProgressBar percent={now.percent} label={`${props.what} progress`} />
      <p class="visually-hidden" aria-live="polite">{now.message}</p>
      {recent.length > 0
        ? (
          <ol class="job-log" data-testid="job-log">
            {recent.map((e) => (
              <li key={e.id} class={`job-log-item job-log-${e.state}`}>
                <span class="job-log-phase">{phaseLabel(e.phase)}</span>
                <span class="job-log-message">{e.message}</span>
                <span class="job-log-percent">{Math.round(e.percent)}%</span>
              </li>
            ))}
          </ol>
        )
        : null}
      {active ? <p class="hint">You can leave this page: the {props.what.toLowerCase()} keeps running, and the <a href="/jobs">Jobs page</a> follows it too.</p> : null}
      {cancel.error ? <ErrorNotice error={cancel.error} /> : null}
      {live.error ? <p class="hint">Progress paused: {live.error.message} Retrying…</p> : null}
    </section>
  )
}
