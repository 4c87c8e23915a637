/**
 * The conversion work on a worker, phase by phase:
 *
 *   analysis    read exactly the admitted input versions; analyse them (Analysis.ts)
 *   mapping     plan which source ranges become which blocks
 *   generation  the converter (mock or AI) drafts the flow; it is rendered as YAML
 *   validation  the validator checks the text (with the real sources: line counts, hashes)
 *   repair      when invalid, exactly one repair attempt, validated again; still invalid: failed,
 *               the report keeps the issues and the repair details, and nothing is written
 *   saving      a new version of the output file (source rubr_flow_conversion), the reconciliation and
 *               the report, written with the job's completion in one transaction
 *
 * A failed conversion is refunded for the work not done: everything but the credits its provider
 * usage already cost (the mock's usage costs nothing).
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Schema } from "effect"
import { PgPool } from "../db/Database.js"
import { makeRows, rowsOf } from "../db/Query.js"
import { Files } from "../bundles/Files.js"
import { creditsForUsage } from "../credits/Estimate.js"
import { reconcileUsage } from "../credits/Reconcile.js"
import { type JobContext, JobFailure } from "../jobs/Job.js"
import type { AiProviderError } from "../ai/ProviderError.js"
import { addUsage, type Usage } from "../ai/Usage.js"
import { renderFlow } from "../rubr_flow/Render.js"
import { validateText, type ValidationResult } from "../rubr_flow/Validator.js"
import { Targets } from "../targets/Targets.js"
import { analyzeSources, assessFlow, blockMappingOf, coverageOf, planBlocks, type SourceAnalysis } from "./Analysis.js"
import { RubrFlowConverter } from "./Converter.js"
import { roleOf } from "./Sources.js"
import { type AttemptJson, conversionColumns, type ConversionReportJson, ConversionRow, type RepairJson, withAnalysis } from "./Records.js"
import { describeErrors, issueJson, validationJson } from "./Report.js"
import type { ConversionDraft, ConversionInput, ConversionSource } from "./Types.js"

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/** The comment lines at the top of a generated file (deterministic: no clock, no run id). */
export const headerOf = (sources: ReadonlyArray<ConversionSource>) => {
  const artifacts = sources.filter((s) => s.role === "artifact")
  const from = artifacts.length === 1
    ? `${artifacts[0]!.path} (${artifacts[0]!.contentHash.slice(0, 19)}…)`
    : `${artifacts.length} files`
  return [
    `rubr_flow 1.0: a procedure package converted by rubr from ${from}.`,
    "Edit it freely; `rubr validate FILE` checks it offline. Format: docs/rubr-flow.md"
  ]
}

const ConversionWithBundle = Schema.Struct({ ...ConversionRow.fields, bundleName: Schema.String })
type ConversionRun = typeof ConversionWithBundle.Type
const ConversionWithBundleRows = rowsOf("conversion with bundle name", ConversionWithBundle)

/** The run this job works on, with its bundle's name (a run deleted meanwhile fails the job). */
const loadRun = (ctx: JobContext) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const query = makeRows(yield* PgPool)
    const [run] = yield* query(ConversionWithBundleRows, sql`
      SELECT ${sql.literal(conversionColumns.split(",").map((c) => `c.${c.trim()}`).join(", "))}, b.name AS bundle_name
      FROM rubr_flow_conversions c JOIN artifact_bundles b ON b.id = c.artifact_bundle_id
      WHERE c.id = ${ctx.job.resourceId}`).pipe(Effect.orDie)
    if (!run) return yield* new JobFailure({ code: "run_missing", message: "The conversion no longer exists." })
    return run
  })

/** analysis: read exactly the admitted input versions, each with its role, and analyse them. */
const analyse = (ctx: JobContext, run: ConversionRun) =>
  Effect.gen(function*() {
    const targets = yield* Targets
    yield* ctx.phase("analysis", `Reading ${plural(run.inputVersionIds.length, "input file version")}.`)
    const rows = yield* targets.loadVersions(run.artifactBundleId, run.inputVersionIds)
    const role = roleOf({ mode: run.targetMode, files: rows })
    const sources: Array<ConversionSource> = rows.map((r) => ({
      path: r.path,
      content: r.content,
      fileVersionId: r.fileVersionId,
      contentHash: r.contentHash,
      artifactType: r.artifactType,
      role: role(r, run.sourceFileVersionId)
    }))
    const input: ConversionInput = {
      mode: run.targetMode,
      sources,
      bundleName: run.bundleName,
      modelTier: run.summary.estimate.modelTier,
      reasoningEffort: run.summary.estimate.reasoningEffort
    }
    return { input, analysis: analyzeSources(input) }
  })

/** The provider usage so far, and the credits a failure keeps for it (the rest is refunded). */
const usageMeter = (run: ConversionRun) => {
  let usage: Usage | null = null
  const { modelTier, reasoningEffort } = run.summary.estimate
  return {
    get usage() {
      return usage
    },
    add: (more: Usage | null) => {
      usage = addUsage(usage, more)
    },
    keepCredits: () => usage === null ? 0 : Math.min(run.estimatedCredits, creditsForUsage(usage, modelTier, reasoningEffort)),
    json: () => usage === null ? null : JSON.stringify(usage)
  }
}

/** What the phases after the analysis share. */
interface Conversion {
  readonly ctx: JobContext
  readonly run: ConversionRun
  readonly input: ConversionInput
  readonly analysis: SourceAnalysis
  readonly usage: ReturnType<typeof usageMeter>
  /** when the work started (the report's duration) */
  readonly started: number
}

/** The report as far as it got: written on failure too, as evidence. */
const reportOf = (
  { analysis, run, started }: Conversion,
  draft: ConversionDraft,
  validation: ValidationResult | null,
  repair: RepairJson | null,
  attempts: ReadonlyArray<AttemptJson>
): ConversionReportJson => {
  const blockMapping = blockMappingOf(draft.document)
  const assessed = assessFlow(draft.document, analysis)
  const byCode = <T extends { readonly code: string; readonly message: string }>(items: ReadonlyArray<T>) =>
    [...new Map(items.map((i) => [`${i.code}|${i.message}`, i])).values()]
  return {
    sourceSummary: withAnalysis(run.summary.sourceSummary, analysis.sourceSummary),
    sourceMapping: { sources: run.summary.sourceMapping.sources, ...coverageOf(draft.document, analysis) },
    blockMapping,
    missingRequirements: byCode([...assessed.missingRequirements, ...draft.missingRequirements]),
    validation: validation ? validationJson(validation) : null,
    repair,
    attempts,
    suggestedEvals: draft.suggestedEvals,
    remainingRisks: byCode([...assessed.remainingRisks, ...draft.remainingRisks]),
    metadata: { ...draft.provider, durationMs: Date.now() - started }
  }
}

/** Fails the job with `failure`, keeping the report and the usage on the run (never once it has an output). */
const failWithReport = ({ run, usage }: Conversion, report: ConversionReportJson, failure: JobFailure) =>
  Effect.flatMap(PgClient.PgClient, (sql) =>
    sql`UPDATE rubr_flow_conversions SET report = ${JSON.stringify(report)}::jsonb,
          usage = ${usage.json()}::jsonb, updated_at = now()
        WHERE id = ${run.id} AND output_file_version_id IS NULL`.pipe(Effect.orDie, Effect.zipRight(Effect.fail(failure))))

const providerFailure = ({ usage }: Conversion, error: AiProviderError) =>
  new JobFailure({ code: error.code, message: error.message, keepCredits: usage.keepCredits() })

/** A draft's text as the file will hold it, and the validator's verdict on it (with the real sources). */
const renderOf = ({ input }: Conversion, draft: ConversionDraft) => renderFlow(draft.document, { header: headerOf(input.sources) })
const validationOf = ({ input }: Conversion, text: string) =>
  validateText(text, {
    sources: input.sources.filter((s) => s.role === "artifact").map((s) => ({ path: s.path, content: s.content, contentHash: s.contentHash }))
  })

/** The draft that is kept, its text and validation, and how it got there. */
interface Outcome {
  readonly draft: ConversionDraft
  readonly text: string
  readonly validation: ValidationResult
  readonly repair: RepairJson
  readonly attempts: ReadonlyArray<AttemptJson>
}

/** generation: the converter (mock or AI) drafts the flow from the block plan. */
const generate = (c: Conversion, plan: ReturnType<typeof planBlocks>) =>
  Effect.gen(function*() {
    const converter = yield* RubrFlowConverter
    yield* c.ctx.phase("generation", "Drafting the rubr_flow from the block plan.")
    const draft = yield* converter.generate(c.input, c.analysis, plan).pipe(Effect.mapError((error) => providerFailure(c, error)))
    c.usage.add(draft.usage)
    return draft
  })

/** validation, and repair when invalid: a valid first draft needs none. */
const validate = (c: Conversion, draft: ConversionDraft) =>
  Effect.gen(function*() {
    const text = renderOf(c, draft)
    yield* c.ctx.phase("validation", `Validating the draft (${plural(text.split("\n").length - 1, "line")}).`)
    const first = validationOf(c, text)
    const attempts: Array<AttemptJson> = [{ attempt: 1, kind: "draft", text, validation: validationJson(first), changes: [] }]
    if (!first.valid) return yield* repairOnce(c, draft, first, attempts)
    yield* c.ctx.phase("repair", `Valid on the first try (${plural(first.issues.length, "warning")}); no repair needed.`)
    const repair: RepairJson = { attempted: false, succeeded: null, reason: "The first draft was valid; no repair was needed.", issuesBefore: [], changes: [] }
    return { draft, text, validation: first, repair, attempts } satisfies Outcome
  })

/** repair: exactly one attempt, validated again; still invalid fails the job with the report. */
const repairOnce = (c: Conversion, draft: ConversionDraft, first: ValidationResult, attempts: ReadonlyArray<AttemptJson>) =>
  Effect.gen(function*() {
    const converter = yield* RubrFlowConverter
    yield* c.ctx.phase("repair", `The draft has ${describeErrors(first)}; one repair attempt.`)
    const repaired = yield* converter.repair(c.input, c.analysis, draft, first.issues).pipe(
      Effect.catchAll((error) =>
        failWithReport(c, reportOf(c, draft, first, {
          attempted: true,
          succeeded: false,
          reason: `The repair attempt failed: ${error.message}`,
          issuesBefore: first.issues.map(issueJson),
          changes: []
        }, attempts), providerFailure(c, error))
      )
    )
    c.usage.add(repaired.usage)
    const text = renderOf(c, repaired)
    const final = validationOf(c, text)
    const both: ReadonlyArray<AttemptJson> = [...attempts, { attempt: 2, kind: "repair", text, validation: validationJson(final), changes: repaired.changes }]
    const repair: RepairJson = {
      attempted: true,
      succeeded: final.valid,
      reason: final.valid
        ? `The first draft had ${describeErrors(first)}; the repair fixed ${first.issues.filter((i) => i.severity === "error").length === 1 ? "it" : "them"}.`
        : `Still invalid after the repair attempt: ${describeErrors(final)}.`,
      issuesBefore: first.issues.map(issueJson),
      changes: repaired.changes
    }
    if (!final.valid) {
      return yield* failWithReport(
        c,
        reportOf(c, repaired, final, repair, both),
        new JobFailure({
          code: "conversion_invalid",
          message: `The generated rubr_flow is still invalid after one repair attempt: ${describeErrors(final)}. Nothing was saved; the report lists the issues.`,
          keepCredits: c.usage.keepCredits()
        })
      )
    }
    return { draft: repaired, text, validation: final, repair, attempts: both } satisfies Outcome
  })

/** saving: the output file's new version, the reconciliation and the report, with the job's completion. */
const save = (c: Conversion, { draft, text, validation: final, repair, attempts }: Outcome) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const bundleFiles = yield* Files
    const { ctx, run, usage } = c
    yield* ctx.phase("saving", `Valid (${plural(final.issues.length, "warning")}); saving ${run.outputPath}.`)
    const report = reportOf(c, draft, final, repair, attempts)
    return yield* ctx.complete(Effect.gen(function*() {
      const written = yield* bundleFiles.writeGenerated(
        { userId: run.userId, apiKeyId: run.requestedByApiKeyId },
        run.artifactBundleId,
        run.outputPath,
        text,
        { source: "rubr_flow_conversion", message: `rubr_flow conversion ${run.id}` }
      ).pipe(Effect.mapError((error) =>
        new JobFailure({ code: "output_not_saved", message: `The rubr_flow could not be saved: ${error.message}`, keepCredits: usage.keepCredits() })
      ))
      const { reconciliation, refunded } = yield* reconcileUsage({
        userId: run.userId,
        bundleId: run.artifactBundleId,
        resourceType: ctx.job.resourceType,
        resourceId: run.id,
        reason: "rubr_flow_conversion_usage_reconciliation",
        estimate: run.summary.estimate,
        chargedCredits: run.estimatedCredits,
        usage: usage.usage
      })
      yield* sql`
        UPDATE rubr_flow_conversions SET output_file_id = ${written.file.id}, output_file_version_id = ${written.version.id},
          report = ${JSON.stringify(report)}::jsonb,
          usage = ${usage.json()}::jsonb,
          reconciliation = ${JSON.stringify(reconciliation)}::jsonb,
          final_charged_credits = ${run.estimatedCredits - refunded},
          validator_version = ${final.validatorVersion},
          completed_at = now(), updated_at = now()
        WHERE id = ${run.id}`.pipe(Effect.orDie)
      return {
        conversionId: run.id,
        outputPath: run.outputPath,
        outputFileId: written.file.id,
        outputFileVersionId: written.version.id,
        outputVersionNumber: written.version.versionNumber,
        repaired: repair.attempted,
        warningCount: final.issues.length
      }
    }))
  })

export const conversionWork = (ctx: JobContext) =>
  Effect.gen(function*() {
    const run = yield* loadRun(ctx)
    const started = Date.now()
    const { input, analysis } = yield* analyse(ctx, run)
    const c: Conversion = { ctx, run, input, analysis, usage: usageMeter(run), started }

    // mapping: which source ranges become which blocks
    const artifacts = input.sources.filter((s) => s.role === "artifact")
    yield* ctx.phase("mapping", `Analysed ${artifacts.map((s) => s.path).join(", ")}; mapping sections, steps and rules to blocks.`)
    const plan = planBlocks(analysis)

    const draft = yield* generate(c, plan)
    return yield* save(c, yield* validate(c, draft))
  })
