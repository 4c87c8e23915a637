/** Who is calling: resolved once per request by the authentication middleware. */
import { Context } from "effect"

export interface LoginIdentity {
  readonly provider: string
  readonly providerUserId: string
  readonly signInProvider: string
}

export type Actor =
  | { readonly kind: "login"; readonly userId: string; readonly identity: LoginIdentity }
  | { readonly kind: "apiKey"; readonly userId: string; readonly apiKeyId: string; readonly scopes: ReadonlySet<string> }

export class CurrentActor extends Context.Tag("rubr/CurrentActor")<CurrentActor, Actor>() {}

export const apiKeyIdOf = (actor: Actor): string | null => (actor.kind === "apiKey" ? actor.apiKeyId : null)
