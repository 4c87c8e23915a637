/**
 * Issue 16: named prepared statements (src/db/PreparedStatements.ts) and their switch,
 * SERVICE_DB_PREPARED_STATEMENTS. Every Parse message any connection of this process sends is recorded
 * (the pg connection's `parse`), so "prepared once per connection" is counted, not inferred.
 */
import { afterAll, describe, expect, it as vit, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import pg from "pg"
import { allScopes } from "../src/auth/Scopes.js"
import { AppConfig } from "../src/config/AppConfig.js"
import { PgPool } from "../src/db/Database.js"
import {
  MAX_NAMES_PER_CONNECTION,
  preparedStatementsClient,
  preparedStatementsOf,
  STATEMENT_NAME_PREFIX,
  statementName
} from "../src/db/PreparedStatements.js"
import { bundleWith, call } from "./support/fixtures.js"
import { makeTestApp, TestApp, type TestAppShape } from "./support/TestApp.js"

// ---- every Parse message of this process, per connection --------------------------------------

interface ParseRecord {
  readonly connection: object
  readonly name: string
  readonly text: string
}
const parses: Array<ParseRecord> = []
// pg's Connection class (one for every client of this process, the app's included), reached through a
// client that never connects
const connectionProto = Object.getPrototypeOf((new pg.Client() as any).connection)
const originalParse = connectionProto.parse
connectionProto.parse = function(this: object, query: { name?: string; text: string }) {
  parses.push({ connection: this, name: query.name ?? "", text: query.text })
  return originalParse.call(this, query)
}
afterAll(() => {
  connectionProto.parse = originalParse
})

/** How often each (connection, name) pair was parsed, for our names. */
const parsesPerConnectionAndName = (records: ReadonlyArray<ParseRecord>) => {
  const counts = new Map<object, Map<string, number>>()
  for (const r of records) {
    if (!r.name.startsWith(STATEMENT_NAME_PREFIX)) continue
    const perConnection = counts.get(r.connection) ?? new Map<string, number>()
    perConnection.set(r.name, (perConnection.get(r.name) ?? 0) + 1)
    counts.set(r.connection, perConnection)
  }
  return [...counts.values()].flatMap((m) => [...m.values()])
}

// ---- the hot paths, through the service ---------------------------------------------------------

interface Seed {
  readonly key: string
  readonly bundleId: string
  readonly fileId: string
}

const seed = (sub: string) =>
  Effect.gen(function*() {
    const token = yield* call((app) => app.token(sub))
    const key = yield* call((app) => app.apiKey(sub, allScopes, "prepared statements"))
    const { bundleId, files } = yield* bundleWith(token, [
      { path: "SKILL.md", content: "---\nname: prepared\ndescription: Prepared statements.\n---\n\n# Prepared\n" },
      { path: "reference/notes.md", content: "# Notes\n\nShort.\n" }
    ], "prepared")
    const fileId: string = files.find((f) => f.file.path === "SKILL.md")!.file.id
    for (let i = 2; i <= 3; i++) {
      const put = yield* call((app) =>
        app.request("PUT", `/artifact-bundles/${bundleId}/files/${fileId}`, { token, body: { content: `# Prepared ${i}\n` } })
      )
      expect(put.status).toBe(200)
    }
    return { key, bundleId, fileId } satisfies Seed
  })

/** API-key authentication, a bundle-scoped file read, the file list, the version lists, the ledger. */
const hotPaths = (s: Seed) => [
  `/artifact-bundles/${s.bundleId}/files/${s.fileId}`,
  `/artifact-bundles/${s.bundleId}/files`,
  `/artifact-bundles/${s.bundleId}/files/${s.fileId}/versions?limit=10`,
  `/artifact-bundles/${s.bundleId}/versions`,
  `/artifact-bundles/${s.bundleId}`,
  `/credits`,
  `/me`
]

/** The `data` of every hot path's answer (all must be 200). */
const readHotPaths = (app: TestAppShape, s: Seed) =>
  Effect.promise(async () => {
    const answers: Record<string, unknown> = {}
    for (const path of hotPaths(s)) {
      const reply = await app.requestAs<{ readonly data: unknown }>("GET", path, { token: s.key })
      if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.text}`)
      answers[path] = reply.body.data
    }
    return answers
  })

interface Prepared {
  readonly name: string
  readonly statement: string
  readonly executions: number
}

/** pg_prepared_statements of one connection (read by the simple protocol: not itself prepared). */
const preparedOn = async (client: pg.ClientBase): Promise<ReadonlyArray<Prepared>> =>
  (await client.query<Prepared>(
    "SELECT name, statement, (generic_plans + custom_plans)::int AS executions FROM pg_prepared_statements ORDER BY name"
  )).rows

/** With SERVICE_DB_POOL_SIZE=1 this is the one connection every statement of the app runs on. */
const onTheConnection = <A>(f: (client: pg.PoolClient) => Promise<A>) =>
  Effect.flatMap(PgPool, (pool) =>
    Effect.promise(async () => {
      const client = await pool.connect()
      try {
        return await f(client)
      } finally {
        client.release()
      }
    }))

/** Values that vary between two runs of the same statement, masked before comparing rows. */
const VOLATILE = new Set(["reset_seconds", "rate_reset_seconds", "resetSeconds"])
const stable = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, v) => (VOLATILE.has(key) ? "<volatile>" : v)))

const isAuthStatement = (text: string) => text.includes("FROM api_keys WHERE key_hash") && text.includes("rate_limit_counters")

// ---- switch on --------------------------------------------------------------------------------

layer(makeTestApp({ env: { SERVICE_DB_POOL_SIZE: "1" } }))("prepared statements: on (the default), one pooled connection", (it) => {
  it.effect("the hot paths run as named statements, each text parsed once on the connection however often it runs", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const s = yield* seed("prepared-on")
      yield* readHotPaths(app, s)
      const before = yield* onTheConnection(preparedOn)
      const parsedBefore = parses.length
      const auth = before.find((p) => isAuthStatement(p.statement))
      expect(auth, "the API-key authentication statement is prepared").toBeDefined()
      expect(auth!.name).toBe(statementName(auth!.statement))
      expect(before.every((p) => p.name.startsWith(STATEMENT_NAME_PREFIX))).toBe(true)

      const rounds = 5
      for (let i = 0; i < rounds; i++) yield* readHotPaths(app, s)
      const after = yield* onTheConnection(preparedOn)

      // the prepared set did not grow, and nothing was parsed again: same texts, same statements
      expect(after.map((p) => p.name)).toEqual(before.map((p) => p.name))
      expect(parses.slice(parsedBefore).map((p) => p.name || p.text)).toEqual([])
      // ...yet executed again: the authentication statement once per request
      const authAfter = after.find((p) => p.name === auth!.name)!
      expect(authAfter.executions - auth!.executions).toBe(rounds * hotPaths(s).length)
      // over the whole file so far, no connection parsed any of our names twice
      expect(parsesPerConnectionAndName(parses).every((n) => n === 1)).toBe(true)
      const state = yield* onTheConnection(async (client) => preparedStatementsOf(client))
      expect(state?.naming).toBe(true)
      expect([...state!.names].sort()).toEqual(after.map((p) => p.name).sort())
    }))

  it.effect("a named statement and the unnamed one give the same rows (the hot paths' own statements, replayed)", () =>
    Effect.gen(function*() {
      const app = yield* TestApp
      const s = yield* seed("prepared-rows")
      // record the parameterized statements the hot paths send
      const recorded = yield* onTheConnection(async (client) => {
        const seen = new Map<string, ReadonlyArray<unknown>>()
        const own = client.query
        ;(client as any).query = function(this: pg.PoolClient, text: unknown, values?: unknown, cb?: unknown) {
          if (typeof text === "string" && Array.isArray(values) && values.length > 0 && !seen.has(text)) seen.set(text, values)
          return (own as any).call(this, text, values, cb)
        }
        return { seen, restore: () => delete (client as any).query }
      })
      yield* readHotPaths(app, s)
      recorded.restore()
      expect(recorded.seen.size).toBeGreaterThanOrEqual(5)
      expect([...recorded.seen.keys()].some(isAuthStatement)).toBe(true)

      const compared = yield* onTheConnection(async (client) => {
        const unnamed = (text: string, values: ReadonlyArray<unknown>) =>
          (pg.Client.prototype.query as any).call(client, text, values) as Promise<pg.QueryResult>
        const results: Array<string> = []
        for (const [text, values] of recorded.seen) {
          // inside a transaction rolled back each time, so writes (rate-limit counters) start from the same state
          await client.query("BEGIN")
          const a = await client.query(text, values as Array<unknown>)
          await client.query("ROLLBACK")
          await client.query("BEGIN")
          const b = await unnamed(text, values)
          await client.query("ROLLBACK")
          expect(preparedStatementsOf(client)!.names).toContain(statementName(text))
          expect(stable(a.rows)).toEqual(stable(b.rows))
          expect(a.fields.map((f) => [f.name, f.dataTypeID])).toEqual(b.fields.map((f) => [f.name, f.dataTypeID]))
          expect(a.rowCount).toBe(b.rowCount)
          results.push(text)
        }
        return results
      })
      expect(compared.length).toBe(recorded.seen.size)
    }))

  it.effect("every type the service reads comes back the same named and unnamed", () =>
    onTheConnection(async (client) => {
      const text = `SELECT $1::uuid AS id, $2::timestamptz AS at, $3::jsonb AS doc, $4::text[] AS tags, $5::numeric AS amount,
                            $6::bytea AS hash, $7::int8 AS big, $8::int AS n, $9::boolean AS flag, $10::text AS nothing,
                            $2::timestamptz + interval '1 day' AS later, array_append($4::text[], 'x') AS more`
      const values = [
        "0b9b6c1e-3f7a-4c55-9a59-2f1f8e9f8d11",
        new Date("2026-01-02T03:04:05.678Z"),
        JSON.stringify({ a: [1, "two", null], b: { c: true } }),
        ["x", "y,z", "\"q\""],
        "12.50",
        Buffer.from([0, 1, 2, 255]),
        9007199254740991,
        -7,
        true,
        null
      ]
      const named = await client.query(text, values)
      const again = await client.query(text, values)
      const unnamed = await (pg.Client.prototype.query as any).call(client, text, values)
      expect(preparedStatementsOf(client)!.names).toContain(statementName(text))
      expect(named.rows).toEqual(unnamed.rows)
      expect(again.rows).toEqual(unnamed.rows)
      expect(named.rows[0].big).toBe(9007199254740991)
      expect(named.rows[0].hash).toEqual(Buffer.from([0, 1, 2, 255]))
    }))

  it.effect("statements without parameters, multi-statement texts and LISTEN/NOTIFY are left unnamed", () =>
    onTheConnection(async (client) => {
      const before = parses.length
      await client.query("BEGIN; SET LOCAL statement_timeout = '5s'; COMMIT")
      await client.query("SELECT 1 AS one")
      await client.query("LISTEN rubr_prepared_test")
      await client.query("NOTIFY rubr_prepared_test, 'x'")
      await client.query("SELECT pg_notify($1, $2)", ["rubr_prepared_test", "y"])
      await client.query("UNLISTEN rubr_prepared_test")
      const names = parses.slice(before).map((p) => p.name)
      // only the parameterized pg_notify went through Parse, named
      expect(names).toEqual([statementName("SELECT pg_notify($1, $2)")])
      // a config object that carries its own name (graphile-worker's) is kept as it is
      await client.query({ name: "rubr_test_own_name", text: "SELECT $1::int AS n", values: [3] })
      const prepared = await preparedOn(client)
      expect(prepared.map((p) => p.name)).toContain("rubr_test_own_name")
      await client.query("DEALLOCATE rubr_test_own_name")
      delete (client as any).connection.parsedStatements["rubr_test_own_name"]
    }))

  it.effect("the same answers with the switch on and off, on the same database", () =>
    Effect.gen(function*() {
      const on = yield* TestApp
      const s = yield* seed("prepared-same")
      const answersOn = yield* readHotPaths(on, s)
      const preparedOnApp = yield* onTheConnection(preparedOn)
      expect(preparedOnApp.length).toBeGreaterThan(0)

      const off = yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(
          makeTestApp({ env: { DATABASE_URL: on.databaseUrl, SERVICE_DB_POOL_SIZE: "1", SERVICE_DB_PREPARED_STATEMENTS: "false" } })
        )
        const offApp = Context.get(context, TestApp)
        const pool = Context.get(context, PgPool)
        const answers = yield* readHotPaths(offApp, s)
        const client = yield* Effect.promise(() => pool.connect())
        const prepared = yield* Effect.promise(() => preparedOn(client))
        const state = preparedStatementsOf(client)
        client.release()
        return { answers, prepared, state }
      }))
      expect(off.prepared).toEqual([])
      expect(off.state).toBeUndefined()
      expect(Object.keys(off.answers)).toEqual(hotPaths(s))
      expect(off.answers).toEqual(answersOn)
    }))
})

// ---- recovery and the cap, on a pool of our own ------------------------------------------------

layer(makeTestApp())("prepared statements: recovery and the per-connection cap", (it) => {
  const withClient = <A>(f: (client: pg.PoolClient) => Promise<A>) =>
    Effect.flatMap(TestApp, (app) =>
      Effect.promise(async () => {
        const pool = new pg.Pool({ connectionString: app.databaseUrl, max: 1, Client: preparedStatementsClient(true) as any })
        const client = await pool.connect()
        try {
          return await f(client)
        } finally {
          client.release()
          await pool.end()
        }
      }))

  it.effect(`a connection names at most ${MAX_NAMES_PER_CONNECTION} texts; the rest run unnamed and still answer`, () =>
    withClient(async (client) => {
      const texts = Array.from({ length: MAX_NAMES_PER_CONNECTION + 44 }, (_, i) => `SELECT $1::int + ${i} AS n`)
      for (const [i, text] of texts.entries()) expect((await client.query(text, [1])).rows).toEqual([{ n: 1 + i }])
      const ours = (await preparedOn(client)).filter((p) => p.name.startsWith(STATEMENT_NAME_PREFIX))
      expect(ours.length).toBe(MAX_NAMES_PER_CONNECTION)
      expect(new Set(ours.map((p) => p.statement))).toEqual(new Set(texts.slice(0, MAX_NAMES_PER_CONNECTION)))
      // again: the named ones are re-used, the others stay unnamed; the set does not grow
      for (const [i, text] of texts.entries()) expect((await client.query(text, [2])).rows).toEqual([{ n: 2 + i }])
      const again = (await preparedOn(client)).filter((p) => p.name.startsWith(STATEMENT_NAME_PREFIX))
      expect(again.map((p) => p.name)).toEqual(ours.map((p) => p.name))
      expect(again.every((p) => p.executions === 2)).toBe(true)
      expect(preparedStatementsOf(client)!.names.length).toBe(MAX_NAMES_PER_CONNECTION)
    }))

  it.effect("a statement PostgreSQL forgot (DEALLOCATE ALL, a pooler's other backend) is re-sent unnamed; the connection stops naming", () =>
    withClient(async (client) => {
      const text = "SELECT $1::int * 2 AS n"
      expect((await client.query(text, [2])).rows).toEqual([{ n: 4 }])
      await client.query("DEALLOCATE ALL")
      // outside a transaction: answered as if nothing happened
      expect((await client.query(text, [3])).rows).toEqual([{ n: 6 }])
      expect(preparedStatementsOf(client)!.naming).toBe(false)
      expect((await client.query("SELECT $1::int * 5 AS n", [3])).rows).toEqual([{ n: 15 }])
      expect(await preparedOn(client)).toEqual([])
    }))

  it.effect("a name the backend already has (a transaction-mode pooler sharing a backend) is re-sent unnamed", () =>
    withClient(async (client) => {
      const text = "SELECT $1::int * 7 AS n"
      // prepared behind node-postgres' back, as another client of the same backend would have
      await client.query(`PREPARE ${statementName(text)} AS ${text}`)
      expect((await client.query(text, [2])).rows).toEqual([{ n: 14 }])
      expect(preparedStatementsOf(client)!.naming).toBe(false)
      expect((await client.query(text, [3])).rows).toEqual([{ n: 21 }])
    }))

  it.effect("inside a transaction the error surfaces (the transaction cannot re-run it), and the next one works", () =>
    withClient(async (client) => {
      const text = "SELECT $1::int * 3 AS n"
      await client.query(text, [1])
      await client.query("BEGIN")
      await client.query("DEALLOCATE ALL")
      const error = await client.query(text, [2]).then(() => undefined, (e) => e)
      expect(error?.code).toBe("26000")
      await client.query("ROLLBACK")
      expect((await client.query(text, [2])).rows).toEqual([{ n: 6 }])
    }))

  it.effect("a schema change that alters a prepared text's result (SELECT * after ADD COLUMN) is answered unnamed", () =>
    withClient(async (client) => {
      const table = `prepared_${crypto.randomUUID().replace(/-/g, "").slice(0, 8)}`
      await client.query(`CREATE TABLE ${table} (id int PRIMARY KEY, a text)`)
      await client.query(`INSERT INTO ${table} VALUES (1, 'one')`)
      const text = `SELECT * FROM ${table} WHERE id = $1`
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1, a: "one" }])
      await client.query(`ALTER TABLE ${table} ADD COLUMN b int NOT NULL DEFAULT 7`)
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1, a: "one", b: 7 }])
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1, a: "one", b: 7 }])
      // only that text went unnamed; the connection still names others
      expect(preparedStatementsOf(client)!.naming).toBe(true)
      await client.query(`DROP TABLE ${table}`)
    }))
})

// ---- switch off -------------------------------------------------------------------------------

layer(makeTestApp({ role: "all", env: { SERVICE_DB_PREPARED_STATEMENTS: "false" } }))(
  "prepared statements: off (SERVICE_DB_PREPARED_STATEMENTS=false)",
  (it) => {
    it.effect("nothing is named, not even graphile-worker's own statements, and everything works (an audit end to end)", () =>
      Effect.gen(function*() {
        const app = yield* TestApp
        const before = parses.length
        const s = yield* seed("prepared-off")
        yield* readHotPaths(app, s)
        const token = yield* call((a) => a.token("prepared-off"))
        const started = yield* call((a) => a.request("POST", `/artifact-bundles/${s.bundleId}/audits`, { token, body: {} }))
        expect(started.status).toBe(202)
        let state = ""
        for (let i = 0; i < 400 && !["completed", "failed"].includes(state); i++) {
          const job = yield* call((a) => a.request("GET", `/jobs/${started.body.data.jobId}`, { token }))
          state = job.body.data.job.state
          if (state !== "completed") yield* Effect.promise(() => new Promise((r) => setTimeout(r, 50)))
        }
        expect(state).toBe("completed")
        const named = parses.slice(before).filter((p) => p.name !== "").map((p) => p.name)
        expect(named).toEqual([])
        // a checked-out connection: no statement prepared, a named config object runs unnamed
        const prepared = yield* onTheConnection(async (client) => {
          await client.query({ name: "worker_style", text: "SELECT $1::int AS n", values: [1] })
          await client.query("SELECT $1::int AS n", [1])
          return { rows: await preparedOn(client), state: preparedStatementsOf(client) }
        })
        expect(prepared.rows).toEqual([])
        expect(prepared.state).toBeUndefined()
      }))
  }
)

// ---- the variable ---------------------------------------------------------------------------------

describe("SERVICE_DB_PREPARED_STATEMENTS", () => {
  const load = (env: Record<string, string>) =>
    Effect.runPromiseExit(
      Effect.provide(
        AppConfig,
        AppConfig.layer.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
      )
    )

  vit("defaults to true, takes true/false, and a wrong value stops the start naming the variable", async () => {
    const byDefault = await load({})
    expect(byDefault._tag === "Success" && byDefault.value.database.preparedStatements).toBe(true)
    const off = await load({ SERVICE_DB_PREPARED_STATEMENTS: "false" })
    expect(off._tag === "Success" && off.value.database.preparedStatements).toBe(false)
    const on = await load({ SERVICE_DB_PREPARED_STATEMENTS: "true" })
    expect(on._tag === "Success" && on.value.database.preparedStatements).toBe(true)
    const wrong = await load({ SERVICE_DB_PREPARED_STATEMENTS: "maybe" })
    expect(wrong._tag).toBe("Failure")
    expect(String(wrong._tag === "Failure" ? wrong.cause : "")).toContain("SERVICE_DB_PREPARED_STATEMENTS")
  })
})
