/** The success envelope `{data, requestId}` and the list pagination shape, shared by every group. */
import { Effect, Schema } from "effect"
import { currentRequestId } from "../domain/RequestId.js"

export const Envelope = <S extends Schema.Schema.Any>(data: S) => Schema.Struct({ data, requestId: Schema.String })

export const ok = <A>(data: A): Effect.Effect<{ readonly data: A; readonly requestId: string }> =>
  Effect.map(currentRequestId, (requestId) => ({ data, requestId }))

export const Pagination = Schema.Struct({
  limit: Schema.Int,
  offset: Schema.Int,
  nextOffset: Schema.NullOr(Schema.Int),
  nextCursor: Schema.NullOr(Schema.String)
})
export type Pagination = typeof Pagination.Type

export const Timestamp = Schema.Date.annotations({ description: "ISO 8601 UTC timestamp" })
export const NullableTimestamp = Schema.NullOr(Timestamp)
