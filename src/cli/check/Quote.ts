/**
 * The second step of `rubr check`: each artifact's bundle made to match its files (found by name or
 * created; uploading spends no credits), then one estimate per artifact from the service's estimate
 * route, which also names the identical earlier audit a start would reuse for free. The total is
 * printed and judged (`--max-credits`, the balance) before any audit starts, so a run that cannot be
 * paid for in full starts nothing.
 */
import { Effect } from "effect"
import { CliFailure, Exit } from "../Failure.js"
import type { Output } from "../Output.js"
import type { Remote } from "../Remote.js"
import type { Quote } from "../reports/Model.js"
import { type BundleRef, contentHash, isUuid, resolveBundle, type SyncSummary, syncFolder } from "../Sync.js"
import { type Memory, sameFiles } from "./Memory.js"
import type { PlannedArtifact } from "./Plan.js"


/** Requests that only read or upload (syncs, estimates, reading a reused audit) go this many at a time; --concurrency bounds the audits that run. */
export const READS_AT_ONCE = 16

export interface AuditBody {
  readonly force?: boolean
  readonly rubricKey?: string
  readonly folderName?: string
  readonly artifactType?: PlannedArtifact["artifactType"]
  readonly disabledRules?: ReadonlyArray<string>
}

export interface Prepared {
  readonly artifact: PlannedArtifact
  readonly bundle: BundleRef
  readonly sync: SyncSummary
  /** the body of the estimate and of the start: the same, so the estimate is the start's */
  readonly body: AuditBody
  readonly credits: number
  /** the identical audit a start would reuse (no credits), if any */
  readonly reuse: string | null
  /** the estimate's hash of the bundle's input versions: what an audit kept in Memory must match */
  readonly inputHash: string
}

export interface QuoteOptions {
  readonly force: boolean
  readonly rubric: string | undefined
  readonly prune: boolean
  readonly rulesOff: ReadonlyArray<string>
  readonly concurrency: number
  /** what earlier runs learnt (Memory.ts): an unchanged artifact is estimated first and not synced */
  readonly memory: Memory
  /** per artifact, once its bundle is ready and estimated */
  readonly onPrepared: (p: Prepared) => void
}

const PAGE = 200

/** The active bundles by name (the newest of a name), listed once for a whole repository. */
const bundleDirectory = (remote: Remote) =>
  Effect.gen(function*() {
    const byName = new Map<string, BundleRef>()
    for (let offset = 0; ; offset += PAGE) {
      const { data } = yield* remote.call(
        "artifactBundles",
        "list",
        { urlParams: { status: "active", limit: PAGE, offset } },
        () => ({ data: { artifactBundles: [], pagination: { limit: PAGE, offset, nextOffset: null, nextCursor: null } } }) as any
      )
      for (const b of data.artifactBundles) if (!byName.has(b.name)) byName.set(b.name, { id: b.id, name: b.name, created: false })
      if (data.pagination.nextOffset === null) return byName
    }
  })

const quiet = (output: Output): Output => ({ ...output, progress: () => undefined, endProgress: () => undefined })

export const prepareAll = (
  remote: Remote,
  output: Output,
  artifacts: ReadonlyArray<PlannedArtifact>,
  options: QuoteOptions
): Effect.Effect<ReadonlyArray<Prepared>, CliFailure> =>
  Effect.gen(function*() {
    const single = artifacts.length === 1
    // one artifact keeps the lookup of `rubr check DIR` (a bundle id works too); many share one listing
    const directory = single ? undefined : yield* bundleDirectory(remote)
    const bundleFor = (name: string) =>
      directory === undefined || isUuid(name)
        ? resolveBundle(remote, name, { create: true })
        : directory.has(name)
        ? Effect.succeed(directory.get(name)!)
        : Effect.map(
          remote.call("artifactBundles", "create", { payload: { name } }, () => ({ data: { artifactBundle: { id: `{artifactBundleId:${name}}`, name } } }) as any),
          ({ data }) => ({ id: data.artifactBundle.id, name: data.artifactBundle.name, created: true }) satisfies BundleRef
        )
    return yield* Effect.forEach(artifacts, (artifact) =>
      Effect.gen(function*() {
        const bundle = yield* bundleFor(artifact.bundleName)
        const body: AuditBody = {
          ...(options.force ? { force: true } : {}),
          ...(options.rubric !== undefined ? { rubricKey: options.rubric } : {}),
          ...(artifact.folderName ? { folderName: artifact.folderName } : {}),
          ...(artifact.artifactType !== undefined ? { artifactType: artifact.artifactType } : {}),
          ...(options.rulesOff.length > 0 ? { disabledRules: options.rulesOff } : {})
        }
        const estimate = remote.call(
          "audits",
          "estimateAudit",
          { path: { artifactBundleId: bundle.id }, payload: body },
          () => ({ data: { creditCost: { credits: 0 }, identicalAuditRun: null, target: { inputHash: "" } } }) as any
        ).pipe(Effect.map(({ data }) => data))
        const local = Object.fromEntries(artifact.files.map((f) => [f.path, contentHash(f.content)]))
        const remembered = bundle.created || remote.dryRun ? undefined : options.memory.recall(bundle.id)
        // the same local files as last time: when the service still holds the versions it held then
        // (the same inputHash), the sync would change nothing
        const before = remembered !== undefined && sameFiles(remembered.files, local) && (remembered.exact || !options.prune)
          ? yield* estimate
          : undefined
        const unchanged = before !== undefined && before.target.inputHash === remembered!.inputHash
        const sync: SyncSummary = unchanged
          ? { uploaded: [], updated: [], unchanged: Object.keys(local), removed: [], skipped: artifact.skipped, files: [] }
          : yield* syncFolder(remote, single ? output : quiet(output), bundle.id, { files: artifact.files, skipped: artifact.skipped }, {
            prune: options.prune,
            message: "rubr check"
          })
        const data = unchanged ? before : yield* estimate
        if (!remote.dryRun && !unchanged) {
          options.memory.keep(bundle.id, {
            version: 1,
            inputHash: data.target.inputHash,
            files: local,
            exact: sync.files.every((f) => Object.hasOwn(local, f.path))
          })
        }
        const reuse = data.identicalAuditRun?.id ?? null
        const prepared: Prepared = { artifact, bundle, sync, body, credits: reuse === null ? data.creditCost.credits : 0, reuse, inputHash: data.target.inputHash }
        options.onPrepared(prepared)
        return prepared
      }), { concurrency: remote.dryRun ? 1 : Math.max(options.concurrency, READS_AT_ONCE) })
  })

export const quoteOf = (prepared: ReadonlyArray<Prepared>): Quote => ({
  artifacts: prepared.length,
  toAudit: prepared.filter((p) => p.reuse === null).length,
  reused: prepared.filter((p) => p.reuse !== null).length,
  credits: prepared.reduce((sum, p) => sum + p.credits, 0)
})

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

export const quoteLine = (q: Quote) =>
  `quote: ${plural(q.artifacts, "artifact")}: ${q.toAudit} to audit (${plural(q.credits, "credit")}), ${q.reused} reused from an identical earlier audit at no cost`

/**
 * Stops before any start when the run costs more than `--max-credits` or than the balance (exit 4):
 * the balance is never spent halfway through a run. A key without `credits:read` skips the balance
 * check (each start is still admitted against it by the service).
 */
export const judgeQuote = (remote: Remote, output: Output, quote: Quote, maxCredits: number | undefined): Effect.Effect<void, CliFailure> =>
  Effect.gen(function*() {
    if (maxCredits !== undefined && quote.credits > maxCredits) {
      return yield* Effect.fail(
        new CliFailure({
          exitCode: Exit.blocked,
          message: `The run would spend ${plural(quote.credits, "credit")}, more than --max-credits ${maxCredits}; nothing was started. Narrow it (paths, --changed-since) or raise the limit.`
        })
      )
    }
    if (quote.credits === 0 || remote.dryRun) return
    const balance = yield* remote.call("credits", "getCredits", { urlParams: { limit: 1 } }, () => ({ data: { balance: Number.MAX_SAFE_INTEGER } }) as any).pipe(
      Effect.map(({ data }) => data.balance as number),
      Effect.catchIf((e) => e.exitCode === Exit.auth, () => {
        output.note(output.colors.dim("the API key cannot read credits (credits:read): the balance was not checked before starting"))
        return Effect.succeed(Number.MAX_SAFE_INTEGER)
      })
    )
    if (quote.credits > balance) {
      return yield* Effect.fail(
        new CliFailure({
          exitCode: Exit.blocked,
          code: "credit_limit_exceeded",
          message: `credit_limit_exceeded: the run would spend ${plural(quote.credits, "credit")} and the balance is ${balance}; nothing was started. See \`rubr credits\`.`
        })
      )
    }
  })
