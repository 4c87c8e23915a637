/**
 * Reading the outbox in development (`npm run outbox`, tests). The outbox never stores unsubscribe
 * links (only token hashes are kept), so showing a message renders it as delivery would: each optional-
 * category message shown gets a freshly minted one-click link. Suppressed messages are shown without.
 */
import { Effect } from "effect"
import { Outbox, type OutboxRow } from "./Outbox.js"

export interface ShownEmail {
  readonly row: OutboxRow
  readonly text: string
  readonly unsubscribeUrl: string | null
}

export const showOutbox = (options: { readonly limit: number; readonly recipient?: string; readonly links: boolean }) =>
  Effect.gen(function*() {
    const outbox = yield* Outbox
    const rows = yield* outbox.recent(options)
    return yield* Effect.forEach(rows, (row) =>
      options.links && row.status !== "suppressed"
        ? Effect.map(outbox.render(row), (r): ShownEmail => ({ row, text: r.text, unsubscribeUrl: r.unsubscribeUrl }))
        : Effect.succeed<ShownEmail>({ row, text: row.bodyText, unsubscribeUrl: null }))
  })

export const formatShown = (shown: ShownEmail): string => {
  const { row } = shown
  const lines = [
    `=== ${row.createdAt.toISOString()}  ${row.status.toUpperCase()}  ${row.kind}  (outbox ${row.id})`,
    `To:       ${row.recipient}`,
    `Category: ${row.category}`,
    `Subject:  ${row.subject}`
  ]
  if (shown.unsubscribeUrl !== null) {
    lines.push(`Unsubscribe (one click): ${shown.unsubscribeUrl}`)
    lines.push(`  or: curl -X POST '${shown.unsubscribeUrl}'`)
  }
  if (row.lastError) lines.push(`Last error: ${row.lastError} (after ${row.attempts} attempts)`)
  lines.push("", shown.text, "")
  return lines.join("\n")
}
