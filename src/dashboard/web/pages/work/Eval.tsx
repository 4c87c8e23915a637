/**
 * An eval's page: the two versions compared. Pass rates before and after, the score delta, and every
 * test case with both sides' observed behaviour, the judge's verdict, score and reasons (evidence),
 * regressions first. Live progress while it runs; a failed run keeps the cases it judged.
 */
import { useState } from "preact/hooks"
import { type Client, type Data, useQuery } from "../../api.js"
import { formatAgo, formatNumber, plural } from "../../ui/format.js"
import { EmptyState, QueryView } from "../../ui/Page.js"
import { JobProgress, StateBadge } from "./JobProgress.js"
import { deltaText } from "./Lists.js"
import { Outcome } from "./Outcome.js"
import type { WorkProps } from "./Start.js"
import { useJob } from "./useJob.js"
import { Segmented } from "../../ui/Segmented.js"

type EvalRun = Data<Client["evals"]["getEval"]>["evalRun"]
type CaseResult = EvalRun["results"][number]
type Verdict = CaseResult["verdict"]

const ORDER: Record<Verdict, number> = { regressed: 0, improved: 1, unchanged: 2 }
const VERDICT_LABEL: Record<Verdict, string> = { regressed: "Regressed", improved: "Improved", unchanged: "Unchanged" }

const percent = (n: number, of: number) => (of === 0 ? "—" : `${Math.round((n / of) * 100)}%`)

function Side(props: { title: string; side: CaseResult["source"] }) {
  const s = props.side
  return (
    <div class={`side ${s.passed ? "side-pass" : "side-fail"}`}>
      <p class="side-head">
        <span class="side-title">{props.title}</span>
        <span class={`badge ${s.passed ? "badge-success" : "badge-debit"}`}>{s.passed ? "passed" : "failed"}</span>
        <span class="side-score">{Math.round(s.score)}<span class="hint">/100</span></span>
      </p>
      <p class="side-observed">{s.observedBehavior}</p>
      {s.evidence.length > 0
        ? (
          <ul class="evidence" aria-label="The judge's reasons">
            {s.evidence.map((e, i) => <li key={i}>{e}</li>)}
          </ul>
        )
        : null}
    </div>
  )
}

function Case(props: { result: CaseResult }) {
  const r = props.result
  return (
    <li class={`card case case-${r.verdict}`} data-case={r.caseId} data-verdict={r.verdict}>
      <div class="case-head">
        <span class={`verdict verdict-${r.verdict}`}>{VERDICT_LABEL[r.verdict]}</span>
        <h3 class="case-title">{r.name}</h3>
        <span class="badge badge-neutral">{r.type}</span>
        <span class={`case-delta delta-${r.scoreDelta > 0 ? "up" : r.scoreDelta < 0 ? "down" : "flat"}`}>{deltaText(r.scoreDelta)}</span>
      </div>
      <details class="case-spec">
        <summary>The case: input, expected behaviour, pass criteria</summary>
        <dl class="facts facts-compact">
          <dt>Input</dt>
          <dd>{r.input}</dd>
          <dt>Expected</dt>
          <dd>{r.expectedBehavior}</dd>
          <dt>Passes when</dt>
          <dd>{r.passCriteria}</dd>
        </dl>
      </details>
      <div class="sides">
        <Side title="Before" side={r.source} />
        <Side title="After" side={r.candidate} />
      </div>
    </li>
  )
}

function UnifiedText(props: { unified: string }) {
  return (
    <pre class="unified" tabIndex={0} aria-label="What changed between the two versions">
      {props.unified.split("\n").map((line, i) => (
        <span key={i} class={line.startsWith("+") && !line.startsWith("+++") ? "u-add" : line.startsWith("-") && !line.startsWith("---") ? "u-del" : line.startsWith("@@") ? "u-hunk" : ""}>
          {line}
          {"\n"}
        </span>
      ))}
    </pre>
  )
}

function Results(props: WorkProps & { run: EvalRun }) {
  const { run } = props
  const [filter, setFilter] = useState<"all" | Verdict>("all")
  const c = run.comparison
  const total = run.results.length
  const sorted = [...run.results].map((r, i) => [r, i] as const).sort((a, b) => ORDER[a[0].verdict] - ORDER[b[0].verdict] || a[1] - b[1]).map(([r]) => r)
  const shown = sorted.filter((r) => filter === "all" || r.verdict === filter)
  const count = (v: Verdict) => run.results.filter((r) => r.verdict === v).length
  return (
    <div class="stack">
      {c
        ? (
          <div class="summary-cards" data-testid="eval-summary">
            <section class="card">
              <p class="stat-label">Passed before</p>
              <p class="summary-value">{percent(c.sourcePassCount, total)}</p>
              <p class="hint">{c.sourcePassCount} of {plural(total, "case")}</p>
            </section>
            <section class="card">
              <p class="stat-label">Passed after</p>
              <p class="summary-value" data-testid="pass-after">{percent(c.candidatePassCount, total)}</p>
              <p class="hint">{c.candidatePassCount} of {plural(total, "case")}</p>
            </section>
            <section class="card">
              <p class="stat-label">Score delta</p>
              <p class={`summary-value delta-${c.scoreDelta > 0 ? "up" : c.scoreDelta < 0 ? "down" : "flat"}`} data-testid="score-delta">{deltaText(c.scoreDelta)}</p>
              <p class="hint">mean {formatNumber(Math.round(c.sourceMeanScore))} → {formatNumber(Math.round(c.candidateMeanScore))}</p>
            </section>
            <section class={`card${c.regressedCount > 0 ? " card-alert" : ""}`}>
              <p class="stat-label">Verdicts</p>
              <p class="summary-value">{c.regressedCount > 0 ? `${c.regressedCount} regressed` : "No regression"}</p>
              <p class="hint">{c.improvedCount} improved · {c.unchangedCount} unchanged</p>
            </section>
          </div>
        )
        : null}
      <div class="toolbar">
        <Segmented
          label="Show cases"
          value={filter}
          options={(["all", "regressed", "improved", "unchanged"] as const).map((v) => [v, v === "all" ? `All ${total}` : `${VERDICT_LABEL[v]} ${count(v)}`] as const)}
          onChange={setFilter}
        />
        <div class="toolbar-spacer" />
        {run.status === "completed" ? <a class="button button-primary" href={`${props.base}/proof-reports/new?evalRunId=${run.id}`}>Create a proof report</a> : null}
      </div>
      {shown.length === 0 ? <EmptyState title="No case with this verdict" /> : <ol class="case-list" data-testid="cases">{shown.map((r) => <Case key={r.caseId} result={r} />)}</ol>}
      {run.diff && !run.diff.identical
        ? (
          <details class="card">
            <summary class="card-title">What changed between the versions <span class="amount-grant">+{run.diff.linesAdded}</span> <span class="amount-debit">−{run.diff.linesRemoved}</span></summary>
            <UnifiedText unified={run.diff.unified} />
          </details>
        )
        : null}
      {run.knownLimitations.length > 0
        ? (
          <section class="card">
            <h3 class="card-title">What this eval cannot show</h3>
            <ul>{run.knownLimitations.map((l, i) => <li key={i}>{l}</li>)}</ul>
          </section>
        )
        : null}
    </div>
  )
}

export function EvalPage(props: WorkProps & { runId: string; onChanged: () => void }) {
  const run = useQuery((c) => c.evals.getEval({ path: { artifactBundleId: props.bundle.id, evalRunId: props.runId } }), [props.runId])
  const status = run.data?.data.evalRun.status
  const live = useJob(status === "queued" || status === "running" ? run.data!.data.evalRun.jobId : null, () => void run.reload())
  return (
    <QueryView query={run} label="Loading the eval…">
      {({ data }) => {
        const r = data.evalRun
        const t = r.summary.target
        return (
          <div class="stack" data-testid="eval" data-status={r.status}>
            <div class="work-header">
              <div>
                <nav aria-label="Eval" class="work-crumbs"><a href={`${props.base}/evals`}>Evals</a> <span aria-hidden="true">/</span></nav>
                <h2 class="work-title">
                  {t.sourceFilePath} v{t.sourceFileVersionNumber} → {t.candidateFilePath === t.sourceFilePath ? "" : `${t.candidateFilePath} `}v{t.candidateFileVersionNumber} <StateBadge state={r.status} />
                </h2>
                <p class="muted">
                  Started {formatAgo(r.createdAt)} · {plural(t.caseCount, "case")} {{ request: "given", audit_eval_kit: "from the audit's eval kit", generated: "generated from the source" }[t.casesSource]} · evaluator {r.evaluatorVersion}
                </p>
              </div>
            </div>
            {r.status === "queued" || r.status === "running" ? <JobProgress live={live} what="Eval" /> : null}
            {r.status === "failed" || r.status === "cancelled"
              ? <Outcome what="eval" status={r.status} error={r.error} resourceId={r.id} jobId={r.jobId} again={{ href: `${props.base}/evals/new`, label: "Start a new eval" }} />
              : null}
            {r.status === "completed" || r.results.length > 0 ? <Results {...props} run={r} /> : null}
          </div>
        )
      }}
    </QueryView>
  )
}
