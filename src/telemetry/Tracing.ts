/**
 * OpenTelemetry tracing: a span per request (the platform's http.server span) and per use case
 * (Effect.fn names). Spans are exported over OTLP only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
import { NodeSdk } from "@effect/opentelemetry"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../config/AppConfig.js"

export const tracingWith = (spanProcessor: SpanProcessor) =>
  NodeSdk.layer(() => ({ resource: { serviceName: "rubr" }, spanProcessor }))

export const TracingLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.otlpEndpoint, {
      onNone: () => Layer.empty,
      onSome: (endpoint) =>
        tracingWith(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, "")}/v1/traces` })))
    }))
)
