import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { CurrentActor } from "../auth/CurrentActor.js"
import { RubrApi } from "../Api.js"
import { ok } from "../http/Envelope.js"
import { CreditsOverview } from "./Overview.js"

export const CreditsHttp = HttpApiBuilder.group(RubrApi, "credits", (handlers) =>
  Effect.gen(function*() {
    const overview = yield* CreditsOverview
    return handlers.handle("getCredits", ({ urlParams }) =>
      Effect.flatMap(CurrentActor, (actor) => Effect.flatMap(overview.of(actor.userId, urlParams.limit), ok)))
  }))
