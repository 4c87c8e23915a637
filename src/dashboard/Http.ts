import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { RubrApi } from "../http/Api.js"
import { ok } from "../http/Envelope.js"
import { DevSignIn } from "./DevSignIn.js"

export const DevelopmentHttp = HttpApiBuilder.group(RubrApi, "development", (handlers) =>
  Effect.map(DevSignIn, (dev) => handlers.handle("signInAsLocalDeveloper", () => Effect.flatMap(dev.signIn(), ok))))
