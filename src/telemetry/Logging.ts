/** Structured JSON logs (one object per line, with annotations such as requestId), level from config. */
import { Effect, Layer, Logger, LogLevel, Option } from "effect"
import { AppConfig } from "../config/AppConfig.js"

export const LoggingLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Layer.mergeAll(
      Logger.json,
      Logger.minimumLogLevel(Option.getOrElse(config.logLevel, () => LogLevel.Info))
    ))
)
