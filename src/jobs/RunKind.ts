/**
 * A kind of credit-spending work (audit, rubr_flow conversion, eval, proof report) declares itself
 * once as a `RunKind`: its run table, resource type, worker task, phases, debit reason, how a failure
 * is written on its record, and the work a worker does. The composition root registers the kinds
 * (`RunKinds.layer(...)`); the shared machinery (start, jobs, runner, worker, stale recovery) reads them
 * from this registry and never imports a feature. docs/architecture.md, "The run pipeline".
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type * as SqlError from "@effect/sql/SqlError"
import { Context, Effect, Layer } from "effect"
import type { JobContext, JobDeferred, JobFailure } from "./Job.js"
import type { JobKind } from "./Job.js"
import type { RunId } from "../domain/Ids.js"

/** A phase of a kind's work, with the percent the job shows when it enters it. */
export interface Phase {
  readonly name: string
  readonly percent: number
}

export interface RunKind<R = never> {
  readonly kind: JobKind
  /** `jobs.resource_type` and the ledger's resource type, e.g. `audit_run` */
  readonly resourceType: string
  /** the run table; its `status` column moves with the job */
  readonly table: string
  /** the graphile-worker task identifier */
  readonly task: string
  /** in order; the first is the phase of a queued or just-claimed job */
  readonly phases: ReadonlyArray<Phase>
  /** the ledger reason of the start's debit */
  readonly debitReason: string
  /**
   * what the job does once claimed; an expected failure is a `JobFailure` (safe to show), and
   * `JobDeferred` asks to run again later (the kind waits for another run)
   */
  readonly work: (ctx: JobContext) => Effect.Effect<unknown, JobFailure | JobDeferred, R>
  /**
   * What the work reads first (its run record, its inputs), read by the worker's claim in the same
   * statement (`ctx.loaded`, JSON): an SQL expression over `j`, the claimed job row, e.g. a scalar
   * subquery on `j.resource_id` that builds one JSON value. It reads the database as it was before the
   * claim (the run's status is still queued). Without it, `ctx.loaded` is undefined.
   */
  readonly claimLoads?: string
  /**
   * Writes a failure on the run record (the job row has it already). Defaults to setting the run
   * table's `error_code` and `error_message`.
   */
  readonly recordFailure?: (
    runId: RunId,
    failure: { readonly code: string; readonly message: string }
  ) => Effect.Effect<void, SqlError.SqlError, SqlClient.SqlClient>
}

/** A kind whose `work` has its services captured: what the registry holds. */
export type RegisteredRunKind = RunKind<never>

export const declareRunKind = <R>(kind: RunKind<R>): RunKind<R> => kind

/** The registered kinds of this process, by job kind and by resource type. */
export class RunKinds extends Context.Tag("rubr/RunKinds")<RunKinds, {
  readonly all: ReadonlyArray<RegisteredRunKind>
  readonly byResourceType: (resourceType: string) => RegisteredRunKind | undefined
  readonly byKind: (kind: string) => RegisteredRunKind | undefined
}>() {
  /** Registers kinds, capturing the services each kind's work needs from the layer's context. */
  static layer<Kinds extends ReadonlyArray<RunKind<any>>>(
    ...kinds: Kinds
  ): Layer.Layer<RunKinds, never, Kinds[number] extends RunKind<infer R> ? R : never> {
    return Layer.effect(
      RunKinds,
      Effect.map(Effect.context<any>(), (context) => {
        const all: Array<RegisteredRunKind> = kinds.map((k) => ({
          ...k,
          work: (ctx: JobContext) => Effect.provide(k.work(ctx), context)
        }))
        const byResource = new Map(all.map((k) => [k.resourceType, k]))
        const byKind = new Map(all.map((k) => [k.kind as string, k]))
        return {
          all,
          byResourceType: (resourceType: string) => byResource.get(resourceType),
          byKind: (kind: string) => byKind.get(kind)
        }
      })
    ) as any
  }

  /** An empty registry (processes or tests that run no kind of work). */
  static readonly empty = Layer.succeed(RunKinds, { all: [], byResourceType: () => undefined, byKind: () => undefined })
}
