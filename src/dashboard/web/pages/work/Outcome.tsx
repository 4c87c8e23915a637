/**
 * How a run ended when it did not complete: failed (its error code and message, what to do next) or
 * cancelled; either way the credits that came back, each refund linked to its ledger entry.
 */
import { type Client, type Data, useQuery } from "../../api.js"
import { CopyButton } from "../../ui/CopyButton.js"
import { formatDate, formatNumber, plural } from "../../ui/format.js"

type LedgerEvent = Data<Client["credits"]["getCredits"]>["ledger"][number]

/** What to do next, by the job's error code. */
const NEXT: Record<string, string> = {
  conversion_invalid: "The issues below say what no repair could decide. Change the source (or pick another file) and convert again.",
  provider_error: "The AI provider answered with an error. Try again in a few minutes.",
  provider_timeout: "The AI provider took too long. Try again, or pick a cheaper model tier.",
  provider_unavailable: "The AI provider could not be reached. Try again in a few minutes.",
  provider_invalid_output: "The AI provider's answer was not usable. Try again; a higher tier may do better.",
  eval_failed: "The eval this report waited for did not complete. Run the eval again, then the report.",
  output_not_saved: "The result could not be saved (was the bundle archived meanwhile?). Check the bundle and start again.",
  run_missing: "The run was removed while it waited. Start it again.",
  worker_lost: "The worker running it stopped. Start it again."
}

/** The ledger's events for one run (its debit and any refund), newest first. */
export const useLedgerFor = (resourceId: string, enabled: boolean) =>
  useQuery(
    async (c): Promise<ReadonlyArray<LedgerEvent>> =>
      enabled ? (await c.credits.getCredits({ urlParams: { limit: 200 } })).data.ledger.filter((e) => e.resourceId === resourceId) : [],
    [resourceId, enabled]
  )

export function Refunds(props: { events: ReadonlyArray<LedgerEvent> | undefined }) {
  const events = props.events
  if (events === undefined) return <p class="muted">Looking up the credits…</p>
  const refunds = events.filter((e) => e.type === "refund")
  const debits = events.filter((e) => e.type === "debit")
  if (refunds.length === 0) {
    return <p data-testid="refund">{debits.length === 0 ? "No credits were charged for it." : `${plural(debits.reduce((s, e) => s + e.amount, 0), "credit")} charged; nothing refunded.`}</p>
  }
  return (
    <ul class="plain-list" data-testid="refund">
      {refunds.map((e) => (
        <li key={e.id}>
          <strong>{plural(e.amount, "credit")} refunded</strong> to your balance ({formatNumber(e.balanceAfter)} after it, {formatDate(e.createdAt)}):{" "}
          <a href={`/credits?entry=${e.id}`} data-ledger-entry={e.id}>see the ledger entry</a>
        </li>
      ))}
    </ul>
  )
}

export function Outcome(props: {
  what: string
  status: "failed" | "cancelled"
  error: { readonly code: string; readonly message: string } | null
  resourceId: string
  jobId: string
  again: { readonly href: string; readonly label: string }
}) {
  const ledger = useLedgerFor(props.resourceId, true)
  const failed = props.status === "failed"
  return (
    <section class={`notice ${failed ? "notice-error" : "notice-info"} outcome`} data-testid="outcome" data-outcome={props.status}>
      <p class="notice-title">{failed ? `The ${props.what} failed` : `The ${props.what} was cancelled`}</p>
      {failed && props.error
        ? (
          <>
            <p class="notice-message" data-testid="outcome-message">{props.error.message}</p>
            <p>{NEXT[props.error.code] ?? "Start it again; if it fails again, quote the job ID below when you report it."}</p>
          </>
        )
        : <p>It stopped before it finished; nothing it would have written was saved.</p>}
      <div class="notice-meta">
        {props.error ? <span>error <code data-testid="outcome-code">{props.error.code}</code></span> : null}
        <span class="notice-request">
          Job <code>{props.jobId}</code>
          <CopyButton text={props.jobId} label="Copy job ID" />
        </span>
      </div>
      <Refunds events={ledger.data} />
      <p>
        <a class="button" href={props.again.href}>{props.again.label}</a>
      </p>
    </section>
  )
}
