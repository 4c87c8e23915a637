/**
 * Reading run records, the same for every kind: the caller's bundle (404 otherwise), the per-bundle
 * rate limit, one run by id, and the runs of a bundle newest first with keyset pagination.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Schema } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import { PgPool } from "../db/Database.js"
import { makeRows, type RowsOf, rowsOf } from "../db/Query.js"
import { NotFound } from "../domain/Errors.js"
import { createdAtCursor, resolvePage } from "../http/Pagination.js"
import { countedRowsOf, countedSelect } from "../limits/RateLimiter.js"
import type { RunKind } from "./RunKind.js"
import type { BundleId, RunId } from "../domain/Ids.js"

export interface ListParams {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

const BundleIdRow = Schema.Struct({ id: Schema.String })
const OwnedBundleRows = rowsOf("owned bundle", BundleIdRow)
const CountedBundleRows = countedRowsOf("counted bundle", BundleIdRow)

export class RunRecords extends Effect.Service<RunRecords>()("rubr/RunRecords", {
  effect: Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const rows = makeRows(yield* PgPool)
    const limit = (yield* AppConfig).limits.rateLimitBundlePerMinute

    /** The caller's bundle exists (404 otherwise, before anything else is checked or counted). */
    const requireOwnedBundle = (userId: string, bundleId: BundleId) =>
      rows(OwnedBundleRows, sql`SELECT id FROM artifact_bundles WHERE id = ${bundleId} AND user_id = ${userId}`).pipe(
        Effect.orDie,
        Effect.flatMap((found) => (found.length > 0 ? Effect.void : Effect.fail(NotFound.of("Artifact bundle"))))
      )

    /**
     * Ownership, then the bundle's rate limit: what every start and every read of a bundle's runs starts
     * with. One statement (issue 16): the bundle is looked up and, only when it is the caller's, the
     * request is counted against the bundle's rate limit (the RateLimiter's upsert, as `Bundles` does
     * for file reads), so another user's bundle is a 404 that counts nothing.
     */
    const guardBundle = (userId: string, bundleId: BundleId) =>
      countedSelect(
        sql,
        rows,
        CountedBundleRows,
        { key: `bundle:${bundleId}`, limit, label: "bundle" },
        sql`SELECT id FROM artifact_bundles WHERE id = ${bundleId} AND user_id = ${userId}`
      ).pipe(Effect.flatMap((row) => (row ? Effect.void : Effect.fail(NotFound.of("Artifact bundle")))))

    /** One run of the caller's bundle, or 404 naming `what`. */
    const find = <Row>(
      kind: Pick<RunKind<any>, "table">,
      runRows: RowsOf<Row>,
      columns: string,
      userId: string,
      bundleId: BundleId,
      runId: RunId,
      what: string
    ) =>
      rows(runRows, sql`
        SELECT ${sql.literal(columns)} FROM ${sql(kind.table)}
        WHERE id = ${runId} AND artifact_bundle_id = ${bundleId} AND user_id = ${userId}`).pipe(
        Effect.orDie,
        Effect.flatMap((found) => (found[0] ? Effect.succeed(found[0]) : Effect.fail(NotFound.of(what))))
      )

    /** A page of a bundle's runs, newest first (the caller guarded the bundle). */
    const page = <Row extends { readonly createdAt: Date; readonly id: string }>(
      kind: Pick<RunKind<any>, "table">,
      runRows: RowsOf<Row>,
      columns: string,
      bundleId: BundleId,
      params: ListParams
    ) =>
      Effect.gen(function*() {
        const { limit } = yield* resolvePage({ limit: params.limit })
        const after = yield* createdAtCursor.decode(params.cursor)
        const found = yield* rows(runRows, sql`
          SELECT ${sql.literal(columns)} FROM ${sql(kind.table)}
          WHERE artifact_bundle_id = ${bundleId}
            ${after ? sql`AND (created_at, id) < (${after.at}, ${after.id})` : sql``}
          ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`).pipe(Effect.orDie)
        const items = found.slice(0, limit)
        return {
          items,
          pagination: {
            limit,
            offset: 0,
            nextOffset: null,
            nextCursor: found.length > limit ? createdAtCursor.encode(items[items.length - 1]!) : null
          }
        }
      })

    return { requireOwnedBundle, guardBundle, find, page } as const
  })
}) {}
