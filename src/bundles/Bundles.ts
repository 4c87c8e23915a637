/**
 * The use cases of a user's bundles: create, list, read, rename, archive, unarchive, delete. Ownership and the bundle lock come from Access.ts.
 */
import { Effect } from "effect"
import type { Actor } from "../auth/CurrentActor.js"
import { Conflict, NotFound } from "../domain/Errors.js"
import type { BundleId } from "../domain/Ids.js"
import { type Page, paginate } from "../http/Pagination.js"
import { bundleColumns, BundleRows } from "./Store.js"
import { BundleAccess, conflictOnDuplicate } from "./Access.js"

export class Bundles extends Effect.Service<Bundles>()("rubr/Bundles", {
  dependencies: [BundleAccess.Default],
  effect: Effect.gen(function*() {
    const { store, sql, owned, lockWritable, detailOf } = yield* BundleAccess

    const create = Effect.fn("Bundles.create")(function*(
      actor: Actor,
      input: { readonly name: string; readonly description?: string | null | undefined; readonly settings?: object | undefined }
    ) {
      const [row] = yield* store.run(BundleRows, sql`
        INSERT INTO artifact_bundles AS b (user_id, name, description, settings)
        VALUES (${actor.userId}, ${input.name}, ${input.description ?? null}, ${JSON.stringify(input.settings ?? {})}::jsonb)
        RETURNING ${sql.literal(bundleColumns)}`)
      const [bundle] = yield* store.hydrate([row])
      return bundle
    }, Effect.orDie)

    const list = Effect.fn("Bundles.list")(function*(actor: Actor, status: "active" | "archived" | "all", page: Page) {
      const rows = yield* store.run(BundleRows, sql`
        SELECT ${sql.literal(bundleColumns)} FROM artifact_bundles b
        WHERE b.user_id = ${actor.userId} ${status === "all" ? sql`` : sql`AND b.status = ${status}`}
        ORDER BY b.created_at DESC, b.id DESC
        LIMIT ${page.limit + 1} OFFSET ${page.offset}`)
      const { items, pagination } = paginate(rows, page)
      return { artifactBundles: yield* store.hydrate(items), pagination }
    }, Effect.orDie)

    const get = Effect.fn("Bundles.get")(function*(actor: Actor, bundleId: BundleId) {
      yield* owned(actor, bundleId)
      return yield* detailOf(actor.userId, bundleId).pipe(Effect.orDie)
    })

    const update = Effect.fn("Bundles.update")(function*(
      actor: Actor,
      bundleId: BundleId,
      input: { readonly name?: string | undefined; readonly description?: string | null | undefined }
    ) {
      yield* owned(actor, bundleId)
      return yield* Effect.gen(function*() {
        yield* lockWritable(actor, bundleId)
        yield* sql`
          UPDATE artifact_bundles SET
            name = ${input.name === undefined ? sql`name` : input.name},
            description = ${input.description === undefined ? sql`description` : input.description},
            updated_at = clock_timestamp()
          WHERE id = ${bundleId}`
        return yield* detailOf(actor.userId, bundleId)
      }).pipe(sql.withTransaction, conflictOnDuplicate("conflicting update"))
    })

    /** Idempotent: archiving an archived bundle answers it unchanged. */
    const archive = Effect.fn("Bundles.archive")(function*(actor: Actor, bundleId: BundleId) {
      yield* owned(actor, bundleId)
      yield* sql`UPDATE artifact_bundles SET status = 'archived', archived_at = clock_timestamp(), updated_at = clock_timestamp()
                 WHERE id = ${bundleId} AND user_id = ${actor.userId} AND status = 'active'`.pipe(Effect.orDie)
      const row = yield* store.findBundle(actor.userId, bundleId).pipe(Effect.orDie)
      if (!row) return yield* NotFound.of("Artifact bundle")
      const [bundle] = yield* store.hydrate([row]).pipe(Effect.orDie)
      return bundle
    })

    /** Idempotent: unarchiving an active bundle answers it unchanged; its files and versions are as they were. */
    const unarchive = Effect.fn("Bundles.unarchive")(function*(actor: Actor, bundleId: BundleId) {
      yield* owned(actor, bundleId)
      yield* sql`UPDATE artifact_bundles SET status = 'active', archived_at = NULL, updated_at = clock_timestamp()
                 WHERE id = ${bundleId} AND user_id = ${actor.userId} AND status = 'archived'`.pipe(Effect.orDie)
      const row = yield* store.findBundle(actor.userId, bundleId).pipe(Effect.orDie)
      if (!row) return yield* NotFound.of("Artifact bundle")
      const [bundle] = yield* store.hydrate([row]).pipe(Effect.orDie)
      return bundle
    })

    /** Only an archived bundle; the cascade removes files, versions, contents and any run history. */
    const deletePermanently = Effect.fn("Bundles.deletePermanently")(function*(actor: Actor, bundleId: BundleId) {
      yield* owned(actor, bundleId)
      return yield* Effect.gen(function*() {
        const row = yield* store.lockBundle(actor.userId, bundleId)
        if (!row) return yield* NotFound.of("Artifact bundle")
        if (row.status !== "archived") {
          return yield* new Conflict({
            message: "Archive the artifact bundle (DELETE /artifact-bundles/{artifactBundleId}) before deleting it permanently.",
            details: [{ artifactBundleId: bundleId, status: row.status }]
          })
        }
        yield* sql`DELETE FROM artifact_bundles WHERE id = ${bundleId}`
        return { id: bundleId, deleted: true }
      }).pipe(sql.withTransaction, conflictOnDuplicate("conflicting delete"))
    })

    return { create, list, get, update, archive, unarchive, deletePermanently } as const
  })
}) {}
