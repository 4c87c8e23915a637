/**
 * A job's vocabulary: its kinds and states, its row and events, and what a kind's work sees while it
 * runs (JobContext) and may fail with. Apart from the job store (Jobs.ts), the runner (Runner.ts) and
 * the kinds' registry (RunKind.ts), which all read it, so none of them imports another back.
 */
import type * as Statement from "@effect/sql/Statement"
import { type Effect, Schema } from "effect"
import { BundleId, JobId, RunId } from "../domain/Ids.js"

export const JobKind = Schema.Literal("audit", "rubr_flow_conversion", "eval", "proof_report")
export type JobKind = typeof JobKind.Type
export const JobState = Schema.Literal("queued", "running", "paused", "completed", "failed", "cancelled")
export type JobState = typeof JobState.Type
/** A run record's status: its job's state, but never paused. */
export const RunStatus = Schema.Literal("queued", "running", "completed", "failed", "cancelled")
export type RunStatus = typeof RunStatus.Type
export const terminalStates: ReadonlyArray<JobState> = ["completed", "failed", "cancelled"]

export const JobRow = Schema.Struct({
  id: JobId,
  userId: Schema.String,
  artifactBundleId: BundleId,
  kind: JobKind,
  state: JobState,
  phase: Schema.String,
  percent: Schema.Number,
  message: Schema.String,
  resourceType: Schema.String,
  /** the run record the job does the work of */
  resourceId: RunId,
  attempts: Schema.Number,
  maxAttempts: Schema.Number,
  /** the job's safe result metadata (JSON), null until it completes */
  result: Schema.Unknown,
  errorCode: Schema.NullOr(Schema.String),
  errorMessage: Schema.NullOr(Schema.String),
  requestedByApiKeyId: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  startedAt: Schema.NullOr(Schema.DateFromSelf),
  finishedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type JobRow = typeof JobRow.Type

export const JobEventRow = Schema.Struct({
  id: Schema.String,
  jobId: JobId,
  sequence: Schema.Number,
  kind: Schema.String,
  state: JobState,
  phase: Schema.String,
  percent: Schema.Number,
  message: Schema.String,
  createdAt: Schema.DateFromSelf
})
export type JobEventRow = typeof JobEventRow.Type

/** An expected, user-visible failure of a job: its code and message are safe to show. */
export class JobFailure extends Schema.TaggedError<JobFailure>()("JobFailure", {
  code: Schema.String,
  message: Schema.String,
  /** credits kept for work done before the failure (e.g. provider usage); the rest is refunded */
  keepCredits: Schema.optionalWith(Schema.Number, { default: () => 0 })
}) {}

/**
 * Not a failure: the work cannot go on yet (it waits for another run) and asks to run again in
 * `seconds`. The job goes back to queued, keeps its attempts, and a worker picks it up then.
 */
export class JobDeferred extends Schema.TaggedError<JobDeferred>()("JobDeferred", {
  seconds: Schema.Number,
  message: Schema.String
}) {}

export interface JobContext {
  readonly job: JobRow
  /** what the kind's `claimLoads` read with the claim (parsed JSON), or undefined when it declares none */
  readonly loaded: unknown
  /**
   * Enters one of the kind's phases (its declared percent) with a message. Progress events are
   * buffered: the first after a quiet spell of `PROGRESS_FLUSH_INTERVAL` is written at once, later ones
   * within that interval of the last write, or with the job's next state change if that comes first.
   */
  readonly phase: (name: string, message: string) => Effect.Effect<void>
  /** A progress step with an explicit percent (buffered like `phase`). */
  readonly progress: (phase: string, percent: number, message: string) => Effect.Effect<void>
  /**
   * Runs `write` (the work's result: rows, files, reconciliation) and completes the job in one
   * transaction, under the job's row lock: both happen or neither. A job cancelled meanwhile keeps
   * nothing; a cancel arriving during the write waits for it and then finds the job completed (409).
   * `write` returns the job's safe result metadata.
   */
  readonly complete: <A, E, R>(write: Effect.Effect<A, E, R>) => Effect.Effect<A, E | JobFailure, R>
  /**
   * Completes the job with `result` when nothing else needs writing in its transaction: the job row,
   * its buffered progress and completion events, and the run record (its status and `run`, a `SET`
   * list for the kind's table) in one statement. A job cancelled meanwhile keeps nothing (JobFailure).
   */
  readonly completeWith: <A>(result: A, run?: Statement.Fragment) => Effect.Effect<A, JobFailure>
}
