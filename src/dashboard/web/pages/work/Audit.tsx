/**
 * An audit's page. While it runs: its live progress. When it ended badly: what happened and the
 * refund. Completed: the overall and per-criterion scores, the findings (filterable by severity and
 * criterion, each rule linked to the guide) beside the audited file with every finding anchored to its
 * lines (the list and the file scroll to each other), the improved version as a diff (side by side or
 * unified, per file), "apply" behind a confirmation naming the files and their new version numbers,
 * and the bundle's score over its audits.
 */
import { useLocation } from "preact-iso"
import { useEffect, useMemo, useState } from "preact/hooks"
import { ruleById } from "../../../../review/rules/Rules.js"
import { scoreText } from "../../../../review/Score.js"
import { type Client, type Data, useAction, useQuery } from "../../api.js"
import { AnnotatedSource, type LineNote } from "../../ui/AnnotatedSource.js"
import { ConfirmDialog } from "../../ui/Dialog.js"
import { DiffView } from "../../ui/DiffView.js"
import { ErrorNotice } from "../../ui/ErrorNotice.js"
import { formatAgo, formatDate, formatNumber, plural } from "../../ui/format.js"
import { Loading } from "../../ui/Lazy.js"
import { EmptyState, QueryView } from "../../ui/Page.js"
import { toast } from "../../ui/Toasts.js"
import { queries, targetText } from "../loaders.js"
import { JobProgress, StateBadge } from "./JobProgress.js"
import { auditTargetLabel, ScoreChart } from "./Lists.js"
import { Outcome } from "./Outcome.js"
import type { WorkProps } from "./Start.js"
import { useJob } from "./useJob.js"
import { Segmented } from "../../ui/Segmented.js"

type AuditRunDetail = Data<Client["audits"]["getAudit"]>["auditRun"]
type Finding = AuditRunDetail["findings"][number]
type Severity = Finding["severity"]

const SEVERITIES: ReadonlyArray<Severity> = ["critical", "major", "minor", "info"]

/** The rubrics guide's entry for a rule (`SK-AI-*` rules are the model's, grouped under "Rule ids"). */
export const ruleHref = (ruleId: string) => `/api/v1/guides/rubrics#${ruleId.startsWith("SK-AI-") ? "rule-ids" : ruleId.toLowerCase()}`

const scoreClass = (score: number) => (score >= 85 ? "score-good" : score >= 65 ? "score-fair" : "score-poor")

/**
 * The text of a file as the audit read it: the version among the run's input versions. The target of
 * a file audit is named by the run; any other file is found by path, then its versions.
 */
const useAuditedText = (bundleId: string, run: AuditRunDetail, path: string | null, files: WorkProps["files"]) => {
  const fileId = path === null
    ? null
    : run.summary.target.targetFilePath === path
    ? run.summary.target.targetFileId
    : run.improvedFiles.find((f) => f.path === path)?.fileId ?? files.find((f) => f.path === path)?.id ?? null
  const isTarget = fileId !== null && fileId === run.summary.target.targetFileId
  const query = useQuery(async (c) => {
    if (path === null) return null
    if (fileId === null) return { text: null as string | null, versionNumber: null as number | null, fileId: null as string | null }
    if (isTarget) {
      const target = await targetText(c, bundleId, run.summary.target)
      if (target) return target
    }
    const { data } = await c.versions.listFileVersions({ path: { artifactBundleId: bundleId, fileId }, urlParams: { limit: 200 } })
    const versionNumber = data.versions.find((v) => run.targetVersionIds.inputVersionIds.includes(v.id))?.versionNumber
    if (versionNumber === undefined) return { text: null, versionNumber: null, fileId }
    const version = await c.versions.getFileVersion({ path: { artifactBundleId: bundleId, fileId, versionNumber } })
    return { text: version.data.content as string | null, versionNumber: versionNumber as number | null, fileId: fileId as string | null }
  }, [run.id, path, fileId], isTarget ? queries.auditedText(run.id) : undefined)
  // a version read early from the address's hint that is not the one the audit read: read the right one
  const wrong = isTarget && query.data != null && (query.data.fileId !== fileId || query.data.versionNumber !== run.summary.target.targetFileVersionNumber)
  useEffect(() => {
    if (wrong) void query.reload()
  }, [wrong])
  return wrong ? { ...query, data: undefined } : query
}

function Scores(props: { run: AuditRunDetail; criterion: string | null; onCriterion: (key: string | null) => void }) {
  const counts = new Map<string, number>()
  for (const f of props.run.findings) counts.set(f.criterionKey, (counts.get(f.criterionKey) ?? 0) + 1)
  return (
    <ul class="criteria" aria-label="Scores by criterion">
      {props.run.scores.map((s) => (
        <li key={s.key} class={`criterion${props.criterion === s.key ? " criterion-on" : ""}`}>
          <button
            type="button"
            class="criterion-button"
            aria-pressed={props.criterion === s.key}
            title={`${s.rationale} (weight ${s.weight})`}
            onClick={() => props.onCriterion(props.criterion === s.key ? null : s.key)}
          >
            <span class="criterion-label">
              {s.label}
              {counts.get(s.key) ? <span class="criterion-count" aria-label={plural(counts.get(s.key)!, "finding")}>{counts.get(s.key)}</span> : null}
            </span>
            <span class="criterion-bar" aria-hidden="true">
              <span class={`criterion-fill ${scoreClass(s.score)}`} style={{ width: `${Math.max(2, s.score)}%` }} />
            </span>
            <span class="criterion-score">{scoreText(s.score)}</span>
          </button>
        </li>
      ))}
    </ul>
  )
}

function FindingItem(props: { finding: Finding; index: number; selected: boolean; onSelect: () => void }) {
  const f = props.finding
  const rule = ruleById(f.ruleId)
  return (
    <li id={`finding-${props.index}`} class={`finding finding-${f.severity}${props.selected ? " finding-selected" : ""}`} data-finding={f.id} data-rule={f.ruleId}>
      <div class="finding-head">
        <span class={`sev sev-${f.severity}`}>{f.severity}</span>
        <a class="finding-rule" href={ruleHref(f.ruleId)} target="_blank" rel="noopener" title={rule ? `${rule.title} (opens the rubrics guide)` : "opens the rubrics guide"}>
          {f.ruleId}
        </a>
        <button type="button" class="finding-where" onClick={props.onSelect} aria-pressed={props.selected}>
          {f.filePath}:{f.lineStart}{f.lineEnd > f.lineStart ? `–${f.lineEnd}` : ""}
          <span class="visually-hidden">, show in the file</span>
        </button>
      </div>
      <p class="finding-message">{f.message}</p>
      {f.suggestion ? <p class="finding-fix"><span class="finding-fix-label">Fix:</span> {f.suggestion}</p> : null}
    </li>
  )
}

function Findings(props: { run: AuditRunDetail; bundleId: string; files: WorkProps["files"]; criterion: string | null; onCriterion: (key: string | null) => void }) {
  const { run } = props
  const [hidden, setHidden] = useState<ReadonlySet<Severity>>(new Set())
  const [selected, setSelected] = useState<string | null>(null)
  const paths = useMemo(() => [...new Set(run.findings.map((f) => f.filePath))], [run.id])
  const defaultPath = run.summary.target.targetFilePath && paths.includes(run.summary.target.targetFilePath) ? run.summary.target.targetFilePath : paths[0] ?? run.summary.target.targetFilePath
  const [path, setPath] = useState<string | null>(defaultPath ?? null)
  const text = useAuditedText(props.bundleId, run, path, props.files)
  const shown = run.findings.filter((f) => !hidden.has(f.severity) && (props.criterion === null || f.criterionKey === props.criterion))
  const bySeverity = (s: Severity) => run.findings.filter((f) => f.severity === s).length
  const notes: ReadonlyArray<LineNote> = shown
    .filter((f) => f.filePath === path)
    .map((f) => ({ id: f.id, lineStart: f.lineStart, lineEnd: f.lineEnd, severity: f.severity, label: f.ruleId, message: f.message }))
  const select = (finding: Finding, from: "list" | "file") => {
    setSelected(finding.id)
    if (finding.filePath !== path) setPath(finding.filePath)
    if (from === "file") document.getElementById(`finding-${run.findings.indexOf(finding)}`)?.scrollIntoView({ block: "nearest", behavior: "smooth" })
  }
  if (run.findings.length === 0) {
    return (
      <EmptyState title="No findings">
        <p class="muted">Nothing in this version breaks a rule of the rubric.</p>
      </EmptyState>
    )
  }
  const criteria = run.scores.filter((s) => run.findings.some((f) => f.criterionKey === s.key))
  return (
    <div class="findings-layout">
      <section class="findings-pane" aria-labelledby="findings-title">
        <div class="findings-toolbar">
          <h3 id="findings-title" class="section-title">Findings</h3>
          <div class="chips" role="group" aria-label="Filter by severity">
            {SEVERITIES.filter((s) => bySeverity(s) > 0).map((s) => (
              <button
                type="button"
                key={s}
                class={`chip chip-${s}${hidden.has(s) ? "" : " chip-on"}`}
                aria-pressed={!hidden.has(s)}
                onClick={() => setHidden((h) => (h.has(s) ? new Set([...h].filter((x) => x !== s)) : new Set([...h, s])))}
              >
                {s} <span class="chip-count">{bySeverity(s)}</span>
              </button>
            ))}
          </div>
          <select class="input input-compact" aria-label="Filter by criterion" value={props.criterion ?? ""} onChange={(e) => props.onCriterion(e.currentTarget.value || null)}>
            <option value="">Every criterion</option>
            {criteria.map((c) => <option key={c.key} value={c.key}>{c.label}</option>)}
          </select>
        </div>
        <p class="hint" aria-live="polite" data-testid="findings-count">Showing {shown.length} of {plural(run.findings.length, "finding")}</p>
        <ol class="finding-list" data-testid="finding-list">
          {shown.map((f) => (
            <FindingItem key={f.id} finding={f} index={run.findings.indexOf(f)} selected={selected === f.id} onSelect={() => select(f, "list")} />
          ))}
        </ol>
      </section>
      <section class="file-pane" aria-label="The audited file">
        <div class="file-pane-head">
          {paths.length > 1
            ? (
              <select class="input input-compact" aria-label="File" value={path ?? ""} onChange={(e) => setPath(e.currentTarget.value)}>
                {paths.map((p) => <option key={p} value={p}>{p} ({plural(run.findings.filter((f) => f.filePath === p).length, "finding")})</option>)}
              </select>
            )
            : <code class="file-pane-path">{path}</code>}
          {text.data?.versionNumber ? <span class="muted">version {text.data.versionNumber}, as audited</span> : null}
        </div>
        {text.error
          ? <ErrorNotice error={text.error} onRetry={text.reload} />
          : !text.data
          ? <Loading label="Loading the file…" />
          : text.data.text === null
          ? <p class="muted">This file is no longer in the bundle; its findings are listed on the left.</p>
          : (
            <AnnotatedSource
              text={text.data.text}
              notes={notes}
              idPrefix="audited"
              label={`${path}, version ${text.data.versionNumber}, with ${plural(notes.length, "finding")}`}
              selected={selected}
              onSelect={(id) => {
                const f = run.findings.find((x) => x.id === id)
                if (f) select(f, "file")
              }}
            />
          )}
      </section>
    </div>
  )
}

type Improved = AuditRunDetail["improvedFiles"][number]

function ImprovedFileDiff(props: { run: AuditRunDetail; bundleId: string; files: WorkProps["files"]; improved: Improved; mode: "split" | "unified" }) {
  const before = useAuditedText(props.bundleId, props.run, props.improved.path, props.files)
  if (before.error) return <ErrorNotice error={before.error} onRetry={before.reload} />
  if (!before.data) return <Loading label="Comparing…" />
  return (
    <div class="stack">
      {props.improved.changes.length > 0
        ? (
          <div class="changes">
            <h4 class="subheading">What the improvement changes</h4>
            <ul>{props.improved.changes.map((c, i) => <li key={i}>{c}</li>)}</ul>
          </div>
        )
        : null}
      <DiffView
        before={before.data.text ?? ""}
        after={props.improved.content}
        mode={props.mode}
        labels={[`${props.improved.path} version ${before.data.versionNumber ?? "?"} (audited)`, "improved"]}
      />
    </div>
  )
}

function ImprovedVersion(props: { run: AuditRunDetail; bundleId: string; files: WorkProps["files"]; onApply: () => void; applied: ReadonlyArray<{ fileId: string; path: string; versionNumber: number }> | null; base: string }) {
  const { run } = props
  const { query, path, route } = useLocation()
  const improved: ReadonlyArray<Improved> = run.improvedVersion ? [run.improvedVersion] : run.improvedFiles
  const [index, setIndex] = useState(0)
  const mode = query["view"] === "unified" ? "unified" : "split"
  if (improved.length === 0) {
    return (
      <EmptyState title="No improved version">
        <p class="muted">The audit found nothing it could rewrite safely: the findings say what to change by hand.</p>
      </EmptyState>
    )
  }
  const current = improved[Math.min(index, improved.length - 1)]!
  return (
    <div class="stack" data-testid="improved">
      <div class="toolbar">
        {improved.length > 1
          ? (
            <select class="input input-compact" aria-label="Improved file" value={String(index)} onChange={(e) => setIndex(Number(e.currentTarget.value))}>
              {improved.map((f, i) => <option key={f.fileId} value={String(i)}>{f.path} ({plural(f.changes.length, "change")})</option>)}
            </select>
          )
          : <code>{current.path}</code>}
        <Segmented
          label="Diff layout"
          value={mode}
          options={[["split", "Side by side"], ["unified", "Unified"]]}
          onChange={(m) => route(`${path}?${new URLSearchParams({ ...query, tab: "improved", view: m })}`, true)}
        />
        <div class="toolbar-spacer" />
        <ApplyState run={run} applied={props.applied} onApply={props.onApply} base={props.base} />
      </div>
      <ImprovedFileDiff key={current.fileId} run={run} bundleId={props.bundleId} files={props.files} improved={current} mode={mode} />
    </div>
  )
}

function ApplyState(props: { run: AuditRunDetail; applied: ReadonlyArray<{ fileId: string; path: string; versionNumber: number }> | null; onApply: () => void; base: string }) {
  if (props.applied) {
    return (
      <div class="applied" data-testid="applied">
        <span class="badge badge-success">Applied</span>
        {props.applied.map((f) => (
          <a key={f.fileId} href={`${props.base}/files/${f.fileId}/history?from=${f.versionNumber - 1}&to=${f.versionNumber}`} data-applied-version={f.versionNumber}>
            {f.path} version {f.versionNumber}
          </a>
        ))}
      </div>
    )
  }
  if (props.run.appliedAt) return <span class="badge badge-success" data-testid="applied">Applied {formatAgo(props.run.appliedAt)}</span>
  return <button type="button" class="button button-primary" onClick={props.onApply}>Apply improvements</button>
}

type AppliedFiles = ReadonlyArray<{ fileId: string; path: string; versionNumber: number }>

/** The overall score, what was reviewed with which model at what cost, and what to do next. */
function OverallScore(props: { run: AuditRunDetail; canApply: boolean; onApply: () => void; base: string }) {
  const { run } = props
  const meta = run.resultMetadata
  return (
    <section class="card overall" aria-label="Overall score">
      <p class="stat-label">Overall score</p>
      <p class={`overall-score ${scoreClass(run.overallScore ?? 0)}`} data-testid="overall-score">
        {run.overallScore ?? "—"}<span class="overall-of">/100</span>
      </p>
      <p class="hint">{run.summary.rubricTitle} · rubric <code>{run.rubricKey}</code> version {run.rubricVersion}</p>
      <dl class="facts facts-compact">
        <dt>Reviewed</dt>
        <dd>{auditTargetLabel(run)}</dd>
        <dt>Model</dt>
        <dd>{meta ? `${meta.model} (${meta.modelTier}, ${meta.reasoningEffort} effort)` : `${run.summary.estimate.modelTier}, ${run.summary.estimate.reasoningEffort} effort`}</dd>
        <dt>Credits</dt>
        <dd>{formatNumber(run.finalChargedCredits ?? run.estimatedCredits)} charged{run.reconciliation?.refundedCredits ? ` (${run.reconciliation.refundedCredits} refunded)` : ""}</dd>
        <dt>Finished</dt>
        <dd title={formatDate(run.completedAt)}>{formatAgo(run.completedAt)}</dd>
      </dl>
      <div class="button-row">
        {props.canApply ? <button type="button" class="button button-primary" onClick={props.onApply}>Apply improvements</button> : null}
        <a class="button" href={`${props.base}/audits/new`}>New audit</a>
      </div>
    </section>
  )
}

/** Once applied: the new versions (when applied from this page), and the next steps, auditing and evaluating them. */
function ApplyResult(props: { run: AuditRunDetail; applied: AppliedFiles | null; base: string }) {
  const { run, applied } = props
  return (
    <div class="notice notice-success" role="status" data-testid="apply-result">
      <p class="notice-title">{applied ? "Applied" : `Applied ${formatAgo(run.appliedAt)}`}</p>
      {applied
        ? (
          <p>
            New versions:{" "}
            {applied.map((f, i) => (
              <>
                {i > 0 ? ", " : null}
                <a key={f.fileId} href={`${props.base}/files/${f.fileId}`} data-applied-version={f.versionNumber}>{f.path} version {f.versionNumber}</a>
              </>
            ))}
            .
          </p>
        )
        : null}
      <p>
        Next: <a href={`${props.base}/audits/new`}>audit the new version</a> to see the score move, or{" "}
        {run.summary.target.targetFileId && applied?.[0]
          ? (
            <a href={`${props.base}/evals/new?sourceFileId=${run.summary.target.targetFileId}&sourceVersion=${run.summary.target.targetFileVersionNumber}&candidateFileId=${applied[0].fileId}&candidateVersion=${applied[0].versionNumber}`}>
              evaluate before against after
            </a>
          )
          : <a href={`${props.base}/evals/new`}>evaluate before against after</a>}.
      </p>
    </div>
  )
}

type ResultTab = "findings" | "improved" | "kit"

/** The result's three views, each with its count. */
function ResultTabs(props: { run: AuditRunDetail; tab: ResultTab; improvedCount: number; onTab: (tab: ResultTab) => void }) {
  const { run } = props
  return (
    <div class="tabs" role="group" aria-label="Audit result">
      <button type="button" class={`tab${props.tab === "findings" ? " tab-on" : ""}`} aria-pressed={props.tab === "findings"} onClick={() => props.onTab("findings")}>
        Findings <span class="tab-count">{run.findings.length}</span>
      </button>
      <button type="button" class={`tab${props.tab === "improved" ? " tab-on" : ""}`} aria-pressed={props.tab === "improved"} onClick={() => props.onTab("improved")}>
        Improved version <span class="tab-count">{props.improvedCount}</span>
      </button>
      <button type="button" class={`tab${props.tab === "kit" ? " tab-on" : ""}`} aria-pressed={props.tab === "kit"} onClick={() => props.onTab("kit")}>
        Eval kit <span class="tab-count">{run.evalKit?.cases.length ?? 0}</span>
      </button>
    </div>
  )
}

function Completed(props: WorkProps & { run: AuditRunDetail; onChanged: () => void }) {
  const { run } = props
  const { query, path, route } = useLocation()
  const tab = query["tab"] === "improved" ? "improved" : query["tab"] === "kit" ? "kit" : "findings"
  const [criterion, setCriterion] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [applied, setApplied] = useState<AppliedFiles | null>(null)
  const apply = useAction((c) => c.audits.applyAudit({ path: { artifactBundleId: props.bundle.id, auditRunId: run.id } }))
  const history = useQuery((c) => c.audits.listAudits({ path: { artifactBundleId: props.bundle.id }, urlParams: { limit: 100 } }), [run.id, applied])
  const improved = run.improvedVersion ? [run.improvedVersion] : run.improvedFiles
  const setTab = (t: string) => route(`${path}?${new URLSearchParams({ ...query, tab: t })}`, true)
  const canApply = improved.length > 0 && !run.appliedAt && applied === null
  const latestOf = (fileId: string) => props.files.find((f) => f.id === fileId)?.latestVersionNumber
  return (
    <div class="stack">
      <div class="audit-summary">
        <OverallScore run={run} canApply={canApply} onApply={() => setConfirming(true)} base={props.base} />
        <section class="card criteria-card" aria-labelledby="criteria-title">
          <h3 id="criteria-title" class="card-title">By criterion <span class="hint">choose one to see its findings</span></h3>
          <Scores run={run} criterion={criterion} onCriterion={(k) => {
            setCriterion(k)
            if (tab !== "findings") setTab("findings")
          }} />
        </section>
        <section class="card history-card" aria-labelledby="history-title">
          <h3 id="history-title" class="card-title">The bundle's score over its audits <a class="hint" href={`${props.base}/audits`}>all audits</a></h3>
          {history.data ? <ScoreChart runs={history.data.data.auditRuns} current={run.id} compact /> : <Loading />}
        </section>
      </div>
      {applied || run.appliedAt ? <ApplyResult run={run} applied={applied} base={props.base} /> : null}
      <ResultTabs run={run} tab={tab} improvedCount={improved.length} onTab={setTab} />
      {tab === "findings"
        ? <Findings run={run} bundleId={props.bundle.id} files={props.files} criterion={criterion} onCriterion={setCriterion} />
        : tab === "improved"
        ? <ImprovedVersion run={run} bundleId={props.bundle.id} files={props.files} applied={applied} onApply={() => setConfirming(true)} base={props.base} />
        : <EvalKit run={run} base={props.base} />}
      <ConfirmDialog
        open={confirming}
        title="Apply the improvements?"
        confirmLabel={`Write ${plural(improved.length, "new version")}`}
        busy={apply.busy}
        error={apply.error}
        onClose={() => {
          setConfirming(false)
          apply.clearError()
        }}
        onConfirm={async () => {
          const answer = await apply.run()
          if (!answer) return
          setConfirming(false)
          setApplied(answer.data.files)
          props.onChanged()
          toast(`Applied: ${answer.data.files.map((f) => `${f.path} version ${f.versionNumber}`).join(", ")}.`)
        }}
      >
        <p>Each file gets a new version with the improved text (its frontmatter kept). Nothing is overwritten: the versions before stay in its history.</p>
        <ul class="apply-list" data-testid="apply-files">
          {improved.map((f) => {
            const latest = latestOf(f.fileId)
            return (
              <li key={f.fileId}>
                <code>{f.path}</code>: version {latest === undefined ? "?" : latest + 1} <span class="muted">(now {latest ?? "?"})</span>
              </li>
            )
          })}
        </ul>
      </ConfirmDialog>
    </div>
  )
}

function EvalKit(props: { run: AuditRunDetail; base: string }) {
  const cases = props.run.evalKit?.cases ?? []
  if (cases.length === 0) return <EmptyState title="No eval cases" />
  return (
    <div class="stack">
      <p class="muted">
        Test cases the audit wrote for this artifact. An eval of this version against a later one uses them: <a href={`${props.base}/evals/new`}>new eval</a>.
      </p>
      <ol class="case-list">
        {cases.map((c) => (
          <li key={c.id} class="card case">
            <p class="case-name"><strong>{c.name}</strong> <span class="badge badge-neutral">{c.type}</span></p>
            <dl class="facts facts-compact">
              <dt>Input</dt>
              <dd>{c.input}</dd>
              <dt>Expected</dt>
              <dd>{c.expectedBehavior}</dd>
              <dt>Passes when</dt>
              <dd>{c.passCriteria}</dd>
            </dl>
          </li>
        ))}
      </ol>
    </div>
  )
}

export function AuditPage(props: WorkProps & { runId: string; onChanged: () => void }) {
  const run = useQuery((c) => c.audits.getAudit({ path: { artifactBundleId: props.bundle.id, auditRunId: props.runId } }), [props.runId], queries.audit(props.runId))
  const status = run.data?.data.auditRun.status
  const live = useJob(status === "queued" || status === "running" ? run.data!.data.auditRun.jobId : null, () => void run.reload())
  return (
    <QueryView query={run} label="Loading the audit…">
      {({ data }) => {
        const r = data.auditRun
        return (
          <div class="stack" data-testid="audit" data-status={r.status}>
            <div class="work-header">
              <div>
                <nav aria-label="Audit" class="work-crumbs"><a href={`${props.base}/audits`}>Audits</a> <span aria-hidden="true">/</span></nav>
                <h2 class="work-title">
                  Audit of {auditTargetLabel(r)} <StateBadge state={r.status} />
                </h2>
                <p class="muted">Started {formatAgo(r.createdAt)} · {r.summary.rubricTitle}</p>
              </div>
            </div>
            {r.status === "queued" || r.status === "running"
              ? <JobProgress live={live} what="Audit" />
              : r.status === "failed" || r.status === "cancelled"
              ? <Outcome what="audit" status={r.status} error={r.error} resourceId={r.id} jobId={r.jobId} again={{ href: `${props.base}/audits/new`, label: "Start a new audit" }} />
              : <Completed {...props} run={r} />}
          </div>
        )
      }}
    </QueryView>
  )
}
