/** `npm start`: the API and the worker in one process (SERVICE_ROLE picks a part). */
import { Effect, Exit, Layer } from "effect"
import { MainLive } from "./App.js"
import { AppConfig, appConfig } from "./config/AppConfig.js"
import { runService } from "./Lifecycle.js"
import { say } from "./process/Say.js"
import { checkListenable, explainStartupFailure } from "./process/StartupFailure.js"
import { LoggingLive } from "./telemetry/Logging.js"

// The settings first: a wrong value is one line and exit 1, before anything starts.
const loaded = Effect.runSyncExit(appConfig)
if (Exit.isFailure(loaded)) {
  say(explainStartupFailure(loaded.cause, { host: process.env["HOST"] ?? "127.0.0.1", port: 0 }))
  process.exit(1)
}
const config = loaded.value
if (config.role !== "worker") {
  const taken = await checkListenable({ host: config.host, port: config.port })
  if (taken) {
    say(taken.message)
    process.exit(1)
  }
}
const ConfigLive = Layer.succeed(AppConfig, config)
const logging = LoggingLive.pipe(Layer.provide(ConfigLive))

runService(
  (started) =>
    Layer.build(MainLive).pipe(
      Effect.zipRight(started),
      Effect.zipRight(Effect.never),
      Effect.scoped,
      Effect.provide(logging),
      Effect.provide(ConfigLive)
    ),
  {
    shutdownTimeoutS: config.shutdownTimeoutS,
    listen: { host: config.host, port: config.port },
    warn: (message, annotations) => Effect.runFork(Effect.logWarning(message).pipe(Effect.annotateLogs(annotations), Effect.provide(logging)))
  }
)
