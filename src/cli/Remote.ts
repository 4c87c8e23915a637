/**
 * The CLI's door to the service: every request a command makes goes through `call`, the SDK's typed
 * client. Under `--dry-run` that client runs over DryRun.ts's HttpClient, which prints each request
 * and answers it from the contract without a network, so the command's own logic runs on and prints
 * the requests that would follow. This module is loaded only by commands that talk to the service,
 * which keeps `rubr --help` and `rubr validate` fast.
 */
import { VERSION } from "../Version.js"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { Effect, Layer } from "effect"
import * as Http from "node:http"
import * as Https from "node:https"
import { make as makeClient, type RubrClient } from "../client/Client.js"
import { type Job, type JobEvent, jobFailure, waitForJob } from "../client/Jobs.js"
import type { RubrError } from "../client/RubrError.js"
import { type CliFailure, Exit, fromRubrError, usage } from "./Failure.js"
import type { Output } from "./Output.js"
import type { Settings } from "./Settings.js"

type Groups = keyof RubrClient
type Endpoints<G extends Groups> = keyof RubrClient[G] & string
type Method<G extends Groups, E extends Endpoints<G>> = RubrClient[G][E] extends (...args: infer A) => Effect.Effect<infer S, any, any>
  ? { readonly args: A; readonly success: S }
  : never

export interface Remote {
  /** --dry-run: requests are printed, not sent (DryRun.ts answers them) */
  readonly dryRun: boolean
  readonly settings: Settings
  /** One request through the typed client. */
  readonly call: <G extends Groups, E extends Endpoints<G>>(
    group: G,
    endpoint: E,
    request: Method<G, E>["args"][0]
  ) => Effect.Effect<Method<G, E>["success"], CliFailure>
  /** Follows a job to its end with a progress line. */
  readonly waitForJob: (jobId: string, what: string, options?: { readonly quiet?: boolean }) => Effect.Effect<Job, CliFailure>
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

/** --dry-run: the typed client over DryRun.ts's client, which prints each request and sends none. */
const dryRunLayer = (output: Output) =>
  Layer.unwrapEffect(Effect.promise(() => import("./DryRun.js")).pipe(
    Effect.map(({ dryRunClient }) => Layer.succeed(HttpClient.HttpClient, dryRunClient((line) => output.result(line))))
  ))

export const makeRemote = (settings: Settings, output: Output, options: { readonly needsKey?: boolean } = {}): Effect.Effect<Remote, CliFailure> =>
  Effect.gen(function*() {
    if (!settings.dryRun && options.needsKey !== false && settings.apiKey === undefined) {
      return yield* Effect.fail(usage("No API key: pass --api-key or set SERVICE_API_KEY (create one at POST /api/v1/api-keys)."))
    }
    const client = yield* makeClient({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      userAgent: `rubr-cli/${VERSION}`,
      // a CI step should not wait long on a service that is not there: two retries, 1.5 s
      networkRetries: 2,
      onRetry: (r) => output.note(output.colors.dim(`retrying ${r.method} ${new URL(r.url).pathname} in ${(r.delayMs / 1000).toFixed(1)} s (${r.reason})`))
    }).pipe(Effect.provide(settings.dryRun ? dryRunLayer(output) : nodeHttp))
    const fail = (error: RubrError) => Effect.fail(fromRubrError(error))
    const remote: Remote = {
      dryRun: settings.dryRun,
      settings,
      call: (group, endpoint, request) => {
        const send = (client[group] as unknown as Record<string, (r: unknown) => Effect.Effect<any, RubrError>>)[endpoint]!
        return Effect.catchAll(send(request), fail)
      },
      waitForJob: (jobId, what, options = {}) => {
        // a dry run's answers hold no events: it shows one read of each and takes the job as ended
        if (settings.dryRun) {
          return client.jobs.listJobEvents({ path: { jobId }, urlParams: { after: 0, limit: 200 } }).pipe(
            Effect.zipRight(client.jobs.getJob({ path: { jobId } })),
            Effect.map(({ data }) => data.job),
            Effect.catchAll(fail)
          )
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
