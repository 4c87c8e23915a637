/**
 * Public-route IP throttling. The client is the socket's peer address, or, when
 * SERVICE_TRUST_PROXY=true (and only then: the header is client-controlled otherwise), the last address
 * of X-Forwarded-For: the one the trusted proxy in front of us appended. Earlier entries come from the
 * client and would let it pick its own address past a proxy that appends rather than replaces.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Request from "@effect/platform/HttpServerRequest"
import { Effect, Option } from "effect"
import * as Net from "node:net"
import { AppConfig } from "../config/AppConfig.js"
import { RateLimiter } from "./RateLimiter.js"

const unmap = (ip: string) => (ip.startsWith("::ffff:") && Net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip)

export const clientIp = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  if (trustProxy) {
    const last = request.headers["x-forwarded-for"]?.split(",").at(-1)?.trim()
    if (last !== undefined && Net.isIP(last) !== 0) return unmap(last)
  }
  return Option.match(request.remoteAddress, { onNone: () => "unknown", onSome: unmap })
}

/** Counts the request against SERVICE_RATE_LIMIT_PUBLIC_IP_PER_MINUTE; 429 with Retry-After past it. */
export const throttlePublicIp = Effect.gen(function*() {
  const request = yield* Request.HttpServerRequest
  const { limits } = yield* AppConfig
  const limiter = yield* RateLimiter
  yield* limiter.hit([
    { key: `ip:${clientIp(request, limits.trustProxy)}`, limit: limits.rateLimitPublicIpPerMinute, label: "IP address" }
  ])
})
