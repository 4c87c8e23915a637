/**
 * A job's vocabulary: its kinds and states, its row and events, and what a kind's work sees while it
 * runs (JobContext) and may fail with. Apart from the job store (Jobs.ts), the runner (Runner.ts) and
 * the kinds' registry (RunKind.ts), which all read it, so none of them imports another back.
 */
import type * as Statement from "@effect/sql/Statement"
import { type Effect, Schema } from "effect"

export type JobKind = "audit" | "rubr_flow_conversion" | "eval" | "proof_report"
export type JobState = "queued" | "running" | "paused" | "completed" | "failed" | "cancelled"
export const terminalStates: ReadonlyArray<JobState> = ["completed", "failed", "cancelled"]

export interface JobRow {
  readonly id: string
  readonly userId: string
  readonly artifactBundleId: string
  readonly kind: JobKind
  readonly state: JobState
  readonly phase: string
  readonly percent: number
  readonly message: string
  readonly resourceType: string
  readonly resourceId: string
  readonly attempts: number
  readonly maxAttempts: number
  readonly result: unknown
  readonly errorCode: string | null
  readonly errorMessage: string | null
  readonly requestedByApiKeyId: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly startedAt: Date | null
  readonly finishedAt: Date | null
}

export interface JobEventRow {
  readonly id: string
  readonly jobId: string
  readonly sequence: number
  readonly kind: string
  readonly state: JobState
  readonly phase: string
  readonly percent: number
  readonly message: string
  readonly createdAt: Date
}

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
