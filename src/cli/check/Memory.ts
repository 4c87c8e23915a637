/**
 * What `rubr check` remembers between runs on this machine, so that an artifact nobody changed costs
 * one request (its estimate) instead of three (list the bundle's files, estimate, read the audit),
 * and none when the bundle listing shows its bundle as it was (Quote.ts `prepareAll`).
 *
 * Nothing here is trusted on its own word. Per bundle it keeps the local files' hashes as last synced
 * and the `inputHash` the service's estimate named for them (a hash of the exact file versions the
 * bundle held). A later run whose local files are the same asks for the estimate first: when the
 * service answers the same `inputHash`, the bundle holds the very versions it held then, so the sync
 * would change nothing and is skipped; any other answer (someone uploaded, a file was deleted) falls
 * back to the full sync. The audit kept beside it is a completed run, which never changes, and it is
 * used only when the estimate names that run as the identical audit to reuse.
 *
 * Where: `RUBR_CACHE_DIR`, else `$XDG_CACHE_HOME/rubr`, else `~/.cache/rubr`; one file per bundle
 * under a folder per service URL, written whole (temp file, then rename), readable by the owner only.
 * A file that does not parse is ignored. `rubr check --no-cache` neither reads nor writes it, and
 * deleting the folder is always safe.
 */
import { Schema } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

const Remembered = Schema.Struct({
  version: Schema.Literal(1),
  /** the estimate's target.inputHash once the bundle matched the local files */
  inputHash: Schema.String,
  /** local path → content hash, as synced */
  files: Schema.Record({ key: Schema.String, value: Schema.String }),
  /** the bundle held no file beyond these (so `--prune` would delete nothing) */
  exact: Schema.Boolean,
  /**
   * The bundle as the service held it when `inputHash` was read: its last version event, its file
   * count and its settings and custom rubric (JSON). Every upload, edit or restore adds a version
   * event and a delete lowers the count, so a bundle listing that shows the same proves the inputs
   * unchanged without asking for the estimate (Quote.ts).
   */
  state: Schema.optional(Schema.Struct({ version: Schema.Int, fileCount: Schema.Int, settings: Schema.String })),
  /** the estimate's request body (JSON) that `inputHash` and the audit answered */
  body: Schema.optional(Schema.String),
  /** the completed audit of these inputs, as the service encoded it */
  audit: Schema.optional(Schema.Struct({ id: Schema.String, encoded: Schema.Unknown }))
})
export type Remembered = typeof Remembered.Type

export interface Memory {
  readonly recall: (bundleId: string) => Remembered | undefined
  readonly keep: (bundleId: string, entry: Remembered) => void
}

export const noMemory: Memory = { recall: () => undefined, keep: () => undefined }

export const cacheDir = (env: NodeJS.ProcessEnv = process.env) =>
  env.RUBR_CACHE_DIR || Path.join(env.XDG_CACHE_HOME || Path.join(Os.homedir(), ".cache"), "rubr")

const decode = Schema.decodeUnknownOption(Schema.parseJson(Remembered))

/** The memory of one service (by base URL): bundle ids are the service's own. */
export const openMemory = (baseUrl: string, dir: string = cacheDir()): Memory => {
  // one read per bundle and run: the quote and the audit read the same entry
  const read = new Map<string, Remembered | undefined>()
  const folder = Path.join(dir, "check-v1", Crypto.createHash("sha256").update(baseUrl).digest("hex").slice(0, 16))
  const fileOf = (bundleId: string) => Path.join(folder, `${bundleId.replace(/[^0-9A-Za-z-]/g, "_")}.json`)
  return {
    recall: (bundleId) => {
      if (read.has(bundleId)) return read.get(bundleId)
      let entry: Remembered | undefined
      try {
        const parsed = decode(Fs.readFileSync(fileOf(bundleId), "utf8"))
        entry = parsed._tag === "Some" ? parsed.value : undefined
      } catch {
        entry = undefined
      }
      read.set(bundleId, entry)
      return entry
    },
    keep: (bundleId, entry) => {
      read.set(bundleId, entry)
      // a cache that cannot be written (read-only home, full disk) costs speed, never the run
      try {
        Fs.mkdirSync(folder, { recursive: true, mode: 0o700 })
        const temp = `${fileOf(bundleId)}.${process.pid}.${Crypto.randomUUID()}.tmp`
        Fs.writeFileSync(temp, JSON.stringify(entry), { mode: 0o600 })
        Fs.renameSync(temp, fileOf(bundleId))
      } catch {
        // left as it was
      }
    }
  }
}

/** The rubric (`key@version`) of the completed audit an entry keeps, as the service encoded it. */
export const rubricOf = (entry: Remembered): string | undefined => {
  const encoded = entry.audit?.encoded as { rubricKey?: unknown; rubricVersion?: unknown } | null | undefined
  return typeof encoded?.rubricKey === "string" && typeof encoded.rubricVersion === "string"
    ? `${encoded.rubricKey}@${encoded.rubricVersion}`
    : undefined
}

/** The local side of a bundle: path → content hash. */
export const sameFiles = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) => {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k])
}
