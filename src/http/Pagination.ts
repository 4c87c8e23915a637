/**
 * List parameters shared by every list route: `limit` (default 50, 1..200 by default, both
 * configurable) and `offset` (>= 0). Out-of-range values are a 400, never silently clamped.
 */
import { Effect } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import { ValidationFailed } from "../domain/Errors.js"
import type { Pagination } from "./Envelope.js"

// the list parameters' schemas live in PageParams.ts (no server imports: the SDK carries them to browsers)
export { BundlePath, CursorPageParams, IntFromString, LimitOffsetParams, LimitParam } from "./PageParams.js"

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
