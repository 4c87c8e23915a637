/**
 * The rubr_flow conversion use cases. Target selection is the audits' (src/targets), except that
 * rubr_flow files are never input: they are what conversions write. The estimate route and the start
 * route share `prepare`; the start is the run pipeline's (src/jobs/Start.ts).
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect } from "effect"
import { PgPool, pgArray } from "../db/Database.js"
import { makeRows } from "../db/Query.js"
import type { Actor } from "../auth/CurrentActor.js"
import { isRubrFlow, pathProblem } from "../bundles/Detect.js"
import { AppConfig } from "../config/AppConfig.js"
import { creditCostOf } from "../credits/Estimate.js"
import { ValidationFailed } from "../domain/Errors.js"
import { RunRecords } from "../jobs/RunRecords.js"
import { runEstimate, runReads, startedData } from "../jobs/RunUseCases.js"
import { RunStarter } from "../jobs/Start.js"
import { VALIDATOR_VERSION } from "../rubr_flow/Validator.js"
import { targetDescription, Targets } from "../targets/Targets.js"
import { type ConversionRequest, DEFAULT_OUTPUT_PATH, StartConversionData } from "./Api.js"
import { ConversionKind } from "./Kind.js"
import { admittedSources, estimateConversion } from "./Sources.js"
import {
  conversionColumns,
  type ConversionRow,
  ConversionRows,
  toConversionJson,
  toConversionReport
} from "./Records.js"
import type { BundleId } from "../domain/Ids.js"

export class Conversions extends Effect.Service<Conversions>()("rubr/Conversions", {
  effect: Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const query = makeRows(yield* PgPool)
    const config = yield* AppConfig
    const targets = yield* Targets
    const starter = yield* RunStarter
    const records = yield* RunRecords

    /** The output path rules: a valid bundle path naming a rubr_flow file. */
    const checkOutputPath = (outputPath: string | undefined) =>
      Effect.gen(function*() {
        const path = outputPath ?? DEFAULT_OUTPUT_PATH
        const problem = pathProblem(path)
        if (problem) return yield* ValidationFailed.at("outputPath", problem)
        if (!path.endsWith(".rubr_flow") || !isRubrFlow(path)) {
          return yield* ValidationFailed.at("outputPath", "must name a rubr_flow file: end in .rubr_flow")
        }
        return path
      })

    /** Target, output path and estimate: the one computation behind both the estimate and the start route. */
    const prepare = Effect.fn("Conversions.prepare")(function*(actor: Actor, bundleId: BundleId, request: ConversionRequest) {
      const outputPath = yield* checkOutputPath(request.outputPath)
      const resolved = yield* targets.resolve(actor.userId, bundleId, request, { verb: "converted", excludeTypes: ["rubr_flow"] })
      const sources = admittedSources(resolved)
      const estimate = estimateConversion({
        // the converter reads the converted files in full; of the context it sees the paths only
        files: sources.files.map((f) => ({ path: f.path, content: f.role === "artifact" ? f.file.content : f.path, role: f.role })),
        modelTier: config.ai.conversionModelTier,
        mode: config.credits.auditMode,
        flatCredits: config.credits.conversionRunCredits
      })
      const target = { ...targetDescription(resolved), outputPath }
      return { resolved, sources, estimate, target, creditCost: creditCostOf(estimate, ConversionKind.debitReason) }
    })

    const estimate = runEstimate(records, "Conversions", prepare)

    const start = Effect.fn("Conversions.start")(function*(
      actor: Actor,
      bundleId: BundleId,
      request: ConversionRequest,
      idempotencyKey: string | undefined
    ) {
      return yield* starter.start({
        kind: ConversionKind,
        actor,
        bundleId,
        route: `POST /artifact-bundles/${bundleId}/rubr-flow/conversions`,
        idempotencyKey,
        request,
        prepare: prepare(actor, bundleId, request),
        credits: (prepared) => prepared.estimate.estimatedCredits,
        insertRun: ({ resolved, sources, estimate, target, creditCost }, ids) => {
          const summary: ConversionRow["summary"] = {
            estimate,
            target,
            creditCost,
            sourceSummary: sources.sourceSummary,
            sourceMapping: sources.sourceMapping
          }
          return query(ConversionRows, sql`
            INSERT INTO rubr_flow_conversions (id, artifact_bundle_id, user_id, job_id, requested_by_api_key_id, target_mode,
              target_file_id, source_file_version_id, artifact_bundle_version_number, input_version_ids, input_hash,
              output_path, validator_version, summary, estimated_credits)
            VALUES (${ids.runId}, ${bundleId}, ${actor.userId}, ${ids.jobId}, ${ids.apiKeyId}, ${resolved.mode},
              ${resolved.target?.fileId ?? null}, ${resolved.target?.fileVersionId ?? null}, ${resolved.artifactBundleVersionNumber},
              ${pgArray(resolved.inputVersionIds)}::uuid[], ${resolved.inputHash}, ${target.outputPath}, ${VALIDATOR_VERSION},
              ${JSON.stringify(summary)}::jsonb, ${estimate.estimatedCredits})
            RETURNING ${sql.literal(conversionColumns)}`).pipe(Effect.orDie, Effect.map((rows) => rows[0]!))
        },
        respond: startedData(StartConversionData, "conversion", toConversionJson)
      })
    })

    const { list, get } = runReads(records, {
      name: "Conversions",
      kind: ConversionKind,
      rows: ConversionRows,
      columns: conversionColumns,
      what: "Conversion",
      listKey: "conversions",
      toJson: toConversionJson,
      toDetail: toConversionReport
    })

    return { prepare, estimate, start, list, get } as const
  })
}) {}
