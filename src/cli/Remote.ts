/**
 * The CLI's door to the service: every request a command makes goes through `call`, which either
 * sends it with the SDK or, under `--dry-run`, prints its method and path and answers the stand-in
 * the command gave (so the command's own logic runs on, and prints the requests that would follow,
 * with `{placeholders}` for ids the service would have made). This module is loaded only by
 * commands that talk to the service, which keeps `rubr --help` and `rubr validate` fast.
 */
import { VERSION } from "../Version.js"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Effect, Layer } from "effect"
import * as Http from "node:http"
import * as Https from "node:https"
import { make as makeClient, type RubrClient } from "../client/Client.js"
import { type Job, type JobEvent, jobFailure, waitForJob } from "../client/Jobs.js"
import type { RubrError } from "../client/RubrError.js"
import { RubrApi } from "../Api.js"
import { type CliFailure, Exit, fromRubrError, usage } from "./Failure.js"
import type { Output } from "./Output.js"
import type { Settings } from "./Settings.js"

type Groups = keyof RubrClient
type Endpoints<G extends Groups> = keyof RubrClient[G] & string
type Method<G extends Groups, E extends Endpoints<G>> = RubrClient[G][E] extends (...args: infer A) => Effect.Effect<infer S, any, any>
  ? { readonly args: A; readonly success: S }
  : never

export interface Remote {
  readonly dryRun: boolean
  readonly settings: Settings
  /** One request: sent, or printed under --dry-run (then `standIn` is the answer). */
  readonly call: <G extends Groups, E extends Endpoints<G>>(
    group: G,
    endpoint: E,
    request: Method<G, E>["args"][0],
    standIn: () => Method<G, E>["success"]
  ) => Effect.Effect<Method<G, E>["success"], CliFailure>
  /** Follows a job to its end with a progress line; under --dry-run prints the poll and answers a completed job. */
  readonly waitForJob: (jobId: string, what: string, options?: { readonly quiet?: boolean }) => Effect.Effect<Job, CliFailure>
}

/** `GET /api/v1/artifact-bundles/{artifactBundleId}/files?limit=200`: the request as the contract defines it. */
export const describeRequest = (group: string, endpoint: string, request: unknown): string => {
  const definition = (RubrApi.groups as Record<string, { endpoints: Record<string, { method: string; path: string }> }>)[group]?.endpoints[endpoint]
  if (!definition) return `${group}.${endpoint}`
  const r = (request ?? {}) as { path?: Record<string, unknown>; urlParams?: Record<string, unknown> }
  const path = definition.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = r.path?.[name]
    return value === undefined ? `{${name}}` : String(value).startsWith("{") ? String(value) : encodeURIComponent(String(value))
  })
  const query = Object.entries(r.urlParams ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join("&")
  return `${definition.method} ${path}${query ? `?${query}` : ""}`
}

const phaseLine = (what: string, e: JobEvent) => `${what}: ${e.state === "running" || e.state === "queued" ? `${e.phase} ${Math.round(e.percent)}%` : e.state} ${e.message ? `· ${e.message}` : ""}`.trimEnd()

/**
 * The CLI sends with node:http, not `fetch`: Node 20 compiles undici (the engine behind `fetch`) on
 * its first use, about 200 ms of CPU in every run, and node:http costs a fraction of it per request.
 * Keep-alive sockets are reused across the run's requests and never hold the process open.
 */
const nodeHttp = NodeHttpClient.layerWithoutAgent.pipe(
  Layer.provide(Layer.sync(NodeHttpClient.HttpAgent, () =>
    ({
      [NodeHttpClient.HttpAgentTypeId]: NodeHttpClient.HttpAgentTypeId,
      http: new Http.Agent({ keepAlive: true }),
      https: new Https.Agent({ keepAlive: true })
    }) as NodeHttpClient.HttpAgent))
)

export const makeRemote = (settings: Settings, output: Output, options: { readonly needsKey?: boolean } = {}): Effect.Effect<Remote, CliFailure> =>
  Effect.gen(function*() {
    if (!settings.dryRun && options.needsKey !== false && settings.apiKey === undefined) {
      return yield* Effect.fail(usage("No API key: pass --api-key or set SERVICE_API_KEY (create one at POST /api/v1/api-keys)."))
    }
    const client = settings.dryRun ? undefined : yield* makeClient({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      userAgent: `rubr-cli/${VERSION}`,
      // a CI step should not wait long on a service that is not there: two retries, 1.5 s
      networkRetries: 2,
      onRetry: (r) => output.note(output.colors.dim(`retrying ${r.method} ${new URL(r.url).pathname} in ${(r.delayMs / 1000).toFixed(1)} s (${r.reason})`))
    }).pipe(Effect.provide(nodeHttp))
    const fail = (error: RubrError) => Effect.fail(fromRubrError(error))
    const remote: Remote = {
      dryRun: settings.dryRun,
      settings,
      call: (group, endpoint, request, standIn) => {
        if (client === undefined) {
          return Effect.sync(() => {
            output.result(describeRequest(group, endpoint, request))
            return standIn()
          })
        }
        const send = (client[group] as unknown as Record<string, (r: unknown) => Effect.Effect<any, RubrError>>)[endpoint]!
        return Effect.catchAll(send(request), fail)
      },
      waitForJob: (jobId, what, options = {}) => {
        if (client === undefined) {
          return Effect.sync(() => {
            output.result(describeRequest("jobs", "listJobEvents", { path: { jobId }, urlParams: { after: 0, limit: 200 } }))
            output.result(describeRequest("jobs", "getJob", { path: { jobId } }))
            return { id: jobId, state: "completed" } as unknown as Job
          })
        }
        // quiet: several jobs at once (rubr check over a repository) report through their own lines
        // polled at most every 250 ms: over a repository each wait is one of many, and a mock audit ends in a few hundred ms
        if (options.quiet) return Effect.catchAll(waitForJob(client, jobId, { maxInterval: "250 millis" }), fail)
        output.progress(`${what}: queued`)
        return waitForJob(client, jobId, { onProgress: (events) => output.progress(phaseLine(what, events[events.length - 1]!)) }).pipe(
          Effect.ensuring(Effect.sync(() => output.endProgress())),
          Effect.catchAll(fail)
        )
      }
    }
    return remote
  })

/** A job that did not complete ends the command with exit 5 and its safe error. */
export const requireCompleted = (job: Job): Effect.Effect<Job, CliFailure> =>
  job.state === "completed" ? Effect.succeed(job) : Effect.fail(fromRubrError(jobFailure(job)))

export { Exit }
