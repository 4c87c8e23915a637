/**
 * The 13 API-key scopes and the access rule each endpoint declares beside its definition:
 * `access.scopes({ anyOf })`, `access.scopes({ allOf })`, `access.loginOnly` or `access.public`.
 */
import { Context, Schema } from "effect"

export const Scope = Schema.Literal(
  "artifact_bundles:read",
  "artifact_bundles:write",
  "artifacts:pull",
  "audits:run",
  "credits:read",
  "evals:run",
  "exports:read",
  "exports:write",
  "files:read",
  "files:write",
  "jobs:read",
  "jobs:write",
  "rubr_flow:convert"
)
export type Scope = typeof Scope.Type
export const allScopes: ReadonlyArray<Scope> = Scope.literals

export type AccessRule =
  | { readonly kind: "public" }
  | { readonly kind: "loginOnly" }
  | { readonly kind: "scoped"; readonly anyOf: ReadonlyArray<Scope>; readonly allOf: ReadonlyArray<Scope> }

/** Endpoint annotation read by the authentication middleware. */
export class Access extends Context.Tag("rubr/Access")<Access, AccessRule>() {}

/**
 * A public endpoint whose calls may also carry a bearer token (MCP: documentation tools are public,
 * product tools need the token). Such a call is counted per IP only when it carries none.
 */
export class AcceptsCredentials extends Context.Tag("rubr/AcceptsCredentials")<AcceptsCredentials, boolean>() {}

export const access = {
  public: { kind: "public" } as AccessRule,
  loginOnly: { kind: "loginOnly" } as AccessRule,
  /** Login tokens always pass; an API key needs one of `anyOf` (if given) and all of `allOf`. */
  scopes: (rule: { readonly anyOf?: ReadonlyArray<Scope>; readonly allOf?: ReadonlyArray<Scope> }): AccessRule => ({
    kind: "scoped",
    anyOf: rule.anyOf ?? [],
    allOf: rule.allOf ?? []
  })
}

export const describeRule = (rule: AccessRule): string => {
  switch (rule.kind) {
    case "public":
      return "public"
    case "loginOnly":
      return "login token only"
    case "scoped": {
      const parts: Array<string> = []
      if (rule.anyOf.length > 0) parts.push(rule.anyOf.join(" or "))
      if (rule.allOf.length > 0) parts.push(rule.allOf.join(" and "))
      return `login token, or API key with ${parts.join("; and ")}`
    }
  }
}

export const keySatisfies = (rule: AccessRule, granted: ReadonlySet<string>): boolean => {
  switch (rule.kind) {
    case "public":
      return true
    case "loginOnly":
      return false
    case "scoped":
      return (rule.anyOf.length === 0 || rule.anyOf.some((s) => granted.has(s))) &&
        rule.allOf.every((s) => granted.has(s))
  }
}
