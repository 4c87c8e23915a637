/**
 * A rubr_flow rendered for reading: its identity, inputs, numbered steps (each action with its check),
 * outputs, guardrails, failure handling and evals. A chunk of its own with the YAML reader (about 30
 * KiB), loaded only when someone asks for the rendered view. Text is shown as text: nothing in a file
 * is interpreted as HTML.
 */
import { parse } from "yaml"

type Block = Record<string, unknown>

const list = (value: unknown): ReadonlyArray<Block> => (Array.isArray(value) ? value.filter((v): v is Block => typeof v === "object" && v !== null) : [])
const text = (value: unknown) => (typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value))
const ids = (value: unknown) => (Array.isArray(value) ? value.map(text) : [])

function From(props: { value: unknown }) {
  return props.value ? <span class="flow-from" title="where it came from in the source">{text(props.value)}</span> : null
}

/** What the flow takes, each input with where it came from in the source. */
function FlowInputs(props: { inputs: ReadonlyArray<Block> }) {
  return (
    <section>
      <h4 class="subheading">Inputs</h4>
      <dl class="flow-defs">
        {props.inputs.map((i) => [
          <dt key={`t${text(i["id"])}`}><code>{text(i["id"])}</code>{i["required"] === false ? <span class="hint"> optional</span> : null}</dt>,
          <dd key={`d${text(i["id"])}`}>{text(i["description"])} <From value={i["from"]} /></dd>
        ])}
      </dl>
    </section>
  )
}

/** The numbered steps: each action with its check, what it uses and produces, and what to do when it fails. */
function FlowSteps(props: { steps: ReadonlyArray<Block> }) {
  return (
    <section>
      <h4 class="subheading">Steps</h4>
      <ol class="flow-steps">
        {props.steps.map((step, n) => (
          <li key={text(step["id"]) || n} class="flow-step">
            <p class="flow-step-title">
              <strong>{text(step["title"]) || text(step["id"])}</strong> <code class="hint">{text(step["id"])}</code> <From value={step["from"]} />
            </p>
            <p class="flow-action">{text(step["action"])}</p>
            <p class="flow-check"><span class="flow-check-label">Check</span> {text(step["check"])}</p>
            {ids(step["uses"]).length + ids(step["produces"]).length > 0 || step["on_failure"]
              ? (
                <p class="hint">
                  {ids(step["uses"]).length > 0 ? <>uses {ids(step["uses"]).join(", ")} </> : null}
                  {ids(step["produces"]).length > 0 ? <>· produces {ids(step["produces"]).join(", ")} </> : null}
                  {step["on_failure"] ? <>· on failure: {text(step["on_failure"])}</> : null}
                </p>
              )
              : null}
          </li>
        ))}
      </ol>
    </section>
  )
}

export function FlowView(props: { text: string }) {
  let doc: Block
  try {
    const parsed: unknown = parse(props.text)
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not a mapping")
    doc = parsed as Block
  } catch (e) {
    return (
      <div class="notice notice-info">
        <p class="notice-title">This text cannot be shown rendered</p>
        <p>It is not a YAML mapping ({e instanceof Error ? e.message : String(e)}); the source view shows it, with its issues.</p>
      </div>
    )
  }
  const steps = list(doc["steps"])
  const inputs = list(doc["inputs"])
  const outputs = list(doc["outputs"])
  const guardrails = list(doc["guardrails"])
  const failures = list(doc["failure_handling"])
  const evals = list(doc["evals"])
  return (
    <article class="flow" data-testid="flow-rendered">
      <header class="flow-identity">
        <p class="eyebrow">rubr_flow {text(doc["rubr_flow"])}</p>
        <h3 class="flow-name">{text(doc["name"])}</h3>
        <p>{text(doc["description"])}</p>
        <p class="muted"><strong>When to use:</strong> {text(doc["when_to_use"])} <From value={doc["from"]} /></p>
      </header>
      {inputs.length > 0 ? <FlowInputs inputs={inputs} /> : null}
      <FlowSteps steps={steps} />
      {outputs.length > 0
        ? (
          <section>
            <h4 class="subheading">Outputs</h4>
            <dl class="flow-defs">
              {outputs.map((o) => [<dt key={`t${text(o["id"])}`}><code>{text(o["id"])}</code></dt>, <dd key={`d${text(o["id"])}`}>{text(o["description"])}</dd>])}
            </dl>
          </section>
        )
        : null}
      {guardrails.length > 0
        ? (
          <section>
            <h4 class="subheading">Guardrails</h4>
            <ul class="flow-guardrails">
              {guardrails.map((g, n) => (
                <li key={n} class={g["never"] !== undefined ? "guard-never" : "guard-must"}>
                  <span class="guard-kind">{g["never"] !== undefined ? "Never" : "Must"}</span> {text(g["never"] ?? g["must"])} <From value={g["from"]} />
                </li>
              ))}
            </ul>
          </section>
        )
        : null}
      {failures.length > 0
        ? (
          <section>
            <h4 class="subheading">When something goes wrong</h4>
            <dl class="flow-defs">
              {failures.map((f, n) => [
                <dt key={`t${n}`}>{text(f["when"])}</dt>,
                <dd key={`d${n}`}>{text(f["then"])}{f["resume_at"] ? <span class="hint"> · then resume at {text(f["resume_at"])}</span> : null}</dd>
              ])}
            </dl>
          </section>
        )
        : null}
      {evals.length > 0
        ? (
          <section>
            <h4 class="subheading">Suggested evals</h4>
            <ul class="plain-list">{evals.map((e, n) => <li key={n}><strong>{text(e["name"] ?? e["id"])}</strong>: {text(e["input"])}</li>)}</ul>
          </section>
        )
        : null}
    </article>
  )
}
