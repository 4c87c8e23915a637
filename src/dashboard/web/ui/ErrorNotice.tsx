/**
 * Every failure the service or the network reports, the way a person can act on it: what happened,
 * the envelope's message, what to do (credits for a 402, the wait for a 429, retry for a network
 * failure), and the requestId to quote, copyable.
 */
import { useEffect, useState } from "preact/hooks"
import type { RubrError } from "rubr/client"
import { CopyButton } from "./CopyButton.js"

const TITLES: Record<string, string> = {
  network_error: "Can't reach rubr",
  credit_limit_exceeded: "Not enough credits",
  rate_limit_exceeded: "Too many requests",
  usage_limit_exceeded: "Daily usage cap reached",
  ai_circuit_breaker_open: "AI work is paused",
  service_unavailable: "The service is unavailable",
  forbidden: "Not allowed",
  not_found: "Not found",
  validation_failed: "Check what you entered",
  conflict: "That conflicts with the current state",
  unauthorized: "You are signed out",
  internal_error: "Something went wrong on our side",
  invalid_response: "Unexpected answer from the service",
  http_error: "Unexpected answer from the service"
}

/** The wait a 429 asks for: its Retry-After header, else the envelope's details. */
export const retryAfterOf = (error: RubrError): number | null => {
  if (typeof error.retryAfterSeconds === "number") return error.retryAfterSeconds
  for (const d of error.details) {
    const v = (d as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds
    if (typeof v === "number") return v
  }
  return null
}

const useCountdown = (seconds: number | null) => {
  const [left, setLeft] = useState(seconds ?? 0)
  useEffect(() => {
    if (seconds === null || seconds <= 0) return
    const until = Date.now() + seconds * 1000
    setLeft(seconds)
    const timer = setInterval(() => {
      const s = Math.max(0, Math.ceil((until - Date.now()) / 1000))
      setLeft(s)
      if (s === 0) clearInterval(timer)
    }, 250)
    return () => clearInterval(timer)
  }, [seconds])
  return left
}

function Advice({ error, wait }: { error: RubrError; wait: number }) {
  switch (error.code) {
    case "network_error":
      return <p>Check your connection, or whether the service is still running, then retry. Nothing you typed was lost.</p>
    case "credit_limit_exceeded":
    case "usage_limit_exceeded":
      return (
        <p>
          See your balance, the ledger and the limits on the <a href="/credits">Credits page</a>.
        </p>
      )
    case "rate_limit_exceeded":
      return <p>{wait > 0 ? `Wait ${wait} s, then retry.` : "You can retry now."}</p>
    case "ai_circuit_breaker_open":
      return <p>New audits, conversions and evals are paused for now; reading and editing files still works.</p>
    case "internal_error":
      return <p>Quote the request ID below when you report it.</p>
    case "validation_failed":
      return error.details.length > 0
        ? (
          <ul class="notice-details">
            {error.details.map((d, i) => {
              const item = d as { path?: unknown; message?: unknown }
              return (
                <li key={i}>
                  {typeof item.path === "string" && item.path !== "" ? <code>{item.path}</code> : null} {String(item.message ?? JSON.stringify(d))}
                </li>
              )
            })}
          </ul>
        )
        : null
    default:
      return null
  }
}

export function ErrorNotice(props: { error: RubrError; onRetry?: (() => void) | undefined; title?: string }) {
  const { error } = props
  const wait = useCountdown(error.code === "rate_limit_exceeded" ? retryAfterOf(error) : null)
  const retryable = props.onRetry && ["network_error", "rate_limit_exceeded", "service_unavailable", "http_error", "internal_error"].includes(error.code)
  return (
    <div class="notice notice-error" role="alert" data-error-code={error.code}>
      <p class="notice-title">{props.title ?? TITLES[error.code] ?? "Something went wrong"}</p>
      <p class="notice-message">{error.message}</p>
      <Advice error={error} wait={wait} />
      <div class="notice-meta">
        {error.status !== null ? <span>HTTP {error.status} · <code>{error.code}</code></span> : <code>{error.code}</code>}
        {error.requestId
          ? (
            <span class="notice-request">
              Request ID <code data-request-id>{error.requestId}</code>
              <CopyButton text={error.requestId} label="Copy request ID" />
            </span>
          )
          : null}
      </div>
      {retryable
        ? (
          <button type="button" class="button" onClick={props.onRetry} disabled={wait > 0}>
            {wait > 0 ? `Retry in ${wait} s` : "Retry"}
          </button>
        )
        : null}
    </div>
  )
}
