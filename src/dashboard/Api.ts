/** The dashboard's one API route: the local developer's sign-in (src/dashboard/DevSignIn.ts). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Access, access } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"
import { Envelope, Timestamp } from "../http/Envelope.js"

export const DevSignInToken = Schema.Struct({
  token: Schema.String.annotations({ description: "a login token (JWT) for the local developer" }),
  tokenType: Schema.Literal("Bearer"),
  expiresAt: Timestamp
}).annotations({ identifier: "DevSignInToken" })

export class DevelopmentApi extends HttpApiGroup.make("development")
  .add(
    HttpApiEndpoint.post("signInAsLocalDeveloper", "/dev/sign-in")
      .addSuccess(Envelope(DevSignInToken))
      .pipe(statuses(404, 429))
      .annotate(Access, access.public)
      .annotate(OpenApi.Summary, "Sign in as the local developer")
      .annotate(
        OpenApi.Description,
        "Development only: a login token for the user `local-developer`, minted by the service with its own development key, " +
          "so the dashboard's \"Continue as a local developer\" signs in without copying tokens. " +
          "It exists only while the service verifies tokens against its own development JWKS (neither SERVICE_AUTH_JWKS_URL nor " +
          "SERVICE_AUTH_JWKS_FILE set) and listens on a loopback address; otherwise it answers 404 `not_found`."
      )
  )
  .annotate(OpenApi.Title, "Development")
  .annotate(OpenApi.Description, "Routes that exist only on a developer's machine.")
{}
