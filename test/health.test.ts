import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeTestApp, TestApp } from "./support/TestApp.js"

layer(makeTestApp())("health and envelopes", (it) => {
  it.effect("health answers ok with the database and a request id", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const reply = yield* Effect.promise(() => app.request("GET", "/health"))
      expect(reply.status).toBe(200)
      expect(reply.body.data).toEqual({ status: "ok", database: "ok" })
      expect(reply.headers.get("x-request-id")).toBe(reply.body.requestId)
    }))
})

