/**
 * Plain SQL migrations from sql/NNNN_name.sql, applied in order inside one transaction that holds an
 * advisory lock, so two processes starting at once apply each file exactly once.
 */
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import type pg from "pg"

export const migrationsDir = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "../../sql")

const LOCK_KEY = 72_727_001

export const listMigrations = (dir = migrationsDir) =>
  Fs.readdirSync(dir)
    .filter((name) => /^\d{4}_[\w-]+\.sql$/.test(name))
    .sort()
    .map((name) => ({ name, sql: Fs.readFileSync(Path.join(dir, name), "utf8") }))

export const migrate = (pool: pg.Pool, dir = migrationsDir) =>
  Effect.tryPromise({
    try: async () => {
      const migrations = listMigrations(dir)
      const client = await pool.connect()
      try {
        await client.query("BEGIN")
        await client.query("SELECT pg_advisory_xact_lock($1)", [LOCK_KEY])
        await client.query(
          "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        const done = new Set((await client.query<{ name: string }>("SELECT name FROM schema_migrations")).rows.map((r) => r.name))
        const applied: Array<string> = []
        for (const migration of migrations) {
          if (done.has(migration.name)) continue
          await client.query(migration.sql)
          await client.query("INSERT INTO schema_migrations (name) VALUES ($1)", [migration.name])
          applied.push(migration.name)
        }
        await client.query("COMMIT")
        return applied
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    },
    catch: (cause) => new Error(`migration failed: ${cause instanceof Error ? cause.message : String(cause)}`)
  })
