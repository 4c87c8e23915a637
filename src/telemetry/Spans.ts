/** Span helpers for the request path. */
import { Context, Effect, Tracer } from "effect"

/**
 * Sets attributes on the current span, if there is one. Unlike `Effect.annotateCurrentSpan` it costs
 * nothing when no span is open: with tracing off (no OTLP endpoint) requests run without spans, and
 * looking for a missing span through `Effect.currentSpan` allocates an error every time.
 */
export const annotateSpan = (attributes: Readonly<Record<string, unknown>>): Effect.Effect<void> =>
  Effect.contextWith((context) => {
    const span = Context.getOrElse(context, Tracer.ParentSpan, () => undefined)
    if (span !== undefined && span._tag === "Span") {
      for (const key in attributes) span.attribute(key, attributes[key])
    }
  })
