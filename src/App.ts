/**
 * The composition root: which layers a process runs for its role, and the domain services they share.
 *
 *   config -> database (embedded or DATABASE_URL, migrations) -> domain services -> HTTP API | worker
 */
import { Etag, FileSystem, HttpPlatform, HttpServer, Path } from "@effect/platform"
import { Effect, Layer } from "effect"
import { TracingLive } from "./telemetry/Tracing.js"
import { LoginTokens } from "./auth/LoginTokens.js"
import { AppConfig, type Role } from "./config/AppConfig.js"
import { Ledger } from "./credits/Ledger.js"
import { DatabaseLive } from "./db/Database.js"
import { EmailServicesLive } from "./email/Layer.js"
import { HttpAppLive, LogBaseUrl, NodeServerLive } from "./http/Server.js"
import { ApiKeys } from "./identity/ApiKeys.js"
import { Users } from "./identity/Users.js"
import { WorkerLive, WorkerTasksLive } from "./jobs/Worker.js"
import { RateLimiter, RateLimitSweeper } from "./limits/RateLimiter.js"

/** Domain services over the SqlClient. */
export const ServicesLive = Layer.mergeAll(
  Users.Default,
  ApiKeys.Default,
  LoginTokens.Default,
  RateLimiter.Default,
  EmailServicesLive
).pipe(Layer.provideMerge(Ledger.Default))

const apiLayers = Layer.mergeAll(HttpAppLive, LogBaseUrl, Layer.scopedDiscard(RateLimitSweeper))
const workerLayers = WorkerLive.pipe(Layer.provide(WorkerTasksLive))

/** The process for a role, minus config and the listening socket (tests bring their own). */
export const roleLayer = <E, R>(role: Role, server: Layer.Layer<HttpServer.HttpServer | HttpPlatform.HttpPlatform | Etag.Generator | FileSystem.FileSystem | Path.Path, E, R>) => {
  const api = apiLayers.pipe(Layer.provideMerge(server))
  const parts = role === "api" ? api : role === "worker" ? workerLayers : Layer.mergeAll(api, workerLayers)
  return parts.pipe(Layer.provide(ServicesLive), Layer.provideMerge(DatabaseLive))
}

/** The whole service for the configured role: `npm start` runs this. */
export const MainLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => roleLayer(config.role, NodeServerLive))
).pipe(Layer.provide(TracingLive))
