/** The id of the request being served, set once per request by the outer HTTP middleware. */
import { Effect, FiberRef } from "effect"

export const CurrentRequestId = FiberRef.unsafeMake<string>("")

export const currentRequestId: Effect.Effect<string> = FiberRef.get(CurrentRequestId)

const incoming = /^[A-Za-z0-9._:-]{8,128}$/

/** Honour a well-formed incoming X-Request-Id (tracing through proxies); otherwise mint a UUID. */
export const requestIdFrom = (header: string | undefined): string =>
  header !== undefined && incoming.test(header) ? header : crypto.randomUUID()
