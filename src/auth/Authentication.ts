/** The one bearer-token middleware of the API: login tokens (JWT) and API keys share it. */
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { ForbiddenResponse, RateLimitExceededResponse, UnauthorizedResponse } from "../domain/Errors.js"
import { CurrentActor } from "./CurrentActor.js"

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("rubr/Authentication", {
  provides: CurrentActor,
  failure: Schema.Union(UnauthorizedResponse, ForbiddenResponse, RateLimitExceededResponse),
  security: {
    bearer: HttpApiSecurity.annotate(
      HttpApiSecurity.bearer,
      OpenApi.Description,
      "A login token (identity-provider JWT) or an API key (`rubr_...`)."
    )
  }
}) {}
