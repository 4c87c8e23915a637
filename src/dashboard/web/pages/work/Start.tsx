/**
 * Starting work, price first: the audit, conversion, eval and proof-report forms. Each shows the
 * service's own estimate for exactly what the form says (credits, what it covers, the balance after),
 * updated as the form changes, before its start button. The start sends an `Idempotency-Key` made for
 * the form as it is: a double click (or a retried request) sends the same key, so the service starts
 * one job and answers both with it. Then the page goes to the run, which shows its progress.
 */
import type { ComponentChildren } from "preact"
import { useLocation } from "preact-iso"
import { useEffect, useMemo, useState } from "preact/hooks"
import { BUILT_IN_RUBRICS } from "../../../../review/rubrics/Rubrics.js"
import { api, asRubrError, type Client, type Data, type RubrError, useQuery } from "../../api.js"
import { ErrorNotice } from "../../ui/ErrorNotice.js"
import { formatBytes, formatNumber, plural } from "../../ui/format.js"
import { Loading } from "../../ui/Lazy.js"
import type { BundleDetail } from "../Bundle.js"
import { auditHref } from "../loaders.js"
import { Segmented } from "../../ui/Segmented.js"

type Estimate = Data<Client["audits"]["estimateAudit"]>["estimate"]
type File = BundleDetail["files"][number]

export interface WorkProps {
  readonly bundle: BundleDetail["artifactBundle"]
  readonly files: BundleDetail["files"]
  readonly base: string
}

// ---- the estimate ------------------------------------------------------------------------------

interface Priced {
  readonly credits: number
  readonly mode: string
  /** the dynamic estimate, when the mode charges something else (free, flat) */
  readonly dynamic: number | null
  readonly covers: ReadonlyArray<ComponentChildren>
}

/** The estimate for `body` (reloaded 250 ms after the form last changed), and the balance. */
const useEstimate = <B,>(body: B, load: ((c: Client, body: B) => Promise<Priced>) | null) => {
  const key = JSON.stringify(body)
  const [state, setState] = useState<{ key: string; priced?: Priced; error?: RubrError }>({ key: "" })
  useEffect(() => {
    if (load === null) return
    let live = true
    const timer = setTimeout(() => {
      api((c) => load(c, body)).then(
        (priced) => live && setState({ key, priced }),
        (e: unknown) => live && setState({ key, error: asRubrError(e) })
      )
    }, state.key === "" ? 0 : 250)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [key])
  const balance = useQuery((c) => c.credits.getCredits({ urlParams: { limit: 1 } }), [])
  return { ...state, current: state.key === key, balance: balance.data?.data.balance }
}

/** What an estimate covers; `files` false when the form says it better (an eval's two versions). */
const coversOf = (e: Estimate, files: boolean): Array<ComponentChildren> => {
  const artifact = e.breakdown.filter((b) => b.role === "artifact")
  const context = e.breakdown.filter((b) => b.role === "context")
  return [
    files
      ? (
        <>
          {artifact.length === 1 ? <code>{artifact[0]!.path}</code> : plural(artifact.length, "file")} under review
          {context.length > 0 ? <>, {plural(context.length, "file")} as context</> : null}
        </>
      )
      : null,
    <>{formatBytes(e.totalCharacters)} of text · about {formatNumber(e.estimatedInputTokens)} tokens in, {formatNumber(e.estimatedOutputTokens)} out</>,
    <>{e.modelTier} model tier, {e.reasoningEffort} reasoning effort</>
  ].filter((c) => c !== null)
}

const pricedOf = (e: Estimate, more: ReadonlyArray<ComponentChildren> = [], files = true): Priced => ({
  credits: e.estimatedCredits,
  mode: e.mode,
  dynamic: e.mode === "dynamic" ? null : e.dynamicEstimatedCredits,
  covers: files ? [...coversOf(e, true), ...more] : [...more, ...coversOf(e, false)]
})

function EstimatePanel(props: {
  estimate: ReturnType<typeof useEstimate<unknown>>
  free?: ComponentChildren
  startLabel: string
  starting: boolean
  startError: RubrError | undefined
  onStart: () => void
  extraAction?: ComponentChildren
}) {
  const { estimate } = props
  const priced = estimate.priced
  const balance = estimate.balance
  const short = priced !== undefined && balance !== undefined && priced.credits > balance
  const ready = props.free !== undefined || (priced !== undefined && estimate.current && !short)
  return (
    <aside class="card estimate" aria-labelledby="estimate-title" data-testid="estimate">
      <h2 id="estimate-title" class="card-title">Price</h2>
      {props.free !== undefined
        ? <div class="estimate-price"><span class="estimate-credits" data-testid="estimate-credits">0</span> credits</div>
        : estimate.error
        ? <ErrorNotice error={estimate.error} />
        : !priced
        ? <Loading label="Estimating…" />
        : (
          <>
            <div class={`estimate-price${estimate.current ? "" : " estimate-stale"}`} aria-live="polite">
              <span class="estimate-credits" data-testid="estimate-credits">{formatNumber(priced.credits)}</span> {priced.credits === 1 ? "credit" : "credits"}
              {!estimate.current ? <span class="muted"> · updating…</span> : null}
            </div>
            {priced.dynamic !== null ? <p class="hint">Pricing mode {priced.mode}: the work is estimated at {plural(priced.dynamic, "credit")}.</p> : null}
            <ul class="estimate-covers">
              {priced.covers.map((c, i) => <li key={i}>{c}</li>)}
            </ul>
          </>
        )}
      {props.free !== undefined ? <p class="muted">{props.free}</p> : null}
      <dl class="estimate-balance">
        <dt>Balance</dt>
        <dd data-testid="balance-now">{balance === undefined ? "…" : formatNumber(balance)}</dd>
        <dt>After this</dt>
        <dd data-testid="balance-after">
          {balance === undefined || (props.free === undefined && !priced) ? "…" : formatNumber(balance - (props.free !== undefined ? 0 : priced!.credits))}
        </dd>
      </dl>
      {short
        ? (
          <div class="notice notice-error" role="alert">
            <p class="notice-title">Not enough credits</p>
            <p>
              This needs {plural(priced!.credits, "credit")}; your balance is {formatNumber(balance!)}. See the <a href="/credits">Credits page</a>.
            </p>
          </div>
        )
        : null}
      {props.startError ? <ErrorNotice error={props.startError} /> : null}
      <div class="estimate-actions">
        <button type="button" class="button button-primary button-block" disabled={!ready || props.starting} onClick={props.onStart} data-testid="start">
          {props.starting ? "Starting…" : props.startLabel}
        </button>
        {props.extraAction}
      </div>
      <p class="fine-print">Credits are debited when the work starts; what it does not use comes back, and a failed or cancelled run is refunded.</p>
    </aside>
  )
}

/**
 * A start with an `Idempotency-Key` made for `body`: the same form sends the same key however often it
 * is clicked (the service answers every repeat with the first job); a changed form gets a new key.
 */
const useStart = <B, A>(body: B, start: (c: Client, body: B, key: string) => Promise<A>, onStarted: (answer: A) => void) => {
  const key = useMemo(() => crypto.randomUUID(), [JSON.stringify(body)])
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<RubrError | undefined>(undefined)
  const run = async () => {
    setBusy(true)
    setError(undefined)
    try {
      onStarted(await api((c) => start(c, body, key)))
    } catch (e) {
      setError(asRubrError(e))
    } finally {
      setBusy(false)
    }
  }
  return { run, busy, error }
}

// ---- shared fields -----------------------------------------------------------------------------

function SegmentedField<T extends string>(props: { label: string; value: T; options: ReadonlyArray<readonly [T, string]>; onChange: (v: T) => void; hint?: string }) {
  return (
    <fieldset class="field">
      <legend>{props.label}</legend>
      <Segmented label={props.label} value={props.value} options={props.options} onChange={props.onChange} />
      {props.hint ? <p class="hint">{props.hint}</p> : null}
    </fieldset>
  )
}

type TargetChoice = { readonly mode: "main" } | { readonly mode: "file"; readonly fileId: string } | { readonly mode: "bundle" }

/** The target: the main artifact, one file, or the whole bundle; as the API's target selection. */
function TargetField(props: { files: ReadonlyArray<File>; value: TargetChoice; onChange: (t: TargetChoice) => void; exclude?: (f: File) => boolean; verb: string }) {
  const files = props.files.filter((f) => !(props.exclude?.(f) ?? false))
  const primary = files.find((f) => f.isPrimary)
  const fileId = props.value.mode === "file" ? props.value.fileId : (primary ?? files[0])?.id ?? ""
  return (
    <fieldset class="field">
      <legend>What to {props.verb}</legend>
      <div class="choice-list">
        <label class="choice">
          <input type="radio" name="target" checked={props.value.mode === "main"} disabled={!primary} onChange={() => props.onChange({ mode: "main" })} />
          <span>
            <strong>The main artifact</strong>{" "}
            {primary ? <code>{primary.path}</code> : <span class="muted">(this bundle has none)</span>}
            <span class="hint"> with the other files as context</span>
          </span>
        </label>
        <label class="choice">
          <input type="radio" name="target" checked={props.value.mode === "file"} onChange={() => props.onChange({ mode: "file", fileId })} />
          <span>
            <strong>One file</strong>
            <span class="hint"> with the others as context</span>
          </span>
        </label>
        {props.value.mode === "file"
          ? (
            <select class="input choice-select" aria-label="File" value={fileId} onChange={(e) => props.onChange({ mode: "file", fileId: e.currentTarget.value })}>
              {files.map((f) => <option key={f.id} value={f.id}>{f.path} (version {f.latestVersionNumber})</option>)}
            </select>
          )
          : null}
        <label class="choice">
          <input type="radio" name="target" checked={props.value.mode === "bundle"} onChange={() => props.onChange({ mode: "bundle" })} />
          <span>
            <strong>The whole bundle</strong>
            <span class="hint"> every file under review, each improved on its own</span>
          </span>
        </label>
      </div>
    </fieldset>
  )
}

const targetBody = (t: TargetChoice) =>
  t.mode === "bundle" ? { targetMode: "bundle" as const } : t.mode === "file" ? { targetFileId: t.fileId } : { targetMode: "file" as const }

const initialTarget = (files: ReadonlyArray<File>, exclude?: (f: File) => boolean): TargetChoice =>
  files.some((f) => f.isPrimary && !(exclude?.(f) ?? false)) ? { mode: "main" } : { mode: "bundle" }

function StartLayout(props: { title: string; description: ComponentChildren; form: ComponentChildren; panel: ComponentChildren }) {
  return (
    <div class="start stack" data-testid="start-form">
      <div class="work-header">
        <div>
          <h2 class="work-title">{props.title}</h2>
          <p class="muted">{props.description}</p>
        </div>
      </div>
      <div class="start-layout">
        <form class="card form start-form" onSubmit={(e) => e.preventDefault()} aria-label={props.title}>{props.form}</form>
        {props.panel}
      </div>
    </div>
  )
}

// ---- the forms ---------------------------------------------------------------------------------

export function AuditStart(props: WorkProps) {
  const { route } = useLocation()
  const [target, setTarget] = useState<TargetChoice>(initialTarget(props.files))
  const [rubricKey, setRubricKey] = useState("")
  const [modelTier, setModelTier] = useState<"cheap" | "standard" | "premium">("standard")
  const [reasoningEffort, setEffort] = useState<"low" | "medium" | "high">("medium")
  const [force, setForce] = useState(false)
  const body = { ...targetBody(target), ...(rubricKey ? { rubricKey } : {}), modelTier, reasoningEffort, ...(force ? { force } : {}) }
  const estimate = useEstimate(body, async (c, b) => {
    const { force: _, ...payload } = b
    const { data } = await c.audits.estimateAudit({ path: { artifactBundleId: props.bundle.id }, payload })
    return pricedOf(data.estimate)
  })
  const start = useStart(body, (c, payload, key) =>
    c.audits.startAudit({ path: { artifactBundleId: props.bundle.id }, headers: { "idempotency-key": key }, payload }), ({ data }) =>
    route(auditHref(props.base, data.auditRun)))
  const customKeys = Array.isArray((props.bundle.customRubric as { criteria?: unknown }).criteria) ? ["custom"] : []
  // an identical audit exists: offer it, or running it again on purpose
  const identical = start.error?.code === "conflict" && !force ? (start.error.details[0] as { auditRunId?: string } | undefined)?.auditRunId : undefined
  return (
    <StartLayout
      title="New audit"
      description="Scores the artifact against a rubric, points at the lines that need work, and writes an improved version you can apply."
      form={
        <>
          <TargetField files={props.files} value={target} onChange={setTarget} verb="audit" />
          <div class="field">
            <label for="rubric">Rubric</label>
            <select id="rubric" class="input" value={rubricKey} onChange={(e) => setRubricKey(e.currentTarget.value)}>
              <option value="">The bundle's default (its custom rubric, else the one for the artifact's type)</option>
              {customKeys.map((k) => <option key={k} value={k}>The bundle's custom rubric</option>)}
              {BUILT_IN_RUBRICS.map((r) => (
                <option key={`${r.key}@${r.version}`} value={`${r.key}@${r.version}`}>{r.title} ({r.key}, version {r.version})</option>
              ))}
            </select>
          </div>
          <SegmentedField
            label="Model tier"
            value={modelTier}
            onChange={setModelTier}
            options={[["cheap", "Cheap"], ["standard", "Standard"], ["premium", "Premium"]]}
            hint="A higher tier costs more credits per token."
          />
          <SegmentedField
            label="Reasoning effort"
            value={reasoningEffort}
            onChange={setEffort}
            options={[["low", "Low"], ["medium", "Medium"], ["high", "High"]]}
          />
        </>
      }
      panel={
        <EstimatePanel
          estimate={estimate}
          startLabel="Start audit"
          starting={start.busy}
          startError={identical ? undefined : start.error}
          onStart={start.run}
          extraAction={identical
            ? (
              <div class="notice notice-info" data-testid="identical">
                <p class="notice-title">This exact audit exists already</p>
                <p>Same files, versions, rubric, tier and effort: its result would be the same.</p>
                <div class="button-row">
                  <a class="button" href={`${props.base}/audits/${identical}`}>Open it</a>
                  <button type="button" class="button" onClick={() => setForce(true)}>Run it again anyway</button>
                </div>
              </div>
            )
            : null}
        />
      }
    />
  )
}

const isRubrFlow = (f: File) => f.artifactType === "rubr_flow" || f.path.endsWith(".rubr_flow")

export function ConversionStart(props: WorkProps) {
  const { route } = useLocation()
  const [target, setTarget] = useState<TargetChoice>(initialTarget(props.files, isRubrFlow))
  const [outputPath, setOutputPath] = useState("generated/rubr_flow.rubr_flow")
  const body = { ...targetBody(target), outputPath }
  const estimate = useEstimate(body, async (c, payload) => {
    const { data } = await c.conversions.estimateConversion({ path: { artifactBundleId: props.bundle.id }, payload })
    return pricedOf(data.estimate, [<>written to <code>{data.target.outputPath}</code> as a new version</>])
  })
  const start = useStart(body, (c, payload, key) =>
    c.conversions.startConversion({ path: { artifactBundleId: props.bundle.id }, headers: { "idempotency-key": key }, payload }), ({ data }) =>
    route(`${props.base}/conversions/${data.conversion.id}`))
  return (
    <StartLayout
      title="Convert to rubr_flow"
      description="Turns the artifact into a rubr_flow procedure package (steps an agent can check), validates it, repairs it once if needed, and saves it as a new version."
      form={
        <>
          <TargetField files={props.files} value={target} onChange={setTarget} exclude={isRubrFlow} verb="convert" />
          <div class="field">
            <label for="output-path">Output file</label>
            <input id="output-path" class="input" value={outputPath} spellcheck={false} onInput={(e) => setOutputPath(e.currentTarget.value)} />
            <p class="hint">A path in the bundle ending in <code>.rubr_flow</code>; converting again adds a version to it.</p>
          </div>
        </>
      }
      panel={<EstimatePanel estimate={estimate} startLabel="Start conversion" starting={start.busy} startError={start.error} onStart={start.run} />}
    />
  )
}

/** A file and one of its versions. */
function VersionPicker(props: { id: string; legend: string; bundleId: string; files: ReadonlyArray<File>; fileId: string; version: number; onChange: (fileId: string, version: number) => void }) {
  const versions = useQuery(
    (c) => c.versions.listFileVersions({ path: { artifactBundleId: props.bundleId, fileId: props.fileId }, urlParams: { limit: 200 } }),
    [props.fileId]
  )
  return (
    <fieldset class="field version-picker">
      <legend>{props.legend}</legend>
      <div class="picker-row">
        <select
          class="input"
          aria-label={`${props.legend}: file`}
          value={props.fileId}
          onChange={(e) => {
            const file = props.files.find((f) => f.id === e.currentTarget.value)!
            props.onChange(file.id, props.id === "source" ? 1 : file.latestVersionNumber)
          }}
        >
          {props.files.map((f) => <option key={f.id} value={f.id}>{f.path}</option>)}
        </select>
        <select class="input" aria-label={`${props.legend}: version`} value={String(props.version)} onChange={(e) => props.onChange(props.fileId, Number(e.currentTarget.value))}>
          {(versions.data?.data.versions ?? [{ versionNumber: props.version, message: null }]).map((v) => (
            <option key={v.versionNumber} value={String(v.versionNumber)}>version {v.versionNumber}{v.message ? ` · ${v.message}` : ""}</option>
          ))}
        </select>
      </div>
    </fieldset>
  )
}

export function EvalStart(props: WorkProps) {
  const { route, query } = useLocation()
  const main = props.files.find((f) => f.isPrimary) ?? props.files[0]
  const [source, setSource] = useState({ fileId: query["sourceFileId"] ?? main?.id ?? "", version: Number(query["sourceVersion"] ?? 1) })
  const initialCandidate = props.files.find((f) => f.id === (query["candidateFileId"] ?? main?.id))
  const [candidate, setCandidate] = useState({ fileId: initialCandidate?.id ?? "", version: Number(query["candidateVersion"] ?? initialCandidate?.latestVersionNumber ?? 1) })
  const [maxCases, setMaxCases] = useState(10)
  const body = {
    sourceFileId: source.fileId,
    sourceVersionNumber: source.version,
    candidateFileId: candidate.fileId,
    candidateVersionNumber: candidate.version,
    maxCases
  }
  const estimate = useEstimate(body, !main ? null : async (c, payload) => {
    const { data } = await c.evals.estimateEval({ path: { artifactBundleId: props.bundle.id }, payload })
    const t = data.target
    const from = { request: "given with the request", audit_eval_kit: "the eval kit of the latest audit of the source", generated: "generated from the source" }[t.casesSource]
    return pricedOf(data.estimate, [
      <><code>{t.sourceFilePath}</code> version {t.sourceFileVersionNumber} → <code>{t.candidateFilePath}</code> version {t.candidateFileVersionNumber}</>,
      <>{plural(t.caseCount, "test case")}, {from}</>
    ], false)
  })
  const start = useStart(body, (c, payload, key) =>
    c.evals.startEval({ path: { artifactBundleId: props.bundle.id }, headers: { "idempotency-key": key }, payload }), ({ data }) =>
    route(`${props.base}/evals/${data.evalRun.id}`))
  if (!main) return <p class="muted">Upload a file first: an eval compares two versions of it.</p>
  return (
    <StartLayout
      title="New eval"
      description="Runs the same test cases against two versions and judges each: did the change help, and did anything regress?"
      form={
        <>
          <VersionPicker id="source" legend="Before (source)" bundleId={props.bundle.id} files={props.files} fileId={source.fileId} version={source.version} onChange={(fileId, version) => setSource({ fileId, version })} />
          <VersionPicker id="candidate" legend="After (candidate)" bundleId={props.bundle.id} files={props.files} fileId={candidate.fileId} version={candidate.version} onChange={(fileId, version) => setCandidate({ fileId, version })} />
          {source.fileId === candidate.fileId && source.version === candidate.version
            ? <p class="notice-inline">Both sides are the same version: every case will be unchanged. Pick a later version as “after”.</p>
            : null}
          <div class="field">
            <label for="max-cases">Test cases, at most</label>
            <input id="max-cases" class="input input-narrow" type="number" min={1} max={50} value={maxCases} onInput={(e) => setMaxCases(Math.max(1, Math.min(50, Number(e.currentTarget.value) || 1)))} />
            <p class="hint">The cases come from the latest audit of the source version (its eval kit), or are generated from the source.</p>
          </div>
        </>
      }
      panel={<EstimatePanel estimate={estimate} startLabel="Start eval" starting={start.busy} startError={start.error} onStart={start.run} />}
    />
  )
}

export function ProofStart(props: WorkProps) {
  const { route, query } = useLocation()
  const runs = useQuery(async (c) => {
    const [evals, audits] = await Promise.all([
      c.evals.listEvals({ path: { artifactBundleId: props.bundle.id }, urlParams: { limit: 100 } }),
      c.audits.listAudits({ path: { artifactBundleId: props.bundle.id }, urlParams: { limit: 100 } })
    ])
    return {
      evals: evals.data.evalRuns.filter((r) => r.status === "completed"),
      audits: audits.data.auditRuns.filter((r) => r.status === "completed")
    }
  }, [props.bundle.id])
  const [evalRunId, setEvalRunId] = useState<string | null>(query["evalRunId"] ?? null)
  const [auditRunId, setAuditRunId] = useState<string | null>(null)
  const evalId = evalRunId ?? runs.data?.evals[0]?.id ?? null
  const body = { evalRunId: evalId ?? undefined, ...(auditRunId ? { auditRunId } : {}) }
  const start = useStart(body, (c, payload, key) =>
    c.proofReports.createProofReport({ path: { artifactBundleId: props.bundle.id }, headers: { "idempotency-key": key }, payload }), ({ data }) =>
    route(`${props.base}/proof-reports/${data.proofReport.id}`))
  const estimate = useEstimate(null, null)
  if (runs.error) return <ErrorNotice error={runs.error} onRetry={runs.reload} />
  if (!runs.data) return <Loading label="Loading the evals…" />
  if (runs.data.evals.length === 0) {
    return (
      <div class="empty">
        <p class="empty-title">No completed eval yet</p>
        <p class="muted">A proof report is the signed evidence of an eval. Run one first.</p>
        <a class="button button-primary" href={`${props.base}/evals/new`}>New eval</a>
      </div>
    )
  }
  return (
    <StartLayout
      title="New proof report"
      description="Signed evidence of an eval, bound to the exact bytes of both versions: anyone can verify it with the service's public keys."
      form={
        <>
          <div class="field">
            <label for="eval-run">Eval</label>
            <select id="eval-run" class="input" value={evalId ?? ""} onChange={(e) => setEvalRunId(e.currentTarget.value)}>
              {runs.data.evals.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.summary.target.sourceFilePath} v{r.summary.target.sourceFileVersionNumber} → v{r.summary.target.candidateFileVersionNumber} · {r.passCount}/{r.scenarioCount} passed · {new Date(r.createdAt).toLocaleString()}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="audit-run">Include an audit (optional)</label>
            <select id="audit-run" class="input" value={auditRunId ?? ""} onChange={(e) => setAuditRunId(e.currentTarget.value || null)}>
              <option value="">None</option>
              {runs.data.audits.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.summary.target.targetFilePath ?? "whole bundle"} · score {r.overallScore ?? "—"} · {new Date(r.createdAt).toLocaleString()}
                </option>
              ))}
            </select>
          </div>
        </>
      }
      panel={
        <EstimatePanel
          estimate={estimate}
          free="A proof report costs no credits: it signs what the eval already found."
          startLabel="Create proof report"
          starting={start.busy}
          startError={start.error}
          onStart={start.run}
        />
      }
    />
  )
}
