/**
 * Declares the error statuses an endpoint lists in the contract (they appear in the OpenAPI document)
 * and lets its handler fail with any typed ApiError: the error middleware encodes every one of them.
 */
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type { Schema } from "effect"
import * as E from "../domain/Errors.js"

const byStatus: Record<number, ReadonlyArray<Schema.Schema.Any>> = {
  400: [E.ValidationFailedResponse],
  401: [E.UnauthorizedResponse],
  402: [E.CreditLimitExceededResponse],
  403: [E.ForbiddenResponse],
  404: [E.NotFoundResponse],
  409: [E.ConflictResponse],
  413: [E.PayloadTooLargeResponse],
  429: [E.RateLimitExceededResponse, E.UsageLimitExceededResponse],
  503: [E.AiCircuitBreakerOpenResponse, E.ServiceUnavailableResponse]
}

type WithApiErrors<Ep> = Ep extends HttpApiEndpoint.HttpApiEndpoint<
  infer Name,
  infer Method,
  infer Path,
  infer UrlParams,
  infer Payload,
  infer Headers,
  infer Success,
  infer Error,
  infer R,
  infer RE
> ? HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error | E.ApiError, R, RE>
  : never

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 429 | 503

export const statuses = (...codes: ReadonlyArray<ErrorStatus>) =>
<Ep extends HttpApiEndpoint.HttpApiEndpoint.Any>(endpoint: Ep): WithApiErrors<Ep> => {
  let current: any = endpoint
  for (const code of codes) {
    for (const schema of byStatus[code]) current = current.addError(schema)
  }
  return current
}
