/**
 * The MCP tools: the contract's 19, each a thin door onto the same use cases as its REST route.
 * Inputs are Effect Schemas composed from the REST payloads and path ids; outputs are the REST
 * route's `data` schema (read off the HttpApi definition), so `outputSchema` and `structuredContent`
 * match the REST answer field for field. A product tool's access rule is its REST route's; the three
 * documentation tools are public.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, type Redacted, Schema } from "effect"
import { Audits } from "../audits/Audits.js"
import { AppConfig } from "../config/AppConfig.js"
import { AuditRequest } from "../audits/Api.js"
import { Actors } from "../auth/Actors.js"
import type { Actor } from "../auth/CurrentActor.js"
import { type AccessRule, access, keySatisfies } from "../auth/Scopes.js"
import { Bundles } from "../bundles/Bundles.js"
import { Files } from "../bundles/Files.js"
import { Versions } from "../bundles/Versions.js"
import { CreateBundle, PutFile, RestoreBundle, UploadItem } from "../bundles/Api.js"
import { ConversionRequest } from "../conversions/Api.js"
import { Conversions } from "../conversions/Conversions.js"
import { type ApiError, Forbidden, NotFound, type RateLimitExceeded, type Unauthorized, ValidationFailed } from "../domain/Errors.js"
import * as Ids from "../domain/Ids.js"
import { EvalRequestFields } from "../evals/Api.js"
import { Evals } from "../evals/Evals.js"
import { RubrApi } from "../Api.js"
import { IDEMPOTENCY_KEY } from "../http/IdempotencyKey.js"
import { PAGE_LIMIT_DESCRIPTION } from "../http/PageParams.js"
import { resolvePage } from "../http/Pagination.js"
import { accessRuleFor } from "../Routes.js"
import { Job, JobEvent } from "../jobs/Api.js"
import type { JobKind } from "../jobs/Job.js"
import { Jobs, toJobJson } from "../jobs/Jobs.js"
import { ProofReport } from "../proofs/Api.js"
import { ProofReports } from "../proofs/ProofReports.js"
import { openApiDocument } from "../system/Http.js"
import { findDoc, loadDocs, searchDocs } from "../docs/Docs.js"
import { render } from "./Render.js"

export interface ToolAnnotations {
  readonly title: string
  readonly readOnlyHint: boolean
  readonly destructiveHint: boolean
  readonly idempotentHint: boolean
  readonly openWorldHint: boolean
}

/** A tool with its services captured: what the MCP server lists and calls. */
export interface Tool {
  readonly name: string
  readonly description: string
  readonly input: Schema.Schema<any, any>
  readonly output: Schema.Schema<any, any>
  /** who may call it: `public`, or the rule of its REST route (login tokens pass; keys need the scopes) */
  readonly access: AccessRule
  readonly annotations: ToolAnnotations
  readonly run: (input: any, actor: Actor | null) => Effect.Effect<unknown, ApiError>
  /** a short reading for people, the second text item of the result */
  readonly render?: ((output: any) => string | undefined) | undefined
  /**
   * The result is exactly its output schema's type, which encodes as JSON.stringify does: it is
   * serialized as it is, once, as the REST route writes it (src/http/DirectJson.ts).
   */
  readonly directOutput?: boolean | undefined
}

/** The sentence a tool's description ends with: who may call it, read off its access rule. */
export const accessSentence = (rule: AccessRule): string => {
  switch (rule.kind) {
    case "public":
      return "Public: no token needed."
    case "loginOnly":
      return "Login tokens only (no API key)."
    case "scoped":
      return rule.allOf.length > 0
        ? `Scopes: ${[...rule.allOf, ...(rule.anyOf.length > 0 ? [`one of ${rule.anyOf.join(", ")}`] : [])].join(" and ")}.`
        : `Scope: ${rule.anyOf.join(" or ")}.`
  }
}

const tool = <I, IE, O, OE>(def: {
  readonly name: string
  readonly description: string
  readonly input: Schema.Schema<I, IE>
  readonly output: Schema.Schema<O, OE>
  readonly access: AccessRule
  /** replaces the sentence read off `access` where a tool's parts need different scopes */
  readonly scopeNote?: string
  readonly annotations: ToolAnnotations
  readonly run: (input: I, actor: Actor) => Effect.Effect<O, ApiError, SqlClient.SqlClient | AppConfig>
  readonly render?: (output: O) => string | undefined
  readonly directOutput?: boolean
}): Tool => {
  const { scopeNote, ...rest } = def
  const description = `${def.description.trimEnd()} ${scopeNote ?? accessSentence(def.access)}`
  return { ...rest, description } as unknown as Tool
}

/** The access rule of a REST route: a renamed or removed route stops the start, not a user. */
const restAccess = (method: string, path: string): AccessRule => {
  const rule = accessRuleFor(method, `/api/v1${path}`)
  if (rule === undefined) throw new Error(`MCP tool refers to an unknown route ${method} ${path}`)
  return rule
}

/** The `data` schema of a REST route's success answer. */
const restData = (group: string, endpoint: string): Schema.Schema<any, any> => {
  const api = RubrApi as unknown as {
    readonly groups: Record<string, { readonly endpoints: Record<string, { readonly successSchema: { readonly fields?: Record<string, Schema.Schema<any, any>> } }> }>
  }
  const data = api.groups[group]?.endpoints[endpoint]?.successSchema.fields?.["data"]
  if (data === undefined) throw new Error(`MCP tool refers to an unknown REST answer ${group}.${endpoint}`)
  return data
}

const read = (title: string): ToolAnnotations => ({ title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false })
const write = (title: string, idempotent = false): ToolAnnotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: idempotent,
  openWorldHint: false
})

const BundleId = { artifactBundleId: Schema.UUID.annotations({ description: "the bundle's id (list_bundles)" }) }
const FileId = { ...BundleId, fileId: Schema.UUID.annotations({ description: "the file's id (list_files)" }) }
// the range is the configured one, checked by resolvePage as for REST
const Limit = Schema.optional(Schema.Int.annotations({ description: PAGE_LIMIT_DESCRIPTION }))
const Offset = Schema.optional(Schema.Int.pipe(Schema.nonNegative()).annotations({ description: "rows to skip (default 0)" }))
const Cursor = Schema.optional(Schema.String.annotations({ description: "nextCursor of the previous page" }))
const IdempotencyKey = Schema.optional(Schema.String.pipe(Schema.pattern(IDEMPOTENCY_KEY)).annotations({
  description: "retry-safe: the same key and arguments answer the first start again instead of starting twice"
}))

const strict = { parseOptions: { errors: "all", onExcessProperty: "error" } } as const

/** A start answers its encoded data (what the idempotency store keeps); it is decoded to be encoded again as structured content. */
const startData = (schema: Schema.Schema<any, any>) => {
  const decode = Schema.decodeUnknown(schema)
  return (started: { readonly data: unknown }) => decode(started.data).pipe(Effect.orDie)
}

/** Whether the actor passes a REST route's rule (login tokens always pass). */
const passes = (actor: Actor, rule: AccessRule) => actor.kind === "login" || keySatisfies(rule, actor.scopes)

/** A tool that does several routes' work checks each part against its route's rule, as REST would. */
const requireRoute = (actor: Actor, rule: AccessRule, what: string) =>
  passes(actor, rule)
    ? Effect.void
    : Effect.fail(new Forbidden({ message: `This API key lacks the scope ${what} needs (${accessSentence(rule)})`, details: [{ ...rule }] }))

/** The REST route that reads each kind's run: get_job includes the run only where that route would answer. */
const runReadRoute: Record<JobKind, AccessRule> = {
  audit: restAccess("GET", "/artifact-bundles/:artifactBundleId/audits/:auditRunId"),
  rubr_flow_conversion: restAccess("GET", "/artifact-bundles/:artifactBundleId/rubr-flow/conversions/:conversionId"),
  eval: restAccess("GET", "/artifact-bundles/:artifactBundleId/evals/:evalRunId"),
  proof_report: restAccess("GET", "/artifact-bundles/:artifactBundleId/proof-reports/:proofReportId")
}
const proofReportCreate = restAccess("POST", "/artifact-bundles/:artifactBundleId/proof-reports")
const proofReportRead = runReadRoute.proof_report

const scopesOf = (rule: AccessRule) => (rule.kind === "scoped" ? rule.anyOf.join(" or ") : accessSentence(rule))
/** A tool doing either of two scoped routes' work: a key with a scope of either may call it (each part checks its own). */
const eitherRoute = (a: AccessRule, b: AccessRule): AccessRule => {
  if (a.kind !== "scoped" || b.kind !== "scoped" || a.allOf.length > 0 || b.allOf.length > 0) {
    throw new Error("eitherRoute joins two routes that need one of some scopes")
  }
  return access.scopes({ anyOf: [...new Set([...a.anyOf, ...b.anyOf])] })
}

/** The documentation tools (public): search and read the docs, read the OpenAPI document. */
const docTools = Effect.sync(() => {
  const docs = loadDocs()
  const openApi = openApiDocument()
  const SearchHit = Schema.Struct({
    slug: Schema.String,
    path: Schema.String,
    title: Schema.String,
    section: Schema.NullOr(Schema.String),
    snippet: Schema.String,
    score: Schema.Number
  })
  const DocText = Schema.Struct({ slug: Schema.String, path: Schema.String, title: Schema.String, content: Schema.String })
  return [
    tool({
      name: "search_docs",
      description: "Search rubr's documentation (the README and docs/) for a topic: routes, scopes, credits, the rubr_flow format, evals, errors. " +
        "Returns ranked pages with a slug, a title, the best section and a snippet; read one with read_doc.",
      input: Schema.Struct({
        query: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)).annotations({ description: "a few words, e.g. 'proof report signature'" }),
        limit: Schema.optional(Schema.Int.pipe(Schema.between(1, 20)).annotations({ description: "results, 1..20 (default 8)" }))
      }).annotations(strict),
      output: Schema.Struct({ results: Schema.Array(SearchHit) }),
      access: access.public,
      annotations: read("Search the docs"),
      run: ({ query, limit }) => Effect.succeed({ results: searchDocs(docs, query, limit ?? 8) }),
      render: render.searchResults
    }),
    tool({
      name: "read_doc",
      description: "Read one page of rubr's documentation, by slug (from search_docs, e.g. 'evals') or by path ('README.md', 'docs/evals.md'). " +
        "Only the README and docs/*.md can be read.",
      input: Schema.Struct({
        slug: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))),
        path: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(300)))
      }).annotations(strict),
      output: DocText,
      access: access.public,
      annotations: read("Read a doc page"),
      run: ({ slug, path }) =>
        Effect.gen(function*() {
          if ((slug === undefined) === (path === undefined)) {
            return yield* ValidationFailed.of("Give either slug or path.", [{ path: "slug", message: "exactly one of slug and path" }])
          }
          const doc = findDoc(docs, { slug, path })
          if (doc) return { slug: doc.slug, path: doc.path, title: doc.title, content: doc.content }
          if (path !== undefined) {
            return yield* ValidationFailed.at("path", "must be README.md or a page under docs/ (docs/NAME.md)")
          }
          return yield* new NotFound({ message: `No doc page has the slug ${slug}; search_docs lists them.`, details: [] })
        })
    }),
    tool({
      name: "read_openapi",
      description: "Read the OpenAPI 3.1.0 document of rubr's REST API (every route, its scopes, parameters, bodies and answers).",
      // no arguments: an empty Struct would accept anything, so every key is refused explicitly
      input: Schema.Struct({}, { key: Schema.String, value: Schema.Never }),
      output: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
      access: access.public,
      annotations: read("Read the OpenAPI document"),
      run: () => Effect.succeed(openApi as Record<string, unknown>),
      render: () => `OpenAPI ${openApi.openapi}: ${Object.keys(openApi.paths ?? {}).length} paths.`
    })
  ]
})

/** The bundle tools: list, create and read bundles. */
const bundleTools = Effect.gen(function*() {
  const bundles = yield* Bundles
  return [
    tool({
      name: "list_bundles",
      description: "List your artifact bundles (one artifact under review, e.g. a skill, with its references), newest first.",
      input: Schema.Struct({
        status: Schema.optional(Schema.Literal("active", "archived", "all").annotations({ description: "default all" })),
        limit: Limit,
        offset: Offset
      }).annotations(strict),
      output: restData("artifactBundles", "list"),
      access: restAccess("GET", "/artifact-bundles"),
      annotations: read("List bundles"),
      run: ({ status, limit, offset }, actor) =>
        Effect.flatMap(resolvePage({ limit, offset }), (page) => bundles.list(actor, status ?? "all", page)),
      render: render.bundles
    }),
    tool({
      name: "create_bundle",
      description: "Create an artifact bundle to hold one artifact (skill, agent instructions, prompt, command, workflow) and its files; " +
        "then add files with upload_files.",
      input: CreateBundle,
      output: restData("artifactBundles", "create"),
      access: restAccess("POST", "/artifact-bundles"),
      annotations: write("Create a bundle"),
      run: (input, actor) => Effect.map(bundles.create(actor, input), (artifactBundle) => ({ artifactBundle }))
    }),
    tool({
      name: "get_bundle",
      description: "Read one bundle: its record (main artifact, counts, latest version), its files and its folder tree.",
      input: Schema.Struct(BundleId).annotations(strict),
      output: restData("artifactBundles", "get"),
      access: restAccess("GET", "/artifact-bundles/:artifactBundleId"),
      annotations: read("Read a bundle"),
      run: ({ artifactBundleId }, actor) => bundles.get(actor, Ids.BundleId.make(artifactBundleId)),
      render: render.bundle
    })
  ]
})

/** The file tools: upload, list, read and write a bundle's files. */
const fileTools = Effect.gen(function*() {
  const bundleFiles = yield* Files
  const bundleVersions = yield* Versions
  return [
    tool({
      name: "upload_files",
      description: "Add new text files to a bundle (1-100 per call; each becomes version 1). The main artifact is detected from names like SKILL.md or AGENTS.md. " +
        "An existing path is a conflict: change it with update_file.",
      input: Schema.Struct({ ...BundleId, files: Schema.Array(UploadItem).pipe(Schema.minItems(1)) }).annotations(strict),
      output: restData("files", "upload"),
      access: restAccess("POST", "/artifact-bundles/:artifactBundleId/files"),
      annotations: write("Upload files"),
      run: ({ artifactBundleId, files }, actor) => Effect.map(bundleFiles.upload(actor, Ids.BundleId.make(artifactBundleId), files), (written) => ({ files: written })),
      render: render.written
    }),
    tool({
      name: "list_files",
      description: "List a bundle's active files (path, type, size, latest version) and its folder tree.",
      input: Schema.Struct({ ...BundleId, limit: Limit, offset: Offset }).annotations(strict),
      output: restData("files", "list"),
      access: restAccess("GET", "/artifact-bundles/:artifactBundleId/files"),
      annotations: read("List files"),
      run: ({ artifactBundleId, limit, offset }, actor) =>
        Effect.flatMap(resolvePage({ limit, offset }), (page) => bundleFiles.list(actor, Ids.BundleId.make(artifactBundleId), page)),
      render: render.files
    }),
    tool({
      name: "read_file",
      description: "Read a file's content: its latest version, or an earlier one with versionNumber.",
      input: Schema.Struct({
        ...FileId,
        versionNumber: Schema.optional(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)).annotations({ description: "default: the latest" }))
      }).annotations(strict),
      output: restData("files", "get"),
      // the file read's answer, written as the REST route writes it (the hottest tool)
      directOutput: true,
      access: restAccess("GET", "/artifact-bundles/:artifactBundleId/files/:fileId"),
      annotations: read("Read a file"),
      run: ({ artifactBundleId, fileId, versionNumber }, actor) =>
        versionNumber === undefined
          ? bundleFiles.get(actor, Ids.BundleId.make(artifactBundleId), Ids.FileId.make(fileId))
          : Effect.gen(function*() {
            const latest = yield* bundleFiles.get(actor, Ids.BundleId.make(artifactBundleId), Ids.FileId.make(fileId))
            const { version, content } = yield* bundleVersions.getOfFile(actor, Ids.BundleId.make(artifactBundleId), Ids.FileId.make(fileId), versionNumber)
            return { file: latest.file, version, content }
          })
    }),
    tool({
      name: "update_file",
      description: "Write new content to an existing file: it becomes the file's next version (earlier versions stay readable).",
      input: Schema.Struct({ ...FileId, ...PutFile.fields }).annotations(strict),
      output: restData("files", "update"),
      access: restAccess("PUT", "/artifact-bundles/:artifactBundleId/files/:fileId"),
      annotations: write("Update a file"),
      run: ({ artifactBundleId, fileId, content, mediaType, message }, actor) =>
        bundleFiles.write(actor, Ids.BundleId.make(artifactBundleId), Ids.FileId.make(fileId), content, { mediaType, message }),
      render: render.written
    })
  ]
})

/** The version tools: list and restore a bundle's or a file's versions. */
const versionTools = Effect.gen(function*() {
  const bundleVersions = yield* Versions
  return [
    tool({
      name: "list_bundle_versions",
      description: "List a bundle's version events (one per file change, numbered across the bundle), newest first.",
      input: Schema.Struct({ ...BundleId, limit: Limit, offset: Offset, cursor: Cursor }).annotations(strict),
      output: restData("versions", "listBundleVersions"),
      access: restAccess("GET", "/artifact-bundles/:artifactBundleId/versions"),
      annotations: read("List bundle versions"),
      run: ({ artifactBundleId, limit, offset, cursor }, actor) =>
        Effect.flatMap(resolvePage({ limit, offset }), (page) => bundleVersions.listOfBundle(actor, Ids.BundleId.make(artifactBundleId), page, cursor)),
      render: render.versions
    }),
    tool({
      name: "restore_bundle_version",
      description: "Restore the bundle's files as they were at a bundle version number: each changed file gets a new version (history is never rewritten); " +
        "files created later or deleted are reported as skipped.",
      input: Schema.Struct({ ...BundleId, ...RestoreBundle.fields }).annotations(strict),
      output: restData("versions", "restoreBundle"),
      access: restAccess("POST", "/artifact-bundles/:artifactBundleId/restore"),
      annotations: write("Restore a bundle version"),
      run: ({ artifactBundleId, versionNumber, message }, actor) => bundleVersions.restoreBundle(actor, Ids.BundleId.make(artifactBundleId), versionNumber, message)
    }),
    tool({
      name: "list_file_versions",
      description: "List one file's versions (number, source, hash, size, message), newest first.",
      input: Schema.Struct({ ...FileId, limit: Limit, offset: Offset, cursor: Cursor }).annotations(strict),
      output: restData("versions", "listFileVersions"),
      access: restAccess("GET", "/artifact-bundles/:artifactBundleId/files/:fileId/versions"),
      annotations: read("List file versions"),
      run: ({ artifactBundleId, fileId, limit, offset, cursor }, actor) =>
        Effect.flatMap(resolvePage({ limit, offset }), (page) => bundleVersions.listOfFile(actor, Ids.BundleId.make(artifactBundleId), Ids.FileId.make(fileId), page, cursor)),
      render: render.versions
    }),
    tool({
      name: "restore_file_version",
      description: "Make an earlier version of a file its newest version again (a new version with that content).",
      input: Schema.Struct({
        ...FileId,
        versionNumber: Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)),
        message: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
      }).annotations(strict),
      output: restData("versions", "restoreFileVersion"),
      access: restAccess("POST", "/artifact-bundles/:artifactBundleId/files/:fileId/versions/:versionNumber/restore"),
      annotations: write("Restore a file version"),
      run: ({ artifactBundleId, fileId, versionNumber, message }, actor) =>
        bundleVersions.restoreFile(actor, Ids.BundleId.make(artifactBundleId), Ids.FileId.make(fileId), versionNumber, message),
      render: render.written
    })
  ]
})

/** The work tools: start the credit-spending runs (audits, conversions, evals) and create or export proof reports; each answers with a job to poll. */
const workTools = Effect.gen(function*() {
  const audits = yield* Audits
  const conversions = yield* Conversions
  const evals = yield* Evals
  const proofReports = yield* ProofReports
  const StartAuditData = restData("audits", "startAudit")
  const StartConversionData = restData("conversions", "startConversion")
  const StartEvalData = restData("evals", "startEval")
  const decodeProofReport = Schema.decodeUnknown(ProofReport)
  return [
    tool({
      name: "start_audit",
      description: "Start a rubric audit of the bundle's main artifact (or a file version): scores, findings that point at lines, an improved version and an eval kit. " +
        "Spends credits (the estimate is in the answer). Answers at once with a jobId: poll get_job until it is completed, then read the findings there.",
      input: Schema.Struct({ ...BundleId, ...AuditRequest.fields, idempotencyKey: IdempotencyKey }).annotations(strict),
      output: StartAuditData,
      access: restAccess("POST", "/artifact-bundles/:artifactBundleId/audits"),
      annotations: write("Start an audit"),
      run: ({ artifactBundleId, idempotencyKey, ...request }, actor) =>
        Effect.flatMap(audits.start(actor, Ids.BundleId.make(artifactBundleId), request, idempotencyKey), startData(StartAuditData)),
      render: render.started
    }),
    tool({
      name: "convert_to_rubr_flow",
      description: "Convert the bundle's main artifact (or a file version) into a rubr_flow procedure package: steps with checks, guardrails, failure handling, " +
        "source mapping, validated and written to outputPath (default generated/rubr_flow.rubr_flow). Spends credits. Answers with a jobId: poll get_job.",
      input: Schema.Struct({ ...BundleId, ...ConversionRequest.fields, idempotencyKey: IdempotencyKey }).annotations(strict),
      output: StartConversionData,
      access: restAccess("POST", "/artifact-bundles/:artifactBundleId/rubr-flow/conversions"),
      annotations: write("Convert to rubr_flow"),
      run: ({ artifactBundleId, idempotencyKey, ...request }, actor) =>
        Effect.flatMap(conversions.start(actor, Ids.BundleId.make(artifactBundleId), request, idempotencyKey), startData(StartConversionData)),
      render: render.started
    }),
    tool({
      name: "start_eval",
      description: "Compare two versions of a file on test cases: did an edit make it better or worse, on which cases? Default: version 1 against the latest version of the main artifact. " +
        "Cases come from testCases, else the latest audit's eval kit, else are generated. Spends credits per case. Answers with a jobId: poll get_job.",
      input: Schema.Struct({ ...BundleId, ...EvalRequestFields, idempotencyKey: IdempotencyKey }).annotations(strict),
      output: StartEvalData,
      access: restAccess("POST", "/artifact-bundles/:artifactBundleId/evals"),
      annotations: write("Start an eval"),
      run: ({ artifactBundleId, idempotencyKey, ...request }, actor) =>
        Effect.flatMap(evals.start(actor, Ids.BundleId.make(artifactBundleId), request, idempotencyKey), startData(StartEvalData)),
      render: render.started
    }),
    tool({
      name: "export_proof_report",
      description: "Proof reports are signed evidence of a completed eval, bound to the exact bytes of both versions. With evalRunId (and optionally auditRunId) this creates one " +
        "(0 credits; poll get_job); with proofReportId it returns the report and, once completed, its signed export document (verify it with the public keys at /api/v1/signing-keys).",
      scopeNote: `Scopes: ${scopesOf(proofReportCreate)} to create; ${scopesOf(proofReportRead)} to read.`,
      input: Schema.Struct({
        ...BundleId,
        proofReportId: Schema.optional(Schema.UUID.annotations({ description: "read this report (and its export once completed)" })),
        evalRunId: Schema.optional(Schema.UUID.annotations({ description: "create a report of this completed eval run" })),
        auditRunId: Schema.optional(Schema.UUID.annotations({ description: "with evalRunId: a completed audit to include" })),
        idempotencyKey: IdempotencyKey
      }).annotations(strict),
      output: Schema.Struct({
        proofReport: ProofReport,
        jobId: Schema.NullOr(Schema.UUID).annotations({ description: "the report's job while it is not completed: poll get_job" }),
        export: Schema.NullOr(Schema.Unknown).annotations({ description: "the signed export document {format, payload, signature}, once completed" })
      }),
      access: eitherRoute(proofReportCreate, proofReportRead),
      annotations: { ...write("Create or export a proof report"), idempotentHint: true },
      run: ({ artifactBundleId, proofReportId, evalRunId, auditRunId, idempotencyKey }, actor) =>
        Effect.gen(function*() {
          if ((proofReportId === undefined) === (evalRunId === undefined)) {
            return yield* ValidationFailed.of("Give either proofReportId (to read or export) or evalRunId (to create).", [
              { path: "proofReportId", message: "exactly one of proofReportId and evalRunId" }
            ])
          }
          if (evalRunId !== undefined) {
            yield* requireRoute(actor, proofReportCreate, "creating a proof report")
            const started = yield* proofReports.create(actor, Ids.BundleId.make(artifactBundleId), { evalRunId, auditRunId }, idempotencyKey)
            const data = started.data as { readonly proofReport: unknown; readonly jobId: string }
            return { proofReport: yield* decodeProofReport(data.proofReport).pipe(Effect.orDie), jobId: data.jobId, export: null }
          }
          yield* requireRoute(actor, proofReportRead, "reading a proof report")
          const { report: _payload, ...report } = yield* proofReports.get(actor, Ids.BundleId.make(artifactBundleId), Ids.RunId.make(proofReportId!))
          if (report.status !== "completed") return { proofReport: report, jobId: report.jobId, export: null }
          const { body } = yield* proofReports.exportDocument(actor, Ids.BundleId.make(artifactBundleId), Ids.RunId.make(proofReportId!))
          return { proofReport: report, jobId: null, export: JSON.parse(body) as unknown }
        }),
      render: render.proofReport
    })
  ]
})

/** The job tool: poll a job, with its run's record once it has ended. */
const jobTools = Effect.gen(function*() {
  const jobs = yield* Jobs
  const audits = yield* Audits
  const conversions = yield* Conversions
  const evals = yield* Evals
  const proofReports = yield* ProofReports
  return [
    tool({
      name: "get_job",
      description: "Poll a job (audits, conversions, evals and proof reports run as jobs): its state (queued, running, completed, failed, cancelled), phase, percent and " +
        "message, its progress events, and once it has ended the run's record: the audit's scores and findings, the conversion's report, the eval's per-case results, " +
        "the proof report.",
      scopeNote: "Scope: jobs:read (and artifact_bundles:read to include the run).",
      input: Schema.Struct({
        jobId: Schema.UUID.annotations({ description: "the jobId a start answered" }),
        eventsAfter: Schema.optional(Schema.Int.pipe(Schema.nonNegative()).annotations({ description: "only events after this sequence number (default 0: all)" }))
      }).annotations(strict),
      output: Schema.Struct({
        job: Job,
        events: Schema.Array(JobEvent),
        run: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })).annotations({
          description: "once the job has ended: the audit run, conversion report, eval run or proof report, as its REST route answers it"
        }),
        runNote: Schema.NullOr(Schema.String)
      }),
      access: restAccess("GET", "/jobs/:jobId"),
      annotations: read("Poll a job"),
      run: ({ jobId, eventsAfter }, actor) =>
        Effect.gen(function*() {
          const job = yield* jobs.get(actor.userId, Ids.JobId.make(jobId))
          const events = yield* jobs.events(actor.userId, job.id, eventsAfter ?? 0)
          const ended = ["completed", "failed", "cancelled"].includes(job.state)
          let run: Record<string, unknown> | null = null
          let runNote: string | null = ended ? null : "The run's record is included once the job has ended."
          if (ended) {
            const rule = runReadRoute[job.kind]
            if (!passes(actor, rule)) runNote = `This API key cannot read the run (${accessSentence(rule)}), so its record is not included.`
            else {
              const bundleId = job.artifactBundleId
              run = job.kind === "audit"
                ? yield* audits.get(actor, bundleId, job.resourceId)
                : job.kind === "rubr_flow_conversion"
                ? yield* conversions.get(actor, bundleId, job.resourceId)
                : job.kind === "eval"
                ? yield* evals.get(actor, bundleId, job.resourceId)
                : yield* Effect.map(proofReports.get(actor, bundleId, job.resourceId), ({ report: _payload, ...rest }) => rest)
            }
          }
          return { job: toJobJson(job), events, run, runNote }
        }),
      render: render.job
    })
  ]
})

export const makeTools = Effect.gen(function*() {
  // the starts run their transaction on the service's SqlClient, and pages are checked against the
  // configured limits: both captured here
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig
  const groups = yield* Effect.all([docTools, bundleTools, fileTools, versionTools, workTools, jobTools])
  return groups.flat().map((t): Tool => ({
    ...t,
    run: (input, actor) => t.run(input, actor).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.provideService(AppConfig, config))
  }))
})


export type Tools = Effect.Effect.Success<typeof makeTools>

/** Resolves the actor of a tool call: public tools need none; others the bearer token, under the tool's rule. */
export const actorFor = (
  actors: Actors,
  tool: Tool,
  token: Redacted.Redacted<string> | undefined
): Effect.Effect<Actor | null, Unauthorized | Forbidden | RateLimitExceeded> =>
  tool.access.kind === "public" ? Effect.succeed(null) : actors.resolve(token, tool.access)
