/**
 * Declares the error statuses an endpoint lists in the contract (they appear in the OpenAPI document),
 * and so the errors its handler may fail with: a handler failing with an error its endpoint does not
 * list does not compile. (401 and 403 come from the authentication middleware, 400 also from decoding.)
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

/** The typed errors each listed status stands for. */
type ErrorOf<S extends ErrorStatus> =
  | (S extends 400 ? E.ValidationFailed : never)
  | (S extends 401 ? E.Unauthorized : never)
  | (S extends 402 ? E.CreditLimitExceeded : never)
  | (S extends 403 ? E.Forbidden : never)
  | (S extends 404 ? E.NotFound : never)
  | (S extends 409 ? E.Conflict : never)
  | (S extends 413 ? E.PayloadTooLarge : never)
  | (S extends 429 ? E.RateLimitExceeded | E.UsageLimitExceeded : never)
  | (S extends 503 ? E.AiCircuitBreakerOpen | E.ServiceUnavailable : never)

type WithErrors<Ep, Err> = Ep extends HttpApiEndpoint.HttpApiEndpoint<
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
> ? HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error | Err, R, RE>
  : never

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 429 | 503

export const statuses = <const S extends ReadonlyArray<ErrorStatus>>(...codes: S) =>
<Ep extends HttpApiEndpoint.HttpApiEndpoint.Any>(endpoint: Ep): WithErrors<Ep, ErrorOf<S[number]>> => {
  let current: any = endpoint
  for (const code of codes) {
    for (const schema of byStatus[code]) current = current.addError(schema)
  }
  return current
}
