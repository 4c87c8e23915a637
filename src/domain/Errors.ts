/**
 * The typed errors of the API. Each class carries its wire code and HTTP status; its `Response` schema
 * encodes an instance as the one error envelope `{error:{code, message, requestId, details}}`, so the
 * OpenAPI document shows exactly what clients receive.
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { Effect, ParseResult, Schema } from "effect"
import { currentRequestId } from "./RequestId.js"

export const ErrorDetail = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  description: "For validation_failed: {path, message}; other codes may add context fields"
})
export type ErrorDetail = typeof ErrorDetail.Type

const fields = {
  message: Schema.String,
  details: Schema.optionalWith(Schema.Array(ErrorDetail), { default: () => [] }),
  /** set on errors a client decoded from an envelope; the server stamps the current request's id instead */
  requestId: Schema.optional(Schema.String)
}

export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", fields) {
  static readonly code = "validation_failed"
  static readonly status = 400
  static of(message: string, details: ReadonlyArray<ErrorDetail> = []) {
    return new ValidationFailed({ message, details })
  }
  static at(path: string, message: string) {
    return new ValidationFailed({ message: `${path}: ${message}`, details: [{ path, message }] })
  }
}
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", fields) {
  static readonly code = "unauthorized"
  static readonly status = 401
}
export class CreditLimitExceeded extends Schema.TaggedError<CreditLimitExceeded>()("CreditLimitExceeded", fields) {
  static readonly code = "credit_limit_exceeded"
  static readonly status = 402
}
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", fields) {
  static readonly code = "forbidden"
  static readonly status = 403
}
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", fields) {
  static readonly code = "not_found"
  static readonly status = 404
  static of(what: string) {
    return new NotFound({ message: `${what} not found` })
  }
}
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", fields) {
  static readonly code = "method_not_allowed"
  static readonly status = 405
}
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", fields) {
  static readonly code = "conflict"
  static readonly status = 409
}
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", fields) {
  static readonly code = "payload_too_large"
  static readonly status = 413
}
export class RateLimitExceeded extends Schema.TaggedError<RateLimitExceeded>()("RateLimitExceeded", {
  ...fields,
  retryAfterSeconds: Schema.optionalWith(Schema.Number, { default: () => 60 })
}) {
  static readonly code = "rate_limit_exceeded"
  static readonly status = 429
}
export class UsageLimitExceeded extends Schema.TaggedError<UsageLimitExceeded>()("UsageLimitExceeded", fields) {
  static readonly code = "usage_limit_exceeded"
  static readonly status = 429
}
export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", fields) {
  static readonly code = "internal_error"
  static readonly status = 500
}
export class AiCircuitBreakerOpen extends Schema.TaggedError<AiCircuitBreakerOpen>()("AiCircuitBreakerOpen", fields) {
  static readonly code = "ai_circuit_breaker_open"
  static readonly status = 503
}
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", fields) {
  static readonly code = "service_unavailable"
  static readonly status = 503
}

export type ApiError =
  | ValidationFailed
  | Unauthorized
  | CreditLimitExceeded
  | Forbidden
  | NotFound
  | MethodNotAllowed
  | Conflict
  | PayloadTooLarge
  | RateLimitExceeded
  | UsageLimitExceeded
  | InternalError
  | AiCircuitBreakerOpen
  | ServiceUnavailable

export const envelopeBody = (code: string) =>
  Schema.Struct({
    error: Schema.Struct({
      code: Schema.Literal(code),
      message: Schema.String,
      requestId: Schema.String,
      details: Schema.Array(ErrorDetail)
    })
  })

type ErrorClass<E> = (new(...args: any) => E) & { readonly code: string; readonly status: number }

/** The wire schema of one error class: encodes an instance as the envelope, stamped with the request id. */
export const errorResponse = <E extends { readonly message: string; readonly details: ReadonlyArray<ErrorDetail> }>(
  Class: ErrorClass<E>
) =>
  Schema.transformOrFail(
    envelopeBody(Class.code),
    Schema.declare((u: unknown): u is E => u instanceof Class, { identifier: Class.name }),
    {
      strict: false,
      decode: (body) =>
        ParseResult.succeed(new Class({ message: body.error.message, details: body.error.details, requestId: body.error.requestId })),
      encode: (error) =>
        Effect.map(currentRequestId, (requestId) => ({
          error: { code: Class.code, message: error.message, requestId, details: error.details }
        }))
    }
  ).annotations({
    ...HttpApiSchema.annotations({ status: Class.status }),
    identifier: `Error.${Class.code}`,
    description: `${Class.status} ${Class.code}`
  })

export const ValidationFailedResponse = errorResponse(ValidationFailed)
export const UnauthorizedResponse = errorResponse(Unauthorized)
export const CreditLimitExceededResponse = errorResponse(CreditLimitExceeded)
export const ForbiddenResponse = errorResponse(Forbidden)
export const NotFoundResponse = errorResponse(NotFound)
export const MethodNotAllowedResponse = errorResponse(MethodNotAllowed)
export const ConflictResponse = errorResponse(Conflict)
export const PayloadTooLargeResponse = errorResponse(PayloadTooLarge)
export const RateLimitExceededResponse = errorResponse(RateLimitExceeded)
export const UsageLimitExceededResponse = errorResponse(UsageLimitExceeded)
export const InternalErrorResponse = errorResponse(InternalError)
export const AiCircuitBreakerOpenResponse = errorResponse(AiCircuitBreakerOpen)
export const ServiceUnavailableResponse = errorResponse(ServiceUnavailable)

/** Every error an endpoint of this API can answer with, registered once at the API level. */
export const allErrorResponses = [
  ValidationFailedResponse,
  UnauthorizedResponse,
  CreditLimitExceededResponse,
  ForbiddenResponse,
  NotFoundResponse,
  MethodNotAllowedResponse,
  ConflictResponse,
  PayloadTooLargeResponse,
  RateLimitExceededResponse,
  UsageLimitExceededResponse,
  InternalErrorResponse,
  AiCircuitBreakerOpenResponse,
  ServiceUnavailableResponse
] as const

