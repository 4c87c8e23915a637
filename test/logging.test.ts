import { describe, expect, it, vi } from "@effect/vitest"
import { Effect, FiberRef } from "effect"
import { CurrentRequestId } from "../src/domain/RequestId.js"
import { JsonLoggerLive } from "../src/telemetry/Logging.js"

const capture = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)))
    yield* effect.pipe(Effect.provide(JsonLoggerLive), Effect.ensuring(Effect.sync(() => spy.mockRestore())))
    return lines.map((line) => JSON.parse(line))
  })

describe("JSON logs", () => {
  it.effect("a line written while a request is served carries its requestId", () =>
    Effect.gen(function*() {
      const [line] = yield* capture(
        Effect.logWarning("slow").pipe(Effect.locally(CurrentRequestId, "req-0123456789"))
      )
      expect(line.message).toBe("slow")
      expect(line.annotations).toEqual({ requestId: "req-0123456789" })
    }))

  it.effect("a line outside any request has no requestId, and an explicit one is kept", () =>
    Effect.gen(function*() {
      const lines = yield* capture(Effect.gen(function*() {
        yield* Effect.logWarning("startup")
        yield* FiberRef.set(CurrentRequestId, "req-from-fiber")
        yield* Effect.logWarning("explicit").pipe(Effect.annotateLogs("requestId", "req-explicit"))
      }))
      expect(lines[0].annotations).toEqual({})
      expect(lines[1].annotations).toEqual({ requestId: "req-explicit" })
    }))
})
