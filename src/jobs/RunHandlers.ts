/**
 * The REST handlers of the four routes every kind of run has (./RunRoutes.ts): each reads the actor,
 * calls the kind's use case and answers in the envelope; a start answers 202 (a replay says so).
 */
import { Effect } from "effect"
import { type Actor, CurrentActor } from "../auth/CurrentActor.js"
import { ok } from "../http/Envelope.js"
import { startedResponse } from "../http/Idempotency.js"
import type { ListParams } from "./RunRecords.js"
import { BundleId, RunId } from "../domain/Ids.js"

/** The use cases a kind of run offers its routes. */
export interface RunService<Request, L, LE, LR, St extends { readonly data: unknown; readonly replayed: boolean }, SE, SR, Es, EsE, EsR, D, DE, DR> {
  readonly list: (actor: Actor, bundleId: BundleId, params: ListParams) => Effect.Effect<L, LE, LR>
  readonly start: (actor: Actor, bundleId: BundleId, request: Request, idempotencyKey: string | undefined) => Effect.Effect<St, SE, SR>
  readonly estimate: (actor: Actor, bundleId: BundleId, request: Request) => Effect.Effect<Es, EsE, EsR>
  readonly get: (actor: Actor, bundleId: BundleId, runId: RunId) => Effect.Effect<D, DE, DR>
}

interface BundlePath {
  readonly artifactBundleId: string
}

/** The handlers, for a group to `handle` under its route names; `get` answers `{ [runKey]: run }`. */
export const runHandlers = <
  Request,
  L,
  LE,
  LR,
  St extends { readonly data: unknown; readonly replayed: boolean },
  SE,
  SR,
  Es,
  EsE,
  EsR,
  D,
  DE,
  DR,
  const RunKey extends string,
  const RunIdParam extends string
>(
  service: RunService<Request, L, LE, LR, St, SE, SR, Es, EsE, EsR, D, DE, DR>,
  keys: { readonly runKey: RunKey; readonly runIdParam: RunIdParam }
) => ({
  list: ({ path, urlParams }: { readonly path: BundlePath; readonly urlParams: ListParams }) =>
    Effect.flatMap(CurrentActor, (actor) => Effect.flatMap(service.list(actor, BundleId.make(path.artifactBundleId), urlParams), ok)),
  start: ({ path, payload, headers }: {
    readonly path: BundlePath
    readonly payload: Request | null
    readonly headers: { readonly "idempotency-key"?: string | undefined }
  }) =>
    Effect.flatMap(CurrentActor, (actor) =>
      Effect.flatMap(
        service.start(actor, BundleId.make(path.artifactBundleId), payload ?? ({} as Request), headers["idempotency-key"]),
        startedResponse
      )),
  estimate: ({ path, payload }: { readonly path: BundlePath; readonly payload: Request | null }) =>
    Effect.flatMap(CurrentActor, (actor) => Effect.flatMap(service.estimate(actor, BundleId.make(path.artifactBundleId), payload ?? ({} as Request)), ok)),
  get: ({ path }: { readonly path: BundlePath & { readonly [K in RunIdParam]: string } }) =>
    Effect.flatMap(CurrentActor, (actor) =>
      Effect.flatMap(
        service.get(actor, BundleId.make(path.artifactBundleId), RunId.make(path[keys.runIdParam])),
        (run) => ok({ [keys.runKey]: run } as { readonly [K in RunKey]: D })
      ))
})
