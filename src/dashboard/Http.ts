import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { RubrApi } from "../Api.js"
import { ok } from "../http/Envelope.js"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { NotFound } from "../domain/Errors.js"
import { DEV_SIGN_IN_PATH, DevSignIn, isLoopbackHost } from "./DevSignIn.js"

/** The host name of a `Host` or `Origin` value (`[::1]:3000`, `http://localhost:3000` → `::1`, `localhost`). */
const hostNameOf = (value: string) => {
  try {
    return new URL(value.includes("://") ? value : `http://${value}`).hostname
  } catch {
    return ""
  }
}

/**
 * Only pages of this machine may sign in as the local developer: the request must name a loopback host
 * (a page on another domain that re-resolves to 127.0.0.1, DNS rebinding, names its own) and come from a
 * loopback origin when a browser says where it comes from. Anything else finds no route.
 */
const fromThisMachine = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  const origin = request.headers["origin"]
  return isLoopbackHost(hostNameOf(request.headers["host"] ?? "")) && (origin === undefined || isLoopbackHost(hostNameOf(origin)))
})

export const DevelopmentHttp = HttpApiBuilder.group(RubrApi, "development", (handlers) =>
  Effect.map(DevSignIn, (dev) =>
    handlers.handle("signInAsLocalDeveloper", () =>
      Effect.flatMap(fromThisMachine, (local) =>
        local
          ? Effect.flatMap(dev.signIn(), ok)
          : new NotFound({ message: `No route for POST ${DEV_SIGN_IN_PATH}.`, details: [] })))))
