import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { CurrentActor } from "../auth/CurrentActor.js"
import { RubrApi } from "../Api.js"
import { ok } from "../http/Envelope.js"
import { resolvePage } from "../http/Pagination.js"
import { CreditsOverview } from "./Overview.js"

export const CreditsHttp = HttpApiBuilder.group(RubrApi, "credits", (handlers) =>
  Effect.gen(function*() {
    const overview = yield* CreditsOverview
    return handlers.handle("getCredits", ({ urlParams }) =>
      Effect.gen(function*() {
        const actor = yield* CurrentActor
        const page = yield* resolvePage({ limit: urlParams.limit })
        return yield* ok(yield* overview.of(actor.userId, page.limit))
      }))
  }))
