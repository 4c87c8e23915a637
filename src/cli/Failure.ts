/**
 * Exit codes, as the contract fixes them, and the one failure a command ends with.
 *
 *   0 passed · 1 gates or validation failed · 2 usage or config · 3 authentication or authorization
 *   4 credits, usage limits, rate limits or the circuit breaker · 5 network, provider or server
 */
import { Data } from "effect"
import type { RubrError } from "../client/RubrError.js"

export const Exit = { passed: 0, failed: 1, usage: 2, auth: 3, blocked: 4, unavailable: 5 } as const
export type ExitCode = (typeof Exit)[keyof typeof Exit]

/** A command's end other than success: what to tell the person (stderr) and the exit code. */
export class CliFailure extends Data.TaggedError("CliFailure")<{
  readonly exitCode: ExitCode
  readonly message: string
  /** the envelope's code, when the service answered one */
  readonly code?: string | undefined
  readonly requestId?: string | null | undefined
  /** the envelope's details (a conflict names the existing run) */
  readonly details?: ReadonlyArray<unknown> | undefined
}> {}

export const usage = (message: string) => new CliFailure({ exitCode: Exit.usage, message })

/** The exit code for an error code of the service's envelope, or of the SDK. */
export const exitCodeFor = (code: string): ExitCode => {
  switch (code) {
    case "unauthorized":
    case "forbidden":
      return Exit.auth
    case "credit_limit_exceeded":
    case "usage_limit_exceeded":
    case "rate_limit_exceeded":
    case "ai_circuit_breaker_open":
      return Exit.blocked
    case "validation_failed":
    case "not_found":
    case "conflict":
    case "payload_too_large":
      return Exit.usage
    default:
      // network_error, http_error, invalid_response, internal_error, service_unavailable, job_failed, timeout
      return Exit.unavailable
  }
}

const hints: Record<string, string> = {
  unauthorized: "Check the API key (--api-key or SERVICE_API_KEY).",
  forbidden: "The API key lacks a scope this command needs; create a key with it.",
  credit_limit_exceeded: "Not enough credits: see `rubr credits`.",
  network_error: "Is the service running at --base-url (SERVICE_BASE_URL)?"
}

export const fromRubrError = (error: RubrError) =>
  new CliFailure({
    exitCode: exitCodeFor(error.code),
    message: `${error.code}: ${error.message}${error.requestId ? ` (requestId ${error.requestId})` : ""}${hints[error.code] ? `\n${hints[error.code]}` : ""}`,
    code: error.code,
    requestId: error.requestId,
    details: error.details
  })
