/** Who am I (`/me`), how I signed in, my email preferences and the newsletter (the existing routes). */
import { useState } from "preact/hooks"
import { type Client, type Data, useAction, useQuery } from "../api.js"
import { getSession } from "../session.js"
import { CopyButton } from "../ui/CopyButton.js"
import { ErrorNotice } from "../ui/ErrorNotice.js"
import { formatAgo, formatDate } from "../ui/format.js"
import { PageHeader, QueryView } from "../ui/Page.js"
import { toast } from "../ui/Toasts.js"

type Preferences = Data<Client["emailPreferences"]["getEmailPreferences"]>
type PreferenceItem = Preferences["optional"][number]

function Profile() {
  const me = useQuery((c) => c.identity.me(), [])
  return (
    <section class="card" aria-labelledby="profile-title">
      <h2 id="profile-title" class="card-title">Profile</h2>
      <QueryView query={me}>
        {({ data }) => (
          <>
            <dl class="facts">
              <dt>Name</dt>
              <dd>{data.user.displayName ?? "—"}</dd>
              <dt>Email</dt>
              <dd>
                {data.user.email ?? "—"}{" "}
                {data.user.emailVerifiedAt ? <span class="badge badge-success">verified</span> : <span class="badge badge-neutral">not verified</span>}
              </dd>
              <dt>User ID</dt>
              <dd class="inline-copy">
                <code>{data.user.id}</code>
                <CopyButton text={data.user.id} label="Copy ID" />
              </dd>
              <dt>Plan</dt>
              <dd>{data.user.planKey}</dd>
              <dt>Member since</dt>
              <dd>{formatDate(data.user.createdAt)}</dd>
            </dl>
            <h3 class="subheading">Sign-in</h3>
            {(data.identities ?? []).map((identity) => (
              <dl class="facts" key={identity.providerUserId}>
                <dt>Provider</dt>
                <dd data-sign-in-provider>
                  {identity.signInProviderLabel}{" "}
                  <code>{identity.signInProvider}</code>{" "}
                  {getSession()?.kind === "dev" ? <span class="badge badge-neutral">development sign-in</span> : null}
                </dd>
                <dt>Subject</dt>
                <dd><code>{identity.providerUserId}</code></dd>
                <dt>Last sign-in</dt>
                <dd title={formatDate(identity.lastAuthenticatedAt)}>{formatAgo(identity.lastAuthenticatedAt)}</dd>
              </dl>
            ))}
          </>
        )}
      </QueryView>
    </section>
  )
}

function EmailPreferences() {
  const prefs = useQuery((c) => c.emailPreferences.getEmailPreferences(), [])
  const update = useAction((c, category: string, enabled: boolean) =>
    c.emailPreferences.updateEmailPreferences({ payload: { preferences: [{ category, enabled }] } })
  )
  const toggle = async (item: PreferenceItem) => {
    const answer = await update.run(item.key, !item.enabled)
    if (answer) {
      prefs.set(answer)
      toast(`${item.label}: ${!item.enabled ? "on" : "off"}.`)
    }
  }
  return (
    <section class="card" aria-labelledby="email-title">
      <h2 id="email-title" class="card-title">Email</h2>
      <QueryView query={prefs}>
        {({ data }) => (
          <>
            <ul class="pref-list">
              {data.optional.map((item) => (
                <li key={item.key} class="pref">
                  <label class="switch">
                    <input type="checkbox" role="switch" checked={item.enabled} disabled={update.busy} onChange={() => void toggle(item)} />
                    <span class="switch-track" aria-hidden="true" />
                    <span>
                      <span class="pref-label">{item.label}</span>
                      <span class="hint">{item.description}</span>
                    </span>
                  </label>
                </li>
              ))}
              {data.mustReceive.map((item) => (
                <li key={item.key} class="pref">
                  <label class="switch">
                    <input type="checkbox" role="switch" checked disabled aria-describedby={`must-${item.key}`} />
                    <span class="switch-track" aria-hidden="true" />
                    <span>
                      <span class="pref-label">{item.label}</span>
                      <span class="hint" id={`must-${item.key}`}>{item.description} Always sent.</span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
            {update.error ? <ErrorNotice error={update.error} /> : null}
          </>
        )}
      </QueryView>
    </section>
  )
}

function Newsletter() {
  const me = useQuery((c) => c.identity.me(), [])
  const [email, setEmail] = useState<string | null>(null)
  const [consent, setConsent] = useState(false)
  const [result, setResult] = useState<string | null>(null)
  const address = email ?? me.data?.data.user.email ?? ""
  const subscribe = useAction((c, address: string) => c.newsletter.subscribeNewsletter({ payload: { email: address, consent: true } }))
  const unsubscribe = useAction((c, address: string) => c.newsletter.unsubscribeNewsletter({ payload: { email: address } }))
  const error = subscribe.error ?? unsubscribe.error
  return (
    <section class="card" aria-labelledby="newsletter-title">
      <h2 id="newsletter-title" class="card-title">Newsletter</h2>
      <p class="muted">Product news, at most monthly. Every message has a one-click unsubscribe link.</p>
      <form
        class="form"
        onSubmit={async (e) => {
          e.preventDefault()
          const answer = await subscribe.run(address)
          if (answer) setResult(answer.data.message)
        }}
      >
        <div class="field">
          <label for="newsletter-email">Email address</label>
          <input id="newsletter-email" class="input" type="email" required value={address} onInput={(e) => setEmail(e.currentTarget.value)} />
        </div>
        <label class="checkbox">
          <input type="checkbox" checked={consent} onChange={(e) => setConsent(e.currentTarget.checked)} required />
          <span>I agree to receive the rubr newsletter.</span>
        </label>
        <div class="button-row">
          <button type="submit" class="button button-primary" disabled={!consent || subscribe.busy}>Subscribe</button>
          <button
            type="button"
            class="button"
            disabled={unsubscribe.busy || address === ""}
            onClick={async () => {
              const answer = await unsubscribe.run(address)
              if (answer) setResult(answer.data.message)
            }}
          >
            Email me an unsubscribe link
          </button>
        </div>
        {result ? <p class="notice notice-info" role="status">{result}</p> : null}
        {error ? <ErrorNotice error={error} /> : null}
      </form>
    </section>
  )
}

export function Account() {
  return (
    <div class="page">
      <PageHeader title="Account" description="Who you are signed in as, and what rubr may email you." />
      <div class="stack">
        <Profile />
        <EmailPreferences />
        <Newsletter />
      </div>
    </div>
  )
}
