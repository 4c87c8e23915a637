/** Tracing switches and the span helper the request path uses. */
import { HttpMiddleware } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, FiberRef, Option } from "effect"
import { annotateSpan } from "../src/telemetry/Spans.js"
import { TracingOff } from "../src/telemetry/Tracing.js"

describe("tracing", () => {
  it.effect("with tracing off no span is built: Effect's tracer is off and the http.server span is skipped", () =>
    Effect.gen(function*() {
      expect(yield* FiberRef.get(FiberRef.currentTracerEnabled)).toBe(true)
      const [enabled, skipHttpSpan] = yield* Effect.all([
        FiberRef.get(FiberRef.currentTracerEnabled),
        FiberRef.get(HttpMiddleware.currentTracerDisabledWhen)
      ]).pipe(Effect.provide(TracingOff))
      expect(enabled).toBe(false)
      expect(skipHttpSpan({} as never)).toBe(true)
    }))

  it.effect("annotateSpan sets attributes on the open span and does nothing without one", () =>
    Effect.gen(function*() {
      const span = yield* Effect.gen(function*() {
        yield* annotateSpan({ "rubr.actor": "apiKey", "rubr.user_id": "u-1" })
        return yield* Effect.currentSpan
      }).pipe(Effect.withSpan("use case"))
      expect(span.attributes.get("rubr.actor")).toBe("apiKey")
      expect(span.attributes.get("rubr.user_id")).toBe("u-1")
      // no span open: no failure, nothing to see
      yield* annotateSpan({ "rubr.actor": "login" })
      expect(Option.isNone(yield* Effect.option(Effect.currentSpan))).toBe(true)
    }))
})
