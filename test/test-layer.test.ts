/** makeTestLayer: what a test implements answers; anything else dies naming the service and method. */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { StorageError } from "../src/storage/Common.js"
import { ObjectStore } from "../src/storage/ObjectStore.js"
import { makeTestLayer } from "./support/TestLayer.js"

describe("makeTestLayer", () => {
  it.effect("an implemented method answers, and a store that is down fails as the test says", () =>
    Effect.gen(function*() {
      const store = yield* ObjectStore
      const failed = yield* Effect.flip(store.put("proof-reports/b/r.json", "{}", "application/json"))
      expect(failed).toMatchObject({ reason: "unavailable" })
    }).pipe(Effect.provide(makeTestLayer(ObjectStore)({
      put: () => Effect.fail(new StorageError({ reason: "unavailable", message: "the store is down" }))
    }))))

  it.effect("a method the test did not implement dies, naming the service and the method", () =>
    Effect.gen(function*() {
      const store = yield* ObjectStore
      const exit = yield* Effect.exit(store.get("proof-reports/b/r.json"))
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
      expect(Exit.isFailure(exit) ? Cause.pretty(exit.cause) : "").toContain("rubr/ObjectStore.get is not implemented in this test layer")
    }).pipe(Effect.provide(makeTestLayer(ObjectStore)({}))))
})
