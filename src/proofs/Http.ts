import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import { CurrentActor } from "../auth/CurrentActor.js"
import { RubrApi } from "../Api.js"
import { BundleId, RunId } from "../domain/Ids.js"
import { ok } from "../http/Envelope.js"
import { startedResponse } from "../http/Idempotency.js"
import { ProofReports } from "./ProofReports.js"

export const ProofReportsHttp = HttpApiBuilder.group(RubrApi, "proofReports", (handlers) =>
  Effect.gen(function*() {
    const reports = yield* ProofReports
    return handlers
      .handle("listProofReports", ({ path, urlParams }) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.flatMap(reports.list(actor, BundleId.make(path.artifactBundleId), urlParams), ok)))
      .handle("createProofReport", ({ path, payload, headers }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          return yield* startedResponse(yield* reports.create(actor, BundleId.make(path.artifactBundleId), payload ?? {}, headers["idempotency-key"]))
        }))
      .handle("getProofReport", ({ path }) =>
        Effect.flatMap(CurrentActor, (actor) =>
          Effect.flatMap(reports.get(actor, BundleId.make(path.artifactBundleId), RunId.make(path.proofReportId)), (proofReport) => ok({ proofReport }))))
      .handle("exportProofReport", ({ path }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          const { body, source } = yield* reports.exportDocument(actor, BundleId.make(path.artifactBundleId), RunId.make(path.proofReportId))
          return HttpServerResponse.text(body, {
            contentType: "application/json",
            headers: {
              "content-disposition": `attachment; filename="proof-report-${path.proofReportId}.json"`,
              "x-rubr-export-source": source
            }
          })
        }))
  }))
