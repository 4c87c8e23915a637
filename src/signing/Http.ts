import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import { RubrApi } from "../Api.js"
import { SigningKeys } from "./SigningKeys.js"

export const SigningKeysHttp = HttpApiBuilder.group(RubrApi, "signingKeys", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* SigningKeys
    return handlers.handle("signingKeys", () =>
      keys.jwks.pipe(
        Effect.map((jwks) => HttpServerResponse.text(JSON.stringify(jwks), { contentType: "application/jwk-set+json" }))
      ))
  }))
