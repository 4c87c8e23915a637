/**
 * List parameters shared by every list route: `limit` (default 50, 1..200 by default, both
 * configurable) and `offset` (>= 0). Out-of-range values are a 400, never silently clamped.
 */
import { Effect, Schema } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import { ValidationFailed } from "../domain/Errors.js"
import type { Pagination } from "./Envelope.js"

/** An integer in a query string or path segment. */
export const IntFromString = Schema.NumberFromString.pipe(Schema.int())

export const LimitParam = Schema.Struct({
  limit: Schema.optional(IntFromString.annotations({ description: "page size, 1..200 (default 50)" }))
})
export const LimitOffsetParams = Schema.Struct({
  limit: Schema.optional(IntFromString.annotations({ description: "page size, 1..200 (default 50)" })),
  offset: Schema.optional(IntFromString.annotations({ description: "rows to skip, >= 0 (default 0)" }))
})

/** `limit` and `cursor`: the list parameters of the run lists (audits, conversions, evals, proof reports). */
export const CursorPageParams = Schema.Struct({
  limit: Schema.optional(IntFromString.annotations({ description: "page size, 1..200 (default 50)" })),
  cursor: Schema.optional(Schema.String.annotations({ description: "nextCursor of the previous page" }))
})

/** The path of every bundle-scoped route. */
export const BundlePath = Schema.Struct({ artifactBundleId: Schema.UUID })

export interface Page {
  readonly limit: number
  readonly offset: number
}

export const resolvePage = (params: { readonly limit?: number | undefined; readonly offset?: number | undefined }) =>
  Effect.gen(function*() {
    const { pageLimitDefault, pageLimitMax } = (yield* AppConfig).limits
    const limit = params.limit ?? pageLimitDefault
    const offset = params.offset ?? 0
    if (limit < 1 || limit > pageLimitMax) {
      return yield* ValidationFailed.at("limit", `must be between 1 and ${pageLimitMax}`)
    }
    if (offset < 0) return yield* ValidationFailed.at("offset", "must be 0 or more")
    return { limit, offset } satisfies Page
  })

/** Fetch limit + 1 rows, then call this: it trims the extra row and fills nextOffset/nextCursor. */
export const paginate = <A>(rows: ReadonlyArray<A>, page: Page, cursorOf?: (last: A) => string) => {
  const hasMore = rows.length > page.limit
  const items = hasMore ? rows.slice(0, page.limit) : rows
  const pagination: Pagination = {
    limit: page.limit,
    offset: page.offset,
    nextOffset: hasMore ? page.offset + page.limit : null,
    nextCursor: hasMore ? (cursorOf ? cursorOf(items[items.length - 1]) : String(page.offset + page.limit)) : null
  }
  return { items, pagination }
}

/**
 * Keyset cursors over (createdAt, id), newest first: the cursor names the last row of a page, so a
 * page never repeats or skips rows when new ones arrive.
 */
export const createdAtCursor = {
  encode: (row: { readonly createdAt: Date; readonly id: string }) =>
    Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url"),
  decode: (cursor: string | undefined) =>
    Effect.gen(function*() {
      if (cursor === undefined) return undefined
      const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|")
      const date = new Date(at ?? "")
      if (Number.isNaN(date.getTime()) || !/^[0-9a-f-]{36}$/.test(id ?? "")) {
        return yield* ValidationFailed.at("cursor", "is not a cursor this list returned")
      }
      return { at: date, id: id! }
    })
}
