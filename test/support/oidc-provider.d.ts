/** The little of oidc-provider (which ships no types) the OpenID test uses. */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http"
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    callback(): (req: IncomingMessage, res: ServerResponse) => void
  }
}
