/**
 * The whole public contract as one HttpApi: every group, under /api/v1. The CLI and tests derive a
 * typed client from it; /api/v1/openapi.json is generated from it.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { EmailPreferencesApi, NewsletterApi } from "./email/Api.js"
import { BundlesApi, FilesApi, VersionsApi } from "./bundles/Api.js"
import { IdentityApi } from "./identity/Api.js"
import { JobsApi } from "./jobs/Api.js"
import { AuditsApi } from "./audits/Api.js"
import { ConversionsApi } from "./conversions/Api.js"
import { RubrFlowApi } from "./rubr_flow/Api.js"
import { EvalsApi } from "./evals/Api.js"
import { ProofReportsApi } from "./proofs/Api.js"
import { SigningKeysApi } from "./signing/Api.js"
import { GuidesApi } from "./docs/Api.js"
import { McpApi } from "./mcp/Api.js"
import { CreditsApi } from "./credits/Api.js"
import { SystemApi } from "./system/Api.js"
import { DevelopmentApi } from "./dashboard/Api.js"
import { documentAccess, servers } from "./system/OpenApiAccess.js"

// The platform registers its own decode error (a 400 with `_tag` and `issues`) on every API. Ours is
// rewritten to the `validation_failed` envelope by the error middleware, so the contract drops it.
const base = HttpApi.make("rubr")
const withoutPlatformDecodeError = Object.assign(Object.create(Object.getPrototypeOf(base)), base, {
  errorSchema: Schema.Never
}) as HttpApi.HttpApi<"rubr", never, never>

const contract = withoutPlatformDecodeError
  .add(SystemApi)
  .add(IdentityApi)
  .add(BundlesApi).add(FilesApi).add(VersionsApi)
  .add(EmailPreferencesApi).add(NewsletterApi)
  .add(JobsApi).add(CreditsApi)
  .add(AuditsApi)
  .add(ConversionsApi).add(RubrFlowApi)
  .add(EvalsApi).add(ProofReportsApi).add(SigningKeysApi)
  .add(McpApi)
  .add(GuidesApi)
  .add(DevelopmentApi)
  .prefix("/api/v1")
  .annotate(OpenApi.Title, "rubr: Artifact Bundle Review Service")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(
    OpenApi.Description,
    "Reviews and improves LLM instruction artifacts. Success bodies are `{data, requestId}`; errors are `{error:{code, message, requestId, details}}`."
  )

/**
 * The contract, and its OpenAPI document: the servers the paths are relative to, and each operation's
 * access rule (`x-required-scopes` and a sentence) read off its `Access` annotation (src/system/OpenApiAccess.ts).
 */
export const RubrApi = contract
  .annotate(OpenApi.Servers, servers)
  .annotate(OpenApi.Transform, documentAccess(contract))

export type RubrApi = typeof RubrApi
