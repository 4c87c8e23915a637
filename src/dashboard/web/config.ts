/** What the service tells the page before any API call: the `rubr-config` meta element it fills in (src/dashboard/Assets.ts). */
export interface DashboardConfig {
  readonly apiBase: string
  readonly devSignIn: boolean
  readonly oidc: {
    readonly authority: string
    readonly clientId: string
    readonly scope: string
    readonly metadata: Record<string, unknown> | null
  } | null
}

const read = (): DashboardConfig => {
  const content = document.querySelector('meta[name="rubr-config"]')?.getAttribute("content")
  try {
    if (content) return JSON.parse(content) as DashboardConfig
  } catch {
    // a page served by something else: fall through to the defaults
  }
  return { apiBase: "/api/v1", devSignIn: false, oidc: null }
}

export const config: DashboardConfig = read()

/** The API's base URL for the typed client. */
export const apiBaseUrl = () => new URL(config.apiBase, location.origin).toString().replace(/\/+$/, "")
