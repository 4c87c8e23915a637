/** What the service tells the page before any API call (the `rubr-config` meta element). */
import type { DashboardConfig } from "../Config.js"

export type { DashboardConfig }

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
