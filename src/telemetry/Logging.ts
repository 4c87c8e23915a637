/**
 * Structured JSON logs (one object per line), level from config. Lines written while a request is served
 * carry its `requestId`, read from the request's fiber (no per-request log annotation to set up).
 */
import { Effect, FiberRefs, HashMap, Layer, Logger, LogLevel, Option } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import { CurrentRequestId } from "../domain/RequestId.js"

const withRequestId = Logger.mapInputOptions(Logger.jsonLogger, (options) => {
  const requestId = FiberRefs.getOrDefault(options.context, CurrentRequestId)
  return requestId === "" || HashMap.has(options.annotations, "requestId")
    ? options
    : { ...options, annotations: HashMap.set(options.annotations, "requestId", requestId as unknown) }
})

export const JsonLoggerLive = Logger.replace(Logger.defaultLogger, Logger.withConsoleLog(withRequestId))

export const LoggingLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Layer.mergeAll(
      JsonLoggerLive,
      Logger.minimumLogLevel(Option.getOrElse(config.logLevel, () => LogLevel.Info))
    ))
)
