/**
 * Named prepared statements for every parameterized statement the service sends, in one place: the
 * `pg` client class of the shared pool (src/db/Database.ts). @effect/sql-pg, the hot-path `makeRows`
 * (src/db/Query.ts) and graphile-worker all end in `client.query(...)` on a pooled client, so every
 * statement benefits without a change at its call site.
 *
 * - `query(text, values)` with a non-empty `values` array becomes `{ name, text, values }`, the name
 *   being `rubr_` + a hash of the text. node-postgres remembers per connection which names it has
 *   parsed and sends only Bind/Execute after the first time, so PostgreSQL parses and analyses each
 *   text once per connection instead of on every execution (docs/decisions.md, "Prepared statements").
 *   A config object `{ text, values }` without a name (@effect/sql-pg's `.values`) is named the same way.
 * - Everything else passes through untouched: texts without parameters (BEGIN/COMMIT/SET, LISTEN,
 *   migrations' DDL and multi-statement scripts go by the simple protocol, which cannot prepare),
 *   config objects that carry a name already (graphile-worker's own prepared statements) and
 *   submittables (pg-cursor).
 * - Bounded: a connection names at most `MAX_NAMES_PER_CONNECTION` texts; further texts (a dynamic
 *   statement whose text varies, e.g. an expanded IN list) go unnamed, as before.
 * - Self-healing: if PostgreSQL no longer knows a name (26000: a pooler moved us to another backend,
 *   or someone ran DEALLOCATE/DISCARD ALL) or already knows it (42P05: a pooler shares one backend
 *   between several of our connections) the connection stops naming; if a schema change altered the
 *   result of a prepared text (0A000 "cached plan must not change result type", e.g. `SELECT *` after
 *   ADD COLUMN during a rolling migration) that text goes unnamed on that connection. Either way the
 *   statement is re-sent unnamed at once when it ran outside a transaction (it failed before executing,
 *   so nothing ran twice); inside a transaction the error surfaces as any failure would.
 *
 * With the switch off (`SERVICE_DB_PREPARED_STATEMENTS=false`) nothing is named at all: the client also
 * drops the names of config objects, so graphile-worker's statements go unnamed too, which is what a
 * transaction-mode pooler without prepared-statement support needs (docs/deploy.md).
 */
import * as Crypto from "node:crypto"
import pg from "pg"

/** How many texts one connection prepares at most; the rest go unnamed. */
export const MAX_NAMES_PER_CONNECTION = 256

export const STATEMENT_NAME_PREFIX = "rubr_"

/** Process-wide text → name, so the hash of a text is computed once (bounded: dynamic texts could be endless). */
const nameCache = new Map<string, string>()
const NAME_CACHE_LIMIT = 4096

/** `rubr_` + 96 bits of SHA-256 of the text: the same text has the same name on every connection. */
export const statementName = (text: string): string => {
  let name = nameCache.get(text)
  if (name === undefined) {
    name = STATEMENT_NAME_PREFIX + Crypto.createHash("sha256").update(text).digest("hex").slice(0, 24)
    if (nameCache.size < NAME_CACHE_LIMIT) nameCache.set(text, name)
  }
  return name
}

type Callback = (error: Error | null, result?: unknown) => void

interface QueryConfigLike {
  readonly text?: unknown
  readonly values?: unknown
  readonly name?: unknown
  readonly submit?: unknown
}

const isPlainConfig = (config: unknown): config is QueryConfigLike =>
  typeof config === "object" && config !== null && typeof (config as QueryConfigLike).submit !== "function"

/** An error after which the name must not be used again on this connection; `connection`: for every name. */
const staleness = (error: unknown): "connection" | "text" | undefined => {
  const e = error as { code?: unknown; message?: unknown } | null
  // 26000: the name is unknown (DEALLOCATE/DISCARD ALL, or a pooler sent us to another backend);
  // 42P05: the backend has the name already (a transaction-mode pooler shares backends between clients)
  if (e?.code === "26000" || e?.code === "42P05") return "connection"
  if (e?.code === "0A000" && typeof e.message === "string" && e.message.includes("cached plan must not change result type")) {
    return "text"
  }
  return undefined
}

/** Statistics of one client, for tests and diagnostics. */
export interface PreparedStatementsState {
  /** names this connection has sent (parsed once each), in order */
  readonly names: ReadonlyArray<string>
  /** false once the backend lost this connection's statements or had one of its names already (26000, 42P05) */
  readonly naming: boolean
}

/** pg.Client's `query`, loosely typed (its overloads cannot be overridden one by one). */
declare class QueryMethod {
  query(config: unknown, values?: unknown, callback?: unknown): any
}

const stateKey: unique symbol = Symbol("rubr.preparedStatements")

interface ClientState {
  /** name → text of what this connection has named */
  readonly named: Map<string, string>
  /** names not to use again on this connection (their prepared statement went stale) */
  stale: Set<string> | undefined
  naming: boolean
}

/** What a pooled client has prepared (undefined for a client of another class). */
export const preparedStatementsOf = (client: pg.ClientBase): PreparedStatementsState | undefined => {
  const state = (client as unknown as { [stateKey]?: ClientState })[stateKey]
  return state && { names: [...state.named.keys()], naming: state.naming }
}

/**
 * The `pg` client class of the pool: naming parameterized statements (`enabled`) or naming nothing,
 * not even statements that arrive with a name.
 */
export const preparedStatementsClient = (enabled: boolean): typeof pg.Client => {
  const base = pg.Client as unknown as new(config?: unknown) => QueryMethod

  if (!enabled) {
    class UnnamedClient extends base {
      override query(config: unknown, values?: unknown, callback?: unknown) {
        if (isPlainConfig(config) && config.name !== undefined) {
          return super.query({ ...config, name: undefined }, values, callback)
        }
        return super.query(config, values, callback)
      }
    }
    return UnnamedClient as unknown as typeof pg.Client
  }

  class PreparingClient extends base {
    readonly [stateKey]: ClientState = { named: new Map(), stale: undefined, naming: true }

    /** The name to send `text` under on this connection, or undefined to send it unnamed. */
    #nameFor(text: string): string | undefined {
      const state = this[stateKey]
      if (!state.naming) return undefined
      const name = statementName(text)
      const known = state.named.get(name)
      if (known !== undefined) return known === text && state.stale?.has(name) !== true ? name : undefined
      if (state.named.size >= MAX_NAMES_PER_CONNECTION) return undefined
      state.named.set(name, text)
      return name
    }

    override query(config: unknown, values?: unknown, callback?: unknown) {
      if (typeof config === "string") {
        if (Array.isArray(values) && values.length > 0) {
          const name = this.#nameFor(config)
          if (name !== undefined) return this.#named({ name, text: config, values }, callback as Callback | undefined)
        }
      } else if (
        isPlainConfig(config) && config.name === undefined && typeof config.text === "string" &&
        Array.isArray(config.values) && config.values.length > 0 && !Array.isArray(values)
      ) {
        const name = this.#nameFor(config.text)
        if (name !== undefined) {
          return this.#named({ ...config, text: config.text, name }, (typeof values === "function" ? values : callback) as Callback | undefined)
        }
      }
      return super.query(config, values, callback)
    }

    /** Runs a named statement; on a stale name, forgets it and re-sends unnamed when outside a transaction. */
    #named(config: { readonly name: string; readonly text: string; readonly values?: unknown }, callback: Callback | undefined): unknown {
      if (callback === undefined) {
        return new Promise((resolve, reject) =>
          this.#named(config, (error, result) => (error ? reject(error) : resolve(result)))
        )
      }
      super.query(config, (error: Error | null, result: unknown) => {
        const stale = error ? staleness(error) : undefined
        if (stale === undefined) return callback(error, result)
        const state = this[stateKey]
        if (stale === "connection") state.naming = false
        else (state.stale ??= new Set()).add(config.name)
        // The last ReadyForQuery before this statement: "I" means it ran in its own implicit transaction,
        // which its failure (before executing anything) rolled back; inside a transaction it cannot be re-run.
        if ((this as unknown as { _txStatus?: string })._txStatus !== "I") return callback(error, result)
        const { name: _name, ...unnamed } = config
        super.query(unnamed, callback)
      })
      return undefined
    }
  }
  return PreparingClient as unknown as typeof pg.Client
}
