/**
 * The public keys that verify signed exports (proof reports): a JWKS (RFC 7517), public, answered as
 * the key set itself (`application/jwk-set+json`, not the `{data}` envelope) so any JOSE library or
 * `rubr verify --keys` reads it as is. Every key the service ever signed with, the active key first.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Access, access } from "../auth/Scopes.js"
import { statuses } from "../http/Endpoint.js"

export const PublicSigningJwk = Schema.Struct({
  kty: Schema.Literal("OKP", "EC"),
  crv: Schema.Literal("Ed25519", "P-256"),
  x: Schema.String,
  y: Schema.optional(Schema.String).annotations({ description: "P-256 keys only" }),
  kid: Schema.String.annotations({ description: "RFC 7638 SHA-256 JWK thumbprint; an export's signature.kid" }),
  alg: Schema.Literal("EdDSA", "ES256"),
  use: Schema.Literal("sig")
}).annotations({ identifier: "PublicSigningJwk", description: "A public signing key (JWK)" })

export const SigningJwks = Schema.Struct({ keys: Schema.Array(PublicSigningJwk) }).pipe(
  HttpApiSchema.withEncoding({ kind: "Json", contentType: "application/jwk-set+json" })
).annotations({ identifier: "SigningJwks", description: "A JWK Set: every key that ever signed an export, the active key first" })

export class SigningKeysApi extends HttpApiGroup.make("signingKeys")
  .add(
    HttpApiEndpoint.get("signingKeys", "/signing-keys")
      .addSuccess(SigningJwks)
      .pipe(statuses(429))
      .annotate(Access, access.public)
      .annotate(
        OpenApi.Description,
        "The JWKS that verifies signed exports (proof reports). A rotated-out key stays listed, so older exports keep verifying. The body is the key set itself, not the `{data}` envelope."
      )
      .annotate(OpenApi.Summary, "List the signing keys")
  )
  .annotate(OpenApi.Title, "Signing keys")
  .annotate(OpenApi.Description, "The public keys (a JWKS) that verify the service's signed exports. Public, no token needed.")
{}
