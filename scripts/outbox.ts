/**
 * npm run outbox [-- --limit 10 --to someone@example.com --no-links]
 * Prints the most recent outbox emails, newest first, with a working one-click unsubscribe link for
 * each optional-category email (minted now: the outbox stores only token hashes, never links).
 *
 * Database: DATABASE_URL when set; otherwise the embedded PostgreSQL of SERVICE_DATA_DIR (./.data),
 * the one a running `npm start` holds, or started just for this command when none is running.
 */
import { Effect, ConfigProvider, Layer } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { parseArgs } from "node:util"
import { AppConfig } from "../src/config/AppConfig.js"
import { DatabaseLive } from "../src/db/Database.js"
import { PASSWORD } from "../src/db/EmbeddedPostgres.js"
import { formatShown, showOutbox } from "../src/email/DevOutbox.js"
import { Outbox } from "../src/email/Outbox.js"
import { UnsubscribeTokens } from "../src/email/UnsubscribeTokens.js"
import { normalizeEmail } from "../src/email/Address.js"

const { values } = parseArgs({
  options: {
    limit: { type: "string", default: "10" },
    to: { type: "string" },
    "no-links": { type: "boolean", default: false }
  }
})

/** The running embedded server's port, from the postmaster.pid PostgreSQL writes in its data dir. */
const runningEmbeddedUrl = (): string | undefined => {
  const pidFile = Path.join(Path.resolve(process.env.SERVICE_DATA_DIR ?? "./.data"), "pg", "postmaster.pid")
  try {
    const [pid, , , port] = Fs.readFileSync(pidFile, "utf8").split("\n")
    process.kill(Number(pid), 0)
    return `postgres://postgres:${PASSWORD}@127.0.0.1:${Number(port)}/postgres`
  } catch {
    return undefined
  }
}

const env = new Map(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined))
if (!env.has("DATABASE_URL")) {
  const url = runningEmbeddedUrl()
  if (url !== undefined) env.set("DATABASE_URL", url)
}
env.set("SERVICE_LOG_LEVEL", env.get("SERVICE_LOG_LEVEL") ?? "WARN")

const limit = Number(values.limit)
if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
  process.stderr.write("--limit must be an integer between 1 and 1000\n")
  process.exit(2)
}

const program = showOutbox({
  limit,
  links: !values["no-links"],
  ...(values.to ? { recipient: normalizeEmail(values.to) } : {})
}).pipe(
  Effect.map((shown) => {
    if (shown.length === 0) process.stdout.write("The outbox is empty.\n")
    for (const email of shown) process.stdout.write(formatShown(email) + "\n")
  }),
  Effect.provide(Outbox.Default.pipe(Layer.provideMerge(UnsubscribeTokens.Default))),
  Effect.provide(DatabaseLive),
  Effect.provide(AppConfig.layer),
  Effect.provide(Layer.setConfigProvider(ConfigProvider.fromMap(env))),
  Effect.scoped
)

Effect.runPromise(program).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`outbox: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
)
