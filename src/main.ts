/** `npm start`: the API and the worker in one process (SERVICE_ROLE picks a part). */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { ConfigError, Effect, Layer } from "effect"
import { MainLive } from "./App.js"
import { AppConfig } from "./config/AppConfig.js"
import { LoggingLive } from "./telemetry/Logging.js"

const program = Layer.launch(MainLive).pipe(
  Effect.provide(LoggingLive),
  Effect.provide(AppConfig.layer),
  Effect.catchIf(ConfigError.isConfigError, (error) =>
    Effect.sync(() => {
      process.stderr.write(`rubr: invalid configuration: ${String(error).replace(/\s+/g, " ")}\n`)
      process.exit(2)
    }))
)

NodeRuntime.runMain(program, { disablePrettyLogger: true })
