/**
 * API keys, as on GitHub's token settings: the list (name, prefix, scopes, created, last used, expires,
 * revoked), creation with scopes grouped by area (presets "read-only" and "everything") and an optional
 * expiry, the raw key shown once with copy buttons and ready snippets, and revocation behind a confirmation.
 */
import { useMemo, useState } from "preact/hooks"
import { type Data, useAction, useQuery } from "../api.js"
import type { Client } from "../api.js"
import { CopyButton } from "../ui/CopyButton.js"
import { ConfirmDialog, Dialog } from "../ui/Dialog.js"
import { ErrorNotice } from "../ui/ErrorNotice.js"
import { formatAgo, formatDate } from "../ui/format.js"
import { EmptyState, PageHeader, QueryView } from "../ui/Page.js"
import { toast } from "../ui/Toasts.js"

type ApiKey = Data<Client["identity"]["listApiKeys"]>["apiKeys"][number]

/** The 13 scopes by area, each with what it grants (the API specification's table). */
export const SCOPE_GROUPS: ReadonlyArray<{ area: string; scopes: ReadonlyArray<{ scope: string; grants: string }> }> = [
  {
    area: "Bundles",
    scopes: [
      { scope: "artifact_bundles:read", grants: "read bundles, their contents and their audit, eval, conversion and proof-report history" },
      { scope: "artifact_bundles:write", grants: "create, update, archive, delete and restore bundles" },
      { scope: "artifacts:pull", grants: "narrow read for pull workflows: bundles, versions and files; no history, no runs" }
    ]
  },
  {
    area: "Files",
    scopes: [
      { scope: "files:read", grants: "read files" },
      { scope: "files:write", grants: "upload, edit, delete and restore files" }
    ]
  },
  {
    area: "Work",
    scopes: [
      { scope: "audits:run", grants: "estimate, start and apply audits" },
      { scope: "rubr_flow:convert", grants: "start rubr_flow conversions" },
      { scope: "evals:run", grants: "start evals and proof reports" }
    ]
  },
  {
    area: "Exports",
    scopes: [
      { scope: "exports:read", grants: "read exports and proof reports" },
      { scope: "exports:write", grants: "generate exports and proof reports" }
    ]
  },
  {
    area: "Jobs and credits",
    scopes: [
      { scope: "jobs:read", grants: "poll jobs and their events" },
      { scope: "jobs:write", grants: "cancel jobs" },
      { scope: "credits:read", grants: "read credits" }
    ]
  }
]
const ALL_SCOPES = SCOPE_GROUPS.flatMap((g) => g.scopes.map((s) => s.scope))
const READ_ONLY = ["artifact_bundles:read", "files:read", "exports:read", "jobs:read", "credits:read"]

const EXPIRY_CHOICES: ReadonlyArray<{ label: string; days: number | null }> = [
  { label: "7 days", days: 7 },
  { label: "30 days", days: 30 },
  { label: "90 days", days: 90 },
  { label: "1 year", days: 365 },
  { label: "No expiry", days: null }
]

const keyState = (key: ApiKey) =>
  key.revokedAt ? "revoked" : key.expiresAt && key.expiresAt.getTime() <= Date.now() ? "expired" : "active"

function CreateKeyDialog(props: { open: boolean; onClose: () => void; onCreated: (raw: string, key: ApiKey) => void }) {
  const [name, setName] = useState("")
  const [scopes, setScopes] = useState<ReadonlyArray<string>>(READ_ONLY)
  const [expiry, setExpiry] = useState<number | null>(90)
  const create = useAction((c, payload: { name: string; scopes: Array<string>; expiresAt: Date | null }) =>
    c.identity.createApiKey({ payload: payload as never })
  )
  const toggle = (scope: string) => setScopes((s) => (s.includes(scope) ? s.filter((x) => x !== scope) : [...s, scope]))
  const submit = async (e: Event) => {
    e.preventDefault()
    const expiresAt = expiry === null ? null : new Date(Date.now() + expiry * 86_400_000)
    const answer = await create.run({ name: name.trim(), scopes: ALL_SCOPES.filter((s) => scopes.includes(s)), expiresAt })
    if (answer) {
      props.onCreated(answer.data.rawApiKey, answer.data.apiKey)
      setName("")
    }
  }
  return (
    <Dialog open={props.open} title="Create an API key" onClose={props.onClose} wide>
      <form onSubmit={submit} class="form">
        <div class="field">
          <label for="key-name">Name</label>
          <input
            id="key-name"
            class="input"
            required
            maxLength={100}
            placeholder="laptop, CI, Claude Code…"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <p class="hint">What the key is for, so you know which one to revoke later.</p>
        </div>
        <fieldset class="field">
          <legend>Scopes</legend>
          <div class="preset-row">
            <button type="button" class="button button-small" onClick={() => setScopes(READ_ONLY)}>Read-only</button>
            <button type="button" class="button button-small" onClick={() => setScopes(ALL_SCOPES)}>Everything</button>
            <button type="button" class="button button-small" onClick={() => setScopes([])}>None</button>
            <span class="hint">{scopes.length} of {ALL_SCOPES.length} selected</span>
          </div>
          <div class="scope-groups">
            {SCOPE_GROUPS.map((group) => (
              <div class="scope-group" key={group.area}>
                <p class="scope-area">{group.area}</p>
                {group.scopes.map((s) => (
                  <label class="checkbox" key={s.scope}>
                    <input type="checkbox" name="scope" value={s.scope} checked={scopes.includes(s.scope)} onChange={() => toggle(s.scope)} />
                    <span>
                      <code>{s.scope}</code>
                      <span class="hint">{s.grants}</span>
                    </span>
                  </label>
                ))}
              </div>
            ))}
          </div>
        </fieldset>
        <div class="field">
          <label for="key-expiry">Expiration</label>
          <select id="key-expiry" class="input" value={expiry === null ? "" : String(expiry)} onChange={(e) => setExpiry(e.currentTarget.value === "" ? null : Number(e.currentTarget.value))}>
            {EXPIRY_CHOICES.map((c) => <option key={c.label} value={c.days === null ? "" : String(c.days)}>{c.label}</option>)}
          </select>
        </div>
        {create.error ? <ErrorNotice error={create.error} onRetry={() => void submit(new Event("submit"))} /> : null}
        <div class="dialog-actions">
          <button type="button" class="button" onClick={props.onClose}>Cancel</button>
          <button type="submit" class="button button-primary" disabled={create.busy || scopes.length === 0 || name.trim() === ""}>
            {create.busy ? "Creating…" : "Create key"}
          </button>
        </div>
      </form>
    </Dialog>
  )
}

function NewKey(props: { raw: string; apiKey: ApiKey; onDone: () => void }) {
  const base = `${location.origin}/api/v1`
  const exportLine = `export SERVICE_API_KEY=${props.raw}`
  const mcp = JSON.stringify({ mcpServers: { rubr: { url: `${base}/mcp`, headers: { Authorization: `Bearer ${props.raw}` } } } }, null, 2)
  const claude = `claude mcp add --transport http rubr ${base}/mcp --header "Authorization: Bearer ${props.raw}"`
  return (
    <section class="card card-highlight" aria-labelledby="new-key-title" data-testid="new-key">
      <h2 id="new-key-title" class="card-title">Your new key “{props.apiKey.name}”</h2>
      <p class="notice-inline">Copy it now: this is the only time it is shown. rubr keeps only its hash.</p>
      <div class="secret-row">
        <code class="secret" data-raw-key>{props.raw}</code>
        <CopyButton text={props.raw} label="Copy key" />
      </div>
      <h3 class="subheading">In a terminal (the rubr CLI, the SDK)</h3>
      <div class="snippet">
        <pre><code>{exportLine}</code></pre>
        <CopyButton text={exportLine} label="Copy line" />
      </div>
      <h3 class="subheading">In an MCP client</h3>
      <div class="snippet">
        <pre><code>{mcp}</code></pre>
        <CopyButton text={mcp} label="Copy JSON" />
      </div>
      <div class="snippet">
        <pre><code>{claude}</code></pre>
        <CopyButton text={claude} label="Copy command" />
      </div>
      <button type="button" class="button" onClick={props.onDone}>Done, I saved it</button>
    </section>
  )
}

/** The keys, one row each: what it may do, when it was created, last used and expires, and revoking it. */
function KeyTable(props: { keys: ReadonlyArray<ApiKey>; onRevoke: (key: ApiKey) => void }) {
  return (
    <div class="table-wrap">
      <table class="table">
        <caption class="visually-hidden">Your API keys</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Status</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {props.keys.map((key) => {
            const state = keyState(key)
            return (
              <tr key={key.id} data-key-id={key.id} class={state === "active" ? "" : "row-muted"}>
                <th scope="row">{key.name}</th>
                <td><code>{key.prefix}…</code></td>
                <td>
                  <div class="scope-list">
                    {key.scopes.length === ALL_SCOPES.length
                      ? <span class="badge">all 13 scopes</span>
                      : key.scopes.map((s) => <span class="badge" key={s}>{s}</span>)}
                  </div>
                </td>
                <td title={formatDate(key.createdAt)}>{formatAgo(key.createdAt)}</td>
                <td title={formatDate(key.lastUsedAt)}>{formatAgo(key.lastUsedAt)}</td>
                <td title={formatDate(key.expiresAt)}>{key.expiresAt ? formatAgo(key.expiresAt) : "never"}</td>
                <td>
                  <span class={`badge ${state === "active" ? "badge-success" : "badge-neutral"}`}>
                    {state === "revoked" ? `revoked ${formatAgo(key.revokedAt)}` : state}
                  </span>
                </td>
                <td class="cell-actions">
                  {state === "revoked"
                    ? null
                    : (
                      <button type="button" class="button button-small button-danger-quiet" onClick={() => props.onRevoke(key)} aria-label={`Revoke ${key.name}`}>
                        Revoke
                      </button>
                    )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

export function Keys() {
  const keys = useQuery((c) => c.identity.listApiKeys(), [])
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<{ raw: string; apiKey: ApiKey } | null>(null)
  const [revoking, setRevoking] = useState<ApiKey | null>(null)
  const revoke = useAction((c, keyId: string) => c.identity.revokeApiKey({ path: { keyId } }))
  const list = useMemo(() => keys.data?.data.apiKeys ?? [], [keys.data])
  return (
    <div class="page">
      <PageHeader
        title="API keys"
        description="Keys let scripts, the rubr CLI, CI jobs and MCP clients act for you, within the scopes you give them."
        actions={<button type="button" class="button button-primary" onClick={() => setCreating(true)}>Create key</button>}
      />
      {created ? <NewKey raw={created.raw} apiKey={created.apiKey} onDone={() => setCreated(null)} /> : null}
      <QueryView query={keys} label="Loading keys…">
        {() =>
          list.length === 0
            ? (
              <EmptyState title="No API keys yet">
                <p class="muted">Create one to use rubr from a terminal, CI or an AI client.</p>
              </EmptyState>
            )
            : <KeyTable keys={list} onRevoke={setRevoking} />}
      </QueryView>
      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(raw, apiKey) => {
          setCreating(false)
          setCreated({ raw, apiKey })
          void keys.reload()
        }}
      />
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        confirmLabel="Revoke key"
        danger
        busy={revoke.busy}
        error={revoke.error}
        onClose={() => {
          setRevoking(null)
          revoke.clearError()
        }}
        onConfirm={async () => {
          const done = await revoke.run(revoking!.id)
          if (done) {
            toast(`Revoked “${done.data.apiKey.name}”.`)
            setRevoking(null)
            void keys.reload()
          }
        }}
      >
        <p>
          Anything using <code>{revoking?.prefix}…</code> is refused from now on (401). This cannot be undone; create a new key to replace it.
        </p>
      </ConfirmDialog>
    </div>
  )
}
