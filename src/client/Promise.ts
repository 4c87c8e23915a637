/**
 * The SDK for code that does not use Effect: the same client, every call a Promise that rejects
 * with a `RubrError`.
 *
 *   const rubr = createClient({ baseUrl: "http://127.0.0.1:3000/api/v1", apiKey: process.env.SERVICE_API_KEY })
 *   const { data } = await rubr.artifactBundles.list({ urlParams: {} })
 */
import { Cause, Effect, Exit } from "effect"
import { type ClientOptions, makeWithFetch, type RubrClient } from "./Client.js"
import { type Job, waitForJob as waitForJobEffect, type WaitOptions } from "./Jobs.js"

type Promised<F> = F extends (...args: infer A) => Effect.Effect<infer S, any, any> ? (...args: A) => Promise<S> : never

export type RubrPromiseClient = {
  readonly [G in keyof RubrClient]: { readonly [E in keyof RubrClient[G]]: Promised<RubrClient[G][E]> }
} & {
  /** polls a job until it has ended (see `waitForJob`) */
  readonly waitForJob: (jobId: string, options?: WaitOptions) => Promise<Job>
}

/** Rejections are the `RubrError` itself (not a wrapper), so `error.code` is at hand. */
const run = async <A>(effect: Effect.Effect<A, unknown>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

export const createClient = (options: ClientOptions): RubrPromiseClient => {
  const client = Effect.runSync(makeWithFetch(options))
  const out: Record<string, unknown> = {
    waitForJob: (jobId: string, wait?: WaitOptions) => run(waitForJobEffect(client, jobId, wait))
  }
  for (const [group, endpoints] of Object.entries(client as unknown as Record<string, Record<string, (r: unknown) => Effect.Effect<unknown, unknown>>>)) {
    out[group] = Object.fromEntries(Object.entries(endpoints).map(([name, call]) => [name, (request: unknown) => run(call(request))]))
  }
  return out as RubrPromiseClient
}
