/**
 * What the page learns about the service before any API call: the `rubr-config` meta element the
 * service fills in (Assets.ts) and the page reads (web/config.ts). Types only: both sides import it.
 */
export interface DashboardConfig {
  readonly apiBase: string
  readonly devSignIn: boolean
  readonly oidc: {
    readonly authority: string
    readonly clientId: string
    readonly scope: string
    /** the provider's discovery document, when the service could read it (saves the browser a request) */
    readonly metadata: Record<string, unknown> | null
  } | null
}
