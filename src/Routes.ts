/** The contract's route table (src/http/RouteTable.ts), built once from the composition root's API. */
import { Layer } from "effect"
import { RubrApi } from "./Api.js"
import { makeRouteTable, RouteTable } from "./http/RouteTable.js"

/** the docs page, served beside the API (src/docs/DocsPage.ts), not as an endpoint of it */
export const DOCS_PATH = "/api/v1/docs"

export const routeTable = makeRouteTable(RubrApi, {
  extraPublicPages: [{ method: "GET", path: DOCS_PATH }],
  // probes poll it: the one public route the per-IP limit leaves alone
  unthrottled: ["GET /api/v1/health"]
})

export const { routes, accessRuleFor } = routeTable

export const RouteTableLive = Layer.succeed(RouteTable, routeTable)
