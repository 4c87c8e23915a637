/**
 * The list parameters every list route declares: `limit`, `offset`, `cursor`, and the bundle path.
 * Schemas only, importing nothing of the server, so the contract (and the SDK built from it) runs in
 * a browser; Pagination.ts resolves them against the configured limits.
 */
import { Schema } from "effect"

/** How every list's `limit` is described (the range is configurable: Pagination.ts checks it). */
export const PAGE_LIMIT_DESCRIPTION = "page size, 1..200 (default 50)"

/** An integer in a query string or path segment. */
export const IntFromString = Schema.NumberFromString.pipe(Schema.int())

export const LimitParam = Schema.Struct({
  limit: Schema.optional(IntFromString.annotations({ description: PAGE_LIMIT_DESCRIPTION }))
})
export const LimitOffsetParams = Schema.Struct({
  limit: Schema.optional(IntFromString.annotations({ description: PAGE_LIMIT_DESCRIPTION })),
  offset: Schema.optional(IntFromString.annotations({ description: "rows to skip, >= 0 (default 0)" }))
})

/** `limit` and `cursor`: the list parameters of the run lists (audits, conversions, evals, proof reports). */
export const CursorPageParams = Schema.Struct({
  limit: Schema.optional(IntFromString.annotations({ description: PAGE_LIMIT_DESCRIPTION })),
  cursor: Schema.optional(Schema.String.annotations({ description: "nextCursor of the previous page" }))
})

/** The path of every bundle-scoped route. */
export const BundlePath = Schema.Struct({ artifactBundleId: Schema.UUID })
