/**
 * The one PostgreSQL database: a shared `pg` pool (used by @effect/sql and graphile-worker alike) whose
 * connections prepare the statements they run (src/db/PreparedStatements.ts), the SqlClient over it,
 * and the migrations of sql/ applied at start.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Context, Effect, Layer, Option, Redacted, String as Str } from "effect"
import { runMigrations as runWorkerMigrations } from "graphile-worker"
import pg from "pg"
import { AppConfig } from "../config/AppConfig.js"
import { startEmbedded } from "./EmbeddedPostgres.js"
import { migrate } from "./Migrations.js"
import { atMost } from "../domain/Bounded.js"
import { StartupFailure } from "../process/StartupFailure.js"
import { databaseTarget, describeDatabaseError } from "./Availability.js"
import { waitForDatabase } from "./StartupWait.js"
import { preparedStatementsClient } from "./PreparedStatements.js"
import { columnToField } from "./Query.js"

/** The connection string of the database this process uses. */
export class DatabaseUrl extends Context.Tag("rubr/DatabaseUrl")<DatabaseUrl, Redacted.Redacted<string>>() {}

export const DatabaseUrlLive = Layer.scoped(
  DatabaseUrl,
  Effect.gen(function*() {
    const config = yield* AppConfig
    if (Option.isSome(config.database.url)) return config.database.url.value
    const server = yield* startEmbedded({
      dataDir: config.database.dataDir,
      port: Option.getOrUndefined(config.database.embeddedPort),
      supervised: true
    })
    yield* Effect.logInfo("embedded PostgreSQL started").pipe(Effect.annotateLogs({ port: server.port }))
    return Redacted.make(server.url)
  })
)

/** int8 counts and numeric amounts arrive as JS numbers; our values stay far below 2^53. */
const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value)
    return (pg.types.getTypeParser as any)(oid, format)
  }) as any
}

/** A new connection's handshake gets this long: a server that vanished (a failover) is not waited on for minutes. */
const CONNECT_TIMEOUT_MS = 10_000

const withConnectTimeout = (Client: typeof pg.Client, ms: number): typeof pg.Client =>
  class extends Client {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === "string" ? { connectionString: config } : config), connectionTimeoutMillis: ms })
    }
  }

export class PgPool extends Context.Tag("rubr/PgPool")<PgPool, pg.Pool>() {}

export const PgPoolLive = Layer.scoped(
  PgPool,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const url = yield* DatabaseUrl
    return yield* Effect.acquireRelease(
      Effect.sync(() => {
        const pool = new pg.Pool({
          connectionString: Redacted.value(url),
          max: config.database.poolSize,
          types: typeParsers,
          application_name: `rubr-${config.role}`,
          // every pooled connection prepares the parameterized statements it runs, or none with the switch off
          Client: withConnectTimeout(preparedStatementsClient(config.database.preparedStatements), Math.min(CONNECT_TIMEOUT_MS, config.database.acquireTimeoutMs)),
          // no statement waits longer than this for a connection (in the queue of a busy pool, then
          // connecting): a request answers 503 instead of hanging. A refused connection fails at once.
          connectionTimeoutMillis: config.database.acquireTimeoutMs,
          // a server that vanished without closing its sockets (a failover) is noticed, not waited on forever
          keepAlive: true,
          keepAliveInitialDelayMillis: 10_000
        })
        // An idle client's error surfaces on its next checkout; graphile-worker wants both handlers set.
        pool.on("error", () => undefined)
        pool.on("connect", (client) => client.on("error", () => undefined))
        return pool
      }),
      (pool) => Effect.promise(() => pool.end()).pipe(atMost("2 seconds"))
    )
  })
)

export const SqlLive = Layer.unwrapEffect(
  Effect.map(PgPool, (pool) =>
    PgClient.layerFromPool({
      acquire: Effect.succeed(pool),
      types: typeParsers,
      transformQueryNames: Str.camelToSnake,
      transformResultNames: columnToField
    }))
)

/**
 * Waits for the database (src/db/StartupWait.ts), then applies our migrations and graphile-worker's own
 * schema, before anything queues a job.
 */
export const MigrationsLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const pool = yield* PgPool
    const config = yield* AppConfig
    const target = databaseTarget(Redacted.value(yield* DatabaseUrl))
    yield* waitForDatabase(pool, target, config.database.connectTimeoutS)
    const failed = (error: unknown) =>
      new StartupFailure({
        problem: `the migrations could not be applied to the database at ${target}: ${describeDatabaseError(error)}`,
        fix: "Check the database's log; nothing was half-applied (they run in one transaction) and the next start tries again."
      })
    const applied = yield* migrate(pool).pipe(Effect.mapError(failed))
    yield* Effect.tryPromise({ try: () => runWorkerMigrations({ pgPool: pool, logger: undefined as any }), catch: failed })
    if (applied.length > 0) yield* Effect.logInfo("migrations applied").pipe(Effect.annotateLogs({ applied }))
  }).pipe(Effect.withSpan("Database.migrate"))
)

/** DatabaseUrl -> pool -> migrated schema -> SqlClient. */
export const DatabaseLive = Layer.mergeAll(SqlLive, MigrationsLive).pipe(
  Layer.provideMerge(PgPoolLive),
  Layer.provideMerge(DatabaseUrlLive)
)

/** node-postgres binds a JS array as a PostgreSQL array; @effect/sql passes it through as one parameter. */
export const pgArray = <A>(values: ReadonlyArray<A>): string => values as unknown as string
