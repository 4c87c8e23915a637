/**
 * OpenTelemetry tracing: a span per request (the platform's http.server span) and per use case
 * (Effect.fn names), exported over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../config/AppConfig.js"

export const tracingWith = (spanProcessor: SpanProcessor) =>
  NodeSdk.layer(() => ({ resource: { serviceName: "rubr" }, spanProcessor }))

/**
 * Without an endpoint nothing would ever read a span, so none is built: Effect's tracer is off (use-case
 * spans are no-ops) and the http.server span is skipped (it parses the URL and copies every request and
 * response header into attributes, on every request).
 */
export const TracingOff = Layer.mergeAll(
  Layer.setTracerEnabled(false),
  Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true)
)

export const TracingLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.otlpEndpoint, {
      onNone: () => TracingOff,
      onSome: (endpoint) =>
        tracingWith(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, "")}/v1/traces` })))
    }))
)
