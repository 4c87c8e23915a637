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
import { type Memory, type Remembered, rubricOf, sameFiles } from "./Memory.js"
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

/** What the bundle listing shows of a bundle: the state a remembered estimate is compared with (Memory.ts). */
interface Listed {
  readonly ref: BundleRef
  readonly state: BundleState
}
type BundleState = NonNullable<Remembered["state"]>

const stateOf = (b: { activeVersionNumber: number; fileCount: number; settings: unknown; customRubric: unknown }): BundleState => ({
  version: b.activeVersionNumber,
  fileCount: b.fileCount,
  settings: JSON.stringify([b.settings, b.customRubric])
})

const sameState = (a: BundleState | undefined, b: BundleState | undefined) =>
  a !== undefined && b !== undefined && a.version === b.version && a.fileCount === b.fileCount && a.settings === b.settings

/**
 * The active bundles by name (the newest of a name), listed once for a whole repository. The list is
 * newest first, so it stops at the page where the last of the `wanted` names turns up: an account
 * with many other bundles does not cost a page per 200 of them when the repository's are recent.
 */
const bundleDirectory = (remote: Remote, wanted: ReadonlySet<string>) =>
  Effect.gen(function*() {
    const byName = new Map<string, Listed>()
    let missing = wanted.size
    for (let offset = 0; ; offset += PAGE) {
      const { data } = yield* remote.call(
        "artifactBundles",
        "list",
        { urlParams: { status: "active", limit: PAGE, offset } }
      )
      for (const b of data.artifactBundles) {
        if (byName.has(b.name)) continue
        byName.set(b.name, { ref: { id: b.id, name: b.name, created: false }, state: stateOf(b) })
        if (wanted.has(b.name)) missing--
      }
      if (data.pagination.nextOffset === null || missing === 0) return byName
    }
  })

const quiet = (output: Output): Output => ({ ...output, progress: () => undefined, endProgress: () => undefined })

const bodyOf = (artifact: PlannedArtifact, options: QuoteOptions): AuditBody => ({
  ...(options.force ? { force: true } : {}),
  ...(options.rubric !== undefined ? { rubricKey: options.rubric } : {}),
  ...(artifact.folderName ? { folderName: artifact.folderName } : {}),
  ...(artifact.artifactType !== undefined ? { artifactType: artifact.artifactType } : {}),
  ...(options.rulesOff.length > 0 ? { disabledRules: options.rulesOff } : {})
})

type Found = { readonly ref: BundleRef; readonly state: BundleState | undefined }

const hashesOf = (artifact: PlannedArtifact): Record<string, string> =>
  Object.fromEntries(artifact.files.map((f) => [f.path, contentHash(f.content)]))

const unchangedSync = (artifact: PlannedArtifact, local: Readonly<Record<string, string>>): SyncSummary => ({
  uploaded: [],
  updated: [],
  unchanged: Object.keys(local),
  removed: [],
  skipped: artifact.skipped,
  files: []
})

/**
 * One artifact through the service: with its local files remembered as they are, the estimate
 * first (the same `inputHash` means the bundle holds the versions it held then: nothing to sync);
 * otherwise the sync (list the bundle's files, upload what differs), then the estimate. What it
 * learnt is kept in Memory, with the bundle's state when it is known.
 */
const prepareOne = (
  remote: Remote,
  output: Output,
  options: QuoteOptions,
  found: Found,
  artifact: PlannedArtifact,
  local: Readonly<Record<string, string>>
) =>
  Effect.gen(function*() {
    const { ref: bundle, state: listed } = found
    const body = bodyOf(artifact, options)
    const estimate = remote.call(
      "audits",
      "estimateAudit",
      { path: { artifactBundleId: bundle.id }, payload: body }
    ).pipe(Effect.map(({ data }) => data))
    const remembered = bundle.created || remote.dryRun ? undefined : options.memory.recall(bundle.id)
    const before = remembered !== undefined && sameFiles(remembered.files, local) && (remembered.exact || !options.prune)
      ? yield* estimate
      : undefined
    const unchanged = before !== undefined && before.target.inputHash === remembered!.inputHash
    const sync: SyncSummary = unchanged
      ? unchangedSync(artifact, local)
      : yield* syncFolder(remote, output, bundle.id, { files: artifact.files, skipped: artifact.skipped }, { prune: options.prune, message: "rubr check" })
    const data = unchanged ? before : yield* estimate
    if (!remote.dryRun) {
      // the bundle's state as of this estimate: after a sync, its last version event is the newest
      // input's and its files are the sync's; unchanged, the listing's when it shows that event
      const state: BundleState | undefined = listed === undefined
        ? undefined
        : unchanged
        ? listed.version === data.target.artifactBundleVersionNumber ? listed : undefined
        : { version: data.target.artifactBundleVersionNumber, fileCount: sync.files.length, settings: listed.settings }
      const bodyJson = JSON.stringify(body)
      if (!unchanged) {
        options.memory.keep(bundle.id, {
          version: 1,
          inputHash: data.target.inputHash,
          files: local,
          exact: sync.files.every((f) => Object.hasOwn(local, f.path)),
          ...(state !== undefined ? { state, body: bodyJson } : {})
        })
      } else if (state !== undefined && (!sameState(remembered!.state, state) || remembered!.body !== bodyJson)) {
        options.memory.keep(bundle.id, { ...remembered!, state, body: bodyJson })
      }
    }
    const reuse = data.identicalAuditRun?.id ?? null
    return { artifact, bundle, sync, body, credits: reuse === null ? data.creditCost.credits : 0, reuse, inputHash: data.target.inputHash } satisfies Prepared
  })

interface Trusted {
  readonly entry: Remembered
  readonly bundle: BundleRef
  /** `key@version` of the kept audit */
  readonly rubric: string
}

/**
 * The artifacts the listing shows unchanged since this machine kept a completed audit of them: the
 * same local files, request, last version event, file count and settings.
 */
const trustedByListing = (
  directory: ReadonlyMap<string, Listed>,
  artifacts: ReadonlyArray<PlannedArtifact>,
  locals: ReadonlyArray<Readonly<Record<string, string>>>,
  options: QuoteOptions
) => {
  const trusted = new Map<number, Trusted>()
  artifacts.forEach((artifact, i) => {
    const listed = isUuid(artifact.bundleName) ? undefined : directory.get(artifact.bundleName)
    const entry = listed === undefined ? undefined : options.memory.recall(listed.ref.id)
    const rubric = entry === undefined ? undefined : rubricOf(entry)
    if (
      listed !== undefined && entry !== undefined && rubric !== undefined &&
      sameState(entry.state, listed.state) && entry.body === JSON.stringify(bodyOf(artifact, options)) &&
      sameFiles(entry.files, locals[i]!) && (entry.exact || !options.prune)
    ) trusted.set(i, { entry, bundle: listed.ref, rubric })
  })
  return trusted
}

/**
 * Each artifact's bundle made to match its files and estimated (`prepareOne`), except those the
 * bundle listing shows unchanged since a kept completed audit (`trustedByListing`), which cost no
 * request of their own. What a listing cannot show is a newer reviewer (a rubric version, review
 * defaults), so per rubric the first trusted artifact, the witness, is still estimated: when the
 * service names its kept audit as the one to reuse, the rubric is unchanged for every artifact that
 * used it; otherwise they all go through `prepareOne`.
 */
export const prepareAll = (
  remote: Remote,
  output: Output,
  artifacts: ReadonlyArray<PlannedArtifact>,
  options: QuoteOptions
): Effect.Effect<ReadonlyArray<Prepared>, CliFailure> =>
  Effect.gen(function*() {
    const single = artifacts.length === 1
    // one artifact keeps the lookup of `rubr check DIR` (a bundle id works too); many share one listing
    const directory = single ? undefined : yield* bundleDirectory(remote, new Set(artifacts.map((a) => a.bundleName)))
    const bundleFor = (name: string): Effect.Effect<Found, CliFailure> =>
      directory === undefined || isUuid(name)
        ? Effect.map(resolveBundle(remote, name, { create: true }), (ref) => ({ ref, state: undefined }))
        : directory.has(name)
        ? Effect.succeed(directory.get(name)!)
        : Effect.map(
          remote.call("artifactBundles", "create", { payload: { name } }),
          ({ data }) => ({
            ref: { id: data.artifactBundle.id, name: data.artifactBundle.name, created: true },
            state: remote.dryRun ? undefined : stateOf(data.artifactBundle)
          })
        )
    const locals = artifacts.map(hashesOf)
    const trusted = directory !== undefined && !options.force && !remote.dryRun
      ? trustedByListing(directory, artifacts, locals, options)
      : new Map<number, Trusted>()
    // per rubric, its first trusted artifact
    const witnessOf = new Map<string, number>()
    for (const [i, t] of trusted) if (!witnessOf.has(t.rubric)) witnessOf.set(t.rubric, i)
    const witnesses = new Set(witnessOf.values())
    const confirmed = new Set<string>()

    const prepared = new Array<Prepared>(artifacts.length)
    const done = (i: number) => (p: Prepared) =>
      Effect.sync(() => {
        prepared[i] = p
        const t = trusted.get(i)
        if (t !== undefined && witnesses.has(i) && p.reuse === t.entry.audit?.id && p.inputHash === t.entry.inputHash) confirmed.add(t.rubric)
        options.onPrepared(p)
      })
    const viaService = (i: number) =>
      bundleFor(artifacts[i]!.bundleName).pipe(
        Effect.flatMap((found) => prepareOne(remote, single ? output : quiet(output), options, found, artifacts[i]!, locals[i]!)),
        Effect.flatMap(done(i))
      )
    const concurrency = remote.dryRun ? 1 : Math.max(options.concurrency, READS_AT_ONCE)
    const indexes = artifacts.map((_, i) => i)
    // first every artifact that needs the service, witnesses included; then the ones they vouch for
    yield* Effect.forEach(indexes.filter((i) => !trusted.has(i) || witnesses.has(i)), viaService, { concurrency, discard: true })
    yield* Effect.forEach(indexes.filter((i) => trusted.has(i) && !witnesses.has(i)), (i) => {
      const t = trusted.get(i)!
      if (!confirmed.has(t.rubric)) return viaService(i)
      const artifact = artifacts[i]!
      const body = bodyOf(artifact, options)
      return done(i)({ artifact, bundle: t.bundle, sync: unchangedSync(artifact, locals[i]!), body, credits: 0, reuse: t.entry.audit!.id, inputHash: t.entry.inputHash })
    }, { concurrency, discard: true })
    return prepared
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
    const balance = yield* remote.call("credits", "getCredits", { urlParams: { limit: 1 } }).pipe(
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
