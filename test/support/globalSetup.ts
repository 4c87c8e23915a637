/**
 * One embedded PostgreSQL for the whole run (or TEST_DATABASE_URL's server), with a migrated template
 * database; each test file clones it (CREATE DATABASE ... TEMPLATE), so files run in parallel, isolated.
 */
import { Effect, Scope, Exit } from "effect"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import pg from "pg"
import { runMigrations as runWorkerMigrations } from "graphile-worker"
import type { TestProject } from "vitest/node"
import { startEmbedded } from "../../src/db/EmbeddedPostgres.js"
import { migrate } from "../../src/db/Migrations.js"

export const TEMPLATE_DB = "rubr_test_template"

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string
  }
}

const withDatabase = (url: string, database: string) => {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

export default async function setup(project: TestProject) {
  // the CLI tests run bin/rubr.js (dist/cli) and the links test runs npm start's dist/server: build both from the current source
  execFileSync(process.execPath, ["scripts/build.mjs", "--no-types"], { stdio: "inherit" })
  const scope = Effect.runSync(Scope.make())
  let adminUrl = process.env.TEST_DATABASE_URL
  let dataDir: string | undefined
  if (!adminUrl) {
    dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "rubr-test-"))
    Fs.chmodSync(dataDir, 0o755)
    const server = await Effect.runPromise(Scope.extend(startEmbedded({ dataDir, fast: true }), scope))
    adminUrl = server.url
  }
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`)
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`)
  await admin.end()
  const pool = new pg.Pool({ connectionString: withDatabase(adminUrl, TEMPLATE_DB), max: 2 })
  pool.on("error", () => undefined)
  pool.on("connect", (client) => client.on("error", () => undefined))
  await Effect.runPromise(migrate(pool))
  await runWorkerMigrations({ pgPool: pool })
  await pool.end()
  project.provide("pgAdminUrl", adminUrl)
  return async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    if (dataDir) Fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
