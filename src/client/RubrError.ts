/**
 * The one error type of the SDK: the service's error envelope (`code`, `message`, `requestId`,
 * `details`) with the HTTP status, or a client-side failure with a code of its own:
 *
 *   network_error     no answer (connection refused, reset, DNS, timeout)
 *   http_error        an answer that is not the service's envelope (a proxy's 502, an HTML page)
 *   invalid_response  an answer the client could not decode against the contract
 *   job_failed        `waitForJob`: the job ended failed or cancelled (`details` has the job)
 */
import { Data } from "effect"

export class RubrError extends Data.TaggedError("RubrError")<{
  /** the envelope's code (`unauthorized`, `credit_limit_exceeded`, …) or a client-side code above */
  readonly code: string
  /** the HTTP status, null when there was no answer */
  readonly status: number | null
  readonly message: string
  /** the X-Request-Id of the answer, when there was one */
  readonly requestId: string | null
  readonly details: ReadonlyArray<unknown>
  /** a refused answer's `Retry-After` (429, 503), in seconds, when it sent one */
  readonly retryAfterSeconds?: number | null | undefined
}> {
  override toString() {
    return `${this.code}${this.status === null ? "" : ` (${this.status})`}: ${this.message}${this.requestId ? ` [requestId ${this.requestId}]` : ""}`
  }
}

/** Codes for which retrying later can succeed without changing the request. */
export const isTransient = (error: RubrError) =>
  error.code === "network_error" || error.code === "rate_limit_exceeded" || error.code === "service_unavailable" ||
  error.status === 502 || error.status === 503 || error.status === 504
